package yamlerr

import (
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// Line returns the 1-based line that err names, 0 when it names none.
func Line(err error) int {
	var te *yaml.TypeError
	msg := err.Error()
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	var n int
	if i := strings.Index(msg, "line "); i >= 0 {
		if _, err := fmt.Sscanf(msg[i+5:], "%d", &n); err != nil {
			return 0
		}
	}
	return n
}

// Message returns what err says, without "yaml: " and the line.
func Message(err error) string {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if i := strings.Index(msg, ": "); strings.HasPrefix(msg, "line ") && i >= 0 {
		msg = msg[i+2:]
	}
	// yaml shortens the values it quotes by bytes, which can cut a
	// character in two: drop the half.
	return strings.ToValidUTF8(msg, "")
}

// WithLine is Message prefixed with "line N: " when err names a line.
func WithLine(err error) string {
	if n := Line(err); n > 0 {
		return fmt.Sprintf("line %d: %s", n, Message(err))
	}
	return Message(err)
}
