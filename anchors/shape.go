package anchors

import (
	"context"

	"github.com/lorehq/lore/analyzer"
)

// Baselines hold shapes in the format of the lore that recorded them
// (analyzer.ShapeFormat): "sha256:…" (format 1) before formatter-proof
// shapes, "s2:…" (format 2) since. A baseline is compared with the code
// read in its own format, so an old baseline verifies exactly as it did;
// one rewritten by --fix, accept or add gets format 2. When the baseline's
// text is still in Options.Base, an anchor whose code changed is also
// compared with that text as this lore reads it: a format 1 anchor in
// format 2, and a format 2 anchor recorded before a rule of the canonical
// stream was added (a formatter's parentheses), so that a formatter run
// right after an upgrade drifts neither.

// format returns the format of a's shape (of its sig when it has none);
// 0 when it has neither.
func format(a Anchor) analyzer.ShapeFormat {
	if f := analyzer.FormatOf(a.Shape); f != 0 {
		return f
	}
	return analyzer.FormatOf(a.Sig)
}

// streamKey names a file's content read in one format.
type streamKey struct {
	path, hash string
	format     analyzer.ShapeFormat
}

// stream returns f read in format fm, cached for the run: many anchors
// and candidates read one file.
func (v *Verifier) stream(f *File, fm analyzer.ShapeFormat) *analyzer.Stream {
	if fm != analyzer.ShapeLexical {
		fm = analyzer.ShapeCanonical
	}
	key := streamKey{f.Path, f.Hash, fm}
	if s, ok := v.streams.Load(key); ok {
		return s.(*analyzer.Stream)
	}
	s, _ := v.streams.LoadOrStore(key, fm.Stream(f.Lang, f.Src))
	return s.(*analyzer.Stream)
}

// symbolShape returns the shape of sym, a symbol of f, in a's format, and
// a function that returns its sig. The shape comes from the file's stream;
// the sig, needed only when the shape changed, may take a parse of f (see
// File.withShape).
func (v *Verifier) symbolShape(a Anchor, f *File, sym analyzer.Symbol) (shape string, sig func() string) {
	if format(a) != analyzer.ShapeLexical {
		return v.shapeOf(f, sym), func() string { return f.withShape(sym).Sig }
	}
	if sym.Shape == "" && f.shaped == nil {
		return "", func() string { return "" } // not parsed, as Stream.Symbol says
	}
	st := v.stream(f, analyzer.ShapeLexical)
	return st.Shape(sym.StartLine, sym.EndLine), func() string {
		_, sig := st.Symbol(f.withShape(sym))
		return sig
	}
}

// shapeOf returns the shape of s, a symbol of f: the parse's, or, for a
// symbol read from the index, which keeps none, its lines' in f's
// canonical stream, which is the same (no parse needed).
func (v *Verifier) shapeOf(f *File, s analyzer.Symbol) string {
	if s.Shape != "" || f == nil || f.Skipped != "" {
		return s.Shape
	}
	return v.stream(f, analyzer.ShapeCanonical).Shape(s.StartLine, s.EndLine)
}

// fileShape returns the shape of the whole of f in a's format; "" for a
// binary file.
func (v *Verifier) fileShape(a Anchor, f *File) string {
	if f.Skipped == "binary" {
		return ""
	}
	return v.stream(f, format(a)).Shape(0, 0)
}

// baseSymbol returns a's symbol as it was baselined, from Options.Base:
// the symbol of a's name (any overload) whose text has the baseline hash
// or shape, and its file.
func (v *Verifier) baseSymbol(ctx context.Context, a Anchor) (analyzer.Symbol, *File, bool) {
	if v.opts.Base == nil || a.Hash == "" {
		return analyzer.Symbol{}, nil, false
	}
	bf, err := v.opts.Base.File(ctx, a.Path())
	if err != nil {
		return analyzer.Symbol{}, nil, false
	}
	for _, s := range sameNamed(bf, a.Name()) {
		if s.Hash == a.Hash {
			return s, bf, true
		}
	}
	if a.Shape == "" {
		return analyzer.Symbol{}, nil, false
	}
	for _, s := range sameNamed(bf, a.Name()) {
		if v.shapeOf(bf, s) == a.Shape {
			return s, bf, true
		}
	}
	return analyzer.Symbol{}, nil, false
}

// upgraded returns a symbol anchor's baseline as this lore reads it (in
// format 2, by the current canonical stream), when Options.Base still
// holds its text and that reading differs from the recorded one; ok is
// false otherwise.
func (v *Verifier) upgraded(ctx context.Context, a Anchor) (shape, sig string, ok bool) {
	s, bf, ok := v.baseSymbol(ctx, a)
	if !ok || s.Hash != a.Hash {
		return "", "", false
	}
	if s = bf.withShape(s); analyzer.FormatOf(s.Shape) != analyzer.ShapeCanonical || (s.Shape == a.Shape && s.Sig == a.Sig) {
		return "", "", false
	}
	return s.Shape, s.Sig, true
}

// upgradedFile returns a file anchor's baseline as this lore reads it,
// when Options.Base still holds the file as it was and that reading
// differs from the recorded one.
func (v *Verifier) upgradedFile(ctx context.Context, a Anchor) (string, bool) {
	if v.opts.Base == nil || a.Hash == "" {
		return "", false
	}
	bf, err := v.opts.Base.File(ctx, a.Path())
	if err != nil || bf.Hash != a.Hash || bf.Skipped == "binary" {
		return "", false
	}
	if up := v.stream(bf, analyzer.ShapeCanonical).Shape(0, 0); up != a.Shape {
		return up, true
	}
	return "", false
}

// shapeTokens returns the tokens of s in cf as a's format reads them,
// cached for the run like symbolTokens.
func (v *Verifier) shapeTokens(a Anchor, cf *File, s analyzer.Symbol) []string {
	if format(a) == analyzer.ShapeLexical {
		return v.symbolTokens(cf, s)
	}
	key := symbolKey(cf, s) + "#s2"
	if t, ok := v.tokens.Load(key); ok {
		return t.([]string)
	}
	toks := v.stream(cf, analyzer.ShapeCanonical).Tokens(s.StartLine, s.EndLine)
	v.tokens.Store(key, toks)
	return toks
}
