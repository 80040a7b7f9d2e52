package anchors

import (
	"encoding/hex"
	"strings"

	"github.com/lorehq/lore/analyzer"
)

// A sketch summarises a symbol's baseline tokens in a short string so that
// the symbol can be recognised after it was renamed and edited, when no
// older source holds its baseline text.
//
// Format m1 (the only one so far): "m1:" followed by 64 lowercase hex
// digits, 32 bytes holding sketchK = 64 values of sketchBits = 4 bits,
// value i in byte i/2 (the low nibble for even i, the high nibble for odd
// i). The values form a 4-bit MinHash:
//
//   - The tokens are the symbol's non-comment tokens (analyzer.Tokens), so
//     layout and comments never change the sketch. The symbol's own name
//     and the last segment of its outer name are replaced by placeholders,
//     so a rename alone does not change it either.
//   - Features are the distinct runs of sketchShingle = 3 consecutive
//     tokens (the single tokens when there are fewer), each hashed with
//     64-bit FNV-1a over its tokens, a NUL byte after each.
//   - For i in 0..63, value i is the low 4 bits of the minimum over the
//     features of mix(h + (i+1)·0x9E3779B97F4A7C15), where mix is the
//     splitmix64 finaliser.
//
// The share m of equal values in two sketches estimates the Jaccard
// similarity J of their feature sets: m = 1/16 + (15/16)·J in expectation.
// A symbol without tokens has no sketch ("").
const (
	sketchPrefix  = "m1:"
	sketchK       = 64
	sketchBits    = 4
	sketchBytes   = sketchK * sketchBits / 8
	sketchShingle = 3
)

// sketch is a decoded m1 sketch: one 4-bit value per hash function.
type sketch [sketchK]uint8

// placeholders that stand for a symbol's own and outer names in sketches
// and token comparisons.
const (
	selfPlaceholder  = "\x01self"
	outerPlaceholder = "\x01outer"
)

// symbolSketch returns the m1 sketch of lines start..end of src, read as
// lang, holding the symbol named fq ("Outer::inner"); "" when there are
// no tokens.
func symbolSketch(lang string, src []byte, fq string, start, end int) string {
	toks := analyzer.RangeTokens(lang, src, start, end)
	name, outer := sketchNames(fq)
	sk, ok := sketchTokens(toks, name, outer)
	if !ok {
		return ""
	}
	return sk.String()
}

// sketchNames returns the names a sketch of the symbol fq ("Outer::inner",
// without the path) reads as placeholders: its own name and the last
// segment of its outer name.
func sketchNames(fq string) (name, outer string) {
	return lastName(fq), lastName(outerName(fq))
}

// sketchTokens computes the sketch of toks read with name and outer (the
// last segment of the outer name, or "") as placeholders. ok is false when
// toks is empty.
func sketchTokens(toks []string, name, outer string) (sketch, bool) {
	var sk sketch
	if len(toks) == 0 {
		return sk, false
	}
	var mins [sketchK]uint64
	for i := range mins {
		mins[i] = ^uint64(0)
	}
	k := sketchShingle
	if len(toks) < k {
		k = 1
	}
	for i := 0; i+k <= len(toks); i++ {
		h := uint64(fnvOffset)
		for _, t := range toks[i : i+k] {
			switch {
			case t == name && name != "":
				t = selfPlaceholder
			case t == outer && outer != "":
				t = outerPlaceholder
			}
			for j := 0; j < len(t); j++ {
				h ^= uint64(t[j])
				h *= fnvPrime
			}
			h *= fnvPrime // the NUL separator: h ^= 0 is a no-op
		}
		for f := range mins {
			if x := mix64(h + uint64(f+1)*golden); x < mins[f] {
				mins[f] = x
			}
		}
	}
	for f, m := range mins {
		sk[f] = uint8(m & (1<<sketchBits - 1))
	}
	return sk, true
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
	golden    = 0x9E3779B97F4A7C15
)

// mix64 is the splitmix64 finaliser: a bijection that spreads every input
// bit over the output.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	x ^= x >> 31
	return x
}

// String encodes sk in the m1 format.
func (sk sketch) String() string {
	var b [sketchBytes]byte
	for i, v := range sk {
		b[i/2] |= v << (4 * (i % 2))
	}
	return sketchPrefix + hex.EncodeToString(b[:])
}

// parseSketch decodes an m1 sketch. ok is false for anything else: an
// empty string, another version, a wrong length, upper-case or non-hex
// digits.
func parseSketch(s string) (sketch, bool) {
	var sk sketch
	body, found := strings.CutPrefix(s, sketchPrefix)
	if !found || len(body) != 2*sketchBytes {
		return sk, false
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return sk, false
		}
	}
	var b [sketchBytes]byte
	if _, err := hex.Decode(b[:], []byte(body)); err != nil {
		return sk, false
	}
	for i := range sk {
		sk[i] = b[i/2] >> (4 * (i % 2)) & 0xf
	}
	return sk, true
}

// jaccard estimates the Jaccard similarity of the feature sets behind two
// sketches, correcting for the chance (1/16) that two 4-bit values agree.
func (sk sketch) jaccard(o sketch) float64 {
	m := 0
	for i := range sk {
		if sk[i] == o[i] {
			m++
		}
	}
	const chance = 1.0 / (1 << sketchBits)
	j := (float64(m)/sketchK - chance) / (1 - chance)
	return min(1, max(0, j))
}

// similarity is the estimated Dice coefficient of the two feature sets,
// 2J/(1+J): on the scale of the token similarity used with a Base source
// (one edited token in a long body costs little).
func (sk sketch) similarity(o sketch) float64 {
	j := sk.jaccard(o)
	return 2 * j / (1 + j)
}
