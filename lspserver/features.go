package lspserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/analyzer"
	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/internal/warm"
)

// publish verifies the anchors into the document at p (for a learning
// file: its own anchors) with every open buffer laid over the tree, and
// sends the diagnostics.
func (s *server) publish(ctx context.Context, p string) {
	overlay := s.overlay()
	var rs []anchors.Result
	err := s.do(ctx, func(ws *lore.Workspace) error {
		rep, err := ws.Verify(ctx, lore.VerifyOptions{Paths: []string{p}, Overlay: overlay})
		if err == nil {
			rs = rep.Results
			for i := range rs {
				rs[i].Title = rep.Titles[rs[i].Learning]
			}
		}
		return err
	})
	if err != nil {
		s.notify(fmt.Sprintf("verify %s: %v", p, err))
		return
	}
	s.mu.Lock()
	d := s.docs[p]
	if d == nil {
		s.mu.Unlock()
		return // closed meanwhile
	}
	d.results = rs
	diags := s.diagnostics(p, d)
	u := d.uri
	s.mu.Unlock()
	s.tell(ctx, protocol.MethodTextDocumentPublishDiagnostics, &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: diags})
}

// relocated are the changes of a valid anchor whose new place --fix
// records.
func relocated(c anchors.Change) bool {
	switch c {
	case anchors.ChangeMoved, anchors.ChangeRenamed, anchors.ChangeMovedRenamed, anchors.ChangeLinesShifted:
		return true
	}
	return false
}

// diagnostics turns d's results into diagnostics (s.mu held).
func (s *server) diagnostics(p string, d *document) []protocol.Diagnostic {
	out := []protocol.Diagnostic{}
	lines := strings.Split(d.text, "\n")
	var entries []int // learning file: the line of each anchor entry
	if isLearningFile(p) {
		entries = anchorEntries(lines)
	}
	for _, r := range d.results {
		if r.Status == anchors.Valid && !relocated(r.Change) {
			continue
		}
		line := -1
		switch {
		case isLearningFile(p):
			if r.Status == anchors.Valid {
				continue // the code's document says it moved
			}
			line = 0
			if r.Anchor >= 1 && r.Anchor <= len(entries) {
				line = entries[r.Anchor-1]
			}
		case r.To != nil && r.To.Path == p:
			line = startLine(r.To.Lines)
		case r.To == nil && r.From.Path == p:
			line = startLine(r.From.Lines)
		}
		if line < 0 {
			continue
		}
		line = min(line, max(len(lines)-1, 0))
		sev := protocol.DiagnosticSeverityWarning
		switch {
		case r.Status == anchors.Invalid:
			sev = protocol.DiagnosticSeverityError
		case r.Status == anchors.Valid:
			sev = protocol.DiagnosticSeverityHint
		}
		msg := fmt.Sprintf("%s: %s (%s)", title(r), r.Status, r.Change)
		if r.Reason != "" {
			msg += ": " + r.Reason
		}
		if next := anchors.NextStep(r); next != "" {
			msg += ". " + next
		}
		out = append(out, protocol.Diagnostic{
			Range:    lineRange(lines, line),
			Severity: sev,
			Code:     string(r.Change),
			Source:   "lore",
			Message:  msg,
			Data:     map[string]any{"learning": r.Learning, "anchor": r.Anchor},
		})
	}
	return out
}

func title(r anchors.Result) string {
	if r.Title != "" {
		return strconv.Quote(r.Title)
	}
	return "learning " + r.Learning
}

// startLine is the 0-based first line of "start-end", 0 when there is
// none.
func startLine(lines string) int {
	s, _ := parseLines(lines)
	return max(s-1, 0)
}

// parseLines reads "start-end" (1-based).
func parseLines(l string) (int, int) {
	a, b, ok := strings.Cut(l, "-")
	s, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0
	}
	if !ok {
		return s, s
	}
	e, err := strconv.Atoi(b)
	if err != nil {
		return s, s
	}
	return s, e
}

// lineRange is the whole of line n (0-based), in UTF-16 units.
func lineRange(lines []string, n int) protocol.Range {
	end := 0
	if n >= 0 && n < len(lines) {
		end = len(utf16.Encode([]rune(strings.TrimRight(lines[n], "\r"))))
	}
	return protocol.Range{Start: protocol.Position{Line: uint32(n)}, End: protocol.Position{Line: uint32(n), Character: uint32(end)}}
}

// entryRe matches an anchor entry of a learning file's front matter.
var entryRe = regexp.MustCompile(`^\s*-\s*(symbol|lines|file|glob):\s*(\S.*?)\s*$`)

