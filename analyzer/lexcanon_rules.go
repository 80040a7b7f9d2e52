package analyzer

import (
	"bytes"
)

// The languages added as table entries (C++, C#, Ruby, PHP, Kotlin,
// Swift, Scala, Bash, Lua) share one scanner, configured by lexRules: it
// yields their canonical stream (format 2) and, leaving out the
// separators it makes, their lexer tokens (format 1, sketches). What it
// reads, per language, is written down in docs/fingerprints.md.

// lexRules describes how one language is lexed.
type lexRules struct {
	num    langCode    // the number rules of appendNumber
	line   []string    // line comment openers
	block  [][2]string // block comment delimiters
	nested bool        // block comments nest (Swift, Kotlin, Scala)
	// directives: a # first on a line opens a directive that the line's
	// end closes (C++, C#): the end is a token.
	directives bool
	// chars: ' opens a character literal (kept as written, never the
	// same as a "…" string).
	chars bool
	// single: ' opens a string, as " does.
	single bool
	// triple: """…""" strings (Kotlin, Swift, Scala, C# 11).
	triple bool
	// interp opens an expression inside a "…" string: "${", "#{", "\\(", "{".
	interp []string
	// plain reports whether a string body means the same between '…' and
	// "…", so that both read as one canonical string; nil: they never do.
	plain func(body []byte) bool
	// identEnd: bytes that may end an identifier (Ruby's ? and !).
	identEnd string
	// sigils: bytes that may start an identifier (Ruby's @ and $, PHP's $).
	sigils string
	// extra reads a literal of the language's own at src[i] (raw strings,
	// heredocs, percent literals, long brackets), returning its end and
	// kind, or ok false.
	extra func(s *scanState, i int) (end int, kind ckind, ok bool)

	// newlines: a line end ends a statement unless the line goes on (see
	// scanState.lineEnd); a written ; is the same separator.
	newlines bool
	// parens: inside ( and [ a line end never ends a statement.
	parens bool
	// goesOn: tokens after which a line goes on; leads: tokens before
	// which the previous line goes on (beyond the closing brackets).
	goesOn, leads map[string]bool
	// goesOnAfter, when not nil, reports whether the line goes on after
	// the tokens written so far (a shell function's header).
	goesOnAfter func(src []byte, out []ctok) bool
	// operand, when not nil, reports whether the operator the tokens
	// written so far end with is an operand the line does not go on
	// from (Ruby's symbol :==).
	operand func(src []byte, out []ctok) bool
	// tidy, when not nil, is the language's own pass over its canonical
	// stream, after tidySeparators (line ends, its own spellings).
	tidy func(src []byte, toks []ctok) []ctok
	// regexps: a / where an operand may start opens a regular expression
	// (Ruby), in interpolated code too, where $' and $" are globals.
	regexps bool
	// opsGoOn: every operator token but the ones in notGoOn lets the line
	// go on.
	opsGoOn bool
	notGoOn map[string]bool
	// indent: a line's indentation opens and closes blocks (Scala 3).
	indent bool
	// words: shell words — a token runs to a blank or a metacharacter.
	words bool
	// tags: code lies between <?php and ?>, and text outside is output
	// (PHP): extra reads that text while the scanner is outside.
	tags bool
	// prefixedInterp: only a prefixed string (Scala's s"…") interpolates.
	prefixedInterp bool
}

// operators are the multi-byte operators the scanner keeps whole, longest
// first within a first byte.
var operators = []string{
	"<<=", ">>=", "<=>", "===", "!==", "...", "..<", "**=", "||=", "&&=", "??=", "?.", "&.", "?:", "::", "->", "=>",
	"==", "!=", "<=", ">=", "&&", "||", "..", "**", "<<", ">>", "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=",
	"++", "--", "??", "=~", "!~", "!!", "|>",
}

// scanState is one scan of a file.
type scanState struct {
	r     *lexRules
	src   []byte
	out   []ctok
	depth []byte // open brackets
	// heredocs waiting for the end of the line that opened them.
	pending []heredoc
	indents []int
	php     bool // inside <?php … ?> (lexRules.tags)
	// noInterp: the string being read interpolates nothing.
	noInterp bool
	// canon: the scan is for the canonical stream, not the lexer tokens
	// of format 1 (which keep each string one token): a shell word's
	// command substitutions and Ruby's interpolated code are read as
	// code. nest counts the shell substitutions open.
	canon bool
	nest  int
	// closeQuote: the word's next piece starts with the closing ` of a
	// substitution read as code (shellBackquote).
	closeQuote bool
	// from is where the scan starts (a nested scan of interpolated code).
	from int
}

