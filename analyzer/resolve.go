package analyzer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
)

// resolver maps import specs to files of one repository snapshot. It is
// built from the list of indexed files and reads the few configuration
// files it needs (go.mod, tsconfig.json, package.json, Cargo.toml).
type resolver struct {
	fsys  fs.FS
	files map[string]bool
	dirs  map[string][]string // dir -> files directly in it, sorted

	goMods []goModule // longest module path first

	tsconfigs  map[string]*tsconfig // by directory ("" none)
	workspaces []jsPackage          // longest name first

	paths      []string            // every file (see newResolver)
	byBase     []string            // paths by file name, else as in paths; built on first use (see base)
	bases      []string            // the file names of byBase
	byDirBase  map[string][]string // directory name -> directories, built on first use (see dirsNamed)
	rustCrates map[string]string   // crate name -> crate root dir (the dir holding lib.rs/main.rs)
	pyRoots    []string
	goPkgs     map[string][]string // goPackage results by directory
}

type goModule struct{ path, dir string }

type tsconfig struct {
	dir     string
	baseURL string // repo-relative directory, "" unset
	hasBase bool
	paths   map[string][]string
}

type jsPackage struct {
	name, dir string
	entries   []string
}

// newResolver returns a resolver over the files paths, which lists each
// directory's files in name order (as sorted paths and Walk do).
func newResolver(fsys fs.FS, paths []string) *resolver {
	r := &resolver{fsys: fsys, paths: paths, files: make(map[string]bool, len(paths)), dirs: map[string][]string{}, goPkgs: map[string][]string{},
		tsconfigs: map[string]*tsconfig{}, rustCrates: map[string]string{}}
	for _, p := range paths {
		r.files[p] = true
		d := path.Dir(p)
		r.dirs[d] = append(r.dirs[d], p)
		switch base := path.Base(p); {
		case base == "go.mod":
			r.readGoMod(p)
		case base == "package.json" && !strings.Contains(p, "node_modules/"):
			r.readPackageJSON(p)
		case base == "Cargo.toml":
			r.readCargo(p)
		}
	}
	sort.SliceStable(r.goMods, func(i, j int) bool { return len(r.goMods[i].path) > len(r.goMods[j].path) })
	sort.SliceStable(r.workspaces, func(i, j int) bool { return len(r.workspaces[i].name) > len(r.workspaces[j].name) })
	r.pyRoots = []string{"."}
	if _, ok := r.dirs["src"]; ok || r.hasDir("src") {
		r.pyRoots = append(r.pyRoots, "src")
	}
	return r
}

// base returns the files named name, in the order of paths: a stretch of
// one list of every path sorted by file name, a fraction of the memory of
// a map of lists.
func (r *resolver) base(name string) []string {
	if r.byBase == nil {
		type named struct{ base, path string }
		all := make([]named, len(r.paths))
		for i, p := range r.paths {
			all[i] = named{path.Base(p), p}
		}
		slices.SortStableFunc(all, func(a, b named) int { return strings.Compare(a.base, b.base) })
		r.byBase, r.bases = make([]string, len(all)), make([]string, len(all))
		for i, n := range all {
			r.byBase[i], r.bases[i] = n.path, n.base
		}
	}
	i := sort.SearchStrings(r.bases, name)
	j := i
	for j < len(r.bases) && r.bases[j] == name {
		j++
	}
	return r.byBase[i:j:j]
}

func (r *resolver) hasDir(d string) bool {
	for k := range r.dirs {
		if k == d || strings.HasPrefix(k, d+"/") {
			return true
		}
	}
	return false
}

func (r *resolver) read(p string) []byte {
	b, err := fs.ReadFile(r.fsys, p)
	if err != nil {
		return nil
	}
	return b
}

