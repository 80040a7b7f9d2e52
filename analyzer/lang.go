package analyzer

import (
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/bash"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
	"github.com/smacker/go-tree-sitter/csharp"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/kotlin"
	"github.com/smacker/go-tree-sitter/lua"
	"github.com/smacker/go-tree-sitter/php"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/ruby"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/scala"
	"github.com/smacker/go-tree-sitter/swift"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"

	"github.com/lorehq/lore/queries"
)

// schemaVersion changes whenever extraction or the stored record format
// changes in a way that needs every file re-parsed.
const schemaVersion = "ax7"

// grammarVersion names the grammar set compiled into the binary.
const grammarVersion = "smacker-20240827"

// Language is one entry of the language table: how files of a language
// are recognised, parsed, walked for symbols and imports, and how their
// imports resolve to files of the repository.
type Language struct {
	Name       string   // "go", "python", …; also the queries directory
	Extensions []string // with the dot: ".py"

	grammar func() *sitter.Language      // nil: not a tree-sitter language
	walk    func(*walker, *node)         // symbol extraction (selective tree walk)
	imports func(*walker, string, *node) // one query capture → imports
	// wordImports, when set, finds imports at the words that introduce
	// them (see walker.eachWord) instead of by a query.
	wordImports func(*walker, *node)
	resolve     func(*resolver, *Import) []string // in-repo targets of an import
	attach      map[string]bool                   // sibling node types attached to the next declaration
	trimEnd     bool                              // end at the last non-comment token (Python)
	// asi: statements end at line breaks too (JavaScript), so a ";"
	// that begins a later line, as code written without semicolons
	// writes it before "(" or "[", begins the next statement's line.
	asi bool
	// skeleton, when set, squeezes out what extraction does
	// not read (keeping lines; q maps the offsets of a squeezed skeleton
	// back), so that tree-sitter parses less; ok false means parse the
	// source itself.
	skeleton func(path string, src, buf []byte, q *squeezed) (out []byte, ok bool)
	// mask, when set, writes over what the grammar cannot parse, keeping
	// offsets and lines; tree-sitter parses the masked copy.
	mask func(src, buf []byte) (out []byte, masked bool)
	// tags: symbols and imports come from the language's query files,
	// all compiled as one query (see tags.go), instead of a walk.
	tags bool
	// qualified are the separators of a qualified declared name
	// (C++'s Foo::bar, Lua's M.f); qualifiedMethods makes a qualified
	// function a method (C++'s out-of-line member definitions).
	qualified        []string
	qualifiedMethods bool
	// typeNamedCtors makes a method named as its type a constructor
	// (C++'s Circle::Circle).
	typeNamedCtors bool
	// wraps are the node types whose extent a declaration directly
	// inside them takes (C++'s template_declaration).
	wraps map[string]bool
	// trailers are the node types that follow a declaration as its
	// siblings and belong to it: Kotlin's getter and setter, which its
	// grammar reads beside the property they are written under.
	trailers map[string]bool
	// ownLine are the node types that declare a symbol only when they
	// start their line: a constructor's parameter beside others on one
	// line would be fingerprinted with all of them (a symbol is lines),
	// and drift whenever another is edited or a formatter breaks the
	// line.
	ownLine map[string]bool
	// serial, when set, is held around every parse: the grammar's
	// external scanner keeps its state in C globals (Lua's), which two
	// parses at once corrupt.
	serial *sync.Mutex
	// clean is parsed, under serial, before every parse: a text whose
	// parse leaves that state as a fresh process has it. The scanner
	// does not reset it when a parse starts, so a file that ended inside
	// a string (G') made the next file's block strings read as quoted
	// ones, and what a file yielded depended on the file parsed before.
	clean []byte

	once    sync.Once
	tsLang  *sitter.Language
	types   []string          // node type names by symbol (see node.Type)
	fields  map[string]uint16 // field ids by name (see node.ChildByFieldName)
	query   *sitter.Query
	roles   []captureRole // a tags language's captures
	qerr    error
	version string
}

