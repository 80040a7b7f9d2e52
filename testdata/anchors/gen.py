# Generates testdata/anchors/<lang>.txtar scenario fixtures (kept in the repo).
import textwrap, sys
D = textwrap.dedent

def js_like(ext, typed):
    T = (lambda s: s) if typed else (lambda s: __import__('re').sub(r': (number\[\]|number|string)', '', s))
    f = {}
    f['rename'] = (T(D('''\
        // sum adds up xs.
        export function sum(xs: number[]): number {
          let t = 0;
          for (const x of xs) {
            t += x;
          }
          return t;
        }

        export function useSum(): number { return sum([1, 2]); }
        ''')), T(D('''\
        // total adds up xs.
        export function total(xs: number[]): number {
          let t = 0;
          for (const x of xs) {
            t += x;
          }
          return t;
        }

        export function useSum(): number { return total([1, 2]); }
        ''')))
    f['methods_before'] = T(D('''\
        export class Shape {
          area(w: number, h: number): number {
            const a = w * h;
            return a;
          }
        }

        export function helper(s: string): string {
          if (s === "") {
            return "empty";
          }
          return s + "!";
        }
        '''))
    f['methods_after'] = "export const unit = 1;\n"
    f['area'] = T(D('''\
        export class Shape {
          area(w: number, h: number): number {
            const a = w * h;
            return a;
          }
        }
        '''))
    f['util'] = T(D('''\
        export function helper(s: string): string {
          if (s === "") {
            return "empty";
          }
          return s + "!";
        }
        '''))
    f['old'] = T(D('''\
        export function parse(s: string): string[] {
          const parts = s.split(",");
          return parts;
        }
        '''))
    f['fmt'] = (T(D('''\
        export function messy(a: number, b: number): number {
          if (a > b) { return a; }
          return b;
        }
        ''')), T(D('''\
        export function messy(
            a: number,
            b: number,
        ): number {
            if (a > b) {
                return a;
            }
            return b;
        }
        ''')))
    # trailing comma changes tokens in JS; avoid it
    f['fmt'] = (f['fmt'][0], f['fmt'][1].replace("b: number,\n", "b: number\n").replace("    b,\n", "    b\n"))
    f['comment'] = (T(D('''\
        export function commented(n: number): number {
          n *= 2;
          return n + 1;
        }
        ''')), T(D('''\
        export function commented(n: number): number {
          n *= 2; // double it
          /* then one more */
          return n + 1;
        }
        ''')))
    f['sig'] = (T(D('''\
        export function sig(a: number): number {
          return a;
        }
        ''')), T(D('''\
        export function sig(a: number, b: number): number {
          return a;
        }
        ''')))
    f['body'] = (T(D('''\
        export function body(a: number): number {
          return a + 1;
        }
        ''')), T(D('''\
        export function body(a: number): number {
          return a + 2;
        }
        ''')))
    f['del'] = (T(D('''\
        export function keep(): void {}

        export function gone(x: number): number {
          return x * 42;
        }
        ''')), T("export function keep(): void {}\n"))
    f['gone'] = T("export function f(): number { return 7; }\n")
    f['lines'] = (D('''\
        const a = 1;

        export function l() {
          const x = 1;
          return x;
        }
        '''), D('''\
        const a = 1;
        const b = 2;
        const c = 3;

        export function l() {
          const x = 1;
          return x;
        }
        '''))
    f['gen'] = "export const g = 1;\n"
    f['stage'] = (T(D('''\
        export function staged(): number {
          return 1;
        }
        ''')), T(D('''\
        export function staged(): number {
          return 2;
        }
        ''')))
    f['names'] = dict(sum='sum', total='total', useSum='useSum', cls='Shape', area='area', helper='helper',
                      parse='parse', messy='messy', commented='commented', sig='sig', body='body', gone='gone',
                      f='f', staged='staged')
    f['linesrange'] = ('L3-L6', 'L5-L8')
    return f

