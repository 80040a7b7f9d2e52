package analyzer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The oracle tests compare the analyzer with each language's own compiler
// on a real corpus. They are slow, so they run only with LORE_CORPUS=1,
// and skip with a message when the oracle's runtime is missing.
func corpusTest(t *testing.T) {
	t.Helper()
	if os.Getenv("LORE_CORPUS") == "" {
		t.Skip("corpus test: set LORE_CORPUS=1 to run")
	}
}

// tsOracleDir is where TestOracleTypeScript installs its npm corpus:
// $LORE_TS_ORACLE_DIR, or a directory under the OS temp dir reused
// between runs.
func tsOracleDir() string {
	if dir := os.Getenv("LORE_TS_ORACLE_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(os.TempDir(), "lore-ts-oracle")
}

// goEnv returns `go env key`, skipping the test when the go command is
// not found.
func goEnv(t *testing.T, key string) string {
	t.Helper()
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		t.Skipf("go env %s: %v (no go toolchain?)", key, err)
	}
	return strings.TrimSpace(string(out))
}

// pythonStdlib returns the directory of python3's standard library.
func pythonStdlib() (string, error) {
	out, err := exec.Command("python3", "-c", `import sysconfig;print(sysconfig.get_paths()["stdlib"])`).Output()
	return strings.TrimSpace(string(out)), err
}

// oracleSym is one declaration as the oracle sees it. Start lines agree
// when lore's start lies in [Lo, Hi]: Hi is the declaration's first line
// (its first decorator or annotation), Lo the first line of the comment
// block directly above it, which lore attaches to the symbol.
type oracleSym struct {
	Path, FQ string
	Lo, Hi   int
	End      int
}

type agreement struct {
	total, matched int
	missing        []string
	extra          int
}

// compare matches oracle symbols with lore's by FQName and lines; several
// symbols of one name (overloads) are matched in order.
func compare(oracle []oracleSym, lore []Symbol) agreement {
	var a agreement
	byFQ := map[string][]Symbol{}
	for _, s := range lore {
		byFQ[s.FQName] = append(byFQ[s.FQName], s)
	}
	for _, o := range oracle {
		a.total++
		cands := byFQ[o.FQ]
		hit := -1
		for i, s := range cands {
			if s.EndLine == o.End && s.StartLine >= o.Lo && s.StartLine <= o.Hi {
				hit = i
				break
			}
		}
		if hit < 0 {
			got := "none"
			if len(cands) > 0 {
				got = fmt.Sprintf("%d-%d", cands[0].StartLine, cands[0].EndLine)
			}
			a.missing = append(a.missing, fmt.Sprintf("%s [%d..%d]-%d got %s", o.FQ, o.Lo, o.Hi, o.End, got))
			continue
		}
		a.matched++
		byFQ[o.FQ] = append(cands[:hit], cands[hit+1:]...)
	}
	for _, rest := range byFQ {
		a.extra += len(rest)
	}
	return a
}

func (a agreement) report(t *testing.T, name string, min float64) {
	t.Helper()
	pct := 100 * float64(a.matched) / float64(max(a.total, 1))
	t.Logf("%s: %d of %d oracle symbols agree (%.3f%%); %d lore symbols not in the oracle", name, a.matched, a.total, pct, a.extra)
	for i, m := range a.missing {
		if i == 15 && os.Getenv("LORE_ORACLE_ALL") == "" {
			t.Logf("  … %d more", len(a.missing)-15)
			break
		}
		t.Logf("  missing %s", m)
	}
	if pct < min {
		t.Errorf("%s agreement %.3f%% < %.1f%%", name, pct, min)
	}
}