// luaScanner serializes the Lua grammar's parses: its scanner's state
// is one per process, so the lock is too.
var luaScanner sync.Mutex

// parse parses text with tp, a parser set to l's grammar.
func (l *Language) parse(ctx context.Context, tp *sitter.Parser, text []byte) (*sitter.Tree, error) {
	if l.serial != nil {
		l.serial.Lock()
		defer l.serial.Unlock()
	}
	if l.clean != nil {
		t, err := tp.ParseCtx(ctx, nil, l.clean)
		if err != nil {
			return nil, err
		}
		t.Close()
	}
	return tp.ParseCtx(ctx, nil, text)
}

// Version identifies what produced an index record for this language:
// lore's schema, the grammar set and the language's query files. A change
// re-parses exactly the files of this language.
func (l *Language) Version() string {
	return l.version
}

// compiled returns the grammar and the compiled imports query, compiling
// them once per table.
func (l *Language) compiled() (*sitter.Language, *sitter.Query, error) {
	l.once.Do(func() {
		if l.grammar == nil {
			return
		}
		l.tsLang = l.grammar()
		l.types = make([]string, l.tsLang.SymbolCount())
		for i := range l.types {
			l.types[i] = l.tsLang.SymbolName(sitter.Symbol(i))
		}
		l.fields = map[string]uint16{}
		for id := 1; id < 1<<16; id++ {
			name := l.tsLang.FieldName(id)
			if name == "" {
				break
			}
			l.fields[name] = uint16(id)
		}
		var src []byte
		var starts []int // offsets in src where each file starts
		names := queries.Files(l.Name)
		for _, name := range names {
			b, err := queries.Read(l.Name, name)
			if err != nil {
				l.qerr = err
				return
			}
			if l.tags {
				// A tags language runs all its files as one query: one
				// pass over the tree.
				starts = append(starts, len(src))
				src = append(append(src, b...), '\n')
			} else if name == "imports.scm" {
				src, names, starts = b, []string{name}, []int{0}
			}
		}
		if src == nil {
			return
		}
		q, err := sitter.NewQuery(src, l.tsLang)
		if err != nil {
			file := names[0]
			var qe *sitter.QueryError
			if errors.As(err, &qe) {
				for i, s := range starts {
					if int(qe.Offset) >= s {
						file = names[i]
					}
				}
			}
			l.qerr = fmt.Errorf("queries/%s/%s: %w", l.Name, file, err)
			return
		}
		if l.tags {
			if l.roles, err = queryRoles(q); err != nil {
				q.Close()
				l.qerr = fmt.Errorf("queries/%s: %w", l.Name, err)
				return
			}
		}
		l.query = q
	})
	return l.tsLang, l.query, l.qerr
}

// Table is the set of languages lore understands, looked up by file name.
type Table struct {
	langs []*Language
	byExt map[string]*Language
}

