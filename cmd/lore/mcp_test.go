package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// loreBinary returns a path named lore that runs this test binary as the
// lore command (see TestMain).
func loreBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "lore")
	if err := os.Symlink(exe, p); err != nil {
		t.Fatal(err)
	}
	return p
}

// gitRepo writes files into a fresh git repository with one commit per
// change set and returns its directory.
func gitRepo(t *testing.T, files map[string]string, changes [][]string) string {
	t.Helper()
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir,
			"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.invalid",
			"GIT_AUTHOR_DATE=2026-03-01T10:00:00Z", "GIT_COMMITTER_DATE=2026-03-01T10:00:00Z")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-qm", "initial")
	for i, set := range changes {
		for _, f := range set {
			p := filepath.Join(dir, filepath.FromSlash(f))
			data, _ := os.ReadFile(p)
			os.WriteFile(p, append(data, []byte("// change\n")...), 0o644)
		}
		git("add", "-A")
		git("commit", "-qm", "change "+string(rune('a'+i)))
	}
	return dir
}

var serviceFiles = map[string]string{
	"src/auth.ts":       "import { verify } from './jwt';\n\nexport function login(token: string): boolean {\n  return verify(token);\n}\n",
	"src/jwt.ts":        "export function verify(token: string): boolean {\n  return token.length > 0;\n}\n",
	"src/cache.ts":      "export function get(key: string): string {\n  return key;\n}\n",
	".lore/config.yaml": "cochange:\n  min_revs: 2\n  min_shared: 2\n",
}

