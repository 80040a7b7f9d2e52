package analyzer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"sort"
)

const hashPrefix = "sha256:"

// HashText fingerprints text exactly as written, up to line endings and
// trailing blanks: CRLF is read as LF, spaces and tabs at the end of each
// line are dropped, and a final newline does not count. The result is
// "sha256:<hex>".
func HashText(text []byte) string {
	h := sha256.New()
	writeNormalized(h, text)
	return hashPrefix + hex.EncodeToString(h.Sum(nil))
}

func writeNormalized(h hash.Hash, text []byte) {
	if n := len(text); n > 0 && text[n-1] == '\n' {
		text = text[:n-1]
		if n := len(text); n > 0 && text[n-1] == '\r' {
			text = text[:n-1]
		}
	}
	first := true
	for {
		i := bytes.IndexByte(text, '\n')
		line := text
		if i >= 0 {
			line = text[:i]
		}
		line = bytes.TrimRight(line, " \t\r")
		if !first {
			h.Write([]byte{'\n'})
		}
		first = false
		h.Write(line)
		if i < 0 {
			return
		}
		text = text[i+1:]
	}
}

// Shape fingerprints an ordered token list (see Tokens): "sha256:<hex>".
func Shape(tokens []string) string {
	h := sha256.New()
	for _, t := range tokens {
		h.Write([]byte(t))
		h.Write([]byte{0})
	}
	return hashPrefix + hex.EncodeToString(h.Sum(nil))
}

func shapeSpans(src []byte, toks []span) string {
	h := sha256.New()
	for _, t := range toks {
		h.Write(src[t.start:t.end])
		h.Write([]byte{0})
	}
	return hashPrefix + hex.EncodeToString(h.Sum(nil))
}

// Tokens returns the non-comment tokens of src read as lang (a language
// name such as "go" or "python", see Table). Whitespace, line breaks and
// comments are not tokens; string literals are one token each. For an
// unknown lang, src is split on whitespace and punctuation.
func Tokens(lang string, src []byte) []string {
	spans := lexSpec(lang).tokens(src, nil)
	out := make([]string, len(spans))
	for i, t := range spans {
		out[i] = string(src[t.start:t.end])
	}
	return out
}

// ShapeOf is Shape(Tokens(lang, src)).
func ShapeOf(lang string, src []byte) string {
	return shapeSpans(src, lexSpec(lang).tokens(src, nil))
}

// Lines returns the text of lines start..end (1-based, inclusive) of src,
// including the last line's newline, clipped to the file. ok is false when
// the range is empty or starts past the end.
func Lines(src []byte, start, end int) (text []byte, ok bool) {
	ls := lineStarts(src)
	a, b, ok := lineSpan(src, ls, start, end)
	if !ok {
		return nil, false
	}
	return src[a:b], true
}

// RangeTokens returns the tokens of lines start..end of src read as lang.
func RangeTokens(lang string, src []byte, start, end int) []string {
	text, ok := Lines(src, start, end)
	if !ok {
		return nil
	}
	return Tokens(lang, text)
}

// Fingerprint holds the hash and shape of a stretch of text.
type Fingerprint struct {
	Hash  string `json:"hash"`
	Shape string `json:"shape"`
}

// RangeFingerprint fingerprints lines start..end of src read as lang; the
// whole file when start and end are 0. The result equals a Symbol's Hash
// and Shape for the symbol's lines.
func RangeFingerprint(lang string, src []byte, start, end int) (Fingerprint, bool) {
	text := src
	if start != 0 || end != 0 {
		var ok bool
		if text, ok = Lines(src, start, end); !ok {
			return Fingerprint{}, false
		}
	}
	return Fingerprint{Hash: HashText(text), Shape: ShapeOf(lang, text)}, true
}

// lineStarts returns the byte offset of the start of every line.
func lineStarts(src []byte) []int { return appendLineStarts(nil, src) }

// appendLineStarts is lineStarts into buf.
func appendLineStarts(buf []int, src []byte) []int {
	ls := append(buf[:0], 0)
	for i, c := range src {
		if c == '\n' {
			ls = append(ls, i+1)
		}
	}
	return ls
}