// resolve fills imp.Targets for an import of a file in language l: the
// resolver's candidates that are files of the repository, sorted, without
// duplicates. A Go import of a whole package shares the package's cached
// file list (Targets are never modified in place).
func (r *resolver) resolve(l *Language, imp *Import) {
	imp.Targets = []string{}
	imp.pkgDir = ""
	if l == nil || l.resolve == nil {
		return
	}
	cand := l.resolve(r, imp)
	if len(cand) == 0 {
		return
	}
	if l.Name == "go" {
		// The files of one package (see goPackage): files of the
		// repository already, sorted, without duplicates.
		imp.Targets = cand
		if len(cand) > 1 {
			imp.pkgDir = path.Dir(cand[0])
		}
		return
	}
	targets := make([]string, 0, len(cand))
	for _, t := range cand {
		if t != "" && r.files[t] {
			targets = append(targets, t)
		}
	}
	sort.Strings(targets)
	out := targets[:0]
	for i, t := range targets {
		if i == 0 || t != targets[i-1] {
			out = append(out, t)
		}
	}
	imp.Targets = out
}

// ---- Go ----

func (r *resolver) readGoMod(p string) {
	dir := path.Dir(p)
	eachGoModLine(r.read(p), func(line string, replace bool) {
		switch {
		case strings.HasPrefix(line, "module "):
			r.goMods = append(r.goMods, goModule{path: strings.Trim(strings.TrimSpace(line[len("module "):]), `"`), dir: dir})
		case replace:
			from, to, ok := strings.Cut(strings.TrimPrefix(line, "replace "), "=>")
			if !ok {
				return
			}
			ff, tf := strings.Fields(from), strings.Fields(to)
			if len(ff) == 0 || len(tf) == 0 || !(strings.HasPrefix(tf[0], "./") || strings.HasPrefix(tf[0], "../")) {
				return
			}
			target := path.Join(dir, tf[0])
			if strings.HasPrefix(target, "../") {
				return
			}
			r.goMods = append(r.goMods, goModule{path: ff[0], dir: target})
		}
	})
}

// eachGoModLine calls fn with each line of a go.mod, trimmed and without
// its comment, saying whether it is a replace directive (a "replace" line,
// or a line of a replace block).
func eachGoModLine(content []byte, fn func(line string, replace bool)) {
	sc := bufio.NewScanner(bytes.NewReader(content))
	sc.Buffer(nil, 1<<20)
	inReplace := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.Index(line, "//"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		switch {
		case line == "":
		case line == "replace (":
			inReplace = true
		case inReplace && line == ")":
			inReplace = false
		default:
			fn(line, inReplace || strings.HasPrefix(line, "replace "))
		}
	}
}

// goModuleOf is the directory of the go.mod that owns file p.
func (r *resolver) goModuleOf(p string) string {
	best := ""
	found := false
	for _, m := range r.goMods {
		if m.dir == "." || inDir(p, m.dir) {
			if !found || len(m.dir) > len(best) {
				best, found = m.dir, true
			}
		}
	}
	if !found {
		return "."
	}
	return best
}

// inDir reports whether p is dir or below it.
func inDir(p, dir string) bool {
	return strings.HasPrefix(p, dir) && (len(p) == len(dir) || p[len(dir)] == '/')
}

// goPackage lists the non-test .go files of dir, in name order as the
// resolver's paths list them (cached: callers must not modify the result).
func (r *resolver) goPackage(dir string) []string {
	if out, ok := r.goPkgs[dir]; ok {
		return out
	}
	var out []string
	for _, f := range r.dirs[dir] {
		if strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") {
			out = append(out, f)
		}
	}
	r.goPkgs[dir] = out
	return out
}

func resolveGo(r *resolver, imp *Import) []string {
	spec := imp.Spec
	if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") {
		return r.goPackage(path.Join(path.Dir(imp.Path), spec))
	}
	// vendor directories from the importing file's module up to the root
	for d := r.goModuleOf(imp.Path); ; d = path.Dir(d) {
		if fl := r.goPackage(path.Join(d, "vendor", spec)); len(fl) > 0 {
			return fl
		}
		if d == "." || d == "/" {
			break
		}
	}
	for _, m := range r.goMods {
		var rest string
		switch {
		case m.path == "std":
			if first, _, _ := strings.Cut(spec, "/"); strings.Contains(first, ".") {
				continue
			}
			rest = spec
		case spec == m.path:
			rest = ""
		case inDir(spec, m.path):
			rest = spec[len(m.path)+1:]
		default:
			continue
		}
		if fl := r.goPackage(path.Join(m.dir, rest)); len(fl) > 0 {
			return fl
		}
	}
	return nil
}

