package main

import (
	"context"
	"io/fs"
)

// An oracle reads, with a parser lore did not write, where the
// declarations of the files a commit changed went.
type oracle interface {
	// name is the parser, as the table names it.
	name() string
	// fates reads every declaration of the parent in a file the commit
	// changed and where it is at the commit.
	fates(c commit) ([]fate, error)
}

// commit is one commit as an oracle reads it.
type commit struct {
	ctx                 context.Context
	dir, parentSHA, sha string // the clone and the two commits, for C git
	parent, child       fs.FS
	changed             map[string]bool   // the paths the commit touched, old and new
	renames             map[string]string // git's renames, old → new
}

// decl is one declaration as the oracle reads it: in Go a package-level
// function, method or type; in Python a function, class or method.
type decl struct {
	path string // the file
	pkg  string // Go: the package clause's name
	name string // as lore names it in its file: "Name", "Recv::Name", "Class::method"
	tree string // the declaration's syntax tree, without positions or comments
	// moved is its tree as compared when it moved to another file, where
	// that differs: TypeScript's, without its export (a declaration is
	// exported or not as the modules' imports need).
	moved string
	// across names it across files and types where its name does not:
	// a Java method by its own name and parameter types, whatever type
	// holds it ("m(String,int)").
	across string
	// lines, for the lines oracle, the range of a line anchor; zero
	// with no name, a whole file's anchor.
	lines [2]int
}

// moveKey is what names d across files: it moved when its key left its
// file and one changed file gained that key.
func (d decl) moveKey() string {
	if d.across != "" {
		return d.across
	}
	return d.name
}

// movedTree is d's tree as compared across files.
func (d decl) movedTree() string {
	if d.moved != "" {
		return d.moved
	}
	return d.tree
}

// spec is the lore anchor spec of d.
func (d decl) spec() string {
	switch {
	case d.lines[0] > 0:
		return linesSpec(d.path, d.lines)
	case d.name == "":
		return d.path
	}
	return d.path + "::" + d.name
}

// fate is where the oracle says a declaration of the parent went at the
// commit.
type fate struct {
	before decl
	after  decl // zero when gone
	kind   kind
	same   bool // one syntax tree before and after
	// blanks, for the lines oracle, says a changed range or file changed
	// in blanks only (git diff -w leaves it alone).
	blanks bool
}

type kind int

const (
	inPlace kind = iota // in its file, or in the file git says its file became
	moved               // to another file: Go's, of its package; Python's, the one changed file that gained its name
	gone                // its name no longer declared there: renamed or deleted
)