// anchorEntries returns the 0-based line of each anchor entry of a
// learning file, in order.
func anchorEntries(lines []string) []int {
	var out []int
	inAnchors := false
	for i, l := range lines {
		if i > 0 && strings.TrimRight(l, "\r") == "---" {
			break // end of the front matter
		}
		if !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "-") {
			inAnchors = strings.HasPrefix(l, "anchors:")
			continue
		}
		if inAnchors && entryRe.MatchString(l) {
			out = append(out, i)
		}
	}
	return out
}

// current is where an anchor of a learning points in the document at p
// now: the last verification's location, else its recorded lines.
func current(d *document, rf ref, p string) (int, int, bool) {
	if d != nil {
		for _, r := range d.results {
			if r.Learning == rf.id && r.Anchor == rf.pos {
				if r.To != nil && r.To.Path == p {
					s, e := parseLines(r.To.Lines)
					return s, e, s > 0
				}
				if r.To != nil {
					return 0, 0, false // moved to another file
				}
			}
		}
	}
	return rf.anchor.Range()
}

// status is the last verified status of an anchor, "" when not verified.
func status(d *document, rf ref) anchors.Status {
	if d != nil {
		for _, r := range d.results {
			if r.Learning == rf.id && r.Anchor == rf.pos {
				return r.Status
			}
		}
	}
	return ""
}

// hover shows the learnings whose anchored code covers the line (0-based);
// on the first line also those about the whole file.
func (s *server) hover(u protocol.DocumentURI, line int) *protocol.Hover {
	p := s.rel(u)
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p]
	var b strings.Builder
	seen := map[string]bool{}
	for _, rf := range s.refs[p] {
		l := s.learnings[rf.id]
		if l == nil || seen[rf.id] {
			continue
		}
		if rf.anchor.Type() == anchors.TypeFile {
			if line != 0 {
				continue
			}
		} else if st, e, ok := current(d, rf, p); !ok || line+1 < st || line+1 > e {
			continue
		}
		seen[rf.id] = true
		st := status(d, rf)
		if st == "" {
			st = "not verified yet"
		}
		fmt.Fprintf(&b, "**%s** · lore learning `%s` · %s\n\n", l.Title, l.ID, st)
		body := strings.TrimSpace(l.Body)
		if len(body) > 1200 {
			body = body[:1200] + "…"
		}
		if body != "" {
			b.WriteString(body + "\n\n")
		}
		b.WriteString("---\n\n")
	}
	if b.Len() == 0 {
		return nil
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: strings.TrimSuffix(b.String(), "---\n\n")}}
}