// ---- JavaScript / TypeScript ----

var jsExts = [...]string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".json"}

func (r *resolver) probeJS(base string) []string {
	base = path.Clean(base)
	if r.files[base] {
		return []string{base}
	}
	ext := path.Ext(base)
	switch ext {
	case ".js", ".jsx", ".mjs", ".cjs": // TS sources imported by their output name
		stem := strings.TrimSuffix(base, ext)
		alts := map[string][]string{".js": {".ts", ".tsx", ".d.ts"}, ".jsx": {".tsx"}, ".mjs": {".mts", ".d.mts"}, ".cjs": {".cts", ".d.cts"}}[ext]
		for _, e := range alts {
			if r.files[stem+e] {
				return []string{stem + e}
			}
		}
	}
	for _, e := range jsExts {
		if r.files[base+e] {
			return []string{base + e}
		}
	}
	if pj := r.read(path.Join(base, "package.json")); pj != nil {
		var pkg struct{ Types, Typings, Module, Main, Source string }
		if json.Unmarshal(pj, &pkg) == nil {
			for _, e := range []string{pkg.Source, pkg.Types, pkg.Typings, pkg.Module, pkg.Main} {
				if e != "" {
					if t := r.probeJSFile(path.Join(base, e)); t != nil {
						return t
					}
				}
			}
		}
	}
	for _, e := range jsExts {
		if f := path.Join(base, "index"+e); r.files[f] {
			return []string{f}
		}
	}
	return nil
}

// probeJSFile probes a path that must name a file (no index lookup).
func (r *resolver) probeJSFile(p string) []string {
	p = path.Clean(p)
	if r.files[p] {
		return []string{p}
	}
	for _, e := range jsExts {
		if r.files[p+e] {
			return []string{p + e}
		}
	}
	return nil
}

func resolveJS(r *resolver, imp *Import) []string {
	spec := imp.Spec
	if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == ".." {
		return r.probeJS(path.Join(path.Dir(imp.Path), spec))
	}
	if strings.HasPrefix(spec, "/") {
		return r.probeJS(strings.TrimPrefix(spec, "/"))
	}
	if tc := r.tsconfigFor(path.Dir(imp.Path)); tc != nil {
		base := tc.dir
		if tc.hasBase {
			base = tc.baseURL
		}
		if t := matchTSPaths(r, tc, base, spec); t != nil {
			return t
		}
		if tc.hasBase {
			if t := r.probeJS(path.Join(tc.baseURL, spec)); t != nil {
				return t
			}
		}
	}
	for _, p := range r.workspaces {
		var sub string
		switch {
		case spec == p.name:
		case strings.HasPrefix(spec, p.name+"/"):
			sub = spec[len(p.name)+1:]
		default:
			continue
		}
		if sub != "" {
			for _, b := range []string{path.Join(p.dir, sub), path.Join(p.dir, "src", sub)} {
				if t := r.probeJS(b); t != nil {
					return t
				}
			}
			return nil
		}
		for _, e := range p.entries {
			if t := r.probeJSFile(path.Join(p.dir, e)); t != nil {
				return t
			}
		}
		for _, b := range []string{path.Join(p.dir, "src", "index"), path.Join(p.dir, "index")} {
			if t := r.probeJSFile(b); t != nil {
				return t
			}
		}
	}
	return nil
}

