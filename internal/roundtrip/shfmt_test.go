package roundtrip

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lorehq/lore/analyzer"
)

// TestShfmt formats shell code with shfmt in styles other than the code's
// own: bash-completion's completions and its bash_completion library, and
// git's shell scripts (git-core and its mergetools). The development half
// (sample 0) unless LORE_ROUNDTRIP_SHFMT_SAMPLE=1 asks for the held-out
// one.
func TestShfmt(t *testing.T) {
	shfmt := tool(t, "LORE_ROUNDTRIP_SHFMT", "shfmt")
	c := join(shellCorpus(t, heldOut("LORE_ROUNDTRIP_SHFMT_SAMPLE"))...)
	for _, r := range shfmtStyles {
		t.Run(r.sub, func(t *testing.T) {
			args := append([]string{"-w", "-ln", "bash"}, r.args...)
			roundTrip(t, run{name: "shfmt " + strings.Join(args[1:], " "), corpus: c, values: true,
				format: formatEach(shfmt, args...), drifts: shfmtDrifts})
		})
	}
}

// TestShfmtDir formats the shell files (.sh, .bash) of the directory
// LORE_ROUNDTRIP_SHELL_DIR names (a checkout of any project, kept outside
// this repository), in shfmt's styles: a corpus no rule was developed on,
// its not-valid anchors read as figures, not listed as expected.
func TestShfmtDir(t *testing.T) {
	root := os.Getenv("LORE_ROUNDTRIP_SHELL_DIR")
	if root == "" {
		t.Skip("LORE_ROUNDTRIP_SHELL_DIR names no directory of shell code")
	}
	shfmt := tool(t, "LORE_ROUNDTRIP_SHFMT", "shfmt")
	c := asBash(t, sampleCorpus(root, []string{".sh", ".bash"}, 0, 200), "", func(_ string, src []byte) bool {
		return shellText(src, false)
	})
	for _, r := range shfmtStyles {
		t.Run(r.sub, func(t *testing.T) {
			args := append([]string{"-w", "-ln", "bash"}, r.args...)
			roundTrip(t, run{name: "shfmt " + strings.Join(args[1:], " "), corpus: c, values: true,
				format: formatEach(shfmt, args...)})
		})
	}
}

// shfmtDrifts are the symbols and files of the development half whose
// drift is right: shfmt spaces the subscript of an array lore cannot tell
// from an associative one, whose key the blanks are part of. And one the
// stream does not read: backquotes inside a double-quoted string, which
// shfmt writes as $( … ) (the stream reads them so outside strings).
var shfmtDrifts = map[string]string{
	"bash-completion/completions/tc.bash::_tc_exec_options": "${words[${#words[@]}-3]}: words may be an associative array",
	"bash-completion/completions/tc.bash":                   "${words[i+1]}: words may be an associative array",
	"bash-completion/completions/dpkg-deb.bash":             "${words[i-1]}: words may be an associative array",
	"bash-completion/completions/gio.bash":                  "${COMPREPLY[i-1]}: an array lore cannot tell from an associative one",
	"bash-completion/completions/gsettings.bash":            "${COMP_WORDS[$(($coffset+2))]}: an array lore cannot tell from an associative one",
	"bash-completion/completions/gapplication.bash":         "backquotes inside a double-quoted string, written $( … )",
}

// shfmtStyles are the styles TestShfmt formats in: shfmt's default (tabs),
// two spaces with case bodies indented, operators leading a broken line
// and a space after redirections, four spaces with a function's { on a
// line of its own.
var shfmtStyles = []struct {
	sub  string
	args []string
}{
	{"default", nil},
	{"i2-ci-bn-sr", []string{"-i", "2", "-ci", "-bn", "-sr"}},
	{"i4-fn", []string{"-i", "4", "-fn"}},
}

// shellCorpus samples the shell code Debian installs, as files lore reads
// as bash: bash-completion's (none has a suffix of its own: each is
// copied with .bash appended) and git's shell scripts.
func shellCorpus(t *testing.T, sample int) []corpus {
	t.Helper()
	var out []corpus
	for _, src := range []struct {
		root, under string
		// lib: files that hold shell code without a #! line (sourced, or
		// completions); any other file is shell code if its #! line says so.
		lib []string
	}{
		{"/usr/share/bash-completion", "bash-completion", []string{"bash_completion", "completions/"}},
		{"/usr/lib/git-core", "git", []string{"git-sh-setup", "git-sh-i18n", "git-mergetool--lib", "mergetools/"}},
	} {
		c := sampleCorpus(src.root, []string{""}, sample, 1<<30)
		if len(c.files) == 0 {
			continue
		}
		out = append(out, asBash(t, c, src.under, func(f string, text []byte) bool {
			for _, l := range src.lib {
				if f == l || (strings.HasSuffix(l, "/") && strings.HasPrefix(f, l)) {
					return shellText(text, false)
				}
			}
			return shellText(text, true)
		}))
	}
	if len(out) == 0 {
		t.Skip("no shell corpus: apt-get install bash-completion git (or run .ci/run once)")
	}
	return out
}

// asBash copies the files of c that shell accepts, each text once, into a
// directory of the test's with .bash appended to each name that lacks .sh
// or .bash, and returns that copy, its files checked to be read as bash.
func asBash(t *testing.T, c corpus, under string, shell func(file string, src []byte) bool) corpus {
	t.Helper()
	dir := t.TempDir()
	p := analyzer.NewParser(nil)
	defer p.Close()
	seen := map[string]bool{}
	out := corpus{root: dir, under: under}
	for _, f := range c.files {
		src, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(f)))
		if err != nil || seen[string(src)] || !shell(f, src) {
			continue
		}
		seen[string(src)] = true
		name := f
		if ext := path.Ext(f); ext != ".sh" && ext != ".bash" {
			name += ".bash"
		}
		if l := p.Table().ForFile(name, src); l == nil || l.Name != "bash" {
			t.Fatalf("%s: lore does not read it as bash", name)
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, src, 0o644); err != nil {
			t.Fatal(err)
		}
		out.files = append(out.files, name)
	}
	return out
}

// shellText reports whether src is shell code: text whose #! line names sh
// or bash, or, unless shebang, text without a #! line of another
// interpreter's.
func shellText(src []byte, shebang bool) bool {
	if bytes.IndexByte(src, 0) >= 0 {
		return false
	}
	if !bytes.HasPrefix(src, []byte("#!")) {
		return !shebang
	}
	line, _, _ := bytes.Cut(src[2:], []byte("\n"))
	fields := strings.Fields(string(line))
	if len(fields) > 0 && path.Base(fields[0]) == "env" {
		fields = fields[1:]
	}
	if len(fields) == 0 {
		return false
	}
	switch path.Base(fields[0]) {
	case "sh", "bash", "dash":
		return true
	}
	return false
}
