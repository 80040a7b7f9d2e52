package anchors

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/lorehq/lore/analyzer"
)

// Relocation decides like a careful reviewer of the change: it gathers
// the symbols the anchored one may have become, weighs for each the
// evidence of its body (tokens, or the sketch without history), of the
// diff of the file (lines kept in place), of its name, header, enclosing
// type and file, and follows the best one only when no rival is
// genuinely close. A candidate that another symbol which vanished in the
// same change matches better belongs to that one (a bipartite view of
// the change: renames chained in one commit, siblings renamed together);
// several anchors may follow one symbol only when they were copies of
// each other (a method pulled up from several subclasses).

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
	// kept is the share of the anchored lines that the diff of their file
	// keeps in this symbol (known with history, for the same or the
	// renamed file).
	kept      float64
	keptKnown bool
	test      bool // in test code, the anchor not
	// sameParams: a callable that takes the anchored one's parameters,
	// at least one (Python's self or cls aside).
	sameParams bool
	related    bool   // in a super or subtype of the anchor's type
	claimedBy  string // another vanished symbol this one matches better
	// doubted: the names of siblings renamed together pair this one
	// otherwise than their bodies do (see pairVote).
	doubted bool
	// redirected: the file the anchored symbol left now uses this one's
	// name where it used the old one (see redirected).
	redirected bool
	// called: the change's lines that used the old name now use this
	// one's (see calledInstead).
	called bool
	// wraps: new, its name holds the old one, and it defines a function
	// of the old name inside (see markWrappers).
	wraps bool
	// named: the change names it the anchored symbol beside its body
	// (see toldRenamePyJS).
	named bool
	// rivalScore is how like this one another vanished symbol of the
	// files involved is, at best (-1: not looked at).
	rivalScore float64
	// delegate: a method with the anchored one's header that now calls
	// this one (see markDelegates).
	delegate *candidate
	// mate: Go declares a name once in a package, and this one took the
	// anchored name in another file of its package (see packageMate).
	mate bool
}

// origin is what relocation knows of the anchored symbol as it was.
type origin struct {
	a           Anchor
	name, outer string // its own name and the outer part of its qualified name
	// With history: its file in Base, the symbol there and its tokens.
	file *File
	sym  analyzer.Symbol
	toks []string
	// Without: the anchor's sketch, when it has one.
	want *sketch
	test bool // in test code
	// renamedTo is where its file was renamed to ("" if it was not).
	renamedTo string
	// named counts the symbols of the source with its name (0: not
	// counted): a name only one symbol has says more than a common one.
	named int
	// namedAlike counts those of a compatible kind (functions and
	// methods together).
	namedAlike int
	// successor is a callable new in its file, in its type, that takes
	// the same parameters, scored as a candidate (nil if none; with
	// history only).
	successor *candidate
}

func (o origin) known() bool { return o.toks != nil }

// maxSketchScan bounds how many symbols from the rest of the source are
// compared with an anchor's sketch when relocating it.
const maxSketchScan = 20000

// origin reads what relocation knows of a's symbol: its old text from
// Base when the baseline is found there, else its sketch.
func (v *Verifier) origin(ctx context.Context, a Anchor) origin {
	o := origin{a: a, name: lastName(a.FQName()), outer: outerName(a.FQName()), test: isTestPath(a.Path()), renamedTo: v.renamedTo(ctx, a.Path())}
	if s, bf, ok := v.baseSymbol(ctx, a); ok {
		o.file, o.sym = bf, s
		o.toks = v.symbolTokens(bf, s)
		if f := v.fileOrNil(ctx, a.Path()); f != nil {
			if x, ok := successor(bf, s, f); ok {
				c, _ := v.score(ctx, o, f, x, nil)
				o.successor = &c
			}
		}
		return o
	}
	if sk, ok := parseSketch(a.Sketch); ok {
		o.want = &sk
	}
	return o
}

// originOf is the origin of a symbol of Base file bf that vanished.
func (v *Verifier) originOf(ctx context.Context, bf *File, s analyzer.Symbol) origin {
	_, fq, _ := cutFQ(s.FQName)
	a := symbolAnchor(bf, s, false)
	return origin{a: a, name: s.Name, outer: outerName(fq), file: bf, sym: s, toks: v.symbolTokens(bf, s), test: isTestPath(s.Path),
		renamedTo: v.renamedTo(ctx, s.Path)}
}

// relocateSymbol looks for a symbol anchor whose symbol is no longer in
// its file (f is nil when the file is gone): same name elsewhere (moved),
// same or similar body under another name (renamed), both, or in a
// renamed file. inPlace, when not nil, is a symbol of a's name in its
// file that kept the name but not the code: it is no candidate.
func (v *Verifier) relocateSymbol(ctx context.Context, a Anchor, f *File, r *Result, run *runInfo) {
	o := v.origin(ctx, a)
	cands := v.candidates(ctx, o, f, nil, run)
	v.decide(ctx, a, o, f, cands, r)
}

// renamedAway handles a symbol found under its name whose code is mostly
// elsewhere now (with history only): when renames are chained in one
// change (shutdown became preShutdown, dispose became shutdown), or a
// method was renamed and a new one took its name, the name holds other
// code and the anchored code went to another symbol. It replaces r and
// returns true when that symbol is certain enough; the symbol under the
// name stays the target otherwise. A name whose new code calls the other
// symbol kept its role (a method extracted from it): it stays, unless
// its new code is that of another symbol that vanished (see takenOver:
// the class Distribution extending ScalarDistribution, where its old
// code went, is the old JointDistribution).
func (v *Verifier) renamedAway(ctx context.Context, a Anchor, f *File, sym analyzer.Symbol, r *Result, run *runInfo) (away bool) {
	if v.opts.Base == nil {
		return false
	}
	o := v.origin(ctx, a)
	if !o.known() || emptyBraces(o.toks) {
		// An empty body is no evidence of where code went: an empty
		// struct that gained fields beside a new empty one (hugo
		// 5160c7efa5) stays under its name, drifted.
		return false
	}
	self, ok := v.score(ctx, o, f, sym, run)
	// A declaration left without its body holds none of the code,
	// however like its header makes it to a short method.
	lostBody := v.keepsRole(o.file, o.sym, f, sym) && !v.bodiless(o.file, o.sym)
	here := 0.0
	if ok && !lostBody {
		here = self.likeness()
	}
	// Still itself, unless the name was given to code that vanished
	// elsewhere in the change (see takenOver).
	still := here >= 0.9 || here >= 0.75 && !(self.keptKnown && self.kept < 0.5)
	takers := sync.OnceValue(func() []taker { return v.takers(ctx, f, sym, self.sim) })
	if still && len(takers()) == 0 {
		return false
	}
	cands := v.candidates(ctx, o, f, &sym, run)
	if lostBody {
		// Whichever way it is not followed, say where the code went.
		defer func() {
			if !away {
				v.listCode(a, o, cands, r)
			}
		}()
	}
	best, conf, _ := v.confidence(ctx, a, o, cands)
	if best < 0 || conf < v.opts.Threshold {
		return false
	}
	// The anchored code must be nearly all there, and much more there
	// than under the name; a name that keeps a good part of it, or its
	// signature, and calls the other symbol had code extracted from it,
	// unless that code is the anchored one unchanged (the name kept as a
	// delegate). Its body decides that, not the share of lines the diff
	// moved there. A declaration left without a body calls nothing: the
	// name in it is its own.
	c := cands[best]
	_, cfq, _ := cutFQ(c.sym.FQName)
	if valueKind(o.sym.Kind) && (c.sameName || !slices.Contains(v.symbolTokens(f, sym), c.sym.Name)) {
		// A field or variable whose name its type still declares is that
		// declaration, its type or value edited, unless the name now
		// hands on to another name (vue dfc7c0f12a: `KeepAlive =
		// KeepAliveImpl as any`, its object literal gone to KeepAliveImpl).
		// A one-liner like its old line is no evidence (jsoup 5e386d51f3:
		// StringUtil's stringLocal = new ThreadLocal<>() given an
		// initialValue, and a new encoder = new ThreadLocal<>() in
		// Document; gson ecb9f8c8ad: two classes' `public String s;`
		// lost an annotation a new class's kept; guice 95a2fbbbf4: `Object
		// THE_UNSAFE;` became `Unsafe THE_UNSAFE;` beside a new `Object
		// TRUSTED_LOOKUP_BASE;`).
		return false
	}
	takenBy := v.takenOver(takers, f, sym, o.file, o.sym, self.sim, c.file, c.sym, normalize(v.symbolTokens(c.file, c.sym), c.sym.Name, outerName(cfq)), c.sim)
	if still && takenBy == "" || takenBy == "" && !c.sameName && v.keepsRole(o.file, o.sym, f, sym) {
		return false
	}
	kept := here >= 0.4 || r.Change == ChangeBodyChanged
	extracted := !lostBody && len(o.toks) >= 20 && kept && !c.sameBody && c.sim < 0.95 && slices.Contains(v.symbolTokens(f, sym), c.sym.Name)
	// The diff of the file keeps the old lines in the other symbol, not
	// under the name: the name was given to new code.
	diffSays := c.keptKnown && c.kept >= 0.5 && self.keptKnown && self.kept <= c.kept-0.2 && c.likeness() >= 0.9
	if c.likeness() < 0.85 || takenBy == "" && (c.likeness() < here+0.25 && !diffSays || extracted) {
		return false
	}
	moved := Result{Spec: r.Spec, Confidence: 1, From: r.From}
	v.decide(ctx, a, o, f, cands, &moved)
	if !moved.found {
		return false
	}
	if lostBody {
		moved.Reason += fmt.Sprintf("; %s is now a declaration without its code", a.FQName()+a.Selector())
	} else {
		moved.Reason += fmt.Sprintf("; %s now holds other code (%.0f%% similar)", a.FQName()+a.Selector(), 100*here)
	}
	if takenBy != "" {
		moved.Reason += ", " + takenBy + "'s"
	}
	*r = moved
	return true
}

// likeness is the evidence of a candidate's body: its similarity, raised
// by the share of the old lines the diff of the file keeps in it (a
// symbol moved within its file keeps none, which is no evidence against
// it).
func (c candidate) likeness() float64 {
	if c.sameBody {
		return 1
	}
	if c.keptKnown {
		return min(1, c.sim+0.25*c.kept)
	}
	return c.sim
}

// bodyLikeness is the evidence of a candidate's body alone, without what
// the diff of the file says.
func (c candidate) bodyLikeness() float64 {
	if c.sameBody {
		return 1
	}
	return c.sim
}

// candidates gathers and scores the symbols a's symbol may have become.
func (v *Verifier) candidates(ctx context.Context, o origin, f *File, inPlace *analyzer.Symbol, run *runInfo) []candidate {
	a := o.a
	name := o.name
	renamedTo := o.renamedTo
	seen := map[string]bool{}
	var cands []candidate
	consider := func(s analyzer.Symbol) {
		key := fmt.Sprintf("%s#%d", s.FQName, s.StartLine)
		if seen[key] || s.FQName == a.Name() && s.Path == a.Path() && a.Selector() == "" && inPlace == nil {
			return
		}
		seen[key] = true
		if !kindsCompatible(a.Kind, s.Kind) && !(s.Name == name && remade(a.Kind, s.Kind)) {
			return
		}
		if o.known() && s.Path != renamedTo && v.settled(ctx, s.Path) {
			return // in a file the change did not touch: it was there before
		}
		cf, err := v.files.File(ctx, s.Path)
		if err != nil {
			return
		}
		fresh, ok := freshSymbol(cf, s)
		if !ok || run.excluded(fresh.FQName+"#"+FormatRange(fresh.StartLine, fresh.EndLine)) {
			return
		}
		if inPlace != nil && fresh.Path == inPlace.Path && fresh.StartLine == inPlace.StartLine {
			return
		}
		if o.known() && fresh.Path != renamedTo && v.stillItself(ctx, cf, fresh) {
			return // it was already there, and still is: not where a's symbol went
		}
		if c, ok := v.score(ctx, o, cf, fresh, run); ok && (c.likeness() >= filledLike || !v.filledIn(ctx, cf, fresh)) {
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
			if v.declaredOnly(ctx, o, s) {
				continue
			}
			if s.Kind == a.Kind {
				o.named++
			}
			if kindsCompatible(a.Kind, s.Kind) {
				o.namedAlike++
			}
		}
		for _, s := range named {
			consider(s)
		}
	}
	// 3. another name, same or similar body (renamed): the same file
	// and the renamed one first, then the whole source
	for _, ff := range []*File{f, v.fileOrNil(ctx, renamedTo)} {
		if ff != nil {
			for _, s := range ff.Symbols {
				consider(s)
			}
		}
	}
	// 4. the name the change's uses now call it by, wherever the calls
	// say it went (see calledInstead), whatever its size
	if v.opts.Changed != nil && o.known() && v.opts.Base != nil {
		if to, ok := v.uses(ctx).target(o); ok {
			named, _ := v.files.SymbolsNamed(ctx, to)
			for _, s := range named {
				if cf := v.fileOrNil(ctx, s.Path); cf != nil && v.calledInstead(ctx, o, cf, s) {
					consider(s)
				}
			}
		}
	}
	if !hasSameBody(cands) {
		lines := 0
		if s, e, ok := a.Range(); ok {
			lines = e - s + 1
		}
		// A symbol's lines take in its doc comment, which a move may add
		// or drop: what is compared beside the whole is its code alone.
		code := lines
		if o.known() && lines > 0 {
			code = lines - docLines(o.file.Lang, o.file.Src, o.sym.StartLine, o.sym.EndLine)
		}
		budget := maxSketchScan
		_ = v.files.EachSymbol(ctx, func(s analyzer.Symbol) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			got := s.EndLine - s.StartLine + 1
			fits := sizeCompatible(lines, got, o.known())
			if s.Name == name || !kindsCompatible(a.Kind, s.Kind) || !fits && !mayBeDocumented(code, got, o.known()) {
				return nil
			}
			if o.known() && v.settled(ctx, s.Path) {
				return nil // see consider
			}
			if lines > 0 && lines <= 2 && !o.known() && (o.want == nil || path.Dir(s.Path) != path.Dir(a.Path())) {
				return nil // too small to recognise without history, but next door
			}
			if o.want != nil {
				if budget == 0 {
					return errStopScan
				}
				budget--
			}
			if !fits && !v.codeSizeCompatible(ctx, s, code, o.known()) {
				return nil
			}
			consider(s)
			return nil
		})
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		if cands[i].sameBody != cands[j].sameBody {
			return cands[i].sameBody
		}
		if cands[i].sameName != cands[j].sameName {
			return cands[i].sameName
		}
		return cands[i].sym.Path+cands[i].sym.FQName < cands[j].sym.Path+cands[j].sym.FQName
	})
	v.markClaims(ctx, o, cands)
	v.markPairs(ctx, o, cands)
	v.markRedirects(ctx, o, cands)
	v.markWrappers(ctx, o, cands)
	v.markDelegates(ctx, o, cands)
	return cands
}

