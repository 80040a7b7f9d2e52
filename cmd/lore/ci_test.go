package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The CI integrations lore ships: the composite GitHub Action (action.yml
// at the repository root) and the GitLab CI job in the README. These tests
// run their commands as written, on a pull request of a real git
// repository, with lore built from this checkout instead of downloaded.

func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
}

func checkoutRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Skip("not in a checkout of lore")
	}
	return root
}

// pullRequest builds an origin repository whose main has three learnings
// (one already broken on main), and a clone on a feature branch that moves
// one anchored function and deletes another: one new finding, one finding
// from before, one relocation for --fix.
func pullRequest(t *testing.T) string {
	t.Helper()
	lore := loreBinary(t)
	origin := t.TempDir()
	env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+origin,
		"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.invalid")
	run := func(dir string, name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	write := func(dir, name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check := "func Check(token string) bool {\n\treturn token != \"\"\n}\n"
	sign := "func Sign(key, token string) string {\n\treturn key + \".\" + token\n}\n"
	old := "func Old(token string) bool {\n\treturn len(token) > 3\n}\n"
	run(origin, "git", "init", "-q", "-b", "main")
	write(origin, "auth.go", "package auth\n\n"+check+"\n"+sign+"\n"+old)
	run(origin, lore, "init")
	run(origin, lore, "learn", "add", "--title", "Check validates expiry first", "--anchor", "auth.go::Check")
	run(origin, lore, "learn", "add", "--title", "Sign puts the key first", "--anchor", "auth.go::Sign")
	run(origin, lore, "learn", "add", "--title", "Old is kept for v1 clients", "--anchor", "auth.go::Old")
	run(origin, "git", "add", "-A")
	run(origin, "git", "commit", "-qm", "init")
	write(origin, "auth.go", "package auth\n\n"+check+"\n"+sign)
	run(origin, "git", "commit", "-qam", "drop Old")
	clone := filepath.Join(t.TempDir(), "work")
	run(origin, "git", "clone", "-q", origin, clone)
	run(clone, "git", "checkout", "-qb", "feature")
	write(clone, "auth.go", "package auth\n")
	write(clone, "check.go", "package auth\n\n"+check)
	run(clone, "git", "add", "-A")
	run(clone, "git", "commit", "-qm", "move Check, drop Sign")
	return clone
}

type actionStep struct {
	ID               string            `yaml:"id"`
	Name             string            `yaml:"name"`
	If               string            `yaml:"if"`
	Uses             string            `yaml:"uses"`
	Run              string            `yaml:"run"`
	Shell            string            `yaml:"shell"`
	WorkingDirectory string            `yaml:"working-directory"`
	Env              map[string]string `yaml:"env"`
	With             map[string]string `yaml:"with"`
}

var expr = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// TestGitHubAction runs the run-steps of action.yml in order as GitHub's
// runner does (bash -eo pipefail, the env and working directory given,
// $GITHUB_PATH, $GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY) on a pull request
// against main. The steps that use other actions (setup-go, the SARIF
// upload) need the network and are only checked to be there.
func TestGitHubAction(t *testing.T) {
	needTools(t, "git", "go", "bash")
	root := checkoutRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Default string `yaml:"default"`
		} `yaml:"inputs"`
		Runs struct {
			Using string       `yaml:"using"`
			Steps []actionStep `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if action.Runs.Using != "composite" {
		t.Fatalf("action.yml runs.using = %q, want composite", action.Runs.Using)
	}
	dir := pullRequest(t)
	tmp := t.TempDir()
	inputs := map[string]string{}
	for name, in := range action.Inputs {
		inputs[name] = in.Default
	}
	outputs := map[string]map[string]string{}
	eval := func(s string) string {
		return expr.ReplaceAllStringFunc(s, func(m string) string {
			e := expr.FindStringSubmatch(m)[1]
			switch {
			case strings.HasPrefix(e, "inputs."):
				v, ok := inputs[strings.TrimPrefix(e, "inputs.")]
				if !ok {
					t.Fatalf("action.yml uses an undeclared input: %s", e)
				}
				return v
			case e == "github.action_path":
				return root
			case e == "github.base_ref":
				return "main"
			case strings.HasPrefix(e, "steps."):
				f := strings.Split(e, ".") // steps.ID.outputs.NAME
				if len(f) == 4 && f[2] == "outputs" {
					return outputs[f[1]][f[3]]
				}
			}
			t.Fatalf("action.yml: this test does not know the expression %q: run steps may use inputs, github.action_path, github.base_ref and steps.*.outputs", e)
			return ""
		})
	}
	summary := filepath.Join(tmp, "summary.md")
	ghPath := filepath.Join(tmp, "path")
	var extraPath []string
	var uses []string
	var verifyOut string
	resultCode := -1
	for i, st := range action.Runs.Steps {
		if st.Uses != "" {
			uses = append(uses, st.Uses)
			continue
		}
		if st.Shell != "bash" {
			t.Fatalf("step %d (%s): shell %q; the test runs bash steps", i, st.Name, st.Shell)
		}
		out := filepath.Join(tmp, "output")
		os.WriteFile(out, nil, 0o644)
		os.WriteFile(ghPath, nil, 0o644)
		env := append(os.Environ(), "RUNNER_TEMP="+tmp, "GITHUB_PATH="+ghPath, "GITHUB_OUTPUT="+out,
			"GITHUB_STEP_SUMMARY="+summary, "GITHUB_WORKSPACE="+dir, "GITHUB_ACTION_PATH="+root, "GITHUB_ACTIONS=true",
			"PATH="+strings.Join(append(extraPath, os.Getenv("PATH")), string(filepath.ListSeparator)))
		for k, v := range st.Env {
			env = append(env, k+"="+eval(v))
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", st.Run)
		cmd.Dir, cmd.Env = filepath.Join(dir, eval(st.WorkingDirectory)), env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := cmd.ProcessState.ExitCode()
		t.Logf("step %q: exit %d\nstdout:\n%s\nstderr:\n%s", st.Name, code, stdout.String(), stderr.String())
		if st.ID == "verify" {
			verifyOut = stdout.String()
		}
		if st.Name == "Result" {
			resultCode = code
			if !strings.Contains(stderr.String(), "learnings no longer hold") {
				t.Errorf("Result step says %q", stderr.String())
			}
			continue
		}
		if err != nil {
			t.Fatalf("step %q failed: %v\n%s", st.Name, err, stderr.String())
		}
		b, _ := os.ReadFile(out)
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok && st.ID != "" {
				if outputs[st.ID] == nil {
					outputs[st.ID] = map[string]string{}
				}
				outputs[st.ID][k] = v
			}
		}
		if b, _ := os.ReadFile(ghPath); len(b) > 0 {
			extraPath = append(strings.Fields(string(b)), extraPath...)
		}
	}
	if !strings.Contains(strings.Join(uses, " "), "actions/setup-go@") || !strings.Contains(strings.Join(uses, " "), "github/codeql-action/upload-sarif@") {
		t.Errorf("action.yml uses %v; want setup-go and upload-sarif", uses)
	}
	// The new finding fails the job; the one from main is shown, not failing.
	if got := outputs["verify"]["status"]; got != "1" {
		t.Errorf("verify status output = %q, want 1", got)
	}
	if resultCode != 1 {
		t.Errorf("the Result step exited %d, want 1", resultCode)
	}
	if !regexp.MustCompile(`(?m)^::error file=auth\.go,.*Sign puts the key first`).MatchString(verifyOut) {
		t.Errorf("no error annotation for the deleted Sign:\n%s", verifyOut)
	}
	if !regexp.MustCompile(`(?m)^::warning file=auth\.go,.*Old is kept for v1 clients.*already so at the base`).MatchString(verifyOut) {
		t.Errorf("no warning annotation for Old, broken on main already:\n%s", verifyOut)
	}
	sarif, err := os.ReadFile(filepath.Join(dir, inputs["sarif-file"]))
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				BaselineState string `json:"baselineState"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sarif, &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) != 2 {
		t.Errorf("SARIF: %v %+v\n%s", err, log, sarif)
	}
	sum, _ := os.ReadFile(summary)
	if !strings.Contains(string(sum), "```diff") || !strings.Contains(string(sum), "+  - symbol: check.go::Check") {
		t.Errorf("the job summary lacks the --fix patch:\n%s", sum)
	}
}