// NewTable returns the default language table: Go (go/parser), and
// TypeScript, TSX, JavaScript, Python, Rust, Java, C, C++, C#, Ruby, PHP,
// Kotlin, Swift, Scala, Bash and Lua (tree-sitter).
func NewTable() *Table {
	cComments := map[string]bool{"comment": true}
	langs := []*Language{
		{Name: "go", Extensions: []string{".go"}, resolve: resolveGo},
		{Name: "typescript", Extensions: []string{".ts", ".mts", ".cts"}, grammar: typescript.GetLanguage,
			walk: walkJS, wordImports: callImportsJS, resolve: resolveJS, attach: map[string]bool{"comment": true, "decorator": true}, asi: true},
		{Name: "tsx", Extensions: []string{".tsx"}, grammar: tsx.GetLanguage,
			walk: walkJS, wordImports: callImportsJS, resolve: resolveJS, attach: map[string]bool{"comment": true, "decorator": true}, asi: true},
		{Name: "javascript", Extensions: []string{".js", ".jsx", ".mjs", ".cjs"}, grammar: javascript.GetLanguage,
			walk: walkJS, wordImports: callImportsJS, resolve: resolveJS, attach: map[string]bool{"comment": true, "decorator": true}, asi: true},
		{Name: "python", Extensions: []string{".py", ".pyi"}, grammar: python.GetLanguage,
			walk: walkPython, wordImports: callImportsPython, resolve: resolvePython, attach: cComments, trimEnd: true, skeleton: pySkeleton},
		{Name: "rust", Extensions: []string{".rs"}, grammar: rust.GetLanguage,
			walk: walkRust, wordImports: keywordImportsRust, resolve: resolveRust,
			attach: map[string]bool{"line_comment": true, "block_comment": true, "attribute_item": true}},
		{Name: "java", Extensions: []string{".java"}, grammar: java.GetLanguage,
			walk: walkJava, wordImports: keywordImportsJava, resolve: resolveJava,
			attach: map[string]bool{"line_comment": true, "block_comment": true}},
		{Name: "c", Extensions: []string{".c", ".h"}, grammar: c.GetLanguage,
			walk: walkC, imports: importsC, resolve: resolveC, attach: cComments, mask: maskC},
		// Languages below are table entries and query files (tags.go):
		// queries/<name>/tags.scm for symbols, imports.scm for imports.
		{Name: "cpp", Extensions: []string{".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tcc", ".inl"},
			grammar: cpp.GetLanguage, tags: true, resolve: resolveC,
			qualified: []string{"::"}, qualifiedMethods: true, typeNamedCtors: true, wraps: map[string]bool{"template_declaration": true}, mask: maskCpp},
		{Name: "csharp", Extensions: []string{".cs"}, grammar: csharp.GetLanguage, tags: true, resolve: resolveCSharp, mask: maskCSharp},
		{Name: "ruby", Extensions: []string{".rb", ".rake", ".gemspec"}, grammar: ruby.GetLanguage, tags: true,
			resolve: resolveRuby, qualified: []string{"::"}},
		{Name: "php", Extensions: []string{".php", ".phtml"}, grammar: php.GetLanguage, tags: true,
			imports: importsPHP, resolve: resolvePHP},
		{Name: "kotlin", Extensions: []string{".kt", ".kts"}, grammar: kotlin.GetLanguage, tags: true,
			imports: importsDotted, resolve: resolveJVM(".kt", ".java"), mask: maskKotlin,
			trailers: map[string]bool{"getter": true, "setter": true}, ownLine: map[string]bool{"class_parameter": true}},
		{Name: "swift", Extensions: []string{".swift"}, grammar: swift.GetLanguage, tags: true, qualified: []string{"."}},
		{Name: "scala", Extensions: []string{".scala", ".sc"}, grammar: scala.GetLanguage, tags: true,
			imports: importsDotted, resolve: resolveJVM(".scala", ".java"), ownLine: map[string]bool{"class_parameter": true}},
		{Name: "bash", Extensions: []string{".sh", ".bash"}, grammar: bash.GetLanguage, tags: true,
			imports: importsBash, resolve: resolveShell, mask: maskBash},
		{Name: "lua", Extensions: []string{".lua"}, grammar: lua.GetLanguage, tags: true,
			imports: importsLua, resolve: resolveLua, qualified: []string{".", ":"}, serial: &luaScanner, clean: []byte("_ = ''\n")},
	}
	t := &Table{langs: langs, byExt: map[string]*Language{}}
	for _, l := range langs {
		l.version = schemaVersion + "/" + grammarVersion + "/" + queries.Version(l.Name)
		if l.grammar == nil {
			// go2: lines as in the file under //line directives; go3:
			// positions of syntax errors and of declarations broken by
			// them read through the skeleton's offsets; go4: the named
			// fields of a declared struct type
			l.version = schemaVersion + "/go4"
		}
		if l.Name == "kotlin" {
			// kt1: fun interfaces read as interfaces, assignments through a
			// call as operations, object expressions without delegations
			// (maskKotlin)
			l.version += "+kt1"
		}
		if l.Name == "java" {
			// j1: enum constants, the methods of their bodies named
			// under them; j2: a record's components
			l.version += "+j2"
		}
		if l.Name == "python" {
			// py1: the attributes __init__ assigns to the instance
			l.version += "+py1"
		}
		if l.Name == "rust" {
			// rs1: the named fields of structs and unions
			l.version += "+rs1"
		}
		if l.Name == "typescript" || l.Name == "tsx" {
			// ts1: a constructor's parameter properties are fields
			l.version += "+ts1"
		}
		if l.Name == "javascript" || l.Name == "typescript" || l.Name == "tsx" {
			// d1: the names of a declaration written a line each have
			// their own lines; c1: computed names spelt without spaces
			l.version += "+d1+c1"
		}
		if l.Name == "c" || l.Name == "cpp" {
			// h1: a function whose header a macro split (`int CJSON_CDECL
			// main(void)`) is one symbol under its own name, a prototype a
			// macro split declares no variables (cSplit, spaceScoped); C
			// is parsed from a masked copy, as C++ is (maskC), and a
			// conditional's branches that leave parentheses open count
			// as those that leave braces open (maskCppBranches)
			l.version += "+h1"
		}
		if l.Name == "lua" {
			// lu1: each parse starts from a clean scanner (see clean): an
			// index made before read some files as the file parsed before
			// them left the scanner
			l.version += "+lu1"
		}
		if l.Name == "bash" {
			// sh1: lines inside a command substitution are code only where
			// its code is (the canonical stream reads it as code), so a
			// comment there attaches to a function declared after it
			l.version += "+sh1"
		}
		if l.tags {
			// t1: a value declared after code on its line (a
			// constructor's parameter) takes no comment above that line
			l.version += "+t1"
		}
		if l.Name == "c" {
			// a C header may be read as C++ (ForFile)
			l.version += "+" + queries.Version("cpp")
		}
		if l.Name == "c" || l.Name == "cpp" {
			// m1: maskCpp leaves a directive's macro calls alone and
			// blanks lines that are only a macro word and a macro after
			// a namespace's name (C's headers too: they may be read as
			// C++)
			l.version += "+m1"
		}
		for _, e := range l.Extensions {
			t.byExt[e] = l
		}
	}
	return t
}

