package lspserver_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// nvimScript drives Neovim's built-in LSP client: it opens the drifted
// file, waits for lore's diagnostics, asks for hover and code lenses,
// applies the "accept the drift" code action and waits for the diagnostics
// to clear, then writes what it saw as JSON.
const nvimScript = `
local out = {}
local function finish()
  local f = io.open(vim.env.LORE_NVIM_OUT, "w")
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd("qa!")
end
local ok, err = pcall(function()
  vim.cmd("edit " .. vim.env.LORE_NVIM_FILE)
  local buf = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({ name = "lore", cmd = { vim.env.LORE_BIN, "lsp" }, root_dir = vim.env.LORE_NVIM_ROOT })
  vim.lsp.buf_attach_client(buf, client_id)
  local client = vim.lsp.get_client_by_id(client_id)
  vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out.diagnostics, { lnum = d.lnum, message = d.message, severity = d.severity, source = d.source })
  end
  local pos = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 4, character = 1 } }
  local hover = client.request_sync("textDocument/hover", pos, 10000, buf)
  out.hover = hover and hover.result and hover.result.contents.value or ""
  local lens = client.request_sync("textDocument/codeLens", { textDocument = { uri = vim.uri_from_bufnr(buf) } }, 10000, buf)
  out.lenses = {}
  for _, l in ipairs(lens and lens.result or {}) do table.insert(out.lenses, { line = l.range.start.line, title = l.command.title }) end
  local actions = client.request_sync("textDocument/codeAction", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = 3, character = 0 }, ["end"] = { line = 3, character = 0 } },
    context = { diagnostics = {} },
  }, 10000, buf)
  out.actions = {}
  for _, a in ipairs(actions and actions.result or {}) do
    table.insert(out.actions, a.title)
    if a.command and a.command.command == "lore.accept" then
      client.request_sync("workspace/executeCommand", a.command, 10000, buf)
    end
  end
  vim.wait(20000, function() return #vim.diagnostic.get(buf) == 0 end, 50)
  out.after = #vim.diagnostic.get(buf)
end)
if not ok then out.error = tostring(err) end
finish()
`

// TestNeovim runs the scenario with a real LSP client: Neovim headless.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim not installed (Debian package neovim; .ci/run installs it): skipping the Neovim scenario")
	}
	dir, jwtID, _ := repo(t)
	bin := filepath.Join(t.TempDir(), "lore")
	build := exec.Command("go", "build", "-o", bin, "github.com/lorehq/lore/cmd/lore")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	script := filepath.Join(t.TempDir(), "scenario.lua")
	os.WriteFile(script, []byte(nvimScript), 0o644)
	outFile := filepath.Join(t.TempDir(), "out.json")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-c", "luafile "+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LORE_BIN="+bin, "LORE_NVIM_FILE="+filepath.Join(dir, "src/jwt.go"), "LORE_NVIM_ROOT="+dir, "LORE_NVIM_OUT="+outFile, "HOME="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	b, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatalf("no result from nvim: %v", err)
	}
	var got struct {
		Error       string
		Diagnostics []struct {
			Lnum     int
			Message  string
			Severity int
			Source   string
		}
		Hover  string
		Lenses []struct {
			Line  int
			Title string
		}
		Actions []string
		After   int
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	t.Logf("nvim saw: %s", b)
	if got.Error != "" {
		t.Fatalf("scenario: %s", got.Error)
	}
	if len(got.Diagnostics) != 1 || got.Diagnostics[0].Lnum != 2 || got.Diagnostics[0].Source != "lore" || !strings.Contains(got.Diagnostics[0].Message, "lore anchor accept "+jwtID+"/1") {
		t.Errorf("diagnostics: %+v", got.Diagnostics)
	}
	if !strings.Contains(got.Hover, "Verify rejects empty tokens") {
		t.Errorf("hover: %q", got.Hover)
	}
	if len(got.Lenses) != 1 || got.Lenses[0].Line != 2 || !strings.Contains(got.Lenses[0].Title, "1 learning") {
		t.Errorf("code lenses: %+v", got.Lenses)
	}
	if len(got.Actions) < 2 || !strings.Contains(strings.Join(got.Actions, "\n"), "accept the drift") {
		t.Errorf("code actions: %q", got.Actions)
	}
	if got.After != 0 {
		t.Errorf("%d diagnostics after accepting the drift", got.After)
	}
}