// TestGitLabSnippet runs the script of the GitLab CI job in the README
// (the block after the marker), as GitLab's shell does, with the variables
// of a merge request; `go install …@latest` is replaced by a build of this
// checkout.
func TestGitLabSnippet(t *testing.T) {
	needTools(t, "git", "go", "sh")
	root := checkoutRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	const marker = "<!-- .gitlab-ci.yml job, run by cmd/lore/ci_test.go -->"
	_, after, ok := strings.Cut(string(readme), marker)
	if !ok {
		t.Fatalf("README.md has no %q", marker)
	}
	block := regexp.MustCompile("(?s)^\\s*```yaml\n(.*?)```").FindStringSubmatch(after)
	if block == nil {
		t.Fatal("no ```yaml block after the GitLab marker in README.md")
	}
	var jobs map[string]struct {
		Variables map[string]string `yaml:"variables"`
		Script    []string          `yaml:"script"`
		Artifacts struct {
			Paths []string `yaml:"paths"`
		} `yaml:"artifacts"`
	}
	if err := yaml.Unmarshal([]byte(block[1]), &jobs); err != nil {
		t.Fatalf("GitLab snippet: %v", err)
	}
	job, ok := jobs["lore"]
	if !ok || len(job.Script) == 0 {
		t.Fatalf("GitLab snippet: no job lore with a script: %v", jobs)
	}
	const install = "go install github.com/lorehq/lore/cmd/lore@latest"
	if job.Script[0] != install {
		t.Fatalf("GitLab snippet: first script line %q, want %q", job.Script[0], install)
	}
	if job.Variables["GIT_DEPTH"] != "0" {
		t.Errorf("GitLab snippet: GIT_DEPTH = %q; --changed-since needs the history (0)", job.Variables["GIT_DEPTH"])
	}
	dir := pullRequest(t)
	gopath := t.TempDir()
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	script := append([]string{`(cd "$LORE_SRC" && go build -o "$(go env GOPATH)/bin/lore" ./cmd/lore)`}, job.Script[1:]...)
	cmd := exec.Command("sh", "-e", "-c", strings.Join(script, "\n"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LORE_SRC="+root, "GOPATH="+gopath, "GOMODCACHE="+strings.TrimSpace(string(modcache)),
		"CI=true", "GITLAB_CI=true", "CI_PIPELINE_SOURCE=merge_request_event", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main")
	for k, v := range job.Variables {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	t.Logf("GitLab job:\n%s", out)
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("the job exited %d (%v), want 1: the pull request breaks a learning", code, err)
	}
	if !strings.Contains(string(out), "Sign puts the key first  invalid") || !strings.Contains(string(out), "[already so at the base]") {
		t.Errorf("the job's log lacks the findings:\n%s", out)
	}
	for _, p := range job.Artifacts.Paths {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Errorf("artifact %s: %v", p, err)
			continue
		}
		if strings.HasSuffix(p, ".patch") && !strings.Contains(string(b), "+  - symbol: check.go::Check") {
			t.Errorf("%s lacks the relocation:\n%s", p, b)
		}
	}
}
