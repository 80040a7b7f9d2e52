package analyzer

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"github.com/lorehq/lore/graph"
	"strings"
)

// Records are stored in a compact hand-rolled binary form: varints and
// length-prefixed strings, fingerprints as raw 32-byte digests. The first
// byte is the record format, checked on read.

const recordFormat = 1

var errCorrupt = errors.New("corrupt index record")

type enc struct{ b []byte }

func (e *enc) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) str(s string) {
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}
func (e *enc) strs(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

// digest stores "sha256:<hex>" as a flag and 32 bytes; other strings as is.
func (e *enc) digest(s string) {
	if h, ok := strings.CutPrefix(s, hashPrefix); ok && len(h) == 64 {
		var d [32]byte
		if _, err := hex.Decode(d[:], []byte(h)); err == nil {
			e.b = append(e.b, 1)
			e.b = append(e.b, d[:]...)
			return
		}
	}
	e.b = append(e.b, 0)
	e.str(s)
}

// sum stores a raw digest as digest stores its "sha256:<hex>" form.
func (e *enc) sum(d *[32]byte) {
	e.b = append(e.b, 1)
	e.b = append(e.b, d[:]...)
}

type dec struct {
	b   []byte
	err error
}

func (d *dec) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}
func (d *dec) int() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}
func (d *dec) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.b = nil
}
func (d *dec) str() string {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}
func (d *dec) strs() []string {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	out := make([]string, 0, n)
	for i := uint64(0); i < n && d.err == nil; i++ {
		out = append(out, d.str())
	}
	return out
}
func (d *dec) digest() string {
	if len(d.b) == 0 {
		d.fail()
		return ""
	}
	flag := d.b[0]
	d.b = d.b[1:]
	if flag == 0 {
		return d.str()
	}
	if len(d.b) < 32 {
		d.fail()
		return ""
	}
	// One allocation: the prefix and the hex are formatted on the stack.
	// Verification decodes every symbol of every anchored file, and
	// concatenating hex.EncodeToString made three per digest.
	var buf [len(hashPrefix) + 64]byte
	copy(buf[:], hashPrefix)
	hex.Encode(buf[len(hashPrefix):], d.b[:32])
	d.b = d.b[32:]
	return string(buf[:])
}

// fileMeta is the small per-file record scanned on every update.
type fileMeta struct {
	Version  string // Language.Version of what produced the record
	Lang     string
	Hash     string // HashText of the content
	Size     int64
	ModTime  int64
	Symbols  int
	Errors   int
	FirstErr Diagnostic
}

func encodeMeta(m *fileMeta) []byte {
	e := enc{b: []byte{recordFormat}}
	e.str(m.Version)
	e.str(m.Lang)
	e.digest(m.Hash)
	e.int(m.Size)
	e.int(m.ModTime)
	e.uint(uint64(m.Symbols))
	e.uint(uint64(m.Errors))
	e.uint(uint64(m.FirstErr.Line))
	e.uint(uint64(m.FirstErr.Col))
	e.str(m.FirstErr.Message)
	return e.b
}

func decodeMeta(p string, b []byte) (fileMeta, error) {
	if len(b) == 0 || b[0] != recordFormat {
		return fileMeta{}, errCorrupt
	}
	d := dec{b: b[1:]}
	m := fileMeta{Version: d.str(), Lang: d.str(), Hash: d.digest(), Size: d.int(), ModTime: d.int(),
		Symbols: int(d.uint()), Errors: int(d.uint())}
	m.FirstErr = Diagnostic{Path: p, Line: int(d.uint()), Col: int(d.uint()), Message: d.str()}
	return m, d.err
}

// encodeSymbols stores a file's symbols and diagnostics; FQNames are
// stored without their "path::" prefix.
// encodeSymbols encodes f's symbols with their fingerprints, taken from
// sums when it is not nil (see Parser.parse).
func encodeSymbols(f *File, sums []digests) []byte {
	e := enc{b: make([]byte, 0, 64+len(f.Symbols)*140)}
	e.b = append(e.b, recordFormat)
	e.str(f.Lang)
	e.uint(uint64(len(f.Symbols)))
	prefix := f.Path + "::"
	for i := range f.Symbols {
		s := &f.Symbols[i]
		e.str(strings.TrimPrefix(s.FQName, prefix))
		e.str(s.Name)
		e.str(s.Kind)
		e.uint(uint64(s.StartLine))
		e.uint(uint64(s.EndLine))
		if sums == nil {
			e.digest(s.Hash)
			e.digest(s.Shape)
			e.digest(s.Sig)
		} else if d := &sums[i]; d.ok {
			e.sum(&d.hash)
			e.sum(&d.shape)
			e.sum(&d.sig)
		} else {
			e.b = append(e.b, 0, 0, 0, 0, 0, 0) // three empty strings
		}
	}
	e.uint(uint64(len(f.Errors)))
	for _, d := range f.Errors {
		e.uint(uint64(d.Line))
		e.uint(uint64(d.Col))
		e.str(d.Message)
	}
	return e.b
}

