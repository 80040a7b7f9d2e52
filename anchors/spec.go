package anchors

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Type is what an anchor points at.
type Type string

// The anchor types.
const (
	TypeSymbol Type = "symbol"
	TypeLines  Type = "lines"
	TypeFile   Type = "file"
	TypeGlob   Type = "glob"
)

// Anchor is one anchor as stored in a learning file: the spec that names
// what it points at and the baseline recorded when it was created or last
// accepted. Exactly one of Symbol, Lines (without Symbol), File and Glob
// names the target; for a symbol anchor Lines holds the baseline range
// ("40-62").
type Anchor struct {
	Symbol string `json:"symbol,omitempty"` // path::Outer::inner
	Lines  string `json:"lines,omitempty"`  // path#L10-L24, or the range of a symbol anchor
	File   string `json:"file,omitempty"`   // path
	Glob   string `json:"glob,omitempty"`   // pattern, ** allowed
	Kind   string `json:"kind,omitempty"`   // symbol kind at baseline
	Hash   string `json:"hash,omitempty"`   // exact text fingerprint
	Shape  string `json:"shape,omitempty"`  // token fingerprint
	Sig    string `json:"sig,omitempty"`    // signature fingerprint (symbols)
	// Sketch summarises the baseline's tokens (symbols and lines) so that
	// a renamed and edited symbol, or edited lines, can be recognised
	// without history: "m1:" and 64 hex digits (see sketch.go). Optional.
	Sketch string `json:"sketch,omitempty"`
}

// Type reports the anchor's type, or "" when the anchor names no target.
func (a Anchor) Type() Type {
	switch {
	case a.Symbol != "":
		return TypeSymbol
	case a.Lines != "":
		return TypeLines
	case a.File != "":
		return TypeFile
	case a.Glob != "":
		return TypeGlob
	}
	return ""
}

// Spec returns the anchor's command-line spec: path::A::b, path#L1-L2,
// path, or glob:pattern.
func (a Anchor) Spec() string {
	switch a.Type() {
	case TypeSymbol:
		return a.Symbol
	case TypeLines:
		return a.Lines
	case TypeFile:
		return a.File
	case TypeGlob:
		return "glob:" + a.Glob
	}
	return ""
}

// Path returns the repository-relative file the anchor points into ("" for
// globs).
func (a Anchor) Path() string {
	switch a.Type() {
	case TypeSymbol:
		p, _, _ := strings.Cut(a.Symbol, "::")
		return p
	case TypeLines:
		p, _, _ := strings.Cut(a.Lines, "#")
		return p
	case TypeFile:
		return a.File
	}
	return ""
}

// FQName returns a symbol anchor's qualified name within its file
// ("Outer::inner", without a selector), or "".
func (a Anchor) FQName() string {
	if a.Symbol == "" {
		return ""
	}
	_, fq, _ := strings.Cut(a.Name(), "::")
	return fq
}

// Name returns a symbol anchor's full name without its selector
// ("path::Outer::inner"): the FQName of the symbol it names, shared by
// all of its overloads. "" for other anchors.
func (a Anchor) Name() string {
	name, _ := splitSelector(a.Symbol)
	return name
}

// Selector returns what tells a symbol anchor's symbol from others of its
// name in its file: "(String,int)", "[setter]", or "" (see overload.go).
func (a Anchor) Selector() string {
	_, sel := splitSelector(a.Symbol)
	return sel
}

// splitSelector splits "path::Outer::inner(T)" into its name and its
// selector: a trailing "(…)" or "[…]" after a name in the last segment,
// with C++'s qualifiers after it ("(int) const"). An empty pair right
// after "operator" is the name's own ("Less::operator()").
func splitSelector(sym string) (string, string) {
	body, quals := cutQualifiers(sym)
	n := len(body)
	if n == 0 || (body[n-1] != ')' && body[n-1] != ']') {
		return sym, ""
	}
	open, closing := byte('('), body[n-1]
	if closing == ']' {
		open = '['
	}
	depth := 0
	for i := n - 1; i >= 0; i-- {
		switch body[i] {
		case closing:
			depth++
		case open:
			depth--
			if depth == 0 {
				seg := strings.LastIndex(body[:i], "::")
				if seg < 0 || i == seg+2 || i == n-2 && operatorName(body[seg+2:i]) {
					return sym, "" // no name before it, or an operator's: part of the name
				}
				return body[:i], body[i:] + quals
			}
		}
	}
	return sym, ""
}

// cutQualifiers cuts what may follow the parameters of a C++ member
// function's selector and tell its overloads apart: const, volatile, &
// and &&. quals is what was cut, spaces and all.
func cutQualifiers(sym string) (body, quals string) {
	body = sym
	for {
		t := strings.TrimRight(body, " ")
		switch {
		case strings.HasSuffix(t, "const") || strings.HasSuffix(t, "volatile"):
			w := strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(t, "const"), "volatile"), " ")
			if !strings.HasSuffix(w, ")") && !strings.HasSuffix(w, "&") {
				return body, sym[len(body):]
			}
			body = w
		case strings.HasSuffix(t, "&"):
			body = strings.TrimRight(strings.TrimSuffix(t, "&"), " ")
		default:
			if !strings.HasSuffix(t, ")") {
				return sym, "" // not after a parameter list: part of the name
			}
			return t, sym[len(t):]
		}
	}
}

// operatorName reports whether name is a C++ operator's name before the
// brackets that complete it: "operator", "operator new", "operator delete".
func operatorName(name string) bool {
	switch strings.Join(strings.Fields(name), " ") {
	case "operator", "operator new", "operator delete":
		return true
	}
	return false
}