def python():
    f = {}
    f['rename'] = (D('''\
        def sum_all(xs):
            """Add up xs."""
            t = 0
            for x in xs:
                t += x
            return t


        def use_sum():
            return sum_all([1, 2])
        '''), D('''\
        def total(xs):
            """Add up xs."""
            t = 0
            for x in xs:
                t += x
            return t


        def use_sum():
            return total([1, 2])
        '''))
    f['methods_before'] = D('''\
        class Shape:
            def area(self, w, h):
                a = w * h
                return a


        def helper(s):
            if s == "":
                return "empty"
            return s + "!"
        ''')
    f['methods_after'] = "UNIT = 1\n"
    f['area'] = D('''\
        class Shape:
            def area(self, w, h):
                a = w * h
                return a
        ''')
    f['util'] = D('''\
        def helper(s):
            if s == "":
                return "empty"
            return s + "!"
        ''')
    f['old'] = D('''\
        def parse(s):
            parts = s.split(",")
            return parts
        ''')
    f['fmt'] = (D('''\
        def messy(a, b):
            if a > b:
                return a
            return b
        '''), D('''\
        def messy(a,
                  b):
          if a > b:
            return a
          return b
        '''))
    f['comment'] = (D('''\
        def commented(n):
            n *= 2
            return n + 1
        '''), D('''\
        def commented(n):
            n *= 2  # double it
            # then one more
            return n + 1
        '''))
    f['sig'] = (D('''\
        def sig(a):
            return a
        '''), D('''\
        def sig(a, b):
            return a
        '''))
    f['body'] = (D('''\
        def body(a):
            return a + 1
        '''), D('''\
        def body(a):
            return a + 2
        '''))
    f['del'] = (D('''\
        def keep():
            pass


        def gone(x):
            return x * 42
        '''), "def keep():\n    pass\n")
    f['gone'] = "def f():\n    return 7\n"
    f['lines'] = (D('''\
        A = 1


        def l():
            x = 1
            return x
        '''), D('''\
        A = 1
        B = 2
        C = 3


        def l():
            x = 1
            return x
        '''))
    f['gen'] = "G = 1\n"
    f['stage'] = ("def staged():\n    return 1\n", "def staged():\n    return 2\n")
    f['names'] = dict(sum='sum_all', total='total', useSum='use_sum', cls='Shape', area='area', helper='helper',
                      parse='parse', messy='messy', commented='commented', sig='sig', body='body', gone='gone',
                      f='f', staged='staged')
    f['linesrange'] = ('L4-L6', 'L6-L8')
    f['ambiguous'] = "def twice():\n    return 1\n\n\ndef twice():\n    return 2\n"
    return f

def rust():
    f = {}
    f['rename'] = (D('''\
        /// Adds up xs.
        pub fn sum(xs: &[i32]) -> i32 {
            let mut t = 0;
            for x in xs {
                t += x;
            }
            t
        }

        pub fn use_sum() -> i32 { sum(&[1, 2]) }
        '''), D('''\
        /// Adds up xs.
        pub fn total(xs: &[i32]) -> i32 {
            let mut t = 0;
            for x in xs {
                t += x;
            }
            t
        }

        pub fn use_sum() -> i32 { total(&[1, 2]) }
        '''))
    f['methods_before'] = D('''\
        pub struct Shape { w: i32, h: i32 }

        impl Shape {
            pub fn area(&self) -> i32 {
                let a = self.w * self.h;
                a
            }
        }

        pub fn helper(s: &str) -> String {
            if s.is_empty() {
                return "empty".to_string();
            }
            format!("{}!", s)
        }
        ''')
    f['methods_after'] = "pub struct Shape { w: i32, h: i32 }\n"
    f['area'] = D('''\
        use crate::methods::Shape;

        impl Shape {
            pub fn area(&self) -> i32 {
                let a = self.w * self.h;
                a
            }
        }
        ''')
    f['util'] = D('''\
        pub fn helper(s: &str) -> String {
            if s.is_empty() {
                return "empty".to_string();
            }
            format!("{}!", s)
        }
        ''')
    f['old'] = D('''\
        pub fn parse(s: &str) -> Vec<&str> {
            let parts = s.split(',').collect();
            parts
        }
        ''')
    f['fmt'] = (D('''\
        pub fn messy(a: i32, b: i32) -> i32 {
            if a > b { return a; }
            b
        }
        '''), D('''\
        pub fn messy(
          a: i32,
          b: i32
        ) -> i32
        {
          if a > b {
            return a;
          }
          b
        }
        '''))
    f['comment'] = (D('''\
        pub fn commented(n: i32) -> i32 {
            let m = n * 2;
            m + 1
        }
        '''), D('''\
        pub fn commented(n: i32) -> i32 {
            let m = n * 2; // double it
            /* then one more */
            m + 1
        }
        '''))
    f['sig'] = ("pub fn sig(a: i32) -> i32 {\n    a\n}\n", "pub fn sig(a: i32, b: i32) -> i32 {\n    a\n}\n")
    f['body'] = ("pub fn body(a: i32) -> i32 {\n    a + 1\n}\n", "pub fn body(a: i32) -> i32 {\n    a + 2\n}\n")
    f['del'] = ("pub fn keep() {}\n\npub fn gone(x: i32) -> i32 {\n    x * 42\n}\n", "pub fn keep() {}\n")
    f['gone'] = "pub fn f() -> i32 { 7 }\n"
    f['lines'] = (D('''\
        const A: i32 = 1;

        pub fn l() -> i32 {
            let x = 1;
            x
        }
        '''), D('''\
        const A: i32 = 1;
        const B: i32 = 2;
        const C: i32 = 3;

        pub fn l() -> i32 {
            let x = 1;
            x
        }
        '''))
    f['gen'] = "pub const G: i32 = 1;\n"
    f['stage'] = ("pub fn staged() -> i32 {\n    1\n}\n", "pub fn staged() -> i32 {\n    2\n}\n")
    f['names'] = dict(sum='sum', total='total', useSum='use_sum', cls='Shape', area='area', helper='helper',
                      parse='parse', messy='messy', commented='commented', sig='sig', body='body', gone='gone',
                      f='f', staged='staged')
    f['linesrange'] = ('L3-L6', 'L5-L8')
    return f

