package analyzer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tsOracle lists declarations the way lore names them, using the
// TypeScript compiler API. Normalisations: class members are methods,
// constructors, accessors and properties; interface members only method
// signatures; module-level variables one per declared identifier with the
// statement's lines (several names, each after the first on a line of its
// own: lines of their own); anonymous default exports are named "default";
// `declare global` blocks are transparent. Methods defined in object
// literals are members of the variable or assignment target that holds
// the literal (or the call that takes it): x::m for `const x = { m() {} }`,
// a::b::f for `a.b.f = function…`, Foo::m for `Foo.prototype.m = …`; a
// nested literal that defines methods is a member too.
const tsOracle = `
const ts = require(process.argv[2]);
const fs = require('fs');
const path = require('path');
const root = process.argv[3];
const files = fs.readFileSync(0, 'utf8').split('\n').filter(Boolean);
function lineOf(sf, pos) { return sf.getLineAndCharacterOfPosition(pos).line + 1; }
for (const rel of files) {
  const text = fs.readFileSync(path.join(root, rel), 'utf8');
  const kind = rel.endsWith('.tsx') ? ts.ScriptKind.TSX : rel.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, kind);
  if (sf.parseDiagnostics && sf.parseDiagnostics.length) continue;
  const lines = text.split('\n');
  const out = [];
  const isComment = (s) => { s = s.trim(); return s.startsWith('//') || s.startsWith('/*') || s.startsWith('*'); };
  function add(scope, name, node) { addSpan(scope, name, node, node); }
  function addSpan(scope, name, from, to) {
    const hi = lineOf(sf, from.getStart(sf));
    let lo = lineOf(sf, from.getStart(sf, true));
    while (lo > 1 && isComment(lines[lo - 2])) lo--;
    out.push([[rel, ...scope, name].join('::'), Math.min(lo, hi), hi, lineOf(sf, to.end)]);
  }
  const ownLine = (n) => { const s = n.getStart(sf); const ls = text.lastIndexOf('\n', s - 1) + 1; return text.slice(ls, s).trim() === ''; };
  const nameOf = (n) => n.name ? (ts.isComputedPropertyName(n.name) ? n.name.getText(sf).replace(/\s+/g, (m, at, t) => /\w/.test(t[at - 1]) && /\w/.test(t[at + m.length]) ? ' ' : '') : (n.name.text !== undefined ? n.name.text : n.name.getText(sf))) : 'default';
  function members(scope, node, iface) {
    for (const m of node.members) {
      if (iface) { if (ts.isMethodSignature(m)) add(scope, nameOf(m), m); continue; }
      if (ts.isConstructorDeclaration(m)) {
        add(scope, 'constructor', m);
        // lore's policy: a parameter property on a line of its own.
        for (const p of m.parameters) if (ts.isParameterPropertyDeclaration(p, m) && ts.isIdentifier(p.name) && ownLine(p)) add(scope, p.name.text, p);
      } else if (ts.isMethodDeclaration(m) || ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m) || ts.isPropertyDeclaration(m)) add(scope, nameOf(m), m);
    }
  }
  function stmts(scope, list) {
    for (const s of list) {
      if (ts.isFunctionDeclaration(s)) add(scope, nameOf(s), s);
      else if (ts.isClassDeclaration(s)) { const n = nameOf(s); add(scope, n, s); members([...scope, n], s, false); }
      else if (ts.isInterfaceDeclaration(s)) { add(scope, s.name.text, s); members([...scope, s.name.text], s, true); }
      else if (ts.isTypeAliasDeclaration(s) || ts.isEnumDeclaration(s)) add(scope, s.name.text, s);
      else if (ts.isModuleDeclaration(s)) {
        if (s.name.text === 'global' && !ts.isStringLiteral(s.name)) { if (s.body && s.body.statements) stmts(scope, s.body.statements); continue; }
        let name = s.name.text, body = s.body;
        while (body && ts.isModuleDeclaration(body)) { name += '.' + body.name.text; body = body.body; }
        add(scope, name, s);
        if (body && body.statements) stmts([...scope, name], body.statements);
      } else if (ts.isVariableStatement(s)) {
        // lore's policy: several names, each after the first on a line of
        // its own, have their own lines (the first from the statement's
        // start, the last to its end); otherwise each the statement's.
        const ds = s.declarationList.declarations;
        const split = ds.length > 1 && ds.slice(1).every(ownLine);
        ds.forEach((d, i) => {
          if (!ts.isIdentifier(d.name)) return;
          if (split) addSpan(scope, d.name.text, i === 0 ? s : d, i === ds.length - 1 ? s : d);
          else add(scope, d.name.text, s);
          literal([...scope, d.name.text], d.initializer);
        });
      } else if (ts.isExpressionStatement(s) && ts.isBinaryExpression(s.expression) && s.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
        assign(scope, s, s.expression);
      } else if (ts.isExpressionStatement(s)) {
        call(scope, s.expression);
      } else if (ts.isExportAssignment(s) && !s.isExportEquals && hasMembers(s.expression)) {
        add(scope, 'default', s); literal([...scope, 'default'], s.expression);
      }
    }
  }
  // Methods of object literals: a variable's initializer or an assignment's
  // value, or the object arguments of a call there (Base.extend({…})).
  const isFn = (e) => e && (ts.isFunctionExpression(e) || ts.isArrowFunction(e));
  const valueOf = (e) => { while (e && ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken) e = e.right; return e; };
  const multiline = (n) => lineOf(sf, n.getStart(sf)) !== lineOf(sf, n.end);
  const isLiteral = (e) => ts.isObjectLiteralExpression(e) && multiline(e);
  const literals = (e) => { e = valueOf(e); if (!e) return []; if (isLiteral(e)) return [e]; if ((ts.isCallExpression(e) || ts.isNewExpression(e)) && e.arguments) return e.arguments.filter(isLiteral); return []; };
  // The body of a function that wraps a whole module (module.exports =
  // function(…) {…}, an IIFE, AMD's define) is the module's top level.
  const wrapped = (scope, fn) => { if (isFn(fn) && fn.body && ts.isBlock(fn.body) && multiline(fn.body)) stmts(scope, fn.body.statements); };
  const pathOf = (t) => {
    const path = [];
    for (; ts.isPropertyAccessExpression(t); t = t.expression) {
      if (ts.isIdentifier(t.expression) && t.expression.text === 'module' && t.name.text === 'exports') return path;
      if (t.name.text !== 'prototype') path.unshift(t.name.text);
    }
    if (!ts.isIdentifier(t)) return null;
    if (t.text !== 'exports') path.unshift(t.text);
    return path;
  };
  function call(scope, e) {
    while (ts.isParenthesizedExpression(e) || ts.isPrefixUnaryExpression(e) || ts.isVoidExpression(e)) e = ts.isPrefixUnaryExpression(e) ? e.operand : e.expression;
    if (!ts.isCallExpression(e)) return;
    let callee = e.expression;
    while (ts.isParenthesizedExpression(callee)) callee = callee.expression;
    if (ts.isPropertyAccessExpression(callee) && (callee.name.text === 'call' || callee.name.text === 'apply') && ts.isParenthesizedExpression(callee.expression)) callee = callee.expression.expression;
    if (isFn(callee)) return wrapped(scope, callee);
    if (ts.isIdentifier(e.expression) && e.expression.text === 'define' && e.arguments.length) return wrapped(scope, e.arguments[e.arguments.length - 1]);
    if (ts.isPropertyAccessExpression(e.expression) && ['assign', 'extend', 'mixin'].includes(e.expression.name.text) && e.arguments.length >= 2) {
      const p = pathOf(e.arguments[0]);
      if (p && p.length) for (const a of e.arguments.slice(1)) literal([...scope, ...p], a);
    }
  }
  const hasMembers = (e) => literals(e).some((o) => o.properties.some((p) => ts.isMethodDeclaration(p) || ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p) || (ts.isPropertyAssignment(p) && (isFn(p.initializer) || ts.isObjectLiteralExpression(p.initializer) && hasMembers(p.initializer)))));
  function literal(scope, init) {
    for (const o of literals(init)) for (const p of o.properties) {
      if (ts.isMethodDeclaration(p) || ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p)) add(scope, nameOf(p), p);
      else if (ts.isPropertyAssignment(p) && isFn(p.initializer)) add(scope, nameOf(p), p);
      else if (ts.isPropertyAssignment(p) && ts.isObjectLiteralExpression(p.initializer) && hasMembers(p.initializer)) { add(scope, nameOf(p), p); literal([...scope, nameOf(p)], p.initializer); }
    }
  }
  // a.b.f = function…, Foo.prototype.m = …, x.y = {…}: a path of names,
  // the prototype being its class, module.exports and exports the module.
  function assign(scope, stmt, e) {
    const path = pathOf(e.left);
    const proto = ts.isPropertyAccessExpression(e.left) && e.left.name.text === 'prototype';
    const v = valueOf(e.right);
    if (!path || !v || proto && path.length === 0) return;
    if (path.length === 0) { if (isFn(v)) wrapped(scope, v); else literal(scope, v); return; }
    const name = path.pop();
    if (isFn(v)) add([...scope, ...path], name, stmt);
    else if (hasMembers(v)) { if (!proto) add([...scope, ...path], name, stmt); literal([...scope, ...path, name], v); }
  }
  stmts([], sf.statements);
  process.stdout.write(JSON.stringify({path: rel, syms: out}) + '\n');
}
`