func matchTSPaths(r *resolver, tc *tsconfig, base, spec string) []string {
	keys := make([]string, 0, len(tc.paths))
	for k := range tc.paths {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
	for _, pat := range keys {
		star := ""
		if pre, post, ok := strings.Cut(pat, "*"); ok {
			if !strings.HasPrefix(spec, pre) || !strings.HasSuffix(spec, post) || len(spec) < len(pre)+len(post) {
				continue
			}
			star = spec[len(pre) : len(spec)-len(post)]
		} else if pat != spec {
			continue
		}
		for _, t := range tc.paths[pat] {
			if got := r.probeJS(path.Join(base, strings.Replace(t, "*", star, 1))); got != nil {
				return got
			}
		}
	}
	return nil
}

// tsconfigFor finds the nearest tsconfig.json (or jsconfig.json) at or
// above dir.
func (r *resolver) tsconfigFor(dir string) *tsconfig {
	if tc, ok := r.tsconfigs[dir]; ok {
		return tc
	}
	var tc *tsconfig
	for _, name := range []string{"tsconfig.json", "jsconfig.json"} {
		if p := path.Join(dir, name); r.files[p] {
			tc = r.loadTSConfig(p, 0)
			break
		}
	}
	if tc == nil && dir != "." {
		tc = r.tsconfigFor(path.Dir(dir))
	}
	r.tsconfigs[dir] = tc
	return tc
}

func (r *resolver) loadTSConfig(p string, depth int) *tsconfig {
	var raw struct {
		Extends         any `json:"extends"`
		CompilerOptions struct {
			BaseURL *string             `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	if json.Unmarshal(stripJSONC(r.read(p)), &raw) != nil {
		return &tsconfig{dir: path.Dir(p)}
	}
	dir := path.Dir(p)
	tc := &tsconfig{dir: dir}
	if ext, ok := raw.Extends.(string); ok && depth < 5 && (strings.HasPrefix(ext, "./") || strings.HasPrefix(ext, "../")) {
		ep := path.Join(dir, ext)
		if !strings.HasSuffix(ep, ".json") {
			ep += ".json"
		}
		if r.files[ep] {
			if parent := r.loadTSConfig(ep, depth+1); parent != nil {
				*tc = *parent
			}
		}
	}
	if raw.CompilerOptions.BaseURL != nil {
		tc.baseURL, tc.hasBase = path.Join(dir, *raw.CompilerOptions.BaseURL), true
	}
	if raw.CompilerOptions.Paths != nil {
		tc.paths = raw.CompilerOptions.Paths
		if !tc.hasBase { // paths are relative to the tsconfig that declares them
			tc.baseURL, tc.hasBase = dir, false
		}
	}
	if !tc.hasBase && tc.paths != nil {
		tc.dir = dir
	}
	return tc
}

// stripJSONC removes comments and trailing commas from JSON with comments.
func stripJSONC(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			j := skipQuoted(b, i, '"', false)
			out = append(out, b[i:j]...)
			i = j - 1
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			i--
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			j := bytes.Index(b[i+2:], []byte("*/"))
			if j < 0 {
				return out
			}
			i += j + 3
		case c == ']' || c == '}':
			k := len(out) - 1
			for k >= 0 && (out[k] == ' ' || out[k] == '\n' || out[k] == '\t' || out[k] == '\r') {
				k--
			}
			if k >= 0 && out[k] == ',' {
				out = append(out[:k], out[k+1:]...)
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

func (r *resolver) readPackageJSON(p string) {
	var pkg struct {
		Name                                 string
		Source, Types, Typings, Module, Main string
	}
	if json.Unmarshal(r.read(p), &pkg) != nil || pkg.Name == "" {
		return
	}
	var entries []string
	for _, e := range []string{pkg.Source, pkg.Types, pkg.Typings, pkg.Module, pkg.Main} {
		if e != "" {
			entries = append(entries, e)
		}
	}
	r.workspaces = append(r.workspaces, jsPackage{name: pkg.Name, dir: path.Dir(p), entries: entries})
}

// ---- Python ----

func (r *resolver) pyModule(dir, dotted string) (file string, pkgDir string) {
	p := path.Join(dir, strings.ReplaceAll(dotted, ".", "/"))
	for _, f := range []string{p + ".py", p + ".pyi"} {
		if r.files[f] {
			return f, ""
		}
	}
	for _, f := range []string{p + "/__init__.py", p + "/__init__.pyi"} {
		if r.files[f] {
			return f, p
		}
	}
	if _, ok := r.dirs[p]; ok { // namespace package
		return "", p
	}
	return "", ""
}

func resolvePython(r *resolver, imp *Import) []string {
	spec := imp.Spec
	var bases []string
	mod := spec
	if strings.HasPrefix(spec, ".") {
		dots := len(spec) - len(strings.TrimLeft(spec, "."))
		dir := path.Dir(imp.Path)
		for i := 1; i < dots; i++ {
			dir = path.Dir(dir)
		}
		bases, mod = []string{dir}, spec[dots:]
	} else {
		// a script's own directory is on sys.path; a package module's is not
		if d := path.Dir(imp.Path); !r.files[path.Join(d, "__init__.py")] {
			bases = append(bases, d)
		}
		bases = append(bases, r.pyRoots...)
	}
	for i, base := range bases {
		var file, pkg string
		if mod == "" {
			pkg = base
			for _, f := range []string{base + "/__init__.py", base + "/__init__.pyi"} {
				if r.files[path.Clean(f)] {
					file = path.Clean(f)
					break
				}
			}
		} else {
			file, pkg = r.pyModule(base, mod)
			// import a.b.c where only a.b is a module: c is an attribute
			for m := mod; file == "" && pkg == "" && strings.Contains(m, ".") && !strings.HasPrefix(spec, "."); {
				m = m[:strings.LastIndex(m, ".")]
				if f, _ := r.pyModule(base, m); f != "" {
					file = f
				}
			}
		}
		if file == "" && pkg == "" {
			continue
		}
		if base != "." && !strings.HasPrefix(spec, ".") && file == "" && i == 0 && len(bases) > len(r.pyRoots) {
			continue // a script's sibling namespace dir is too weak a guess
		}
		var out []string
		needModule := len(imp.Names) == 0
		for _, n := range imp.Names {
			if n == "*" || pkg == "" {
				needModule = true
				continue
			}
			if sub, _ := r.pyModule(pkg, n); sub != "" {
				out = append(out, sub)
			} else {
				needModule = true
			}
		}
		if needModule && file != "" {
			out = append(out, file)
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// ---- Rust ----

func (r *resolver) readCargo(p string) {
	sc := bufio.NewScanner(bytes.NewReader(r.read(p)))
	section := ""
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			section = line
			continue
		}
		if section == "[package]" && strings.HasPrefix(line, "name") {
			if _, v, ok := strings.Cut(line, "="); ok {
				name := strings.ReplaceAll(strings.Trim(strings.TrimSpace(v), `"'`), "-", "_")
				r.rustCrates[name] = path.Join(path.Dir(p), "src")
			}
		}
	}
}