// codeLenses puts "N learnings" above anchored code, and above the first
// line for learnings about the whole file.
func (s *server) codeLenses(u protocol.DocumentURI) []protocol.CodeLens {
	p := s.rel(u)
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p]
	byLine := map[int][]string{}
	for _, rf := range s.refs[p] {
		line := 1
		if rf.anchor.Type() != anchors.TypeFile {
			st, _, ok := current(d, rf, p)
			if !ok {
				continue
			}
			line = st
		}
		if l := s.learnings[rf.id]; l != nil && !contains(byLine[line], l.Title) {
			byLine[line] = append(byLine[line], l.Title)
		}
	}
	out := []protocol.CodeLens{}
	keys := make([]int, 0, len(byLine))
	for k := range byLine {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, line := range keys {
		titles := byLine[line]
		label := fmt.Sprintf("%d learnings", len(titles))
		if len(titles) == 1 {
			label = "1 learning: " + titles[0]
		}
		rg := protocol.Range{Start: protocol.Position{Line: uint32(line - 1)}, End: protocol.Position{Line: uint32(line - 1)}}
		out = append(out, protocol.CodeLens{Range: rg, Command: &protocol.Command{Title: label, Command: CommandShow, Arguments: []any{p, line}}})
	}
	return out
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// codeActions offers, for the findings on the requested lines: accepting
// a drift, recording a relocation, re-anchoring at a candidate, removing
// an anchor whose code was deleted; and everywhere in code: a new
// learning anchored here.
func (s *server) codeActions(ctx context.Context, p *protocol.CodeActionParams) []protocol.CodeAction {
	path := s.rel(p.TextDocument.URI)
	from, to := int(p.Range.Start.Line), int(p.Range.End.Line)
	s.mu.Lock()
	d := s.docs[path]
	var results []anchors.Result
	if d != nil {
		results = d.results
	}
	s.mu.Unlock()
	out := []protocol.CodeAction{}
	for _, r := range results {
		loc := r.To
		if loc == nil {
			loc = &r.From
		}
		st, e := parseLines(loc.Lines)
		if !isLearningFile(path) && (loc.Path != path || e-1 < from || st-1 > to) {
			continue
		}
		switch {
		case r.Status == anchors.Drifted && r.To != nil:
			out = append(out, action(fmt.Sprintf("lore: accept the drift of %s (after re-reading it)", title(r)), protocol.QuickFix,
				CommandAccept, r.Learning, r.Anchor))
		case r.Status == anchors.Valid && relocated(r.Change):
			out = append(out, action(fmt.Sprintf("lore: record where %s moved (%s)", title(r), r.Change), protocol.QuickFix,
				CommandFix, r.Learning))
		}
		// Its code gone (or, followed with its code changed, perhaps
		// deleted while other code took its place): the anchor goes.
		if r.Anchor > 0 && (r.Status == anchors.Invalid && r.Change != anchors.ChangeMalformed || r.Status == anchors.Drifted && relocated(r.Change)) {
			why := "its code is gone"
			if r.Status == anchors.Drifted {
				why = "if its code was deleted rather than moved here"
			}
			out = append(out, action(fmt.Sprintf("lore: remove anchor %d of %s (%s)", r.Anchor, title(r), why), protocol.QuickFix,
				CommandRemove, r.Learning, r.Anchor))
		}
		// Where the code may have gone, of any verdict that lists it:
		// an invalid anchor, a drifted one kept on a declaration that
		// lost its code, one followed with close rivals.
		for i, c := range r.Candidates {
			if i == 3 {
				break
			}
			spec := c.FQName
			if spec == "" {
				spec = c.Path + "#L" + strings.Replace(c.Lines, "-", "-L", 1)
			}
			out = append(out, action(fmt.Sprintf("lore: re-anchor %s at %s (confidence %.2f)", title(r), spec, c.Confidence), protocol.QuickFix,
				CommandRelocate, r.Learning, r.Anchor, spec))
		}
	}
	if path != "" && !isLearningFile(path) {
		out = append(out, action("lore: add a learning anchored here", protocol.Refactor, CommandAdd, path, from+1))
	}
	return out
}

func action(title string, kind protocol.CodeActionKind, cmd string, args ...any) protocol.CodeAction {
	return protocol.CodeAction{Title: title, Kind: kind, Command: &protocol.Command{Title: title, Command: cmd, Arguments: args}}
}

// links go from the anchor entries of a learning file to the code.
func (s *server) links(u protocol.DocumentURI) []protocol.DocumentLink {
	p := s.rel(u)
	out := []protocol.DocumentLink{}
	if !isLearningFile(p) {
		return out
	}
	s.mu.Lock()
	root := s.root
	text := ""
	if d := s.docs[p]; d != nil {
		text = d.text
	}
	s.mu.Unlock()
	if text == "" {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return out
		}
		text = string(b)
	}
	lines := strings.Split(text, "\n")
	for _, n := range anchorEntries(lines) {
		m := entryRe.FindStringSubmatchIndex(lines[n])
		kind, spec := lines[n][m[2]:m[3]], lines[n][m[4]:m[5]]
		if kind == "glob" {
			continue
		}
		a := anchors.Anchor{}
		switch kind {
		case "symbol":
			a.Symbol = spec
		case "lines":
			a.Lines = spec
		case "file":
			a.File = spec
		}
		target := a.Path()
		if target == "" {
			continue
		}
		link := uri.File(filepath.Join(root, filepath.FromSlash(target)))
		line := 0
		if st, _, ok := a.Range(); ok {
			line = st
		} else if kind == "symbol" {
			line = s.symbolLine(lines, n)
		}
		t := string(link)
		if line > 0 {
			t += "#L" + strconv.Itoa(line)
		}
		out = append(out, protocol.DocumentLink{
			Range:   protocol.Range{Start: protocol.Position{Line: uint32(n), Character: uint32(m[4])}, End: protocol.Position{Line: uint32(n), Character: uint32(m[5])}},
			Target:  protocol.DocumentURI(t),
			Tooltip: "open " + spec,
		})
	}
	return out
}

// symbolLine is the start of the "lines: S-E" field of the symbol anchor
// entry at line n, 0 when it has none.
func (s *server) symbolLine(lines []string, n int) int {
	for i := n + 1; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "-") || !strings.HasPrefix(lines[i], " ") {
			break
		}
		if v, ok := strings.CutPrefix(l, "lines:"); ok {
			st, _ := parseLines(strings.TrimSpace(v))
			return st
		}
	}
	return 0
}

