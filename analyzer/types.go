package analyzer

// Symbol kinds.
const (
	KindFunction    = "function"
	KindMethod      = "method"
	KindConstructor = "constructor"
	KindClass       = "class"
	KindInterface   = "interface"
	KindStruct      = "struct"
	KindEnum        = "enum"
	KindTrait       = "trait"
	KindType        = "type"
	KindModule      = "module"
	KindNamespace   = "namespace"
	KindConstant    = "constant"
	KindVariable    = "variable"
	KindField       = "field"
)

// Import kinds.
const (
	ImportStatic   = "static"
	ImportDynamic  = "dynamic"
	ImportReExport = "re-export"
	ImportTypeOnly = "type-only"
)

// Symbol is one named declaration in a file.
//
// FQName is "path::Outer::inner". Lines are 1-based and inclusive and cover
// decorators, attributes and doc comments attached to the declaration.
// Hash, Shape and Sig are the fingerprints of the symbol's lines (see
// HashText and Shape); Sig fingerprints only the header, the tokens before
// the body, so a changed Sig means a changed signature. Parse fills all
// three; symbols read from an index (Symbols, AllSymbols) carry Hash only,
// and Parse of their file gives their Shape and Sig.
type Symbol struct {
	Path      string `json:"path"`
	FQName    string `json:"fqname"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Hash      string `json:"hash"`
	Shape     string `json:"shape"`
	Sig       string `json:"sig"`
}

// Import is one import, require, include, use or mod declaration.
// Targets are the repository files it resolves to (empty for external or
// unresolved imports; a Go package import lists the package's non-test
// files). Names are the names imported from the module: Python's
// from-import names (used to resolve submodules) and, for Go, the
// package-level names the file uses (pkg.Name), which narrow its IMPORTS
// edges to the package files that declare them.
type Import struct {
	Path    string   `json:"path"`
	Spec    string   `json:"spec"`
	Kind    string   `json:"kind"`
	Line    int      `json:"line"`
	Targets []string `json:"targets"`
	Names   []string `json:"names,omitempty"`

	// pkgDir is set when Targets are exactly the non-test Go files of one
	// directory; the index then stores the directory instead of the list.
	pkgDir string
}

// Diagnostic is a finding about a file, such as a syntax error. It never
// stops analysis: the symbols that could be recovered are still reported.
type Diagnostic struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

// File is the result of parsing one file. Lang is "" for files in no
// known language; they still carry their Hash.
type File struct {
	Path    string       `json:"path"`
	Lang    string       `json:"lang"`
	Hash    string       `json:"hash"`
	Symbols []Symbol     `json:"symbols"`
	Imports []Import     `json:"imports"`
	Errors  []Diagnostic `json:"errors,omitempty"`
}

// Enclosing returns the innermost symbol of f whose range contains line,
// or nil.
func (f *File) Enclosing(line int) *Symbol {
	return enclosing(f.Symbols, line)
}

func enclosing(syms []Symbol, line int) *Symbol {
	var best *Symbol
	for i := range syms {
		s := &syms[i]
		if s.StartLine <= line && line <= s.EndLine {
			if best == nil || s.EndLine-s.StartLine < best.EndLine-best.StartLine ||
				(s.EndLine-s.StartLine == best.EndLine-best.StartLine && s.StartLine > best.StartLine) {
				best = s
			}
		}
	}
	return best
}
