package analyzer

import (
	"crypto/sha256"
	"reflect"
	"testing"
)

// recordSymbols are symbols that exercise every choice of the symbols
// record: known and unknown kinds, names that are and are not the last
// segment of their FQName, signatures equal to and apart from their
// shape, an end line before the start, and fingerprints that are not
// digests.
func recordSymbols(p string) []Symbol {
	h := func(s string) string { return digestString([]byte(s)) }
	return []Symbol{
		{Path: p, FQName: p + "::Read", Name: "Read", Kind: KindFunction, StartLine: 3, EndLine: 9,
			Hash: h("a"), Shape: h("b"), Sig: h("c")},
		{Path: p, FQName: p + "::T::Read", Name: "Read", Kind: KindMethod, StartLine: 11, EndLine: 11,
			Hash: h("d"), Shape: h("e"), Sig: h("e")},
		{Path: p, FQName: p + "::init", Name: "init", Kind: "macro", StartLine: 200, EndLine: 4000,
			Hash: h("f"), Shape: h("g"), Sig: h("g")},
		{Path: p, FQName: p + "::T::<anon>", Name: "x", Kind: KindConstant, StartLine: 7, EndLine: 5,
			Hash: "", Shape: "", Sig: ""},
		{Path: p, FQName: p + "::A::B::C", Name: "B::C", Kind: KindClass, StartLine: 1, EndLine: 2,
			Hash: "md5:1", Shape: h("i"), Sig: "other"},
	}
}

func TestSymbolsRecord(t *testing.T) {
	const p = "pkg/a.go"
	f := &File{Path: p, Lang: "go", Symbols: recordSymbols(p),
		Errors: []Diagnostic{{Path: p, Line: 4, Col: 2, Message: "expected ';'"}}}
	v := encodeSymbols(f, nil)
	if v[0] != symbolsFormat {
		t.Fatalf("format %d, want %d", v[0], symbolsFormat)
	}
	lang, syms, diags, err := decodeSymbols(p, v)
	if err != nil || lang != "go" || !reflect.DeepEqual(syms, f.Symbols) || !reflect.DeepEqual(diags, f.Errors) {
		t.Fatalf("decode = %q, %+v, %+v, %v\nwant %+v, %+v", lang, syms, diags, err, f.Symbols, f.Errors)
	}
	if v1 := encodeSymbolsFormat1(f); len(v) >= len(v1) {
		t.Errorf("format 2 takes %d bytes, format 1 %d", len(v), len(v1))
	}
	top, err := decodeTopNames(v)
	if want := map[string]bool{"Read": true, "init": true}; err != nil || !reflect.DeepEqual(top, want) {
		t.Errorf("decodeTopNames = %v, %v; want %v", top, err, want)
	}
	for n := range v { // every truncation fails, none panics
		if _, _, _, err := decodeSymbols(p, v[:n]); err == nil {
			t.Errorf("decodeSymbols accepted the record cut to %d of %d bytes", n, len(v))
		}
	}
}

// Sums the index hands over raw (hashes only) encode as their digest
// strings do.
func TestSymbolsRecordSums(t *testing.T) {
	const p = "a.py"
	syms := recordSymbols(p)[:4]
	sums := make([]digests, len(syms))
	for i := range syms[:3] {
		sums[i] = digests{ok: true, hash: sha256.Sum256([]byte{byte(i)})}
		syms[i].Hash, syms[i].Shape, syms[i].Sig = sumString(sums[i].hash), "", ""
	}
	f := &File{Path: p, Lang: "python", Symbols: syms}
	raw := encodeSymbols(&File{Path: p, Lang: "python", Symbols: stripFingerprints(syms)}, sums)
	if want := encodeSymbols(f, nil); !reflect.DeepEqual(raw, want) {
		t.Fatalf("from sums:\n%x\nfrom strings:\n%x", raw, want)
	}
}

// Stores written before format 2 hold format-1 records until their files
// change: they still decode, to the same symbols.
func TestSymbolsRecordFormat1(t *testing.T) {
	const p = "src/x.ts"
	f := &File{Path: p, Lang: "typescript", Symbols: recordSymbols(p)}
	v1 := encodeSymbolsFormat1(f)
	_, syms, _, err := decodeSymbols(p, v1)
	if err != nil || !reflect.DeepEqual(syms, f.Symbols) {
		t.Fatalf("format 1 decodes to %+v, %v; want %+v", syms, err, f.Symbols)
	}
	top, err := decodeTopNames(v1)
	if want := map[string]bool{"Read": true, "init": true}; err != nil || !reflect.DeepEqual(top, want) {
		t.Errorf("decodeTopNames(format 1) = %v, %v; want %v", top, err, want)
	}
	for _, bad := range [][]byte{nil, {9}, {symbolsFormat, 0, 1, 0xff}} {
		if _, _, _, err := decodeSymbols(p, bad); err == nil {
			t.Errorf("decodeSymbols(%v) accepted a corrupt record", bad)
		}
	}
}

// sumString is raw hash d as the index stores it, read back.
func sumString(d [32]byte) string {
	var e enc
	e.sum(&d)
	var x dec
	x.b = e.b
	return x.digest()
}

func stripFingerprints(syms []Symbol) []Symbol {
	out := append([]Symbol(nil), syms...)
	for i := range out {
		out[i].Hash, out[i].Shape, out[i].Sig = "", "", ""
	}
	return out
}

// encodeSymbolsFormat1 writes the first record format, as stores of
// earlier builds hold it: kind, name, end line and every digest whole.
func encodeSymbolsFormat1(f *File) []byte {
	e := enc{b: []byte{recordFormat}}
	e.str(f.Lang)
	e.uint(uint64(len(f.Symbols)))
	for _, s := range f.Symbols {
		e.str(s.FQName[len(f.Path)+2:])
		e.str(s.Name)
		e.str(s.Kind)
		e.uint(uint64(s.StartLine))
		e.uint(uint64(s.EndLine))
		e.digest(s.Hash)
		e.digest(s.Shape)
		e.digest(s.Sig)
	}
	e.diagnostics(f.Errors)
	return e.b
}

// kindCode and kindOf are inverse tables: every kind has a code of its own
// that reads back as the kind.
func TestKindCodes(t *testing.T) {
	kinds := []string{KindFunction, KindMethod, KindConstructor, KindClass, KindInterface, KindStruct,
		KindEnum, KindTrait, KindType, KindModule, KindNamespace, KindConstant, KindVariable, KindField}
	seen := map[uint64]string{}
	for _, k := range kinds {
		c := kindCode(k)
		if c == 0 || kindOf(c) != k {
			t.Errorf("kind %q: code %d reads back as %q", k, c, kindOf(c))
		}
		if other, dup := seen[c]; dup {
			t.Errorf("kinds %q and %q share code %d", other, k, c)
		}
		seen[c] = k
	}
	if kindCode("macro") != 0 || kindOf(0) != "" || kindOf(uint64(len(kinds)+1)) != "" {
		t.Error("an unknown kind or code has a code or a kind")
	}
}
