package anchors

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/lorehq/lore/analyzer"
)

// candidate is a symbol that may be where a missing anchor went.
type candidate struct {
	sym      analyzer.Symbol
	file     *File
	score    float64
	sameBody bool // tokens equal up to the rename
	sameName bool
	header   bool // matched by header and length only
	sim      float64
	simKnown bool
	sketched bool // sim estimated from the anchor's sketch
}

// maxSketchScan bounds how many symbols from the rest of the source are
// compared with an anchor's sketch when relocating it.
const maxSketchScan = 20000

// relocateSymbol looks for a symbol anchor whose symbol is no longer in
// its file (f is nil when the file is gone): same name elsewhere (moved),
// same or similar body under another name (renamed), both, or in a
// renamed file.
func (v *Verifier) relocateSymbol(ctx context.Context, a Anchor, f *File, r *Result, run *runInfo) {
	fq := a.FQName()
	name, outer := lastName(fq), outerName(fq)
	baseToks, baseOK := v.baseSymbolTokens(ctx, a)
	renamedTo := v.files.Renamed(a.Path())
	// Without the old body, the baseline's sketch stands in for it.
	var want *sketch
	if !baseOK {
		if sk, ok := parseSketch(a.Sketch); ok {
			want = &sk
		}
	}

	seen := map[string]bool{}
	var cands []candidate
	consider := func(s analyzer.Symbol) {
		key := fmt.Sprintf("%s#%d", s.FQName, s.StartLine)
		if seen[key] || s.FQName == a.Symbol && s.Path == a.Path() {
			return
		}
		seen[key] = true
		if run.excluded(s.FQName) || !kindsCompatible(a.Kind, s.Kind) {
			return
		}
		cf, err := v.files.File(ctx, s.Path)
		if err != nil {
			return
		}
		fresh, ok := freshSymbol(cf, s)
		if !ok {
			return
		}
		if baseOK && v.existedInBase(ctx, fresh) && fresh.Path != renamedTo {
			return // it was already there: not where a's symbol went
		}
		if c, ok := v.score(a, name, outer, cf, fresh, baseToks, baseOK, want, run); ok {
			cands = append(cands, c)
		}
	}

	// 1. a renamed file: the same symbol under its new path
	if renamedTo != "" {
		if f2, err := v.files.File(ctx, renamedTo); err == nil {
			for _, s := range f2.Symbols {
				if s.Name == name {
					consider(s)
				}
			}
		}
	}
	// 2. the same name anywhere (moved)
	if named, err := v.files.SymbolsNamed(ctx, name); err == nil {
		for _, s := range named {
			consider(s)
		}
	}
	// 3. another name, same or similar body (renamed): the same file
	// first, then the whole source
	if f != nil {
		for _, s := range f.Symbols {
			consider(s)
		}
	}
	if !hasSameBody(cands) {
		lines := 0
		if s, e, ok := a.Range(); ok {
			lines = e - s + 1
		}
		budget := maxSketchScan
		_ = v.files.EachSymbol(ctx, func(s analyzer.Symbol) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			if s.Name == name || !kindsCompatible(a.Kind, s.Kind) || !sizeCompatible(lines, s.EndLine-s.StartLine+1, baseOK) {
				return nil
			}
			if lines > 0 && lines <= 2 && !baseOK && (want == nil || path.Dir(s.Path) != path.Dir(a.Path())) {
				return nil // too small to recognise without history, but next door
			}
			if want != nil {
				if budget == 0 {
					return errStopScan
				}
				budget--
			}
			consider(s)
			return nil
		})
	}

	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		return cands[i].sym.Path+cands[i].sym.FQName < cands[j].sym.Path+cands[j].sym.FQName
	})
	gone := f == nil
	if len(cands) == 0 {
		if gone {
			r.set(Invalid, ChangeFileDeleted, 1, a.Path()+" was deleted")
		} else {
			r.set(Invalid, ChangeDeleted, 1, fmt.Sprintf("%s no longer exists in %s%s", fq, a.Path(), syntaxNote(f)))
		}
		return
	}
	best := cands[0]
	conf := confidence(cands)
	if conf < v.opts.Threshold {
		for i, c := range cands {
			if i == 3 {
				break
			}
			r.Candidates = append(r.Candidates, Candidate{Location: *symLocation(c.sym), Confidence: round(c.score), Reason: v.candidateReason(a, c, renamedTo)})
		}
		what := fmt.Sprintf("%s no longer exists in %s", fq, a.Path())
		ch := ChangeDeleted
		if gone {
			what, ch = a.Path()+" was deleted", ChangeFileDeleted
		}
		r.set(Invalid, ch, conf, fmt.Sprintf("%s; %d possible new location(s), none certain enough to follow (best %.2f)", what, len(cands), conf))
		return
	}
	s := best.sym
	r.foundSymbol(best.file, s)
	ch, reason := v.relocationReason(a, best, renamedTo)
	st := Valid
	if !best.sameBody {
		st = Drifted
	}
	r.set(st, ch, conf, reason)
}

