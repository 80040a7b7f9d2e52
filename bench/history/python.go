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

// pyOracle reads Python with CPython's ast module, in one python3
// process for the whole run.
type pyOracle struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func newPyOracle(ctx context.Context, python string) (*pyOracle, error) {
	cmd := exec.CommandContext(ctx, python, "-c", pythonScript)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("the Python oracle needs %s: %w (give -python PATH)", python, err)
	}
	return &pyOracle{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}, nil
}

func (o *pyOracle) name() string { return "CPython ast" }

// close ends the python3 process.
func (o *pyOracle) close() error {
	o.in.Close()
	return o.cmd.Wait()
}

// decls asks python3 for the declarations of one file; ok is false when
// it does not parse (Python 2, or syntax newer than the interpreter).
func (o *pyOracle) decls(p string, src []byte) (ds []decl, ok bool, err error) {
	req, err := json.Marshal(map[string]string{"path": p, "src": base64.StdEncoding.EncodeToString(src)})
	if err != nil {
		return nil, false, err
	}
	if _, err := o.in.Write(append(req, '\n')); err != nil {
		return nil, false, fmt.Errorf("the Python oracle: %w", err)
	}
	line, err := o.out.ReadBytes('\n')
	if err != nil {
		return nil, false, fmt.Errorf("the Python oracle stopped: %w", err)
	}
	var ans struct {
		OK    bool        `json:"ok"`
		Decls [][2]string `json:"decls"`
	}
	if err := json.Unmarshal(line, &ans); err != nil {
		return nil, false, fmt.Errorf("the Python oracle: %w", err)
	}
	for _, d := range ans.Decls {
		ds = append(ds, decl{path: p, name: d[0], tree: d[1]})
	}
	return ds, ans.OK, nil
}

// fileDecls are the declarations of one file by name; a name declared
// more than once (a property's getter and setter, a definition in both
// branches of an if) holds them all and names no single declaration.
type fileDecls map[string][]decl

// readFile reads p of fsys; a file that is not there declares nothing.
func (o *pyOracle) readFile(fsys fs.FS, p string) (fileDecls, bool, error) {
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

// fates reads, for every declaration of the parent in a Python file the
// commit changed, where it is at the commit: in its file (or the file
// git says it became) under its name, or moved when its name left its
// file and exactly one changed file gained it (Python has no rule of one
// name per package, so a name in several places is left out), or gone.
func (o *pyOracle) fates(parent, child fs.FS, changed map[string]bool, renames map[string]string) ([]fate, error) {
	var paths []string
	for p := range changed {
		if strings.HasSuffix(p, ".py") {
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
			out = append(out, fate{before: ls[0], after: gs[0], kind: moved, same: gs[0].tree == ls[0].tree})
		case len(gs) == 0:
			for _, d := range ls {
				out = append(out, fate{before: d, kind: gone})
			}
		}
	}
	return out, nil
}