// lineAt returns the 1-based line of offset o, given the line starts ls.
func lineAt(ls []int, o int) int {
	return sort.Search(len(ls), func(i int) bool { return ls[i] > o })
}

func lineSpan(src []byte, ls []int, start, end int) (a, b int, ok bool) {
	if start < 1 {
		start = 1
	}
	if end > len(ls) {
		end = len(ls)
	}
	if start > end || start > len(ls) {
		return 0, 0, false
	}
	a = ls[start-1]
	if end < len(ls) {
		b = ls[end]
	} else {
		b = len(src)
	}
	if a > len(src) || (a == len(src) && start > 1) {
		return 0, 0, false
	}
	return a, b, true
}

// digests are a symbol's Hash, Shape and Sig as raw SHA-256 sums; ok is
// false for a symbol whose lines are not in the file (its fingerprints
// are then empty).
type digests struct {
	ok               bool
	hash, shape, sig [sha256.Size]byte
}

// fingerprint fills Hash, Shape and Sig of syms from the file's line
// starts ls and whole-file token list toks (sorted by offset), or, when
// raw is not nil, raw[i] with the sums of syms[i] (the index stores them
// so: formatting and parsing back the hex of every symbol of a large
// repository is a tenth of its allocations). header[i] is the byte offset where symbol i's body starts,
// or -1 when the whole symbol is its header. buf is scratch space,
// returned for reuse: each fingerprint is one SHA-256 over one buffer
// instead of a write per line or token.
func fingerprint(src []byte, ls []int, toks []span, syms []Symbol, header []int, buf []byte, raw []digests) []byte {
	for i := range syms {
		s := &syms[i]
		a, b, ok := lineSpan(src, ls, s.StartLine, s.EndLine)
		if !ok {
			continue
		}
		buf = appendNormalized(buf[:0], src[a:b])
		if raw != nil {
			raw[i].ok = true
			raw[i].hash = sha256.Sum256(buf)
		} else {
			s.Hash = digestString(buf)
		}
		lo := sort.Search(len(toks), func(k int) bool { return toks[k].start >= a })
		hi := lo + sort.Search(len(toks)-lo, func(k int) bool { return toks[lo+k].end > b })
		sig := -1
		if header[i] >= 0 && header[i] < b {
			sig = lo + sort.Search(hi-lo, func(k int) bool { return toks[lo+k].start >= header[i] })
		}
		buf = buf[:0]
		sigLen := 0
		for k := lo; k < hi; k++ {
			if k == sig {
				sigLen = len(buf)
			}
			buf = append(buf, src[toks[k].start:toks[k].end]...)
			buf = append(buf, 0)
		}
		if sig == hi {
			sigLen = len(buf)
		}
		if raw != nil {
			raw[i].shape = sha256.Sum256(buf)
			raw[i].sig = raw[i].shape
			if sig >= 0 {
				raw[i].sig = sha256.Sum256(buf[:sigLen])
			}
			continue
		}
		s.Shape = digestString(buf)
		if sig < 0 {
			s.Sig = s.Shape
			continue
		}
		s.Sig = digestString(buf[:sigLen])
	}
	return buf
}

// appendNormalized appends text as writeNormalized hashes it.
func appendNormalized(buf, text []byte) []byte {
	if n := len(text); n > 0 && text[n-1] == '\n' {
		text = text[:n-1]
		if n := len(text); n > 0 && text[n-1] == '\r' {
			text = text[:n-1]
		}
	}
	for {
		i := bytes.IndexByte(text, '\n')
		line := text
		if i >= 0 {
			line = text[:i]
		}
		buf = append(buf, bytes.TrimRight(line, " \t\r")...)
		if i < 0 {
			return buf
		}
		buf = append(buf, '\n')
		text = text[i+1:]
	}
}

// digestString is "sha256:<hex>" of b, with one allocation.
func digestString(b []byte) string {
	sum := sha256.Sum256(b)
	var out [len(hashPrefix) + 2*sha256.Size]byte
	copy(out[:], hashPrefix)
	hex.Encode(out[len(hashPrefix):], sum[:])
	return string(out[:])
}
