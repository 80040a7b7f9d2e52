package anchors

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Report is the JSON form of a verification run (DESIGN.md §5).
type Report struct {
	Summary Summary  `json:"summary"`
	Results []Result `json:"results"`
}

// WriteJSON writes rs as {"summary": {...}, "results": [...]}, indented.
func WriteJSON(w io.Writer, rs []Result) error {
	if rs == nil {
		rs = []Result{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(Report{Summary: Summarize(rs), Results: rs}); err != nil {
		return fmt.Errorf("write json report: %w", err)
	}
	return nil
}

// TextOptions configure WriteText.
type TextOptions struct {
	// Color adds ANSI colours (the caller decides, e.g. on a TTY).
	Color bool
	// Titles maps learning ids to titles shown next to them.
	Titles map[string]string
	// HideValid leaves out anchors that are valid and unchanged.
	HideValid bool
	// HideSummary leaves out the last line counting the results.
	HideSummary bool
	// Fixed says --fix already recorded the new baselines of relocated and
	// reformatted anchors: no next step is suggested for them.
	Fixed bool
}

const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiRed    = "\x1b[31m"
	ansiDim    = "\x1b[2m"
)

// WriteText writes rs for people: grouped by learning (in order of first
// appearance), one line per anchor with file:line, status, change and
// reason, candidates and the next step below, and a summary line.
func WriteText(w io.Writer, rs []Result, opts TextOptions) error {
	paint := func(code, s string) string {
		if !opts.Color || code == "" {
			return s
		}
		return code + s + ansiReset
	}
	statusColor := map[Status]string{Valid: ansiGreen, Drifted: ansiYellow, Invalid: ansiRed}
	var order []string
	groups := map[string][]Result{}
	for _, r := range rs {
		if _, ok := groups[r.Learning]; !ok {
			order = append(order, r.Learning)
		}
		groups[r.Learning] = append(groups[r.Learning], r)
	}
	var b strings.Builder
	for _, id := range order {
		g := groups[id]
		var shown []Result
		for _, r := range g {
			if opts.HideValid && r.Status == Valid && r.Change == ChangeNone {
				continue
			}
			shown = append(shown, r)
		}
		if len(shown) == 0 {
			continue
		}
		st := Worst(g)
		head := id
		if head == "" {
			head = "(no learning)"
		}
		if t := title(g[0], opts.Titles); t != "" {
			head += "  " + t
		}
		fmt.Fprintf(&b, "%s  %s\n", paint(ansiBold, head), paint(statusColor[st], string(st)))
		for _, r := range shown {
			change := ""
			if r.Change != ChangeNone {
				change = " (" + string(r.Change) + ")"
			}
			old := ""
			if r.Preexisting {
				old = " " + paint(ansiDim, "[already so at the base]")
			}
			n := strconv.Itoa(r.Anchor)
			if r.Anchor == 0 {
				n = "-" // the learning file itself
			}
			fmt.Fprintf(&b, "  %s  %s  %s%s  %s%s\n", n, position(r), paint(statusColor[r.Status], string(r.Status)), change, r.Reason, old)
			for _, c := range r.Candidates {
				fmt.Fprintf(&b, "       %s %s  %.2f  %s\n", paint(ansiDim, "candidate"), locString(c.Location), c.Confidence, c.Reason)
			}
			if _, fixed := Fix(r); fixed && opts.Fixed {
				continue
			}
			if next := NextStep(r); next != "" {
				fmt.Fprintf(&b, "     %s %s\n", paint(ansiDim, "next:"), next)
			}
		}
	}
	if !opts.HideSummary {
		s := Summarize(rs)
		fmt.Fprintf(&b, "%d valid, %d drifted, %d invalid", s.Valid, s.Drifted, s.Invalid)
		if n := countPreexisting(rs); n > 0 {
			fmt.Fprintf(&b, " (%d of the findings already so at the base)", n)
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("write text report: %w", err)
	}
	return nil
}

func countPreexisting(rs []Result) int {
	n := 0
	for _, r := range rs {
		if r.Preexisting {
			n++
		}
	}
	return n
}

// title is r's learning title: the result's own, else from titles.
func title(r Result, titles map[string]string) string {
	if r.Title != "" {
		return r.Title
	}
	return titles[r.Learning]
}

// NextStep says what a person does about r, with the commands to run;
// "" when nothing is to be done.
func NextStep(r Result) string {
	id, n := r.Learning, r.Anchor
	switch {
	case r.Change == ChangeMalformed:
		return "fix the learning file at the line shown (a merge conflict: keep one side and remove the <<<<<<< ======= >>>>>>> lines), then run lore verify"
	case r.Status == Invalid && strings.HasPrefix(r.Spec, "glob:"):
		return fmt.Sprintf("change the pattern (lore anchor rm %s %d, then lore anchor add %s glob:PATTERN), or remove the learning if its files are gone (lore learn rm %s)", id, n, id, id)
	case r.Status == Invalid && len(r.Candidates) > 0:
		return fmt.Sprintf("if a candidate is the same code, re-anchor the learning there (lore anchor accept %s/%d --to 1 for the first, or --to SPEC); if the code is gone, %s", id, n, removal(r))
	case r.Status == Invalid:
		return fmt.Sprintf("re-anchor the learning where the code went (lore anchor accept %s/%d --to SPEC); if the code is gone, %s", id, n, removal(r))
	case r.Status == Drifted && len(r.Candidates) > 0:
		return fmt.Sprintf("re-read the learning against the code (lore learn show %s): if it is about code a candidate now holds, re-anchor it there (lore anchor accept %s/%d --to 1 for the first, or --to SPEC); %selse edit it if it no longer holds, then lore anchor accept %s/%d", id, id, n, ifDeleted(r), id, n)
	case r.Status == Drifted && relocated(r.Change):
		return fmt.Sprintf("re-read the learning against the code (lore learn show %s): %selse edit it if it no longer holds, then lore anchor accept %s/%d", id, ifDeleted(r), id, n)
	case r.Status == Drifted:
		return fmt.Sprintf("re-read the learning against the code (lore learn show %s), edit it if it no longer holds, then lore anchor accept %s/%d", id, id, n)
	case relocated(r.Change) || r.Change == ChangeLinesShifted || r.Change == ChangeReformatted:
		return "lore verify --fix records the new baseline"
	}
	return ""
}

// ifDeleted is the step for a relocation followed with its code changed
// when the anchored code was in fact deleted and other code took its
// place: lore reads such a change as a relocation now and then (a test
// rewritten under a new name, a getter gone beside a new builder
// method), and only the reader can tell.
func ifDeleted(r Result) string {
	if !relocated(r.Change) {
		return ""
	}
	return "if the code it was about was deleted rather than moved there, " + removal(r) + "; "
}

// removal is the step for an anchor whose code is gone: the anchor
// goes, and the learning with it only when nothing else holds it (a
// learning with other anchors keeps what they are about).
func removal(r Result) string {
	return fmt.Sprintf("remove the anchor (lore anchor rm %s %d) or the learning (lore learn rm %s)", r.Learning, r.Anchor, r.Learning)
}

// position is "file:line" of where a result points now, else where it
// pointed.
func position(r Result) string {
	if r.To != nil {
		return locString(*r.To)
	}
	return locString(r.From)
}

func locString(l Location) string {
	s := l.Path
	if start, _, ok := parseRange(l.Lines); ok {
		s += fmt.Sprintf(":%d", start)
	}
	if l.LocalName != "" {
		s += " " + l.LocalName
	}
	return s
}

// region returns the path and line range a result is reported at: the
// current location when found, else the old one; a glob or a finding
// without a file points at the learning file.
func region(r Result, learningPath func(string) string) (string, int, int) {
	l := r.From
	if r.To != nil {
		l = *r.To
	}
	p := l.Path
	if strings.HasPrefix(r.Spec, "glob:") || p == "" {
		p = learningPath(r.Learning)
		return p, 1, 1
	}
	if s, e, ok := parseRange(l.Lines); ok {
		return p, s, e
	}
	return p, 1, 1
}

func defaultLearningPath(id string) string { return ".lore/learnings/" + id + ".md" }

// message is a one-line description of a finding: the learning by id and
// title, the anchor, what happened and what to do.
func message(r Result, titles map[string]string) string {
	m := fmt.Sprintf("%s is %s", r.Spec, r.Status)
	if r.Change != ChangeNone {
		m += " (" + string(r.Change) + ")"
	}
	m += ": " + r.Reason
	for i, c := range r.Candidates {
		// Numbered as anchor accept --to takes them: a CI annotation
		// has no other place to name them.
		sep := "; "
		if i == 0 {
			sep = ". Candidates: "
		}
		m += fmt.Sprintf("%s%d %s (%.2f)", sep, i+1, locString(c.Location), c.Confidence)
	}
	if r.Learning != "" {
		who := "learning " + r.Learning
		if t := title(r, titles); t != "" {
			who += fmt.Sprintf(" %q", t)
		}
		if r.Anchor > 0 {
			who += fmt.Sprintf(", anchor %d", r.Anchor)
		}
		m = who + ": " + m
	}
	if r.Preexisting {
		m += " (already so at the base of this change)"
	}
	if next := NextStep(r); next != "" {
		m += ". Next: " + next
	}
	return m
}

// GitHubOptions configure WriteGitHub.
type GitHubOptions struct {
	// LearningPath maps a learning id to its file, for findings without a
	// code location (globs); default .lore/learnings/<id>.md.
	LearningPath func(id string) string
	// IncludeValid also annotates valid anchors that moved or were
	// reformatted (as notices).
	IncludeValid bool
	// Titles maps learning ids to titles for results without a Title.
	Titles map[string]string
}

// WriteGitHub writes GitHub Actions workflow commands: a warning per
// drifted anchor, an error per invalid one.
func WriteGitHub(w io.Writer, rs []Result, opts GitHubOptions) error {
	lp := opts.LearningPath
	if lp == nil {
		lp = defaultLearningPath
	}
	var b strings.Builder
	for _, r := range rs {
		level := ""
		switch r.Status {
		case Drifted:
			level = "warning"
		case Invalid:
			level = "error"
		default:
			if !opts.IncludeValid || r.Change == ChangeNone {
				continue
			}
			level = "notice"
		}
		if r.Preexisting && level == "error" {
			level = "warning" // shown, not failing: the change did not cause it
		}
		p, s, e := region(r, lp)
		head := fmt.Sprintf("lore: %s (%s)", r.Status, r.Change)
		if t := title(r, opts.Titles); t != "" {
			head += " " + t
		}
		fmt.Fprintf(&b, "::%s file=%s,line=%d,endLine=%d,title=%s::%s\n", level,
			ghProperty(p), s, e, ghProperty(head), ghData(message(r, opts.Titles)))
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write github annotations: %w", err)
	}
	return nil
}

func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