def java():
    def cls(name, body):
        return "public class %s {\n%s}\n" % (name, textwrap.indent(D(body), "    "))
    f = {}
    f['rename'] = (cls("Rename", '''\
        /** Adds up xs. */
        static int sum(int[] xs) {
            int t = 0;
            for (int x : xs) {
                t += x;
            }
            return t;
        }

        static int useSum() { return sum(new int[] {1, 2}); }
        '''), cls("Rename", '''\
        /** Adds up xs. */
        static int total(int[] xs) {
            int t = 0;
            for (int x : xs) {
                t += x;
            }
            return t;
        }

        static int useSum() { return total(new int[] {1, 2}); }
        '''))
    f['methods_before'] = cls("Methods", '''\
        int area(int w, int h) {
            int a = w * h;
            return a;
        }

        static String helper(String s) {
            if (s.isEmpty()) {
                return "empty";
            }
            return s + "!";
        }
        ''')
    f['methods_after'] = cls("Methods", "static final int UNIT = 1;\n")
    f['area'] = cls("Area", '''\
        int area(int w, int h) {
            int a = w * h;
            return a;
        }
        ''')
    f['util'] = cls("Util", '''\
        static String helper(String s) {
            if (s.isEmpty()) {
                return "empty";
            }
            return s + "!";
        }
        ''')
    f['old'] = cls("Old", '''\
        static String[] parse(String s) {
            String[] parts = s.split(",");
            return parts;
        }
        ''')
    f['fmt'] = (cls("Fmt", '''\
        static int messy(int a, int b) {
            if (a > b) { return a; }
            return b;
        }
        '''), cls("Fmt", '''\
        static int messy(int a,
                int b)
        {
          if (a > b)
          {
            return a;
          }
          return b;
        }
        '''))
    f['comment'] = (cls("Comment", '''\
        static int commented(int n) {
            n *= 2;
            return n + 1;
        }
        '''), cls("Comment", '''\
        static int commented(int n) {
            n *= 2; // double it
            /* then one more */
            return n + 1;
        }
        '''))
    f['sig'] = (cls("Sig", "static int sig(int a) {\n    return a;\n}\n"), cls("Sig", "static int sig(int a, int b) {\n    return a;\n}\n"))
    f['body'] = (cls("Body", "static int body(int a) {\n    return a + 1;\n}\n"), cls("Body", "static int body(int a) {\n    return a + 2;\n}\n"))
    f['del'] = (cls("Del", "static void keep() {}\n\nstatic int gone(int x) {\n    return x * 42;\n}\n"), cls("Del", "static void keep() {}\n"))
    f['gone'] = cls("Gone", "static int f() { return 7; }\n")
    f['lines'] = (cls("Lines", '''\
        static final int A = 1;

        static int l() {
            int x = 1;
            return x;
        }
        '''), cls("Lines", '''\
        static final int A = 1;
        static final int B = 2;
        static final int C = 3;

        static int l() {
            int x = 1;
            return x;
        }
        '''))
    f['gen'] = cls("G", "static final int G = 1;\n")
    f['stage'] = (cls("Stage", "static int staged() {\n    return 1;\n}\n"), cls("Stage", "static int staged() {\n    return 2;\n}\n"))
    f['names'] = dict(sum='Rename::sum', total='Rename::total', useSum='Rename::useSum', area='Methods::area', area_to='Area::area',
                      helper='Methods::helper', helper_to='Util::helper', parse='Old::parse', messy='Fmt::messy',
                      commented='Comment::commented', sig='Sig::sig', body='Body::body', gone='Del::gone', f='Gone::f',
                      staged='Stage::staged')
    f['linesrange'] = ('L4-L7', 'L6-L9')
    f['ambiguous'] = cls("Over", "void m(int a) {}\nvoid m(String s) {}\n")
    return f