// Range returns the anchor's line range: the target of a lines anchor, the
// baseline range of a symbol anchor. ok is false when there is none.
func (a Anchor) Range() (start, end int, ok bool) {
	switch a.Type() {
	case TypeSymbol:
		return parseRange(a.Lines)
	case TypeLines:
		_, r, _ := strings.Cut(a.Lines, "#")
		r = strings.ReplaceAll(r, "L", "")
		return parseRange(r)
	}
	return 0, 0, false
}

func parseRange(s string) (int, int, bool) {
	if s == "" {
		return 0, 0, false
	}
	a, b, found := strings.Cut(s, "-")
	if !found {
		b = a
	}
	start, err1 := strconv.Atoi(a)
	end, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || start < 1 || end < start {
		return 0, 0, false
	}
	return start, end, true
}

// FormatRange renders a 1-based inclusive range as stored in a symbol
// anchor ("40-62").
func FormatRange(start, end int) string { return fmt.Sprintf("%d-%d", start, end) }

// ParseSpec parses a command-line anchor spec into an Anchor without a
// baseline. It checks the syntax and that paths stay inside the repository;
// it does not look at the files.
func ParseSpec(spec string) (Anchor, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return Anchor{}, errors.New("empty anchor spec: use path, path::Symbol, path#L10-L20 or glob:pattern")
	}
	if pat, ok := strings.CutPrefix(spec, "glob:"); ok {
		if err := checkPath(pat); err != nil {
			return Anchor{}, fmt.Errorf("anchor %q: %w", spec, err)
		}
		if !validGlob(pat) {
			return Anchor{}, fmt.Errorf("anchor %q: bad glob pattern", spec)
		}
		return Anchor{Glob: pat}, nil
	}
	if p, fq, ok := strings.Cut(spec, "::"); ok {
		if err := checkPath(p); err != nil {
			return Anchor{}, fmt.Errorf("anchor %q: %w", spec, err)
		}
		name, sel := splitSelector(p + "::" + fq)
		_, fq, _ = strings.Cut(name, "::")
		if fq == "" || strings.HasPrefix(fq, "::") || strings.HasSuffix(fq, "::") {
			return Anchor{}, fmt.Errorf("anchor %q: empty symbol name: write path::Name or path::Outer::inner", spec)
		}
		if strings.ContainsAny(strings.ReplaceAll(fq, "operator()", ""), "()") || strings.HasPrefix(sel, "[") && strings.ContainsAny(sel[1:len(sel)-1], "()[]") {
			return Anchor{}, fmt.Errorf("anchor %q: bad overload selector: write path::Outer::name(Type1,Type2) or path::Outer::name[kind]", spec)
		}
		return Anchor{Symbol: name + compactSelector(sel)}, nil
	}
	if p, r, ok := strings.Cut(spec, "#"); ok {
		if err := checkPath(p); err != nil {
			return Anchor{}, fmt.Errorf("anchor %q: %w", spec, err)
		}
		start, end, ok := parseLineSpec(r)
		if !ok {
			return Anchor{}, fmt.Errorf("anchor %q: bad line range: write path#L10-L24 or path#L10", spec)
		}
		return Anchor{Lines: fmt.Sprintf("%s#L%d-L%d", p, start, end)}, nil
	}
	if err := checkPath(spec); err != nil {
		return Anchor{}, fmt.Errorf("anchor %q: %w", spec, err)
	}
	return Anchor{File: spec}, nil
}

// compactSelector removes the spaces of a selector but those between two
// words ("(unsigned int, char *)" → "(unsigned int,char*)").
func compactSelector(sel string) string {
	if sel == "" {
		return ""
	}
	var b strings.Builder
	prevWord, space := false, false
	for i := 0; i < len(sel); i++ {
		c := sel[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			space = true
			continue
		}
		word := isIdent(string(c))
		if space && prevWord && word {
			b.WriteByte(' ')
		}
		b.WriteByte(c)
		prevWord, space = word, false
	}
	return b.String()
}

func parseLineSpec(r string) (int, int, bool) {
	a, b, found := strings.Cut(r, "-")
	a, ok1 := strings.CutPrefix(a, "L")
	if !ok1 {
		return 0, 0, false
	}
	if !found {
		b = "L" + a
	}
	b, ok2 := strings.CutPrefix(b, "L")
	if !ok2 {
		return 0, 0, false
	}
	return parseRange(a + "-" + b)
}

// checkPath accepts clean, slash-separated, repository-relative paths.
func checkPath(p string) error {
	switch {
	case p == "":
		return errors.New("empty path")
	case strings.Contains(p, "\\"):
		return errors.New("use forward slashes in paths")
	case strings.HasPrefix(p, "/") || (len(p) > 1 && p[1] == ':'):
		return errors.New("path must be relative to the repository root")
	case strings.ContainsRune(p, 0):
		return errors.New("path contains a NUL byte")
	case !utf8.ValidString(p):
		return errors.New("path is not valid UTF-8: lore reads only files whose names are; rename the file")
	}
	if c := path.Clean(p); c != p {
		if c == ".." || strings.HasPrefix(c, "../") {
			return errors.New("path escapes the repository")
		}
		return fmt.Errorf("path is not clean: write %q", c)
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		return errors.New("path escapes the repository")
	}
	// git's own files and lore's store change under every command: an
	// anchor there would drift by itself.
	if slices.Contains(strings.Split(p, "/"), ".git") {
		return errors.New("path is inside .git, which is git's, not the repository's code")
	}
	if p == ".lore/db" || strings.HasPrefix(p, ".lore/db/") {
		return errors.New("path is inside .lore/db, lore's store, not the repository's code")
	}
	return nil
}