// TestOracleTypeScript installs typescript@5.9 and corpora (rxjs's
// TypeScript sources, Node's type declarations, express's and jQuery's
// JavaScript sources) from npm into $LORE_TS_ORACLE_DIR (default: a
// directory under the OS temp dir, reused between runs) and compares
// declarations.
func TestOracleTypeScript(t *testing.T) {
	corpusTest(t)
	node, err1 := exec.LookPath("node")
	npm, err2 := exec.LookPath("npm")
	if err1 != nil || err2 != nil {
		t.Skip("node/npm not installed: no TypeScript compiler oracle")
	}
	dir := tsOracleDir()
	tsPath := filepath.Join(dir, "node_modules", "typescript")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "jquery", "src")); err != nil {
		os.MkdirAll(dir, 0o755)
		cmd := exec.Command(npm, "install", "--no-audit", "--no-fund", "--prefix", dir, "typescript@5.9", "rxjs@7.8.2", "@types/node@22", "express@4.21.2", "jquery@3.7.1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("npm install failed (offline?): %v\n%s", err, out)
		}
	}
	var all agreement
	// express's lib is CommonJS JavaScript (methods assigned to objects
	// and prototypes, literals of methods), jQuery's src AMD modules.
	for _, corpus := range []string{filepath.Join(dir, "node_modules", "rxjs", "src"), filepath.Join(dir, "node_modules", "@types", "node"), filepath.Join(dir, "node_modules", "express", "lib"), filepath.Join(dir, "node_modules", "jquery", "src")} {
		a := tsCorpus(t, node, tsPath, corpus)
		all.total += a.total
		all.matched += a.matched
		all.extra += a.extra
		all.missing = append(all.missing, a.missing...)
	}
	all.report(t, "TypeScript and JavaScript vs typescript@5.9 (all corpora)", 99.5)
}

