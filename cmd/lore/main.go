// Command lore keeps what a team learned about its code attached to that
// code. See the README for a tour; `lore help` lists the commands.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
)

func main() {
	exitOnFatal()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// exitOnFatal makes the standard logger's fatal messages exit with
// exitError (see fatalExit).
func exitOnFatal() {
	log.SetFlags(0)
	log.SetOutput(fatalExit{os.Stderr})
}

// fatalExit is the standard logger's output. Badger ends the process
// through log.Fatal when it finds its own state impossible, and log.Fatal
// exits with 1, which means "findings" to lore's callers: a message logged
// from log.Fatal is printed on one line and the process exits with 2, a
// runtime error. Other messages pass through.
type fatalExit struct{ w io.Writer }

func (f fatalExit) Write(p []byte) (int, error) {
	if !calledFrom("log.Fatal") {
		return f.w.Write(p)
	}
	msg, _, _ := strings.Cut(strings.TrimSpace(string(p)), "\n")
	fmt.Fprintf(f.w, "lore: store failed: %s: remove .lore/db and rerun\n", msg)
	os.Exit(exitError)
	return len(p), nil
}

// calledFrom reports whether a function whose name starts with prefix is
// on the calling goroutine's stack.
func calledFrom(prefix string) bool {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		fr, more := frames.Next()
		if strings.HasPrefix(fr.Function, prefix) {
			return true
		}
		if !more {
			return false
		}
	}
}