// confidence is the best candidate's score lowered by its rivals: only
// rivals of the same tier count (other same-body candidates when the best
// has the same body, everything otherwise), the more the closer they are.
func confidence(cands []candidate) float64 {
	best := cands[0]
	tier := func(c candidate) int {
		switch {
		case c.sameBody && c.sameName:
			return 0
		case c.sameBody:
			return 1
		}
		return 2
	}
	var rival *candidate
	for i := 1; i < len(cands); i++ {
		if tier(cands[i]) <= tier(best) || tier(best) == 2 {
			rival = &cands[i]
			break
		}
	}
	conf := best.score
	if rival != nil {
		ratio := rival.score / best.score
		conf = best.score * (1 - 0.5*math.Pow(ratio, 4))
	}
	return round(conf)
}

func hasSameBody(cs []candidate) bool {
	for _, c := range cs {
		if c.sameBody {
			return true
		}
	}
	return false
}

func syntaxNote(f *File) string {
	if f != nil && f.Skipped != "" {
		return fmt.Sprintf(" (the file is no longer parsed: %s)", f.Skipped)
	}
	if f == nil || len(f.Errors) == 0 {
		return ""
	}
	return fmt.Sprintf(" (the file has syntax errors from line %d, which may hide it)", f.Errors[0].Line)
}

func (v *Verifier) relocationReason(a Anchor, c candidate, renamedTo string) (Change, string) {
	fq := a.FQName()
	s := c.sym
	_, nfq, _ := cutFQ(s.FQName)
	body := "body unchanged"
	switch {
	case c.header:
		body = "same header and length, body changed"
	case !c.sameBody && c.sketched:
		body = fmt.Sprintf("body changed (about %.0f%% similar to the baseline's sketch)", 100*c.sim)
	case !c.sameBody && c.simKnown:
		body = fmt.Sprintf("body changed (%.0f%% similar)", 100*c.sim)
	case !c.sameBody:
		body = "body changed"
	}
	samePath := s.Path == a.Path()
	sameName := s.Name == lastName(fq)
	switch {
	case samePath && sameName:
		return ChangeMoved, fmt.Sprintf("moved from %s to %s in %s, %s", fq, nfq, s.Path, body)
	case samePath:
		return ChangeRenamed, fmt.Sprintf("renamed from %s to %s in %s, %s", fq, nfq, s.Path, body)
	case sameName && s.Path == renamedTo:
		return ChangeMoved, fmt.Sprintf("file renamed from %s to %s, %s", a.Path(), s.Path, body)
	case sameName && nfq == fq:
		return ChangeMoved, fmt.Sprintf("moved from %s to %s, %s", a.Path(), s.Path, body)
	case sameName:
		return ChangeMoved, fmt.Sprintf("moved from %s::%s to %s::%s, %s", a.Path(), fq, s.Path, nfq, body)
	}
	return ChangeMovedRenamed, fmt.Sprintf("moved and renamed from %s::%s to %s::%s, %s", a.Path(), fq, s.Path, nfq, body)
}

func (v *Verifier) candidateReason(a Anchor, c candidate, renamedTo string) string {
	_, reason := v.relocationReason(a, c, renamedTo)
	return reason
}

