package graph

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Errors for the rules edges and nodes must follow. Every refusal wraps one
// of them, so callers can tell which rule an input broke with errors.Is.
var (
	// ErrNodeID reports a node id without a known type prefix or name.
	ErrNodeID = errors.New("invalid node id")
	// ErrEdgeType reports an edge type outside the fixed set.
	ErrEdgeType = errors.New("unknown edge type")
	// ErrSelfLink reports an edge from a node to itself.
	ErrSelfLink = errors.New("self-link refused")
	// ErrWeight reports a weight outside 0..1 (or NaN).
	ErrWeight = errors.New("weight outside 0..1")
	// ErrRelation reports a relation tag that is malformed, or present on
	// an edge type other than LINKS_TO.
	ErrRelation = errors.New("invalid relation")
	// ErrReadOnly reports a write inside Store.View.
	ErrReadOnly = errors.New("write in a read-only transaction")
)

// Node types: the part of a node id before the first colon.
const (
	TypeLearning = "learning"
	TypeFile     = "file"
	TypeSymbol   = "symbol"
	TypeTask     = "task"
	TypeRun      = "run"
	TypeCommit   = "commit"
	// TypePackage is a Go package, named by its directory ("." at the
	// root): its files are one unit of code.
	TypePackage = "package"
)

func nodeTypes() []string {
	return []string{TypeLearning, TypeFile, TypeSymbol, TypeTask, TypeRun, TypeCommit, TypePackage}
}

// NodeType returns the type of a node id such as "file:src/a.go" ("file"),
// or an error wrapping ErrNodeID when the prefix is unknown or the name
// after it is empty.
func NodeType(id string) (string, error) {
	typ, name, ok := strings.Cut(id, ":")
	if !ok || name == "" {
		return "", fmt.Errorf("%w %q: want TYPE:NAME with TYPE one of %s", ErrNodeID, id, strings.Join(nodeTypes(), ", "))
	}
	switch typ {
	case TypeLearning, TypeFile, TypeSymbol, TypeTask, TypeRun, TypeCommit, TypePackage:
		return typ, nil
	}
	return "", fmt.Errorf("%w %q: unknown type %q, want one of %s", ErrNodeID, id, typ, strings.Join(nodeTypes(), ", "))
}

// NodeID returns the id of the node of a type and a name: NodeID(TypeFile,
// "a.go") is "file:a.go".
func NodeID(typ, name string) string { return typ + ":" + name }

// NodeName returns the name in a node id of type typ ("a.go" for
// "file:a.go" and TypeFile), "" when the id is of another type.
func NodeName(id, typ string) string {
	name, ok := strings.CutPrefix(id, typ+":")
	if !ok {
		return ""
	}
	return name
}

// EdgeType is one of the fixed edge types of DESIGN.md §4.
type EdgeType string

// The edge types. CoChangesWith and SimilarTo are symmetric.
const (
	AnchoredTo    EdgeType = "ANCHORED_TO"     // learning → file/symbol
	DerivedFrom   EdgeType = "DERIVED_FROM"    // learning → task/run
	Imports       EdgeType = "IMPORTS"         // file → file
	CoChangesWith EdgeType = "CO_CHANGES_WITH" // file ↔ file
	SimilarTo     EdgeType = "SIMILAR_TO"      // learning ↔ learning
	LinksTo       EdgeType = "LINKS_TO"        // learning → learning, with a relation
	UsedInRun     EdgeType = "USED_IN_RUN"     // learning → run
	InvalidatedBy EdgeType = "INVALIDATED_BY"  // learning → commit
	DefinedIn     EdgeType = "DEFINED_IN"      // symbol → file
	InPackage     EdgeType = "IN_PACKAGE"      // file → package
)

// EdgeTypes returns the fixed set of edge types, in the order of their
// one-byte codes in keys (code = index+1; the codes are stored on disk).
func EdgeTypes() []EdgeType {
	return []EdgeType{AnchoredTo, DerivedFrom, Imports, CoChangesWith, SimilarTo, LinksTo, UsedInRun, InvalidatedBy, DefinedIn, InPackage}
}

