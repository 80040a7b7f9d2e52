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
// exitError (see fatalLog).
func exitOnFatal() {
	log.SetFlags(0)
	log.SetOutput(fatalLog{w: os.Stderr})
}

// parkOnFatal makes the standard logger's fatal messages end only the
// goroutine that logs them, for the servers (see fatalLog).
func parkOnFatal(w io.Writer) {
	log.SetOutput(fatalLog{w: w, park: true})
}

// fatalLog is the standard logger's output. Badger ends the process
// through log.Fatal when it finds its own state impossible, as after its
// directory vanished under a writer; log.Fatal exits with 1, which means
// "findings" to lore's callers. A message logged from log.Fatal is printed
// on one line, and then the process exits with 2, a runtime error, or,
// with park, only the goroutine that logged it ends (runtime.Goexit, which
// runs its deferred calls): the servers keep serving, the call that
// waited on that goroutine fails (graph sees it end), and the next request
// opens the store anew. Other messages pass through.
type fatalLog struct {
	w    io.Writer
	park bool
}

func (f fatalLog) Write(p []byte) (int, error) {
	if !calledFrom("log.Fatal") {
		return f.w.Write(p)
	}
	msg, _, _ := strings.Cut(strings.TrimSpace(string(p)), "\n")
	if f.park {
		fmt.Fprintf(f.w, "lore: warning: the store failed (%s); the next request opens it anew\n", msg)
		runtime.Goexit()
	}
	fmt.Fprintf(f.w, "lore: store failed: %s: rerun (if it fails again, remove .lore/db)\n", msg)
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
