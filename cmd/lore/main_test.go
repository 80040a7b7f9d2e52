package main

import (
	"context"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run the lore command as a real child process:
// the test binary re-executes itself as "lore".
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"lore": func() {
			// As main does: SIGINT and SIGTERM cancel the context.
			exitOnFatal()
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
			stop()
			os.Exit(code)
		},
		// lore-fatal is Badger failing an assertion: log.Fatal.
		"lore-fatal": func() {
			exitOnFatal()
			log.Printf("an ordinary log line passes through")
			log.Fatalf("Assert failed\nstack of the goroutine")
		},
	})
}

// TestScripts runs the scenarios in testdata/script: each is a txtar
// archive of files plus commands (git, lore) and their expected output.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("GIT_AUTHOR_NAME", "Test")
			env.Setenv("GIT_AUTHOR_EMAIL", "test@example.invalid")
			env.Setenv("GIT_COMMITTER_NAME", "Test")
			env.Setenv("GIT_COMMITTER_EMAIL", "test@example.invalid")
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			env.Setenv("HOME", env.WorkDir)
			// PATH without the directory testscript puts lore in, for
			// scenarios where lore is not installed (git and sh stay).
			var keep []string
			for _, dir := range filepath.SplitList(env.Getenv("PATH")) {
				if _, err := os.Stat(filepath.Join(dir, "lore")); err != nil {
					keep = append(keep, dir)
				}
			}
			env.Setenv("PATH_WITHOUT_LORE", strings.Join(keep, string(filepath.ListSeparator)))
			return nil
		},
	})
}