// Languages returns the table's entries.
func (t *Table) Languages() []*Language { return append([]*Language(nil), t.langs...) }

// Lookup returns the language named name, or nil.
func (t *Table) Lookup(name string) *Language {
	for _, l := range t.langs {
		if l.Name == name {
			return l
		}
	}
	return nil
}

// ForFile returns the language of a file by its extension and, for a
// C header (.h), its text: a header that uses C++ syntax is C++.
func (t *Table) ForFile(p string, src []byte) *Language {
	l := t.ForPath(p)
	if l != nil && l.Name == "c" && strings.HasSuffix(p, ".h") && cppSyntax.Match(src) {
		if cpp := t.Lookup("cpp"); cpp != nil {
			return cpp
		}
	}
	return l
}

// cppSyntax matches what only C++ writes: a namespace or class body, a
// template, an access label, a qualified name.
var cppSyntax = regexp.MustCompile(`(?m)^[ \t]*(namespace\s+\w+\s*\{|template\s*<|class\s+\w+[^;()=]*\{|(public|private|protected)\s*:[^:])|\w::~?\w`)

// ForPath returns the language of a file by its extension, or nil.
func (t *Table) ForPath(p string) *Language {
	ext := path.Ext(p)
	if ext == "" {
		return nil
	}
	if l, ok := t.byExt[ext]; ok {
		return l
	}
	return t.byExt[strings.ToLower(ext)]
}
