package analyzer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The oracle tests of the languages added as table entries compare the
// symbols lore reads with the ones each language's own parser reads, on
// code Debian packages (nobody here wrote it): Ruby's standard library
// (Ruby's parser), googletest's sources (clang's AST), Symfony and its
// dependencies (PHP's own AST through php-ast), the bash-completion
// scripts (shfmt's parser) and Penlight (luac). .ci/run installs them;
// a test whose oracle or corpus is missing skips and says so.
//
// Without LORE_CORPUS=1 each runs on a bounded sample of its corpus
// (every k-th file, at most a few hundred symbols' worth), so that CI
// stays quick; with it, on the whole corpus.

// oracleCorpus lists the files below root that keep, sorted; without
// LORE_CORPUS it keeps a spread sample of at most sample of them.
func oracleCorpus(t *testing.T, root string, sample int, keep func(rel string) bool) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, p)
			if keep(filepath.ToSlash(rel)) {
				files = append(files, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	if err != nil || len(files) == 0 {
		t.Skipf("corpus %s: no files (%v): install it (see .ci/run)", root, err)
	}
	sort.Strings(files)
	if os.Getenv("LORE_CORPUS") != "" || len(files) <= sample {
		return files
	}
	k := (len(files) + sample - 1) / sample
	var out []string
	for i := 0; i < len(files); i += k {
		out = append(out, files[i])
	}
	return out
}

// needTool skips the test when name is not installed.
func needTool(t *testing.T, name, what string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not installed: no %s oracle (.ci/run installs it)", name, what)
	}
	return p
}

// oracleRecord is one file as an oracle script prints it: its symbols as
// [fqname (path-less, :: separated), first line, last line].
type oracleRecord struct {
	Path string
	Syms [][3]any
}

// commentAbove is the first line of the block of comment lines (starting
// with one of prefixes) right above line first; lore attaches it.
func commentAbove(lines []string, first int, prefixes ...string) int {
	i := first
	for i > 1 {
		l := strings.TrimSpace(lines[i-2])
		ok := false
		for _, p := range prefixes {
			ok = ok || (l != "" && strings.HasPrefix(l, p))
		}
		if !ok {
			break
		}
		i--
	}
	return i
}

// oracleCompare parses each recorded file with lore (named name(rel))
// and compares its symbols of the given kinds with the oracle's.
func oracleCompare(t *testing.T, title, root string, recs []oracleRecord, name func(string) string, kinds map[string]bool, comments []string, min float64) {
	t.Helper()
	p := NewParser(nil)
	defer p.Close()
	var all agreement
	for _, rec := range recs {
		src, err := os.ReadFile(filepath.Join(root, rec.Path))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(src), "\n")
		path := name(rec.Path)
		var oracle []oracleSym
		for _, s := range rec.Syms {
			first := int(s[1].(float64))
			o := oracleSym{FQ: path + "::" + s[0].(string), Lo: first, Hi: first, End: int(s[2].(float64))}
			if first <= len(lines) {
				o.Lo = commentAbove(lines, first, comments...)
			}
			oracle = append(oracle, o)
		}
		f, err := p.Parse(path, src)
		if err != nil {
			t.Fatalf("%s: %v", rec.Path, err)
		}
		var lore []Symbol
		for _, s := range f.Symbols {
			if kinds[s.Kind] {
				lore = append(lore, s)
			}
		}
		a := compare(oracle, lore)
		all.total += a.total
		all.matched += a.matched
		all.extra += a.extra
		all.missing = append(all.missing, a.missing...)
	}
	t.Logf("%s: %d files", title, len(recs))
	_ = fmt.Sprint
	all.report(t, title, min)
}

// runOracle runs an oracle command that reads file paths (relative to
// root) on stdin and prints oracleRecords as JSON lines.
func runOracle(t *testing.T, root string, files []string, name string, args ...string) []oracleRecord {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = root
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oracle %s: %v\n%s", name, err, stderr.String())
	}
	var recs []oracleRecord
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r oracleRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("oracle output %q: %v", sc.Text(), err)
		}
		recs = append(recs, r)
	}
	return recs
}