const pythonOracle = `
import ast, json, sys, os
root = sys.argv[1]
def comment_start(lines, first):
    i = first
    while i > 1 and lines[i - 2].strip().startswith('#'):
        i -= 1
    return i
for dirpath, dirnames, filenames in os.walk(root):
    dirnames[:] = sorted(d for d in dirnames if d not in ('site-packages', '__pycache__'))
    for fn in sorted(filenames):
        if not fn.endswith('.py'):
            continue
        p = os.path.join(dirpath, fn)
        rel = os.path.relpath(p, root)
        try:
            src = open(p, 'rb').read()
            tree = ast.parse(src)
            text = src.decode('utf-8')
        except Exception:
            continue
        if len(src) > 1 << 20:
            continue
        lines = text.split('\n')
        out = []
        def add(q, node, first):
            out.append(['::'.join([rel] + q), comment_start(lines, first), first, node.end_lineno])
        def target(stmt):
            if isinstance(stmt, ast.Assign):
                return stmt.targets[0]
            if isinstance(stmt, ast.AnnAssign):
                return stmt.target
            return None
        def visit(node, scope, in_def):
            # definitions at any depth; assignments to a name where they
            # are not local to a function
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    first = min([d.lineno for d in child.decorator_list] + [child.lineno])
                    q = scope + [child.name]
                    add(q, child, first)
                    is_class = isinstance(child, ast.ClassDef)
                    visit(child, q, not is_class)
                    if is_class:
                        instance(child, q)
                else:
                    t = target(child)
                    if not in_def and isinstance(t, ast.Name):
                        add(scope + [t.id], child, child.lineno)
                    visit(child, scope, in_def)
        def declared(node, names):
            # the names a class body declares, compound statements included
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(child.name)
                    continue
                t = target(child)
                if isinstance(t, ast.Name):
                    names.add(t.id)
                declared(child, names)
            return names
        def assigned(node, this, seen, q):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                    continue
                t = target(child)
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == this:
                    if t.attr not in seen:
                        seen.add(t.attr)
                        add(q + [t.attr], child, child.lineno)
                assigned(child, this, seen, q)
        def instance(cls, q):
            # the attributes each __init__ assigns to its first parameter
            seen = declared(cls, set())
            for d in cls.body:
                if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) and d.name == '__init__':
                    params = d.args.posonlyargs + d.args.args
                    if params:
                        assigned(d, params[0].arg, seen, q)
        visit(tree, [], False)
        print(json.dumps({'path': rel, 'syms': out}))
`

func TestOraclePython(t *testing.T) {
	corpusTest(t)
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed: no CPython ast oracle")
	}
	root, err := pythonStdlib()
	if err != nil {
		t.Skip("python3 stdlib not found:", err)
	}
	script := filepath.Join(t.TempDir(), "oracle.py")
	os.WriteFile(script, []byte(pythonOracle), 0o644)
	cmd := exec.Command(py, script, root)
	res, err := cmd.Output()
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	p := NewParser(nil)
	defer p.Close()
	var all agreement
	files := 0
	sc := bufio.NewScanner(bytes.NewReader(res))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var rec struct {
			Path string
			Syms [][4]any
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		rel := filepath.ToSlash(rec.Path)
		src, err := os.ReadFile(filepath.Join(root, rec.Path))
		if err != nil {
			t.Fatal(err)
		}
		f, err := p.Parse(rel, src)
		if err != nil {
			t.Fatal(err)
		}
		files++
		var oracle []oracleSym
		for _, s := range rec.Syms {
			fq := s[0].(string)
			fq = filepath.ToSlash(strings.SplitN(fq, "::", 2)[0]) + strings.TrimPrefix(fq, strings.SplitN(fq, "::", 2)[0])
			oracle = append(oracle, oracleSym{FQ: fq, Lo: int(s[1].(float64)), Hi: int(s[2].(float64)), End: int(s[3].(float64))})
		}
		var lore []Symbol
		for _, s := range f.Symbols {
			switch s.Kind {
			case KindFunction, KindMethod, KindClass, KindField, KindVariable, KindConstant:
				lore = append(lore, s)
			}
		}
		a := compare(oracle, lore)
		all.total += a.total
		all.matched += a.matched
		all.extra += a.extra
		all.missing = append(all.missing, a.missing...)
	}
	t.Logf("Python stdlib %s: %d files CPython accepts", root, files)
	perFile := map[string]int{}
	for _, m := range all.missing {
		perFile[strings.SplitN(m, "::", 2)[0]]++
	}
	for f, n := range perFile {
		t.Logf("  %s: %d missing", f, n)
	}
	all.report(t, "Python vs CPython ast", 99.9)
}

