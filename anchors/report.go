package anchors

import (
	"encoding/json"
	"fmt"
	"io"
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
// reason, candidates below, and a summary line.
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
		if t := opts.Titles[id]; t != "" {
			head += "  " + t
		}
		fmt.Fprintf(&b, "%s  %s\n", paint(ansiBold, head), paint(statusColor[st], string(st)))
		for _, r := range shown {
			change := ""
			if r.Change != ChangeNone {
				change = " (" + string(r.Change) + ")"
			}
			fmt.Fprintf(&b, "  %d  %s  %s%s  %s\n", r.Anchor, position(r), paint(statusColor[r.Status], string(r.Status)), change, r.Reason)
			for _, c := range r.Candidates {
				fmt.Fprintf(&b, "       %s %s  %.2f  %s\n", paint(ansiDim, "candidate"), locString(c.Location), c.Confidence, c.Reason)
			}
		}
	}
	s := Summarize(rs)
	fmt.Fprintf(&b, "%d valid, %d drifted, %d invalid\n", s.Valid, s.Drifted, s.Invalid)
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("write text report: %w", err)
	}
	return nil
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
	if l.FQName != "" {
		s += " " + l.FQName
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

// message is a one-line description of a finding.
func message(r Result) string {
	m := fmt.Sprintf("%s is %s", r.Spec, r.Status)
	if r.Change != ChangeNone {
		m += " (" + string(r.Change) + ")"
	}
	m += ": " + r.Reason
	if r.Learning != "" {
		m = fmt.Sprintf("learning %s, anchor %d: %s", r.Learning, r.Anchor, m)
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
		p, s, e := region(r, lp)
		title := fmt.Sprintf("lore: %s (%s)", r.Status, r.Change)
		fmt.Fprintf(&b, "::%s file=%s,line=%d,endLine=%d,title=%s::%s\n", level,
			ghProperty(p), s, e, ghProperty(title), ghData(message(r)))
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