func TestMCPServer(t *testing.T) {
	lore := loreBinary(t)
	dir := gitRepo(t, serviceFiles, [][]string{{"src/auth.ts", "src/cache.ts"}, {"src/auth.ts", "src/cache.ts"}, {"src/auth.ts", "src/cache.ts"}})
	if out, err := exec.Command(lore, "-C", dir, "init").CombinedOutput(); err != nil {
		t.Fatalf("lore init: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.Command(lore, "-C", dir, "mcp")
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "lore-test", Version: "v0"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	defer session.Close()

	if inst := session.InitializeResult().Instructions; !strings.Contains(inst, "lore_context") {
		t.Errorf("instructions do not mention lore_context: %q", inst)
	}
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" {
			t.Errorf("%s has no description", tool.Name)
		}
		schema, _ := json.Marshal(tool.InputSchema)
		if tool.Name == "lore_context" && !strings.Contains(string(schema), "file:line") {
			t.Errorf("lore_context input schema lacks descriptions: %s", schema)
		}
	}
	slices.Sort(names)
	want := []string{"lore_accept", "lore_analyze_cochanges", "lore_analyze_imports", "lore_build_context", "lore_cochange", "lore_context",
		"lore_edit", "lore_feedback", "lore_impact", "lore_learn", "lore_link", "lore_list", "lore_neighbors", "lore_relate", "lore_remove",
		"lore_show", "lore_unlink", "lore_unrelate", "lore_verify"}
	if !slices.Equal(names, want) {
		t.Fatalf("tools = %v\nwant    %v", names, want)
	}

	call := func(name string, args any) (*mcp.CallToolResult, map[string]any) {
		t.Helper()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: protocol error %v", name, err)
		}
		var m map[string]any
		if res.StructuredContent != nil {
			b, _ := json.Marshal(res.StructuredContent)
			json.Unmarshal(b, &m)
		}
		return res, m
	}
	textOf := func(res *mcp.CallToolResult) string {
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}
	ok := func(name string, args any) (*mcp.CallToolResult, map[string]any) {
		t.Helper()
		res, m := call(name, args)
		if res.IsError {
			t.Fatalf("%s(%v): tool error %s", name, args, textOf(res))
		}
		return res, m
	}
	fails := func(name string, args any, want string) {
		t.Helper()
		res, _ := call(name, args)
		if !res.IsError || !strings.Contains(textOf(res), want) {
			t.Errorf("%s(%v): IsError %v, text %q; want an error with %q", name, args, res.IsError, textOf(res), want)
		}
	}

	_, m := ok("lore_analyze_imports", map[string]any{})
	if m["files"].(float64) != 3 {
		t.Errorf("index: %v", m)
	}
	_, m = ok("lore_analyze_cochanges", map[string]any{"full_history": true})
	if m["pairs"].(float64) != 1 {
		t.Errorf("cochange: %v", m)
	}
	// Without since, the wider analysis before is kept, and the answer
	// says so.
	_, m = ok("lore_analyze_cochanges", map[string]any{})
	if m["pairs"].(float64) != 1 || !strings.Contains(fmt.Sprint(m["notes"]), "all of history") {
		t.Errorf("cochange without since narrowed the analysis: %v", m)
	}
	_, m = ok("lore_cochange", map[string]any{"file": "src/auth.ts"})
	if ps, _ := m["partners"].([]any); len(ps) != 1 {
		t.Errorf("lore_cochange: %v", m)
	}
	_, m = ok("lore_learn", map[string]any{"title": "verify rejects empty tokens", "body": "An empty token once passed.", "anchors": []string{"src/jwt.ts::verify"}, "tags": []string{"jwt"}, "derived_from": []string{"run:R-1"}})
	jwtID, _ := m["id"].(string)
	if jwtID == "" {
		t.Fatalf("lore_learn returned %v", m)
	}
	_, m = ok("lore_learn", map[string]any{"title": "cache keys are case sensitive"})
	cacheID := m["id"].(string)
	_, m = ok("lore_link", map[string]any{"learning": cacheID, "anchor": "src/cache.ts"})
	if l, _ := m["learning"].(map[string]any); l == nil || len(l["anchors"].([]any)) != 1 {
		t.Errorf("lore_link: %v", m)
	}
	_, m = ok("lore_relate", map[string]any{"from": cacheID, "to": jwtID, "type": "relates", "weight": 0.5})
	if es, _ := m["edges"].([]any); len(es) != 1 {
		t.Errorf("lore_relate: %v", m)
	}

	res, m := ok("lore_context", map[string]any{"targets": []string{"src/auth.ts"}})
	md := textOf(res)
	if !strings.Contains(md, "## verify rejects empty tokens") || !strings.Contains(md, "which src/auth.ts imports") {
		t.Errorf("lore_context markdown:\n%s", md)
	}
	if !strings.Contains(md, "cache keys are case sensitive") || !strings.Contains(md, "changes together with src/auth.ts") {
		t.Errorf("lore_context misses the co-change partner:\n%s", md)
	}
	if ls, _ := m["learnings"].([]any); len(ls) != 2 {
		t.Errorf("lore_context structured: %v", m)
	}
	res, _ = ok("lore_build_context", map[string]any{"learning": jwtID})
	if !strings.Contains(textOf(res), "cache keys are case sensitive") {
		t.Errorf("lore_build_context:\n%s", textOf(res))
	}
	_, m = ok("lore_neighbors", map[string]any{"nodes": []string{jwtID}, "depth": 1})
	if ns, _ := m["nodes"].([]any); len(ns) < 3 {
		t.Errorf("lore_neighbors: %v", m)
	}
	_, m = ok("lore_verify", map[string]any{})
	if s, _ := m["summary"].(map[string]any); s["valid"].(float64) != 2 {
		t.Errorf("lore_verify: %v", m)
	}
	ok("lore_feedback", map[string]any{"learning": jwtID, "run": "R-2", "helpful": true})
	_, m = ok("lore_feedback", map[string]any{"learning": jwtID, "run": "R-2", "helpful": false})
	if m["mentions"].(float64) != 2 || m["helpful"].(bool) {
		t.Errorf("lore_feedback repeated: %v", m)
	}
	_, m = ok("lore_unrelate", map[string]any{"from": cacheID, "to": jwtID})
	if m["removed"].(float64) != 1 {
		t.Errorf("lore_unrelate: %v", m)
	}

	// The server holds no store between calls: a CLI run goes through.
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"-C", dir, "--lock-timeout", "-1ns", "learn", "show", jwtID, "--json"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("lore learn show beside the server: %d %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), `"run": "R-2"`) {
		t.Errorf("learn show lacks the feedback:\n%s", out.String())
	}

	// One check of depths and limits for every driver: the messages are
	// those of the command line and HTTP.
	fails("lore_context", map[string]any{"targets": []string{"src/auth.ts"}, "depth": 0}, "depth 0: want 1..5")
	fails("lore_context", map[string]any{"targets": []string{"src/auth.ts"}, "depth": 6}, "depth 6: want 1..5")
	fails("lore_context", map[string]any{"targets": []string{"src/auth.ts"}, "limit": 0}, "limit 0: want 1..200")
	fails("lore_neighbors", map[string]any{"nodes": []string{jwtID}, "depth": 0}, "depth 0: want 1..5")
	fails("lore_impact", map[string]any{"targets": []string{"src/auth.ts"}, "depth": 9}, "depth 9: want 1..5")
	fails("lore_build_context", map[string]any{"learning": jwtID, "depth": 7}, "depth 7: want 1..5")
	var cliErr bytes.Buffer
	run(ctx, []string{"-C", dir, "context", "src/auth.ts", "--depth", "0"}, nil, &out, &cliErr)
	if !strings.Contains(cliErr.String(), "depth 0: want 1..5") {
		t.Errorf("the command line says %q", cliErr.String())
	}
	fails("lore_context", map[string]any{"targets": []string{"nope.ts"}}, "neither a file")
	fails("lore_context", map[string]any{}, "targets")
	fails("lore_learn", map[string]any{"body": "no title"}, "title")
	fails("lore_learn", map[string]any{"title": "t", "anchors": []string{"missing.ts"}}, "missing.ts")
	fails("lore_link", map[string]any{"learning": "zzzzzz", "anchor": "src/jwt.ts"}, "no learning")
	fails("lore_relate", map[string]any{"from": jwtID, "to": jwtID, "type": "x"}, "itself")
	fails("lore_relate", map[string]any{"from": jwtID, "to": cacheID, "type": "Bad Type"}, "relation")
	fails("lore_unrelate", map[string]any{"from": cacheID, "to": jwtID}, "no link")
	fails("lore_neighbors", map[string]any{"nodes": []string{"file:nope.ts"}}, "no node")
	fails("lore_neighbors", map[string]any{"nodes": []string{jwtID}, "types": []string{"FRIENDS"}}, "edge type")
	fails("lore_build_context", map[string]any{"learning": "zzzzzz"}, "no learning")
	fails("lore_verify", map[string]any{"staged": true, "rev": "HEAD"}, "exclude")
	// A revision that git would read as an option is refused, never a pass
	// that checked nothing (issue 27).
	fails("lore_verify", map[string]any{"changed_since": "--help"}, "not a revision")
	fails("lore_verify", map[string]any{"changed_since": "--fork-point"}, "not a revision")
	fails("lore_verify", map[string]any{"rev": "--all"}, "not a revision")
	fails("lore_analyze_cochanges", map[string]any{"since": "yesterdayish"}, "date")
	fails("lore_feedback", map[string]any{"learning": jwtID, "run": "R 3", "helpful": true}, "no spaces")
	fails("lore_feedback", map[string]any{"learning": jwtID, "run": "R-3"}, "helpful")

	if err := session.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if strings.Contains(stderr.String(), "panic") {
		t.Errorf("server stderr:\n%s", stderr.String())
	}
}

