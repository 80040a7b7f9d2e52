package anchors

import (
	"fmt"
	"strings"
	"time"

	"github.com/lorehq/lore/analyzer"
)

// Status is the verdict on one anchor.
type Status string

// The statuses, from best to worst.
const (
	Valid   Status = "valid"   // the anchored code still holds
	Drifted Status = "drifted" // the anchored code changed: the learning may be wrong
	Invalid Status = "invalid" // the anchored code is gone
)

func (s Status) rank() int {
	switch s {
	case Valid:
		return 0
	case Drifted:
		return 1
	case Invalid:
		return 2
	}
	return 3
}

// Worse reports whether s is worse than t.
func (s Status) Worse(t Status) bool { return s.rank() > t.rank() }

// Change says what happened to an anchor's target.
type Change string

// The change kinds.
const (
	ChangeNone             Change = "none"
	ChangeReformatted      Change = "reformatted"       // formatting or comments only
	ChangeMoved            Change = "moved"             // same name, another file (or the file was renamed)
	ChangeRenamed          Change = "renamed"           // same file, another name
	ChangeMovedRenamed     Change = "moved+renamed"     // another file and another name
	ChangeLinesShifted     Change = "lines-shifted"     // the anchored lines moved within the file
	ChangeSignatureChanged Change = "signature-changed" // the symbol's header changed
	ChangeBodyChanged      Change = "body-changed"      // the anchored code changed
	ChangeFileChanged      Change = "file-changed"      // the anchored file changed
	ChangeDeleted          Change = "deleted"           // the symbol is gone
	ChangeFileDeleted      Change = "file-deleted"      // the file is gone
	ChangeNoMatch          Change = "no-match"          // the glob or the text matches nothing
	ChangeMalformed        Change = "malformed"         // the learning file does not parse: its anchors cannot be read
)

// Known reports whether c is one of the change kinds above.
func (c Change) Known() bool {
	switch c {
	case ChangeNone, ChangeReformatted, ChangeMoved, ChangeRenamed, ChangeMovedRenamed, ChangeLinesShifted,
		ChangeSignatureChanged, ChangeBodyChanged, ChangeFileChanged, ChangeDeleted, ChangeFileDeleted,
		ChangeNoMatch, ChangeMalformed:
		return true
	}
	return false
}

// Location is where an anchor points: a file, a symbol in it, a range.
// Lines is "start-end", 1-based and inclusive.
type Location struct {
	Path string `json:"path"`
	// FQName is a symbol's full name, "path::Outer::inner", as `lore
	// symbols --json` writes it; "" when the location is not a symbol.
	FQName string `json:"fqname"`
	// LocalName is the symbol's name within its file, "Outer::inner".
	LocalName string `json:"local_name,omitempty"`
	Lines     string `json:"lines"`
}

// LocationSpec is the anchor spec that names l: the symbol (with its
// selector when its name is shared), else the lines, else the file.
func LocationSpec(l Location) string {
	switch {
	case l.FQName != "" && l.LocalName != "":
		return l.Path + "::" + l.LocalName
	case l.FQName != "":
		return l.FQName
	case l.Lines != "":
		s, e, _ := strings.Cut(l.Lines, "-")
		return fmt.Sprintf("%s#L%s-L%s", l.Path, s, e)
	}
	return l.Path
}

// Candidate is a possible new location of an anchor whose relocation was
// not certain enough to apply.
type Candidate struct {
	Location
	Confidence float64 `json:"confidence"`
	Reason     string  `json:"reason"`
}

