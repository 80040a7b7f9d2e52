// The Java oracle of bench/history: javac's own parser (the compiler
// tree API of the JDK) reads the declarations of a file. Run as `java
// FILE` (a program in one source file). One request a line on stdin, a
// JSON object {"path": ..., "src": base64 of the file}; one answer a line
// on stdout, {"ok": false} when the file does not parse, else {"ok":
// true, "decls": [[name, tree, "", key], ...]}: every class, interface, enum,
// record and annotation type, method, constructor and field of a type,
// inner types' members too, named as lore names them ("C", "C::m",
// "C::Inner::f"; a constructor by its class's name). A name declared
// more than once in a type (overloads) is told apart by its erased
// parameter types, as a lore spec does: "C::m(String,int)"; the key names
// a declaration across types and files, a method always with its
// parameter types ("m(String,int)"), to tell a move. A field that
// shares its line with another (`int a, b;`, an enum's constants) is left
// out: lore reads a field as whole lines.
//
// A tree is the syntax tree without positions, comments or what lore's
// hash defines as layout (docs/fingerprints.md): parentheses (the tree's
// shape holds the grouping; a chain of "&&" or "||" is one list, as they
// associate), string literals joined by "+" (the literal Java makes of
// them), the order of modifiers, number spellings (a literal is its
// value). Array declarators (`byte b[]`), trailing commas and semicolons
// are not in the tree at all.
import com.sun.source.tree.*;
import com.sun.source.util.*;
import java.io.*;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.*;
import javax.lang.model.element.Modifier;
import javax.tools.*;