def build(lang, ext, f):
    n = f['names']
    q = lambda k: n[k]
    area_from = ('methods%s::%s::%s' % (ext, n['cls'], n['area'])) if 'cls' in n else 'methods%s::%s' % (ext, n['area'])
    area_to = ('area%s::%s::%s' % (ext, n['cls'], n['area'])) if 'cls' in n else 'area%s::%s' % (ext, n['area_to'])
    helper_to = 'util%s::%s' % (ext, n.get('helper_to', n['helper']))
    lf, lt = f['linesrange']
    anchors = [
        ('rename%s::%s' % (ext, q('sum')), 'valid renamed rename%s::%s' % (ext, q('total'))),
        ('rename%s::%s' % (ext, q('useSum')), 'drifted body-changed rename%s::%s' % (ext, q('useSum'))),
        (area_from, 'valid moved ' + area_to),
        ('methods%s::%s' % (ext, q('helper')), 'valid moved ' + helper_to),
        ('old%s::%s' % (ext, q('parse')), 'valid moved renamed/new%s::%s' % (ext, q('parse').replace('Old::', 'Old::'))),
        ('old%s' % ext, 'valid moved renamed/new%s' % ext),
        ('fmtme%s::%s' % (ext, q('messy')), 'valid reformatted fmtme%s::%s' % (ext, q('messy'))),
        ('fmtme%s' % ext, 'valid reformatted fmtme%s' % ext),
        ('comment%s::%s' % (ext, q('commented')), 'valid reformatted comment%s::%s' % (ext, q('commented'))),
        ('sig%s::%s' % (ext, q('sig')), 'drifted %s sig%s::%s' % (f.get('sig_change', 'signature-changed'), ext, q('sig'))),
        ('body%s::%s' % (ext, q('body')), 'drifted body-changed body%s::%s' % (ext, q('body'))),
        ('del%s::%s' % (ext, q('gone')), 'invalid deleted'),
        ('gone%s::%s' % (ext, q('f')), 'invalid file-deleted'),
        ('lines%s#%s' % (ext, lf), 'valid lines-shifted lines%s#%s' % (ext, lt)),
        ('glob:gen/**/*%s' % ext, 'invalid no-match'),
        ('glob:**/*%s' % ext, 'valid none'),
        ('stage%s::%s' % (ext, q('staged')), 'valid none'),
    ]
    bad = ['!nope%s::X' % ext, '!../x%s' % ext, '!rename%s::Nope' % ext, '!glob:nothing/**']
    if 'ambiguous' in f:
        bad.append('!amb%s::%s' % (ext, 'twice' if lang == 'python' else 'Over::m'))
    out = ['%s: every row of DESIGN.md §2 (generated by testdata/anchors/gen.py).\n' % lang]
    out.append('-- anchors --')
    out += [a for a, _ in anchors] + bad
    out.append('-- want --')
    out += ['%s %s' % (a, w) for a, w in anchors]
    out.append('-- want-worktree --')
    for a, w in anchors:
        if a.startswith('stage'):
            w = 'drifted body-changed ' + a
        out.append('%s %s' % (a, w))
    files = []
    def add(name, data):
        files.append('-- %s --\n%s' % (name, data if data.endswith('\n') else data + '\n'))
    add('before/rename' + ext, f['rename'][0]); add('after/rename' + ext, f['rename'][1])
    add('before/methods' + ext, f['methods_before']); add('after/methods' + ext, f['methods_after'])
    add('after/area' + ext, f['area']); add('after/util' + ext, f['util'])
    add('before/old' + ext, f['old']); add('after/renamed/new' + ext, f['old'])
    for k, fn in (('fmt', 'fmtme'), ('comment', 'comment'), ('sig', 'sig'), ('body', 'body'), ('del', 'del'), ('lines', 'lines')):
        add('before/%s%s' % (fn, ext), f[k][0]); add('after/%s%s' % (fn, ext), f[k][1])
    add('before/gone' + ext, f['gone'])
    add('before/gen/a' + ext, f['gen'])
    add('before/stage' + ext, f['stage'][0]); add('after/stage' + ext, f['stage'][0]); add('worktree/stage' + ext, f['stage'][1])
    if 'ambiguous' in f:
        add('before/amb' + ext, f['ambiguous'])
    return '\n'.join(out) + '\n' + ''.join(files)


