package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mcpSDKVersion is the official TypeScript MCP SDK the client test uses.
const mcpSDKVersion = "1.32.2"

// mcpSDK returns a directory whose node_modules holds the official
// TypeScript MCP SDK, installing it with npm into the user's cache when it
// is not there yet (.ci/run does the same first); the test is skipped with
// a message where node or npm is missing or the install fails.
func mcpSDK(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping the official MCP client test: %s is not installed", tool)
		}
	}
	dir := os.Getenv("LORE_MCP_SDK_DIR")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Skipf("skipping: no cache directory for the MCP SDK: %v", err)
		}
		dir = filepath.Join(cache, "lore-mcp-sdk")
	}
	pkg := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")
	if data, err := os.ReadFile(pkg); err == nil && strings.Contains(string(data), `"version": "`+mcpSDKVersion+`"`) {
		return dir
	}
	os.MkdirAll(dir, 0o755)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--silent", "@modelcontextprotocol/sdk@"+mcpSDKVersion)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("skipping: npm could not install @modelcontextprotocol/sdk@%s: %v\n%s", mcpSDKVersion, err, out)
	}
	return dir
}

// TestOfficialMCPClient runs the learning life cycle through lore's MCP
// server with the official TypeScript SDK's client, over stdio and over
// streamable HTTP (with the stateless form first), each result validated
// by the client against the tool's output schema.
func TestOfficialMCPClient(t *testing.T) {
	sdk := mcpSDK(t)
	lore := loreBinary(t)
	files := map[string]string{
		"src/auth.ts": "import { verifyToken } from './jwt';\n\nexport function login(token: string): boolean {\n  return verifyToken(token);\n}\n",
		"src/jwt.ts":  "export function verifyToken(token: string): boolean {\n  return token.length > 0;\n}\n",
	}
	script, err := filepath.Abs("testdata/mcpclient/lifecycle.mjs")
	if err != nil {
		t.Fatal(err)
	}
	// Node resolves packages from the script's directory up: a copy of
	// the script beside node_modules finds the SDK.
	data, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(sdk, "lore-lifecycle-"+strings.ReplaceAll(t.Name(), "/", "-")+".mjs")
	if err := os.WriteFile(local, data, 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(local)
	node := func(t *testing.T, env []string, args ...string) {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "node", append([]string{local}, args...)...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		t.Logf("official client:\n%s", out)
		if err != nil || !strings.HasSuffix(strings.TrimSpace(string(out)), "ok") {
			t.Fatalf("the official MCP client failed: %v", err)
		}
	}
	setup := func(t *testing.T) string {
		dir := gitRepo(t, files, nil)
		if out, err := exec.Command(lore, "-C", dir, "init").CombinedOutput(); err != nil {
			t.Fatalf("lore init: %v\n%s", err, out)
		}
		return dir
	}
	t.Run("stdio", func(t *testing.T) {
		dir := setup(t)
		node(t, nil, "stdio", lore, dir)
	})
	t.Run("http", func(t *testing.T) {
		dir := setup(t)
		cmd := exec.Command(lore, "-C", dir, "mcp", "--http", "127.0.0.1:0")
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() {
			cmd.Process.Signal(os.Interrupt)
			cmd.Wait()
		}()
		sc := bufio.NewScanner(stderr)
		url := ""
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "lore: MCP on "); ok {
				url = u
				break
			}
		}
		if url == "" {
			t.Fatal("lore mcp --http did not say where it listens")
		}
		go func() {
			for sc.Scan() {
				t.Log("server: " + sc.Text())
			}
		}()
		node(t, []string{"LORE_REPO=" + dir}, "http", url)
		refusesBrowsers(t, url)
	})
}

// refusesBrowsers checks that the MCP endpoint at url refuses what a web
// page could send through the user's browser, as lore serve does.
func refusesBrowsers(t *testing.T, url string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	for _, c := range []struct {
		name   string
		header map[string]string
		host   string
		status int
	}{
		{"rebinding", map[string]string{"Content-Type": "application/json"}, "evil.example", http.StatusMisdirectedRequest},
		{"foreign origin", map[string]string{"Content-Type": "application/json", "Origin": "https://evil.example"}, "", http.StatusForbidden},
		{"cross-site fetch", map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, "", http.StatusForbidden},
		{"text body", map[string]string{"Content-Type": "text/plain"}, "", http.StatusUnsupportedMediaType},
	} {
		req, err := http.NewRequest("POST", url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		req.Header.Set("Accept", "application/json, text/event-stream")
		if c.host != "" {
			req.Host = c.host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s: status %d, want %d", c.name, resp.StatusCode, c.status)
		}
	}
}
