package analyzer

import (
	"bytes"
	"strings"
)

// The shell's own reading of its canonical stream (bashRules in
// lexcanon_langs.go, read by the rules scanner of lexcanon_rules.go).

// shellFuncHead reports whether out ends with a function's header: a name
// and an empty () (f(), f (), function f()), or function and a name. The
// shell reads the function's body after any line breaks there (bash's
// grammar: function_def, newline_list, function_body), so a line end
// after a header separates nothing: `f()\n{` is `f() {` (shfmt -fn puts
// the { on a line of its own, its default puts it back).
func shellFuncHead(src []byte, out []ctok) bool {
	n := len(out)
	text := func(k int) string {
		if k < 0 || out[k].kind == cSemi {
			return ""
		}
		return string(src[out[k].start:out[k].end])
	}
	if n >= 3 && text(n-1) == ")" && text(n-2) == "(" {
		// a word before (): a function's name; never an array's
		// assignment (a=(), a+=()), whose word ends with =
		name := text(n - 3)
		if name == "" || name[len(name)-1] == '=' || !isShellName(name) {
			return false
		}
		return shellCommandAt(src, out, n-3) || (text(n-4) == "function" && shellCommandAt(src, out, n-4))
	}
	// function f, the keyword where a command starts
	return n >= 2 && text(n-2) == "function" && isShellName(text(n-1)) && shellCommandAt(src, out, n-2)
}

// isShellName reports whether a word may name a function: no quotes,
// expansions or escapes (bash takes more than POSIX's names: f.x, f-x,
// f:x).
func isShellName(w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case '$', '`', '\\', '\'', '"', '=', '(', ')', '{', '}', '[', ']', '*', '?', '~', '#':
			return false
		}
	}
	return true
}

// shellCommandAt reports whether out[k] is where a command starts: the
// first token, or one after a separator or a token after which a command
// starts.
func shellCommandAt(src []byte, out []ctok, k int) bool {
	if k == 0 || out[k-1].kind == cSemi {
		return true
	}
	switch string(src[out[k-1].start:out[k-1].end]) {
	case "{", "(", "then", "do", "else", "&&", "||", "|", "|&", ";;", ";&", ";;&", "!":
		return true
	}
	return false
}

// maxShellNest bounds the command substitutions read as code inside one
// another; deeper ones are kept as written.
const maxShellNest = 32

// shellArith lexes an arithmetic expression, $(( … )) and (( … )): C's
// operators and numbers (bash reads 0x1F, 037 and 31 alike), no comments;
// a parameter expansion in it, ${…}, is one token as written.
var shellArith = &lexRules{num: langC, extra: shellParam}

// shellParam reads a parameter expansion, ${…}, as one token.
func shellParam(s *scanState, i int) (int, ckind, bool) {
	if !bytes.HasPrefix(s.src[i:], []byte("${")) {
		return 0, 0, false
	}
	return s.skipCode(i+2, '{', '}'), cVerbatim, true
}

// shellArithCommand reads an arithmetic command, (( … )), at src[i] as
// ((, the expression's tokens and )), as shellSubst reads $(( … )):
// shfmt spaces its operators (for ((i=0;i<n;i++)) is for ((i = 0; i < n;
// i++))). Bash reads (( as arithmetic whenever a )) closes it; a
// (( … )) holding quotes or a substitution is left to the word rules.
func (s *scanState) shellArithCommand(i int) (int, bool) {
	src := s.src
	end := s.skipCode(i+1, '(', ')')
	if end > len(src) || end-i < 4 || src[end-1] != ')' || src[end-2] != ')' || s.nest >= maxShellNest ||
		bytes.ContainsAny(src[i+2:end-2], "\"'`\\\n") || bytes.Contains(src[i+2:end-2], []byte("$(")) {
		return i, false
	}
	s.add(i, i+2, cVerbatim)
	s.subScan(shellArith, i+2, end-2)
	s.add(end-2, end, cVerbatim)
	return end, true
}