type heredoc struct {
	id     string
	indent bool  // the terminator may be indented (<<~, <<-, PHP's flexible form)
	kind   ckind // how its body is spelt (cVerbatim: as written)
	interp bool  // Ruby: its body interpolates code (its id not in single quotes)
}

// canonRules returns the canonical stream of src read by r.
func canonRules(sc *scratch, r *lexRules, src []byte, out []ctok) []ctok {
	s := &scanState{r: r, src: src, out: out, canon: true}
	s.scan()
	out = s.out
	if r.newlines {
		out = tidySeparators(src, out, r)
	}
	if r.tidy != nil {
		out = r.tidy(src, out)
	}
	return dropTrailingCommas(sc, src, out, nil)
}

// rulesTokens are the lexer tokens of src read by r: the canonical
// stream's tokens that stand for text, where each sits. src may be a
// stretch of a file (a symbol's lines), so it is read as code from its
// start (PHP's text outside <?php is read as code too).
type rulesTokens struct{ r *lexRules }

func (t rulesTokens) tokens(src []byte, out []span) []span {
	s := &scanState{r: t.r, src: src, php: true}
	s.scan()
	for _, c := range s.out {
		if c.separator() || c.kind == cNewline {
			continue
		}
		out = append(out, span{int(c.start), int(c.end)})
	}
	return out
}

func (s *scanState) add(a, b int, k ckind) {
	s.out = append(s.out, ctok{pos: int32(a), start: int32(a), end: int32(b), kind: k, lang: s.r.num})
}

// sep adds a statement separator at offset o (a line end or a ;).
func (s *scanState) sep(o int, k ckind) {
	s.out = append(s.out, ctok{pos: int32(o), start: int32(o), end: int32(o), kind: k, lang: s.r.num})
}

func (s *scanState) scan() {
	src, r := s.src, s.r
	n := len(src)
	lineStart := true // only blanks so far on this line
	inDirective := false
	for i := s.from; i < n; {
		c := src[i]
		if r.tags && !s.php {
			j, k, _ := r.extra(s, i)
			if j > i {
				s.add(i, j, k)
			}
			i = max(j, i+1)
			continue
		}
		if c == '\n' {
			if inDirective && (i == 0 || src[i-1] != '\\') {
				inDirective = false
				s.sep(i, cNewline)
			}
			if r.newlines && !s.inParens() {
				s.sep(i, cSemi)
			}
			i++
			if len(s.pending) > 0 {
				i = s.heredocBodies(i)
			}
			lineStart = true
			if r.indent && !s.inParens() {
				s.indentAt(i)
			}
			continue
		}
		if c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' {
			i++
			continue
		}
		if c == '\\' && i+1 < n && (src[i+1] == '\n' || src[i+1] == '\r') {
			i += 2 // a line continued
			if i < n && src[i-1] == '\r' && src[i] == '\n' {
				i++
			}
			continue
		}
		atLine := lineStart
		lineStart = false
		if r.extra != nil {
			if end, k, ok := r.extra(s, i); ok {
				if k != cDrop {
					s.add(i, end, k)
				}
				i = end
				continue
			}
		}
		if j, ok := s.comment(i, atLine); ok {
			i = j
			continue
		}
		if r.directives && atLine && c == '#' {
			inDirective = true
		}
		switch {
		case r.newlines && c == ';' && !(r.words && i+1 < n && (src[i+1] == ';' || src[i+1] == '&')):
			s.sep(i, cSemi)
			i++
			continue
		case r.words:
			i = s.word(i)
			continue
		case c == '"' || (c == '\'' && r.single):
			j, k := s.str(i, i)
			s.add(i, j, k)
			i = j
			continue
		case c == '\'' && r.chars:
			j := skipQuoted(src, i, '\'', false)
			s.add(i, j, cVerbatim)
			i = j
			continue
		case c == '`':
			j := skipQuoted(src, i, '`', true)
			s.add(i, j, cVerbatim)
			i = j
			continue
		case isDigit(c) || (c == '.' && i+1 < n && isDigit(src[i+1]) && !s.afterOperand()):
			j := s.number(i)
			s.add(i, j, cNumber)
			i = j
			continue
		case isIdentByte(c) || (r.sigils != "" && bytes.IndexByte([]byte(r.sigils), c) >= 0 && i+1 < n && (isIdentByte(src[i+1]) || src[i+1] == c)):
			j := i + 1
			for j < n && (isIdentByte(src[j]) || (j == i+1 && src[j] == c && c != '$')) {
				j++
			}
			if j < n && r.identEnd != "" && bytes.IndexByte([]byte(r.identEnd), src[j]) >= 0 && (j+1 >= n || src[j+1] != '=') {
				j++
			}
			// an identifier that prefixes a string: Scala's s"…", C++'s u8"…"
			if j < n && (src[j] == '"' || (src[j] == '\'' && r.single)) && c != '$' && c != '@' {
				k, _ := s.str(j, i)
				s.add(i, k, cVerbatim)
				i = k
				continue
			}
			s.add(i, j, cVerbatim)
			i = j
			continue
		}
		j := i + 1
		for _, op := range operators {
			if op[0] == c && bytes.HasPrefix(src[i:], []byte(op)) {
				j = i + len(op)
				break
			}
		}
		switch c {
		case '(', '[', '{':
			s.depth = append(s.depth, c)
		case ')', ']', '}':
			if len(s.depth) > 0 {
				s.depth = s.depth[:len(s.depth)-1]
			}
		}
		s.add(i, j, cVerbatim)
		i = j
	}
	if inDirective {
		s.sep(n, cNewline)
	}
}