func tsCorpus(t *testing.T, node, tsPath, corpus string) agreement {
	entries, _, err := Walk(context.Background(), os.DirFS(corpus), WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var list []string
	for _, e := range entries {
		if strings.HasSuffix(e.Path, ".ts") || strings.HasSuffix(e.Path, ".tsx") || strings.HasSuffix(e.Path, ".js") {
			list = append(list, e.Path)
		}
	}
	script := filepath.Join(t.TempDir(), "oracle.js")
	os.WriteFile(script, []byte(tsOracle), 0o644)
	cmd := exec.Command(node, script, tsPath, corpus)
	cmd.Stdin = strings.NewReader(strings.Join(list, "\n"))
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
		src, err := os.ReadFile(filepath.Join(corpus, rec.Path))
		if err != nil {
			t.Fatal(err)
		}
		f, err := p.Parse(rec.Path, src)
		if err != nil {
			t.Fatal(err)
		}
		files++
		var oracle []oracleSym
		for _, s := range rec.Syms {
			oracle = append(oracle, oracleSym{FQ: s[0].(string), Lo: int(s[1].(float64)), Hi: int(s[2].(float64)), End: int(s[3].(float64))})
		}
		a := compare(oracle, f.Symbols)
		all.total += a.total
		all.matched += a.matched
		all.extra += a.extra
		all.missing = append(all.missing, a.missing...)
	}
	t.Logf("corpus %s: %d files tsc parses without diagnostics", corpus, files)
	all.report(t, "  "+filepath.Base(filepath.Dir(corpus))+"/"+filepath.Base(corpus), 0)
	return all
}
