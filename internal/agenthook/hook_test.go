package agenthook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestFiles(t *testing.T) {
	for _, c := range []struct {
		tool, input string
		want        []string
	}{
		{"Edit", `{"file_path":"/r/src/a.go","old_string":"x","new_string":"y"}`, []string{"/r/src/a.go"}},
		{"NotebookEdit", `{"notebook_path":"/r/n.ipynb","new_source":""}`, []string{"/r/n.ipynb"}},
		{"Bash", `{"command":"rm -rf build"}`, nil},
		{"apply_patch", `{"command":"*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n@@\n-x\n+y\n*** Add File: c.go\n+z\n*** Delete File: d.go\n*** Update File: a.go\n*** End Patch\n"}`, []string{"a.go", "b.go", "c.go", "d.go"}},
		{"apply_patch", `{"input":"*** Begin Patch\n*** Update File: e.go\n*** End Patch"}`, []string{"e.go"}},
		{"Edit", `"not an object"`, nil},
	} {
		in := &Input{ToolName: c.tool, ToolInput: json.RawMessage(c.input)}
		if got := in.Files(); !slices.Equal(got, c.want) {
			t.Errorf("%s %s: files %q, want %q", c.tool, c.input, got, c.want)
		}
	}
}

func TestReadInputRefusesWhatIsNotAHook(t *testing.T) {
	if _, err := ReadInput(strings.NewReader("Edit a.go")); err == nil || !strings.Contains(err.Error(), "not the JSON of a hook") {
		t.Errorf("got %v", err)
	}
}

func TestInstallKeepsWhatExists(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte(`{"model": "opus", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": []}]}}`), 0o644)
	if _, err := Install(root, Claude, "lore", false); err == nil {
		t.Fatal("overwrote an existing settings file without --merge")
	}
	if _, err := Install(root, Claude, "lore", true); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Model string                      `json:"model"`
		Hooks map[string][]map[string]any `json:"hooks"`
	}
	data, _ := os.ReadFile(p)
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.Model != "opus" || len(got.Hooks["PreToolUse"]) != 2 || len(got.Hooks["PostToolUse"]) != 1 {
		t.Errorf("merged settings lost something:\n%s", data)
	}
	res, err := Install(root, Claude, "lore", true)
	if err != nil || !res.Already {
		t.Errorf("a second install: %+v %v", res, err)
	}
	os.WriteFile(p, []byte(`{"hooks": [1]}`), 0o644)
	if _, err := Install(root, Claude, "lore", true); err == nil {
		t.Error("merged into hooks that are not an object")
	}
}
