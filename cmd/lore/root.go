package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/lorehq/lore"
)

// Exit codes (DESIGN.md §5).
const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

// app is what every command shares: standard streams and global flags.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// rawStdout is stdout unbuffered, for what streams to it (the MCP
	// server) or hands it to a child (the editor); stdout buffers output
	// and is flushed when the command returns.
	rawStdout   io.Writer
	dir         string
	lockTimeout time.Duration
	memory      memoryLimit
	// findings is set by commands whose results cross --fail-on.
	findings bool
	// quiet drops the workspace's notices (verify --quiet: a hook that
	// lets the commit through prints nothing).
	quiet bool
}

func (a *app) isTTY() bool {
	f, ok := a.rawStdout.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// workspace opens the workspace around -C (default: the current directory).
func (a *app) workspace() (*lore.Workspace, error) {
	notify := func(msg string) { fmt.Fprintln(a.stderr, "lore: warning:", msg) }
	if a.quiet {
		notify = nil
	}
	return lore.Open(a.dir, lore.Options{
		LockTimeout: a.lockTimeout,
		Notify:      notify,
		ShortLived:  true,
	})
}

func (a *app) json(v any) error {
	enc := json.NewEncoder(a.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// jsonArray writes items as json would write the slice (an empty or nil
// slice as []), one element at a time through one encoder: encoding a
// thousand learnings as one value grew and then re-indented a buffer of the
// whole output, and that garbage was a fifth of `lore learn list --json`.
func jsonArray[T any](a *app, items []T) error {
	if items == nil {
		items = []T{}
	}
	if err := writeJSONArray(a, "", items); err != nil {
		return err
	}
	_, err := io.WriteString(a.stdout, "\n")
	return err
}

// writeJSONArray writes items as an indented json.Encoder would write the
// slice at the given indent, with no newline after it.
func writeJSONArray[T any](a *app, indent string, items []T) error {
	if items == nil {
		_, err := io.WriteString(a.stdout, "null")
		return err
	}
	if len(items) == 0 {
		_, err := io.WriteString(a.stdout, "[]")
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	inner := indent + "  "
	enc.SetIndent(inner, "  ")
	io.WriteString(a.stdout, "[\n")
	for i, it := range items {
		buf.Reset()
		if err := enc.Encode(it); err != nil {
			return err
		}
		io.WriteString(a.stdout, inner)
		_, _ = a.stdout.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))) // its error sticks: see run
		if i < len(items)-1 {
			io.WriteString(a.stdout, ",")
		}
		io.WriteString(a.stdout, "\n")
	}
	_, err := io.WriteString(a.stdout, indent+"]")
	return err
}

// jsonMember is a member of an object written by jsonObject.
type jsonMember struct {
	name  string
	write func(a *app, indent string) error
}

// arrayMember is a member whose value is an array, streamed as jsonArray
// streams it.
func arrayMember[T any](name string, items []T) jsonMember {
	return jsonMember{name, func(a *app, indent string) error { return writeJSONArray(a, indent, items) }}
}

// jsonObject writes an object as the indented json.Encoder would write a
// struct with these fields, streaming each array member: a neighbourhood of
// a hundred nodes encoded as one value grew two buffers of the whole output
// in fresh memory, a sixth of a `lore graph neighbors --json` process.
func (a *app) jsonObject(members ...jsonMember) error {
	if len(members) == 0 {
		_, err := io.WriteString(a.stdout, "{}\n")
		return err
	}
	io.WriteString(a.stdout, "{\n")
	for i, m := range members {
		name, _ := json.Marshal(m.name)
		io.WriteString(a.stdout, "  ")
		_, _ = a.stdout.Write(name) // its error sticks: see run
		io.WriteString(a.stdout, ": ")
		if err := m.write(a, "  "); err != nil {
			return err
		}
		if i < len(members)-1 {
			io.WriteString(a.stdout, ",")
		}
		io.WriteString(a.stdout, "\n")
	}
	_, err := io.WriteString(a.stdout, "}\n")
	return err
}

// jsonLines writes one compact JSON value per line.
func (a *app) jsonLine(v any) error {
	return json.NewEncoder(a.stdout).Encode(v)
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	out := bufio.NewWriterSize(stdout, 64<<10)
	a := &app{stdin: stdin, stdout: out, rawStdout: stdout, stderr: stderr}
	root := newRootCmd(a)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(out)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if ferr := out.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("write output: %w", ferr)
	}
	if err != nil {
		msg := strings.TrimSpace(err.Error())
		msg = strings.ReplaceAll(msg, "\n", "; ")
		msg = strings.ToValidUTF8(msg, "\uFFFD")
		fmt.Fprintln(stderr, "lore:", msg)
		return exitError
	}
	if a.findings {
		return exitFindings
	}
	return exitOK
}

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "lore",
		Short: "Keep what your team learned attached to the code it is about",
		Long: `lore keeps learnings — short notes about code — anchored to symbols, line
ranges, files and globs, verifies on every change which still hold, and
answers "what do we know that matters for the file I am editing?".`,
		Example: `  lore init
  lore learn add --title "validateToken checks expiry first" --anchor src/auth.ts::AuthService::validateToken
  lore verify
  lore context src/auth.ts`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVarP(&a.dir, "dir", "C", ".", "run as if lore was started in `DIR`")
	root.PersistentFlags().DurationVar(&a.lockTimeout, "lock-timeout", 0, "how long to wait for another lore process holding .lore/db (default 10s)")
	root.PersistentFlags().Var(&a.memory, "memory-limit", "soft limit on the Go heap, such as 512MiB (default $"+memoryLimitEnv+", else none)")
	root.PersistentPreRunE = func(*cobra.Command, []string) error { return a.memory.apply() }
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%v (see %s --help)", err, c.CommandPath())
	})
	root.AddCommand(
		newInitCmd(a),
		newLearnCmd(a),
		newIndexCmd(a),
		newSymbolsCmd(a),
		newImportsCmd(a),
		newGraphCmd(a),
		newRelateCmd(a),
		newUnrelateCmd(a),
		newBuildContextCmd(a),
		newCochangeCmd(a),
		newVerifyCmd(a),
		newHistoryCmd(a),
		newAnchorCmd(a),
		newHookCmd(a),
		newAgentHookCmd(a),
		newContextCmd(a),
		newImpactCmd(a),
		newFeedbackCmd(a),
		newMCPCmd(a),
		newLSPCmd(a),
		newServeCmd(a),
	)
	return root
}

// usageError is an error in the command's arguments.
func usageError(c *cobra.Command, format string, args ...any) error {
	return fmt.Errorf("%s (see %s --help)", fmt.Sprintf(format, args...), c.CommandPath())
}