// score rates candidate s (in file cf) as the new place of a's symbol.
func (v *Verifier) score(a Anchor, name, outer string, cf *File, s analyzer.Symbol, baseToks []string, baseOK bool, want *sketch, run *runInfo) (candidate, bool) {
	c := candidate{sym: s, file: cf}
	sameName := s.Name == name
	c.sameName = sameName
	sOuter := outerName(func() string { _, q, _ := cutFQ(s.FQName); return q }())
	sameOuter := sOuter == outer
	toks := v.symbolTokens(cf, s)
	// norm: the tokens in the baseline's format, the new names read as
	// the old ones.
	fm := format(a)
	norm := v.shapeTokens(a, cf, s)
	if !sameName || !sameOuter {
		norm = substitute(norm, map[string]string{s.Name: name, sOuter: outer})
	}
	c.sameBody = a.Shape != "" && (s.Shape == a.Shape || fm.Shape(norm) == a.Shape)
	if !c.sameBody && run != nil && len(run.renames) > 0 && a.Shape != "" {
		// Equal but for names renamed elsewhere in this run: the body
		// changed only where it refers to them.
		if fm.Shape(substitute(norm, run.renames)) == a.Shape && len(renamesUsed(norm, run.renames)) > 0 {
			c.simKnown, c.sim = true, 0.99
		}
	}
	if baseToks != nil && !c.simKnown {
		c.simKnown = true
		c.sim = similarity(normalize(baseToks, name, outer), normalize(toks, s.Name, sOuter))
		if c.sameBody {
			c.sim = 1
		}
	}
	if want != nil && !c.simKnown && (c.sameBody || sketchable(a, s, len(toks))) {
		c.simKnown, c.sketched = true, true
		c.sim = 1
		if !c.sameBody {
			c.sim = want.similarity(v.symbolSketch(cf, s, toks))
		}
	}
	switch {
	case c.sameBody:
		c.score = 1
		if !sameName && !baseOK {
			// Identical small bodies are common (getters, stubs): trust
			// them less, and less still in another file.
			small := 24
			if s.Path == a.Path() || want != nil && path.Dir(s.Path) == path.Dir(a.Path()) {
				// The same file or, for anchors with a sketch, its
				// directory: moves mostly stay in the package. (Anchors
				// without one keep the stricter rule they were
				// verified by.)
				small = 12
			}
			if n := len(toks); n < small {
				c.score = 0.5 + 0.5*float64(n)/float64(small)
			}
		}
	case sameName && sameOuter:
		c.score = 0.85
		if c.simKnown {
			c.score = 0.6 + 0.4*c.sim
		}
	case sameName:
		c.score = 0.6
		if c.simKnown {
			c.score = 0.4 + 0.5*c.sim
		}
	case !c.simKnown && s.Path == a.Path() && a.Sig != "" && headerMatches(fm, norm, a.Sig) && linesClose(a, s):
		// No old body to compare with, but in the same file the same
		// header (up to the name) and about the same length: renamed and
		// edited, likely.
		c.score = 0.82
		c.header = true
	case c.sketched && c.sim >= 0.6 && a.Sig != "" && linesClose(a, s) && nearby(a, s.Path, v.files.Renamed(a.Path())) && headerMatchesFrom(fm, norm, a.Sig, 3):
		// The sketch of a short body is coarse, but with the same header
		// (up to the name), about the same length and next door it is
		// enough.
		c.score = max(sketchScore(c.sim), 0.84+0.3*(c.sim-0.6))
	case c.sketched && c.sim >= 0.8:
		c.score = sketchScore(c.sim)
	case c.sketched && c.sim >= 0.65:
		// Siblings look this much alike (startPos and endPos): without
		// the same header, only a candidate.
		c.score = min(sketchScore(c.sim), 0.75)
	case c.simKnown && c.sim >= 0.7:
		c.score = 0.95 * c.sim
	default:
		return c, false
	}
	if a.Kind != "" && s.Kind != a.Kind {
		c.score *= 0.9
	}
	if s.Path != a.Path() && !sameName {
		c.score *= 0.98 // moved and renamed needs more evidence than either
	}
	return c, true
}

// nearby reports whether p is in the directory of a's file, or is where
// the rename map says that file went.
func nearby(a Anchor, p, renamedTo string) bool {
	return p == renamedTo || path.Dir(p) == path.Dir(a.Path())
}

// sketchable reports whether a sketch says enough about candidate s (n
// tokens) for anchor a: a handful of tokens makes a coarse sketch, good
// enough in the anchor's own file, not elsewhere unless the anchored
// symbol spanned a few lines.
func sketchable(a Anchor, s analyzer.Symbol, n int) bool {
	if n < 12 {
		return false
	}
	if s.Path == a.Path() {
		return true
	}
	start, end, ok := a.Range()
	return ok && end-start+1 >= 3
}