// execute runs a workspace command.
func (s *server) execute(ctx context.Context, p *protocol.ExecuteCommandParams) (any, error) {
	str := func(i int) string {
		if i < len(p.Arguments) {
			if v, ok := p.Arguments[i].(string); ok {
				return v
			}
		}
		return ""
	}
	num := func(i int) int {
		if i < len(p.Arguments) {
			if v, ok := p.Arguments[i].(float64); ok {
				return int(v)
			}
		}
		return 0
	}
	var res any
	var msg string
	wrote := true
	err := s.do(ctx, func(ws *lore.Workspace) error {
		switch p.Command {
		case CommandAccept:
			rep, err := ws.Accept(ctx, lore.AcceptOptions{Learning: str(0), Anchor: num(1)})
			if err != nil {
				return err
			}
			res, msg = rep, fmt.Sprintf("accepted %d anchor(s) of %s at their current code", len(rep.Accepted), str(0))
		case CommandRelocate:
			if str(2) == "" || num(1) < 1 {
				return fmt.Errorf("%s: give learning, anchor and spec", p.Command)
			}
			// In the anchor's place, as anchor accept --to: its number
			// and its history stay.
			rep, err := ws.Accept(ctx, lore.AcceptOptions{Learning: str(0), Anchor: num(1), To: str(2)})
			if err != nil {
				return err
			}
			res, msg = rep, fmt.Sprintf("re-anchored %s/%d at %s", str(0), num(1), str(2))
		case CommandRemove:
			if num(1) < 1 {
				return fmt.Errorf("%s: give learning and anchor", p.Command)
			}
			l, err := ws.RemoveAnchor(ctx, str(0), strconv.Itoa(num(1)))
			if err != nil {
				return err
			}
			res, msg = l, fmt.Sprintf("removed anchor %d of %s; %d left", num(1), l.ID, len(l.Anchors))
			if len(l.Anchors) == 0 {
				msg += fmt.Sprintf(": remove the learning too if it was only about that code (lore learn rm %s)", l.ID)
			}
		case CommandFix:
			rep, err := ws.Verify(ctx, lore.VerifyOptions{Learnings: []string{str(0)}, Fix: true})
			if err != nil {
				return err
			}
			res, msg = rep, fmt.Sprintf("recorded the new baselines of %s", str(0))
		case CommandAdd:
			spec, err := anchorAt(ctx, ws, str(0), num(1))
			if err != nil {
				return err
			}
			t := str(2)
			if t == "" {
				t = "What a reader of " + spec + " should know"
			}
			l, err := ws.Add(ctx, lore.AddOptions{Title: t, Anchors: []string{spec}})
			if err != nil {
				return err
			}
			res, msg = map[string]string{"id": l.ID, "path": l.Path, "spec": spec}, fmt.Sprintf("learning %s anchored at %s: write it in %s", l.ID, spec, l.Path)
		case CommandShow:
			wrote = false
			msg = s.describe(str(0), num(1))
			res = msg
		default:
			wrote = false
			return fmt.Errorf("unknown command %q", p.Command)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.tell(ctx, protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: protocol.MessageTypeInfo, Message: "lore: " + msg})
	if wrote {
		s.changed(warm.Change{Learnings: true})
	}
	return res, nil
}

// anchorAt is the spec of the innermost symbol enclosing line (1-based)
// of path, else of the line alone.
func anchorAt(ctx context.Context, ws *lore.Workspace, path string, line int) (string, error) {
	if path == "" || line < 1 {
		return "", fmt.Errorf("%s: give a path and a line", CommandAdd)
	}
	best := analyzer.Symbol{}
	err := ws.Symbols(ctx, []string{path}, func(sym analyzer.Symbol) error {
		if sym.StartLine <= line && line <= sym.EndLine && (best.FQName == "" || sym.EndLine-sym.StartLine < best.EndLine-best.StartLine) {
			best = sym
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if best.FQName != "" {
		if strings.Contains(best.FQName, "::") {
			return best.FQName, nil
		}
		return path + "::" + best.FQName, nil
	}
	return fmt.Sprintf("%s#L%d-L%d", path, line, line), nil
}

// describe lists the learnings anchored at a line of path.
func (s *server) describe(path string, line int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[path]
	var parts []string
	for _, rf := range s.refs[path] {
		st := 1
		if rf.anchor.Type() != anchors.TypeFile {
			var ok bool
			if st, _, ok = current(d, rf, path); !ok {
				continue
			}
		}
		if l := s.learnings[rf.id]; l != nil && st == line {
			parts = append(parts, fmt.Sprintf("%s (%s)", l.Title, l.ID))
		}
	}
	if len(parts) == 0 {
		return "no learnings here"
	}
	return strings.Join(parts, "; ")
}
