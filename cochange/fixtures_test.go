package cochange

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/cochange/*.txtar")

// TestFixtures replays the histories of testdata/cochange/*.txtar into real
// repositories and compares Analyze with each archive's "want" section
// (rewritten by -update). Each archive also gets the renames-off result
// checked against git log.
//
// Sections: "options" (one "key value" a line: max_changeset, min_revs,
// min_shared, min_coupling, no_renames, by_day, merges), "history" (commands, one a
// line, # comments), "want" (pairs as pairsText prints them).
//
// History commands: commit [FILE...] (new content for the files, then
// commit everything), write FILE..., mv FROM TO, rm FILE..., chmod +x|-x
// FILE, symlink TARGET LINK, hours N, days N (advance the clock), author
// EMAIL, branch NAME, checkout NAME, merge NAME (--no-ff).
func TestFixtures(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../testdata/cochange/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			runFixture(t, file)
		})
	}
}

func runFixture(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	for _, f := range ar.Files {
		sections[f.Name] = string(f.Data)
	}
	o := Options{FullHistory: true}
	for _, line := range lines(sections["options"]) {
		k, v, _ := strings.Cut(line, " ")
		n, _ := strconv.Atoi(v)
		switch k {
		case "max_changeset":
			o.MaxChangeset = n
		case "min_revs":
			o.MinRevs = n
		case "min_shared":
			o.MinShared = n
		case "min_coupling":
			o.MinCoupling, _ = strconv.ParseFloat(v, 64)
		case "no_renames":
			o.NoRenames = v == "true"
		case "by_day":
			o.ByDay = v == "true"
		case "merges":
			o.Merges = v == "true"
		default:
			t.Fatalf("options: unknown %q", k)
		}
	}
	r := newTestRepo(t)
	author := "ada@example.com"
	for _, line := range lines(sections["history"]) {
		f := strings.Fields(line)
		git := func(args ...string) {
			cmd := gitCmd(r.dir, args...)
			cmd.Env = append(gitEnv(r.clock), "GIT_AUTHOR_EMAIL="+author)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: git %v: %v\n%s", line, args, err, out)
			}
		}
		switch f[0] {
		case "commit":
			r.write(f[1:]...)
			r.clock = r.clock.Add(time.Hour)
			git("add", "-A")
			git("commit", "-q", "--allow-empty", "-m", line)
		case "write":
			r.write(f[1:]...)
		case "mv":
			r.mv(f[1], f[2])
		case "rm":
			r.rm(f[1:]...)
		case "chmod":
			mode := os.FileMode(0o644)
			if f[1] == "+x" {
				mode = 0o755
			}
			if err := os.Chmod(filepath.Join(r.dir, f[2]), mode); err != nil {
				t.Fatal(err)
			}
		case "branch":
			git("branch", f[1])
		case "checkout":
			git("checkout", "-q", f[1])
		case "merge":
			r.clock = r.clock.Add(time.Hour)
			git("merge", "-q", "--no-ff", "-m", line, f[1])
		case "symlink":
			if err := os.Symlink(f[1], filepath.Join(r.dir, f[2])); err != nil {
				t.Fatal(err)
			}
		case "hours", "days":
			n, _ := strconv.Atoi(f[1])
			d := time.Duration(n) * time.Hour
			if f[0] == "days" {
				d *= 24
			}
			r.clock = r.clock.Add(d)
		case "author":
			author = f[1]
		default:
			t.Fatalf("history: unknown command %q", line)
		}
	}
	res := analyze(t, nil, r.dir, o)
	got := pairsText(res.Pairs)
	if *update {
		for i := range ar.Files {
			if ar.Files[i].Name == "want" {
				ar.Files[i].Data = []byte(got)
			}
		}
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if want := sections["want"]; got != want {
		t.Errorf("%s (-want +got):\n%s", file, lineDiff(want, got))
	}
	if !o.ByDay {
		o.NoRenames = true
		checkExactQuiet(t, fmt.Sprintf("%s, renames off", file), r.dir, o)
	}
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}
