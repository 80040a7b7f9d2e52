package analyzer

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// TestNodeLayout compiles a C program against the api.h that
// go-tree-sitter bundles (the header of the library lore links) and
// compares the sizes and field offsets it prints with the declarations of
// node.go: an upgrade that changes TSNode, TSPoint or TSTreeCursor fails
// here rather than corrupting memory.
func TestNodeLayout(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/smacker/go-tree-sitter").Output()
	if err != nil {
		t.Skipf("go list cannot find go-tree-sitter's module directory: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	if _, err := os.Stat(filepath.Join(dir, "api.h")); err != nil {
		t.Fatalf("go-tree-sitter has no api.h where node.go expects its declarations: %v", err)
	}
	cc := "cc"
	if f := strings.Fields(goEnv(t, "CC")); len(f) > 0 {
		cc = f[0]
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s) to read api.h with", cc)
	}
	declared := declaredLayout()
	keys := make([]string, 0, len(declared))
	for k := range declared {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var prog strings.Builder
	prog.WriteString("#include <stddef.h>\n#include <stdio.h>\n#include \"api.h\"\nint main(void) {\n")
	for _, k := range keys {
		prog.WriteString("\tprintf(\"%s %zu\\n\", " + strconv.Quote(k) + ", (size_t)(" + k + "));\n")
	}
	prog.WriteString("\treturn 0;\n}\n")
	tmp := t.TempDir()
	src, bin := filepath.Join(tmp, "layout.c"), filepath.Join(tmp, "layout")
	if err := os.WriteFile(src, []byte(prog.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-I", dir, "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("compiling against %s/api.h: %v\n%s", dir, err, out)
	}
	res, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]uintptr{}
	sc := bufio.NewScanner(bytes.NewReader(res))
	for sc.Scan() {
		line := sc.Text()
		i := strings.LastIndexByte(line, ' ')
		n, err := strconv.ParseUint(line[i+1:], 10, 64)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		got[line[:i]] = uintptr(n)
	}
	for _, k := range keys {
		if got[k] != declared[k] {
			t.Errorf("%s is %d in api.h, %d as node.go declares it", k, got[k], declared[k])
		}
	}
	if !t.Failed() {
		t.Logf("%d sizes and offsets agree with %s", len(keys), filepath.Join(dir, "api.h"))
	}
}

// TestNodeCast checks what forest.adopt relies on when it reads a
// go-tree-sitter Node as the C node: the Node's first field is the C
// TSNode, laid out as node.go declares it.
func TestNodeCast(t *testing.T) {
	declared := declaredLayout()
	f := reflect.TypeOf(sitter.Node{}).Field(0)
	if f.Offset != 0 || f.Type.Size() != declared["sizeof(TSNode)"] {
		t.Fatalf("sitter.Node's first field %s (%s) is at %d with %d bytes; node.go reads a TSNode of %d bytes there",
			f.Name, f.Type, f.Offset, f.Type.Size(), declared["sizeof(TSNode)"])
	}
	for _, field := range []string{"context", "id", "tree"} {
		sf, ok := f.Type.FieldByName(field)
		if !ok {
			t.Errorf("go-tree-sitter's TSNode has no field %s", field)
			continue
		}
		if want := declared["offsetof(TSNode, "+field+")"]; sf.Offset != want {
			t.Errorf("go-tree-sitter's TSNode.%s is at %d, node.go declares %d", field, sf.Offset, want)
		}
	}
	if s := reflect.TypeOf(sitter.Symbol(0)).Size(); s != declared["sizeof(TSSymbol)"] {
		t.Errorf("go-tree-sitter's Symbol has %d bytes, node.go declares %d", s, declared["sizeof(TSSymbol)"])
	}
}
