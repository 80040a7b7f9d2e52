// The TypeScript and JavaScript oracle of bench/history: the TypeScript
// compiler's parser reads the declarations of a file. Run as
// `node -e SCRIPT TYPESCRIPT_DIR`. One request a line on stdin, a JSON
// object {"path": ..., "src": base64 of the file}; one answer a line on
// stdout, {"ok": false} when the file does not parse, else {"ok": true,
// "decls": [[name, tree], ...]}: every function, class, interface, type
// alias, enum, namespace and variable of a statement list of the module
// (or of a namespace), the members of classes (methods, constructors,
// accessors, properties) and the method signatures of interfaces, named
// as lore names them ("f", "C::m", "NS::f"). Methods of object literals
// are left out (their names follow rules of lore's own). An exported
// declaration has a third element: its tree without the export, as it is
// compared when it moved to another module.
//
// A tree is the syntax tree without positions, trivia or what lore's
// hash defines as layout (docs/fingerprints.md): comments and JSDoc,
// parentheses (the tree's shape holds the grouping; a chain of "&&", "||"
// or "??" is one list, as they associate), semicolons, empty
// statements and class elements, trailing commas, quotes (a string is its
// value), a key's quotes (`"a": 1` is `a: 1`), number spellings (a number
// is its value), a regular expression's flag order, blanks at line ends
// inside a template, and the layout of JSX text (lines trimmed, joined by
// one blank, as JSX reads them).
const ts = require(process.argv[1]);
const readline = require('readline');

const K = ts.SyntaxKind;
const F = ts.NodeFlags;
const kept = F.Let | F.Const | F.Using | F.OptionalChain;
const skipped = new Set([K.EmptyStatement, K.SemicolonClassElement]);
const lists = new Set([K.Block, K.SourceFile, K.ModuleBlock, K.CaseClause, K.DefaultClause, K.ClassDeclaration, K.ClassExpression]);

// "&&", "||" and "??" associate: "a || (b || c)" evaluates as "(a || b)
// || c" does, so a chain of one of them is a list of its operands.
const associative = new Set([K.AmpersandAmpersandToken, K.BarBarToken, K.QuestionQuestionToken]);

function unparen(n) {
  while (ts.isParenthesizedExpression(n) || ts.isParenthesizedTypeNode(n)) n = n.expression || n.type;
  return n;
}

function operands(n, op) {
  n = unparen(n);
  if (ts.isBinaryExpression(n) && n.operatorToken.kind === op) return [...operands(n.left, op), ...operands(n.right, op)];
  return [n];
}

function isName(n) {
  const p = n.parent;
  return p && p.name === n && !ts.isBindingElement(p);
}

function jsxText(t) {
  const ls = t.split(/\r\n|\r|\n/);
  if (ls.length === 1) return t;
  return ls.map((l, i) => (i === 0 ? l.trimEnd() : i === ls.length - 1 ? l.trimStart() : l.trim())).filter(Boolean).join(' ');
}

// tree writes n as text, in parentheses: its kind, what it holds that is
// not a child node (an operator, a name, a value), then its children,
// lists bracketed, but those of kind omit.
// A declaration's or a property's name is a Key, however it is spelled.
function tree(n, out, omit) {
  n = unparen(n);
  if (skipped.has(n.kind) && n.parent && lists.has(n.parent.kind)) return;
  if (ts.isBinaryExpression(n) && associative.has(n.operatorToken.kind)) {
    out.push('(Chain', K[n.operatorToken.kind], '[');
    for (const e of operands(n, n.operatorToken.kind)) tree(e, out);
    out.push('])');
    return;
  }
  if (n.kind === K.JsxText && n.containsOnlyTriviaWhiteSpaces) return;
  out.push('(' + K[n.kind]);
  const num = (t) => String(Number(t.replace(/_/g, '')));
  if ((n.kind === K.Identifier || n.kind === K.StringLiteral || n.kind === K.NumericLiteral) && isName(n)) {
    out.pop();
    out.push('(Key', n.kind === K.NumericLiteral ? num(n.text) : n.text);
  } else switch (n.kind) {
    case K.Identifier:
    case K.PrivateIdentifier:
      out.push(n.text);
      break;
    case K.StringLiteral:
      out.push(JSON.stringify(n.text));
      break;
    case K.NumericLiteral:
      out.push(num(n.text));
      break;
    case K.BigIntLiteral:
      out.push(n.text);
      break;
    case K.RegularExpressionLiteral: {
      const at = n.text.lastIndexOf('/');
      out.push(n.text.slice(0, at + 1) + [...n.text.slice(at + 1)].sort().join(''));
      break;
    }
    case K.NoSubstitutionTemplateLiteral:
    case K.TemplateHead:
    case K.TemplateMiddle:
    case K.TemplateTail:
      out.push(JSON.stringify((n.rawText !== undefined ? n.rawText : n.text).replace(/[ \t]+(?=\r?\n)/g, '')));
      break;
    case K.JsxText:
      out.push(JSON.stringify(jsxText(n.text)));
      break;
  }
  for (const f of ['operator', 'token', 'keywordToken']) if (typeof n[f] === 'number') out.push(K[n[f]]);
  for (const f of ['isTypeOf', 'isTypeOnly', 'isExportEquals']) if (n[f]) out.push(f);
  if (n.flags & kept) out.push('flags' + (n.flags & kept));
  ts.forEachChild(n, (c) => { if (c.kind !== omit) tree(c, out); }, (cs) => {
    const kept = cs.filter((c) => c.kind !== omit);
    if (kept.length === 0 && cs.length > 0) return; // as if none were written
    out.push('[');
    for (const c of kept) tree(c, out);
    out.push(']');
  });
  out.push(')');
}