// sketchScore rates a candidate whose body is about sim similar to the
// anchor's sketch. The sketch compares runs of three tokens, so each
// edited token costs about three times what it costs in the token
// similarity used with a Base source: 0.7 here is roughly 0.9 there.
func sketchScore(sim float64) float64 {
	return 0.8 + 0.2*(sim-0.7)/0.3
}

// symbolTokens returns the tokens of s in cf, cached for the run: a
// symbol is a candidate for many missing anchors.
func (v *Verifier) symbolTokens(cf *File, s analyzer.Symbol) []string {
	key := symbolKey(cf, s)
	if t, ok := v.tokens.Load(key); ok {
		return t.([]string)
	}
	toks := analyzer.RangeTokens(cf.Lang, cf.Src, s.StartLine, s.EndLine)
	v.tokens.Store(key, toks)
	return toks
}

func symbolKey(cf *File, s analyzer.Symbol) string {
	return fmt.Sprintf("%s#%d-%d#%s", s.Path, s.StartLine, s.EndLine, cf.Hash)
}

// symbolSketch returns the sketch of s (tokens toks) in cf, cached for
// the run like its tokens.
func (v *Verifier) symbolSketch(cf *File, s analyzer.Symbol, toks []string) sketch {
	key := symbolKey(cf, s)
	if sk, ok := v.sketches.Load(key); ok {
		return sk.(sketch)
	}
	_, fq, _ := cutFQ(s.FQName)
	name, outer := sketchNames(fq)
	sk, _ := sketchTokens(toks, name, outer)
	v.sketches.Store(key, sk)
	return sk
}

// renamesUsed lists "old → new" for the renamed names that occur in toks.
func renamesUsed(toks []string, renames map[string]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range toks {
		if old, ok := renames[t]; ok && !seen[t] {
			seen[t] = true
			out = append(out, old+" → "+t)
		}
	}
	sort.Strings(out)
	return out
}

// headerMatches reports whether some prefix of toks, at least 7 tokens,
// fingerprints to sig (the header's shape) in format fm.
func headerMatches(fm analyzer.ShapeFormat, toks []string, sig string) bool {
	return headerMatchesFrom(fm, toks, sig, 7)
}

// headerMatchesFrom reports whether some prefix of toks, at least minK
// tokens, fingerprints to sig in format fm.
func headerMatchesFrom(fm analyzer.ShapeFormat, toks []string, sig string, minK int) bool {
	for k := minK; k <= len(toks) && k <= 80; k++ {
		if fm.Shape(toks[:k]) == sig {
			return true
		}
	}
	return false
}

// linesClose reports a candidate whose length is within a third of the
// anchored symbol's.
func linesClose(a Anchor, s analyzer.Symbol) bool {
	start, end, ok := a.Range()
	if !ok {
		return false
	}
	want, got := end-start+1, s.EndLine-s.StartLine+1
	return want >= 3 && abs(got-want)*3 <= want
}

// freshSymbol finds s in cf as it is now: the symbol with the same
// FQName, nearest to s's lines.
func freshSymbol(cf *File, s analyzer.Symbol) (analyzer.Symbol, bool) {
	var best analyzer.Symbol
	found := false
	for _, x := range cf.Symbols {
		if x.FQName == s.FQName && (!found || abs(x.StartLine-s.StartLine) < abs(best.StartLine-s.StartLine)) {
			best, found = x, true
		}
	}
	return best, found
}

// baseSymbolTokens returns the tokens of a's symbol as baselined, from
// the Base source; ok says the baseline was found there, which makes Base
// a trustworthy picture of the code before the change.
func (v *Verifier) baseSymbolTokens(ctx context.Context, a Anchor) ([]string, bool) {
	s, bf, ok := v.baseSymbol(ctx, a)
	if !ok {
		return nil, false
	}
	return analyzer.RangeTokens(bf.Lang, bf.Src, s.StartLine, s.EndLine), true
}

