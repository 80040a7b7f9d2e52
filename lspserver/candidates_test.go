package lspserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/lorehq/lore"
	"github.com/lorehq/lore/internal/testrepo"
	"github.com/lorehq/lore/lspserver"
)

const dataInputJava = `package org.example.store;

import java.io.IOException;

public abstract class DataInput {

  private byte[] skipBuffer;

  public abstract void readBytes(byte[] b, int offset, int len) throws IOException;

  public void skip(long count) throws IOException {
    if (count < 0) {
      throw new IllegalArgumentException("count must be >= 0, got " + count);
    }
    if (skipBuffer == null) {
      skipBuffer = new byte[1024];
    }
    for (long skipped = 0; skipped < count; ) {
      final int step = (int) Math.min(skipBuffer.length, count - skipped);
      readBytes(skipBuffer, 0, step);
      skipped += step;
    }
  }
}
`

// A method made abstract keeps its note, drifted, on the declaration;
// the code actions offer, beside accepting the drift, to re-anchor the
// note where the code went, and taking one keeps the anchor's number
// and history, as lore anchor accept --to does: it stays the first.
func TestCodeActionsOfferWhereCodeWent(t *testing.T) {
	dir := testrepo.New(t, map[string]string{
		"src/DataInput.java": dataInputJava,
		"src/StreamInput.java": "package org.example.store;\n\npublic class StreamInput extends DataInput {\n" +
			"  @Override\n  public void readBytes(byte[] b, int offset, int len) {\n  }\n}\n",
	})
	ws, err := lore.Open(dir, lore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := ws.Add(context.Background(), lore.AddOptions{Title: "Skipping reads what it skips", Anchors: []string{"src/DataInput.java::DataInput::skip", "src/StreamInput.java::StreamInput::readBytes"}})
	if err != nil {
		t.Fatal(err)
	}
	// skip made abstract, its loop kept as skipSlowly, StreamInput
	// skipping its own way.
	made := strings.Replace(dataInputJava, "  public void skip(long count) throws IOException {",
		"  public abstract void skip(long count) throws IOException;\n\n  protected void skipSlowly(long count) throws IOException {", 1)
	testrepo.Write(t, dir, "src/DataInput.java", made)
	testrepo.Write(t, dir, "src/StreamInput.java", "package org.example.store;\n\npublic class StreamInput extends DataInput {\n"+
		"  @Override\n  public void readBytes(byte[] b, int offset, int len) {\n  }\n\n"+
		"  @Override\n  public void skip(long count) {\n    if (count > 0) {\n      position += count;\n    }\n  }\n}\n")

	c, u := openOne(t, dir, "src/DataInput.java", "java", made)
	d := c.diagnostics(u, "the drift", func(d []protocol.Diagnostic) bool { return len(d) == 1 })
	if !strings.Contains(d[0].Message, "declaration without its code") {
		t.Errorf("diagnostic: %+v", d[0])
	}

	line := d[0].Range.Start.Line
	actions := codeActions(t, c, u, line, line)
	var accept, relocate *protocol.Command
	for _, a := range actions {
		switch {
		case a.Command.Command == lspserver.CommandAccept:
			accept = a.Command
		case a.Command.Command == lspserver.CommandRelocate && len(a.Command.Arguments) == 3 && a.Command.Arguments[2] == "src/StreamInput.java::StreamInput::skip":
			relocate = a.Command
		}
	}
	if accept == nil || relocate == nil {
		t.Fatalf("code actions: want accept and re-anchor at StreamInput::skip, have %+v", actions)
	}
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: relocate.Command, Arguments: relocate.Arguments}, nil); err != nil {
		t.Fatal(err)
	}
	c.diagnostics(u, "none once the note went with the code", func(d []protocol.Diagnostic) bool { return len(d) == 0 })
	md, err := os.ReadFile(filepath.Join(dir, ".lore", "learnings", l.ID+".md"))
	if err != nil {
		t.Fatal(err)
	}
	moved, kept := strings.Index(string(md), "symbol: src/StreamInput.java::StreamInput::skip"), strings.Index(string(md), "symbol: src/StreamInput.java::StreamInput::readBytes")
	if moved < 0 || kept < moved || strings.Count(string(md), "symbol:") != 2 {
		t.Errorf("learning file after re-anchoring:\n%s", md)
	}
}