// Valid returns nil for a known edge type, else an error wrapping ErrEdgeType.
func (t EdgeType) Valid() error {
	if t.code() == 0 {
		return fmt.Errorf("%w %q: want one of %s", ErrEdgeType, string(t), joinTypes())
	}
	return nil
}

// Symmetric reports whether edges of this type are undirected.
func (t EdgeType) Symmetric() bool { return t == CoChangesWith || t == SimilarTo }

func (t EdgeType) code() byte {
	switch t {
	case AnchoredTo:
		return 1
	case DerivedFrom:
		return 2
	case Imports:
		return 3
	case CoChangesWith:
		return 4
	case SimilarTo:
		return 5
	case LinksTo:
		return 6
	case UsedInRun:
		return 7
	case InvalidatedBy:
		return 8
	case DefinedIn:
		return 9
	case InPackage:
		return 10
	}
	return 0
}

func typeOf(code byte) EdgeType {
	switch code {
	case 1:
		return AnchoredTo
	case 2:
		return DerivedFrom
	case 3:
		return Imports
	case 4:
		return CoChangesWith
	case 5:
		return SimilarTo
	case 6:
		return LinksTo
	case 7:
		return UsedInRun
	case 8:
		return InvalidatedBy
	case 9:
		return DefinedIn
	case 10:
		return InPackage
	}
	return ""
}

func joinTypes() string {
	var s []string
	for _, t := range EdgeTypes() {
		s = append(s, string(t))
	}
	return strings.Join(s, ", ")
}

// MaxRelation is the longest relation tag accepted.
const MaxRelation = 64

// ValidRelation checks a LINKS_TO relation tag: 1 to 64 characters of
// [a-z0-9_.-]. The error wraps ErrRelation.
func ValidRelation(rel string) error {
	if rel == "" || len(rel) > MaxRelation {
		return fmt.Errorf("%w %q: want 1..%d characters of [a-z0-9_.-]", ErrRelation, rel, MaxRelation)
	}
	for i := 0; i < len(rel); i++ {
		c := rel[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-') {
			return fmt.Errorf("%w %q: character %q at %d not in [a-z0-9_.-]", ErrRelation, rel, c, i)
		}
	}
	return nil
}

// ValidWeight checks that w is a number in 0..1. The error wraps ErrWeight.
func ValidWeight(w float64) error {
	if math.IsNaN(w) || w < 0 || w > 1 {
		return fmt.Errorf("%w: %v", ErrWeight, w)
	}
	return nil
}

// EdgeKey identifies an edge: edges are unique on (type, from, relation, to).
// For symmetric types the two ends may be given in either order.
type EdgeKey struct {
	Type     EdgeType
	From     string
	To       string
	Relation string
}

// Valid checks every rule an edge identity must follow: a known type, two
// typed node ids, no self-link, and a relation tag exactly for LINKS_TO.
func (k EdgeKey) Valid() error {
	if err := k.Type.Valid(); err != nil {
		return err
	}
	if _, err := NodeType(k.From); err != nil {
		return fmt.Errorf("edge from: %w", err)
	}
	if _, err := NodeType(k.To); err != nil {
		return fmt.Errorf("edge to: %w", err)
	}
	if k.From == k.To {
		return fmt.Errorf("%w: %s %s → itself", ErrSelfLink, k.Type, k.From)
	}
	if k.Type == LinksTo {
		if err := ValidRelation(k.Relation); err != nil {
			return err
		}
	} else if k.Relation != "" {
		return fmt.Errorf("%w %q: only %s edges carry a relation, not %s", ErrRelation, k.Relation, LinksTo, k.Type)
	}
	return nil
}

// canonical orders the ends of a symmetric edge (From < To).
func (k EdgeKey) canonical() EdgeKey {
	if k.Type.Symmetric() && k.To < k.From {
		k.From, k.To = k.To, k.From
	}
	return k
}

func (k EdgeKey) String() string {
	arrow := " → "
	if k.Type.Symmetric() {
		arrow = " ↔ "
	}
	s := string(k.Type) + " " + k.From + arrow + k.To
	if k.Relation != "" {
		s += " (" + k.Relation + ")"
	}
	return s
}