def generic(fn, cls, body, comment, fmt, sig, mod_area=None):
    """A scenario for a language given as templates: fn(name, params, lines)
    a function, cls(name, members) a type with methods fn makes inside it
    (None: a language of functions only), comment(text) a line comment;
    fmt is (before, after) of a reformatted function named messy, sig the
    (before, after) of a function whose signature changes."""
    f = {}
    sum_body = body['sum']
    f['rename'] = (comment('adds up xs.') + '\n' + fn('sum', 'xs', sum_body) + '\n' + fn('use_sum', '', body['use']('sum')) + '\n',
                   comment('adds up xs.') + '\n' + fn('total', 'xs', sum_body) + '\n' + fn('use_sum', '', body['use']('total')) + '\n')
    area = fn('area', '', body['area'], inside=True)
    helper = fn('helper', 's', body['helper'])
    if cls:
        f['methods_before'] = cls('Shape', area) + '\n' + helper + '\n'
        f['methods_after'] = cls('Shape', '') + '\n'
        f['area'] = (mod_area or '') + cls('Shape', area) + '\n'
    else:
        f['methods_before'] = fn('area', '', body['area']) + '\n' + helper + '\n'
        f['methods_after'] = comment('nothing left') + '\n'
        f['area'] = fn('area', '', body['area']) + '\n'
    f['util'] = helper + '\n'
    f['old'] = fn('parse', 's', body['parse']) + '\n'
    f['fmt'] = fmt
    f['comment'] = (fn('commented', 'n', body['commented']) + '\n',
                    fn('commented', 'n', [body['commented'][0] + ' ' + comment('double it')] + [comment('then one more')] + body['commented'][1:]) + '\n')
    f['sig'] = sig
    f['body'] = (fn('body', 'a', body['ret']('a', 1)) + '\n', fn('body', 'a', body['ret']('a', 2)) + '\n')
    f['del'] = (fn('keep', '', body['nothing']) + '\n' + fn('gone', 'x', body['ret']('x', 42)) + '\n', fn('keep', '', body['nothing']) + '\n')
    f['gone'] = fn('f', '', body['ret']('7', 0)) + '\n'
    f['lines'] = (body['const']('A', 1) + '\n\n' + fn('l', '', body['l']) + '\n',
                  body['const']('A', 1) + '\n' + body['const']('B', 2) + '\n' + body['const']('C', 3) + '\n\n' + fn('l', '', body['l']) + '\n')
    f['gen'] = body['const']('G', 1) + '\n'
    f['stage'] = (fn('staged', '', body['ret']('1', 0)) + '\n', fn('staged', '', body['ret']('2', 0)) + '\n')
    f['names'] = dict(sum='sum', total='total', useSum='use_sum', area='area', helper='helper', parse='parse',
                      messy='messy', commented='commented', sig='sig', body='body', gone='gone', f='f', staged='staged',
                      area_to='area')
    if cls:
        f['names']['cls'] = 'Shape'
    n = f['lines'][0].count('\n', 0, f['lines'][0].index(fn('l', '', body['l']).split('\n')[0]))
    m = fn('l', '', body['l']).count('\n')
    f['linesrange'] = ('L%d-L%d' % (n + 1, n + 1 + m), 'L%d-L%d' % (n + 3, n + 3 + m))
    return f

def indent(lines, k):
    return '\n'.join(' ' * k + l if l else l for l in lines)

def cpp():
    def fn(name, params, lines, inside=False):
        ps = ', '.join('int ' + p for p in params.split(',') if p)
        return 'int %s(%s) {\n%s\n}' % (name, ps, indent(lines, 4))
    def cls(name, members):
        return 'struct %s {\n%s\n};' % (name, indent(members.split('\n'), 4) if members else '    int w, h;')
    body = dict(sum=['int t = 0;', 'for (int i = 0; i < xs; i++) {', '    t += i;', '}', 'return t;'],
                use=lambda f: ['return %s(3);' % f], area=['int a = 6 * 7;', 'return a;'],
                helper=['if (s == 0) {', '    return -1;', '}', 'return s * 2;'],
                parse=['int parts = s / 10;', 'return parts;'], commented=['int m = n * 2;', 'return m + 1;'],
                ret=lambda a, k: ['return %s + %d;' % (a, k)] if k else ['return %s;' % a], nothing=['return 0;'],
                const=lambda n, v: 'const int %s = %d;' % (n, v), l=['int x = 1;', 'return x;'])
    fmt = ('int messy(int a, int b) {\n    if (a > b) { return a; }\n    return b;\n}\n',
           'int messy(int a,\n          int b)\n{\n  if (a > b)\n  {\n    return a;\n  }\n  return b;\n}\n')
    sig = ('int sig(int a) {\n    return a;\n}\n', 'int sig(int a, int b) {\n    return a;\n}\n')
    return generic(fn, cls, body, lambda t: '// ' + t, fmt, sig)

