package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/lorehq/lore/anchors"
)

// tally counts verdicts by the oracle's kind of fate.
type tally struct {
	oracle   string // the parser
	lines    bool   // the anchors are line ranges and files (linesOracle)
	commits  int    // commits with at least one declaration replayed
	verdicts []verdict
	skipped  []string // commits that could not be read, and why
}

func (t *tally) add(vs []verdict) {
	if len(vs) > 0 {
		t.commits++
	}
	t.verdicts = append(t.verdicts, vs...)
}

// rows of the table: the oracle's fates.
var rows = []struct {
	name string
	kind kind
	same bool
}{
	{"in place, tree unchanged", inPlace, true},
	{"in place, tree changed", inPlace, false},
	{"moved, unchanged", moved, true},
	{"moved, changed", moved, false},
	{"gone", gone, false},
}

func (t *tally) write(w io.Writer, verbose bool, commits int, took time.Duration) {
	fmt.Fprintf(w, "%d commits, %d with declarations replayed, %d declarations, %s\n", commits, t.commits, len(t.verdicts), took.Round(time.Second))
	for _, s := range t.skipped {
		fmt.Fprintln(w, "skipped", s)
	}
	fmt.Fprintf(w, "%-34s %6s %6s %6s %6s %6s %6s %6s\n", "oracle ("+t.oracle+")", "n", "agree", "alarm", "valid", "elsewh", "sugg", "lost")
	if t.lines {
		t.writeLines(w)
	} else {
		for _, row := range rows {
			t.writeRow(w, row.name, row.kind == gone, func(f fate) bool {
				return f.kind == row.kind && (row.kind == gone || f.same == row.same)
			})
		}
	}
	fmt.Fprintln(w, "alarm: unchanged, reported not valid; valid: changed, reported valid; elsewh: followed elsewhere; sugg: a move not followed, its target among the candidates; lost: neither")
	for _, v := range t.verdicts {
		if v.outcome != agree && (verbose || v.outcome != followed) {
			fmt.Fprintf(w, "%-13s %s\n", v.outcome, v)
		}
	}
}

// parseNameStatus reads git diff --name-status -z: the paths the commit
// touched (old and new) and git's renames, old path → new.
func parseNameStatus(out []byte) (map[string]bool, map[string]string) {
	changed, renames := map[string]bool{}, map[string]string{}
	f := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	for i := 0; i < len(f); {
		status := f[i]
		if status == "" {
			break
		}
		if (status[0] == 'R' || status[0] == 'C') && i+2 < len(f) {
			changed[f[i+2]] = true
			if status[0] == 'R' {
				changed[f[i+1]] = true
				renames[f[i+1]] = f[i+2]
			}
			i += 3
			continue
		}
		if i+1 < len(f) {
			changed[f[i+1]] = true
		}
		i += 2
	}
	return changed, renames
}

// writeRow writes one row of the table: the verdicts whose fate in
// says, by outcome (gone: those lore followed).
func (t *tally) writeRow(w io.Writer, name string, gone bool, in func(fate) bool) {
	n := map[outcome]int{}
	total := 0
	for _, v := range t.verdicts {
		if in(v.fate) {
			n[v.outcome]++
			total++
		}
	}
	if gone {
		fmt.Fprintf(w, "%-34s %6d %6d  (not said gone: followed %d, to read)\n", name, total, n[agree], n[followed])
		return
	}
	fmt.Fprintf(w, "%-34s %6d %6d %6d %6d %6d %6d %6d\n", name, total, n[agree], n[alarm], n[undrifted], n[elsewhere], n[suggested], n[lost])
}

// writeLines writes the rows of the lines oracle: line ranges and files,
// kept or changed by git's diff, and deleted files; then what the changed
// that lore reports valid are.
func (t *tally) writeLines(w io.Writer) {
	for _, row := range []struct {
		name       string
		file, same bool
		kind       kind
	}{
		{"lines the diff leaves alone", false, true, inPlace},
		{"lines the diff touches", false, false, inPlace},
		{"file, no hunk (renamed, mode)", true, true, inPlace},
		{"file with hunks", true, false, inPlace},
		{"file deleted", true, false, gone},
	} {
		t.writeRow(w, row.name, row.kind == gone, func(f fate) bool {
			return f.kind == row.kind && (f.before.lines[0] == 0) == row.file && (row.kind == gone || f.same == row.same)
		})
	}
	blanks, moved, reformatted, other := 0, 0, 0, 0
	for _, v := range t.verdicts {
		if v.fate.kind == inPlace && !v.fate.same && v.fate.blanks {
			blanks++
		}
		if v.outcome != undrifted {
			continue
		}
		switch r := v.result; {
		case strings.HasSuffix(r.Reason, "text unchanged") || r.Change == anchors.ChangeMoved:
			moved++
		case r.Change == anchors.ChangeReformatted || strings.HasSuffix(r.Reason, "reformatted"):
			reformatted++
		default:
			other++
		}
	}
	fmt.Fprintf(w, "touched in blanks only (git diff -w --ignore-blank-lines), either verdict right: %d\n", blanks)
	fmt.Fprintf(w, "touched, reported valid: %d with their text found unchanged at other lines, %d reformatted (comments, docstrings, blank lines: not in lore's shape), %d else\n", moved, reformatted, other)
}