func (v *Verifier) fileOrNil(ctx context.Context, p string) *File {
	if p == "" {
		return nil
	}
	f, err := v.files.File(ctx, p)
	if err != nil {
		return nil
	}
	return f
}

// decide turns scored candidates into the result: the best one followed
// when it is certain enough, else candidates.
func (v *Verifier) decide(ctx context.Context, a Anchor, o origin, f *File, cands []candidate, r *Result) {
	fq := a.FQName() + a.Selector()
	renamedTo := o.renamedTo
	gone := f == nil
	if len(cands) == 0 {
		if gone {
			r.set(Invalid, ChangeFileDeleted, 1, a.Path()+" was deleted")
		} else {
			r.set(Invalid, ChangeDeleted, 1, fmt.Sprintf("%s no longer exists in %s%s", fq, a.Path(), syntaxNote(f)))
		}
		v.listSuccessor(a, o, r)
		v.listNamesakes(ctx, a, o, f, r)
		return
	}
	best, conf, doubt := v.confidence(ctx, a, o, cands)
	if best < 0 || conf < v.opts.Threshold {
		shown := listed(cands, 3)
		v.offer(a, shown, renamedTo, r)
		v.listSuccessor(a, o, r)
		if best >= 0 {
			v.listDelegate(a, o, cands[best], r)
		}
		v.listNamesakes(ctx, a, o, f, r)
		what := fmt.Sprintf("%s no longer exists in %s", fq, a.Path())
		ch := ChangeDeleted
		if gone {
			what, ch = a.Path()+" was deleted", ChangeFileDeleted
		}
		// Counted with what the lists above added; the reason for doubt
		// says why the best one's score is not the confidence.
		n := len(cands) + len(r.Candidates) - len(shown)
		why := ""
		if doubt != "" {
			why = ": " + doubt
		}
		r.set(Invalid, ch, conf, fmt.Sprintf("%s; %d possible new location(s), none certain enough to follow%s (confidence %.2f; lore follows from %.2f)", what, n, why, conf, v.opts.Threshold))
		return
	}
	c := cands[best]
	r.foundSymbol(c.file, c.sym, false)
	r.related = c.related
	ch, reason := v.relocationReason(a, c, renamedTo)
	st := Valid
	if !c.sameBody {
		st = Drifted
		v.listRivals(a, cands, best, renamedTo, r)
	}
	r.set(st, ch, conf, reason)
}

// listRivals adds to r, followed to cands[best] with its code changed,
// the candidates close behind it that no other vanished symbol claims
// (nor test code, for a note on production code): the person who
// re-reads the drifted note sees the other places its code may have
// gone, and takes one with anchor accept --to when lore followed the
// wrong one.
func (v *Verifier) listRivals(a Anchor, cands []candidate, best int, renamedTo string, r *Result) {
	var near []candidate
	for i, c := range cands {
		if len(near) == 2 || c.score < cands[best].score-closeGap {
			break // sorted: the rest are further behind
		}
		if i != best && c.claimedBy == "" && !c.test {
			near = append(near, c)
		}
	}
	v.offer(a, near, renamedTo, r)
}

// offer adds cands to the candidates of r, in order.
func (v *Verifier) offer(a Anchor, cands []candidate, renamedTo string, r *Result) {
	for _, c := range cands {
		r.Candidates = append(r.Candidates, Candidate{Location: *symLocation(c.file, c.sym), Confidence: round(c.score), Reason: v.candidateReason(a, c, renamedTo)})
	}
}

// listCode adds to r, the drift of an anchor whose symbol is now a
// declaration without its code (see keepsRole), where that code may
// have gone when it was not followed there: a note may be about the
// contract the declaration keeps or about the code, which only its
// reader knows (lucene-solr c51fee9c1a: DataInput.skipBytes made
// abstract, its code in skipBytesSlowly and in the subclasses).
func (v *Verifier) listCode(a Anchor, o origin, cands []candidate, r *Result) {
	shown := listed(cands, 3)
	if len(shown) == 0 {
		return
	}
	v.offer(a, shown, o.renamedTo, r)
	r.Reason += fmt.Sprintf("; %s is now a declaration without its code, which may have gone to %d place(s)", a.FQName()+a.Selector(), len(shown))
}

// listed returns up to n candidates to offer, best first: those no other
// vanished symbol claims before those it does (where that one went, most
// likely).
func listed(cands []candidate, n int) []candidate {
	var out []candidate
	for _, claimed := range []bool{false, true} {
		for _, c := range cands {
			if len(out) < n && (c.claimedBy != "") == claimed {
				out = append(out, c)
			}
		}
	}
	return out
}

// listSuccessor adds o's successor in place (see successor) to the
// candidates of r when they do not hold it yet, and says so where they
// do: whatever its body, a person may well take it. A name and parameters without the body say
// half as much as a score.
func (v *Verifier) listSuccessor(a Anchor, o origin, r *Result) {
	if o.successor != nil {
		v.listWith(a, o, *o.successor, "; new in its place, with its parameters", r)
	}
}

// listWith adds s to the candidates of r with note, or adds note to its
// reason where they hold it already. Without a score, its likeness
// says half as much.
func (v *Verifier) listWith(a Anchor, o origin, s candidate, note string, r *Result) {
	at := symLocation(s.file, s.sym)
	if i := listedAt(r, at); i >= 0 {
		r.Candidates[i].Reason += note
		return
	}
	conf := s.score
	if conf == 0 {
		conf = s.likeness() / 2
	}
	r.Candidates = append(r.Candidates, Candidate{Location: *at, Confidence: round(conf),
		Reason: v.candidateReason(a, s, o.renamedTo) + note})
}

// closeGap is how far below the best a rival's score must be not to
// count: rivals further behind are no reason to doubt.
const closeGap = 0.2

// confidence picks the candidate to follow (-1: none) and how sure that
// is: its score lowered by the closest genuine rival. Rivals that other
// vanished symbols claim, test code against a production anchor's
// production candidate, and rivals without the same body when the best
// has it do not count; between two copies of the code the file they are
// in decides (git's rename pairing, then the closest path), else nobody
// can tell.
func (v *Verifier) confidence(ctx context.Context, a Anchor, o origin, cands []candidate) (int, float64, string) {
	if len(cands) == 0 {
		return -1, 0, ""
	}
	best := -1
	for i, c := range cands {
		if c.claimedBy == "" {
			best = i
			break
		}
	}
	if best < 0 {
		return -1, round(cands[0].score / 2), "each is where another vanished symbol went, by its code"
	}
	if w, conf, ok := wrapper(o, cands); ok && conf >= v.opts.Threshold {
		return w, conf, ""
	}
	best = ownKeeper(o, cands, best)
	best = nameKeeper(o, cands, best)
	best = mateKeeper(cands, best)
	swapped := ""
	if len(cands) > 1 {
		swapped = v.swappedName(ctx, o) // it only tells candidates apart
	}
	best = swapKeeper(o, cands, best, swapped)
	best = v.arityKeeper(o, cands, best)
	// Copies of the code as good as the best: where they are decides, when
	// one is clearly closer to the anchor's file than the others.
	renamedTo := o.renamedTo
	copiesAt := []int{best}
	for i := 0; i < len(cands); i++ {
		if c := cands[i]; i != best && c.claimedBy == "" && cands[best].score-c.score < 0.02 && copiesOf(cands[best], c) && keepsName(o, c) == keepsName(o, cands[best]) {
			copiesAt = append(copiesAt, i)
		}
	}
	placed := map[int]bool{}
	if len(copiesAt) > 1 {
		// A member that kept its type's name as well as its own went
		// where its type went, whatever copies sit in other types (x/tools
		// 5832cce571: stringSeqs and its methods moved to a test file
		// while linesSeqs, beside the old place, got the same bodies);
		// else where the copies are decides.
		k := typeKeeper(o, cands, copiesAt)
		if k >= 0 && !cands[copiesAt[k]].sameName {
			k = -1
		}
		if cands[best].mate {
			k = 0 // Go's names say which copy is the package's own
		}
		if k < 0 {
			k = v.ownCopy(ctx, o, cands, copiesAt)
		}
		if k < 0 {
			sort.SliceStable(copiesAt, func(x, y int) bool {
				return placeScore(a, cands[copiesAt[x]], renamedTo) > placeScore(a, cands[copiesAt[y]], renamedTo)
			})
			k = 0
			if placeScore(a, cands[copiesAt[0]], renamedTo) <= placeScore(a, cands[copiesAt[1]], renamedTo) {
				k = diffKeeper(o, cands, copiesAt)
				if k < 0 {
					k = v.familyKeeper(o, cands, copiesAt)
				}
				if k < 0 {
					k = v.placeKeeper(ctx, o, cands, copiesAt)
				}
				if k < 0 {
					// nobody can tell
					return best, round(cands[best].score / 2), fmt.Sprintf("%s and %s hold the same code", twoNames(cands[copiesAt[0]], cands[copiesAt[1]])...)
				}
			}
		}
		copiesAt[0], copiesAt[k] = copiesAt[k], copiesAt[0]
		best = copiesAt[0]
		for _, i := range copiesAt[1:] {
			placed[i] = true
		}
	}
	b := cands[best]
	if b.doubted {
		return best, round(b.score / 2), "the names of the siblings renamed with it pair them otherwise than their bodies"
	}
	conf, doubt := b.score, ""
	ownDoubt := false // the doubt is about b itself, not a rival
	// lower sets conf to to, and says why, when that is lower.
	lower := func(to float64, why string, args ...any) bool {
		if to >= conf {
			return false
		}
		conf, doubt = to, fmt.Sprintf(why, args...)
		return true
	}
	// done returns b and conf with what doubt there is: that b is not
	// like enough by itself, and what lowered conf further.
	done := func() (int, float64, string) {
		if conf >= v.opts.Threshold {
			return best, round(conf), ""
		}
		why := doubt
		if b.score < v.opts.Threshold && !ownDoubt {
			why = fmt.Sprintf("the best, %s, is not like the old code enough", shortName(b))
			if doubt != "" {
				why += ", and " + doubt
			}
		}
		return best, round(conf), why
	}
	for i, c := range cands {
		if i == best || placed[i] {
			continue
		}
		if hierarchyDisagrees(o, b, c) {
			lower(b.score/2, "%s has more of the code, %s is up or down the old type's hierarchy", twoNames(b, c)...)
			continue
		}
		if c.claimedBy != "" {
			continue
		}
		if b.sameBody && !c.sameBody && !relatedCopy(o, b, c) || c.test && !b.test || b.related && !c.related {
			continue
		}
		if b.mate && !c.mate && !c.sameBody {
			continue // another declaration, by Go's names, and not the same code either
		}
		if ownPlace(o, b) && !ownPlace(o, c) && c.sameName && b.likeness() >= c.likeness()-0.05 {
			continue // a namesake about as like, in another type: b is where its file and its type went
		}
		if b.called && !c.called && !v.keptCode(o, b, c) {
			continue // the change's uses of the name say where it went
		}
		if overridesBest(o, b, c) {
			continue // b's implementation, not where the anchor went
		}
		if v.overloadsByArity(o, b, c) {
			continue // its sibling overload, the parameters tell
		}
		if pairedOnly(o, b, c) {
			// A copy as like but for git's pairing of files: nobody can
			// tell, whatever the names say.
			lower(b.score/2, "%s is as like; only git's pairing of files puts %s ahead", twoNames(c, b)...)
			continue
		}
		if namesakeOfOwn(o, b, c) {
			continue // the same method written in another type too
		}
		if stayed(o, b) && c.sym.Path != b.sym.Path && b.likeness() >= c.likeness()-0.02 && similarity(v.symbolTokens(b.file, b.sym), v.symbolTokens(c.file, c.sym)) >= 0.95 {
			continue // renamed where it stood, a copy of its new code elsewhere: see stayed
		}
		if placeAndNameDisagree(o, b, c) {
			lower(b.score/2, "%s and %s hold the same code: one has the old name, the other the old place", twoNames(b, c)...)
			continue
		}
		if b.sameName && !c.sameName && b.likeness() >= c.likeness()-0.02 {
			continue // as like, and it kept the name
		}
		if keepsName(o, b) && !keepsName(o, c) && b.likeness() >= 0.85 && b.likeness() >= c.likeness()-0.05 {
			continue // about as like, and it kept the old name whole
		}
		if swapNamed(o, b, swapped) && !swapNamed(o, c, swapped) && b.likeness() >= swapLike && b.likeness() >= c.likeness()-0.05 {
			continue // about as like, and named as the change renamed its siblings
		}
		if b.keptKnown && b.kept >= 0.6 && b.likeness() >= 0.9 && !c.keptKnown {
			continue // the diff of the file shows the code stayed in the best
		}
		if b.likeness() >= 0.9 && diffKeeps(o, b, c) && c.bodyLikeness() <= b.bodyLikeness()+copyAhead {
			continue // a near copy beside it: the diff tells (see diffKeeps)
		}
		if allAhead(o, b, c) {
			continue // ahead by its body, its name and its parameters alike
		}
		if liftedByDiff(b, c) {
			continue // close only by the diff's pairing of lines: see liftedByDiff
		}
		if b.keptKnown && b.kept <= 0.5 && !c.keptKnown && !b.sameBody && !b.named && c.bodyLikeness() >= b.bodyLikeness() {
			// Git pairs files, not symbols: when the diff keeps no more
			// than half of the old lines in the best and the rival is at
			// least as like by its body, only that pairing puts the best
			// ahead. A file split in several (checkstyle's Switch1 became
			// BreakOutside, AllowedInSwitchCase and NotAllowedInSwitchCase)
			// reads this way: nobody can tell which part the anchor was
			// about.
			lower(b.score/2, "%s is as like by its code; only git's pairing of lines puts %s ahead", twoNames(c, b)...)
			continue
		}
		if split(o, b, c) {
			lower(b.score/2, "the code was split between %s and %s", twoNames(b, c)...)
			continue
		}
		gap := b.score - c.score
		if gap >= closeGap {
			break // sorted: the rest are further behind
		}
		n := twoNames(c, b)
		lower(b.score*(1-0.5*math.Pow(1-max(gap, 0)/closeGap, 2)), "%s (%.2f) is nearly as like as %s (%.2f)", n[0], c.score, n[1], b.score)
	}
	if !b.sameName && b.sym.Path != a.Path() && b.sym.Path != renamedTo && len(v.symbolTokens(b.file, b.sym)) < emptyBody {
		// A declaration with next to no body under another name in
		// another file (a trampoline, an empty function): countless look
		// alike; a candidate at most, whatever else points there.
		ownDoubt = lower(b.score/2, "%s has next to no body, under another name in another file: many look alike", shortName(b))
		return done()
	}
	if toks := v.symbolTokens(b.file, b.sym); tinyValueElsewhere(a, o, b, toks) || tinyValueMoved(a, o, b, toks) && !v.movedTogether(ctx, a, o, b) || tinyMovedRenamed(a, o, b, toks) || emptyFilled(a, o, b, toks) {
		ownDoubt = lower(b.score/2, "%s is too small to tell by its code: many look alike", shortName(b))
		return done()
	}
	if conf < v.opts.Threshold && b.redirected && b.likeness() >= redirectedLike(b) {
		// The uses of the old name turned into uses of this one, or the
		// file it left imports it from there: the change says where the
		// symbol went, the body need only agree.
		conf = max(conf, toldConfidence(b.likeness(), redirectedLike(b)))
	}
	if conf < v.opts.Threshold && v.soleMatch(ctx, a, o, cands, best, renamedTo) {
		// Renamed and much edited, in its own file: the one symbol that
		// appeared there like it, and the one that vanished like that
		// symbol. A reviewer reads the change this way.
		conf = max(conf, toldConfidence(b.likeness(), 0.6))
	}
	if b.delegate != nil {
		ownDoubt = lower(b.score/2, "the code went to %s, the old header to %s", twoNames(b, *b.delegate)...)
		return done()
	}
	if v.headerOnly(ctx, a, o, b) {
		ownDoubt = lower(b.score/2, "%s, in another type, is like the old code by its header only", shortName(b))
		return done()
	}
	if conf >= v.opts.Threshold {
		if into := v.absorbedBy(o, b); into != "" {
			ownDoubt = lower(b.score/2, "it was inlined into %s, not renamed", into)
			return done()
		}
	}
	return done()
}

