// Command history replays a repository's real history through lore's
// verification, with a parser lore did not write as the oracle: go/parser
// for Go, CPython's ast module for Python, the TypeScript compiler for
// TypeScript and JavaScript, javac's for Java, Ruby's own
// (RubyVM::AbstractSyntaxTree) for Ruby, PHP's own (through the php-ast
// extension) for PHP, clang (through libclang) for C, rustc's for Rust.
// For every commit it anchors, at the parent, the functions, methods and
// types (Python: functions, classes, methods; TypeScript: also
// interfaces, aliases, enums, variables; Java: types, methods,
// constructors, fields; Ruby: classes, modules, methods; PHP: classes,
// interfaces, traits, enums, functions, methods; C: functions, structs,
// unions, enums; Rust: functions, structs, enums, unions, traits, and
// the functions of impl blocks and traits) of the
// files the commit changed, verifies them at the commit as a pre-commit
// hook or a CI job would (the parent as the base, git's renames), and
// compares lore's verdict with what the two syntax trees say:
//
//   - a declaration whose tree did not change, in its file: lore must say
//     valid (anything else is a false alarm);
//   - one whose tree changed: drifted (valid is a missed drift);
//   - one that moved to another file: followed there, valid or drifted as
//     its tree says. In Go, a name that went to another file of its
//     package, since Go declares a name once per package, whatever its
//     code; in Python, TypeScript, Ruby and PHP, a name that left its file when
//     exactly one changed file gained it (they have no such rule: a name
//     that left two files, or went to two, is left out); in Java, a
//     member by its name and parameter types, into any type (a member
//     whose name's overloads changed in number is left out: which of
//     them it became is a reader's call);
//   - one whose name is gone: renamed or deleted, which the trees cannot
//     tell; every one lore follows is listed, to be read.
//
// A tree holds no comments and no layout, and none of what lore's hash
// defines as layout (docs/fingerprints.md): Go numbers count by their
// value (0644 is 0o644), Python's docstrings are left out, and blanks at
// line ends do not count, in raw strings either; TypeScript's
// parentheses, quotes and semicolons are not in its tree, nor Java's
// parentheses, modifier order or string literals split with +, nor Ruby's
// quotes, parentheses, hash rockets or block braces, nor PHP's quotes,
// parentheses, string literals split with ".", "else if" against
// "elseif" or the case of true, false, null. A name the
// commit kept whose code lore says went under another name (renamed
// away, the name now holding other code) is counted apart (elsewh), to be
// read: the name alone cannot tell that from an edit.
//
// With -lang lines the anchors are the ones a person writes without a
// symbol, in files of any kind: line ranges (of 1, 5 and 20 lines, at
// each file's start, middle and end and about its first hunks) and whole
// files, with C git's diff (-M, --histogram, no context) as the oracle
// (see linesOracle): a range the diff leaves alone must be valid at the
// lines the hunks before it shift it to, one it touches drifted (either
// verdict where a diff that ignores blanks leaves it alone), a file
// with no hunk (a pure rename) valid, one with hunks drifted, a deleted
// one not followed but to read.
//
//	go run ./bench/history -repo DIR [-lang go|python|ts|java|ruby|php|c|rust|lines] [-rev REV] [-commits N] [-per N] [-v]
//
// -lang ts needs -typescript, the directory of the typescript npm
// package; -lang java a JDK 17 or later (-java, its java launcher);
// -lang ruby a Ruby 2.6 or later (-ruby); -lang php a PHP 8 with the
// ast extension (-php); -lang c a Python 3 with libclang's bindings
// (-python, -libclang); -lang rust rustc (-rustc) and a Python 3
// (-python).
//
// -repo is a clone (bare or not); the commits are the last N of REV's
// first-parent history, a merge compared with its first parent (what a
// pull request brought).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/bench/internal/gitrun"
	"github.com/lorehq/lore/source"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "history:", err)
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("history", flag.ContinueOnError)
	fl.SetOutput(stderr)
	repoDir := fl.String("repo", "", "a clone of the repository (bare or not)")
	rev := fl.String("rev", "HEAD", "the revision whose first-parent history is replayed")
	n := fl.Int("commits", 100, "how many commits, the newest of that history")
	per := fl.Int("per", 20, "per commit, at most this many declarations of each kind but moves (spread over the commit)")
	lang := fl.String("lang", "go", "the language replayed: go (go/parser as the oracle), python (CPython's ast, run by -python), ts (TypeScript and JavaScript: the TypeScript compiler, run by -node), java (javac's parser, run by -java), ruby (Ruby's parser, run by -ruby), php (php-ast, run by -php), c (clang, through libclang's Python bindings, run by -python), rust (rustc's parser, run by -rustc through -python), or lines: line ranges and whole files of any text, against C git's diff")
	python := fl.String("python", "python3", "with -lang python, the Python 3 interpreter; with -lang c, one that imports clang.cindex; with -lang rust, the one that runs rustc")
	node := fl.String("node", "node", "with -lang ts, Node.js")
	typescript := fl.String("typescript", "", "with -lang ts, the directory of the typescript npm package (node_modules/typescript)")
	java := fl.String("java", "java", "with -lang java, the java launcher of a JDK 17 or later")
	ruby := fl.String("ruby", "ruby", "with -lang ruby, the Ruby interpreter (2.6 or later)")
	php := fl.String("php", "php", "with -lang php, a PHP 8 interpreter with the ast extension")
	rustc := fl.String("rustc", "rustc", "with -lang rust, rustc (1.80 or later; its unstable tree printing is let run by RUSTC_BOOTSTRAP=1)")
	libclang := fl.String("libclang", "/usr/lib/llvm-14/lib/libclang-14.so.1", "with -lang c, the libclang shared library that -python's clang.cindex loads")
	verbose := fl.Bool("v", false, "list every verdict the oracle disagrees with, and every gone declaration lore followed")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *repoDir == "" {
		return fmt.Errorf("give -repo DIR, a clone of the repository")
	}
	if *n < 1 || *per < 1 {
		return fmt.Errorf("-commits and -per: want at least 1")
	}
	// The oracles but Go's run a parser of another language's own, one
	// process for the run.
	scripts := map[string]func() (*scriptOracle, error){
		"python": func() (*scriptOracle, error) { return newPyOracle(ctx, *python) },
		"ts":     func() (*scriptOracle, error) { return newTSOracle(ctx, *node, *typescript) },
		"java":   func() (*scriptOracle, error) { return newJavaOracle(ctx, *java) },
		"ruby":   func() (*scriptOracle, error) { return newRubyOracle(ctx, *ruby) },
		"php":    func() (*scriptOracle, error) { return newPHPOracle(ctx, *php) },
		"c":      func() (*scriptOracle, error) { return newCOracle(ctx, *python, *libclang) },
		"rust":   func() (*scriptOracle, error) { return newRustOracle(ctx, *python, *rustc) },
	}
	var o oracle
	switch start, ok := scripts[*lang]; {
	case *lang == "go":
		o = goOracle{}
	case *lang == "lines":
		o = linesOracle{}
	case ok:
		so, err := start()
		if err != nil {
			return err
		}
		defer so.close()
		o = so
	default:
		return fmt.Errorf("-lang %s: want go, python, ts, java, ruby, php, c, rust or lines", *lang)
	}
	repo, err := source.OpenRepo(*repoDir)
	if err != nil {
		return err
	}
	if _, err := gitrun.Output(ctx, *repoDir, "rev-parse", "--verify", "--quiet", *rev+"^{commit}"); err != nil {
		return fmt.Errorf("-rev %s: not a commit of %s", *rev, *repoDir)
	}
	out, err := gitrun.Output(ctx, *repoDir, "rev-list", "--first-parent", "-n", fmt.Sprint(*n+1), *rev)
	if err != nil {
		return err
	}
	shas := strings.Fields(string(out))
	slices.Reverse(shas)
	start := time.Now()
	_, lines := o.(linesOracle)
	tally := &tally{oracle: o.name(), lines: lines}
	parsed := anchors.NewParsed(1 << 16)
	for i := 1; i < len(shas); i++ {
		parent, sha := shas[i-1], shas[i]
		c, err := replayCommit(ctx, o, repo, *repoDir, parent, sha, *per, parsed)
		if err != nil {
			// A clone may lack an object (a fetched snapshot leaves its
			// largest files out): the commit is left out, and said so.
			tally.skipped = append(tally.skipped, fmt.Sprintf("%.10s: %v", sha, err))
			continue
		}
		tally.add(c)
		fmt.Fprintf(stderr, "\r%d/%d %.10s", i, len(shas)-1, sha)
	}
	fmt.Fprintln(stderr)
	tally.write(stdout, *verbose, len(shas)-1, time.Since(start))
	return nil
}

