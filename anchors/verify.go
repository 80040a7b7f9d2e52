package anchors

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/lorehq/lore/analyzer"
)

// DefaultThreshold is the confidence below which a relocation is only
// reported as a candidate.
const DefaultThreshold = 0.8

// Options configure a Verifier.
type Options struct {
	// Threshold is the minimum confidence, in (0,1], for following a
	// relocated anchor; 0 means DefaultThreshold.
	Threshold float64
	// Base is an older source where the anchored code may still be found
	// as it was baselined: HEAD for the working tree or the staged index,
	// the merge base in CI. Optional. When an anchor's baseline is found
	// there, relocation compares bodies by token similarity (a symbol
	// renamed and edited, text edited after it moved) and ignores symbols
	// that already existed there (a same-named function in another file
	// is not where a deleted one went). When it is not, or there is no
	// Base, the anchor's sketch (if recorded) stands in for the old body.
	Base Files
	// Workers verify in parallel in VerifyAll and VerifyLearning; 0 means
	// GOMAXPROCS, 1 verifies on the calling goroutine. With more than one
	// worker the Files (and Base) must be safe for concurrent use, as
	// Source is.
	Workers int
	// Changed lists the files that differ between Base and the source
	// (git diff --name-only), nil when unknown. Optional: with it, a
	// method renamed while its body was rewritten (in its place, up or
	// down its type's hierarchy, or into the type of one of its
	// parameters) is followed where the change's lines that used its old
	// name now use the new one. It is called at most once per Verifier,
	// and only when a symbol must be relocated: most runs never ask.
	Changed func(context.Context) []string
}

// Verifier checks anchors against one source. Use one per verification
// run: its Files cache what they read. Verify is safe for concurrent use
// when the Files are.
type Verifier struct {
	files      Files
	opts       Options
	tokens     sync.Map // symbol → tokens, see symbolTokens
	sketches   sync.Map // symbol → sketch, see symbolSketch
	docs       sync.Map // symbol → leading comment lines, see codeSizeCompatible
	streams    sync.Map // streamKey → *analyzer.Stream, see stream
	aligned    sync.Map // Base file and file → line alignment, see alignment
	gone       sync.Map // Base path → symbols gone from the source, see vanished
	pairs      sync.Map // path → the path it was renamed to, see renamedTo
	back       sync.Map // new path → whether its pairing is mutual, see pairedBack
	moved      sync.Map // "" → the files removed, added and renamed, see movesOf
	newcomers  sync.Map // "" → the symbols new in the change, see arrivals
	whole      sync.Map // Base symbol → where it went unchanged, see wentWhole
	lineage    sync.Map // type → the types it descends from, see ancestors
	usesOnce   sync.Once
	used       uses // what the change's lines say of names, see uses
	changeOnce sync.Once
	change     change // Options.Changed's list, see changeOf
}

// errStopScan ends a walk over the source's symbols early.
var errStopScan = errors.New("scan budget spent")

// NewVerifier returns a verifier reading files.
func NewVerifier(files Files, opts Options) (*Verifier, error) {
	if files == nil {
		return nil, errors.New("anchors: new verifier: nil Files")
	}
	if opts.Threshold == 0 {
		opts.Threshold = DefaultThreshold
	}
	if opts.Workers < 0 {
		return nil, fmt.Errorf("anchors: new verifier: negative workers %d", opts.Workers)
	}
	if opts.Workers == 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.Threshold < 0 || opts.Threshold > 1 {
		return nil, fmt.Errorf("anchors: new verifier: threshold %v outside (0,1]", opts.Threshold)
	}
	return &Verifier{files: files, opts: opts}, nil
}

// Learning names the anchors of one learning for VerifyLearnings.
type Learning struct {
	ID      string
	Anchors []Anchor
}

// VerifyLearnings verifies the anchors of many learnings as one run (see
// VerifyAll) and returns one result per anchor, learning by learning, with
// Learning and Anchor (1-based) filled in.
func (v *Verifier) VerifyLearnings(ctx context.Context, ls []Learning) []Result {
	var as []Anchor
	for _, l := range ls {
		as = append(as, l.Anchors...)
	}
	out := v.VerifyAll(ctx, as)
	k := 0
	for _, l := range ls {
		for i := range l.Anchors {
			out[k].Learning = l.ID
			out[k].Anchor = i + 1
			k++
		}
	}
	return out
}

// VerifyAll verifies many anchors, in parallel up to Options.Workers, and
// returns their results in order. Anchors verified together do not share
// a new location: when two relocate to the same symbol, the one found in
// place or with the higher confidence keeps it and the other looks again
// without it (pass every anchor of a run in one call to benefit).
// Learning and Anchor are left for the caller to fill.
func (v *Verifier) VerifyAll(ctx context.Context, as []Anchor) []Result {
	out := v.verifyEach(ctx, as, nil, nil)
	for pass := 0; pass < 3; pass++ {
		losers, exclude := contests(as, out)
		if len(losers) == 0 {
			break
		}
		redo := v.verifyEach(ctx, as, losers, &runInfo{exclude: exclude})
		for _, i := range losers {
			prev := out[i]
			out[i] = redo[i]
			if out[i].Status == Invalid && prev.To != nil {
				out[i].Candidates = append(out[i].Candidates, Candidate{Location: *prev.To,
					Confidence: round(prev.Confidence / 2), Reason: prev.Reason + "; another anchor holds it"})
			}
		}
	}
	// Symbols renamed in this run explain other changes: a body that only
	// calls the new name still matches its baseline modulo the rename.
	known := 0
	for pass := 0; pass < 3; pass++ {
		renames := runRenames(out)
		if len(renames) == known {
			break
		}
		known = len(renames)
		var again []int
		for i, r := range out {
			if as[i].Type() == TypeSymbol && (r.Change == ChangeDeleted || r.Change == ChangeFileDeleted ||
				r.Change == ChangeBodyChanged || r.Change == ChangeSignatureChanged) {
				again = append(again, i)
			}
		}
		if len(again) == 0 {
			break // nothing the renames could explain (and verifyEach reads nil as all)
		}
		_, exclude := contests(as, out)
		if exclude == nil {
			exclude = map[string]bool{}
		}
		for _, r := range out {
			if r.found && r.To != nil && r.To.FQName != "" {
				exclude[locKey(r.To)] = true
			}
		}
		redo := v.verifyEach(ctx, as, again, &runInfo{exclude: exclude, renames: renames})
		for _, i := range again {
			out[i] = redo[i]
		}
	}
	return out
}