// typeKeeper returns the index into at of the only copy in a type of
// the anchored member's type name; -1 when there is none, or several.
func typeKeeper(o origin, cands []candidate, at []int) int {
	if o.outer == "" {
		return -1
	}
	found := -1
	for k, i := range at {
		_, cfq, _ := cutFQ(cands[i].sym.FQName)
		if lastName(outerName(cfq)) == lastName(o.outer) {
			if found >= 0 {
				return -1
			}
			found = k
		}
	}
	return found
}

// shortName names c's symbol as a verdict does, without its path.
func shortName(c candidate) string {
	_, fq, _ := cutFQ(specOf(c.file, c.sym, false))
	return fq
}

// twoNames names x and y as shortName does, with their paths when that
// does not tell them apart: the arguments of a message naming both.
func twoNames(x, y candidate) []any {
	if xn, yn := shortName(x), shortName(y); xn != yn {
		return []any{xn, yn}
	}
	return []any{specOf(x.file, x.sym, false), specOf(y.file, y.sym, false)}
}

// declaredOnly reports whether s, a namesake of o's symbol in a file the
// change touched, is a declaration without a body where o's symbol had
// one (a Kotlin constructor's val classSimpleName: String beside the
// property computed under that name): it cannot hold o's code, and does
// not make o's name a common one.
func (v *Verifier) declaredOnly(ctx context.Context, o origin, s analyzer.Symbol) bool {
	if !o.known() || bodiless(o.sym) || v.settled(ctx, s.Path) {
		return false
	}
	cf, err := v.files.File(ctx, s.Path)
	if err != nil {
		return false
	}
	fresh, ok := freshSymbol(cf, s)
	return ok && bodiless(fresh)
}

// bodiless reports whether s, as Parse gives it, is a declaration without
// a body: an abstract method, an interface's, a property declared with
// its type alone (a Kotlin constructor's val). Its fingerprint is its
// header's.
func bodiless(s analyzer.Symbol) bool {
	return s.Sig != "" && s.Sig == s.Shape
}

// placeAndNameDisagree reports whether b and rival c hold o's code
// unchanged, one under o's name in another file, the other renamed in
// o's file (or the file git paired with it): the name says one place,
// the file the other, and nobody can tell (architecture-samples
// f01fcad419: FakeDataSource.getTasks became loadTasks as the file
// became FakeNetworkDataSource, while the new FakeTasksDao got a getTasks
// of the same code).
func placeAndNameDisagree(o origin, b, c candidate) bool {
	home := func(x candidate) bool { return x.sym.Path == o.a.Path() || x.sym.Path == o.renamedTo }
	return b.sameBody && c.sameBody && b.sameName != c.sameName && home(b) != home(c) && home(b) != b.sameName
}

// keptCode reports whether rival c, in b's file, holds o's code as it
// was from its name on (parameters and body; annotations, modifiers and
// the return type aside) while b does not: the calls went one way, the
// code the other. orientdb f50f234b24: OWOWCache.getAllocatedPages()
// became getExclusiveWriteCachePagesSize() with its interface and its
// callers, returning another counter, while getWriteCacheSize(), new
// beside it, returns the old one. The anchor may be about either.
func (v *Verifier) keptCode(o origin, b, c candidate) bool {
	if !o.known() || c.sym.Path != b.sym.Path {
		return false
	}
	old := afterName(o.toks, o.name)
	holds := func(x candidate) bool {
		now := afterName(v.symbolTokens(x.file, x.sym), x.sym.Name)
		return old != nil && slices.Equal(substitute(now, map[string]string{x.sym.Name: o.name}), old)
	}
	return holds(c) && !holds(b)
}

// afterName returns the tokens of a callable after its name: its
// parameters and body (nil when the name is not among them).
func afterName(toks []string, name string) []string {
	if i := slices.Index(toks, name); i >= 0 {
		return toks[i+1:]
	}
	return nil
}

// overridesBest reports whether rival c implements or overrides b: a
// method of b's name and parameter count, no more like o's old code, in a
// type that extends or implements b's, where b is in o's own type. A
// method renamed in an interface is implemented under its new name, yet
// the implementation is not where the declaration went (BuildCraft
// a5cdd8c4b1: IRequestProvider.provideItemsForRequest became offerItem,
// which DockingStationPipe implements).
func overridesBest(o origin, b, c candidate) bool {
	if c.sym.Name != b.sym.Name || !callableKind(c.sym.Kind) || b.sym.Path != o.sym.Path && b.sym.Path != o.renamedTo {
		return false
	}
	_, cfq, _ := cutFQ(c.sym.FQName)
	if !ownType(o, b) || c.bodyLikeness() > b.bodyLikeness() || !sameArity(b.file, b.sym, c.file, c.sym) {
		return false
	}
	return supertypes(c.file, c.sym.Path+"::"+outerName(cfq))[lastName(o.outer)] && refersTo(c.file, lastName(o.outer), b.sym.Path)
}

// toldConfidence is the confidence of a candidate the change itself
// points to, its body at least from alike: just over the default
// threshold, rising with likeness to 1.
// redirectedLike is how like a redirected candidate must be: under the
// anchored name, its name says as much as its body.
func redirectedLike(c candidate) float64 {
	if c.sameName {
		return 0.3
	}
	return 0.5
}

func toldConfidence(like, from float64) float64 {
	return 0.81 + 0.19*(like-from)/(1-from)
}

// ownPlace reports a candidate in the file git says the anchored
// symbol's file became, under the anchored qualified name: the symbol
// itself, as it would be verified in place had the file kept its name.
func ownPlace(o origin, c candidate) bool {
	return o.renamedTo != "" && c.sym.Path == o.renamedTo && c.sameName && sameOuter(o, c)
}

// ownKeeper returns the one candidate in its own place (see ownPlace)
// when the best is a namesake and it is about as like: three classes of
// a renamed file with one __repr__ each, all rewritten alike, are told
// apart by their types (click 7239794a61), not by the diff's pairing of
// their lines. A copy under another name stays a rival.
func ownKeeper(o origin, cands []candidate, best int) int {
	if !cands[best].sameName {
		return best
	}
	own := -1
	for i, c := range cands {
		if c.claimedBy == "" && ownPlace(o, c) && c.score >= cands[best].score-0.05 {
			if own >= 0 {
				return best // overloads: the name cannot tell them apart
			}
			own = i
		}
	}
	if own < 0 {
		return best
	}
	return own
}

// nameKeeper returns the candidate to weigh first: cands[best], unless
// it renamed the anchored symbol to a name without the old one while a
// single other candidate about as like, in the same type, keeps the old
// name whole (fooInLegacyMode for foo). A test split into a renamed one
// and a near copy beside it reads this way to a reviewer: the one that
// kept the name is the old test, the other is new. A best under the old
// name itself is kept: the name says no more than that.
func nameKeeper(o origin, cands []candidate, best int) int {
	b := cands[best]
	if b.sameName || keepsName(o, b) {
		return best
	}
	keeper := -1
	for i, c := range cands {
		if i == best || c.claimedBy != "" || !keepsName(o, c) || c.likeness() < 0.85 || c.score < b.score-0.05 {
			continue
		}
		if keeper >= 0 {
			return best // two keep it: the name cannot tell them apart
		}
		keeper = i
	}
	if keeper < 0 {
		return best
	}
	return keeper
}

// mateKeeper returns the one Go package mate among cands (see
// packageMate) when it is about as like as the best: a generated file
// regenerated under a new name holds every message type's Reset, alike
// but for the type's name, and the package's names tell which is which.
func mateKeeper(cands []candidate, best int) int {
	mate := -1
	for i, c := range cands {
		if !c.mate || c.claimedBy != "" {
			continue
		}
		if mate >= 0 {
			return best
		}
		mate = i
	}
	if mate < 0 || cands[mate].score < cands[best].score-0.05 {
		return best
	}
	return mate
}

// pyVisibility reports two Python names that differ only in the leading
// underscores that mark a name private by convention (_get_hash,
// get_hash, __get_hash); special names (__init__) are what they are.
func pyVisibility(lang, a, b string) bool {
	if lang != "python" || a == b || strings.HasSuffix(a, "__") || strings.HasSuffix(b, "__") {
		return false
	}
	a, b = strings.TrimLeft(a, "_"), strings.TrimLeft(b, "_")
	return a != "" && a == b
}

// keepsName reports a candidate renamed in the anchored symbol's own type
// (and file, or the file it was renamed to) to a name that holds the old
// one whole, words in order, and adds to it: runTests → runTestsInOrder,
// parse → strictParse. The old name must say something (see distinctive).
func keepsName(o origin, c candidate) bool {
	if c.sameName || !distinctive(o.name) || c.sym.Path != o.a.Path() && c.sym.Path != o.renamedTo {
		return false
	}
	return sameOuter(o, c) && holdsWords(o.name, c.sym.Name)
}

// holdsWords reports whether name now holds name old whole, its words in
// order, and adds to it.
func holdsWords(old, now string) bool {
	ow, nw := words(old), words(now)
	for i := 0; i+len(ow) <= len(nw) && len(nw) > len(ow); i++ {
		if slices.Equal(nw[i:i+len(ow)], ow) {
			return true
		}
	}
	return false
}

// tinyBody is the fewest tokens (header included) under which a symbol's
// likeness to another is mostly syntax: func, braces, return.
const tinyBody = 12

// emptyBody is the fewest tokens of a function with a body: fewer is a
// bare declaration (func f(), an assembly trampoline).
const emptyBody = 6

// smallBody is the fewest tokens (header included) of a body that says
// more than its syntax: a one-line setter has fewer.
const smallBody = 20

// tinyMovedRenamed reports a tiny callable (see tinyPair) followed, its
// body edited, into another file under a name unlike the old one: its
// likeness is its syntax, return and a field (optaplanner ec5d139337:
// the getter getSucceeded read as another class's new
// getWriteOutputSolutionEnabled, 90% alike). A name that keeps the old
// one, or the same body, says more.
func tinyMovedRenamed(a Anchor, o origin, b candidate, toks []string) bool {
	if b.sameName || b.sameBody || !o.known() || !callableKind(b.sym.Kind) || b.sym.Path == a.Path() || b.sym.Path == o.renamedTo {
		return false
	}
	return tinyPair(o, toks) && !holdsWords(o.name, b.sym.Name) && nameSimilarity(o.name, b.sym.Name) < 0.5
}

