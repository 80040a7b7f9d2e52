// Command windows rebuilds whole commit objects of RefactoringMiner's main
// oracle (src/test/resources/oracle/data.json, a JSON array of
// {"id", "repository", "sha1", "refactorings": [...]}) from windows of it
// read at fixed offsets, and writes the commits worth replaying as a JSON
// array that bench/relocation loads with -main.
//
//	go run ./bench/relocation/windows -o OUT.json [-commits DIR] [-clones DIR] WINDOW...
//
// A window file is named GROUP-OFFSET.txt (or .json): the files of one
// group are the windows read one after the other from one starting offset,
// joined in offset order. A commit object counts when it starts inside a
// group and closes inside it (balanced braces, strings respected); one cut
// at either end is left out. A commit is kept when it has a relocating
// refactoring validated TP or CTP and, given -commits or -clones, a
// snapshot (DIR/PROJECT-SHA.json) or a clone (DIR/PROJECT) to read it from.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The refactoring types bench/relocation follows, as RefactoringMiner
// names them.
var relocating = map[string]bool{
	"Rename Method": true, "Move Method": true, "Move And Rename Method": true, "Pull Up Method": true,
	"Push Down Method": true, "Rename Class": true, "Move Class": true, "Move And Rename Class": true,
}

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "windows:", err)
		os.Exit(2)
	}
}

func run(args []string, log io.Writer) error {
	fl := flag.NewFlagSet("windows", flag.ContinueOnError)
	fl.SetOutput(log)
	out := fl.String("o", "", "the JSON array to write")
	commits := fl.String("commits", "", "the oracle's commit snapshots (PROJECT-SHA.json)")
	clones := fl.String("clones", "", "clones named like the repositories")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *out == "" || fl.NArg() == 0 {
		return fmt.Errorf("give -o OUT.json and the window files")
	}
	groups, err := readGroups(fl.Args())
	if err != nil {
		return err
	}
	var kept []json.RawMessage
	seen := map[string]bool{}
	var found, cut, bad, noRelocation, noSource int
	types := map[string]int{}
	for _, g := range groups {
		objs, unclosed := extract(g)
		found += len(objs)
		cut += unclosed
		for _, raw := range objs {
			var c record
			if err := json.Unmarshal(raw, &c); err != nil || c.SHA1 == "" {
				fmt.Fprintf(log, "a commit object does not parse: %v\n", err)
				bad++
				continue
			}
			if seen[c.SHA1] {
				continue
			}
			seen[c.SHA1] = true
			n := c.relocations(types)
			switch {
			case n == 0:
				noRelocation++
			case !available(c, *commits, *clones):
				noSource++
				fmt.Fprintf(log, "no snapshot or clone: %s %s\n", project(c.Repository), c.SHA1)
			default:
				kept = append(kept, raw)
			}
		}
	}
	var b bytes.Buffer
	b.WriteString("[")
	for i, raw := range kept {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n")
		if err := json.Indent(&b, raw, "", "  "); err != nil {
			return err
		}
	}
	b.WriteString("\n]\n")
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(log, "%d groups, %d whole commits (%d cut, %d unparsable); kept %d, %d without a relocating TP, %d without snapshot or clone\n",
		len(groups), found, cut, bad, len(kept), noRelocation, noSource)
	var ts []string
	for t := range types {
		ts = append(ts, t)
	}
	sort.Strings(ts)
	total := 0
	for _, t := range ts {
		fmt.Fprintf(log, "  %-24s %d\n", t, types[t])
		total += types[t]
	}
	fmt.Fprintf(log, "  %-24s %d\n", "relocating TP in kept", total)
	return nil
}

// record is the part of a commit object this command reads.
type record struct {
	Repository   string `json:"repository"`
	SHA1         string `json:"sha1"`
	Refactorings []struct {
		Type       string `json:"type"`
		Validation string `json:"validation"`
	} `json:"refactorings"`
}

// relocations counts the commit's relocating refactorings validated TP or
// CTP, adding them to byType when there are any.
func (c record) relocations(byType map[string]int) int {
	var types []string
	for _, r := range c.Refactorings {
		if relocating[r.Type] && (r.Validation == "TP" || r.Validation == "CTP") {
			types = append(types, r.Type)
		}
	}
	for _, t := range types {
		byType[t]++
	}
	return len(types)
}

func project(repository string) string {
	return strings.TrimSuffix(filepath.Base(strings.TrimSuffix(repository, "/")), ".git")
}

// available reports whether the commit can be read: from a snapshot or a
// clone. With neither directory given, every commit is.
func available(c record, commits, clones string) bool {
	if commits == "" && clones == "" {
		return true
	}
	p := project(c.Repository)
	if commits != "" {
		if _, err := os.Stat(filepath.Join(commits, p+"-"+c.SHA1+".json")); err == nil {
			return true
		}
	}
	if clones != "" {
		if _, err := os.Stat(filepath.Join(clones, p)); err == nil {
			return true
		}
	}
	return false
}

var windowName = regexp.MustCompile(`^(.*)-(\d+)\.(?:txt|json)$`)

// readGroups reads the window files and joins each group's in offset
// order.
func readGroups(paths []string) ([][]byte, error) {
	type window struct {
		offset int
		text   []byte
	}
	byGroup := map[string][]window{}
	for _, p := range paths {
		m := windowName.FindStringSubmatch(filepath.Base(p))
		if m == nil {
			return nil, fmt.Errorf("%s: name a window GROUP-OFFSET.txt", p)
		}
		off, err := strconv.Atoi(m[2])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		g := filepath.Join(filepath.Dir(p), m[1])
		byGroup[g] = append(byGroup[g], window{off, b})
	}
	var names []string
	for g := range byGroup {
		names = append(names, g)
	}
	sort.Strings(names)
	var out [][]byte
	for _, g := range names {
		ws := byGroup[g]
		sort.Slice(ws, func(i, j int) bool { return ws[i].offset < ws[j].offset })
		var b []byte
		for _, w := range ws {
			b = append(b, w.text...)
		}
		out = append(out, b)
	}
	return out, nil
}

// commitStart matches where a commit object opens: refactoring objects
// open with "type", commits with "id".
var commitStart = regexp.MustCompile(`\{\s*"id"\s*:`)

// extract returns the commit objects that open and close inside text, and
// how many open but do not close. Text before the first opening belongs
// to a commit that started earlier and is skipped.
func extract(text []byte) (objs []json.RawMessage, unclosed int) {
	pos := 0
	for {
		loc := commitStart.FindIndex(text[pos:])
		if loc == nil {
			return objs, unclosed
		}
		start := pos + loc[0]
		end := closing(text, start)
		if end < 0 {
			return objs, unclosed + 1
		}
		objs = append(objs, json.RawMessage(text[start:end]))
		pos = end
	}
}

// closing returns the index just past the brace that balances the one at
// start, or -1 when text ends first. Braces and brackets inside strings
// do not count.
func closing(text []byte, start int) int {
	depth, inString, escaped := 0, false, false
	for i := start; i < len(text); i++ {
		c := text[i]
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString:
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}
