package udiff

import (
	"fmt"
	"strings"
)

// context is the number of unchanged lines shown around each change.
const context = 3

// op is one line of an edit script: ' ' kept, '-' removed, '+' added.
type op struct {
	kind byte
	line string // with its newline, if it had one
}

// Unified returns the unified diff turning a into b, with the file names
// oldName and newName in its header; "" when a and b are equal.
func Unified(oldName, newName, a, b string) string {
	if a == b {
		return ""
	}
	ops := edits(lines(a), lines(b))
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	// Hunks: runs of changes with up to 2*context kept lines between them.
	for i := 0; i < len(ops); {
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(0, i-context)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end = min(end+context, len(ops))
				break
			}
			end = run
		}
		writeHunk(&out, ops, start, end)
		i = end
	}
	return out.String()
}

func writeHunk(out *strings.Builder, ops []op, start, end int) {
	// Line numbers of the hunk's first line in each text.
	aLine, bLine := 1, 1
	for _, o := range ops[:start] {
		if o.kind != '+' {
			aLine++
		}
		if o.kind != '-' {
			bLine++
		}
	}
	aN, bN := 0, 0
	for _, o := range ops[start:end] {
		if o.kind != '+' {
			aN++
		}
		if o.kind != '-' {
			bN++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", rangeOf(aLine, aN), rangeOf(bLine, bN))
	for _, o := range ops[start:end] {
		out.WriteByte(o.kind)
		out.WriteString(o.line)
		if !strings.HasSuffix(o.line, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// rangeOf writes a hunk range as diff does: an empty range names the line
// before it.
func rangeOf(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// lines splits s after each newline.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	ls := strings.SplitAfter(s, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// edits returns an edit script from a to b through their longest common
// subsequence of lines, after the common prefix and suffix are set aside
// (learning files are small; the quadratic table stays small).
func edits(a, b []string) []op {
	var pre, suf []op
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		pre = append(pre, op{' ', a[0]})
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		suf = append([]op{{' ', a[len(a)-1]}}, suf...)
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	ops := pre
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, op{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', a[i]})
			i++
		default:
			ops = append(ops, op{'+', b[j]})
			j++
		}
	}
	return append(ops, suf...)
}