def csharp():
    def fn(name, params, lines, inside=False):
        ps = ', '.join('int ' + p for p in params.split(',') if p)
        return 'static int %s(%s)\n{\n%s\n}' % (name, ps, indent(lines, 4))
    def wrap(name, members):
        return 'class %s\n{\n%s\n}' % (name, indent(members.split('\n'), 4) if members else '    int w;')
    body = dict(sum=['int t = 0;', 'for (int i = 0; i < xs; i++)', '{', '    t += i;', '}', 'return t;'],
                use=lambda f: ['return %s(3);' % f], area=['int a = 6 * 7;', 'return a;'],
                helper=['if (s == 0)', '{', '    return -1;', '}', 'return s * 2;'],
                parse=['int parts = s / 10;', 'return parts;'], commented=['int m = n * 2;', 'return m + 1;'],
                ret=lambda a, k: ['return %s + %d;' % (a, k)] if k else ['return %s;' % a], nothing=['return 0;'],
                const=lambda n, v: 'const int %s = %d;' % (n, v), l=['int x = 1;', 'return x;'])
    fmt = ('static int messy(int a, int b)\n{\n    if (a > b) { return a; }\n    return b;\n}\n',
           'static int messy(\n    int a,\n    int b)\n{\n    if (a > b)\n    {\n        return a;\n    }\n\n    return b;\n}\n')
    sig = ('static int sig(int a)\n{\n    return a;\n}\n', 'static int sig(int a, int b)\n{\n    return a;\n}\n')
    return generic(fn, wrap, body, lambda t: '// ' + t, fmt, sig)

def ruby():
    def fn(name, params, lines, inside=False):
        return 'def %s%s\n%s\nend' % (name, '(%s)' % params if params else '', indent(lines, 2))
    def cls(name, members):
        return 'class %s\n%s\nend' % (name, indent(members.split('\n'), 2) if members else '  attr_reader :w')
    body = dict(sum=['t = 0', 'xs.each do |x|', '  t += x', 'end', 't'],
                use=lambda f: ['%s([1, 2])' % f], area=['a = @w * @h', 'a'],
                helper=['if s.empty?', '  return "empty"', 'end', '"#{s}!"'],
                parse=["parts = s.split(',')", 'parts'], commented=['m = n * 2', 'm + 1'],
                ret=lambda a, k: ['%s + %d' % (a, k)] if k else [a], nothing=['nil'],
                const=lambda n, v: '%s = %d' % (n, v), l=['x = 1', 'x'])
    fmt = ("def messy(a, b)\n  return a if a > b\n  b\nend\n",
           "def messy(a,\n          b)\n  return a if a > b\n\n  b\nend\n")
    sig = ('def sig(a)\n  a\nend\n', 'def sig(a, b)\n  a\nend\n')
    return generic(fn, cls, body, lambda t: '# ' + t, fmt, sig)

def php():
    def fn(name, params, lines, inside=False):
        ps = ', '.join('$' + p for p in params.split(',') if p)
        kw = 'public function' if inside else 'function'
        return '%s %s(%s)\n{\n%s\n}' % (kw, name, ps, indent(lines, 4))
    def cls(name, members):
        return 'class %s\n{\n%s\n}' % (name, indent(members.split('\n'), 4) if members else '    public $w;')
    body = dict(sum=['$t = 0;', 'foreach ($xs as $x) {', '    $t += $x;', '}', 'return $t;'],
                use=lambda f: ['return %s([1, 2]);' % f], area=['$a = $this->w * $this->h;', 'return $a;'],
                helper=["if ($s === '') {", "    return 'empty';", '}', "return $s . '!';"],
                parse=["$parts = explode(',', $s);", 'return $parts;'], commented=['$m = $n * 2;', 'return $m + 1;'],
                ret=lambda a, k: ['return $%s + %d;' % (a, k)] if k and not a.isdigit() else (['return %s;' % ('$' + a if not a.isdigit() else a)]),
                nothing=['return null;'], const=lambda n, v: 'const %s = %d;' % (n, v), l=['$x = 1;', 'return $x;'])
    wrap = lambda s: '<?php\n' + s
    f = generic(fn, cls, body, lambda t: '// ' + t,
                ('function messy($a, $b) {\n    if ($a > $b) { return $a; }\n    return $b;\n}\n',
                 'function messy(\n    $a,\n    $b,\n) {\n    if ($a > $b) {\n        return $a;\n    }\n    return $b;\n}\n'),
                ('function sig($a)\n{\n    return $a;\n}\n', 'function sig($a, $b)\n{\n    return $a;\n}\n'))
    for k, v in list(f.items()):
        if k in ('names', 'linesrange'):
            continue
        f[k] = tuple(wrap(x) for x in v) if isinstance(v, tuple) else wrap(v)
    a, b = f['linesrange']
    bump = lambda r: 'L%d-L%d' % tuple(int(x) + 1 for x in r[1:].split('-L'))
    f['linesrange'] = (bump(a), bump(b))
    return f

