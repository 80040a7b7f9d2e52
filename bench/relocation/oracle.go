package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// The refactoring types that move or rename a method or a class: the ones
// an anchor must follow. Their names are RefactoringMiner's.
var relocating = []string{
	"Rename Method", "Move Method", "Move And Rename Method", "Pull Up Method", "Push Down Method",
	"Rename Class", "Move Class", "Move And Rename Class",
}

func isRelocating(t string) bool {
	for _, r := range relocating {
		if r == t {
			return true
		}
	}
	return false
}

// commit is one commit of an oracle with its refactorings.
type commit struct {
	Dataset string // tse, python, javascript, kotlin
	Project string // the repository's name: commons-io, dit, Chart.js
	SHA     string
	Lang    string // java, python, javascript, kotlin
	Refs    []refactoring
}

// refactoring is one validated instance.
type refactoring struct {
	Type  string
	Desc  string
	Valid bool
	// Before and After are what moved: a class (Method empty) or a
	// method of a class.
	Before, After entity
}

// entity is a class or a method as RefactoringMiner names it: the
// qualified name of the class (dots; "mod.__module__" for a module's top
// level, "File.module" for a Kotlin file's) and, for methods, the name and
// the parameters (Java: types; Python and JavaScript: names; Kotlin:
// "name Type" as written, the type "Inferred" when RefactoringMiner could
// not read it). A Kotlin extension function's name carries its receiver
// type: "Fragment.getVmFactory".
type entity struct {
	Class  string
	Method string
	Params []string
}

func (e entity) String() string {
	if e.Method == "" {
		return e.Class
	}
	return fmt.Sprintf("%s.%s(%s)", e.Class, e.Method, strings.Join(e.Params, ","))
}