// TestOracleGo compares with a direct go/ast enumeration of the Go tree
// ($(go env GOROOT)/src) on every file go/parser accepts.
func TestOracleGo(t *testing.T) {
	corpusTest(t)
	root := filepath.Join(goEnv(t, "GOROOT"), "src")
	entries, _, err := Walk(context.Background(), os.DirFS(root), WalkOptions{MaxFileSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	p := NewParser(nil)
	defer p.Close()
	var all agreement
	files := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Path, ".go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, e.Path))
		if err != nil || isBinary(src) {
			continue
		}
		fset := token.NewFileSet()
		af, err := parser.ParseFile(fset, e.Path, src, parser.ParseComments)
		if err != nil {
			continue
		}
		files++
		var oracle []oracleSym
		line := func(p token.Pos) int { return fset.PositionFor(p, false).Line }
		addo := func(fq string, from, to token.Pos) {
			oracle = append(oracle, oracleSym{FQ: e.Path + "::" + fq, Lo: line(from), Hi: line(from), End: line(to - 1)})
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				from := d.Pos()
				if d.Doc != nil {
					from = d.Doc.Pos()
				}
				name := d.Name.Name
				if d.Recv != nil && len(d.Recv.List) == 1 {
					x := d.Recv.List[0].Type
				strip:
					for {
						switch ix := x.(type) {
						case *ast.ParenExpr:
							x = ix.X
						case *ast.StarExpr:
							x = ix.X
						case *ast.IndexExpr:
							x = ix.X
						case *ast.IndexListExpr:
							x = ix.X
						case *ast.SelectorExpr:
							x = ix.Sel
						default:
							break strip
						}
					}
					if id, ok := x.(*ast.Ident); ok {
						name = id.Name + "::" + name
					}
				}
				if d.Name.Name != "_" {
					addo(name, from, d.End())
				}
			case *ast.GenDecl:
				if d.Tok != token.TYPE {
					continue
				}
				for _, s := range d.Specs {
					ts := s.(*ast.TypeSpec)
					from, to := ts.Pos(), ts.End()
					if d.Lparen == token.NoPos {
						from, to = d.Pos(), d.End()
						if d.Doc != nil {
							from = d.Doc.Pos()
						}
					} else if ts.Doc != nil {
						from = ts.Doc.Pos()
					}
					if ts.Name.Name != "_" {
						addo(ts.Name.Name, from, to)
					}
					if st, ok := ts.Type.(*ast.StructType); ok && ts.Name.Name != "_" {
						for _, fl := range st.Fields.List {
							ffrom := fl.Pos()
							if fl.Doc != nil {
								ffrom = fl.Doc.Pos()
							}
							for _, n := range fl.Names {
								if n.Name != "_" {
									addo(ts.Name.Name+"::"+n.Name, ffrom, fl.End())
								}
							}
						}
					}
				}
			}
		}
		f, err := p.Parse(e.Path, src)
		if errors.Is(err, ErrTooDense) {
			// Past the parser's bounds, as the index skips it (the
			// walk's size limit, lifted here, skips it first).
			t.Logf("skipped, as the index does: %v", err)
			files--
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var lore []Symbol
		for _, s := range f.Symbols {
			switch s.Kind {
			case KindFunction, KindStruct, KindInterface, KindType, KindField:
				lore = append(lore, s)
			case KindMethod:
				if !isInterfaceMethod(f.Symbols, s) {
					lore = append(lore, s)
				}
			}
		}
		a := compare(oracle, lore)
		all.total += a.total
		all.matched += a.matched
		all.extra += a.extra
		all.missing = append(all.missing, a.missing...)
	}
	t.Logf("Go tree %s: %d files go/parser accepts", root, files)
	all.report(t, "Go vs go/ast", 100)
}

func isInterfaceMethod(syms []Symbol, m Symbol) bool {
	owner := strings.TrimSuffix(m.FQName, "::"+m.Name)
	for _, s := range syms {
		if s.FQName == owner && s.Kind == KindInterface && s.StartLine <= m.StartLine && m.EndLine <= s.EndLine {
			return true
		}
	}
	return false
}
