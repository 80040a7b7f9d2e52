package main

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

//go:embed python.py
var pythonScript string

//go:embed typescript.js
var typescriptScript string

//go:embed java.java
var javaScript string

//go:embed ruby.rb
var rubyScript string

//go:embed php.php
var phpScript string

//go:embed c.py
var cScript string

//go:embed rust.py
var rustScript string

// scriptOracle reads a language with its own compiler's parser, in one
// process for the whole run: a request a line on its stdin, a JSON
// object {"path": ..., "src": base64 of the file}; an answer a line on
// its stdout, {"ok": false} when the file does not parse, else {"ok":
// true, "decls": [[name, tree], ...]}, every declaration named as lore
// names it in its file (a third element, when not "", is its tree as
// compared when it moved to another file; a fourth, what names it
// across files and types, where that is not its name).
type scriptOracle struct {
	parser string   // as the table names it
	exts   []string // the files it reads, by their ends
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	tmp    string // a directory of the script's own, removed at close
}

// newPyOracle reads Python with CPython's ast module.
func newPyOracle(ctx context.Context, python string) (*scriptOracle, error) {
	return startScript(ctx, "CPython ast", []string{".py"}, "give -python PATH", python, "-c", pythonScript)
}

// newRubyOracle reads Ruby with Ruby's own parser
// (RubyVM::AbstractSyntaxTree, Ruby 2.6 or later).
func newRubyOracle(ctx context.Context, ruby string) (*scriptOracle, error) {
	return startScript(ctx, "Ruby's parser", []string{".rb"}, "give -ruby PATH, a Ruby 2.6 or later", ruby, "-e", rubyScript)
}

// newPHPOracle reads PHP with PHP's own parser, through the php-ast
// extension; php -r runs the script without its opening tag.
func newPHPOracle(ctx context.Context, php string) (*scriptOracle, error) {
	return startScript(ctx, "php-ast", []string{".php"}, "give -php PATH, a PHP 8 with the ast extension (Debian: php-ast)",
		php, "-r", strings.TrimPrefix(phpScript, "<?php\n"))
}

// newCOracle reads C with clang's parser, through libclang's Python
// bindings: python must import clang.cindex, libclang is the shared
// library they load.
func newCOracle(ctx context.Context, python, libclang string) (*scriptOracle, error) {
	return startScript(ctx, "clang", []string{".c", ".h"}, "give -python PATH, a Python 3 with clang.cindex (Debian: python3-clang-14, /usr/bin/python3), and -libclang FILE",
		python, "-c", cScript, libclang)
}

// newRustOracle reads Rust with rustc's parser: the script, run by
// python, prints each file's syntax tree with rustc (its unstable
// -Zunpretty=ast-tree, which RUSTC_BOOTSTRAP=1 lets a stable rustc run).
func newRustOracle(ctx context.Context, python, rustc string) (*scriptOracle, error) {
	return startScript(ctx, "rustc", []string{".rs"}, "give -rustc PATH, a rustc (1.80 or later), and -python PATH, a Python 3",
		python, "-c", rustScript, rustc)
}

// newTSOracle reads TypeScript and JavaScript with the TypeScript
// compiler's parser: typescript is the directory of its npm package.
func newTSOracle(ctx context.Context, node, typescript string) (*scriptOracle, error) {
	if typescript == "" {
		return nil, fmt.Errorf("-lang ts needs the TypeScript compiler: npm install typescript, then give -typescript DIR/node_modules/typescript")
	}
	exts := []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}
	return startScript(ctx, "TypeScript compiler", exts, "give -node PATH and -typescript DIR", node, "-e", typescriptScript, typescript)
}

// newJavaOracle reads Java with javac's parser, through the compiler
// tree API of the JDK whose java launcher is given: the launcher runs
// the oracle from its one source file, written to a directory of its
// own.
func newJavaOracle(ctx context.Context, java string) (*scriptOracle, error) {
	tmp, err := os.MkdirTemp("", "lore-history-java")
	if err != nil {
		return nil, err
	}
	script := filepath.Join(tmp, "Oracle.java")
	if err := os.WriteFile(script, []byte(javaScript), 0o644); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	o, err := startScript(ctx, "javac", []string{".java"}, "give -java PATH, the java launcher of a JDK 17 or later", java, script)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	o.tmp = tmp
	return o, nil
}

func startScript(ctx context.Context, parser string, exts []string, hint string, argv ...string) (*scriptOracle, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("the %s oracle needs %s: %w (%s)", parser, argv[0], err, hint)
	}
	o := &scriptOracle{parser: parser, exts: exts, cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	// A first request shows that the script runs (a missing module, an
	// interpreter too old) before any commit is replayed.
	if _, _, err := o.decls("probe"+exts[0], nil); err != nil {
		o.close()
		return nil, fmt.Errorf("%w (%s)", err, hint)
	}
	return o, nil
}

func (o *scriptOracle) name() string { return o.parser }

// close ends the process.
func (o *scriptOracle) close() error {
	o.in.Close()
	err := o.cmd.Wait()
	if o.tmp != "" {
		os.RemoveAll(o.tmp)
	}
	return err
}