public class Oracle {
    public static void main(String[] args) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no Java compiler: run with a JDK, not a JRE");
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        for (String line; (line = in.readLine()) != null; ) {
            String src = new String(Base64.getDecoder().decode(field(line, "src")), StandardCharsets.UTF_8);
            out.println(answer(javac, src));
            out.flush();
        }
    }

    // field reads one string field of a request, which Go's encoder
    // writes with only the escapes of a quote, a backslash, a line end,
    // a tab and a code unit in hex.
    static String field(String json, String name) {
        int i = json.indexOf("\"" + name + "\"");
        if (i < 0) {
            return "";
        }
        i = json.indexOf('"', i + name.length() + 2);
        if (i < 0) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        for (i++; i < json.length() && json.charAt(i) != '"'; i++) {
            char c = json.charAt(i);
            if (c == '\\') {
                char e = json.charAt(++i);
                switch (e) {
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'u' -> {
                        b.append((char) Integer.parseInt(json.substring(i + 1, i + 5), 16));
                        i += 4;
                    }
                    default -> b.append(e);
                }
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    static String answer(JavaCompiler javac, String src) {
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///F.java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return src;
            }
        };
        JavacTask task = (JavacTask) javac.getTask(null, null, diags, List.of("-proc:none"), null, List.of(file));
        CompilationUnitTree unit;
        try {
            Iterator<? extends CompilationUnitTree> units = task.parse().iterator();
            if (!units.hasNext()) {
                return "{\"ok\":false}";
            }
            unit = units.next();
        } catch (IOException | RuntimeException | StackOverflowError e) {
            return "{\"ok\":false}";
        }
        for (Diagnostic<?> d : diags.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                return "{\"ok\":false}";
            }
        }
        Walk w = new Walk(unit, positions(task));
        try {
            for (Tree t : unit.getTypeDecls()) {
                if (t instanceof ClassTree c) {
                    w.type(c, "");
                }
            }
        } catch (StackOverflowError e) {
            return "{\"ok\":false}";
        }
        StringBuilder b = new StringBuilder("{\"ok\":true,\"decls\":[");
        for (int i = 0; i < w.decls.size(); i++) {
            StringJoiner d = new StringJoiner(",", i > 0 ? ",[" : "[", "]");
            for (String e : w.decls.get(i)) {
                d.add(quote(e));
            }
            b.append(d);
        }
        return b.append("]}").toString();
    }

    static SourcePositions positions(JavacTask task) {
        return com.sun.source.util.Trees.instance(task).getSourcePositions();
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20 || (c >= 0xd800 && c < 0xe000)) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    // Walk collects the declarations of one compilation unit.
    static class Walk {
        final CompilationUnitTree unit;
        final SourcePositions pos;
        final List<String[]> decls = new ArrayList<>();

        Walk(CompilationUnitTree unit, SourcePositions pos) {
            this.unit = unit;
            this.pos = pos;
        }

        long line(Tree t) {
            return unit.getLineMap().getLineNumber(pos.getStartPosition(unit, t));
        }

        void type(ClassTree c, String scope) {
            String name = scope + c.getSimpleName();
            decls.add(new String[] {name, Printer.print(c), "", c.getSimpleName().toString()});
            Map<String, Integer> names = new HashMap<>();
            Map<Long, Integer> fieldLines = new HashMap<>();
            for (Tree m : c.getMembers()) {
                String n = memberName(c, m);
                if (n != null) {
                    names.merge(n, 1, Integer::sum);
                }
                if (m instanceof VariableTree) {
                    fieldLines.merge(line(m), 1, Integer::sum);
                }
            }
            for (Tree m : c.getMembers()) {
                String n = memberName(c, m);
                if (m instanceof ClassTree inner) {
                    type(inner, name + "::");
                } else if (m instanceof MethodTree mt && n != null) {
                    String key = n + selector(mt);
                    decls.add(new String[] {name + "::" + (names.get(n) > 1 ? key : n), Printer.print(m), "", key});
                } else if (m instanceof VariableTree && n != null && fieldLines.get(line(m)) == 1 && names.get(n) == 1) {
                    decls.add(new String[] {name + "::" + n, Printer.print(m), "", n});
                }
            }
        }

        static String memberName(ClassTree c, Tree m) {
            if (m instanceof MethodTree mt) {
                String n = mt.getName().toString();
                return n.equals("<init>") ? c.getSimpleName().toString() : n;
            }
            if (m instanceof VariableTree v) {
                return v.getName().toString();
            }
            return null;
        }

        // selector is "(T1,T2)": the parameters' types erased of type
        // arguments and qualifiers, "[]" kept, "..." for varargs.
        String selector(MethodTree m) {
            StringJoiner j = new StringJoiner(",", "(", ")");
            for (VariableTree p : m.getParameters()) {
                String t = erase(p.getType());
                if (Printer.varargs(p)) {
                    t = t.substring(0, t.length() - 2) + "...";
                }
                j.add(t);
            }
            return j.toString();
        }

        static String erase(Tree t) {
            if (t instanceof ParameterizedTypeTree p) {
                return erase(p.getType());
            }
            if (t instanceof ArrayTypeTree a) {
                return erase(a.getType()) + "[]";
            }
            if (t instanceof MemberSelectTree s) {
                return s.getIdentifier().toString();
            }
            if (t instanceof AnnotatedTypeTree a) {
                return erase(a.getUnderlyingType());
            }
            return t == null ? "" : t.toString();
        }
    }

    // Printer writes a tree as text, in parentheses: its kind, what it
    // holds that is not a child tree (a name, a value), then its children.
    static class Printer extends TreeScanner<Void, Void> {
        final StringBuilder b = new StringBuilder();

        static String print(Tree t) {
            Printer p = new Printer();
            p.scan(t, null);
            return p.b.toString();
        }

        @Override
        public Void scan(Tree t, Void v) {
            if (t == null) {
                b.append(" _");
                return null;
            }
            while (t instanceof ParenthesizedTree p) {
                t = p.getExpression();
            }
            if (t instanceof BinaryTree bin && (t.getKind() == Tree.Kind.CONDITIONAL_AND || t.getKind() == Tree.Kind.CONDITIONAL_OR)) {
                b.append(" (").append(t.getKind());
                for (Tree o : operands(bin, t.getKind(), new ArrayList<>())) {
                    scan(o, v);
                }
                b.append(')');
                return null;
            }
            if (t instanceof BinaryTree bin && t.getKind() == Tree.Kind.PLUS) {
                String s = joined(bin);
                if (s != null) {
                    b.append(" (STRING_LITERAL ").append(quote(s)).append(')');
                    return null;
                }
            }
            b.append(" (").append(t.getKind());
            String label = label(t);
            if (!label.isEmpty()) {
                b.append(' ').append(label);
            }
            super.scan(t, v);
            b.append(')');
            return null;
        }

        // varargs reports a parameter of variable arity ("Object...
        // args"), whose tree is an array's but for a flag the compiler's
        // printer shows.
        static boolean varargs(VariableTree d) {
            return d.getType() instanceof ArrayTypeTree && d.toString().endsWith("... " + d.getName());
        }

        static List<Tree> operands(Tree t, Tree.Kind op, List<Tree> out) {
            while (t instanceof ParenthesizedTree p) {
                t = p.getExpression();
            }
            if (t instanceof BinaryTree bin && t.getKind() == op) {
                operands(bin.getLeftOperand(), op, out);
                operands(bin.getRightOperand(), op, out);
            } else {
                out.add(t);
            }
            return out;
        }

        // joined is the string a "+" of string literals alone makes, or
        // null.
        static String joined(Tree t) {
            while (t instanceof ParenthesizedTree p) {
                t = p.getExpression();
            }
            if (t instanceof LiteralTree l && l.getKind() == Tree.Kind.STRING_LITERAL) {
                return (String) l.getValue();
            }
            if (t instanceof BinaryTree bin && t.getKind() == Tree.Kind.PLUS) {
                String a = joined(bin.getLeftOperand());
                String c = a == null ? null : joined(bin.getRightOperand());
                return c == null ? null : a + c;
            }
            return null;
        }

        static String label(Tree t) {
            if (t instanceof IdentifierTree i) {
                return i.getName().toString();
            }
            if (t instanceof MemberSelectTree s) {
                return s.getIdentifier().toString();
            }
            if (t instanceof MemberReferenceTree r) {
                return r.getMode() + " " + r.getName();
            }
            if (t instanceof LiteralTree l) {
                Object o = l.getValue();
                return o instanceof String s ? quote(s) : o instanceof Character c ? quote(c.toString()) : String.valueOf(o);
            }
            if (t instanceof MethodTree m) {
                return m.getName().toString();
            }
            if (t instanceof ClassTree c) {
                return c.getSimpleName().toString();
            }
            if (t instanceof VariableTree d) {
                return d.getName() + (varargs(d) ? " ..." : "");
            }
            if (t instanceof ModifiersTree m) {
                List<String> fs = new ArrayList<>();
                for (Modifier f : m.getFlags()) {
                    fs.add(f.toString());
                }
                Collections.sort(fs);
                return String.join(" ", fs);
            }
            if (t instanceof PrimitiveTypeTree p) {
                return p.getPrimitiveTypeKind().toString();
            }
            if (t instanceof TypeParameterTree p) {
                return p.getName().toString();
            }
            if (t instanceof LabeledStatementTree l) {
                return l.getLabel().toString();
            }
            if (t instanceof BreakTree br) {
                return String.valueOf(br.getLabel());
            }
            if (t instanceof ContinueTree c) {
                return String.valueOf(c.getLabel());
            }
            if (t instanceof CaseTree c) {
                return c.getCaseKind().toString();
            }
            if (t instanceof LambdaExpressionTree l) {
                return l.getBodyKind().toString();
            }
            if (t instanceof BlockTree bl) {
                return bl.isStatic() ? "static" : "";
            }
            return "";
        }
    }
}
