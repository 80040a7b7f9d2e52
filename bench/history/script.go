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
	"os/exec"
	"slices"
	"strings"
)

//go:embed python.py
var pythonScript string

//go:embed typescript.js
var typescriptScript string

// scriptOracle reads a language with its own compiler's parser, in one
// process for the whole run: a request a line on its stdin, a JSON
// object {"path": ..., "src": base64 of the file}; an answer a line on
// its stdout, {"ok": false} when the file does not parse, else {"ok":
// true, "decls": [[name, tree], ...]}, every declaration named as lore
// names it in its file (a third element, when given, is its tree as
// compared when it moved to another file).
type scriptOracle struct {
	parser string   // as the table names it
	exts   []string // the files it reads, by their ends
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
}

// newPyOracle reads Python with CPython's ast module.
func newPyOracle(ctx context.Context, python string) (*scriptOracle, error) {
	return startScript(ctx, "CPython ast", []string{".py"}, "give -python PATH", python, "-c", pythonScript)
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
	return o.cmd.Wait()
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
// name left its file and exactly one changed file gained it (Python and
// JavaScript have no rule of one name per package, so a name in several
// places is left out), or gone.
func (o *scriptOracle) fates(parent, child fs.FS, changed map[string]bool, renames map[string]string) ([]fate, error) {
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
				gained[name] = append(gained[name], cs...)
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
		for _, name := range slices.Sorted(maps.Keys(b)) {
			ds, cs := b[name], a[name]
			switch {
			case len(ds) != 1 || len(cs) > 1:
			case len(cs) == 1:
				out = append(out, fate{before: ds[0], after: cs[0], kind: inPlace, same: cs[0].tree == ds[0].tree})
			default:
				lost[name] = append(lost[name], ds[0])
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(lost)) {
		ls, gs := lost[name], gained[name]
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