// emptyFilled reports a callable whose body was empty (a hook, an
// override that does nothing) followed into another file to one with
// code: an empty body leaves nothing for another to keep, its likeness
// is its header's (leakcanary dc5ec42e72: DefaultOnRetainInstanceListener's
// empty onReset, renamed onChange in place as its interface's was, and
// the new TvOnRetainInstanceListener's private onReset, which resets a
// count); a candidate at most.
func emptyFilled(a Anchor, o origin, b candidate, toks []string) bool {
	if !o.known() || b.sameBody || !callableKind(b.sym.Kind) || b.sym.Path == a.Path() || b.sym.Path == o.renamedTo {
		return false
	}
	return emptyBraces(o.toks) && !emptyBraces(toks)
}

// emptyBraces reports tokens of a declaration whose body is an empty
// block: its one opening brace is followed by its closing one.
func emptyBraces(toks []string) bool {
	n := len(toks)
	return n >= 2 && toks[n-1] == "}" && slices.Index(toks, "{") == n-2
}

// smallPair reports whether o's symbol (when its old text is known) or a
// candidate of tokens toks is small (see smallBody).
func smallPair(o origin, toks []string) bool {
	return len(toks) < smallBody || o.known() && len(o.toks) < smallBody
}

// tinyPair reports whether o's symbol (when its old text is known) or a
// candidate of tokens toks is tiny.
func tinyPair(o origin, toks []string) bool {
	return len(toks) < tinyBody || o.known() && len(o.toks) < tinyBody
}

// tinyValueMoved reports a field, variable or constant of a few tokens
// followed under its own name into another file (not the one its file
// was renamed to), its declaration edited: declarations of a common name
// look alike once their values are set aside (leakcanary 297fa59817:
// HprofReader's var position = startPosition, gone, and an object's var
// position = 0L in another file); a candidate at most.
func tinyValueMoved(a Anchor, o origin, b candidate, toks []string) bool {
	switch {
	case !b.sameName || b.sameBody:
		return false
	case !valueKind(b.sym.Kind):
		return false
	case b.sym.Path == a.Path() || b.sym.Path == o.renamedTo:
		return false
	}
	return tinyPair(o, toks)
}

// movedTogether reports whether candidate b, under o's name in another
// type, came with at least two more members of o's type, each gone from
// it (the file o's symbol left is still there) and new in b's type under
// its own name: a block of constants moved from Gson to GsonBuilder (gson
// 8526dbd2f0). One declaration of a common name may turn up anywhere; a
// type's members leaving it for one other type together do not.
func (v *Verifier) movedTogether(ctx context.Context, a Anchor, o origin, b candidate) bool {
	now := v.fileOrNil(ctx, a.Path())
	if !o.known() || now == nil {
		return false
	}
	_, local, _ := cutFQ(o.sym.FQName)
	from := outerName(local)
	_, blocal, _ := cutFQ(b.sym.FQName)
	to := outerName(blocal)
	if from == "" || to == "" || b.file.Path == a.Path() {
		return false
	}
	kept := map[string]bool{} // the names the file it left declares now
	for _, s := range now.Symbols {
		kept[s.FQName] = true
	}
	in := map[string][]analyzer.Symbol{} // b's type's members, by name
	for _, s := range b.file.Symbols {
		if _, sl, _ := cutFQ(s.FQName); outerName(sl) == to {
			in[s.Name] = append(in[s.Name], s)
		}
	}
	n := 0
	for _, s := range o.file.Symbols {
		_, sl, _ := cutFQ(s.FQName)
		if outerName(sl) != from || s.Name == o.sym.Name || kept[now.Path+"::"+sl] {
			continue
		}
		if slices.ContainsFunc(in[s.Name], func(t analyzer.Symbol) bool { return !v.hadName(ctx, b.file, t) }) {
			if n++; n >= 2 {
				return true
			}
		}
	}
	return false
}

// valueKind reports the kinds that hold a value: fields, variables,
// constants.
func valueKind(k string) bool {
	return k == analyzer.KindField || k == analyzer.KindVariable || k == analyzer.KindConstant
}

// soleMatch reports whether cands[best] and the anchored symbol are each
// other's only match (with history): a renamed symbol like enough, with
// no other candidate close and no other vanished symbol of the files
// matching it; in another file than the anchor's (or its renamed
// successor) a larger body, more alike, and a related name.
func (v *Verifier) soleMatch(ctx context.Context, a Anchor, o origin, cands []candidate, best int, renamedTo string) bool {
	b := cands[best]
	if b.sameName || b.rivalScore < 0 || b.rivalScore >= 0.5 || b.likeness() < 0.6 {
		return false
	}
	if toks := v.symbolTokens(b.file, b.sym); !keepsName(o, b) && (tinyPair(o, toks) || smallPair(o, toks) && !likeNamed(o, b)) {
		// In a tiny body the syntax alone is most of the likeness:
		// Check(token) { return token != "" } is no more Other() {
		// return true } for being the only one. A name that keeps the
		// old one whole in its type says what the body cannot
		// (getLoadingBinder became getLoadingBinderRef). In a small one
		// a name like the old one must say it: setTimeout(int) gone and
		// setEncoding(String) new, each storing its own field, are no
		// rename to a reviewer.
		return false
	}
	if b.sym.Path != a.Path() && b.sym.Path != renamedTo {
		// Moved and renamed: more of the body, and a related name, and
		// no successor left in its place.
		if b.likeness() < 0.65 || o.successor != nil || !v.farRenameTold(o, b) {
			return false
		}
	}
	for i, c := range cands {
		if i != best && c.claimedBy == "" && c.score >= b.score-0.2 && !namesakeOfOwn(o, b, c) {
			return false
		}
	}
	return !v.newcomerAsLike(ctx, o, b)
}

// newcomerAsLike reports whether another callable new in b's type of
// b's file, candidate or not, is about as like o's old code by its body
// as b is (0.2 behind at most): a rewritten test beside a new one that
// holds the old assertions among more of its own (seyren 5fb36a321a:
// subjectIsCorrect became a longer bodyContainsItemsFromModel, beside a new
// subjectTemplateLocationShouldBeConfigurable a little more alike by
// its few tokens). Under the candidates' floor such a symbol scores
// nothing, yet b is no sole match beside it. A helper b calls is
// written for it, no rival; nor is a symbol another vanished method of
// the type is clearly more like (its own rename, see onlyPair).
func (v *Verifier) newcomerAsLike(ctx context.Context, o origin, b candidate) bool {
	if !callableKind(o.sym.Kind) || !sameOuter(o, b) {
		return false
	}
	news, olds := v.typeChanges(ctx, o, b.file, b.sym)
	old := normalize(o.toks, o.name, o.outer)
	for _, x := range news {
		if like := similarity(old, x); like >= b.bodyLikeness()-0.2 && !pairedElsewhere(x, like, olds) {
			return true
		}
	}
	return false
}

// farRenameTold reports whether a symbol moved and renamed to b says
// enough of itself: a larger body on both sides and a related name, or
// what a Java type says instead (see javaTypeRenameTold).
func (v *Verifier) farRenameTold(o origin, b candidate) bool {
	n, m := len(o.toks), len(v.symbolTokens(b.file, b.sym))
	if n >= 40 && m >= 40 && nameSimilarity(o.name, b.sym.Name) >= 0.3 {
		return true
	}
	return javaTypeRenameTold(o, b, n, m)
}

// successor returns a callable of f (the file of bs now) that is new in
// it, in the type that held bs (of Base file bf), and takes the same
// parameters, at least two besides Python's self or cls: a renamed
// successor left in place (specialized_doctest became custom_doctest,
// which hands the work to a function elsewhere). Its body may be
// another's, but a reviewer would not say the anchored code went
// elsewhere without looking.
func successor(bf *File, bs analyzer.Symbol, f *File) (analyzer.Symbol, bool) {
	if !callableKind(bs.Kind) {
		return analyzer.Symbol{}, false
	}
	ps, ok := params(bf, bs)
	if !ok {
		return analyzer.Symbol{}, false
	}
	n := 0
	for _, p := range ps {
		if !(bf.Lang == "python" && (p == "self" || p == "cls")) {
			n++
		}
	}
	if n < 2 {
		return analyzer.Symbol{}, false // one parameter is shared by too many
	}
	_, fq, _ := cutFQ(bs.FQName)
	outer, sel := outerName(fq), selectorOf(bf, bs)
	for _, x := range f.Symbols {
		_, xfq, _ := cutFQ(x.FQName)
		if x.Name != bs.Name && callableKind(x.Kind) && outerName(xfq) == outer && len(sameNamed(bf, x.FQName)) == 0 && selectorOf(f, x) == sel {
			return x, true
		}
	}
	return analyzer.Symbol{}, false
}

// heirOf reports whether c is the successor of Base symbol d of bf (see
// successor): new in d's place, in d's type, with d's parameters.
func heirOf(bf *File, d analyzer.Symbol, c candidate) bool {
	x, ok := successor(bf, d, c.file)
	return ok && x.StartLine == c.sym.StartLine
}

// copiesOf reports two candidates that are both the anchored code, or
// both nearly so: only where they are can tell them apart.
func copiesOf(b, c candidate) bool {
	return b.sameName == c.sameName && (b.sameBody && c.sameBody || b.sim >= 0.95 && c.sim >= 0.95 && math.Abs(b.sim-c.sim) <= 0.01)
}

// allAhead reports whether b is ahead of rival c by each thing a
// reviewer weighs, not by its score alone: its body is like enough and
// at least as like, its name at least as near the old one, and it takes
// the old parameters while c does not (hibernate-search 8c37bc87c1:
// allIndexedForSuperType(PojoRawTypeIdentifier) became
// indexedForSuperType(PojoRawTypeIdentifier), 88% alike, while
// indexedForSuperTypes(Collection), 78% alike, was added beside it). A
// rival behind on every count is not genuinely close.
func allAhead(o origin, b, c candidate) bool {
	if !b.sameParams || c.sameParams || b.likeness() < 0.85 || b.bodyLikeness() < c.bodyLikeness() || b.sym.Kind != c.sym.Kind {
		return false
	}
	return nameSimilarity(o.name, b.sym.Name) >= nameSimilarity(o.name, c.sym.Name)
}

// liftedByDiff reports whether rival c comes close to b only by the
// diff of the file, which pairs lines by their place: by their bodies
// alone b is like the old code and c far less so (texar 7a1e0f8b95:
// ForwardRNNEncoder became UnidirectionalRNNEncoder, 81% alike, and the
// new BidirectionalRNNEncoder beside it, 58% alike, took the place of
// its lines in the diff).
func liftedByDiff(b, c candidate) bool {
	return c.keptKnown && (!b.keptKnown || b.kept < c.kept) && b.sym.Kind == c.sym.Kind &&
		b.bodyLikeness() >= 0.8 && c.bodyLikeness() <= b.bodyLikeness()-bodyAhead
}

// bodyAhead is how much more like the old code a candidate's body must
// be than a rival's for the diff's pairing not to count (see
// liftedByDiff).
const bodyAhead = 0.2

// diffKeeps reports whether the diff of the anchored symbol's file keeps
// most of its old lines in b and next to none in c, both in that file: a
// near copy added beside the renamed one (a test split in two:
// target_byClass_invalidClass became target_byClass_invalidClass_noEntitySubType
// in its place and target_byClass_invalidClass_noIndexedSubtype, the same
// test for another class, took the place of a deleted test below it;
// hibernate-search 8c37bc87c1). Their bodies cannot tell them apart; the
// diff can, as a reviewer reads it, unless the name of c is clearly the
// nearer to the old one: the diff pairs lines by their place, and
// siblings renamed together may each take the other's (expectErrorUses…
// became assertErrorUses… where expectErrorSupplies… was).
func diffKeeps(o origin, b, c candidate) bool {
	return b.keptKnown && b.kept >= 0.6 && c.keptKnown && c.kept <= 0.1 &&
		nameSimilarity(o.name, c.sym.Name) < nameSimilarity(o.name, b.sym.Name)+swapGain
}

// diffKeeper returns the index into at of the one copy the diff keeps
// the old lines in, none in the others (see diffKeeps); -1 when none.
// placeKeeper returns the index (into at) of the copy a reviewer puts
// where the anchored symbol was, when the copies are otherwise equal:
// the only one in a type of the anchored one's type name, or else the
// only one whose directory keeps the most of the trailing directory
// names of the anchor's (spring-data-neo4j 071588a418 moved two equal
// Genre classes, integration/movies/domain's to examples/movies/domain
// and integration/web/domain's to web/domain, and git, pairing equal
// files by chance, paired them crosswise). The directories tell only
// when every copy is in the anchor's file or one a file of Base was
// renamed to (with history): a symbol copied to two places has no single
// new home (lucene-solr 4d7b2aebfe:
// IndexedDISI moved to backward_codecs/lucene80 and was copied to
// lucene90). -1 when nothing tells.
func (v *Verifier) placeKeeper(ctx context.Context, o origin, cands []candidate, at []int) int {
	if k := typeKeeper(o, cands, at); k >= 0 {
		return k
	}
	from := v.movesOf(ctx).from
	for _, i := range at {
		if p := cands[i].sym.Path; p != o.a.Path() && from[p] == "" {
			return -1
		}
	}
	dir := strings.Split(path.Dir(o.a.Path()), "/")
	best, bestN, tie := -1, 0, false
	for k, i := range at {
		n := commonTail(dir, strings.Split(path.Dir(cands[i].sym.Path), "/"))
		switch {
		case n > bestN:
			best, bestN, tie = k, n, false
		case n == bestN:
			tie = true
		}
	}
	if tie || bestN == 0 {
		return -1
	}
	return best
}