// cDrop is what an extra reader returns for text that is no token (a
// comment of a form of the language's own).
const cDrop ckind = 255

func (s *scanState) inParens() bool {
	if !s.r.parens || len(s.depth) == 0 {
		return false
	}
	d := s.depth[len(s.depth)-1]
	return d == '(' || d == '['
}

// comment skips a comment at src[i], if one starts there.
func (s *scanState) comment(i int, atLine bool) (int, bool) {
	src, r := s.src, s.r
	for _, b := range r.block {
		if bytes.HasPrefix(src[i:], []byte(b[0])) {
			return s.skipBlock(i, b), true
		}
	}
	for _, l := range r.line {
		if !bytes.HasPrefix(src[i:], []byte(l)) {
			continue
		}
		if l == "#" && r.words && i > 0 && !isBlank(src[i-1]) && !bytes.ContainsRune([]byte(";|&()<>"), rune(src[i-1])) {
			continue // inside a word: a#b
		}
		j := i
		for j < len(src) && src[j] != '\n' {
			j++
		}
		return j, true
	}
	return i, false
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (s *scanState) skipBlock(i int, b [2]string) int {
	src := s.src
	open, close := []byte(b[0]), []byte(b[1])
	depth := 0
	for i < len(src) {
		if bytes.HasPrefix(src[i:], open) && (depth == 0 || s.r.nested) {
			depth++
			i += len(open)
			continue
		}
		if bytes.HasPrefix(src[i:], close) {
			depth--
			i += len(close)
			if depth == 0 {
				return i
			}
			continue
		}
		i++
	}
	return len(src)
}

// afterOperand reports whether the last token ends an operand: then a /
// divides and a % is a remainder, rather than opening a literal.
func (s *scanState) afterOperand() bool {
	if len(s.out) == 0 {
		return false
	}
	t := s.out[len(s.out)-1]
	if t.separator() || t.kind == cNewline {
		return false
	}
	if t.kind != cVerbatim {
		return true
	}
	c := s.src[t.end-1]
	// a name ending in ? or ! (Ruby's any?), not a lone ? or ! (an operator)
	return isIdentByte(c) || c == ')' || c == ']' || c == '}' || (c == '?' || c == '!') && t.end-t.start > 1
}

// number scans a number literal: digits, letters (bases, exponents,
// suffixes), a fraction's point when a digit follows, an exponent's sign,
// and C++'s digit separator.
func (s *scanState) number(i int) int {
	src := s.src
	n := len(src)
	hex := i+1 < n && src[i] == '0' && (src[i+1] == 'x' || src[i+1] == 'X')
	j := i + 1
	for j < n {
		c := src[j]
		switch {
		case isIdentByte(c) && c != '$':
			j++
		case c == '.' && j+1 < n && isDigit(src[j+1]) && !bytes.ContainsRune(src[i:j], '.'):
			j++
		case (c == '+' || c == '-') && ((!hex && (src[j-1] == 'e' || src[j-1] == 'E')) || (hex && (src[j-1] == 'p' || src[j-1] == 'P'))):
			j++
		case c == '\'' && s.r.num == langC && j+1 < n && isIdentByte(src[j+1]) && s.r.chars:
			j++
		default:
			return j
		}
	}
	return j
}

// str scans the string that opens at src[q] (whose token starts at
// from, before a prefix) and returns its end and kind: cQuoted when the
// language reads its body the same between either quote.
func (s *scanState) str(q, from int) (int, ckind) {
	src, r := s.src, s.r
	quote := src[q]
	s.noInterp = r.prefixedInterp && from == q
	defer func() { s.noInterp = false }()
	if r.triple && quote == '"' && bytes.HasPrefix(src[q:], []byte(`"""`)) {
		return s.strBody(q+3, `"""`, quote), cVerbatim
	}
	end := s.strBody(q+1, string(quote), quote)
	if r.plain != nil && from == q && end-q >= 2 && src[end-1] == quote && r.plain(src[q+1:end-1]) {
		return end, cQuoted
	}
	return end, cVerbatim
}

// strBody returns the end of a string body starting at i and closed by
// close, stepping over escapes and interpolated code.
func (s *scanState) strBody(i int, close string, quote byte) int {
	src, r := s.src, s.r
	for i < len(src) {
		if src[i] == '\\' && !(quote == '\'' && r.words) {
			if len(r.interp) > 0 && r.interp[0] == `\(` && i+1 < len(src) && src[i+1] == '(' {
				i = s.skipCode(i+2, '(', ')')
				continue
			}
			i += 2
			continue
		}
		if bytes.HasPrefix(src[i:], []byte(close)) {
			return i + len(close)
		}
		if quote == '"' && !s.noInterp {
			for _, in := range r.interp {
				if in != `\(` && bytes.HasPrefix(src[i:], []byte(in)) {
					openB, closeB := byte('{'), byte('}')
					if in[len(in)-1] == '(' {
						openB, closeB = '(', ')'
					}
					i = s.skipCode(i+len(in), openB, closeB)
					goto next
				}
			}
		}
		i++
	next:
	}
	return len(src)
}

// skipCode returns the end of code nested in a string, from after its
// opening bracket to after the matching close.
func (s *scanState) skipCode(i int, open, close byte) int {
	src := s.src
	depth := 1
	operand := true // an operand may start here: a / opens a regular expression
	for i < len(src) {
		c := src[i]
		if c == '/' && operand && s.r.regexps {
			// a regular expression (Ruby's #{a[/'x/]}): its quotes are text
			j := i + 1
			for j < len(src) && src[j] != '/' && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j < len(src) && src[j] == '/' {
				i, operand = j+1, false
				continue
			}
		}
		if c == '$' && s.r.regexps && i+1 < len(src) { // $' and $" are globals, not quotes
			i, operand = i+2, false
			continue
		}
		if c != ' ' && c != '\t' {
			operand = bytes.IndexByte([]byte("([{,=|&!~:;?<>+-*%"), c) >= 0
		}
		switch {
		case c == open:
			depth++
		case c == close:
			depth--
			if depth == 0 {
				return i + 1
			}
		case c == '"' || c == '\'' && s.r.single:
			j := s.strBody(i+1, string(c), c)
			i = j
			continue
		case c == '\\':
			i += 2
			continue
		}
		i++
	}
	return len(src)
}

// heredocBodies reads the bodies of the heredocs opened on the line that
// ended before i, each one token up to and with its terminator line.
func (s *scanState) heredocBodies(i int) int {
	src := s.src
	for _, h := range s.pending {
		start := i
		for i < len(src) {
			e := bytes.IndexByte(src[i:], '\n')
			line := src[i:]
			if e >= 0 {
				line = src[i : i+e]
			}
			t := bytes.TrimRight(line, "\r")
			if h.indent {
				t = bytes.TrimLeft(t, " \t")
			}
			done := bytes.Equal(t, []byte(h.id))
			if !done && s.r.extra != nil && h.indent && bytes.HasPrefix(t, []byte(h.id)) && len(t) > len(h.id) && !isIdentByte(t[len(h.id)]) && s.r.sigils == "$" {
				// PHP: code may follow the terminator on its line
				// ("EOF);"); the body ends with the terminator.
				i += len(line) - len(bytes.TrimLeft(line, " \t")) + len(h.id)
				break
			}
			if e < 0 {
				i = len(src)
			} else {
				i += e + 1
			}
			if done {
				if e >= 0 {
					i-- // the terminator's line end ends the statement
				}
				break
			}
		}
		if i > start && !(h.interp && s.canon && heredocParts(s, start, i, h.kind)) {
			s.add(start, i, h.kind)
		}
	}
	s.pending = s.pending[:0]
	return i
}

// indentAt adds the indentation tokens of the line starting at i (Scala):
// a deeper line opens a block, a shallower one closes the blocks deeper
// than it. Blank and comment-only lines say nothing.
func (s *scanState) indentAt(i int) {
	src := s.src
	col := 0
	j := i
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		col++
		j++
	}
	if j >= len(src) || src[j] == '\n' || src[j] == '\r' || bytes.HasPrefix(src[j:], []byte("//")) || bytes.HasPrefix(src[j:], []byte("/*")) {
		return
	}
	// A line that goes on with the one before opens no block.
	if s.continues(j) {
		return
	}
	top := 0
	if len(s.indents) > 0 {
		top = s.indents[len(s.indents)-1]
	}
	switch {
	case col > top:
		s.indents = append(s.indents, col)
		s.sep(j, cIndent)
	case col < top:
		for len(s.indents) > 0 && s.indents[len(s.indents)-1] > col {
			s.indents = s.indents[:len(s.indents)-1]
			s.sep(j, cDedent)
		}
	}
}

