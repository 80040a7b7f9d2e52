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

// digest stores "sha256:<hex>" (flag 1) and "s2:<hex>" (flag 2, a format
// 2 shape) as a flag and 32 bytes; other strings as is (flag 0).
func (e *enc) digest(s string) {
	for flag := byte(1); flag <= 2; flag++ {
		if h, ok := strings.CutPrefix(s, digestPrefix(flag)); ok && len(h) == 64 {
			var d [32]byte
			if _, err := hex.Decode(d[:], []byte(h)); err == nil {
				e.b = append(e.b, flag)
				e.b = append(e.b, d[:]...)
				return
			}
		}
	}
	e.b = append(e.b, 0)
	e.str(s)
}

// digestPrefix is the prefix of a digest stored with flag.
func digestPrefix(flag byte) string {
	if flag == 2 {
		return shapePrefix
	}
	return hashPrefix
}

// sum stores a raw text hash as digest stores its "sha256:<hex>" form.
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
	if len(d.b) < 32 || flag > 2 {
		d.fail()
		return ""
	}
	// One allocation: the prefix and the hex are formatted on the stack.
	// Verification decodes every symbol of every anchored file, and
	// concatenating hex.EncodeToString made three per digest.
	var buf [len(hashPrefix) + 64]byte
	n := copy(buf[:], digestPrefix(flag))
	hex.Encode(buf[n:], d.b[:32])
	d.b = d.b[32:]
	return string(buf[:n+64])
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

// symbolsFormat is the record format of a file's symbols. Each symbol
// starts with a head: its kind as a code (kindCode; 0 when the kind is
// written out), whether its name is the last segment of its FQName, and
// whether its signature fingerprint is its shape's. Its end line is stored
// as a distance from its start. Most symbols of a large tree are short
// declarations (constants above all) whose records were mostly a spelled
// out kind, a repeated name and a repeated digest; the three digests are
// now most of what is left. Records of format 1 (recordFormat: kind, name
// and every digest whole) still decode.
const symbolsFormat = 2

// Bits of a symbol's head below its kind code.
const (
	headNamed     = 1 << iota // the name is the FQName's last segment
	headSigSame               // Sig equals Shape and is not stored
	headKindShift = iota
)

// kindCode numbers the symbol kinds for symbolsFormat; 0 is any other.
// The numbers are stored: append, never renumber.
func kindCode(kind string) uint64 {
	switch kind {
	case KindFunction:
		return 1
	case KindMethod:
		return 2
	case KindConstructor:
		return 3
	case KindClass:
		return 4
	case KindInterface:
		return 5
	case KindStruct:
		return 6
	case KindEnum:
		return 7
	case KindTrait:
		return 8
	case KindType:
		return 9
	case KindModule:
		return 10
	case KindNamespace:
		return 11
	case KindConstant:
		return 12
	case KindVariable:
		return 13
	case KindField:
		return 14
	}
	return 0
}

// kindOf is the kind kindCode numbers c, or "" for 0 and unknown codes.
func kindOf(c uint64) string {
	switch c {
	case 1:
		return KindFunction
	case 2:
		return KindMethod
	case 3:
		return KindConstructor
	case 4:
		return KindClass
	case 5:
		return KindInterface
	case 6:
		return KindStruct
	case 7:
		return KindEnum
	case 8:
		return KindTrait
	case 9:
		return KindType
	case 10:
		return KindModule
	case 11:
		return KindNamespace
	case 12:
		return KindConstant
	case 13:
		return KindVariable
	case 14:
		return KindField
	}
	return ""
}

// lastSegment is what follows the last "::" of a qualified name.
func lastSegment(q string) string {
	if i := strings.LastIndex(q, "::"); i >= 0 {
		return q[i+2:]
	}
	return q
}

