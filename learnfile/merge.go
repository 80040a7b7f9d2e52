package learnfile

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// editFields are the parts of a learning an edit can change, besides its
// updated time (set on every write).
var editFields = []string{"title", "tags", "anchors", "links", "derived_from", "created", "body"}

// Merge merges an edit (ours, made from the file's content orig) with the
// file as it is now (cur), three-way: each part of the learning changed on
// one side only takes that side's value. A part changed differently on
// both sides, or front matter that lore does not own (comments, other
// keys) changed on both, is a conflict. path names the file in errors and
// becomes the result's Path.
func Merge(path string, orig, cur []byte, ours *Learning) (*Learning, error) {
	base, err := Parse(path, orig)
	if err != nil {
		return nil, err
	}
	theirs, err := Parse(path, cur)
	if err != nil {
		return nil, fmt.Errorf("the file changed while you edited it and no longer parses (%v): merge by hand", err)
	}
	if theirs.ID != ours.ID {
		return nil, fmt.Errorf("the file changed while you edited it and now holds learning %s: merge by hand", theirs.ID)
	}
	into, from := ours, theirs
	if otherText(theirs) != otherText(base) {
		if otherText(ours) != otherText(base) {
			return nil, errors.New("the file changed while you edited it, and both changed its front matter beyond lore's keys: merge by hand")
		}
		into, from = theirs, ours
	}
	var both []string
	for _, k := range editFields {
		changedInto := !reflect.DeepEqual(editField(into, k), editField(base, k))
		changedFrom := !reflect.DeepEqual(editField(from, k), editField(base, k))
		switch {
		case !changedFrom:
		case !changedInto:
			setEditField(into, k, from)
		case !reflect.DeepEqual(editField(into, k), editField(from, k)):
			both = append(both, k)
		}
	}
	if len(both) > 0 {
		return nil, fmt.Errorf("the file changed while you edited it, and both changed %s: merge by hand", strings.Join(both, ", "))
	}
	into.Path = path
	return into, nil
}

// otherText is the front matter of a parsed learning that lore does not
// own: comments and keys other than its own.
func otherText(l *Learning) string {
	if l.doc == nil {
		return ""
	}
	var b strings.Builder
	for _, s := range l.doc.segments {
		if !slices.Contains(knownKeys, s.key) {
			b.WriteString(s.key + "\x00" + s.text + "\x00")
		}
	}
	return b.String()
}

func editField(l *Learning, k string) any {
	if k == "body" {
		return l.Body
	}
	return fieldOf(l, k)
}

func setEditField(l *Learning, k string, from *Learning) {
	switch k {
	case "title":
		l.Title = from.Title
	case "tags":
		l.Tags = from.Tags
	case "anchors":
		l.Anchors = from.Anchors
	case "links":
		l.Links = from.Links
	case "derived_from":
		l.DerivedFrom = from.DerivedFrom
	case "created":
		l.Created = from.Created
	case "body":
		l.Body = from.Body
	}
}