// continues reports whether the line starting at j goes on with the one
// before: it starts with a token that leads on, or the last token goes on.
func (s *scanState) continues(j int) bool {
	src, r := s.src, s.r
	for w := range r.leads {
		if bytes.HasPrefix(src[j:], []byte(w)) && (!isIdentByte(w[0]) || j+len(w) == len(src) || !isIdentByte(src[j+len(w)])) {
			return true
		}
	}
	for k := len(s.out) - 1; k >= 0; k-- {
		if t := s.out[k]; !t.separator() {
			return goesOn(src, t, r)
		}
	}
	return false
}

// word scans a shell word from src[i]: operators of the shell's own, or a
// run of text to a blank or metacharacter, quotes and expansions within.
func (s *scanState) word(i int) int {
	src := s.src
	n := len(src)
	if s.canon && bytes.HasPrefix(src[i:], []byte("((")) {
		if j, ok := s.shellArithCommand(i); ok {
			return j
		}
	}
	for _, op := range []string{";;&", ";;", ";&", "&&", "||", "|&", "<<<", "<<-", "<<", ">>", "&>>", "&>", ">&", "<&", ">|", "<>", "|", "&", ";", "(", ")", "<", ">"} {
		if bytes.HasPrefix(src[i:], []byte(op)) {
			if op == "<<" || op == "<<-" {
				s.add(i, i+len(op), cVerbatim)
				return s.shellHeredoc(i + len(op))
			}
			s.add(i, i+len(op), cVerbatim)
			return i + len(op)
		}
	}
	j := i
	quoted := -1 // the one quoted part that makes the whole word, if any
	piece := i   // where the word's text not yet added starts (shellSubst)
chars:
	for j < n {
		c := src[j]
		if isBlank(c) || bytes.IndexByte([]byte(";|&()<>"), c) >= 0 {
			break
		}
		switch {
		case c == '\\' && s.canon && shellWordEnds(src, j):
			break chars // a continued line's \ is no part of the word
		case c == '\\':
			j += 2
		case c == '\'':
			quoted = j
			j = skipQuoted(src, j, '\'', true)
			if k := bytes.IndexByte(src[quoted+1:], '\''); k >= 0 {
				j = quoted + k + 2
			}
		case c == '"' && s.canon:
			quoted = j
			j, piece = s.shellDquote(j, piece)
		case c == '"':
			quoted = j
			j = s.strBody(j+1, `"`, '"')
		case c == '$' && j+1 < n && src[j+1] == '(' && s.canon:
			j, piece = s.shellSubst(j, piece)
		case c == '$' && s.canon && shellIndexEnd(src, j) > 0:
			j, piece = s.shellIndex(j, piece)
		case c == '$' && j+1 < n && src[j+1] == '(':
			j = s.skipCode(j+2, '(', ')')
		case c == '$' && j+1 < n && src[j+1] == '{':
			j = s.skipCode(j+2, '{', '}')
		case c == '$' && j+1 < n && src[j+1] == '\'':
			j = skipQuoted(src, j+1, '\'', true)
		case c == '`' && s.canon:
			j, piece = s.shellBackquote(j, piece, false)
		case c == '`':
			j = skipQuoted(src, j, '`', true)
		default:
			j++
		}
	}
	if j > n {
		j = n
	}
	k := cVerbatim
	if quoted == i && j-i >= 2 && src[j-1] == src[i] && s.r.plain(src[i+1:j-1]) {
		k = cQuoted
	}
	if s.canon && piece == i {
		if end, ok := s.shellRedirect(i, j); ok {
			return end
		}
	}
	if piece > i {
		k = cVerbatim // the word's rest after a substitution read as code
	}
	if j > piece || piece == i {
		s.addPiece(piece, j, k)
	}
	return j
}

