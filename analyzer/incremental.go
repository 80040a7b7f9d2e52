package analyzer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/lorehq/lore/graph"
)

// configKey digests what import resolution reads of a configuration file:
// of a go.mod its module and replace directives (its go and require lines
// change no import's target), of the others (package.json, tsconfig.json,
// jsconfig.json, Cargo.toml) the whole content.
func configKey(p string, content []byte) string {
	h := sha256.New()
	if path.Base(p) == "go.mod" {
		eachGoModLine(content, func(line string, replace bool) {
			if replace || strings.HasPrefix(line, "module ") {
				h.Write([]byte(line))
				h.Write([]byte{'\n'})
			}
		})
	} else {
		h.Write(content)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// resolveChanged is resolveAll for an update that added or removed files,
// or changed a Go file's package-level names, with no configuration file
// changed: the imports of the files parsed are resolved, and of the other
// files only those whose resolution or edges can have changed get new
// records and edges — an import whose targets differ now (a file it
// reaches came or went), or that reaches into a directory of changed
// (whose files, or Go names, decide its edges). The other imports keep
// their records and edges: the cost follows the change, not the
// repository.
//
// Every import record is read and resolved again in memory, one record at
// a time (resolution is cheap next to writing; an import that resolved to
// nothing may resolve now to a file just added, and only resolving tells);
// only the affected files are held.
func resolveChanged(ctx context.Context, store *graph.Store, b *graph.Batch, fsys fs.FS, table *Table,
	metas map[string]*fileMeta, paths []string, parsed importsOf, decls *goDecls, changed map[string]bool, sum *Summary) error {
	r := newResolver(fsys, paths)
	reaches := func(im Import) bool {
		if im.pkgDir != "" {
			return changed[im.pkgDir]
		}
		for _, t := range im.Targets {
			if changed[path.Dir(t)] {
				return true
			}
		}
		return false
	}
	type affected struct {
		path    string
		imps    []Import
		newRecs bool // the record changes too
	}
	var todo []affected
	err := store.View(func(tx *graph.Tx) error {
		n := 0
		return tx.Scan(nsImports, "", func(k string, v []byte) error {
			if n++; n%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if _, ok := parsed[k]; ok {
				return nil
			}
			m, ok := metas[k]
			if !ok {
				return nil
			}
			imps, err := decodeImports(k, v)
			if err != nil {
				return nil // resolved again when the file is next parsed
			}
			l := table.Lookup(m.Lang)
			touched, differs := false, false
			for i := range imps {
				before, beforeDir := imps[i].Targets, imps[i].pkgDir
				if reaches(imps[i]) {
					touched = true
				}
				r.resolve(l, &imps[i])
				if beforeDir != imps[i].pkgDir || (beforeDir == "" && !equalStrings(before, imps[i].Targets)) {
					differs = true
				}
				if reaches(imps[i]) {
					touched = true
				}
			}
			sum.Imports += len(imps)
			if touched || differs {
				todo = append(todo, affected{path: k, imps: imps, newRecs: differs})
			}
			return nil
		})
	})
	if err != nil {
		return fmt.Errorf("read imports: %w", err)
	}
	mk := newEdgeMaker(store, metas, decls)
	for p := range parsed {
		imps, _ := parsed.get(p)
		l := table.Lookup(metas[p].Lang)
		for i := range imps {
			r.resolve(l, &imps[i])
		}
		sum.Imports += len(imps)
		todo = append(todo, affected{path: p, imps: imps, newRecs: true})
	}
	for _, a := range todo {
		if err := ctx.Err(); err != nil {
			return err
		}
		if a.newRecs {
			if err := b.SetOwned(nsImports, a.path, encodeImports(a.imps)); err != nil {
				return err
			}
		}
		if err := b.SetOutEdges("file:"+a.path, graph.Imports, mk.append(nil, a.path, a.imps)); err != nil {
			return fmt.Errorf("%s: set edges: %w", a.path, err)
		}
	}
	return nil
}