// encodeSymbols stores a file's symbols and diagnostics, FQNames without
// their "path::" prefix, fingerprints taken from sums when it is not nil
// (the hash alone, see Parser.parse).
func encodeSymbols(f *File, sums []digests) []byte {
	prefix := f.Path + "::"
	// Room for what most records hold: each symbol's FQName less the
	// prefix, a few varints and its digests (three, or the hash alone
	// from sums), so that the record, which the store keeps until its
	// batch is written, is not twice what it holds.
	per := 8 + 3*(1+32)
	if sums != nil {
		per = 8 + 1 + 32 + 2
	}
	size := 64
	for i := range f.Symbols {
		size += per + len(f.Symbols[i].FQName) - len(prefix)
	}
	e := enc{b: make([]byte, 0, size)}
	e.b = append(e.b, symbolsFormat)
	e.str(f.Lang)
	e.uint(uint64(len(f.Symbols)))
	for i := range f.Symbols {
		s := &f.Symbols[i]
		rest := strings.TrimPrefix(s.FQName, prefix)
		code := kindCode(s.Kind)
		head := code << headKindShift
		if lastSegment(rest) == s.Name {
			head |= headNamed
		}
		var d *digests
		if sums != nil {
			d = &sums[i]
			head |= headSigSame // no shape: Sig is Shape
		} else if s.Sig == s.Shape {
			head |= headSigSame
		}
		e.uint(head)
		e.str(rest)
		if head&headNamed == 0 {
			e.str(s.Name)
		}
		if code == 0 {
			e.str(s.Kind)
		}
		e.uint(uint64(s.StartLine))
		e.int(int64(s.EndLine) - int64(s.StartLine))
		switch {
		case d == nil:
			e.digest(s.Hash)
			e.digest(s.Shape)
			if head&headSigSame == 0 {
				e.digest(s.Sig)
			}
		case d.ok:
			e.sum(&d.hash)
			e.b = append(e.b, 0, 0) // an empty Shape; Sig is Shape
		default:
			e.b = append(e.b, 0, 0, 0, 0) // two empty strings; Sig is Shape
		}
	}
	e.diagnostics(f.Errors)
	return e.b
}

// diagnostics ends a symbols record (of either format) with ds.
func (e *enc) diagnostics(ds []Diagnostic) {
	e.uint(uint64(len(ds)))
	for _, d := range ds {
		e.uint(uint64(d.Line))
		e.uint(uint64(d.Col))
		e.str(d.Message)
	}
}

// symbolHead is a symbol of a symbols record as far as its lines.
type symbolHead struct {
	rest, name, kind string // rest: the FQName without "path::"
	start, end       int
	sigSame          bool // format 2: no Sig digest follows; it is Shape's
}

// head reads a symbol up to its digests, in record format f.
func (d *dec) head(f byte) symbolHead {
	var h symbolHead
	if f == recordFormat {
		h.rest, h.name, h.kind = d.str(), d.str(), d.str()
		h.start, h.end = int(d.uint()), int(d.uint())
		return h
	}
	bits := d.uint()
	h.rest = d.str()
	h.name = lastSegment(h.rest)
	if bits&headNamed == 0 {
		h.name = d.str()
	}
	if h.kind = kindOf(bits >> headKindShift); bits>>headKindShift == 0 {
		h.kind = d.str()
	}
	h.start = int(d.uint())
	h.end = h.start + int(d.int())
	h.sigSame = bits&headSigSame != 0
	return h
}

// symbolsRecord checks a symbols record's format and returns it with a
// decoder past the format byte.
func symbolsRecord(b []byte) (byte, dec, error) {
	if len(b) == 0 || b[0] != recordFormat && b[0] != symbolsFormat {
		return 0, dec{}, errCorrupt
	}
	return b[0], dec{b: b[1:]}, nil
}

func decodeSymbols(p string, b []byte) (lang string, syms []Symbol, diags []Diagnostic, err error) {
	f, d, err := symbolsRecord(b)
	if err != nil {
		return "", nil, nil, err
	}
	lang = d.str()
	n := d.uint()
	if n > uint64(len(d.b)) {
		return "", nil, nil, errCorrupt
	}
	syms = make([]Symbol, 0, n)
	for i := uint64(0); i < n && d.err == nil; i++ {
		h := d.head(f)
		s := Symbol{Path: p, FQName: p + "::" + h.rest, Kind: h.kind, StartLine: h.start, EndLine: h.end}
		s.Name = h.name
		if h.name == lastSegment(h.rest) {
			s.Name = lastSegment(s.FQName) // shares the FQName's bytes
		}
		s.Hash = d.digest()
		s.Shape = d.digest()
		if s.Sig = s.Shape; !h.sigSame {
			s.Sig = d.digest()
		}
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
	f, d, err := symbolsRecord(b)
	if err != nil {
		return out, err
	}
	d.skip(d.uint()) // language
	n := d.uint()
	for i := uint64(0); i < n && d.err == nil; i++ {
		h := d.head(f)
		d.skipDigest()
		d.skipDigest()
		if !h.sigSame {
			d.skipDigest()
		}
		if d.err == nil && !strings.Contains(h.rest, "::") {
			out[h.name] = true
		}
	}
	return out, d.err
}