// shellSubst reads the substitution that opens at src[j] ("$(") inside a
// word whose text not yet added starts at piece, and returns where it
// ends and where the word's text not yet added now starts. The canonical
// stream reads what a substitution holds as code, which shfmt reformats
// as it does the rest (indentation of continued lines, spaces around it
// inside the parentheses): the word's text up to and with $( is a token,
// then the command's tokens, then the word's text from the closing ) on.
// The word's bounds stay in its tokens (x=$(a) is not x= $(a)). An
// arithmetic expansion $(( … )) is read as tokens of an expression unless
// it holds quotes or a substitution of its own, where blanks may be text.
func (s *scanState) shellSubst(j, piece int) (int, int) {
	src := s.src
	end := s.skipCode(j+2, '(', ')')
	if end > len(src) || src[end-1] != ')' || s.nest >= maxShellNest {
		return end, piece
	}
	if j+2 < len(src) && src[j+2] == '(' {
		if end-j < 5 || src[end-2] != ')' || bytes.ContainsAny(src[j+3:end-2], "\"'`\\") || bytes.Contains(src[j+3:end-2], []byte("$(")) {
			return end, piece
		}
		s.add(piece, j+3, cVerbatim)
		s.subScan(shellArith, j+3, end-2)
		return end, end - 2
	}
	s.addPiece(piece, j+2, cVerbatim)
	s.subScan(s.r, j+2, end-1)
	return end, end - 1
}

// shellDquote reads a "…" string that opens at src[j] inside a word, its
// command substitutions as shellSubst does.
func (s *scanState) shellDquote(j, piece int) (int, int) {
	src := s.src
	k := j + 1
	for k < len(src) {
		switch c := src[k]; {
		case c == '\\':
			k += 2
		case c == '"':
			return k + 1, piece
		case c == '$' && k+1 < len(src) && src[k+1] == '(':
			k, piece = s.shellSubst(k, piece)
		case c == '$' && shellIndexEnd(src, k) > 0:
			k, piece = s.shellIndex(k, piece)
		case c == '$' && k+1 < len(src) && src[k+1] == '{':
			k = s.skipCode(k+2, '{', '}') // as written: quotes inside are its own
		case c == '`':
			k, piece = s.shellBackquote(k, piece, true)
		default:
			k++
		}
	}
	return len(src), piece
}

// shellBackquote reads the old form of a command substitution, `…`, that
// opens at src[j] inside a word, as shellSubst reads $( … ): shfmt writes
// it as $( … ). Both run the same command when the text holds no \ (which
// `…` reads before the command does), nor, inside "…", a ".
func (s *scanState) shellBackquote(j, piece int, dquoted bool) (int, int) {
	src := s.src
	end := skipQuoted(src, j, '`', true)
	body := src[j+1 : max(j+1, end-1)]
	if end > len(src) || src[end-1] != '`' || end-j < 2 || s.nest >= maxShellNest ||
		bytes.IndexByte(body, '\\') >= 0 || (dquoted && bytes.IndexByte(body, '"') >= 0) {
		return end, piece
	}
	s.addPiece(piece, j+1, cVerbatim)
	last := &s.out[len(s.out)-1]
	last.kind, last.tag = cBquote, last.tag|bqOpens
	s.subScan(s.r, j+1, end-1)
	s.closeQuote = true
	return end, end - 1
}

// The ends of a cBquote    piece.
const (
	bqCloses = 1 // it starts with a substitution's closing `
	bqOpens  = 2 // it ends with a substitution's opening `
)

// addPiece adds a piece of a word, src[a:b], of kind k, unless it starts
// with a closing ` (shellBackquote).
func (s *scanState) addPiece(a, b int, k ckind) {
	s.add(a, b, k)
	if s.closeQuote {
		s.closeQuote = false
		last := &s.out[len(s.out)-1]
		last.kind, last.tag = cBquote, last.tag|bqCloses
	}
}

// appendBackquote appends a cBquote    piece as $( … ) would be written:
// its closing ` as ), its opening one as $(.
func appendBackquote(buf, b []byte, tag uint8) []byte {
	if tag&bqCloses != 0 && len(b) > 0 {
		buf = append(buf, ')')
		b = b[1:]
	}
	if tag&bqOpens != 0 && len(b) > 0 {
		return append(append(buf, b[:len(b)-1]...), "$("...)
	}
	return append(buf, b...)
}