func decodeSymbols(p string, b []byte) (lang string, syms []Symbol, diags []Diagnostic, err error) {
	if len(b) == 0 || b[0] != recordFormat {
		return "", nil, nil, errCorrupt
	}
	d := dec{b: b[1:]}
	lang = d.str()
	n := d.uint()
	if n > uint64(len(d.b)) {
		return "", nil, nil, errCorrupt
	}
	syms = make([]Symbol, 0, n)
	for i := uint64(0); i < n && d.err == nil; i++ {
		s := Symbol{Path: p}
		s.FQName = p + "::" + d.str()
		s.Name = d.str()
		s.Kind = d.str()
		s.StartLine = int(d.uint())
		s.EndLine = int(d.uint())
		s.Hash = d.digest()
		s.Shape = d.digest()
		s.Sig = d.digest()
		syms = append(syms, s)
	}
	nd := d.uint()
	for i := uint64(0); i < nd && d.err == nil; i++ {
		diags = append(diags, Diagnostic{Path: p, Line: int(d.uint()), Col: int(d.uint()), Message: d.str()})
	}
	return lang, syms, diags, d.err
}

func encodeImports(imps []Import) []byte {
	e := enc{b: []byte{recordFormat}}
	e.uint(uint64(len(imps)))
	for i := range imps {
		im := &imps[i]
		e.str(im.Spec)
		e.str(im.Kind)
		e.uint(uint64(im.Line))
		e.strs(im.Names)
		if im.pkgDir != "" { // a Go package: its files are listed on read
			e.uint(1)
			e.str(im.pkgDir)
			continue
		}
		e.uint(0)
		e.strs(im.Targets)
	}
	return e.b
}

// decodeImports reads an imports record; Go package targets stay
// unexpanded (pkgDir set, Targets nil) until expandTargets.
func decodeImports(p string, b []byte) ([]Import, error) {
	if len(b) == 0 || b[0] != recordFormat {
		return nil, errCorrupt
	}
	d := dec{b: b[1:]}
	n := d.uint()
	if n > uint64(len(d.b)) {
		return nil, errCorrupt
	}
	out := make([]Import, 0, n)
	for i := uint64(0); i < n && d.err == nil; i++ {
		im := Import{Path: p, Spec: d.str(), Kind: d.str(), Line: int(d.uint())}
		im.Names = d.strs()
		if len(im.Names) == 0 {
			im.Names = nil
		}
		if d.uint() == 1 {
			im.pkgDir = d.str()
		} else {
			im.Targets = d.strs()
		}
		out = append(out, im)
	}
	return out, d.err
}

// expandTargets lists the files of Go package imports from the index's
// file records: the non-test .go files directly in the package directory.
// cache maps a directory to its listing across calls.
func expandTargets(tx *graph.Tx, imps []Import, cache map[string][]string) error {
	for i := range imps {
		im := &imps[i]
		if im.pkgDir == "" {
			if im.Targets == nil {
				im.Targets = []string{}
			}
			continue
		}
		fl, ok := cache[im.pkgDir]
		if !ok {
			prefix := im.pkgDir + "/"
			if im.pkgDir == "." {
				prefix = ""
			}
			fl = []string{}
			err := tx.Keys(nsMeta, prefix, func(k string) error {
				rest := k[len(prefix):]
				if !strings.Contains(rest, "/") && strings.HasSuffix(rest, ".go") && !strings.HasSuffix(rest, "_test.go") {
					fl = append(fl, k)
				}
				return nil
			})
			if err != nil {
				return err
			}
			cache[im.pkgDir] = fl
		}
		im.Targets = fl
	}
	return nil
}

func (d *dec) skip(n uint64) {
	if n > uint64(len(d.b)) {
		d.fail()
		return
	}
	d.b = d.b[n:]
}

func (d *dec) skipDigest() {
	if len(d.b) == 0 {
		d.fail()
		return
	}
	flag := d.b[0]
	d.b = d.b[1:]
	if flag == 0 {
		d.skip(d.uint())
		return
	}
	d.skip(32)
}

// decodeTopNames reads only the package-level names of a symbols record
// (those topLevelNames gives for decodeSymbols), without building the
// symbols and their fingerprints.
func decodeTopNames(b []byte) (map[string]bool, error) {
	out := map[string]bool{}
	if len(b) == 0 || b[0] != recordFormat {
		return out, errCorrupt
	}
	d := dec{b: b[1:]}
	d.skip(d.uint()) // language
	n := d.uint()
	for i := uint64(0); i < n && d.err == nil; i++ {
		fl := d.uint()
		if fl > uint64(len(d.b)) {
			d.fail()
			break
		}
		nested := strings.Contains(string(d.b[:fl]), "::")
		d.b = d.b[fl:]
		name := d.str()
		d.skip(d.uint()) // kind
		d.uint()
		d.uint()
		d.skipDigest()
		d.skipDigest()
		d.skipDigest()
		if d.err == nil && !nested {
			out[name] = true
		}
	}
	return out, d.err
}
