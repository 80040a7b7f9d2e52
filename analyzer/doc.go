// Package analyzer owns lore's understanding of source code: the
// repository walk (.gitignore at every level and .git/info/exclude for
// files git does not track, extra ignores, size limit, binary files,
// symlinks), the language table, parsing
// (go/parser for Go, tree-sitter for TypeScript, TSX, JavaScript, Python,
// Rust, Java and C), symbols with their fingerprints, imports and their
// resolution to files of the repository, and the incremental file index
// kept in the graph store.
//
// A language is a table entry (see NewTable): name, extensions, grammar,
// a selective tree walk for symbols, the embedded query files of package
// queries for imports, and an import resolver. Symbols are found by a walk
// that only descends where declarations can be, which costs less than a
// query cursor over the whole tree; imports use the queries. Only C has
// query files now. The walk reads JavaScript's and Python's import
// statements where it passes them; the imports that can sit anywhere
// (require("x"), import("x"), __import__("x"),
// importlib.import_module("x"), Rust's use, mod and extern crate in any
// block, Java's import declarations) are found by looking only where the
// source spells those words (see walker.eachWord): compiling a query
// against a large grammar visits every parse state of it while every
// parser of the language waits, and running one visits the whole tree.
// A new language can still start as a table entry and query files.
//
// A file past the parser's bounds (MaxTokens, MaxFingerprintWork,
// MaxNesting: minified or generated code, as a rule) is not indexed, and
// Update names it among the skipped files; they keep time linear in a
// file's size and memory bounded per file.
//
// Parsers read skeletons where a language has one: a copy of the file with
// what declares nothing left out but its line breaks, so lines are the
// file's, and offsets that map back to it. Go's keeps the top level with
// function bodies and literals left out (struct and interface bodies
// stay); Python's keeps everything but the statements inside functions
// that define, decorate and import nothing (and, in a class's __init__,
// assign no attribute of its first parameter: the attributes it assigns
// are the class's fields). Syntax errors inside left-out
// code are therefore not reported: a Diagnostic means the declarations
// themselves are damaged. Other languages are parsed whole.
//
// Where a grammar misreads what its compiler reads (macros it cannot
// expand, conditional compilation), a language's mask writes blanks over
// a copy of the file, keeping every line and offset, and tree-sitter
// parses the copy; fingerprints read the file itself. C reads its
// preprocessor as a compiler with no macro defined would where the two
// branches of a conditional cannot both be read (maskC); C++, C#,
// Kotlin and Bash have masks of their own.
//
// Fingerprints are exported for the verifier: HashText (exact text up to
// line endings and trailing blanks), Shape/ShapeOf/Tokens/RangeTokens
// (ordered non-comment tokens) and RangeFingerprint for line ranges and
// whole files. A Symbol's Hash and Shape equal RangeFingerprint of its
// lines; its Sig is the shape of its header only. Parse fills all three;
// the index keeps Hash only, so symbols read from it carry no Shape or
// Sig.
//
// Update brings the index up to date with any source (an fs.FS from
// package source, a txtar archive in tests) and records resolved imports
// as IMPORTS edges file:<a> → file:<b> (for a Go package import, to the
// package files that declare the names the importing file uses); Files,
// Symbols, AllSymbols, SymbolsByName, Enclosing, Imports, AllImports and
// Diagnostics read it back. Records are keyed by path and carry the
// content hash and the language's Version (schema, grammar and query
// files), so only changed files, and all files of a language whose
// queries changed, are parsed again.
package analyzer