// shellIndexed are the arrays bash itself makes, always indexed: their
// subscripts are arithmetic. The subscript of an associative array is a
// string, where blanks are text (${a[x-1]} and ${a[x - 1]} are two keys),
// and any other name may be one: shfmt spaces every subscript alike, and
// only these are read as the expressions they are.
var shellIndexed = map[string]bool{
	"COMP_WORDS": true, "BASH_SOURCE": true, "BASH_LINENO": true, "FUNCNAME": true,
	"BASH_ARGV": true, "BASH_ARGC": true, "BASH_REMATCH": true, "BASH_VERSINFO": true,
	"PIPESTATUS": true, "GROUPS": true, "DIRSTACK": true,
}

// appendTabDoc appends a <<- heredoc's body (cTabDoc) and its
// terminator without the tabs that begin each line, which the shell drops
// (shfmt re-indents them with the code around).
func appendTabDoc(buf, b []byte) []byte {
	for _, l := range bytes.SplitAfter(b, []byte("\n")) {
		buf = append(buf, bytes.TrimLeft(l, "\t")...)
	}
	return buf
}

// shellIndexEnd returns the end of ${NAME[expr]} at src[j], NAME one of
// shellIndexed and expr free of quotes, escapes, substitutions, brackets
// and line breaks; 0 if there is none.
func shellIndexEnd(src []byte, j int) int {
	if !bytes.HasPrefix(src[j:], []byte("${")) {
		return 0
	}
	k := j + 2
	for k < len(src) && (isIdentByte(src[k]) && src[k] != '$') {
		k++
	}
	if k >= len(src) || src[k] != '[' || !shellIndexed[string(src[j+2:k])] {
		return 0
	}
	e := bytes.IndexByte(src[k:], ']')
	if e < 0 {
		return 0
	}
	e += k
	if e+1 >= len(src) || src[e+1] != '}' || bytes.ContainsAny(src[k+1:e], "\"'`\\\n[{}()") {
		return 0
	}
	return e + 2
}

// shellIndex reads ${NAME[expr]} at src[j] (see shellIndexEnd) inside a
// word as shellSubst reads a substitution: the word up to and with
// ${NAME[, the expression's tokens, the word from ]} on.
func (s *scanState) shellIndex(j, piece int) (int, int) {
	end := shellIndexEnd(s.src, j)
	open := j + bytes.IndexByte(s.src[j:end], '[') + 1
	s.addPiece(piece, open, cVerbatim)
	s.subScan(shellArith, open, end-2)
	return end, end - 2
}

// shellWordEnds reports whether the \ at src[j] continues the line after
// a word that ends there: the next line starts with a blank or an
// operator, so the word goes no further (shfmt writes `a' \` for `a'\`).
func shellWordEnds(src []byte, j int) bool {
	k := j + 1
	if k < len(src) && src[k] == '\r' {
		k++
	}
	if k >= len(src) || src[k] != '\n' {
		return false
	}
	k++
	return k >= len(src) || isBlank(src[k]) || bytes.IndexByte([]byte(";|&()<>"), src[k]) >= 0
}

// shellRedirect reads a word of digits, src[i:j], written against a
// redirection operator (2>/dev/null, 2>&1) as one token with the operator:
// the number is the operator's file descriptor, where `2 >` is an argument
// and a redirection of the output. shfmt -sr writes a blank after the
// operator, never before it.
func (s *scanState) shellRedirect(i, j int) (int, bool) {
	src := s.src
	if j >= len(src) || (src[j] != '<' && src[j] != '>') {
		return 0, false
	}
	for _, c := range src[i:j] {
		if !isDigit(c) {
			return 0, false
		}
	}
	for _, op := range []string{"<<<", "<<-", "<<", ">>", ">&", "<&", ">|", "<>", "<", ">"} {
		if bytes.HasPrefix(src[j:], []byte(op)) {
			s.add(i, j+len(op), cVerbatim)
			if op == "<<" || op == "<<-" {
				return s.shellHeredoc(j + len(op)), true
			}
			return j + len(op), true
		}
	}
	return 0, false
}

