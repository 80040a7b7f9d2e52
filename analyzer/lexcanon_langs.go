package analyzer

import (
	"bytes"
)

// The lexical rules of the languages read by the rules scanner
// (lexcanon_rules.go), by language name. Each is read only.

// rulesFor returns the rules of lang, or nil for a language that has a
// lexer of its own.
func rulesFor(lang string) *lexRules {
	switch lang {
	case "cpp":
		return cppRules
	case "csharp":
		return csharpRules
	case "ruby":
		return rubyRules
	case "php":
		return phpRules
	case "kotlin":
		return kotlinRules
	case "swift":
		return swiftRules
	case "scala":
		return scalaRules
	case "bash":
		return bashRules
	case "lua":
		return luaRules
	}
	return nil
}

var slashComments = struct {
	line  []string
	block [][2]string
}{[]string{"//"}, [][2]string{{"/*", "*/"}}}

// noneOf returns a plain test: a body holding none of the bytes.
func noneOf(bytesOf string) func([]byte) bool {
	return func(b []byte) bool { return !bytes.ContainsAny(b, bytesOf) }
}

var cppRules = &lexRules{
	num: langC, line: slashComments.line, block: slashComments.block,
	directives: true, chars: true, extra: cppRaw,
}

var csharpRules = &lexRules{
	num: langOther, line: slashComments.line, block: slashComments.block,
	directives: true, chars: true, triple: true, sigils: "@", extra: csString,
}

var rubyRules = &lexRules{
	num: langC, line: []string{"#"}, single: true, interp: []string{"#{"},
	plain: rubyPlain, identEnd: "?!", sigils: "@$", extra: rubyLiteral,
	newlines: true, opsGoOn: true, tidy: tidyRuby, operand: rubyOperandEnd, regexps: true,
	notGoOn: set("!", "++", "--"),
	goesOn:  set("and", "or", "not", "if", "unless", "while", "until"),
	leads:   set(".", "&.", ")", "]", "}", "else", "elsif", "end", "then", "when", "&&", "||"),
}

var phpRules = &lexRules{
	num: langC, line: []string{"//", "#"}, block: slashComments.block, single: true,
	interp: []string{"{$", "${"}, plain: noneOf(`\$'"`), sigils: "$", extra: phpLiteral, tags: true,
}

var kotlinRules = &lexRules{
	num: langOther, line: slashComments.line, block: slashComments.block, nested: true,
	chars: true, triple: true, interp: []string{"${"},
	newlines: true, parens: true, opsGoOn: true,
	notGoOn: set("!", "!!", "?", "++", "--"),
	leads:   set(".", "?.", "?:", "&&", "||", ")", "]", "}", "else", "catch", "finally"),
}

var swiftRules = &lexRules{
	num: langOther, line: slashComments.line, block: slashComments.block, nested: true,
	triple: true, interp: []string{`\(`}, extra: swiftRaw,
	newlines: true, parens: true, opsGoOn: true,
	notGoOn: set("!", "?", "++", "--"),
	leads:   set(".", "?.", "&&", "||", "??", ")", "]", "}", "else", "catch"),
}

var scalaRules = &lexRules{
	num: langOther, line: slashComments.line, block: slashComments.block, nested: true,
	triple: true, interp: []string{"${"}, extra: scalaChar,
	newlines: true, parens: true, opsGoOn: true, indent: true, prefixedInterp: true,
	notGoOn: set("!", "?", "++", "--"),
	leads:   set(".", "&&", "||", ")", "]", "}", "else", "catch", "finally", "match", "with", "extends", "yield"),
}

var bashRules = &lexRules{
	line: []string{"#"}, words: true, single: true, plain: noneOf("$`\\!'\"\n"),
	interp:      []string{"$(", "${"}, // a new quoting context inside "…"
	newlines:    true,
	goesOn:      set("&&", "||", "|", "|&", "{", "(", "then", "do", "else"),
	leads:       set(")", ";;", ";&", ";;&"),
	goesOnAfter: shellFuncHead,
	tidy:        tidyShell,
}

var luaRules = &lexRules{
	num: langOther, single: true, plain: func([]byte) bool { return true }, extra: luaLong,
	line: []string{"--"},
}