// rustCrateRoot is the directory holding the crate root (lib.rs/main.rs)
// that owns file p.
func (r *resolver) rustCrateRoot(p string) (string, string) {
	for d := path.Dir(p); ; d = path.Dir(d) {
		for _, f := range []string{"lib.rs", "main.rs"} {
			if r.files[path.Join(d, f)] {
				return d, path.Join(d, f)
			}
		}
		if d == "." || d == "/" {
			return "", ""
		}
	}
}

// rustModFile maps module path segments under a crate root dir to a file.
func (r *resolver) rustModFile(root string, segs []string) string {
	if len(segs) == 0 {
		for _, f := range []string{"lib.rs", "main.rs"} {
			if p := path.Join(root, f); r.files[p] {
				return p
			}
		}
		return ""
	}
	p := path.Join(append([]string{root}, segs...)...)
	if r.files[p+".rs"] {
		return p + ".rs"
	}
	if r.files[p+"/mod.rs"] {
		return p + "/mod.rs"
	}
	return ""
}

// rustLongest resolves the longest prefix of segs that is a module.
func (r *resolver) rustLongest(root string, segs []string) string {
	for n := len(segs); n >= 0; n-- {
		if f := r.rustModFile(root, segs[:n]); f != "" {
			return f
		}
	}
	return ""
}

// rustModPath is the module path of file p below crate root dir.
func rustModPath(root, p string) []string {
	rel := strings.TrimPrefix(p, root+"/")
	if root == "." {
		rel = p
	}
	rel = strings.TrimSuffix(rel, ".rs")
	segs := strings.Split(rel, "/")
	last := segs[len(segs)-1]
	if last == "mod" || (len(segs) == 1 && (last == "lib" || last == "main")) {
		segs = segs[:len(segs)-1]
	}
	return segs
}