// shellHeredoc reads the delimiter word after << or <<- at i and queues
// its body for the end of the line.
func (s *scanState) shellHeredoc(i int) int {
	src := s.src
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	start := i
	if i >= len(src) || isBlank(src[i]) {
		return i // no delimiter: the << stands alone
	}
	j := s.word(i)
	if len(s.out) > 0 && j > start {
		id := bytes.Map(func(r rune) rune {
			if r == '\'' || r == '"' || r == '\\' {
				return -1
			}
			return r
		}, src[start:j])
		dash := bytes.HasSuffix(src[:start], []byte("<<-")) || bytes.HasSuffix(bytes.TrimRight(src[:start], " \t"), []byte("<<-"))
		h := heredoc{id: string(id), indent: dash}
		if dash {
			h.kind = cTabDoc // the shell drops the tabs that begin its lines
		}
		s.pending = append(s.pending, h)
	}
	return j
}

// tidySeparators reads the separators of a language where a line end
// ends a statement: one separator for a run of them, none at the start,
// none after a token the line goes on from, none before one that goes on
// with the previous line.
func tidySeparators(src []byte, toks []ctok, r *lexRules) []ctok {
	out := toks[:0]
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind != cSemi {
			out = append(out, t)
			continue
		}
		// the last token written and the next one that is no separator
		if len(out) == 0 || out[len(out)-1].kind == cSemi || out[len(out)-1].kind == cIndent || out[len(out)-1].kind == cDedent {
			continue
		}
		prev := out[len(out)-1]
		k := i + 1
		for k < len(toks) && toks[k].kind == cSemi {
			k++
		}
		if k == len(toks) {
			continue
		}
		if (goesOn(src, prev, r) && (r.operand == nil || !r.operand(src, out))) || leads(src, toks[k], r) ||
			(r.goesOnAfter != nil && r.goesOnAfter(src, out)) {
			continue
		}
		out = append(out, t)
	}
	return out
}

func goesOn(src []byte, t ctok, r *lexRules) bool {
	if t.kind != cVerbatim {
		return false
	}
	s := string(src[t.start:t.end])
	if r.goesOn[s] {
		return true
	}
	if !r.opsGoOn || r.notGoOn[s] || isIdentByte(s[0]) || s[0] == '"' || s[0] == '\'' || s[0] == '`' {
		return false
	}
	switch s {
	case ")", "]", "}":
		return false
	}
	return true
}

func leads(src []byte, t ctok, r *lexRules) bool {
	if t.kind != cVerbatim {
		return false
	}
	return r.leads[string(src[t.start:t.end])]
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