// TestMCPResourcesFollow: a client of `lore mcp` that listed the learnings
// hears of one that a `lore learn add` process wrote beside the server.
func TestMCPResourcesFollow(t *testing.T) {
	lore := loreBinary(t)
	dir := gitRepo(t, serviceFiles, nil)
	if out, err := exec.Command(lore, "-C", dir, "init").CombinedOutput(); err != nil {
		t.Fatalf("lore init: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.Command(lore, "-C", dir, "mcp")
	cmd.Stderr = &stderr
	heard := make(chan struct{}, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "lore-test", Version: "v0"}, &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { heard <- struct{}{} },
	})
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	defer session.Close()
	if caps := session.InitializeResult().Capabilities.Resources; caps == nil || !caps.ListChanged {
		t.Fatalf("resources capability %+v: list changes not announced", caps)
	}
	if res, err := session.ListResources(ctx, nil); err != nil || len(res.Resources) != 0 {
		t.Fatalf("resources/list: %v %+v", err, res)
	}
	if out, err := exec.Command(lore, "-C", dir, "learn", "add", "--title", "tokens expire after an hour", "--anchor", "src/jwt.ts::verify").CombinedOutput(); err != nil {
		t.Fatalf("lore learn add: %v\n%s", err, out)
	}
	select {
	case <-heard:
	case <-time.After(20 * time.Second):
		t.Fatalf("no resources/list_changed after another process added a learning\n%s", stderr.String())
	}
	res, err := session.ListResources(ctx, nil)
	if err != nil || len(res.Resources) != 1 || res.Resources[0].Title != "tokens expire after an hour" {
		t.Fatalf("resources/list after the change: %v %+v", err, res)
	}
}