// outcome of one declaration.
type outcome int

const (
	agree     outcome = iota
	alarm             // unchanged, reported not valid
	undrifted         // changed, reported valid
	elsewhere         // followed somewhere the oracle does not say
	suggested         // a move not followed, its target among the candidates
	lost              // a move not followed, not among the candidates
	followed          // gone, followed somewhere: to be read
)

// String is how a listed verdict is marked.
func (o outcome) String() string {
	switch o {
	case alarm:
		return "ALARM"
	case undrifted:
		return "UNDRIFTED"
	case elsewhere:
		return "ELSEWHERE"
	case suggested:
		return "SUGGESTED"
	case lost:
		return "LOST"
	case followed:
		return "FOLLOWED-GONE"
	}
	return "agree"
}

// verdict is one declaration as replayed.
type verdict struct {
	sha     string
	fate    fate
	outcome outcome
	result  anchors.Result
}

func (v verdict) String() string {
	r := v.result
	to := ""
	if r.To != nil {
		to = " → " + anchors.LocationSpec(*r.To)
	}
	want := "gone"
	if v.fate.kind != gone {
		want = fmt.Sprintf("%s, same tree %v", v.fate.after.spec(), v.fate.same)
	}
	return fmt.Sprintf("%.10s %s | oracle: %s | lore: %s %s%s (%.2f): %s", v.sha, v.fate.before.spec(), want, r.Status, r.Change, to, r.Confidence, r.Reason)
}

