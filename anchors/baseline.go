package anchors

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/lorehq/lore/analyzer"
)

// ErrAmbiguous reports a symbol spec that names more than one symbol.
var ErrAmbiguous = errors.New("ambiguous symbol")

// ErrNoTarget reports an anchor that points at nothing in the source.
var ErrNoTarget = errors.New("anchor points at nothing")

// Baseline checks that a points at something in files and returns it with
// its baseline recorded: kind, lines, hash, shape, sig and sketch for a
// symbol; hash, shape and sketch for lines; hash and shape for files. A
// symbol spec must name exactly one symbol. Errors wrap ErrNoTarget or
// ErrAmbiguous when the spec is wrong.
func Baseline(ctx context.Context, files Files, a Anchor) (Anchor, error) {
	if files == nil {
		return a, errors.New("anchors: baseline: nil Files")
	}
	spec := a.Spec()
	parsed, err := ParseSpec(spec)
	if err != nil {
		return a, err
	}
	if parsed.Type() == TypeGlob {
		ps, err := files.Paths(ctx)
		if err != nil {
			return a, fmt.Errorf("anchor %s: %w", spec, err)
		}
		if len(matchGlob(parsed.Glob, ps)) == 0 {
			return a, fmt.Errorf("anchor %s: no file matches the pattern: %w", spec, ErrNoTarget)
		}
		return parsed, nil
	}
	f, err := files.File(ctx, parsed.Path())
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return a, fmt.Errorf("anchor %s: no such file %s in the repository: %w", spec, parsed.Path(), ErrNoTarget)
		}
		return a, fmt.Errorf("anchor %s: %w", spec, err)
	}
	switch parsed.Type() {
	case TypeFile:
		return fileAnchor(f), nil
	case TypeLines:
		if f.Skipped == "binary" {
			return a, fmt.Errorf("anchor %s: %s is a binary file: anchor the whole file instead", spec, f.Path)
		}
		start, end, _ := parsed.Range()
		if n := lineCount(f.Src); end > n {
			return a, fmt.Errorf("anchor %s: %s has %d lines: %w", spec, f.Path, n, ErrNoTarget)
		}
		out := linesAnchor(f, start, end)
		out.Sketch = symbolSketch(f.Lang, f.Src, "", start, end)
		return out, nil
	case TypeSymbol:
		sym, err := findSymbol(f, parsed)
		if err != nil {
			return a, err
		}
		out := symbolAnchor(f, sym, parsed.Selector() != "")
		out.Sketch = symbolSketch(f.Lang, f.Src, out.FQName(), sym.StartLine, sym.EndLine)
		return out, nil
	}
	return a, fmt.Errorf("anchor %q: names no target", spec)
}

// findSymbol returns the one symbol of f named by the symbol anchor a.
func findSymbol(f *File, a Anchor) (analyzer.Symbol, error) {
	spec := a.Spec()
	if f.Skipped != "" {
		return analyzer.Symbol{}, fmt.Errorf("anchor %s: %s is not parsed (%s): use a file anchor: %w", spec, f.Path, f.Skipped, ErrNoTarget)
	}
	if f.Lang == "" {
		return analyzer.Symbol{}, fmt.Errorf("anchor %s: lore reads no symbols from %s (unknown language): use a lines or file anchor: %w", spec, f.Path, ErrNoTarget)
	}
	found := sameNamed(f, a.Name())
	if len(found) == 0 {
		msg := fmt.Sprintf("anchor %s: no symbol %s in %s", spec, a.FQName(), f.Path)
		if near := closeNames(f.Symbols, a.FQName(), 3); len(near) > 0 {
			msg += "; did you mean " + strings.Join(near, ", ") + "?"
		}
		return analyzer.Symbol{}, fmt.Errorf("%s: %w", msg, ErrNoTarget)
	}
	if sel := a.Selector(); sel != "" {
		match := selected(f, found, sel)
		if len(match) == 1 {
			return match[0], nil
		}
		if len(match) == 0 {
			return analyzer.Symbol{}, fmt.Errorf("anchor %s: no %s%s in %s; %s: %w", spec, a.FQName(), normSelector(sel, f.Lang), f.Path, choices(f, found), ErrNoTarget)
		}
		found = match
	} else if len(found) == 1 {
		return found[0], nil
	}
	return analyzer.Symbol{}, ambiguous(spec, f, found)
}