// subScan adds the tokens of src[a:b] read by r, less the separators at
// either end (a command substitution's first and last line breaks).
func (s *scanState) subScan(r *lexRules, a, b int) {
	sub := &scanState{r: r, src: s.src[a:b], canon: true, nest: s.nest + 1}
	sub.scan()
	toks := sub.out
	lo, hi := 0, len(toks)
	for lo < hi && toks[lo].kind == cSemi {
		lo++
	}
	for hi > lo && toks[hi-1].kind == cSemi {
		hi--
	}
	for _, t := range toks[lo:hi] {
		t.pos += int32(a)
		t.start += int32(a)
		t.end += int32(a)
		s.out = append(s.out, t)
	}
}

// tidyShell is the shell's own pass over its stream, where line ends
// mean nothing or move:
//   - an operator that starts a line (&&, ||, |, |&, where shfmt -bn
//     writes them) is placed where the line before ends, where the other
//     styles write it: `} &&\n complete …` and `} \\\n && complete …` both
//     keep the && on the line of a function's closing brace;
//   - inside an array's parentheses (a=( … ), a+=( … )) a line end is a
//     blank;
//   - in a case, a line end before a pattern, or right after its ), is a
//     blank, and the ;; that ends the last item (right before esac) is a
//     separator, which shfmt writes where the code had none.
func tidyShell(src []byte, toks []ctok) []ctok {
	text := func(t ctok) string {
		if t.kind == cSemi {
			return ""
		}
		return string(src[t.start:t.end])
	}
	out := toks[:0]
	array := 0                 // open parentheses of an array
	pattern, depth := false, 0 // reading a case pattern; its open groups
	afterPattern := false      // right after a pattern's )
	caseAt := -1               // the index in out of a case keyword whose in is due
	for _, t := range toks {
		w := text(t)
		if t.kind == cSemi {
			if array > 0 || afterPattern || pattern {
				continue
			}
			if len(out) > 0 && out[len(out)-1].kind == cSemi {
				continue
			}
			out = append(out, t)
			continue
		}
		afterPattern = false
		switch {
		case array > 0:
			array += shellParens(w)
		case pattern:
			switch {
			case w == "esac" && depth == 0:
				pattern = false
				if n := len(out); n > 0 && text(out[n-1]) == ";;" {
					out[n-1].kind = cSemi
					out[n-1].end = out[n-1].start
				}
			case w == "(" && depth == 0 && len(out) > 0 && (isCaseItemEnd(text(out[len(out)-1])) || text(out[len(out)-1]) == "in"):
				continue // a pattern's leading (, which shfmt drops
			case w == ")" && depth == 0:
				pattern, afterPattern = false, true
			default:
				depth += shellParens(w)
			}
		case w == "(" && len(out) > 0 && out[len(out)-1].end == t.start && out[len(out)-1].kind != cSemi && bytes.HasSuffix(src[:t.start], []byte("=")):
			array = 1
		case w == "case" && shellCommandAt(src, out, len(out)):
			caseAt = len(out)
		case w == "in" && caseAt >= 0 && len(out) == caseAt+2:
			pattern, depth, caseAt = true, 0, -1
		case isCaseItemEnd(w):
			pattern, depth = true, 0
		}
		out = append(out, t)
	}
	// operators that start a line go with the line before
	for k := 1; k < len(out); k++ {
		switch text(out[k]) {
		case "&&", "||", "|", "|&":
			if prev := out[k-1]; prev.kind != cSemi && bytes.IndexByte(src[prev.end:out[k].start], '\n') >= 0 {
				out[k].pos = max(prev.pos, prev.end-1)
			}
		}
	}
	return out
}

// shellParens is how many parentheses a token opens (less those it
// closes): ( and ), and the word pieces around a substitution read as
// code, which end with $( and start with ) (shellSubst).
func shellParens(w string) int {
	d := 0
	if strings.HasPrefix(w, ")") {
		d--
	}
	if strings.HasSuffix(w, "(") && (w == "(" || len(w) > 1) {
		d++
	}
	return d
}

// isCaseItemEnd reports whether a token ends a case item.
func isCaseItemEnd(w string) bool {
	return w == ";;" || w == ";&" || w == ";;&"
}