// baseText returns the baselined text of a lines anchor from Base.
func (v *Verifier) baseText(ctx context.Context, a Anchor) []byte {
	if v.opts.Base == nil || a.Hash == "" {
		return nil
	}
	bf, err := v.opts.Base.File(ctx, a.Path())
	if err != nil {
		return nil
	}
	start, end, _ := a.Range()
	w := v.windows(bf)
	if w.hash(start, end) == a.Hash {
		return w.text(start, end)
	}
	if hits := w.findHash(a.Hash, end-start+1, start); len(hits) > 0 {
		return w.text(hits[0], hits[0]+end-start)
	}
	return nil
}

// existedInBase reports whether s was already in Base under its name.
func (v *Verifier) existedInBase(ctx context.Context, s analyzer.Symbol) bool {
	bf, err := v.opts.Base.File(ctx, s.Path)
	if err != nil {
		return false
	}
	for _, x := range bf.Symbols {
		if x.FQName == s.FQName {
			return true
		}
	}
	return false
}

func outerName(fq string) string {
	if i := strings.LastIndex(fq, "::"); i >= 0 {
		return fq[:i]
	}
	return ""
}

// kindsCompatible: the same kind, or functions and methods (a function
// moved into a class), or unknown.
func kindsCompatible(a, b string) bool {
	if a == "" || a == b {
		return true
	}
	callable := func(k string) bool {
		return k == analyzer.KindFunction || k == analyzer.KindMethod || k == analyzer.KindConstructor
	}
	return callable(a) && callable(b)
}

// sizeCompatible filters repository-wide rename candidates by line count.
func sizeCompatible(want, got int, loose bool) bool {
	if want == 0 {
		return true
	}
	slack := max(2, want/4)
	if loose {
		slack = max(4, want/2)
	}
	return abs(got-want) <= slack
}

func substitute(toks []string, m map[string]string) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		if r, ok := m[t]; ok && t != "" {
			out[i] = r
		} else {
			out[i] = t
		}
	}
	return out
}

// normalize replaces a symbol's own name and outer name by placeholders.
func normalize(toks []string, name, outer string) []string {
	m := map[string]string{name: "\x01self"}
	if outer != "" {
		m[lastName(outer)] = "\x01outer"
	}
	return substitute(toks, m)
}

// shingles are the hashed 3-token sequences of toks (the tokens
// themselves when there are fewer than 3).
func shingles(toks []string) map[uint64]struct{} {
	out := map[uint64]struct{}{}
	k := 3
	if len(toks) < k {
		k = 1
	}
	for i := 0; i+k <= len(toks); i++ {
		out[shingleHash(toks[i:i+k])] = struct{}{}
	}
	return out
}

// shingleHash hashes a run of tokens (FNV-1a, tokens NUL-separated).
func shingleHash(ts []string) uint64 {
	h := fnv.New64a()
	for _, t := range ts {
		h.Write([]byte(t))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// similarity compares two token lists: twice their longest common
// subsequence over their total length, so one edited token in a short body
// costs little. Very long lists fall back to shingle overlap.
func similarity(a, b []string) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	if len(a)*len(b) > 4_000_000 {
		return jaccard(shingles(a), shingles(b))
	}
	ids := map[string]int32{}
	id := func(ts []string) []int32 {
		out := make([]int32, len(ts))
		for i, t := range ts {
			v, ok := ids[t]
			if !ok {
				v = int32(len(ids))
				ids[t] = v
			}
			out[i] = v
		}
		return out
	}
	x, y := id(a), id(b)
	prev := make([]int32, len(y)+1)
	cur := make([]int32, len(y)+1)
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			switch {
			case x[i-1] == y[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return 2 * float64(prev[len(y)]) / float64(len(a)+len(b))
}

func jaccard(a, b map[uint64]struct{}) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := 0
	for k := range a {
		if _, ok := b[k]; ok {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// ambiguity is the confidence in one of k equally good matches.
func ambiguity(k int) float64 {
	if k <= 1 {
		return 1
	}
	return round(1 / math.Sqrt(float64(k)))
}

func round(x float64) float64 { return math.Round(x*100) / 100 }

// renameCandidates orders the paths a renamed file may now have: the same
// base name first, then the same extension.
func renameCandidates(old string, paths []string) []string {
	base, ext := path.Base(old), path.Ext(old)
	var same, sameExt []string
	for _, p := range paths {
		if p == old {
			continue
		}
		switch {
		case path.Base(p) == base:
			same = append(same, p)
		case ext != "" && path.Ext(p) == ext:
			sameExt = append(sameExt, p)
		}
	}
	return append(same, sameExt...)
}