// AmbiguousError reports a symbol spec that names several symbols. Specs
// holds what names each of them: a spec with its selector, else its
// lines.
type AmbiguousError struct {
	Spec  string
	Specs []string
	msg   string
}

func (e *AmbiguousError) Error() string { return e.msg }

// Is makes errors.Is(err, ErrAmbiguous) hold.
func (e *AmbiguousError) Is(target error) bool { return target == ErrAmbiguous }

func ambiguous(spec string, f *File, found []analyzer.Symbol) error {
	e := &AmbiguousError{Spec: spec}
	for _, s := range found {
		e.Specs = append(e.Specs, unique(f, s))
	}
	e.msg = fmt.Sprintf("anchor %s: %d symbols have this name: anchor one of %s", spec, len(found), strings.Join(e.Specs, ", "))
	return e
}

// unique names s in f: its spec with the selector when that tells it
// from its namesakes, else its lines.
func unique(f *File, s analyzer.Symbol) string {
	sel := selectorOf(f, s)
	n := 0
	for _, x := range sameNamed(f, s.FQName) {
		if selectorOf(f, x) == sel {
			n++
		}
	}
	if sel != "" && n == 1 {
		return s.FQName + sel
	}
	return fmt.Sprintf("%s#L%d-L%d", f.Path, s.StartLine, s.EndLine)
}

// choices lists the specs of syms for a message.
func choices(f *File, syms []analyzer.Symbol) string {
	var out []string
	for _, s := range syms {
		out = append(out, unique(f, s))
	}
	return "there is " + strings.Join(out, ", ")
}

// closeNames returns up to n qualified names of syms (without the path)
// closest to fq by edit distance.
func closeNames(syms []analyzer.Symbol, fq string, n int) []string {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	seen := map[string]bool{}
	lfq := strings.ToLower(fq)
	most := max(2, len(fq)/3)
	for _, s := range syms {
		_, q, _ := strings.Cut(s.FQName, "::")
		if seen[q] {
			continue
		}
		seen[q] = true
		d := editDistance(lfq, strings.ToLower(q), most)
		if ld := editDistance(strings.ToLower(lastName(fq)), strings.ToLower(s.Name), most); ld < d {
			d = ld
		}
		if d <= most {
			cs = append(cs, cand{q, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

// symbolAnchor is the baseline of symbol s of f, named with its selector
// when its name alone is ambiguous in f or keep asks for one.
func symbolAnchor(f *File, s analyzer.Symbol, keep bool) Anchor {
	return fingerprinted(f, f.withShape(s), keep)
}

// fingerprinted is symbolAnchor with the fingerprints s carries (a symbol
// read from the index: its hash only).
func fingerprinted(f *File, s analyzer.Symbol, keep bool) Anchor {
	return Anchor{Symbol: specOf(f, s, keep), Kind: s.Kind, Lines: FormatRange(s.StartLine, s.EndLine),
		Hash: s.Hash, Shape: s.Shape, Sig: s.Sig}
}

// linesAnchor is the baseline of lines start..end of f.
func linesAnchor(f *File, start, end int) Anchor {
	fp, _ := analyzer.RangeFingerprint(f.Lang, f.Src, start, end)
	return Anchor{Lines: fmt.Sprintf("%s#L%d-L%d", f.Path, start, end), Hash: fp.Hash, Shape: fp.Shape}
}

// fileAnchor is the baseline of a whole file. Binary files have no shape.
func fileAnchor(f *File) Anchor {
	a := Anchor{File: f.Path, Hash: f.Hash}
	if f.Skipped != "binary" {
		a.Shape = analyzer.ShapeOf(f.Lang, f.Src)
	}
	return a
}

// lineCount is the number of lines of src; a final newline ends the last
// line rather than starting a new one.
func lineCount(src []byte) int {
	n := 0
	for _, c := range src {
		if c == '\n' {
			n++
		}
	}
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}