// Result is the verdict on one anchor. Its JSON form is a stable API
// (DESIGN.md §5).
type Result struct {
	Learning string `json:"learning"`
	// Title is the learning's title, filled in by the caller that knows it.
	Title      string      `json:"title,omitempty"`
	Anchor     int         `json:"anchor"` // 1-based position in the learning file; 0 for a malformed learning file
	Spec       string      `json:"spec"`
	Status     Status      `json:"status"`
	Change     Change      `json:"change"`
	Confidence float64     `json:"confidence"`
	From       Location    `json:"from"`
	To         *Location   `json:"to,omitempty"` // present when the target was found
	Reason     string      `json:"reason"`
	Candidates []Candidate `json:"candidates,omitempty"`
	// Preexisting says that the finding was there already at the base a
	// change is compared with (verify --changed-since): the change did
	// not introduce it.
	Preexisting bool `json:"preexisting,omitempty"`

	// current is the anchor re-baselined at To (zero when not found),
	// without its sketch, and for a symbol without its shape and sig;
	// file holds the content of a symbol or lines anchor's target (sym
	// the symbol's), from which rebaselined computes them only when it is
	// asked for.
	current Anchor
	file    *File
	sym     *analyzer.Symbol
	found   bool
	// related says the target is in a super or subtype of the anchor's
	// type (pulled up, pushed down).
	related bool
}

// rebaselined is current with its sketch (symbols and lines), shape and
// sig (symbols).
func (r Result) rebaselined() Anchor {
	a := r.current
	if r.sym != nil && a.Shape == "" {
		s := r.file.withShape(*r.sym)
		a.Shape, a.Sig = s.Shape, s.Sig
	}
	if a.Sketch != "" || r.file == nil {
		return a
	}
	if s, e, ok := a.Range(); ok {
		switch a.Type() {
		case TypeSymbol:
			a.Sketch = symbolSketch(r.file.Lang, r.file.Src, a.FQName(), s, e)
		case TypeLines:
			a.Sketch = symbolSketch(r.file.Lang, r.file.Src, "", s, e)
		}
	}
	return a
}

// Worst returns the worst status of rs, the status of a learning whose
// anchors they are; Valid when rs is empty.
func Worst(rs []Result) Status {
	w := Valid
	for _, r := range rs {
		if r.Status.Worse(w) {
			w = r.Status
		}
	}
	return w
}

// Summary counts results by status.
type Summary struct {
	Valid   int `json:"valid"`
	Drifted int `json:"drifted"`
	Invalid int `json:"invalid"`
}

// Summarize counts rs by status.
func Summarize(rs []Result) Summary {
	var s Summary
	for _, r := range rs {
		switch r.Status {
		case Valid:
			s.Valid++
		case Drifted:
			s.Drifted++
		default:
			s.Invalid++
		}
	}
	return s
}

// Fix returns the anchor that --fix writes for r: the anchor re-baselined
// at its new location. ok is false unless r is valid and relocated,
// reformatted or shifted; drift is never fixed automatically.
func Fix(r Result) (Anchor, bool) {
	if r.Status != Valid || !r.found {
		return Anchor{}, false
	}
	switch r.Change {
	case ChangeReformatted, ChangeMoved, ChangeRenamed, ChangeMovedRenamed, ChangeLinesShifted:
		return r.rebaselined(), true
	}
	return Anchor{}, false
}

// Accept returns the anchor re-baselined at r's current location, as
// `lore anchor accept` records after a person reviewed a drift. ok is
// false when the target was not found (invalid anchors, candidates only).
func Accept(r Result) (Anchor, bool) {
	if !r.found {
		return Anchor{}, false
	}
	return r.rebaselined(), true
}

// Transition is one recorded change of an anchor's status.
type Transition struct {
	Time      time.Time `json:"time"`
	Commit    string    `json:"commit,omitempty"`
	Learning  string    `json:"learning"`
	Anchor    int       `json:"anchor"`
	Spec      string    `json:"spec"`
	OldStatus Status    `json:"old_status"`
	NewStatus Status    `json:"new_status"`
	Change    Change    `json:"change"`
	From      Location  `json:"from"`
	To        *Location `json:"to,omitempty"`
	Reason    string    `json:"reason"`
}