// replayCommit anchors the commit's declarations at parent and verifies
// them at sha.
func replayCommit(ctx context.Context, o oracle, repo *source.Repo, dir, parentSHA, sha string, per int, parsed *anchors.Parsed) ([]verdict, error) {
	pt, err := repo.Tree(parentSHA)
	if err != nil {
		return nil, err
	}
	ct, err := repo.Tree(sha)
	if err != nil {
		return nil, err
	}
	out, err := gitrun.Output(ctx, dir, "diff", "--name-status", "-z", "-M", parentSHA, sha)
	if err != nil {
		return nil, err
	}
	changed, renames := parseNameStatus(out)
	found, err := o.fates(commit{ctx: ctx, dir: dir, parentSHA: parentSHA, sha: sha, parent: pt, child: ct, changed: changed, renames: renames})
	if err != nil {
		return nil, err
	}
	found = sample(found, per)
	if len(found) == 0 {
		return nil, nil
	}
	parent, err := anchors.NewSource(pt, anchors.SourceOptions{Parsed: parsed})
	if err != nil {
		return nil, err
	}
	defer parent.Close()
	child, err := anchors.NewSource(ct, anchors.SourceOptions{Parsed: parsed, Renames: renames})
	if err != nil {
		return nil, err
	}
	defer child.Close()
	paths := slices.Sorted(maps.Keys(changed))
	v, err := anchors.NewVerifier(child, anchors.Options{Base: parent, Changed: func(context.Context) []string { return paths }})
	if err != nil {
		return nil, err
	}
	// The gone are verified apart: beside the others they would contest
	// their targets (two anchors never take one place).
	var kept, goneFates []fate
	var keptAs, goneAs []anchors.Anchor
	for _, f := range found {
		a, err := anchors.ParseSpec(f.before.spec())
		if err == nil {
			a, err = anchors.Baseline(ctx, parent, a)
		}
		if err != nil {
			continue // not a symbol lore reads (a file past its size limit)
		}
		if f.kind == gone {
			goneFates, goneAs = append(goneFates, f), append(goneAs, a)
		} else {
			kept, keptAs = append(kept, f), append(keptAs, a)
		}
	}
	var vs []verdict
	verify := func(fs []fate, as []anchors.Anchor) {
		for i, r := range v.VerifyAll(ctx, as) {
			vs = append(vs, verdict{sha: sha, fate: fs[i], outcome: judge(fs[i], r), result: r})
		}
	}
	verify(kept, keptAs)
	verify(goneFates, goneAs)
	return vs, nil
}