// runInfo is what verifying many anchors together learns: symbols other
// anchors hold (relocation must not pick them) and names renamed in the
// run (new name → old name).
type runInfo struct {
	exclude map[string]bool
	renames map[string]string
}

func (ri *runInfo) excluded(fq string) bool { return ri != nil && ri.exclude[fq] }

// runRenames collects the renames found in a run: new name → old name,
// for names renamed one way only.
func runRenames(out []Result) map[string]string {
	m := map[string]string{}
	bad := map[string]bool{}
	for _, r := range out {
		if r.Status == Invalid || r.To == nil || (r.Change != ChangeRenamed && r.Change != ChangeMovedRenamed) {
			continue
		}
		oldName, newName := lastName(r.From.FQName), lastName(r.To.FQName)
		if oldName == newName || oldName == "" || newName == "" {
			continue
		}
		if prev, ok := m[newName]; ok && prev != oldName {
			bad[newName] = true
		}
		m[newName] = oldName
	}
	for n := range bad {
		delete(m, n)
	}
	return m
}

// relocated reports a change that took an anchor to another symbol.
func relocated(c Change) bool {
	return c == ChangeMoved || c == ChangeRenamed || c == ChangeMovedRenamed
}

// contests finds symbol anchors (different specs) that landed on the same
// symbol. It returns the losers and every symbol held by a winner.
func contests(as []Anchor, out []Result) ([]int, map[string]bool) {
	owner := map[string]int{}
	lost := map[int]bool{}
	better := func(i, j int) bool {
		ri, rj := out[i], out[j]
		if pi, pj := !relocated(ri.Change), !relocated(rj.Change); pi != pj {
			return pi
		}
		if ri.Confidence != rj.Confidence {
			return ri.Confidence > rj.Confidence
		}
		if (ri.Change == ChangeMoved) != (rj.Change == ChangeMoved) {
			return ri.Change == ChangeMoved
		}
		return i < j
	}
	tied := map[string]string{} // target → the other anchor's spec
	for i, r := range out {
		if as[i].Type() != TypeSymbol || !r.found || r.To == nil || r.To.FQName == "" {
			continue
		}
		key := locKey(r.To)
		j, ok := owner[key]
		if !ok {
			owner[key] = i
			continue
		}
		if as[j].Symbol == as[i].Symbol {
			continue // the same anchor in two learnings
		}
		if copies(as[i], as[j]) || r.related && out[j].related || merged(as[i], as[j], r, out[j]) {
			continue // pulled up or merged from several types into one: both follow it
		}
		if tookOver(r, out[j]) || tookOver(out[j], r) {
			continue // the name stayed, another's code took its place: both are told
		}
		if relocated(r.Change) && relocated(out[j].Change) && r.Confidence == out[j].Confidence && r.Change == out[j].Change {
			tied[key] = as[i].Symbol
		}
		if better(i, j) {
			owner[key] = i
			lost[j] = true
		} else {
			lost[i] = true
		}
	}
	// A tie has no winner: the owner keeps the target only as a candidate.
	for key, other := range tied {
		r := &out[owner[key]]
		c := Candidate{Location: *r.To, Confidence: round(r.Confidence / 2),
			Reason: r.Reason + "; equally good a match for " + other}
		what := fmt.Sprintf("%s no longer exists in %s", r.From.LocalName, r.From.Path)
		r.To, r.found, r.current, r.file, r.sym = nil, false, Anchor{}, nil, nil
		r.Candidates = append([]Candidate{c}, r.Candidates...)
		r.set(Invalid, ChangeDeleted, c.Confidence, what+"; its best match is equally good a match for "+other)
	}
	if len(lost) == 0 {
		return nil, nil
	}
	exclude := make(map[string]bool, len(owner))
	for key := range owner {
		exclude[key] = true
	}
	losers := make([]int, 0, len(lost))
	for i := range lost {
		losers = append(losers, i)
	}
	sort.Ints(losers)
	return losers, exclude
}

// copies reports whether two symbol anchors in different types were
// baselined on the same code (up to their names): several copies may
// become one symbol, as when a method is pulled up from subclasses into
// their parent. (Two copies in one type becoming one is a tie.)
func copies(a, b Anchor) bool {
	if a.Path() == b.Path() && outerName(a.FQName()) == outerName(b.FQName()) {
		return false
	}
	if a.Shape != "" && a.Shape == b.Shape {
		return true
	}
	ska, ok1 := parseSketch(a.Sketch)
	skb, ok2 := parseSketch(b.Sketch)
	return ok1 && ok2 && ska.similarity(skb) >= 0.9
}