// decls asks for the declarations of one file; ok is false when it does
// not parse (Python 2, syntax newer than the parser).
func (o *scriptOracle) decls(p string, src []byte) (ds []decl, ok bool, err error) {
	req, err := json.Marshal(map[string]string{"path": p, "src": base64.StdEncoding.EncodeToString(src)})
	if err != nil {
		return nil, false, err
	}
	if _, err := o.in.Write(append(req, '\n')); err != nil {
		return nil, false, fmt.Errorf("the %s oracle: %w", o.parser, err)
	}
	line, err := o.out.ReadBytes('\n')
	if err != nil {
		return nil, false, fmt.Errorf("the %s oracle stopped: %w", o.parser, err)
	}
	var ans struct {
		OK    bool       `json:"ok"`
		Decls [][]string `json:"decls"`
	}
	if err := json.Unmarshal(line, &ans); err != nil {
		return nil, false, fmt.Errorf("the %s oracle: %w", o.parser, err)
	}
	for _, d := range ans.Decls {
		if len(d) < 2 {
			return nil, false, fmt.Errorf("the %s oracle: a declaration without its tree", o.parser)
		}
		dc := decl{path: p, name: d[0], tree: d[1]}
		if len(d) > 2 {
			dc.moved = d[2]
		}
		if len(d) > 3 {
			dc.across = d[3]
		}
		ds = append(ds, dc)
	}
	return ds, ans.OK, nil
}

// fileDecls are the declarations of one file by name; a name declared
// more than once (a property's getter and setter, a definition in both
// branches of an if) holds them all and names no single declaration.
type fileDecls map[string][]decl

// readFile reads p of fsys; a file that is not there declares nothing.
func (o *scriptOracle) readFile(fsys fs.FS, p string) (fileDecls, bool, error) {
	src, err := fs.ReadFile(fsys, p)
	if errors.Is(err, fs.ErrNotExist) {
		return fileDecls{}, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	ds, ok, err := o.decls(p, src)
	if err != nil || !ok {
		return nil, false, err
	}
	fd := fileDecls{}
	for _, d := range ds {
		fd[d.name] = append(fd[d.name], d)
	}
	return fd, true, nil
}

// fates reads, for every declaration of the parent in a file of the
// language the commit changed, where it is at the commit: in its file
// (or the file git says it became) under its name, or moved when its
// name (Java: its moveKey) left its file and exactly one changed file
// gained it (Python and JavaScript have no rule of one name per package,
// so a name in several places is left out), or gone. A Java name whose
// overloads changed in number is left out.
func (o *scriptOracle) fates(c commit) ([]fate, error) {
	parent, child, changed, renames := c.parent, c.child, c.changed, c.renames
	var paths []string
	for p := range changed {
		if slices.ContainsFunc(o.exts, func(e string) bool { return strings.HasSuffix(p, e) }) {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	before, after := map[string]fileDecls{}, map[string]fileDecls{}
	became := map[string]string{} // child path → the parent path it was
	for _, p := range paths {
		b, ok, err := o.readFile(parent, p)
		if err != nil {
			return nil, err
		}
		if ok {
			before[p] = b
		}
		a, ok, err := o.readFile(child, p)
		if err != nil {
			return nil, err
		}
		if ok {
			after[p] = a
		}
		if _, isOld := renames[p]; !isOld {
			became[p] = p
		}
	}
	for old, np := range renames {
		became[np] = old
	}
	// gained: names new in a file at the commit.
	gained := map[string][]decl{}
	for _, q := range paths {
		a, ok := after[q]
		if !ok {
			continue
		}
		was, okB := before[became[q]]
		if !okB {
			continue
		}
		for name, cs := range a {
			if len(was[name]) == 0 {
				for _, c := range cs {
					gained[c.moveKey()] = append(gained[c.moveKey()], c)
				}
			}
		}
	}
	var out []fate
	lost := map[string][]decl{}
	for _, p := range paths {
		b, ok := before[p]
		if !ok {
			continue
		}
		np := p
		if r, ok := renames[p]; ok {
			np = r
		}
		a, ok := after[np]
		if !ok {
			continue
		}
		overloaded := map[string]bool{} // Java: names a selector tells apart at the commit
		for name := range a {
			if n, _, ok := strings.Cut(name, "("); ok {
				overloaded[n] = true
			}
		}
		for _, name := range slices.Sorted(maps.Keys(b)) {
			ds, cs := b[name], a[name]
			bare, _, _ := strings.Cut(name, "(")
			switch {
			case len(ds) != 1 || len(cs) > 1:
			case len(cs) == 0 && overloaded[bare]:
				// The overloads of its name changed in number: which of
				// them it became (the same parameters, or the same body
				// under new ones) is a reader's call.
			case len(cs) == 1:
				out = append(out, fate{before: ds[0], after: cs[0], kind: inPlace, same: cs[0].tree == ds[0].tree})
			default:
				lost[ds[0].moveKey()] = append(lost[ds[0].moveKey()], ds[0])
			}
		}
	}
	for _, key := range slices.Sorted(maps.Keys(lost)) {
		ls, gs := lost[key], gained[key]
		switch {
		case len(ls) == 1 && len(gs) == 1:
			out = append(out, fate{before: ls[0], after: gs[0], kind: moved, same: gs[0].movedTree() == ls[0].movedTree()})
		case len(gs) == 0:
			for _, d := range ls {
				out = append(out, fate{before: d, kind: gone})
			}
		}
	}
	return out, nil
}