// cppRaw reads a C++ raw string: (u8|u|U|L)?R"delim( … )delim".
func cppRaw(s *scanState, i int) (int, ckind, bool) {
	src := s.src
	j := i
	for _, p := range []string{"u8", "u", "U", "L"} {
		if bytes.HasPrefix(src[j:], []byte(p+`R"`)) {
			j += len(p)
			break
		}
	}
	if !bytes.HasPrefix(src[j:], []byte(`R"`)) || (i > 0 && isIdentByte(src[i-1])) {
		return 0, 0, false
	}
	open := bytes.IndexByte(src[j+2:], '(')
	if open < 0 || open > 16 {
		return 0, 0, false
	}
	delim := src[j+2 : j+2+open]
	end := bytes.Index(src[j+3+open:], append(append([]byte(")"), delim...), '"'))
	if end < 0 {
		return len(src), cVerbatim, true
	}
	return j + 3 + open + end + len(delim) + 2, cVerbatim, true
}

// csString reads C#'s verbatim (@"…") and interpolated ($"…{x}…")
// strings; raw strings ("""…""") are the scanner's triple quotes.
func csString(s *scanState, i int) (int, ckind, bool) {
	src := s.src
	j := i
	verbatim, interp := false, false
	for k := 0; k < 2 && j < len(src); k++ {
		switch src[j] {
		case '@':
			verbatim = true
			j++
		case '$':
			interp = true
			for j < len(src) && src[j] == '$' {
				j++
			}
		}
	}
	if j == i || j >= len(src) || src[j] != '"' || (i > 0 && isIdentByte(src[i-1])) {
		return 0, 0, false
	}
	if bytes.HasPrefix(src[j:], []byte(`"""`)) {
		end := bytes.Index(src[j+3:], []byte(`"""`))
		if end < 0 {
			return len(src), cVerbatim, true
		}
		return j + 3 + end + 3, cVerbatim, true
	}
	for k := j + 1; k < len(src); k++ {
		switch c := src[k]; {
		case c == '\\' && !verbatim:
			k++
		case c == '"' && verbatim && k+1 < len(src) && src[k+1] == '"':
			k++
		case c == '"':
			return k + 1, cVerbatim, true
		case c == '{' && interp:
			if k+1 < len(src) && src[k+1] == '{' {
				k++
				continue
			}
			k = s.skipCode(k+1, '{', '}') - 1
		case c == '\n' && !verbatim:
			return k, cVerbatim, true
		}
	}
	return len(src), cVerbatim, true
}