def kotlin():
    def fn(name, params, lines, inside=False):
        ps = ', '.join(p + ': Int' for p in params.split(',') if p)
        return 'fun %s(%s): Int {\n%s\n}' % (name, ps, indent(lines, 4))
    def cls(name, members):
        return 'class %s(val w: Int, val h: Int)%s' % (name, ' {\n%s\n}' % indent(members.split('\n'), 4) if members else '')
    body = dict(sum=['var t = 0', 'for (x in 0 until xs) {', '    t += x', '}', 'return t'],
                use=lambda f: ['return %s(3)' % f], area=['val a = w * h', 'return a'],
                helper=['if (s == 0) {', '    return -1', '}', 'return s * 2'],
                parse=['val parts = s / 10', 'return parts'], commented=['val m = n * 2', 'return m + 1'],
                ret=lambda a, k: ['return %s + %d' % (a, k)] if k else ['return %s' % a], nothing=['return 0'],
                const=lambda n, v: 'const val %s = %d' % (n, v), l=['val x = 1', 'return x'])
    fmt = ('fun messy(a: Int, b: Int): Int {\n    if (a > b) { return a }\n    return b\n}\n',
           'fun messy(\n    a: Int,\n    b: Int,\n): Int {\n    if (a > b) {\n        return a\n    }\n    return b\n}\n')
    sig = ('fun sig(a: Int): Int {\n    return a\n}\n', 'fun sig(a: Int, b: Int): Int {\n    return a\n}\n')
    return generic(fn, cls, body, lambda t: '// ' + t, fmt, sig)

def swift():
    def fn(name, params, lines, inside=False):
        ps = ', '.join('_ %s: Int' % p for p in params.split(',') if p)
        return 'func %s(%s) -> Int {\n%s\n}' % (name, ps, indent(lines, 4))
    def cls(name, members):
        return 'struct %s {\n%s\n}' % (name, indent(('let w = 6\nlet h = 7\n' + members).strip('\n').split('\n'), 4))
    body = dict(sum=['var t = 0', 'for x in 0..<xs {', '    t += x', '}', 'return t'],
                use=lambda f: ['return %s(3)' % f], area=['let a = w * h', 'return a'],
                helper=['if s == 0 {', '    return -1', '}', 'return s * 2'],
                parse=['let parts = s / 10', 'return parts'], commented=['let m = n * 2', 'return m + 1'],
                ret=lambda a, k: ['return %s + %d' % (a, k)] if k else ['return %s' % a], nothing=['return 0'],
                const=lambda n, v: 'let %s = %d' % (n, v), l=['let x = 1', 'return x'])
    fmt = ('func messy(_ a: Int, _ b: Int) -> Int {\n    if a > b { return a }\n    return b\n}\n',
           'func messy(\n    _ a: Int,\n    _ b: Int\n) -> Int {\n    if a > b {\n        return a\n    }\n    return b\n}\n')
    sig = ('func sig(_ a: Int) -> Int {\n    return a\n}\n', 'func sig(_ a: Int, _ b: Int) -> Int {\n    return a\n}\n')
    return generic(fn, cls, body, lambda t: '// ' + t, fmt, sig)

