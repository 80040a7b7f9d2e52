package roundtrip

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// TestCargoFix takes rustc's unused_parens suggestions with `cargo fix`
// (what a "fix unused_parens lint" commit does after a compiler upgrade)
// over a crate written with unnecessary parentheses in every position the
// lint reads: conditions, scrutinees, values, arms, closures' bodies,
// arguments, types. No anchor may drift.
func TestCargoFix(t *testing.T) {
	cargo := tool(t, "LORE_ROUNDTRIP_CARGO", "cargo")
	root := filepath.Join("testdata", "unused_parens")
	fixes := 0
	roundTrip(t, run{name: "cargo fix", values: true,
		corpus: corpus{root: root, files: []string{"src/lib.rs"}},
		extra:  corpus{root: root, files: []string{"Cargo.toml"}},
		format: func(t *testing.T, dir string, _ []string) {
			c := exec.Command(cargo, "fix", "--lib", "--allow-no-vcs", "--offline")
			c.Dir = dir
			c.Env = append(os.Environ(), "CARGO_TARGET_DIR="+t.TempDir())
			out, err := c.CombinedOutput()
			if err != nil {
				t.Fatalf("cargo fix: %v\n%s", err, tail(out, 10))
			}
			if m := regexp.MustCompile(`Fixed src/lib\.rs \((\d+) fix`).FindSubmatch(out); m != nil {
				fixes, _ = strconv.Atoi(string(m[1]))
			}
		}})
	t.Logf("cargo fix: %d fixes", fixes)
	if fixes < 30 {
		t.Errorf("cargo fix made %d fixes, want the fixture's 39 or so: did rustc's lint change?", fixes)
	}
}