// rubyLiteral reads Ruby's =begin/=end comments, __END__, heredocs,
// percent literals and regular expressions.
func rubyLiteral(s *scanState, i int) (int, ckind, bool) {
	src := s.src
	atLine := i == 0 || src[i-1] == '\n'
	// A character literal, ?/ or ?\n, where an operand may start: an
	// operand (a / after it divides), never a conditional's ?.
	if src[i] == '?' && !s.afterOperand() && i+1 < len(src) && !isBlank(src[i+1]) {
		j := i + 2
		if src[i+1] == '\\' && j < len(src) {
			j++
		}
		if j >= len(src) || !isIdentByte(src[j]) || src[i+1] == '\\' {
			return min(j, len(src)), cRubyLit, true
		}
	}
	switch {
	case atLine && bytes.HasPrefix(src[i:], []byte("=begin")) && (i+6 == len(src) || isBlank(src[i+6])):
		k := bytes.Index(src[i:], []byte("\n=end"))
		if k < 0 {
			return len(src), cDrop, true
		}
		e := i + k + 5
		for e < len(src) && src[e] != '\n' {
			e++
		}
		return e, cDrop, true
	case atLine && bytes.HasPrefix(src[i:], []byte("__END__")) && (i+7 == len(src) || src[i+7] == '\n' || src[i+7] == '\r'):
		return len(src), cVerbatim, true
	}
	c := src[i]
	if c == '"' && s.canon {
		if end, ok := rubyInterpolated(s, i); ok {
			return end, cDrop, true // its parts are in the stream
		}
	}
	if (c == '"' || c == '\'') && s.canon {
		if end, ok := rubyString(s, i); ok {
			return end, cRubyStr, true
		}
	}
	if c == '@' {
		// An instance or class variable is a name, never an operator the
		// line goes on from.
		j := i + 1
		if j < len(src) && src[j] == '@' {
			j++
		}
		if j < len(src) && isIdentByte(src[j]) && src[j] != '$' {
			for j < len(src) && isIdentByte(src[j]) && src[j] != '$' {
				j++
			}
			return j, cRubyLit, true
		}
	}
	if c == '$' && i+1 < len(src) && bytes.IndexByte([]byte("'\"&~!@/\\;,.<>_0*$?:`+"), src[i+1]) >= 0 {
		return i + 2, cVerbatim, true // a special global: $' $" $~ …
	}
	if c != '<' && c != '%' && c != '/' {
		return 0, 0, false
	}
	// A literal opener where an operand may start: after an operator, or
	// after a name with a blank before the opener and none after it
	// (foo /re/ and foo %w[a], not a / b).
	opens := !s.afterOperand() || lastIsKeyword(s) ||
		(i > 0 && isBlank(src[i-1]) && i+1 < len(src) && !isBlank(src[i+1]) && lastIsName(s) &&
			!(c == '/' && src[i+1] == '=')) || // n /= 2 divides
		lastIsBang(s)
	switch {
	case c == '<' && bytes.HasPrefix(src[i:], []byte("<<")) && opens:
		j := i + 2
		indent := false
		body := cHeredoc
		if j < len(src) && (src[j] == '~' || src[j] == '-') {
			indent = true
			if src[j] == '~' {
				body = cSquiggly
			}
			j++
		}
		if j >= len(src) {
			return 0, 0, false
		}
		q := src[j]
		start := j
		if q == '\'' || q == '"' || q == '`' {
			e := bytes.IndexByte(src[j+1:], q)
			if e < 0 {
				return 0, 0, false
			}
			s.pending = append(s.pending, heredoc{id: string(src[j+1 : j+1+e]), indent: indent, kind: body, interp: q != '\''})
			return j + e + 2, cHeredocOpen, true
		}
		for j < len(src) && isIdentByte(src[j]) {
			j++
		}
		if j == start || !(indent || isUpper(src[start])) {
			return 0, 0, false
		}
		s.pending = append(s.pending, heredoc{id: string(src[start:j]), indent: indent, kind: body, interp: true})
		return j, cHeredocOpen, true
	case c == '%' && opens && i+1 < len(src):
		j := i + 1
		if bytes.IndexByte([]byte("qQwWiIrsx"), src[j]) >= 0 {
			j++
		}
		if j >= len(src) || isIdentByte(src[j]) || isBlank(src[j]) || src[j] == '=' {
			return 0, 0, false
		}
		if src[j-1] == 'w' || src[j-1] == 'i' {
			return delimited(src, j), cWords, true
		}
		end := delimited(src, j)
		if src[j-1] == 'Q' || src[j-1] == '%' {
			if s.canon && rubyPercentParts(s, i, j, end) {
				return end, cDrop, true // its parts are in the stream
			}
			return end, cRubyLit, true
		}
		if src[j-1] != 'r' {
			return end, cRubyLit, true
		}
		for end < len(src) && isLower(src[end]) { // its flags, as after /…/
			end++
		}
		if closer(src[j]) == src[j] && bytes.Contains(src[j+1:end], []byte{'\\', src[j]}) {
			// %r|…\|…|: an escaped delimiter, kept as written.
			return end, cRubyLit, true
		}
		if s.canon && rubyRegexpParts(s, i, end) {
			return end, cDrop, true // its parts are in the stream
		}
		return end, cRubyRegexp, true
	case c == '/' && opens:
		j := i + 1
		for j < len(src) && src[j] != '/' {
			if src[j] == '\\' {
				j++
			} else if src[j] == '#' && j+1 < len(src) && src[j+1] == '{' {
				j = s.skipCode(j+2, '{', '}') - 1
			}
			j++
		}
		j++
		for j < len(src) && isLower(src[j]) {
			j++
		}
		j = min(j, len(src))
		if s.canon && rubyRegexpParts(s, i, j) {
			return j, cDrop, true // its parts are in the stream
		}
		return j, cRubyRegexp, true
	}
	return 0, 0, false
}

// lastIsBang reports whether the last token is a lone ! (not a name's
// end): a prefix operator, after which an operand starts (!%w[a].f).
func lastIsBang(s *scanState) bool {
	if len(s.out) == 0 {
		return false
	}
	t := s.out[len(s.out)-1]
	return t.kind == cVerbatim && t.end-t.start == 1 && s.src[t.start] == '!'
}

// lastIsKeyword reports whether the last token is a Ruby keyword an
// expression follows (`elsif /=/ =~ s`, `when %r{a}`).
func lastIsKeyword(s *scanState) bool {
	if len(s.out) == 0 {
		return false
	}
	t := s.out[len(s.out)-1]
	if t.kind != cVerbatim {
		return false
	}
	switch string(s.src[t.start:t.end]) {
	case "if", "elsif", "unless", "when", "while", "until", "and", "or", "not", "return", "case", "then",
		"else", "in", "yield":
		return len(s.out) < 2 || !isByte(s.src, s.out[len(s.out)-2], '.') // not a method named so
	}
	return false
}