// commonTail counts the trailing elements a and b share.
func commonTail(a, b []string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

func diffKeeper(o origin, cands []candidate, at []int) int {
	for k, i := range at {
		all := true
		for _, j := range at {
			if j != i && !diffKeeps(o, cands[i], cands[j]) {
				all = false
				break
			}
		}
		if all {
			return k
		}
	}
	return -1
}

// familyKeeper returns the index into at of the one copy whose overloads
// are clearly the anchored method's, -1 when none is: copies of a
// wrapper overload (return digest(input, 0, input.length), its own name
// read as any other) tell apart only by the family they went with.
// bitcoinj a6601066dd moved Utils.singleDigest and doubleDigest, each a
// wrapper and its full form, to Sha256Hash as calcHashBytes and
// calcDoubleHashBytes: the wrappers are the same code, their full forms
// are not.
func (v *Verifier) familyKeeper(o origin, cands []candidate, at []int) int {
	if !o.known() || !callableKind(o.sym.Kind) {
		return -1
	}
	siblings := func(f *File, s analyzer.Symbol) [][]string {
		var out [][]string
		for _, x := range sameNamed(f, s.FQName) {
			if x.StartLine != s.StartLine {
				_, xfq, _ := cutFQ(x.FQName)
				out = append(out, normalize(v.symbolTokens(f, x), x.Name, outerName(xfq)))
			}
		}
		return out
	}
	old := siblings(o.file, o.sym)
	if len(old) == 0 {
		return -1
	}
	best, top, second := -1, -1.0, -1.0
	for k, i := range at {
		mine := siblings(cands[i].file, cands[i].sym)
		if len(mine) == 0 {
			return -1
		}
		sum := 0.0
		for _, x := range old {
			m := 0.0
			for _, y := range mine {
				m = max(m, similarity(x, y))
			}
			sum += m
		}
		switch like := sum / float64(len(old)); {
		case like > top:
			best, top, second = k, like, top
		case like > second:
			second = like
		}
	}
	if top < 0.8 || top-second < swapGain {
		return -1
	}
	return best
}

// ownCopy returns the index into copiesAt of the one copy in its own
// place (see ownPlace) when every other copy is in a file that is no
// copy of the anchor's file (not half of its lines): a value written
// again in another module (zod 85928549a7 renamed a test module and wrote
// one of its one-line values again in a new one) is no rival to the
// file's own place, while a file both moved and copied in one change
// (ties-pull-up) has two homes, whichever git pairs. -1 when there is
// none, or without history.
func (v *Verifier) ownCopy(ctx context.Context, o origin, cands []candidate, copiesAt []int) int {
	own := -1
	for k, i := range copiesAt {
		if ownPlace(o, cands[i]) {
			if own >= 0 {
				return -1
			}
			own = k
		}
	}
	if own < 0 || v.opts.Base == nil {
		return -1
	}
	old, ok := v.baseLines(ctx, o.a.Path())
	if !ok {
		return -1
	}
	for k, i := range copiesAt {
		if k != own && commonLines(old, lineCounts(cands[i].file.Src)) >= minRenameSimilarity {
			return -1
		}
	}
	return own
}

// placeScore rates where a copy of the anchored code is: in the anchor's
// own file, or in a type its type extends or that extends it. Copies
// elsewhere are as good as each other (a file copied to two places in
// one change: nobody can tell which one the anchor should follow).
func placeScore(a Anchor, c candidate, renamedTo string) int {
	switch {
	case c.sym.Path == a.Path():
		return 2
	case c.related:
		return 1
	}
	return 0
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
	fq := a.FQName() + a.Selector()
	s := c.sym
	nfq := shortName(c)
	body := "body unchanged"
	switch {
	case c.header:
		body = "same header and length, body changed"
	case !c.sameBody && c.sketched:
		body = fmt.Sprintf("body changed (about %.0f%% similar to the baseline's sketch)", 100*c.sim)
	case !c.sameBody && c.simKnown && c.keptKnown && c.kept >= 0.5:
		body = fmt.Sprintf("body changed (%.0f%% similar, %.0f%% of its lines kept there)", 100*c.sim, 100*c.kept)
	case !c.sameBody && c.simKnown:
		body = fmt.Sprintf("body changed (%.0f%% similar)", 100*c.sim)
	case !c.sameBody:
		body = "body changed"
	}
	if c.claimedBy != "" {
		body += "; it matches " + c.claimedBy + " better"
	}
	if c.doubted {
		body += "; the names of the siblings renamed with it pair them otherwise than their bodies"
	}
	samePath := s.Path == a.Path()
	sameName := s.Name == lastName(a.FQName())
	switch {
	case samePath && s.FQName == a.Name():
		// The same overload, its parameters changed: no move at all.
		return ChangeSignatureChanged, fmt.Sprintf("signature changed: now %s, %s", nfq, body)
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

// score rates symbol s (in file cf) as the new place of o's symbol.
func (v *Verifier) score(ctx context.Context, o origin, cf *File, s analyzer.Symbol, run *runInfo) (candidate, bool) {
	a := o.a
	name, outer := o.name, o.outer
	c := candidate{sym: s, file: cf, test: isTestPath(s.Path) && !o.test, rivalScore: -1}
	sameName := s.Name == name
	c.sameName = sameName
	sOuter := outerName(func() string { _, q, _ := cutFQ(s.FQName); return q }())
	// The same enclosing type; for top-level symbols, the same file (or
	// where it was renamed to): elsewhere a symbol of the same name moved.
	sameOuter := sOuter == outer && (outer != "" || s.Path == a.Path() || s.Path == o.renamedTo)
	toks := v.symbolTokens(cf, s)
	// norm: the tokens in the baseline's format, the new names read as
	// the old ones.
	fm := format(a)
	norm := v.shapeTokens(a, cf, s)
	if !sameName || !sameOuter {
		norm = substitute(norm, map[string]string{s.Name: name, sOuter: outer})
	}
	c.sameBody = a.Shape != "" && (fm.Shape(norm) == a.Shape || v.shapeOf(cf, s) == a.Shape)
	if !c.sameBody && o.known() && jsLang(cf.Lang) && jsLang(o.file.Lang) {
		// A JavaScript function whose declaration changed form only:
		// `helpers.f = function(a) {…};` became `f: function(a) {…},`.
		// Another declaration moved to another module is exported there
		// or not as the modules' imports need.
		old, now := v.shapeTokens(a, o.file, o.sym), substitute(v.shapeTokens(a, cf, s), map[string]string{s.Name: name})
		if f := jsCallable(old, name); f != nil {
			c.sameBody = slices.Equal(f, jsCallable(now, name))
		} else if s.Path != a.Path() && s.Path != o.renamedTo {
			c.sameBody = slices.Equal(unexported(old), unexported(now))
		}
	}
	if !c.sameBody && run != nil && len(run.renames) > 0 && a.Shape != "" {
		// Equal but for names renamed elsewhere in this run: the body
		// changed only where it refers to them.
		if fm.Shape(substitute(norm, run.renames)) == a.Shape && len(renamesUsed(norm, run.renames)) > 0 {
			c.simKnown, c.sim = true, 0.99
		}
	}
	if o.known() && !c.simKnown {
		c.simKnown = true
		c.sim = similarity(normalize(o.toks, name, outer), normalize(toks, s.Name, sOuter))
		if c.sameBody {
			c.sim = 1
		}
		if !c.sameBody && c.sim < 0.95 && typeKind(s.Kind) && typeKind(o.sym.Kind) {
			// The members of a type may have been rearranged as well.
			if x, y := v.membersSorted(o.file, o.sym), v.membersSorted(cf, s); x != nil && y != nil {
				c.sim = max(c.sim, similarity(normalize(x, name, outer), normalize(y, s.Name, sOuter)))
			}
		}
	}
	if o.known() {
		if k, ok := v.keptShare(ctx, o, cf, s); ok {
			c.kept, c.keptKnown = k, true
		}
	}
	if o.want != nil && !c.simKnown && (c.sameBody || sketchable(a, s, len(toks))) {
		c.simKnown, c.sketched = true, true
		c.sim = 1
		if !c.sameBody {
			c.sim = o.want.similarity(v.symbolSketch(cf, s, toks))
		}
	}
	like := c.likeness()
	c.called = v.calledInstead(ctx, o, cf, s)
	sameHeader := a.Sig != "" && (s.Sig == a.Sig || headerMatchesFrom(fm, norm, a.Sig, 3))
	// The same parameters tell overloads apart; a class up or down the
	// hierarchy is where methods are pulled up or pushed down to.
	sameParams := o.file != nil && callableKind(s.Kind) && selectorOf(o.file, o.sym) == selectorOf(cf, s)
	if sameParams {
		ps, _ := params(o.file, o.sym)
		c.sameParams = len(ownParams(o.file.Lang, ps)) > 0
	}
	related := o.file != nil && sOuter != outer && v.relatedTypes(ctx, o, cf, s)
	c.related = related
	switch {
	case c.sameBody:
		c.score = 1
		if !sameName && o.known() && s.Path != a.Path() && s.Path != o.renamedTo {
			// Identical tiny bodies elsewhere are common (getters, stubs),
			// even with history.
			if n := len(toks); n < 12 {
				c.score = 0.5 + 0.5*float64(n)/12
			}
		}
		if !sameName && !o.known() {
			// Identical small bodies are common (getters, stubs): trust
			// them less, and less still in another file.
			small := 24
			if s.Path == a.Path() || o.want != nil && path.Dir(s.Path) == path.Dir(a.Path()) {
				// The same file or, for anchors with a sketch, its
				// directory: moves mostly stay in the package. (Anchors
				// without one keep the stricter rule they were
				// verified by.)
				small = 12
			}
			if outer != "" && sOuter != outer && s.Path != a.Path() && s.Path != o.renamedTo {
				// Another name in another type of another file: a short
				// delegate of a sibling type (intervalProvider's
				// clearInterval, immediateProvider's clearImmediate) is
				// the same code once its own names read as the old ones.
				small = 64
			}
			if n := len(toks); n < small {
				c.score = 0.5 + 0.5*float64(n)/float64(small)
			}
		}
	case sameName && sameOuter && c.simKnown:
		c.score = 0.6 + 0.4*like
	case sameName && sameOuter:
		c.score = 0.85
	case (sameName || !sameOuter && pyVisibility(cf.Lang, name, s.Name)) && c.simKnown && o.known():
		// Moved (to another class, up or down the hierarchy), perhaps
		// edited: the name says much, the header more. In Python a
		// function made public or private as it moved to another module
		// (_get_hash became _utils.get_hash) keeps its name.
		c.score = 0.45 + 0.5*like
		if sameHeader {
			c.score += 0.05
		}
		if sameParams {
			c.score += 0.03
		}
		if related && (!bodiless(o.sym) || bodiless(s)) {
			// Up or down the hierarchy. A declaration without a body
			// (an interface's) has no code for a method with one to
			// carry: such a method there implements it at most.
			c.score += 0.05
		}
		only := (o.named == 1 && s.Kind == a.Kind || o.namedAlike == 1 && madeFunction(o, s)) && distinctive(name) && !v.hadName(ctx, cf, s)
		if only && like >= 0.3 && !v.homeNewcomerAsLike(ctx, o, like) {
			// The only symbol of a telling name, of the same kind, new
			// there: moved and much edited, most likely. (One that already
			// had the name, as an abstract method its overrides were
			// renamed away from, says so only by its body; nor is it
			// likely when a method new in the old type is as like.)
			c.score = max(c.score, 0.7+0.3*like)
		}
		if only && like >= outlineLike && typeKind(s.Kind) && s.Kind == a.Kind && membersKept(o, cf, s) {
			// Such a type that keeps every method it had, by name and
			// parameters, while their bodies were written (see
			// membersKept): its outline says what its body cannot.
			c.score = max(c.score, 0.8+0.15*like)
		}
	case sameName && c.simKnown:
		c.score = 0.4 + 0.5*c.sim
	case sameName:
		c.score = 0.6
	case !c.simKnown && s.Path == a.Path() && a.Sig != "" && headerMatches(fm, norm, a.Sig) && linesClose(a, s):
		// No old body to compare with, but in the same file the same
		// header (up to the name) and about the same length: renamed and
		// edited, likely.
		c.score = 0.82
		c.header = true
	case c.sketched && c.sim >= 0.6 && a.Sig != "" && linesClose(a, s) && spans(a, 5) && nearby(a, s.Path, o.renamedTo) && headerMatchesFrom(fm, norm, a.Sig, 3):
		// The sketch of a short body is coarse, but with the same header
		// (up to the name), about the same length and next door it is
		// enough — from five lines on: below, one-statement functions of
		// one signature (return 7; val x = 1, return x) look alike.
		c.score = max(sketchScore(c.sim), 0.84+0.3*(c.sim-0.6))
	case c.sketched && c.sim >= 0.8:
		c.score = sketchScore(c.sim)
	case c.sketched && c.sim >= 0.65:
		// Siblings look this much alike (startPos and endPos): without
		// the same header, only a candidate.
		c.score = min(sketchScore(c.sim), 0.75)
	case c.simKnown && like >= respelledLike && like < 0.85 && v.respelled(ctx, o, cf, s):
		// Its name respelled where it was, its body edited: see
		// respelled.
		c.score = 0.8 + 0.15*like
	case c.simKnown && like < 0.85 && (v.rewrittenInPlace(ctx, o, cf, s, c.sim, c.kept, c.keptKnown) || v.toldRenamePyJS(ctx, o, &c) || v.toldRenameJava(ctx, o, &c)):
		// Renamed in place, its body rewritten, as the change says beside
		// the body: see rewrittenInPlace and toldRenameJava (Java), and
		// toldRenamePyJS.
		c.score = 0.8 + 0.15*like
	case c.simKnown && like < 0.85 && c.called:
		// Renamed in place, as the uses of its name that the change
		// swapped for the new one say: see calledInstead.
		c.score = 0.8 + 0.15*like
	case c.simKnown && like >= 0.6 && (like >= 0.85 || !tinyPair(o, toks) || keepsName(o, c)):
		// Renamed: the body (and the diff) must speak; the same header
		// and a related name help. A tiny body must be nearly the same:
		// its syntax alone makes most of the likeness, unless the new
		// name keeps the old one in its type.
		c.score = 0.95*like + 0.05*nameSimilarity(name, s.Name)
		if sameHeader {
			c.score += 0.03
		}
	default:
		return c, false
	}
	if sameName && sOuter == outer && v.packageMate(ctx, o, cf, s) {
		// The package's own declaration of the name, in another file:
		// moved there, however its body was edited (a function become a
		// wrapper of a library's, a regenerated file renamed).
		c.mate = true
		c.score = max(c.score, 0.85+0.1*like)
	}
	if a.Kind != "" && s.Kind != a.Kind && !madeFunction(o, s) {
		c.score *= 0.9
	}
	if s.Path != a.Path() && !sameName {
		c.score *= 0.98 // moved and renamed needs more evidence than either
	}
	if c.test && !(sameName && c.sameBody && path.Dir(s.Path) == path.Dir(a.Path())) {
		// Test code does not outbid production code; but the same name
		// with the same body beside it (Go's foo_test.go, Python's
		// test_foo.py) is the code itself, kept for the tests alone.
		c.score *= 0.9
	}
	c.score = min(c.score, 1)
	if !c.sameBody {
		c.score = min(c.score, 0.99) // only the same body is certain
	}
	return c, true
}

// packageMate reports whether s, of the anchored Go symbol's name and
// outer name, is in another file of its directory, and new there (cli
// 074ed50b8a: api.NewHTTPClient left client.go for http_client.go, its
// body rewritten). A Go package declares a name once: the same name
// declared afresh in the package is where the package's declaration
// went, the one its callers reach by that name wherever it is. Files of
// other build targets declare a name apiece; one whose file had it
// already is not a mate. (An external test package, x_test, shares the
// directory; a name moving between it and x is rare enough to read as
// one.)
func (v *Verifier) packageMate(ctx context.Context, o origin, cf *File, s analyzer.Symbol) bool {
	a := o.a
	if cf.Lang != "go" || !o.known() || o.file.Lang != "go" || s.Path == a.Path() || path.Dir(s.Path) != path.Dir(a.Path()) {
		return false
	}
	if s.Kind != o.sym.Kind && !(callableKind(s.Kind) && callableKind(o.sym.Kind)) {
		return false
	}
	bf, err := v.opts.Base.File(ctx, s.Path)
	return err != nil || len(sameNamed(bf, s.FQName)) == 0
}

// homeNewcomerAsLike reports whether a symbol new at o's home is at
// least as like o's old code as like: the code stayed home under a new
// name as much as it went with the old name elsewhere. For a callable,
// home is its own type, in its file as it is now (neo4j 74d2cc420e:
// AvailabilityGuard.checkAvailability(long, Class) became await(long) in
// its place, half alike, while a private checkAvailability() wrapping the
// call to it appeared in GraphDatabaseFacade, a third alike). For a
// top-level type, home is its directory: a file the change added there
// declaring a type of its kind (jfinal 881baed894: core.InterceptorBuilder
// became core.ActionInterceptorBuilder while a new aop.InterceptorBuilder,
// 45% alike, took the name).
func (v *Verifier) homeNewcomerAsLike(ctx context.Context, o origin, like float64) bool {
	if typeKind(o.sym.Kind) && o.outer == "" {
		return v.typeNewcomerAsLike(ctx, o, like)
	}
	if !callableKind(o.sym.Kind) || o.outer == "" {
		return false
	}
	p := o.sym.Path
	if o.renamedTo != "" {
		p = o.renamedTo
	}
	hf := v.fileOrNil(ctx, p)
	if hf == nil {
		return false
	}
	old := normalize(o.toks, o.name, o.outer)
	for _, x := range v.newCallables(ctx, hf, o.outer) {
		if similarity(old, normalize(v.symbolTokens(hf, x), x.Name, o.outer)) >= like {
			return true
		}
	}
	return false
}

// typeNewcomerAsLike is homeNewcomerAsLike for a top-level type: a type
// of its kind, declared at the top of a file the change added in its
// directory, at least as like.
func (v *Verifier) typeNewcomerAsLike(ctx context.Context, o origin, like float64) bool {
	dir := path.Dir(o.sym.Path)
	old := normalize(o.toks, o.name, "")
	for _, p := range v.movesOf(ctx).added {
		if path.Dir(p) != dir {
			continue
		}
		hf := v.fileOrNil(ctx, p)
		if hf == nil {
			continue
		}
		for _, x := range hf.Symbols {
			if _, xfq, _ := cutFQ(x.FQName); x.Kind != o.sym.Kind || outerName(xfq) != "" {
				continue
			}
			if similarity(old, normalize(v.symbolTokens(hf, x), x.Name, "")) >= like {
				return true
			}
		}
	}
	return false
}

// keptShare is the share of o's lines (those that say something) that the
// diff of o's file against cf keeps inside s: how a reviewer sees a
// symbol renamed in place or carried along with its renamed file. ok is
// false when cf is neither o's file nor where it was renamed to.
func (v *Verifier) keptShare(ctx context.Context, o origin, cf *File, s analyzer.Symbol) (float64, bool) {
	if o.file == nil || (cf.Path != o.sym.Path && cf.Path != o.renamedTo) {
		return 0, false
	}
	return v.linesKept(o.file, o.sym, cf, s)
}

// linesKept is the share of the lines of bs (of Base file bf) that say
// something that the diff of bf against cf keeps inside s.
func (v *Verifier) linesKept(bf *File, bs analyzer.Symbol, cf *File, s analyzer.Symbol) (float64, bool) {
	m, oldLines := v.alignment(bf, cf)
	total, kept := 0, 0
	for i := bs.StartLine - 1; i < bs.EndLine && i < len(oldLines); i++ {
		if !telling(oldLines[i]) {
			continue
		}
		total++
		if j := m[i] + 1; j >= s.StartLine && j <= s.EndLine {
			kept++
		}
	}
	if total == 0 {
		return 0, false
	}
	return float64(kept) / float64(total), true
}

// alignment returns the line alignment of bf (Base) with cf, cached for
// the run, and bf's lines.
func (v *Verifier) alignment(bf, cf *File) ([]int, [][]byte) {
	key := bf.Path + "\x00" + bf.Hash + "\x00" + cf.Path + "\x00" + cf.Hash
	type aligned struct {
		m     []int
		lines [][]byte
	}
	if x, ok := v.aligned.Load(key); ok {
		al := x.(aligned)
		return al.m, al.lines
	}
	a, b := splitLines(bf.Src), splitLines(cf.Src)
	al := aligned{alignLines(a, b), a}
	v.aligned.Store(key, al)
	return al.m, al.lines
}

// stillItself reports whether s (of cf) was already in Base under its
// name (and selector) and is still that code: then it is no candidate. A
// name that now holds quite other code (renames chained in one change:
// shutdown became preShutdown, dispose became shutdown), or whose code
// went to a new symbol of its file while it took another's (see
// takenOver), is up for grabs.
func (v *Verifier) stillItself(ctx context.Context, cf *File, s analyzer.Symbol) bool {
	bs, bf, ok := v.inBase(ctx, cf, s)
	if !ok {
		return false
	}
	if bs.Hash == s.Hash {
		return true
	}
	if v.gotBody(bf, bs, cf, s) {
		return false // see filledIn
	}
	if shape := v.shapeOf(bf, bs); shape != "" && shape == v.shapeOf(cf, s) {
		return true
	}
	_, fq, _ := cutFQ(s.FQName)
	old := normalize(v.symbolTokens(bf, bs), s.Name, outerName(fq))
	sim := similarity(old, normalize(v.symbolTokens(cf, s), s.Name, outerName(fq)))
	if sim < 0.5 {
		return false
	}
	// Its old code may have gone to a symbol new in its file, the name
	// given to other code.
	takers := sync.OnceValue(func() []taker { return v.takers(ctx, cf, s, sim) })
	for _, x := range cf.Symbols {
		if x.StartLine == s.StartLine || !kindsCompatible(bs.Kind, x.Kind) || len(sameNamed(bf, x.FQName)) > 0 {
			continue
		}
		_, xfq, _ := cutFQ(x.FQName)
		xtoks := normalize(v.symbolTokens(cf, x), x.Name, outerName(xfq))
		xs := similarity(old, xtoks)
		if xs >= 0.9 && xs >= sim+0.25 || v.takenOver(takers, cf, s, bf, bs, sim, cf, x, xtoks, xs) != "" {
			return false
		}
	}
	return true
}

// gotBody reports whether callable s (of cf) was a declaration without a
// body in Base (bs of bf: an interface's or an abstract method; see
// bodiless) and has one now. Its code is new to it, as when an
// implementation is pulled up into what was an interface
// (intellij-community 6ad1dcbfef: the interface LightProjectDescriptor
// became a class and took getModuleType's body from its nested
// implementation Empty, which went).
//
// Such a body is more often a default written anew (rstudio 229d1b60c0:
// the abstract WizardPage.validate got `return true;` while the anchored
// PublishFilesPage.validate was renamed in its place): a method filled
// in is a candidate only when it is nearly the anchored code, filledLike
// alike (see filledIn).
func (v *Verifier) gotBody(bf *File, bs analyzer.Symbol, cf *File, s analyzer.Symbol) bool {
	if !callableKind(s.Kind) {
		return false
	}
	return v.bodiless(bf, bs) && len(v.symbolTokens(cf, s)) > 0 && !v.bodiless(cf, s)
}

// filledLike is how like the anchored code a method that got its first
// body must be to be a candidate (see gotBody).
const filledLike = 0.85

// filledIn reports whether s (of cf) was in Base under its name as a
// declaration without a body and has one now (see gotBody).
func (v *Verifier) filledIn(ctx context.Context, cf *File, s analyzer.Symbol) bool {
	if v.opts.Base == nil {
		return false
	}
	bs, bf, ok := v.inBase(ctx, cf, s)
	return ok && v.gotBody(bf, bs, cf, s)
}

// swapGain is how much better, summed over the two, the pairing of renames
// chained in one change must match than the straight one to be believed
// on the bodies alone (across files).
const swapGain = 0.1

// takerLike is how like the code a name holds now another symbol's old
// code must be for the name to have been given to it: nearly all of it.
const takerLike = 0.85

// taker is a symbol of Base that vanished in the change and whose code is
// more like what a name holds now than the code the name held.
type taker struct {
	file *File
	sym  analyzer.Symbol
	toks []string // normalized
	like float64  // to the name's code now
}

// takers lists the symbols that vanished in the change (from s's file or
// from a file deleted in it) whose code matches the code s (of cf) holds
// now (sim: as like as its own old code) nearly all, and better than its
// own old code does: the name may have been given to one of them.
func (v *Verifier) takers(ctx context.Context, cf *File, s analyzer.Symbol, sim float64) []taker {
	_, fq, _ := cutFQ(s.FQName)
	now := normalize(v.symbolTokens(cf, s), s.Name, outerName(fq))
	var out []taker
	for _, p := range append([]string{s.Path}, v.movesOf(ctx).removed...) {
		df, err := v.opts.Base.File(ctx, p)
		if err != nil {
			continue
		}
		for _, d := range v.vanished(ctx, p) {
			if !kindsCompatible(d.Kind, s.Kind) {
				continue
			}
			_, dfq, _ := cutFQ(d.FQName)
			dn := normalize(v.symbolTokens(df, d), d.Name, outerName(dfq))
			if bagSimilarity(dn, now) < takerLike {
				continue // cannot be that like: spare the exact measure
			}
			if sd := similarity(dn, now); sd >= takerLike && sd > sim {
				out = append(out, taker{df, d, dn, sd})
			}
		}
	}
	return out
}

// takenOver returns the full name of the taker (of takers, which lists
// those of s: see Verifier.takers) the name of s (of cf; bs of Base file
// bf before, sim like it) was given to while the code it held went to x
// (of xf; tokens xtoks normalized, xs like bs), "" if none: renames
// chained in one change (random_distribution became
// random_scalar_distribution and random_joint_distribution became
// random_distribution; a class renamed away and another moved in under
// its name). A reviewer pairs what vanished with what appeared: the
// swapped pairing must match better than the straight one and, within
// one file, as the diff of the file pairs the lines of both (near copies
// differ in a token or two, which the bodies alone cannot weigh: a
// parameter type spelt out in full reads like the renamed sibling's);
// across files, where no diff pairs lines, clearly better.
func (v *Verifier) takenOver(takers func() []taker, cf *File, s analyzer.Symbol, bf *File, bs analyzer.Symbol, sim float64, xf *File, x analyzer.Symbol, xtoks []string, xs float64) string {
	if xs < 0.9 || xs <= sim {
		return ""
	}
	for _, t := range takers() {
		gain := xs + t.like - sim - similarity(t.toks, xtoks)
		oneFile := xf.Path == bf.Path && t.file.Path == cf.Path
		if oneFile && gain > 0 && v.diffPairs(bf, bs, xf, x) && v.diffPairs(t.file, t.sym, cf, s) || !oneFile && gain >= swapGain {
			_, tfq, _ := cutFQ(t.sym.FQName)
			return tfq
		}
	}
	return ""
}

// diffPairs reports whether the diff of Base file bf with cf (the same
// path) keeps at least half of the lines of bs in s.
func (v *Verifier) diffPairs(bf *File, bs analyzer.Symbol, cf *File, s analyzer.Symbol) bool {
	if bf.Path != cf.Path {
		return false
	}
	k, ok := v.linesKept(bf, bs, cf, s)
	return ok && k >= 0.5
}

// moves is how the files of a run differ from Base's: removed (gone, not
// renamed), added (new, not a rename), and the renames by their new path.
type moves struct {
	removed, added []string
	from           map[string]string // new path → the Base path renamed to it
}

// movesOf reads the run's moves once (none without Base).
func (v *Verifier) movesOf(ctx context.Context) moves {
	if x, ok := v.moved.Load(""); ok {
		return x.(moves)
	}
	out := moves{from: map[string]string{}}
	if v.opts.Base == nil {
		return out
	}
	now, err1 := v.files.Paths(ctx)
	before, err2 := v.opts.Base.Paths(ctx)
	if err1 == nil && err2 == nil {
		there := make(map[string]bool, len(now))
		for _, p := range now {
			there[p] = true
		}
		was := make(map[string]bool, len(before))
		for _, p := range before {
			was[p] = true
			if there[p] {
				continue
			}
			if to := v.renamedTo(ctx, p); to != "" {
				out.from[to] = p
			} else {
				out.removed = append(out.removed, p)
			}
		}
		for _, p := range now {
			if !was[p] && out.from[p] == "" {
				out.added = append(out.added, p)
			}
		}
	}
	v.moved.Store("", out)
	return out
}

// hadName reports whether s (of cf) was already in Base under its name
// (and selector), whatever its code then.
func (v *Verifier) hadName(ctx context.Context, cf *File, s analyzer.Symbol) bool {
	_, _, ok := v.inBase(ctx, cf, s)
	return ok
}

// inBase returns the symbol of Base that s (of cf) was: the same name,
// and the same selector when the name is shared, in s's file or in the
// one renamed to it (see baseOf).
func (v *Verifier) inBase(ctx context.Context, cf *File, s analyzer.Symbol) (analyzer.Symbol, *File, bool) {
	bf, fq := v.baseOf(ctx, s)
	if bf == nil {
		return analyzer.Symbol{}, nil, false
	}
	before := sameNamed(bf, fq)
	switch {
	case len(before) == 0:
		return analyzer.Symbol{}, nil, false
	case len(before) == 1 && len(sameNamed(cf, s.FQName)) == 1:
		return before[0], bf, true
	}
	sel := selectorOf(cf, s)
	for _, x := range before {
		if selectorOf(bf, x) == sel {
			return x, bf, true
		}
	}
	return analyzer.Symbol{}, nil, false
}

// baseOf returns the Base file that s's file was and the full name s
// had there: its own path's, or the file renamed to it, where the type
// the file is named for was named as the old file (TasksDataSource.kt,
// with its interface, became NetworkDataSource.kt: its saveTask was
// TasksDataSource's), for a member of a type. nil when there is none.
func (v *Verifier) baseOf(ctx context.Context, s analyzer.Symbol) (*File, string) {
	if bf, err := v.opts.Base.File(ctx, s.Path); err == nil {
		return bf, s.FQName
	}
	_, fq, _ := cutFQ(s.FQName)
	top, rest, member := strings.Cut(fq, "::")
	from := v.movesOf(ctx).from[s.Path]
	if from == "" || !member && top == stem(s.Path) || v.files.Renamed(from) != s.Path && !v.pairedBack(ctx, s.Path) {
		// A type that is its file's is followed with the file, where
		// git's pairing may be crosswise between equal copies (see
		// placeKeeper): only its members, and the declarations of a
		// file not named for one of them, are read through the rename,
		// git's or lore's own when it holds both ways (pairedBack).
		return nil, ""
	}
	bf, err := v.opts.Base.File(ctx, from)
	if err != nil {
		return nil, ""
	}
	if !member {
		// typing-examples/ became typing_tests/, baseline.py and
		// pyrefly.py unchanged, both declaring NGClass (attrs
		// 58c8e9ade6): pyrefly.py's is its own, not new.
		return bf, from + "::" + top
	}
	if oldTop := stem(from); top == stem(s.Path) && oldTop != top && len(sameNamed(bf, from+"::"+oldTop)) > 0 && len(sameNamed(bf, from+"::"+top)) == 0 {
		top = oldTop
	}
	return bf, from + "::" + top + "::" + rest
}

// stem is the name of file p without its directory and extension.
func stem(p string) string {
	b := path.Base(p)
	return strings.TrimSuffix(b, path.Ext(b))
}

// vanished lists the symbols of Base file p that are gone from the
// source: neither in p under their name (and selector) nor in the file p
// was renamed to. Cached for the run.
func (v *Verifier) vanished(ctx context.Context, p string) []analyzer.Symbol {
	if x, ok := v.gone.Load(p); ok {
		return x.([]analyzer.Symbol)
	}
	var out []analyzer.Symbol
	if bf, err := v.opts.Base.File(ctx, p); err == nil {
		now := map[string]bool{}
		for _, q := range []string{p, v.renamedTo(ctx, p)} {
			if cf := v.fileOrNil(ctx, q); cf != nil {
				for _, s := range cf.Symbols {
					now[s.FQName[len(cf.Path):]] = true
					if len(sameNamed(cf, s.FQName)) > 1 {
						now[s.FQName[len(cf.Path):]+selectorOf(cf, s)] = true
					}
				}
			}
		}
		for _, s := range bf.Symbols {
			local := s.FQName[len(bf.Path):]
			if len(sameNamed(bf, s.FQName)) > 1 {
				local += selectorOf(bf, s)
			}
			if !now[local] {
				out = append(out, s)
			}
		}
	}
	v.gone.Store(p, out)
	return out
}

// newCallables returns the callables of type outer in cf whose names
// are new there (see hadName).
func (v *Verifier) newCallables(ctx context.Context, cf *File, outer string) []analyzer.Symbol {
	var out []analyzer.Symbol
	for _, x := range cf.Symbols {
		if _, xfq, _ := cutFQ(x.FQName); callableKind(x.Kind) && outerName(xfq) == outer && !v.hadName(ctx, cf, x) {
			out = append(out, x)
		}
	}
	return out
}

// vanishedCallables returns the callables of type outer that vanished
// from file p (see vanished).
func (v *Verifier) vanishedCallables(ctx context.Context, p, outer string) []analyzer.Symbol {
	var out []analyzer.Symbol
	for _, d := range v.vanished(ctx, p) {
		if _, dfq, _ := cutFQ(d.FQName); callableKind(d.Kind) && outerName(dfq) == outer {
			out = append(out, d)
		}
	}
	return out
}

// changedSym is a symbol of Base that vanished from the source, or that
// is still there under its name with other code.
type changedSym struct {
	analyzer.Symbol
	vanished bool
}

// vanishedOrChanged lists the symbols of Base file p that vanished (see
// vanished) or whose code changed under their name: where code that
// appeared may have come from.
func (v *Verifier) vanishedOrChanged(ctx context.Context, p string) []changedSym {
	var out []changedSym
	for _, s := range v.vanished(ctx, p) {
		out = append(out, changedSym{s, true})
	}
	bf, err1 := v.opts.Base.File(ctx, p)
	cf, err2 := v.files.File(ctx, p)
	if err1 != nil || err2 != nil || bf.Hash == cf.Hash {
		return out
	}
	now := map[string]bool{}
	for _, s := range cf.Symbols {
		now[s.Hash] = true
	}
	gone := map[int]bool{}
	for _, s := range out {
		gone[s.StartLine] = true
	}
	for _, s := range bf.Symbols {
		if !gone[s.StartLine] && !now[s.Hash] && callableKind(s.Kind) {
			out = append(out, changedSym{s, false})
		}
	}
	return out
}

// likeItself reports whether o's symbol, still under its name with
// changed code, is at least as like its old code there as like (what it
// is to another symbol).
func (v *Verifier) likeItself(ctx context.Context, o origin, like float64) bool {
	cf := v.fileOrNil(ctx, o.sym.Path)
	if cf == nil {
		return false
	}
	for _, s := range sameNamed(cf, o.sym.FQName) {
		if bs, _, ok := v.inBase(ctx, cf, s); !ok || bs.StartLine != o.sym.StartLine {
			continue
		}
		sc, ok := v.score(ctx, o, cf, s, nil)
		return ok && sc.likeness() >= like
	}
	return false
}

// markClaims marks the candidates that another symbol which vanished in
// the same change matches clearly better (with history only): they are
// where that one went. A copy of o's symbol matches a candidate better
// only when it is better placed (in the candidate's own type, its lines
// kept there); copies pulled up into one parent claim nothing from each
// other.
func (v *Verifier) markClaims(ctx context.Context, o origin, cands []candidate) {
	if !o.known() || v.opts.Base == nil {
		return
	}
	// The candidates that could be followed or could be a close rival:
	// the best one not claimed and those close behind it.
	checked, top := 0, -1.0
	for i := range cands {
		c := &cands[i]
		if top >= 0 && c.score < top-closeGap || checked == 16 {
			break
		}
		if c.sameBody {
			c.claimedBy = v.copyOwner(ctx, o, *c)
			continue
		}
		if c.score < 0.5 {
			continue
		}
		checked++
		c.rivalScore = 0
		paths := []string{o.sym.Path}
		if c.sym.Path != o.sym.Path {
			paths = append(paths, c.sym.Path)
		}
		for _, p := range paths {
			for _, d := range v.vanishedOrChanged(ctx, p) {
				if d.Path == o.sym.Path && d.StartLine == o.sym.StartLine || !kindsCompatible(d.Kind, c.sym.Kind) {
					continue
				}
				bf, err := v.opts.Base.File(ctx, d.Path)
				if err != nil {
					continue
				}
				dtoks := v.symbolTokens(bf, d.Symbol)
				if n, m := len(dtoks), len(v.symbolTokens(c.file, c.sym)); n > 3*m || m > 3*n {
					continue // too different in size to match it better
				}
				other := v.originOf(ctx, bf, d.Symbol)
				oc, ok := v.score(ctx, other, c.file, c.sym, nil)
				if !d.vanished && v.likeItself(ctx, other, oc.likeness()) {
					continue // its code is still under its name: no rival
				}
				if d.vanished && v.wentElsewhere(ctx, d.Symbol, dtoks, *c) {
					continue // its code went to another symbol: no rival
				}
				c.rivalScore = max(c.rivalScore, oc.likeness())
				if ok && d.vanished && d.Path == c.sym.Path && heirOf(bf, d.Symbol, *c) && selectorOf(o.file, o.sym) != selectorOf(c.file, c.sym) {
					// c took d's place and d's parameters, not o's: d
					// became c, and o's code went into it (see contests).
					_, dfq, _ := cutFQ(d.FQName)
					c.claimedBy = dfq
					break
				}
				if !ok || oc.score <= c.score+0.02 || !d.vanished {
					continue // a symbol still there (changed) claims nothing
				}
				if v.keptFrom(ctx, o, *c, d.Symbol) {
					continue // the diff keeps o's lines in c, and d went elsewhere
				}
				if o.successor != nil && o.successor.sym.Path == c.sym.Path && o.successor.sym.StartLine == c.sym.StartLine && selectorOf(bf, d.Symbol) != selectorOf(c.file, c.sym) {
					// c took o's place and o's parameters, which d never
					// had: d's code went into it, o became it (htsjdk
					// d6e7523463: getReferences(Container, …) became
					// getSpans(Container, …), which took in the code of
					// getReferences(Slice, …)).
					continue
				}
				if c.keptKnown && c.kept >= 0.5 && d.Path == o.sym.Path && calledHelper(o, d.Symbol) {
					// A helper o called, gone with the change, its code
					// in c, which keeps half of o's lines or more: inlined
					// into what o became, no rival of o (jgit 065a0a8122:
					// addResultOrBase became addObject, which took in
					// addResult).
					continue
				}
				_, dfq, _ := cutFQ(d.FQName)
				c.claimedBy = dfq
				break
			}
			if c.claimedBy != "" {
				break
			}
		}
		if c.claimedBy == "" && top < 0 {
			top = c.score
		}
	}
}

// wentElsewhere reports whether vanished callable d (its Base tokens
// dtoks) is clearly more like another callable of c's type, new or
// changed by the change, than like c: d's code went there, and d
// contests nothing of c. android_sdk 8747422336: Logger's d(tag,
// message, throwable) became error(message, throwable); d(tag,
// message), gone too, is about as like that method, but more like
// error(message), where it went.
func (v *Verifier) wentElsewhere(ctx context.Context, d analyzer.Symbol, dtoks []string, c candidate) bool {
	if !callableKind(d.Kind) || !callableKind(c.sym.Kind) {
		return false
	}
	_, dfq, _ := cutFQ(d.FQName)
	_, cfq, _ := cutFQ(c.sym.FQName)
	outer := outerName(cfq)
	old := normalize(dtoks, d.Name, outerName(dfq))
	var others [][]string
	for _, x := range c.file.Symbols {
		if _, xfq, _ := cutFQ(x.FQName); x.StartLine == c.sym.StartLine || !callableKind(x.Kind) || outerName(xfq) != outer {
			continue
		}
		if was, _, ok := v.inBase(ctx, c.file, x); ok && was.Hash == x.Hash {
			continue // unchanged: nothing went there
		}
		others = append(others, normalize(v.symbolTokens(c.file, x), x.Name, outer))
	}
	if len(others) == 0 {
		return false
	}
	return pairedElsewhere(old, similarity(old, normalize(v.symbolTokens(c.file, c.sym), c.sym.Name, outer)), others)
}

// relatedTypes reports whether the type enclosing candidate s (of cf)
// and the one enclosing o's symbol are super and subtype, as their
// declarations say (extends, implements, Python's bases). In Java the
// supertype's file must also be the one the name refers to: imported, or
// in the same package.
func (v *Verifier) relatedTypes(ctx context.Context, o origin, cf *File, s analyzer.Symbol) bool {
	_, sfq, _ := cutFQ(s.FQName)
	sOuter := outerName(sfq)
	if sOuter == "" || o.outer == "" {
		return false
	}
	if supertypes(cf, s.Path+"::"+sOuter)[lastName(o.outer)] && refersTo(cf, lastName(o.outer), o.file.Path) {
		return true // pushed down
	}
	// Pulled up: the anchor's type extends the candidate's, as it was or
	// as it is now (the parent may be new).
	for _, f := range []*File{o.file, v.fileOrNil(ctx, o.file.Path)} {
		if f != nil && supertypes(f, f.Path+"::"+o.outer)[lastName(sOuter)] && refersTo(f, lastName(sOuter), s.Path) {
			return true
		}
	}
	// Further up or down, through types between them.
	if now := v.fileOrNil(ctx, o.file.Path); now != nil && v.ancestors(ctx, now, now.Path+"::"+o.outer)[s.Path+"::"+sOuter] {
		return true
	}
	return v.ancestors(ctx, cf, s.Path+"::"+sOuter)[o.file.Path+"::"+o.outer]
}

// refersTo reports whether type name in file f can be the type declared
// in file p: always, but in Java, where p must be in f's package or
// imported by f (import a.b.Name; → a/b/Name.java).
func refersTo(f *File, name, p string) bool {
	if f.Lang != "java" {
		return true
	}
	if path.Dir(p) == path.Dir(f.Path) {
		return true
	}
	toks := analyzer.Tokens(f.Lang, f.Src)
	for i := 0; i+1 < len(toks); i++ {
		if toks[i] != "import" {
			continue
		}
		var parts []string
		j := i + 1
		if toks[j] == "static" {
			j++
		}
		for ; j < len(toks) && toks[j] != ";"; j++ {
			if toks[j] != "." {
				parts = append(parts, toks[j])
			}
		}
		if len(parts) > 0 && parts[len(parts)-1] == name {
			return strings.HasSuffix(strings.TrimSuffix(p, ".java"), strings.Join(parts, "/"))
		}
		i = j
	}
	return false
}

// isTestPath reports a file of test code: under a test directory, or
// named as tests are (FooTest.java, test_foo.py, foo_test.go, foo.spec.ts).
func isTestPath(p string) bool {
	for _, seg := range strings.Split(path.Dir(p), "/") {
		switch strings.ToLower(seg) {
		case "test", "tests", "testing", "__tests__", "spec", "testdata", "it", "androidtest", "testfixtures":
			return true
		}
		if strings.HasPrefix(seg, "test-") || strings.HasSuffix(seg, "-test") || strings.HasSuffix(seg, "-tests") {
			return true
		}
	}
	name := stem(p)
	return strings.HasPrefix(name, "test_") || strings.HasSuffix(name, "_test") || strings.HasSuffix(name, "Test") ||
		strings.HasSuffix(name, "Tests") || strings.HasSuffix(name, "IT") || strings.HasSuffix(name, ".test") ||
		strings.HasSuffix(name, ".spec") || strings.HasPrefix(name, "Test") && len(name) > 4 && name[4] >= 'A' && name[4] <= 'Z'
}

// distinctive reports a name that says what it is: several words, or a
// long one (not get, run, Builder).
func distinctive(name string) bool {
	return len(words(name)) >= 2 && len(name) >= 8 || len(name) >= 12
}

// nameSimilarity compares two identifiers by their words (camelCase,
// snake_case): twice the shared words over all.
func nameSimilarity(a, b string) float64 {
	wa, wb := words(a), words(b)
	if len(wa)+len(wb) == 0 {
		return 0
	}
	return bagSimilarity(wa, wb)
}

// words splits an identifier into lower-case words.
func words(s string) []string {
	var out []string
	cur := []byte{}
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '$' || c == '-':
			flush()
		case c >= 'A' && c <= 'Z' && i > 0 && (s[i-1] >= 'a' && s[i-1] <= 'z' || i+1 < len(s) && s[i+1] >= 'a' && s[i+1] <= 'z'):
			flush()
			cur = append(cur, c)
		default:
			cur = append(cur, c)
		}
	}
	flush()
	return out
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
	if toks == nil {
		toks = []string{}
	}
	v.tokens.Store(key, toks)
	return toks
}

// membersSorted returns the tokens of type t of f with its members (the
// callables and types declared in it) after what lies around them, in the
// order of their names: a type whose members were rearranged (commons-lang
// bc8a81eab0: LazyInitializerTest became LazyInitializerSingleInstanceTest
// with its nested class moved from last to first) reads as it was. Nil
// for a type of fewer than two members.
func (v *Verifier) membersSorted(f *File, t analyzer.Symbol) []string {
	key := symbolKey(f, t) + "#sorted"
	if toks, ok := v.tokens.Load(key); ok {
		return toks.([]string)
	}
	var ms []analyzer.Symbol
	for _, m := range f.Symbols {
		if (callableKind(m.Kind) || typeKind(m.Kind)) && outerName(m.FQName) == t.FQName && m.StartLine > t.StartLine && m.EndLine <= t.EndLine {
			ms = append(ms, m)
		}
	}
	var toks []string
	if len(ms) >= 2 {
		slices.SortStableFunc(ms, func(a, b analyzer.Symbol) int { return a.StartLine - b.StartLine })
		line := t.StartLine
		var parts []analyzer.Symbol
		for _, m := range ms {
			if m.StartLine < line {
				continue // within the one before (an accessor of a property)
			}
			if m.StartLine > line {
				toks = append(toks, analyzer.RangeTokens(f.Lang, f.Src, line, m.StartLine-1)...)
			}
			parts = append(parts, m)
			line = m.EndLine + 1
		}
		if line <= t.EndLine {
			toks = append(toks, analyzer.RangeTokens(f.Lang, f.Src, line, t.EndLine)...)
		}
		slices.SortStableFunc(parts, func(a, b analyzer.Symbol) int { return strings.Compare(a.Name, b.Name) })
		for _, m := range parts {
			toks = append(toks, v.symbolTokens(f, m)...)
		}
		if len(parts) < 2 {
			toks = nil
		}
	}
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

// spans reports whether a's baselined range has at least n lines.
func spans(a Anchor, n int) bool {
	start, end, ok := a.Range()
	return ok && end-start+1 >= n
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

// baseFile returns a's file in Base, when there is a Base and a baseline
// to look for in it.
func (v *Verifier) baseFile(ctx context.Context, a Anchor) *File {
	if v.opts.Base == nil || a.Hash == "" {
		return nil
	}
	bf, err := v.opts.Base.File(ctx, a.Path())
	if err != nil {
		return nil
	}
	return bf
}

// baseLinesFile returns a's file in Base when it holds a's baselined
// lines where the anchor says: the old side of the diff to map them
// through.
func (v *Verifier) baseLinesFile(ctx context.Context, a Anchor) *File {
	bf := v.baseFile(ctx, a)
	if bf == nil {
		return nil
	}
	start, end, _ := a.Range()
	if w := v.windows(bf); end > w.n() || w.hash(start, end) != a.Hash {
		return nil
	}
	return bf
}

// baseText returns the baselined text of a lines anchor from Base.
func (v *Verifier) baseText(ctx context.Context, a Anchor) []byte {
	bf := v.baseFile(ctx, a)
	if bf == nil {
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

func outerName(fq string) string {
	if i := strings.LastIndex(fq, "::"); i >= 0 {
		return fq[:i]
	}
	return ""
}

// kindsCompatible: the same kind, or functions and methods (a function
// moved into a class), or unknown.
// remade reports whether a declaration of kind a may be remade as one of
// kind b under its own name: an interface made a class or a type alias
// (TypeScript's linters turn aliases of object types into interfaces), a
// variable made a constant.
func remade(a, b string) bool {
	family := func(k string) int {
		switch k {
		case analyzer.KindClass, analyzer.KindInterface, analyzer.KindStruct, analyzer.KindTrait, analyzer.KindType:
			return 1
		case analyzer.KindVariable, analyzer.KindConstant:
			return 2
		}
		return 0
	}
	return family(a) != 0 && family(a) == family(b)
}

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
	return abs(got-want) <= sizeSlack(want, loose)
}

// sizeSlack is how many lines a candidate's size may be off by.
func sizeSlack(want int, loose bool) int {
	if loose {
		return max(4, want/2)
	}
	return max(2, want/4)
}

// minDocBound bounds the doc comment the scan lets a candidate have
// gained: up to max(minDocBound, n) lines over n lines of code, which
// keeps the extra files read in proportion.
const minDocBound = 8

// mayBeDocumented reports whether a symbol of got lines may have about
// code lines of code (as sizeCompatible takes it) once a leading comment
// of at most max(minDocBound, code) lines is left out: worth reading its
// file to count them.
func mayBeDocumented(code, got int, loose bool) bool {
	if code <= 0 {
		return false
	}
	slack := sizeSlack(code, loose)
	return got >= code-slack && got <= code+slack+max(minDocBound, code)
}

// codeSizeCompatible reads s's file and compares its lines without its
// documentation (see docLines) with code, the anchored symbol's.
func (v *Verifier) codeSizeCompatible(ctx context.Context, s analyzer.Symbol, code int, loose bool) bool {
	cf, err := v.files.File(ctx, s.Path)
	if err != nil {
		return false
	}
	fresh, ok := freshSymbol(cf, s)
	if !ok {
		return false
	}
	key := symbolKey(cf, fresh)
	doc, ok := v.docs.Load(key)
	if !ok {
		doc = docLines(cf.Lang, cf.Src, fresh.StartLine, fresh.EndLine)
		v.docs.Store(key, doc)
	}
	return sizeCompatible(code, fresh.EndLine-fresh.StartLine+1-doc.(int), loose)
}

// leadingComments counts the lines at the start of lines start..end of
// src that hold no token: the doc comment a symbol's range takes in (see
// analyzer.Symbol). 0 when no line holds one.
func leadingComments(lang string, src []byte, start, end int) int {
	text, ok := analyzer.Lines(src, start, end)
	if !ok {
		return 0
	}
	var ends []int // where each line of text ends
	for i, c := range text {
		if c == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(text) > 0 && text[len(text)-1] != '\n' {
		ends = append(ends, len(text))
	}
	// A prefix that ends inside a comment has no token, so the first
	// line with one is found by halving.
	n := sort.Search(len(ends), func(k int) bool { return len(analyzer.Tokens(lang, text[:ends[k]])) > 0 })
	if n == len(ends) {
		return 0
	}
	return n
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

func jsLang(lang string) bool {
	return lang == "javascript" || lang == "typescript" || lang == "tsx"
}

// jsCallable is the part of a JavaScript function's tokens that its form
// of declaration does not change: from its parameter list to its end,
// without a trailing comma or semicolon. `function f(a) {…}`, `f(a) {…}`,
// `f: function(a) {…},`, `o.f = function(a) {…};` and `var f = async
// function(a) {…};` have the same one. nil when name is not followed by
// a parameter list.
func jsCallable(toks []string, name string) []string {
	i := slices.Index(toks, name)
	if i < 0 {
		return nil
	}
	j := i + 1
	for ; j < len(toks) && toks[j] != "("; j++ {
		switch toks[j] {
		case "=", ":", "function", "async", "*":
		default:
			return nil
		}
	}
	end := len(toks)
	for end > j && (toks[end-1] == "," || toks[end-1] == ";") {
		end--
	}
	if j >= end {
		return nil
	}
	return toks[j:end]
}

// unexported is a JavaScript declaration's tokens without a leading
// export (not a default export's: that one names no declaration).
func unexported(toks []string) []string {
	if len(toks) > 1 && toks[0] == "export" && toks[1] != "default" {
		return toks[1:]
	}
	return toks
}

// normalize replaces a symbol's own name and outer name by placeholders:
// the name where it is the symbol's (its declaration, a call on this,
// self, its type or a receiver named in the header), not where it is a
// member of another object spelled alike (Log.d in a method d, in.close()
// in close): that one stays what it is when the symbol is renamed.
func normalize(toks []string, name, outer string) []string {
	on := ""
	if outer != "" {
		on = lastName(outer)
	}
	header := len(toks)
	if i := slices.Index(toks, name); i >= 0 {
		header = i
	}
	out := make([]string, len(toks))
	for i, t := range toks {
		switch {
		case t == "":
			out[i] = t
		case t == on:
			out[i] = "\x01outer"
		case t == name && !memberOfOther(toks, i, on, header):
			out[i] = "\x01self"
		default:
			out[i] = t
		}
	}
	return out
}

// memberOfOther reports whether toks[i] is read as a member of another
// object than the symbol's own (x.name, x->name, X::name), its qualifier
// neither this, self, Self, cls, super nor the outer type on, and not a
// name of the header, toks[:header] (a Go receiver).
func memberOfOther(toks []string, i int, on string, header int) bool {
	if i < 2 {
		return false
	}
	switch toks[i-1] {
	case ".", "?.", "->", "::":
	default:
		return false
	}
	switch q := toks[i-2]; q {
	case "this", "self", "Self", "cls", "super", "$this", "static", on:
		return false
	default:
		return !slices.Contains(toks[:min(header, i-2)], q)
	}
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

// bagSimilarity is twice the tokens (or words) a and b have in common,
// in any order, over their total length: for tokens, a bound on
// similarity that costs a pass over each.
func bagSimilarity(a, b []string) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	count := make(map[string]int, len(a))
	for _, t := range a {
		count[t]++
	}
	common := 0
	for _, t := range b {
		if count[t] > 0 {
			count[t]--
			common++
		}
	}
	return 2 * float64(common) / float64(len(a)+len(b))
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