// loadOracle reads the datasets under dir (RefactoringMiner's
// src/test/resources/oracle): tse-dataset/*.json, python-dataset,
// javascript-dataset, kotlin-dataset and the purity study's sample of
// the main oracle (sampleResPurity.json), and mains, samples of the main oracle (data.json,
// the same record format as python-dataset) read as one, each commit
// once, of those files that exist.
func loadOracle(dir string, mains []string) ([]commit, error) {
	var out []commit
	tse, _ := filepath.Glob(filepath.Join(dir, "tse-dataset", "*.json"))
	sort.Strings(tse)
	for _, p := range tse {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var d struct {
			Results []struct {
				Repository string   `json:"repository"`
				SHA        string   `json:"sha1"`
				Common     []tseRef `json:"commonRefactoring"`
				Ours       []tseRef `json:"ourApproach"`
				Baseline   []tseRef `json:"baseline"`
			} `json:"results"`
		}
		if err := json.Unmarshal(b, &d); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		for _, r := range d.Results {
			c := commit{Dataset: "tse", Project: repoName(r.Repository), SHA: r.SHA, Lang: "java"}
			for _, list := range [][]tseRef{r.Common, r.Ours, r.Baseline} {
				for _, x := range list {
					typ, rest, _ := strings.Cut(x.Description, "\t")
					c.add(typ, rest, x.Validation)
				}
			}
			out = append(out, c)
		}
	}
	type dataset struct{ name, lang, path string }
	sets := []dataset{
		{"python", "python", filepath.Join(dir, "python-dataset", "data.json")},
		{"javascript", "javascript", filepath.Join(dir, "javascript-dataset", "data.json")},
		{"kotlin", "kotlin", filepath.Join(dir, "kotlin-dataset", "data.json")},
		{"purity", "java", filepath.Join(dir, "sampleResPurity.json")},
	}
	for _, m := range mains {
		sets = append(sets, dataset{"main", "java", m})
	}
	seen := map[string]bool{}
	for _, ds := range sets {
		cs, err := loadArray(ds.path, ds.name, ds.lang)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			if key := ds.name + " " + c.SHA; !seen[key] {
				seen[key] = true
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// loadArray reads a JSON array of {repository, sha1, refactorings: [{type,
// description, validation}]}; a file that does not exist holds no
// commits.
func loadArray(path, dataset, lang string) ([]commit, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var d []struct {
		Repository string `json:"repository"`
		SHA        string `json:"sha1"`
		Refs       []struct {
			Type        string  `json:"type"`
			Description string  `json:"description"`
			Validation  *string `json:"validation"`
		} `json:"refactorings"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []commit
	for _, r := range d {
		c := commit{Dataset: dataset, Project: repoName(r.Repository), SHA: r.SHA, Lang: lang}
		for _, x := range r.Refs {
			// "Type description": a space, or a tab in the purity sample.
			rest := strings.TrimLeft(strings.TrimPrefix(x.Description, x.Type), " \t")
			// The purity study's sample carries no validation: its
			// refactorings were drawn from the oracle's true positives.
			valid := dataset == "purity"
			if x.Validation != nil {
				valid = *x.Validation == "TP" || *x.Validation == "CTP"
			}
			c.add(x.Type, rest, valid)
		}
		out = append(out, c)
	}
	return out, nil
}

type tseRef struct {
	Description string `json:"description"`
	Validation  bool   `json:"validation"`
}

func repoName(url string) string {
	return strings.TrimSuffix(filepath.Base(strings.TrimSuffix(url, "/")), ".git")
}

var (
	reRenameMethod  = regexp.MustCompile(`^(.*) renamed to (.*) in class (\S+)$`)
	reMoveMethod    = regexp.MustCompile(`^(.*?) from class (\S+) to (.*) from class (\S+)$`)
	reExtractInline = regexp.MustCompile(`^(.*) (?:extracted from|inlined to) (.*) in class (\S+)$`)
	reRenameClass   = regexp.MustCompile(`^(\S+) (?:renamed to|moved to|moved and renamed to) (\S+)$`)
	reOperation     = regexp.MustCompile(`^(?:(?:public|private|protected|package)\s+)?(?:(?:abstract|static|default|final|synchronized)\s+)*([^\s(]+)\((.*)\)(?:\s*:\s*.*)?$`)
)

// add parses one description of a relocating type, of Extract Method and
// of Inline Method (whose anchored side must not be relocated); other
// types are recorded without entities.
func (c *commit) add(typ, desc string, valid bool) {
	r := refactoring{Type: typ, Desc: desc, Valid: valid}
	if typ == "Extract Method" || typ == "Inline Method" {
		if m := reExtractInline.FindStringSubmatch(desc); m != nil {
			// Extract: the method extracted from stays; Inline: the
			// inlined method is gone, its code in another one.
			e1, ok1 := operation(m[1], m[3], c.Lang)
			e2, ok2 := operation(m[2], m[3], c.Lang)
			if ok1 && ok2 {
				r.Before, r.After = e2, e2
				if typ == "Inline Method" {
					r.Before, r.After = e1, e2
				}
			}
		}
		c.Refs = append(c.Refs, r)
		return
	}
	if !isRelocating(typ) {
		c.Refs = append(c.Refs, r)
		return
	}
	ok := false
	switch {
	case strings.HasSuffix(typ, "Class"):
		if m := reRenameClass.FindStringSubmatch(desc); m != nil {
			r.Before, r.After, ok = entity{Class: m[1]}, entity{Class: m[2]}, true
		}
	case typ == "Rename Method":
		if m := reRenameMethod.FindStringSubmatch(desc); m != nil {
			var ok1, ok2 bool
			r.Before, ok1 = operation(m[1], m[3], c.Lang)
			r.After, ok2 = operation(m[2], m[3], c.Lang)
			ok = ok1 && ok2
		}
	default:
		if m := reMoveMethod.FindStringSubmatch(desc); m != nil {
			var ok1, ok2 bool
			r.Before, ok1 = operation(m[1], m[2], c.Lang)
			r.After, ok2 = operation(m[3], m[4], c.Lang)
			ok = ok1 && ok2
		}
	}
	if !ok {
		r.Before, r.After = entity{}, entity{}
	}
	c.Refs = append(c.Refs, r)
}

// operation parses "public name(p1 T1, p2 T2) : R" (Java) or
// "public name(a, b)" (Python, JavaScript).
func operation(s, class, lang string) (entity, bool) {
	if lang == "kotlin" {
		return kotlinOperation(s, class)
	}
	m := reOperation.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return entity{}, false
	}
	e := entity{Class: class, Method: m[1]}
	for _, p := range splitTop(m[2]) {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if lang == "java" {
			// "name Type": the type is everything after the name.
			_, t, found := strings.Cut(p, " ")
			if !found {
				return entity{}, false
			}
			e.Params = append(e.Params, javaErasure(t))
		} else {
			e.Params = append(e.Params, p)
		}
	}
	return e, true
}

// reKotlinModifiers are the modifiers RefactoringMiner writes before a
// function's name in the Kotlin oracle (Java's too: its commits hold Java
// files).
var reKotlinModifiers = regexp.MustCompile(`^(?:(?:public|private|protected|internal|package|abstract|open|override|final|suspend|inline|operator|infix|tailrec|external|static|default|synchronized)\s+)*`)

// kotlinOperation parses "private Recv<T>.name(p1 T1, p2 (A) -> B) : R":
// the receiver stays in the name (Recv<T>.name), the parameters are kept
// as written ("p1 T1"), a type may hold parentheses (a function type).
func kotlinOperation(s, class string) (entity, bool) {
	s = strings.TrimSpace(s)
	s = s[len(reKotlinModifiers.FindString(s)):]
	open := strings.IndexByte(s, '(')
	if open <= 0 {
		return entity{}, false
	}
	end := closing(s, open)
	if end < 0 {
		return entity{}, false
	}
	if rest := strings.TrimSpace(s[end+1:]); rest != "" && !strings.HasPrefix(rest, ":") {
		return entity{}, false
	}
	e := entity{Class: class, Method: strings.TrimSpace(s[:open])}
	if strings.ContainsAny(e.Method, " \t") && !strings.Contains(e.Method, "<") {
		return entity{}, false
	}
	for _, p := range splitKotlin(s[open+1 : end]) {
		if p = strings.TrimSpace(p); p != "" {
			e.Params = append(e.Params, p)
		}
	}
	return e, true
}

// splitTop splits s at commas outside brackets.
func splitTop(s string) []string { return splitParams(s, false) }

// splitKotlin splits s at commas outside brackets, where the arrow of a
// function type ((A) -> B) closes none.
func splitKotlin(s string) []string { return splitParams(s, true) }

func splitParams(s string, arrows bool) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(', '[', '{':
			depth++
		case '>', ')', ']', '}':
			if arrows && s[i] == '>' && i > 0 && s[i-1] == '-' {
				continue
			}
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// javaErasure reduces a Java type as written to what identifies an
// overload: no type arguments, no package, no spaces ("Map.Entry<K,V>[]"
// → "Entry[]", "T..." stays "T...").
func javaErasure(t string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c == '<':
			depth++
		case c == '>':
			depth--
		case depth > 0 || c == ' ' || c == '\t':
		default:
			b.WriteByte(c)
		}
	}
	s := b.String()
	varargs := strings.HasSuffix(s, "...")
	s = strings.TrimSuffix(s, "...")
	if i := strings.LastIndex(s, "."); i >= 0 {
		s = s[i+1:]
	}
	if varargs {
		s += "..."
	}
	return s
}