func lastIsName(s *scanState) bool {
	if len(s.out) == 0 {
		return false
	}
	t := s.out[len(s.out)-1]
	return t.kind == cVerbatim && isIdentByte(s.src[t.start]) && !isDigit(s.src[t.start])
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' || c == '_' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }

// delimited returns the end of a literal whose opening delimiter is at
// src[j]: brackets nest, any other byte closes itself.
func delimited(src []byte, j int) int {
	open := src[j]
	close := open
	switch open {
	case '(':
		close = ')'
	case '[':
		close = ']'
	case '{':
		close = '}'
	case '<':
		close = '>'
	}
	depth := 1
	for k := j + 1; k < len(src); k++ {
		switch src[k] {
		case '\\':
			k++
		case close:
			depth--
			if depth == 0 {
				return k + 1
			}
		case open:
			depth++
		}
	}
	return len(src)
}

// phpLiteral reads PHP's inline text outside <?php … ?>, its tags, its
// #[ attributes (not comments) and heredocs.
func phpLiteral(s *scanState, i int) (int, ckind, bool) {
	src := s.src
	if !s.php {
		// Inline text up to the next opening tag is output, read as written.
		k := bytes.Index(src[i:], []byte("<?"))
		if k < 0 {
			return len(src), cVerbatim, true
		}
		s.php = true
		if k == 0 {
			return phpOpenTag(src, i), cVerbatim, true
		}
		return i + k, cVerbatim, true
	}
	switch {
	case bytes.HasPrefix(src[i:], []byte("<?")):
		return phpOpenTag(src, i), cVerbatim, true
	case bytes.HasPrefix(src[i:], []byte("?>")):
		s.php = false
		e := i + 2
		if e < len(src) && src[e] == '\n' {
			e++ // the line end right after ?> is not output
		}
		return e, cVerbatim, true
	case bytes.HasPrefix(src[i:], []byte("#[")):
		return i + 2, cVerbatim, true
	case bytes.HasPrefix(src[i:], []byte("<<<")):
		j := i + 3
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		q := byte(0)
		if j < len(src) && (src[j] == '\'' || src[j] == '"') {
			q = src[j]
			j++
		}
		start := j
		for j < len(src) && isIdentByte(src[j]) {
			j++
		}
		if j == start {
			return 0, 0, false
		}
		s.pending = append(s.pending, heredoc{id: string(src[start:j]), indent: true})
		if q != 0 && j < len(src) && src[j] == q {
			j++
		}
		return j, cVerbatim, true
	}
	return 0, 0, false
}

func phpOpenTag(src []byte, i int) int {
	for _, t := range []string{"<?php", "<?=", "<?"} {
		if bytes.HasPrefix(src[i:], []byte(t)) {
			return i + len(t)
		}
	}
	return i + 2
}

// swiftRaw reads Swift's raw strings: #"…"#, ##"…"##, #"""…"""#.
func swiftRaw(s *scanState, i int) (int, ckind, bool) {
	src := s.src
	j := i
	for j < len(src) && src[j] == '#' {
		j++
	}
	if j == i || j >= len(src) || src[j] != '"' {
		return 0, 0, false
	}
	hashes := src[i:j]
	close := append([]byte(`"`), hashes...)
	if bytes.HasPrefix(src[j:], []byte(`"""`)) {
		close = append([]byte(`"""`), hashes...)
		j += 2
	}
	e := bytes.Index(src[j+1:], close)
	if e < 0 {
		return len(src), cVerbatim, true
	}
	return j + 1 + e + len(close), cVerbatim, true
}

// scalaChar reads 'c' and '\n' as character literals and 'name as a
// symbol; and Scala's interpolated strings (s"…${x}…"), whose ${ opens
// code only after a prefix.
func scalaChar(s *scanState, i int) (int, ckind, bool) {
	src := s.src
	if src[i] != '\'' {
		return 0, 0, false
	}
	if isRustChar(src, i) {
		return skipQuoted(src, i, '\'', false), cVerbatim, true
	}
	j := i + 1
	for j < len(src) && isIdentByte(src[j]) {
		j++
	}
	return j, cVerbatim, true
}

// luaLong reads Lua's long brackets: [[…]], [==[…]==] strings and
// --[[…]] comments.
func luaLong(s *scanState, i int) (int, ckind, bool) {
	src := s.src
	j := i
	kind := cVerbatim
	if bytes.HasPrefix(src[i:], []byte("--[")) {
		j += 2
		kind = cDrop
	}
	if j >= len(src) || src[j] != '[' {
		return 0, 0, false
	}
	k := j + 1
	for k < len(src) && src[k] == '=' {
		k++
	}
	if k >= len(src) || src[k] != '[' {
		return 0, 0, false
	}
	close := append(append([]byte("]"), src[j+1:k]...), ']')
	e := bytes.Index(src[k+1:], close)
	if e < 0 {
		return len(src), kind, true
	}
	return k + 1 + e + len(close), kind, true
}