// tookOver reports whether result ra followed its anchor, body unchanged,
// to the symbol where rb found its own anchor in place, changed: a name
// that stayed while the code of another took its place. Each anchor is
// told its own news (infinispan 35b6c86954: createAccount(int) became
// createAccountPB(int), taking the name of the wrapper createAccountPB()
// it replaced).
func tookOver(ra, rb Result) bool {
	return relocated(ra.Change) && ra.Status == Valid && !relocated(rb.Change) && rb.Status == Drifted
}

// merged reports whether anchors a and b, methods of one name and
// parameters in two types, both moved to the place ra and rb name, under
// that name or both under one new name: copies merged into one type,
// though each read its own (wildfly 4aa2e8746b moved addAttributes(Class)
// of three handlers into ResourceDescriptor; one returned
// RestartParentAddHandler<T>, the others their own types. mockito
// 73a861f778 made the checkDependency(ClassLoader, String) of two tests,
// each failing with its own message, ClassLoadabilityChecker's
// checkLoadability).
func merged(a, b Anchor, ra, rb Result) bool {
	name := lastName(a.Name())
	return (ra.Change == ChangeMoved || ra.Change == ChangeMovedRenamed) && rb.Change == ra.Change &&
		name == lastName(b.Name()) && a.Selector() == b.Selector() && outerName(a.FQName()) != outerName(b.FQName())
}

// verifyEach verifies as (only the indexes in only, when given) with
// Options.Workers goroutines.
func (v *Verifier) verifyEach(ctx context.Context, as []Anchor, only []int, run *runInfo) []Result {
	out := make([]Result, len(as))
	idx := only
	if idx == nil {
		idx = make([]int, len(as))
		for i := range idx {
			idx[i] = i
		}
	}
	if v.opts.Workers == 1 || len(idx) < 2 {
		for _, i := range idx {
			out[i] = v.verify(ctx, as[i], run)
		}
		return out
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < min(v.opts.Workers, len(idx)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1)) - 1
				if k >= len(idx) {
					return
				}
				i := idx[k]
				out[i] = v.verify(ctx, as[i], run)
			}
		}()
	}
	wg.Wait()
	return out
}

// Verify checks one anchor (DESIGN.md §2). Findings are in the Result;
// when the source cannot be read the result is invalid and its reason
// says why. Learning and Anchor are left for the caller to fill.
func (v *Verifier) Verify(ctx context.Context, a Anchor) Result {
	return v.verify(ctx, a, nil)
}

// verify is Verify with what the run learned so far (nil: nothing).
func (v *Verifier) verify(ctx context.Context, a Anchor, run *runInfo) Result {
	r := Result{Spec: a.Spec(), Confidence: 1, From: fromLocation(a)}
	if _, err := ParseSpec(r.Spec); err != nil {
		r.Status, r.Change, r.Confidence = Invalid, ChangeNoMatch, 0
		r.Reason = "malformed anchor: " + err.Error()
		return r
	}
	switch a.Type() {
	case TypeSymbol:
		v.verifySymbol(ctx, a, &r, run)
	case TypeLines:
		v.verifyLines(ctx, a, &r)
	case TypeFile:
		v.verifyFile(ctx, a, &r)
	case TypeGlob:
		v.verifyGlob(ctx, a, &r)
	}
	return r
}

func fromLocation(a Anchor) Location {
	l := Location{Path: a.Path(), FQName: a.Name(), LocalName: a.FQName() + a.Selector()}
	switch a.Type() {
	case TypeSymbol:
		l.Lines = a.Lines
	case TypeLines:
		if s, e, ok := a.Range(); ok {
			l.Lines = FormatRange(s, e)
		}
	case TypeGlob:
		l.Path = a.Glob
	}
	return l
}

// symLocation is where symbol s of f is; its local name carries its
// selector when its name alone is ambiguous in f.
func symLocation(f *File, s analyzer.Symbol) *Location {
	_, fq, _ := cutFQ(specOf(f, s, false))
	return &Location{Path: s.Path, FQName: s.FQName, LocalName: fq, Lines: FormatRange(s.StartLine, s.EndLine)}
}

// locKey identifies a symbol location (overloads share a name).
func locKey(l *Location) string { return l.FQName + "#" + l.Lines }

// cutFQ splits "path::Outer::inner" into path and "Outer::inner".
func cutFQ(full string) (string, string, bool) {
	for i := 0; i+1 < len(full); i++ {
		if full[i] == ':' && full[i+1] == ':' {
			return full[:i], full[i+2:], true
		}
	}
	return full, "", false
}

func (r *Result) set(st Status, ch Change, conf float64, reason string) {
	r.Status, r.Change, r.Confidence, r.Reason = st, ch, conf, reason
}

func (r *Result) foundAt(to *Location, cur Anchor) {
	r.To, r.current, r.found = to, cur, true
}

// foundLines records lines s..e of f as the anchor's target.
func (r *Result) foundLines(f *File, s, e int) {
	r.foundAt(&Location{Path: f.Path, Lines: FormatRange(s, e)}, linesAnchor(f, s, e))
	r.file = f
}

// foundSymbol records symbol s of f as the anchor's target; the sketch,
// shape and sig of the re-baselined anchor are computed from f when Fix
// or Accept asks (a symbol read from the index has no shape: its file
// would be parsed for every reformatted symbol found).
func (r *Result) foundSymbol(f *File, s analyzer.Symbol, keep bool) {
	r.foundAt(symLocation(f, s), fingerprinted(f, s, keep))
	r.file, r.sym = f, &s
}