// A function deleted leaves its anchor invalid, and one renamed with its
// code changed leaves it drifted (lore reads deleted code as renamed now
// and then, when other code took its place): both offer to remove the
// anchor, and running it leaves the learning its other anchors.
func TestCodeActionsRemoveAnchorOfDeletedCode(t *testing.T) {
	calc := "package calc\n\n// Total adds the amounts.\nfunc Total(xs []int) int {\n\tn := 0\n\tfor _, x := range xs {\n\t\tn += x\n\t}\n\treturn n\n}\n\n" +
		"// Mean is the average.\nfunc Mean(xs []int) int {\n\tif len(xs) == 0 {\n\t\treturn 0\n\t}\n\treturn Total(xs) / len(xs)\n}\n\n" +
		"// Max is the largest.\nfunc Max(xs []int) int {\n\tm := 0\n\tfor _, x := range xs {\n\t\tif x > m {\n\t\t\tm = x\n\t\t}\n\t}\n\treturn m\n}\n"
	dir := testrepo.New(t, map[string]string{"calc.go": calc})
	ws, err := lore.Open(dir, lore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	gone, err := ws.Add(ctx, lore.AddOptions{Title: "Max is never negative", Anchors: []string{"calc.go::Max", "calc.go::Mean"}})
	if err != nil {
		t.Fatal(err)
	}
	renamed, err := ws.Add(ctx, lore.AddOptions{Title: "Total counts every amount", Anchors: []string{"calc.go::Total"}})
	if err != nil {
		t.Fatal(err)
	}
	// Max deleted; Total renamed Sum, its body edited.
	now := "package calc\n\n// Sum adds the amounts.\nfunc Sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n\n" +
		"// Mean is the average.\nfunc Mean(xs []int) int {\n\tif len(xs) == 0 {\n\t\treturn 0\n\t}\n\treturn Sum(xs) / len(xs)\n}\n"
	testrepo.Write(t, dir, "calc.go", now)

	c, u := openOne(t, dir, "calc.go", "go", now)
	// Mean drifts too: its call to Total became one to Sum.
	c.diagnostics(u, "the deletion, the rename and Mean's drift", func(d []protocol.Diagnostic) bool { return len(d) == 3 })

	actions := codeActions(t, c, u, 0, 40)
	removes := map[string]*protocol.Command{}
	for _, a := range actions {
		if a.Command.Command == lspserver.CommandRemove && len(a.Command.Arguments) == 2 {
			if want := map[bool]string{true: "(its code is gone)", false: "(if its code was deleted rather than moved here)"}[a.Command.Arguments[0] == gone.ID]; !strings.HasSuffix(a.Title, want) {
				t.Errorf("action %q, want it to end %q", a.Title, want)
			}
			if removes[a.Command.Arguments[0].(string)] != nil {
				t.Errorf("two removals for %v", a.Command.Arguments[0])
			}
			removes[a.Command.Arguments[0].(string)] = a.Command
		}
	}
	if removes[gone.ID] == nil || removes[renamed.ID] == nil || len(removes) != 2 {
		t.Fatalf("code actions: want a removal for each learning, have %+v", actions)
	}
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: lspserver.CommandRemove, Arguments: removes[gone.ID].Arguments}, nil); err != nil {
		t.Fatal(err)
	}
	c.diagnostics(u, "the rename and Mean's drift", func(d []protocol.Diagnostic) bool { return len(d) == 2 })
	md, err := os.ReadFile(filepath.Join(dir, ".lore", "learnings", gone.ID+".md"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(md), "symbol:") != 1 || !strings.Contains(string(md), "symbol: calc.go::Mean") {
		t.Errorf("learning file after the removal:\n%s", md)
	}
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: lspserver.CommandRemove, Arguments: []any{renamed.ID}}, nil); err == nil {
		t.Error("a removal without an anchor number ran")
	}
}

// openOne starts a server on dir, initializes it with dir as its
// workspace folder and opens path with text.
func openOne(t *testing.T, dir, path, lang, text string) (*client, protocol.DocumentURI) {
	t.Helper()
	c := start(t, dir)
	var init protocol.InitializeResult
	if err := c.call(protocol.MethodInitialize, &protocol.InitializeParams{WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(docURI(dir, "")), Name: "repo"}}}, &init); err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodInitialized, &protocol.InitializedParams{})
	u := docURI(dir, path)
	c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: protocol.LanguageIdentifier(lang), Version: 1, Text: text}})
	return c, u
}

// codeActions asks for the code actions of lines from to to (0-based) of u.
func codeActions(t *testing.T, c *client, u protocol.DocumentURI, from, to uint32) []protocol.CodeAction {
	t.Helper()
	var actions []protocol.CodeAction
	if err := c.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: protocol.Range{Start: protocol.Position{Line: from}, End: protocol.Position{Line: to}}}, &actions); err != nil {
		t.Fatal(err)
	}
	return actions
}