// judge compares lore's verdict with the oracle's fate.
func judge(f fate, r anchors.Result) outcome {
	if f.before.name == "" {
		return judgeLines(f, r)
	}
	if f.kind == gone {
		if r.To != nil && r.Status != anchors.Invalid && r.Change != anchors.ChangeNoMatch && !names(*r.To, f.before.spec()) {
			return followed
		}
		return agree
	}
	want := f.after.spec()
	at := r.To != nil && names(*r.To, want) && r.Status != anchors.Invalid
	if !at && f.kind == inPlace && r.To == nil && r.Status != anchors.Invalid && f.before.spec() == want {
		at = true // verified where it was
	}
	switch {
	case at && f.same && r.Status == anchors.Valid, at && !f.same && r.Status == anchors.Drifted:
		return agree
	case at && f.same:
		return alarm
	case at:
		return undrifted
	case r.To != nil && r.Status != anchors.Invalid && r.Change != anchors.ChangeNoMatch:
		return elsewhere
	case slices.ContainsFunc(r.Candidates, func(c anchors.Candidate) bool { return names(c.Location, want) }):
		return suggested
	case f.kind == inPlace && f.same:
		return alarm
	}
	return lost
}

// judgeLines compares lore's verdict on a line range or a file with C
// git's diff: a kept range must be valid at the lines the diff moved it
// to (elsewhere: valid at other lines, to read), a changed one not valid
// but in blanks only, where either is right; a deleted file not
// followed but to read.
func judgeLines(f fate, r anchors.Result) outcome {
	want := f.after.spec()
	switch {
	case f.kind == gone:
		if r.To != nil && r.Status != anchors.Invalid && r.Change != anchors.ChangeNoMatch {
			return followed
		}
		return agree
	case f.same && r.Status == anchors.Valid:
		if r.To == nil && f.before.spec() == want || r.To != nil && anchors.LocationSpec(*r.To) == want {
			return agree
		}
		return elsewhere
	case f.same:
		return alarm
	case r.Status == anchors.Valid && !f.blanks:
		return undrifted
	}
	return agree
}

// names reports whether l is the symbol spec names; an overload's spec
// carries its selector ("C::m(String,int)"), as l's does.
func names(l anchors.Location, spec string) bool {
	return l.FQName == spec || anchors.LocationSpec(l) == spec
}

// sample keeps every move and at most per declarations of each other
// kind (in place unchanged, in place changed, gone), spread over the
// commit.
func sample(fs []fate, per int) []fate {
	groups := map[string][]fate{}
	for _, f := range fs {
		k := fmt.Sprint(f.kind, f.same)
		groups[k] = append(groups[k], f)
	}
	var out []fate
	for _, k := range slices.Sorted(maps.Keys(groups)) {
		g := groups[k]
		if g[0].kind == moved || len(g) <= per {
			out = append(out, g...)
			continue
		}
		for i := range per {
			out = append(out, g[i*len(g)/per])
		}
	}
	return out
}