func readFailure(r *Result, path string, err error) {
	r.set(Invalid, ChangeFileDeleted, 0, fmt.Sprintf("cannot read %s: %v", path, err))
}

// --- symbols ---------------------------------------------------------

func (v *Verifier) verifySymbol(ctx context.Context, a Anchor, r *Result, run *runInfo) {
	path := a.Path()
	f, err := v.files.File(ctx, path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		readFailure(r, path, err)
		return
	}
	if err == nil {
		if sym, ok := v.pickSymbol(f, a); ok {
			r.foundSymbol(f, sym, a.Selector() != "")
			v.compareSymbol(ctx, a, f, sym, r)
			if r.Status == Drifted && v.renamedAway(ctx, a, f, sym, r, run) {
				return
			}
			if r.Status == Drifted && run != nil && len(run.renames) > 0 {
				toks := v.shapeTokens(a, f, sym)
				if used := renamesUsed(toks, run.renames); len(used) > 0 && format(a).Shape(substitute(toks, run.renames)) == a.Shape {
					r.Reason += ": only references to renamed symbols changed (" + strings.Join(used, ", ") + ")"
				}
			}
			return
		}
	} else {
		f = nil
	}
	if a.Hash == "" && a.Shape == "" && a.Sketch == "" {
		// Nothing recorded to recognise the symbol by elsewhere.
		if f == nil {
			r.set(Invalid, ChangeFileDeleted, 1, path+" does not exist (no baseline recorded to follow the symbol elsewhere)")
		} else {
			r.set(Invalid, ChangeDeleted, 1, fmt.Sprintf("no symbol %s in %s (no baseline recorded to follow it elsewhere)", a.FQName(), path))
		}
		return
	}
	v.relocateSymbol(ctx, a, f, r, run)
}

// pickSymbol finds a's symbol in f: among symbols with a's name (and
// selector, when it has one), the one with the baseline hash, else the
// baseline shape, else, of those of the baseline's kind and, among them,
// of its signature (a name that came to be shared: a field beside a
// method, a second constructor), the nearest to the baseline lines.
func (v *Verifier) pickSymbol(f *File, a Anchor) (analyzer.Symbol, bool) {
	found := sameNamed(f, a.Name())
	if sel := a.Selector(); sel != "" && len(found) > 0 {
		found = selected(f, found, sel)
	}
	if len(found) == 0 {
		return analyzer.Symbol{}, false
	}
	for _, s := range found {
		if a.Hash != "" && s.Hash == a.Hash {
			return s, true
		}
	}
	for _, s := range found {
		if shape, _ := v.symbolShape(a, f, s); a.Shape != "" && shape == a.Shape {
			return s, true
		}
	}
	found = narrowed(found, func(s analyzer.Symbol) bool { return a.Kind != "" && s.Kind == a.Kind })
	found = narrowed(found, func(s analyzer.Symbol) bool {
		_, sig := v.symbolShape(a, f, s)
		return a.Sig != "" && sig() == a.Sig
	})
	best := found[0]
	if start, _, ok := a.Range(); ok {
		for _, s := range found[1:] {
			if abs(s.StartLine-start) < abs(best.StartLine-start) {
				best = s
			}
		}
	}
	return best, true
}