func resolveRust(r *resolver, imp *Import) []string {
	spec := imp.Spec
	if name, ok := strings.CutPrefix(spec, "mod "); ok {
		dir := path.Dir(imp.Path)
		base := path.Base(imp.Path)
		if base != "mod.rs" && base != "lib.rs" && base != "main.rs" {
			dir = path.Join(dir, strings.TrimSuffix(base, ".rs"))
		}
		for _, f := range []string{path.Join(dir, name+".rs"), path.Join(dir, name, "mod.rs")} {
			if r.files[f] {
				return []string{f}
			}
		}
		return nil
	}
	segs := strings.Split(spec, "::")
	if segs[len(segs)-1] == "*" {
		segs = segs[:len(segs)-1]
	}
	if len(segs) == 0 {
		return nil
	}
	root, _ := r.rustCrateRoot(imp.Path)
	here := rustModPath(root, imp.Path)
	var mod []string
	switch segs[0] {
	case "crate":
		if root == "" {
			return nil
		}
		mod = segs[1:]
	case "self", "super":
		if root == "" {
			return nil
		}
		mod = append([]string(nil), here...)
		i := 0
		if segs[0] == "self" {
			i = 1
		}
		for ; i < len(segs) && segs[i] == "super"; i++ {
			if len(mod) > 0 {
				mod = mod[:len(mod)-1]
			}
		}
		mod = append(mod, segs[i:]...)
	default:
		if dir, ok := r.rustCrates[segs[0]]; ok {
			if f := r.rustLongest(dir, segs[1:]); f != "" {
				return []string{f}
			}
			return nil
		}
		if root == "" {
			return nil
		}
		// uniform paths: a module declared in the current module
		cand := append(append([]string(nil), here...), segs...)
		if f := r.rustModFile(root, cand[:len(here)+1]); f != "" {
			return []string{r.rustLongest(root, cand)}
		}
		return nil
	}
	if f := r.rustLongest(root, mod); f != "" {
		return []string{f}
	}
	return nil
}

// ---- Java ----

func resolveJava(r *resolver, imp *Import) []string {
	spec := strings.TrimPrefix(imp.Spec, "static ")
	static := spec != imp.Spec
	segs := strings.Split(spec, ".")
	if segs[len(segs)-1] == "*" {
		pkg := strings.Join(segs[:len(segs)-1], "/")
		var out []string
		if !static {
			for d, fl := range r.dirs {
				if d != pkg && !strings.HasSuffix(d, "/"+pkg) {
					continue
				}
				for _, f := range fl {
					if strings.HasSuffix(f, ".java") {
						out = append(out, f)
					}
				}
			}
			if len(out) > 0 {
				return out
			}
		}
		segs = segs[:len(segs)-1] // a class's members: import a.b.C.*
	}
	if static {
		segs = segs[:len(segs)-1]
	}
	for n := len(segs); n >= 1; n-- {
		rel := strings.Join(segs[:n], "/") + ".java"
		for _, f := range r.base(path.Base(rel)) {
			if f == rel || strings.HasSuffix(f, "/"+rel) {
				return []string{f}
			}
		}
	}
	return nil
}

// ---- C ----

func resolveC(r *resolver, imp *Import) []string {
	spec := imp.Spec
	system := strings.HasPrefix(spec, "<")
	spec = strings.TrimSuffix(strings.TrimPrefix(spec, "<"), ">")
	if !system {
		if p := path.Join(path.Dir(imp.Path), spec); r.files[p] {
			return []string{p}
		}
	}
	if r.files[path.Clean(spec)] {
		return []string{path.Clean(spec)}
	}
	// include directories: the shortest path ending in /spec
	best := ""
	for _, f := range r.base(path.Base(spec)) {
		if strings.HasSuffix(f, "/"+spec) && (best == "" || len(f) < len(best) || (len(f) == len(best) && f < best)) {
			best = f
		}
	}
	if best != "" {
		return []string{best}
	}
	return nil
}
