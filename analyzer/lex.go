package analyzer

import (
	"go/scanner"
	"go/token"
)

// span is a token's byte range in the source.
type span struct{ start, end int }

type tokenizer interface {
	tokens(src []byte, buf []span) []span
}

// lexer is a small configurable tokenizer for C-like and Python-like
// languages. It only needs to agree with itself: the same text must always
// give the same tokens, comments must vanish, and string literals must
// stay whole so that comment markers inside them are not mistaken.
type lexer struct {
	slashComments bool // // and /* */
	hashComments  bool // #
	nestedBlocks  bool // /* /* */ */ (Rust)
	pyStrings     bool // prefixes and triple quotes
	backticks     bool // `template` strings
	rustStrings   bool // r#"raw"#, 'c' vs 'lifetime
	quotes        bool // "..." and '...'
	dropSemis     bool // ';' is formatting where semicolons are optional (JS, TS)
}

// lexSpec returns the tokenizer for a language name.
func lexSpec(lang string) tokenizer {
	switch lang {
	case "go":
		return goLexer{}
	case "python":
		return lexer{hashComments: true, pyStrings: true, quotes: true}
	case "javascript", "typescript", "tsx":
		return lexer{slashComments: true, backticks: true, quotes: true, dropSemis: true}
	case "rust":
		return lexer{slashComments: true, nestedBlocks: true, rustStrings: true, quotes: true}
	case "java", "c":
		return lexer{slashComments: true, quotes: true}
	}
	if r := rulesFor(lang); r != nil {
		return rulesTokens{r}
	}
	return lexer{}
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

func (l lexer) tokens(src []byte, out []span) []span {
	n := len(src)
	for i := 0; i < n; {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case l.slashComments && c == '/' && i+1 < n && src[i+1] == '/',
			l.hashComments && c == '#':
			for i < n && src[i] != '\n' {
				i++
			}
			continue
		case l.slashComments && c == '/' && i+1 < n && src[i+1] == '*':
			i = l.skipBlock(src, i)
			continue
		case l.quotes && (c == '"' || c == '\''):
			if l.rustStrings && c == '\'' && !isRustChar(src, i) {
				j := i + 1 // lifetime: 'a
				for j < n && isIdentByte(src[j]) {
					j++
				}
				out = append(out, span{i, j})
				i = j
				continue
			}
			j := l.skipString(src, i)
			out = append(out, span{i, j})
			i = j
			continue
		case l.backticks && c == '`':
			j := skipQuoted(src, i, '`', true)
			out = append(out, span{i, j})
			i = j
			continue
		case isIdentByte(c):
			j := i + 1
			if c >= '0' && c <= '9' { // numbers, with dots and exponents
				for j < n && (isIdentByte(src[j]) || src[j] == '.' ||
					((src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E') && !isHexNumber(src[i:j]))) {
					j++
				}
				out = append(out, span{i, j})
				i = j
				continue
			}
			for j < n && isIdentByte(src[j]) {
				j++
			}
			if j < n && l.quotes {
				if l.pyStrings && (src[j] == '"' || src[j] == '\'') && isPyPrefix(src[i:j]) {
					k := l.skipString(src, j)
					out = append(out, span{i, k})
					i = k
					continue
				}
				if l.rustStrings && (string(src[i:j]) == "r" || string(src[i:j]) == "br" || string(src[i:j]) == "b") && (src[j] == '#' || src[j] == '"') {
					if k, ok := skipRawRust(src, j, src[i:j]); ok {
						out = append(out, span{i, k})
						i = k
						continue
					}
				}
			}
			out = append(out, span{i, j})
			i = j
			continue
		}
		if !(l.dropSemis && c == ';') {
			out = append(out, span{i, i + 1})
		}
		i++
	}
	return out
}

func isHexNumber(b []byte) bool {
	return len(b) > 1 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X')
}

func (l lexer) skipBlock(src []byte, i int) int {
	n := len(src)
	depth := 0
	for i < n {
		if i+1 < n && src[i] == '/' && src[i+1] == '*' {
			depth++
			i += 2
			if !l.nestedBlocks && depth > 1 {
				depth = 1
			}
			continue
		}
		if i+1 < n && src[i] == '*' && src[i+1] == '/' {
			depth--
			i += 2
			if depth == 0 {
				return i
			}
			continue
		}
		i++
	}
	return n
}

func (l lexer) skipString(src []byte, i int) int {
	q := src[i]
	if l.pyStrings && i+2 < len(src) && src[i+1] == q && src[i+2] == q {
		j := i + 3
		for j < len(src) {
			if src[j] == '\\' {
				j += 2
				continue
			}
			if src[j] == q && j+2 < len(src) && src[j+1] == q && src[j+2] == q {
				return j + 3
			}
			j++
		}
		return len(src)
	}
	return skipQuoted(src, i, q, l.rustStrings)
}

// skipQuoted returns the end of the literal opened at src[i]; single-line
// unless multiline.
func skipQuoted(src []byte, i int, q byte, multiline bool) int {
	j := i + 1
	for j < len(src) {
		switch src[j] {
		case '\\':
			j += 2
			continue
		case q:
			return j + 1
		case '\n':
			if !multiline {
				return j
			}
		}
		j++
	}
	return len(src)
}

func isPyPrefix(b []byte) bool {
	if len(b) > 3 {
		return false
	}
	for _, c := range b {
		switch c {
		case 'r', 'R', 'b', 'B', 'u', 'U', 'f', 'F', 't', 'T':
		default:
			return false
		}
	}
	return true
}

// isRustChar tells a char literal ('a', '\n', '\u{1F600}') from a lifetime.
func isRustChar(src []byte, i int) bool {
	if i+2 < len(src) && src[i+1] == '\\' {
		return true
	}
	if i+1 >= len(src) {
		return false
	}
	// one UTF-8 encoded rune followed by a quote
	j := i + 2
	for j < len(src) && j < i+5 && src[j]&0xC0 == 0x80 {
		j++
	}
	return j < len(src) && src[j] == '\''
}

func skipRawRust(src []byte, j int, prefix []byte) (int, bool) {
	if string(prefix) == "b" {
		if src[j] == '"' {
			return skipQuoted(src, j, '"', true), true
		}
		return 0, false
	}
	hashes := 0
	for j < len(src) && src[j] == '#' {
		hashes++
		j++
	}
	if j >= len(src) || src[j] != '"' {
		return 0, false
	}
	j++
	for j < len(src) {
		if src[j] == '"' {
			k := 0
			for k < hashes && j+1+k < len(src) && src[j+1+k] == '#' {
				k++
			}
			if k == hashes {
				return j + 1 + hashes, true
			}
		}
		j++
	}
	return len(src), true
}

// goLexer tokenizes Go with go/scanner, dropping comments and semicolons
// (inserted or written) so that formatting does not matter.
type goLexer struct{}

func (goLexer) tokens(src []byte, out []span) []span {
	if fast, ok := goFastTokens(src, out); ok {
		return fast
	}
	return goScanTokens(src, out)
}

// goScanTokens is the go/scanner pass behind goLexer: the reference for
// goFastTokens and the fallback for source it does not handle.
func goScanTokens(src []byte, out []span) []span {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(f, src, func(token.Position, string) {}, 0)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.SEMICOLON || tok == token.COMMENT {
			continue
		}
		off := f.Offset(pos)
		n := len(lit)
		if n == 0 || tok.IsOperator() || tok.IsKeyword() {
			n = len(tok.String())
		}
		if tok == token.ILLEGAL {
			n = 1
		}
		if tok == token.STRING && src[off] == '`' { // lit has carriage returns removed
			n = len(src) - off
			if k := indexByteFrom(src, off+1, '`'); k >= 0 {
				n = k + 1 - off
			}
		}
		end := off + n
		if end > len(src) {
			end = len(src)
		}
		out = append(out, span{off, end})
	}
}

func indexByteFrom(b []byte, from int, c byte) int {
	for i := from; i < len(b); i++ {
		if b[i] == c {
			return i
		}
	}
	return -1
}