// narrowed is the symbols of ss that keep, or ss when none does.
func narrowed(ss []analyzer.Symbol, keep func(analyzer.Symbol) bool) []analyzer.Symbol {
	if len(ss) < 2 {
		return ss
	}
	var out []analyzer.Symbol
	for _, s := range ss {
		if keep(s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return ss
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// compareSymbol compares sym, a's symbol found in f, with a's baseline,
// in the baseline's format (see shape.go).
func (v *Verifier) compareSymbol(ctx context.Context, a Anchor, f *File, sym analyzer.Symbol, r *Result) {
	switch {
	case a.Hash == "" && a.Shape == "":
		r.set(Valid, ChangeNone, 1, "no baseline recorded; run lore anchor accept to record one")
		return
	case sym.Hash == a.Hash:
		r.set(Valid, ChangeNone, 1, "unchanged")
		return
	}
	shape, sig := v.symbolShape(a, f, sym)
	baseShape, baseSig := a.Shape, a.Sig
	if shape != a.Shape {
		if up, upSig, ok := v.upgraded(ctx, a); ok {
			shape, baseShape, baseSig = v.shapeOf(f, sym), up, upSig
			sig = func() string { return f.withShape(sym).Sig }
		}
	}
	// A symbol holds code: the shape of no tokens says the stream could
	// not read it (a literal its scanner ran past), not that the code
	// is the same.
	unread := shape == analyzer.FormatOf(shape).Shape(nil)
	switch {
	case baseShape != "" && shape == baseShape && !unread:
		r.set(Valid, ChangeReformatted, 1, "only formatting or comments changed")
	case baseShape != "" && v.regrouped(a, f, sym, baseShape):
		r.set(Valid, ChangeReformatted, 1, "only formatting changed: the declaration was grouped with others, or taken out of its group")
	case baseShape != "" && v.splitUp(a, f, sym, baseShape):
		r.set(Valid, ChangeReformatted, 1, "only formatting changed: the declarations that shared its line were put on lines of their own")
	case baseShape != "" && v.unfolded(a, f, sym, baseShape):
		r.set(Valid, ChangeReformatted, 1, "only formatting changed: the type it shared its line with was written over several lines")
	case baseSig != "" && sig() != baseSig:
		r.set(Drifted, ChangeSignatureChanged, 1, "signature changed")
	default:
		r.set(Drifted, ChangeBodyChanged, 1, "body changed")
	}
}

// regrouped reports whether sym, a Go constant or variable of f, has the
// baseline's shape once written as a declaration of its own rather than
// a spec of a group, or the other way round: gofumpt groups adjacent
// declarations (const X = 1 and const Y = 2 become const ( … )), and a
// spec's lines hold no keyword. Alone, an untyped var x = y reads as
// x := y (see the Go canonical stream); in a group, x = y.
func (v *Verifier) regrouped(a Anchor, f *File, sym analyzer.Symbol, baseShape string) bool {
	var kw string
	switch sym.Kind {
	case analyzer.KindConstant:
		kw = "const"
	case analyzer.KindVariable:
		kw = "var"
	}
	if f.Lang != "go" || kw == "" {
		return false
	}
	fm := format(a)
	toks := v.stream(f, fm).Tokens(sym.StartLine, sym.EndLine)
	if len(toks) < 2 {
		return false
	}
	var other []string // the other form
	switch eq := untypedAssign(toks); {
	case toks[0] == kw: // alone now, in a group before
		other = toks[1:]
	case eq >= 0 && toks[eq] == ":=":
		other = replaceAt(toks, eq, "=")
	case eq >= 0 && kw == "var":
		other = replaceAt(toks, eq, ":=")
	default: // in a group now, alone before
		other = append([]string{kw}, toks...)
	}
	return fm.Shape(other) == baseShape
}

// splitReach is how many declarations on either side splitUp joins.
const splitReach = 16

// splitUp reports whether sym, a field, variable or constant of f, and
// declarations of the same kind in the same scope written next to it
// (up to splitReach on either side) have the baseline's shape together:
// the baseline's lines held them all, and a formatter put each on lines
// of its own (google-java-format writes "A a; B b;" as two lines,
// prettier "var a, b, c;" as a name a line). A symbol is whole lines, so
// its baseline was theirs too.
func (v *Verifier) splitUp(a Anchor, f *File, sym analyzer.Symbol, baseShape string) bool {
	if !valueKind(sym.Kind) {
		return false
	}
	scope := strings.TrimSuffix(sym.FQName, "::"+sym.Name)
	var near []analyzer.Symbol // sym's kind in its scope, in line order
	at := -1
	for _, s := range f.Symbols {
		if s.Kind == sym.Kind && strings.TrimSuffix(s.FQName, "::"+s.Name) == scope {
			if s.FQName == sym.FQName && s.StartLine == sym.StartLine {
				at = len(near)
			}
			near = append(near, s)
		}
	}
	if at < 0 || !slices.IsSortedFunc(near, func(x, y analyzer.Symbol) int { return x.StartLine - y.StartLine }) {
		return false
	}
	st := v.stream(f, format(a))
	for i := at; i >= max(0, at-splitReach); i-- {
		for j := at; j < min(len(near), at+splitReach+1); j++ {
			if i != j && st.Shape(near[i].StartLine, near[j].EndLine) == baseShape {
				return true
			}
		}
	}
	return false
}

// unfolded reports whether the type that holds sym has the baseline's
// shape: the baseline's line held the whole type (`class Small { String
// name; }`), which a formatter wrote over lines of its own. A symbol is
// whole lines, so its baseline was the type's.
func (v *Verifier) unfolded(a Anchor, f *File, sym analyzer.Symbol, baseShape string) bool {
	scope := strings.TrimSuffix(sym.FQName, "::"+sym.Name)
	if scope == sym.FQName {
		return false
	}
	for _, s := range f.Symbols {
		if s.FQName == scope && s.StartLine <= sym.StartLine && sym.EndLine <= s.EndLine {
			return v.stream(f, format(a)).Shape(s.StartLine, s.EndLine) == baseShape
		}
	}
	return false
}

// untypedAssign returns the index of the = or := that follows the names
// at the start of toks (a, b = …), -1 when a type or anything else comes
// first.
func untypedAssign(toks []string) int {
	for i, t := range toks {
		switch {
		case t == "=" || t == ":=":
			return i
		case t == "," || i%2 == 0 && isIdent(t):
		default:
			return -1
		}
	}
	return -1
}

func replaceAt(toks []string, i int, t string) []string {
	out := slices.Clone(toks)
	out[i] = t
	return out
}

// --- lines -----------------------------------------------------------

func (v *Verifier) verifyLines(ctx context.Context, a Anchor, r *Result) {
	path := a.Path()
	start, end, _ := a.Range()
	f, err := v.files.File(ctx, path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		readFailure(r, path, err)
		return
	}
	if err == nil {
		if f.Skipped == "binary" {
			r.set(Invalid, ChangeNoMatch, 0, path+" is now a binary file")
			return
		}
		if a.Hash == "" && a.Shape == "" {
			if n := v.windows(f).n(); end > n {
				r.set(Invalid, ChangeNoMatch, 1, fmt.Sprintf("%s has only %d lines; the anchor names L%d-L%d", path, n, start, end))
				return
			}
			r.foundLines(f, start, end)
			r.set(Valid, ChangeNone, 1, "no baseline recorded; run lore anchor accept to record one")
			return
		}
		if v.findLines(ctx, a, f, r, false) {
			return
		}
	}
	// The file is gone, or the text left it: follow a rename.
	var renamed *File
	if p2 := v.renamedTo(ctx, path); p2 != "" {
		if f2, err := v.files.File(ctx, p2); err == nil {
			if v.findLines(ctx, a, f2, r, true) {
				return
			}
			renamed = f2
		}
	}
	if f == nil && renamed != nil {
		v.fuzzyLines(ctx, a, renamed, r)
		r.Reason = fmt.Sprintf("%s renamed to %s; %s", path, renamed.Path, r.Reason)
		return
	}
	if f == nil {
		if f2 := v.findRenamedFile(ctx, a); f2 != nil && v.findLines(ctx, a, f2, r, true) {
			return
		}
		r.set(Invalid, ChangeFileDeleted, 1, path+" was deleted")
		return
	}
	v.fuzzyLines(ctx, a, f, r)
}

// findLines looks for a's baseline text in f: at its lines, then exactly
// elsewhere, then with the same tokens (reformatted). moved says f is not
// the anchor's own file.
func (v *Verifier) findLines(ctx context.Context, a Anchor, f *File, r *Result, moved bool) bool {
	start, end, _ := a.Range()
	n := end - start + 1
	w := v.windows(f)
	ok := func(s, e int, ch Change, conf float64, reason string) bool {
		r.foundLines(f, s, e)
		if moved {
			ch = ChangeMoved
			reason = fmt.Sprintf("%s renamed to %s; text found at L%d-L%d", a.Path(), f.Path, s, e)
		}
		r.set(Valid, ch, conf, reason)
		return true
	}
	if !moved && end <= w.n() && w.hash(start, end) == a.Hash {
		return ok(start, end, ChangeNone, 1, "unchanged")
	}
	// Where the diff from Base keeps the lines, whatever copies of them
	// the file holds elsewhere (a test's table, a closing brace).
	shifted := func(s, e int, how string) string {
		return fmt.Sprintf("lines shifted from L%d-L%d to L%d-L%d, %s", start, end, s, e, how)
	}
	bf := v.baseLinesFile(ctx, a)
	var bw *windows // bf's, when Base holds the text at its lines
	if bf != nil {
		bw = v.windows(bf)
	}
	kept, diffed := v.keptLines(bf, f, start, end)
	if diffed && kept+n-1 <= w.n() && w.hash(kept, kept+n-1) == a.Hash {
		return ok(kept, kept+n-1, ChangeLinesShifted, 1, shifted(kept, kept+n-1, "text unchanged"))
	}
	// A copy the file held already, elsewhere, is not where the lines
	// went: they changed, and the copy stayed.
	copied := func(h int, same func(q int) bool) bool {
		q := v.baseLineOf(bf, f, h)
		return q > 0 && same(q)
	}
	hits := slices.DeleteFunc(w.findHash(a.Hash, n, start), func(h int) bool {
		return copied(h, func(q int) bool { return q != start && bw.hash(q, q+n-1) == a.Hash })
	})
	if len(hits) > 0 {
		s := hits[0]
		conf := ambiguity(len(hits))
		if conf < v.opts.Threshold {
			return v.lineCandidates(a, f, hits, n, r)
		}
		return ok(s, s+n-1, ChangeLinesShifted, conf, shifted(s, s+n-1, "text unchanged"))
	}
	shape := a.Shape
	if shape == "" {
		return false
	}
	canonical := bw != nil && format(a) == analyzer.ShapeCanonical
	if canonical {
		// Base holds the text: its shape as this lore reads it (a
		// baseline recorded before a rule of the stream was added).
		shape = bw.shape(start, end, analyzer.ShapeCanonical)
	}
	// A shape reads code only. With Base in hand, what the lines say in
	// comments counts too: a comment reworded among lines of code is
	// drift, as a person anchoring those lines reads them.
	reformatted := func(s, e int, ch Change, conf float64, reason string) bool {
		if bf == nil {
			return ok(s, e, ch, conf, reason)
		}
		if j, ls, le := v.addedAtEdges(a, bf, f, s, e); j > 0 {
			r.foundLines(f, ls, le)
			r.set(Drifted, ChangeBodyChanged, 1, fmt.Sprintf("code added at L%d, inside its lines as the diff keeps them (its own code unchanged at L%d-L%d)", j, s, e))
			return true
		}
		// Compared: the lines with code and the comments the anchor
		// began or ended with, not a neighbour's comment that a shorter
		// reformatted text lets into the anchor's lines.
		cs, ce := w.codeSpan(format(a), s, e)
		cs, ce = v.withEdges(a, bf, w, cs, ce)
		alike, sim := v.saidAlike(bf, f, start, end, cs, ce)
		if alike {
			return ok(s, e, ch, conf, reason)
		}
		r.foundLines(f, s, e)
		r.set(Drifted, ChangeBodyChanged, round(sim), fmt.Sprintf("its code unchanged at L%d-L%d, its comments changed (%.0f%% of their words alike)", s, e, 100*sim))
		return true
	}
	if !moved && end <= w.n() && w.shape(start, end, format(a)) == shape {
		return reformatted(start, end, ChangeReformatted, 1, "only formatting or comments changed")
	}
	if diffed && kept+n-1 <= w.n() && w.shape(kept, kept+n-1, format(a)) == shape {
		return reformatted(kept, kept+n-1, ChangeLinesShifted, 1, shifted(kept, kept+n-1, "reformatted"))
	}
	// A shape's window begins at a line with code: the anchor's own
	// first such line kept is the anchor, not a copy.
	shaped := slices.DeleteFunc(w.findShape(shape, n, start), func(h [2]int) bool {
		return copied(h[0], func(q int) bool {
			return (q < start || q > end) && bw.shape(q, q+h[1]-h[0], format(a)) == shape
		})
	})
	words := false // shaped holds comments found by their words
	switch code := canonical && v.stream(bf, analyzer.ShapeCanonical).RangeHasCode(start, end); {
	case len(shaped) > 0:
	case canonical && !code && bw.says(start, end):
		// Comments only, read as their words: a formatter that reflows
		// them (clang-format, google-java-format's Javadoc) moves their
		// line breaks, so their lines are fewer or more.
		shaped, words = w.findWords(shape, n, v.shiftedStart(bf, f, start)), true
	case code:
		// A formatter joined or split the lines at the range's edges (a
		// return type put on its function's line): its tokens, in order,
		// where Base holds them once and f once (see FindRange).
		base := v.stream(bf, analyzer.ShapeCanonical)
		if base.RangeWhole(start, end) && len(base.FindRange(base, start, end)) == 1 {
			if found := v.stream(f, analyzer.ShapeCanonical).FindRange(base, start, end); len(found) == 1 {
				shaped = found
			}
		}
	}
	if !words {
		// It keeps the comment lines the anchor began or ended with.
		for i, h := range shaped {
			shaped[i][0], shaped[i][1] = v.withEdges(a, bf, w, h[0], h[1])
		}
	}
	if len(shaped) > 0 {
		h := shaped[0]
		conf := ambiguity(len(shaped))
		ch, reason := ChangeLinesShifted, shifted(h[0], h[1], "reformatted")
		if h[0] == start && !moved {
			ch, reason = ChangeReformatted, "only formatting or comments changed"
		}
		if conf < v.opts.Threshold {
			return false
		}
		if words {
			return ok(h[0], h[1], ch, conf, reason)
		}
		return reformatted(h[0], h[1], ch, conf, reason)
	}
	return false
}

func (v *Verifier) lineCandidates(a Anchor, f *File, hits []int, n int, r *Result) bool {
	conf := ambiguity(len(hits))
	for i, s := range hits {
		if i == 3 {
			break
		}
		r.Candidates = append(r.Candidates, Candidate{Location: Location{Path: f.Path, Lines: FormatRange(s, s+n-1)},
			Confidence: round(conf), Reason: "same text"})
	}
	r.set(Drifted, ChangeNoMatch, round(conf), fmt.Sprintf("the anchored text occurs %d times in %s; pick one", len(hits), f.Path))
	return true
}

// fuzzyLines handles text that is neither at its lines nor elsewhere in
// its file: similar text is drift, nothing similar is no match.
func (v *Verifier) fuzzyLines(ctx context.Context, a Anchor, f *File, r *Result) {
	start, end, _ := a.Range()
	w := v.windows(f)
	if bf := v.baseLinesFile(ctx, a); bf != nil {
		// With history, the diff of the file says where the lines went.
		if s, e, kept, ok := v.mapLines(bf, f, start, end); ok && kept >= 0.5 {
			text := v.windows(bf).text(start, end)
			sim := similarity(analyzer.Tokens(f.Lang, text), analyzer.Tokens(f.Lang, w.text(s, e)))
			r.foundLines(f, s, e)
			r.set(Drifted, ChangeBodyChanged, round(max(sim, kept)), fmt.Sprintf("text changed (%.0f%% similar); the diff maps L%d-L%d to L%d-L%d, %.0f%% of its lines kept", 100*sim, start, end, s, e, 100*kept))
			return
		}
	}
	if base := v.baseText(ctx, a); base != nil {
		toks := analyzer.Tokens(f.Lang, base)
		s, e, sim := w.mostSimilar(toks, end-start+1, start)
		switch {
		case sim >= v.opts.Threshold:
			r.foundLines(f, s, e)
			r.set(Drifted, ChangeBodyChanged, round(sim), fmt.Sprintf("text changed (%.0f%% similar), now at L%d-L%d", 100*sim, s, e))
			return
		case sim >= 0.4:
			r.Candidates = []Candidate{{Location: Location{Path: f.Path, Lines: FormatRange(s, e)}, Confidence: round(sim), Reason: "similar text"}}
			r.current, r.found, r.file = linesAnchor(f, s, e), true, f
			r.set(Drifted, ChangeNoMatch, round(sim), fmt.Sprintf("text not found; L%d-L%d is %.0f%% similar", s, e, 100*sim))
			return
		}
		r.set(Invalid, ChangeNoMatch, 1, "the anchored text is no longer in "+f.Path)
		return
	}
	if sk, ok := parseSketch(a.Sketch); ok {
		// No old text, but its sketch: the window of the same length
		// most similar to it.
		s, e, sim := w.mostSimilarSketch(sk, end-start+1, start)
		switch score := round(sketchScore(sim)); {
		case sim >= 0.7 && score >= v.opts.Threshold:
			r.foundLines(f, s, e)
			r.set(Drifted, ChangeBodyChanged, score, fmt.Sprintf("text changed (about %.0f%% similar to the baseline's sketch), now at L%d-L%d", 100*sim, s, e))
			return
		case sim >= 0.5:
			r.Candidates = []Candidate{{Location: Location{Path: f.Path, Lines: FormatRange(s, e)}, Confidence: round(min(score, sim)), Reason: "similar text"}}
			r.current, r.found, r.file = linesAnchor(f, s, e), true, f
			r.set(Drifted, ChangeNoMatch, round(min(score, sim)), fmt.Sprintf("text not found; L%d-L%d is about %.0f%% similar to the baseline's sketch", s, e, 100*sim))
			return
		}
	}
	if start <= w.n() {
		e := min(end, w.n())
		r.Candidates = []Candidate{{Location: Location{Path: f.Path, Lines: FormatRange(start, e)}, Confidence: 0.5, Reason: "same lines"}}
		r.current, r.found, r.file = linesAnchor(f, start, e), true, f
		r.set(Drifted, ChangeNoMatch, 0.5, fmt.Sprintf("text at L%d-L%d changed and was not found elsewhere in %s", start, end, f.Path))
		return
	}
	r.set(Invalid, ChangeNoMatch, 1, fmt.Sprintf("%s has only %d lines and the anchored text is not in it", f.Path, w.n()))
}

// maxRenameScan bounds how many files are read to find a deleted file's
// content under another name when no rename is known.
const maxRenameScan = 2000

// findRenamedFile looks for a file that holds a's text when a's file is
// gone and no rename is known: files with the same name first, then with
// the same extension.
func (v *Verifier) findRenamedFile(ctx context.Context, a Anchor) *File {
	paths, err := v.files.Paths(ctx)
	if err != nil {
		return nil
	}
	start, end, ok := a.Range()
	cands := renameCandidates(a.Path(), paths)
	if len(cands) > maxRenameScan {
		cands = cands[:maxRenameScan] // same base name first: the likely ones
	}
	for _, p := range cands {
		if ctx.Err() != nil {
			return nil
		}
		f, err := v.files.File(ctx, p)
		if err != nil || f.Skipped == "binary" {
			continue
		}
		if a.Type() == TypeFile {
			if f.Hash == a.Hash || (a.Shape != "" && v.fileShape(a, f) == a.Shape) {
				return f
			}
			continue
		}
		if ok && len(v.windows(f).findHash(a.Hash, end-start+1, start)) > 0 {
			return f
		}
	}
	return nil
}

// --- files and globs -------------------------------------------------

func (v *Verifier) verifyFile(ctx context.Context, a Anchor, r *Result) {
	path := a.Path()
	f, err := v.files.File(ctx, path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		readFailure(r, path, err)
		return
	}
	var f2 *File
	how, swapped := "renamed", false
	if err == nil {
		r.foundAt(&Location{Path: path}, fileAnchor(f))
		v.compareFile(ctx, a, f, r)
		p2 := ""
		if r.Change == ChangeFileChanged {
			p2 = v.rewrittenTo(ctx, path)
		}
		if p2 == "" {
			return
		}
		if f2, _ = v.files.File(ctx, p2); f2 == nil {
			return
		}
		swapped = true
	} else if p2 := v.renamedTo(ctx, path); p2 != "" {
		f2, _ = v.files.File(ctx, p2)
	} else if p2 := v.tookOver(ctx, path); p2 != "" {
		f2, _ = v.files.File(ctx, p2)
	}
	if f2 == nil && a.Hash != "" {
		f2 = v.findRenamedFile(ctx, a)
		how = "renamed (same content)"
	}
	if f2 == nil {
		r.set(Invalid, ChangeFileDeleted, 1, path+" was deleted")
		return
	}
	r.foundAt(&Location{Path: f2.Path}, fileAnchor(f2))
	v.compareFile(ctx, a, f2, r)
	st := r.Status
	reason := fmt.Sprintf("%s %s to %s", path, how, f2.Path)
	switch r.Change {
	case ChangeReformatted:
		reason += ", reformatted"
	case ChangeFileChanged:
		reason += ", content changed"
	}
	if swapped {
		reason += "; " + path + " now holds another file's content"
	}
	r.set(st, ChangeMoved, 1, reason)
}

// compareFile compares f with file anchor a's baseline, in the
// baseline's format (see shape.go).
func (v *Verifier) compareFile(ctx context.Context, a Anchor, f *File, r *Result) {
	switch {
	case a.Hash == "" && a.Shape == "":
		r.set(Valid, ChangeNone, 1, "no baseline recorded; run lore anchor accept to record one")
	case f.Hash == a.Hash:
		r.set(Valid, ChangeNone, 1, "unchanged")
	case a.Shape != "" && v.fileShape(a, f) == a.Shape:
		r.set(Valid, ChangeReformatted, 1, "only formatting or comments changed")
	default:
		if up, ok := v.upgradedFile(ctx, a); ok && f.Skipped != "binary" && v.stream(f, analyzer.ShapeCanonical).Shape(0, 0) == up {
			r.set(Valid, ChangeReformatted, 1, "only formatting or comments changed")
			return
		}
		r.set(Drifted, ChangeFileChanged, 1, "file changed")
	}
}

func (v *Verifier) verifyGlob(ctx context.Context, a Anchor, r *Result) {
	paths, err := v.files.Paths(ctx)
	if err != nil {
		r.set(Invalid, ChangeNoMatch, 0, "cannot list files: "+err.Error())
		return
	}
	m := matchGlob(a.Glob, paths)
	if len(m) == 0 {
		r.set(Invalid, ChangeNoMatch, 1, "no file matches "+a.Glob)
		return
	}
	r.foundAt(&Location{Path: m[0]}, Anchor{Glob: a.Glob})
	n := strconv.Itoa(len(m)) + " files match"
	if len(m) == 1 {
		n = "1 file matches"
	}
	r.set(Valid, ChangeNone, 1, n)
}