function answer(req) {
  const p = req.path;
  const text = Buffer.from(req.src, 'base64').toString('utf8');
  const kind = /\.tsx$/.test(p) ? ts.ScriptKind.TSX : /\.jsx$/.test(p) ? ts.ScriptKind.JSX : /\.[mc]?js$/.test(p) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(p, text, ts.ScriptTarget.Latest, true, kind);
  if (sf.parseDiagnostics && sf.parseDiagnostics.length) return { ok: false };
  const out = [];
  const add = (scope, name, n) => {
    const t = [];
    tree(n, t);
    const d = [[...scope, name].join('::'), t.join(' ')];
    const mods = ts.canHaveModifiers(n) && ts.getModifiers(n);
    if (mods && mods.some((m) => m.kind === K.ExportKeyword)) {
      // moved to another module, a declaration is exported or not as
      // the imports need: compared without its export
      const u = [];
      tree(n, u, K.ExportKeyword);
      d.push(u.join(' '));
    }
    out.push(d);
  };
  const nameOf = (n) => (n.name ? n.name.text !== undefined ? n.name.text : n.name.getText(sf) : 'default');
  function members(scope, node, iface) {
    for (const m of node.members) {
      if (iface) {
        if (ts.isMethodSignature(m)) add(scope, nameOf(m), m);
      } else if (ts.isConstructorDeclaration(m)) add(scope, 'constructor', m);
      else if (ts.isMethodDeclaration(m) || ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m) || ts.isPropertyDeclaration(m)) add(scope, nameOf(m), m);
    }
  }
  function stmts(scope, list) {
    for (const s of list) {
      if (ts.isFunctionDeclaration(s)) add(scope, nameOf(s), s);
      else if (ts.isClassDeclaration(s)) {
        add(scope, nameOf(s), s);
        members([...scope, nameOf(s)], s, false);
      } else if (ts.isInterfaceDeclaration(s)) {
        add(scope, s.name.text, s);
        members([...scope, s.name.text], s, true);
      } else if (ts.isTypeAliasDeclaration(s) || ts.isEnumDeclaration(s)) add(scope, s.name.text, s);
      else if (ts.isModuleDeclaration(s) && !ts.isStringLiteral(s.name) && s.name.text !== 'global') {
        let name = s.name.text;
        let body = s.body;
        while (body && ts.isModuleDeclaration(body)) {
          name += '.' + body.name.text;
          body = body.body;
        }
        add(scope, name, s);
        if (body && body.statements) stmts([...scope, name], body.statements);
      } else if (ts.isVariableStatement(s) && s.declarationList.declarations.length === 1) {
        const d = s.declarationList.declarations[0];
        if (ts.isIdentifier(d.name)) add(scope, d.name.text, s);
      }
    }
  }
  stmts([], sf.statements);
  return { ok: true, decls: out };
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  let ans;
  try {
    ans = answer(JSON.parse(line));
  } catch (e) {
    if (!(e instanceof RangeError)) throw e; // too deep to walk
    ans = { ok: false };
  }
  process.stdout.write(JSON.stringify(ans) + '\n');
});