func writeScript(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

var typeAndFuncKinds = map[string]bool{KindFunction: true, KindMethod: true, KindConstructor: true,
	KindClass: true, KindStruct: true, KindEnum: true, KindInterface: true, KindTrait: true, KindModule: true}

// rubyOracle reads each file with Ripper (which must accept it) and
// takes classes, modules and methods with their lines from Ruby's own
// parser (RubyVM::AbstractSyntaxTree; Ripper's events carry no end
// lines). class << self adds no name.
const rubyOracle = `
require 'json'
require 'ripper'
STDIN.each_line do |rel|
  rel = rel.chomp
  next if rel.empty?
  src = File.read(rel) rescue next
  next unless Ripper.sexp(src)
  ast = begin; RubyVM::AbstractSyntaxTree.parse(src); rescue SyntaxError; next; end
  out = []
  cname = lambda do |n|
    case n&.type
    when :COLON2 then [cname.(n.children[0]), n.children[1].to_s].compact.join('::')
    when :COLON3, :CONST then n.children[0].to_s
    end
  end
  walk = lambda do |n, scope|
    return unless n.is_a?(RubyVM::AbstractSyntaxTree::Node)
    case n.type
    when :CLASS, :MODULE
      q = scope + cname.(n.children[0]).split('::')
      out << [q.join('::'), n.first_lineno, n.last_lineno]
      n.children[1..].each { |c| walk.(c, q) }
      return
    when :DEFN, :DEFS
      k = n.type == :DEFN ? 0 : 1
      q = scope + [n.children[k].to_s]
      out << [q.join('::'), n.first_lineno, n.last_lineno]
      walk.(n.children[k + 1], q)
      return
    end
    n.children.each { |c| walk.(c, scope) }
  end
  walk.(ast, [])
  puts JSON.generate({Path: rel, Syms: out})
end
`

func rubyStdlib(t *testing.T) string {
	out, err := exec.Command("ruby", "-e", "print RbConfig::CONFIG['rubylibdir']").Output()
	if err != nil || len(out) == 0 {
		t.Skip("ruby's library directory not found")
	}
	return string(out)
}

// TestOracleRuby compares with Ruby's parser on Ruby's standard library.
func TestOracleRuby(t *testing.T) {
	rb := needTool(t, "ruby", "Ruby (Ripper)")
	root := rubyStdlib(t)
	files := oracleCorpus(t, root, 120, func(rel string) bool { return strings.HasSuffix(rel, ".rb") })
	recs := runOracle(t, root, files, rb, writeScript(t, "oracle.rb", rubyOracle))
	oracleCompare(t, "Ruby vs Ruby's parser (stdlib "+root+")", root, recs, func(p string) string { return p },
		typeAndFuncKinds, []string{"#"}, 99.5)
}

// phpOracle reads each file with PHP's own parser (the php-ast
// extension exports its AST): classes, interfaces, traits, enums,
// functions and methods with their first and last lines. Namespaces are
// not part of names.
const phpOracle = `<?php
while (($rel = fgets(STDIN)) !== false) {
    $rel = trim($rel);
    if ($rel === '') continue;
    try { $ast = ast\parse_file($rel, 90); } catch (Throwable $e) { continue; }
    $out = [];
    $walk = function ($n, $scope) use (&$walk, &$out) {
        if (!($n instanceof ast\Node)) {
            if (is_array($n)) foreach ($n as $c) $walk($c, $scope);
            return;
        }
        if (in_array($n->kind, [ast\AST_CLASS, ast\AST_FUNC_DECL, ast\AST_METHOD], true) && isset($n->children['name']) && is_string($n->children['name'])) {
            $q = array_merge($scope, [$n->children['name']]);
            $out[] = [implode('::', $q), $n->lineno, $n->endLineno];
            foreach ($n->children as $c) $walk($c, $q);
            return;
        }
        foreach ($n->children as $c) $walk($c, $scope);
    };
    $walk($ast, []);
    echo json_encode(['Path' => $rel, 'Syms' => $out]), "\n";
}
`

// TestOraclePHP compares with PHP's parser (php-ast) on the PHP packages
// Debian installs in /usr/share/php (Symfony and its dependencies).
func TestOraclePHP(t *testing.T) {
	php := needTool(t, "php", "PHP (php-ast)")
	if out, _ := exec.Command(php, "-m").Output(); !bytes.Contains(out, []byte("\nast\n")) {
		t.Skip("php-ast not installed: no PHP parser oracle (.ci/run installs php-ast)")
	}
	root := "/usr/share/php"
	files := oracleCorpus(t, root, 141, func(rel string) bool { return strings.HasSuffix(rel, ".php") })
	recs := runOracle(t, root, files, php, writeScript(t, "oracle.php", phpOracle))
	oracleCompare(t, "PHP vs php-ast ("+root+")", root, recs, func(p string) string { return p },
		typeAndFuncKinds, []string{"//", "#", "/*", "*"}, 99.5)
}

// bashOracle reads each file with shfmt's parser (its --tojson AST):
// function declarations, nested ones named under their outer function.
const bashOracle = `
import json, subprocess, sys
for rel in sys.stdin.read().split():
    try:
        out = subprocess.run(['shfmt', '-ln', 'bash', '--tojson'], stdin=open(rel, 'rb'), capture_output=True, check=True).stdout
    except Exception:
        continue
    syms = []
    def walk(n, scope):
        if isinstance(n, dict):
            if n.get('Type') == 'FuncDecl':
                q = scope + [n['Name']['Value']]
                # shfmt 3.6 reads f() { …; } && cmd as a function whose body
                # is the && list: the function ends with the list's first part
                # (and a function defined after the && as nested in it)
                body = n['Body']
                while True:
                    body = body.get('Cmd', body)
                    if body.get('Type') != 'BinaryCmd':
                        break
                    walk(body['Y'], scope)
                    body = body['X']
                syms.append(['::'.join(q), n['Pos']['Line'], body['End']['Line']])
                walk(body, q)
                return
            for v in n.values():
                walk(v, scope)
        elif isinstance(n, list):
            for v in n:
                walk(v, scope)
    walk(json.loads(out), [])
    print(json.dumps({'Path': rel, 'Syms': syms}))
`

// TestOracleBash compares with shfmt's parser on Debian's
// bash-completion scripts.
func TestOracleBash(t *testing.T) {
	needTool(t, "shfmt", "shell (shfmt)")
	py := needTool(t, "python3", "shell (shfmt, read by python3)")
	root := "/usr/share/bash-completion"
	files := oracleCorpus(t, root, 200, func(rel string) bool {
		return strings.HasPrefix(rel, "completions/") || strings.HasSuffix(rel, ".sh") || rel == "bash_completion"
	})
	recs := runOracle(t, root, files, py, writeScript(t, "oracle.py", bashOracle))
	oracleCompare(t, "Bash vs shfmt ("+root+")", root, recs, func(p string) string { return p + ".bash" },
		map[string]bool{KindFunction: true}, []string{"#"}, 99.5)
}

// luaOracle lists each file's functions with luac (their first and last
// lines), keeping those the source names where they start: function
// a.b:c(…), local function f(…), and name = function(…).
const luaOracle = `
import json, re, subprocess, sys
head = re.compile(r'^\s*(local\s+)?function\s+([\w.:]+)\s*\(|^\s*(local\s+)?([\w.]+)\s*=\s*function\s*\(')
for rel in sys.stdin.read().split():
    r = subprocess.run([sys.argv[1], '-p', '-l', rel], capture_output=True, text=True)
    if r.returncode != 0:
        continue
    src = open(rel, encoding='utf-8', errors='replace').read().split('\n')
    funcs = []
    for m in re.finditer(r'^function <[^:]*:(\d+),(\d+)>', r.stdout, re.M):
        a, b = int(m.group(1)), int(m.group(2))
        h = head.match(src[a - 1]) if a <= len(src) else None
        if h:
            funcs.append((a, -b, re.sub(r'[.:]', '::', h.group(2) or h.group(4))))
    # a function named inside another is named under it
    syms, stack = [], []
    for a, nb, name in sorted(funcs):
        while stack and stack[-1][1] < -nb:
            stack.pop()
        q = (stack[-1][0] + '::' if stack else '') + name
        syms.append([q, a, -nb])
        stack.append((q, -nb))
    print(json.dumps({'Path': rel, 'Syms': syms}))
`

// TestOracleLua compares with luac on Penlight, as Debian installs it.
func TestOracleLua(t *testing.T) {
	luac := needTool(t, "luac5.4", "Lua (luac)")
	py := needTool(t, "python3", "Lua (luac, read by python3)")
	root := "/usr/share/lua"
	files := oracleCorpus(t, root, 160, func(rel string) bool { return strings.HasSuffix(rel, ".lua") })
	recs := runOracle(t, root, files, py, writeScript(t, "oracle.py", luaOracle), luac)
	oracleCompare(t, "Lua vs luac ("+root+")", root, recs, func(p string) string { return p },
		map[string]bool{KindFunction: true, KindMethod: true}, []string{"--"}, 99.5)
}

// cppOracle reads each file with clang (its C API, libclang, through
// Debian's python3-clang) and takes the definitions written in the file
// itself: functions and methods with a body (or pure virtual), classes,
// structs, unions and enums with one, and their templates. A name is
// qualified by its semantic parents (namespaces, not anonymous ones, and
// records), which is what the file writes, lexically or by qualifiers. A
// declaration a macro makes (a googletest TEST) is not one the file
// writes: the text where clang places it is not its name.
const cppOracle = `
import json, sys
import clang.cindex as ci
ci.Config.set_library_file(sys.argv[1])
flags = sys.argv[2:]
K = ci.CursorKind
FUNCS = {K.FUNCTION_DECL, K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR, K.CONVERSION_FUNCTION, K.FUNCTION_TEMPLATE}
RECORDS = {K.CLASS_DECL, K.STRUCT_DECL, K.UNION_DECL, K.ENUM_DECL, K.CLASS_TEMPLATE, K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION}
NEST = {K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL} | RECORDS
index = ci.Index.create()
def qual(c):
    out = []
    p = c.semantic_parent
    while p is not None and p.kind != K.TRANSLATION_UNIT:
        if p.kind in RECORDS or (p.kind == K.NAMESPACE and p.spelling):
            out.append(p.spelling)
        p = p.semantic_parent
    return out[::-1]
for rel in sys.stdin.read().split():
    try:
        tu = index.parse(rel, args=['-x', 'c++', '-std=c++17'] + flags)
    except ci.TranslationUnitLoadError:
        continue
    lines = open(rel, encoding='utf-8', errors='replace').read().split('\n')
    syms = []
    def walk(c):
        for k in c.get_children():
            f = k.location.file
            if f is None or f.name != rel:
                continue
            body = k.is_definition() or (k.kind == K.CXX_METHOD and k.is_pure_virtual_method())
            if (k.kind in FUNCS or k.kind in RECORDS) and k.spelling and body:
                line, col = k.location.line, k.location.column
                name = k.spelling if k.spelling.startswith('operator') and not k.spelling.startswith('operator ') else k.spelling.split('<')[0]
                written = 0 < line <= len(lines) and lines[line - 1][col - 1:].replace(' ', '').startswith(name.replace(' ', ''))
                if written:
                    syms.append(['::'.join(qual(k) + [name]), k.extent.start.line, k.extent.end.line])
            if k.kind in NEST:
                walk(k)
    walk(tu.cursor)
    print(json.dumps({'Path': rel, 'Syms': syms}))
`

// TestOracleCpp compares with clang's AST on googletest's sources, as
// Debian's libgtest-dev installs them.
func TestOracleCpp(t *testing.T) {
	libclang := "/usr/lib/llvm-14/lib/libclang-14.so.1"
	py := "/usr/bin/python3" // Debian's, which python3-clang-14 installs into
	if _, err := os.Stat(libclang); err != nil {
		t.Skip("libclang not installed: no C++ oracle (.ci/run installs python3-clang-14)")
	}
	if exec.Command(py, "-c", "import clang.cindex").Run() != nil {
		t.Skip("python3-clang-14 not installed: no C++ oracle (.ci/run installs it)")
	}
	root := "/usr/src/googletest"
	files := oracleCorpus(t, root, 4, func(rel string) bool {
		return (strings.HasSuffix(rel, ".cc") || strings.HasSuffix(rel, ".h")) && !strings.HasSuffix(rel, "-all.cc")
	})
	var flags []string
	for _, d := range []string{"googletest", "googletest/include", "googlemock", "googlemock/include"} {
		flags = append(flags, "-I"+filepath.Join(root, d))
	}
	recs := runOracle(t, root, files, py, append([]string{writeScript(t, "oracle.py", cppOracle), libclang}, flags...)...)
	oracleCompare(t, "C++ vs clang ("+root+")", root, recs, func(p string) string { return p },
		map[string]bool{KindFunction: true, KindMethod: true, KindConstructor: true, KindClass: true, KindStruct: true, KindEnum: true},
		[]string{"//", "/*", "*"}, 99.5)
}