def scala():
    def fn(name, params, lines, inside=False):
        ps = ', '.join(p + ': Int' for p in params.split(',') if p)
        return 'def %s(%s): Int = {\n%s\n}' % (name, ps, indent(lines, 2))
    def cls(name, members):
        return 'class %s(w: Int, h: Int)%s' % (name, ' {\n%s\n}' % indent(members.split('\n'), 2) if members else '')
    body = dict(sum=['var t = 0', 'for (x <- 0 until xs) {', '  t += x', '}', 't'],
                use=lambda f: ['%s(3)' % f], area=['val a = w * h', 'a'],
                helper=['if (s == 0) {', '  return -1', '}', 's * 2'],
                parse=['val parts = s / 10', 'parts'], commented=['val m = n * 2', 'm + 1'],
                ret=lambda a, k: ['%s + %d' % (a, k)] if k else [a], nothing=['0'],
                const=lambda n, v: 'val %s = %d' % (n, v), l=['val x = 1', 'x'])
    fmt = ('def messy(a: Int, b: Int): Int = {\n  if (a > b) { return a }\n  b\n}\n',
           'def messy(\n    a: Int,\n    b: Int\n): Int = {\n  if (a > b) {\n    return a\n  }\n  b\n}\n')
    sig = ('def sig(a: Int): Int = {\n  a\n}\n', 'def sig(a: Int, b: Int): Int = {\n  a\n}\n')
    return generic(fn, cls, body, lambda t: '// ' + t, fmt, sig)

def bash():
    def fn(name, params, lines, inside=False):
        return '%s() {\n%s\n}' % (name, indent(lines, 4))
    body = dict(sum=['local t=0', 'for x in "$@"; do', '    t=$((t + x))', 'done', 'echo "$t"'],
                use=lambda f: ['%s 1 2' % f], area=['local a=$((6 * 7))', 'echo "$a"'],
                helper=['if [ -z "$1" ]; then', '    echo empty', '    return', 'fi', 'echo "$1!"'],
                parse=["IFS=, read -ra parts <<< \"$1\"", 'echo "${parts[@]}"'], commented=['local m=$(($1 * 2))', 'echo $((m + 1))'],
                ret=lambda a, k: ['echo $((%s + %d))' % (a if a.isdigit() else '$1', k)] if k else ['echo %s' % a], nothing=['true'],
                const=lambda n, v: 'readonly %s=%d' % (n, v), l=['local x=1', 'echo "$x"'])
    fmt = ('messy() {\n    if [ "$1" -gt "$2" ]; then echo "$1"; return; fi\n    echo "$2"\n}\n',
           'messy() {\n  if [ "$1" -gt "$2" ]; then\n    echo "$1"\n    return\n  fi\n  echo "$2"\n}\n')
    sig = ('sig() {\n    echo "$1"\n}\n', 'sig() {\n    echo "$1" "$2"\n}\n')
    f = generic(fn, None, body, lambda t: '# ' + t, fmt, sig)
    f['sig_change'] = 'body-changed'
    return f

def lua():
    def fn(name, params, lines, inside=False):
        return 'function %s(%s)\n%s\nend' % (name, params, indent(lines, 2))
    def cls(name, members):
        return 'local %s = {}\n%s' % (name, members.replace('function area(', 'function %s:area(' % name) if members else '')
    body = dict(sum=['local t = 0', 'for _, x in ipairs(xs) do', '  t = t + x', 'end', 'return t'],
                use=lambda f: ['return %s({1, 2})' % f], area=['local a = self.w * self.h', 'return a'],
                helper=["if s == '' then", "  return 'empty'", 'end', "return s .. '!'"],
                parse=["local parts = s:gmatch('[^,]+')", 'return parts'], commented=['local m = n * 2', 'return m + 1'],
                ret=lambda a, k: ['return %s + %d' % (a, k)] if k else ['return %s' % a], nothing=['return nil'],
                const=lambda n, v: 'local %s = %d' % (n, v), l=['local x = 1', 'return x'])
    fmt = ('function messy(a, b)\n  if a > b then return a end\n  return b\nend\n',
           'function messy(a,\n                b)\n    if a > b then\n        return a\n    end\n    return b\nend\n')
    sig = ('function sig(a)\n  return a\nend\n', 'function sig(a, b)\n  return a\nend\n')
    return generic(fn, cls, body, lambda t: '-- ' + t, fmt, sig)

langs = [('typescript', '.ts', js_like('.ts', True)), ('tsx', '.tsx', js_like('.tsx', True)),
         ('javascript', '.js', js_like('.js', False)), ('python', '.py', python()), ('rust', '.rs', rust()),
         ('java', '.java', java()), ('cpp', '.cpp', cpp()), ('csharp', '.cs', csharp()), ('ruby', '.rb', ruby()),
         ('php', '.php', php()), ('kotlin', '.kt', kotlin()), ('swift', '.swift', swift()), ('scala', '.scala', scala()),
         ('bash', '.sh', bash()), ('lua', '.lua', lua())]
outdir = sys.argv[1]
for lang, ext, f in langs:
    open('%s/%s.txtar' % (outdir, lang), 'w').write(build(lang, ext, f))
