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

	c := start(t, dir)
	var init protocol.InitializeResult
	if err := c.call(protocol.MethodInitialize, &protocol.InitializeParams{WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(docURI(dir, "")), Name: "repo"}}}, &init); err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodInitialized, &protocol.InitializedParams{})
	u := docURI(dir, "src/DataInput.java")
	c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: "java", Version: 1, Text: made}})
	d := c.diagnostics(u, "the drift", func(d []protocol.Diagnostic) bool { return len(d) == 1 })
	if !strings.Contains(d[0].Message, "declaration without its code") {
		t.Errorf("diagnostic: %+v", d[0])
	}

	var actions []protocol.CodeAction
	line := d[0].Range.Start.Line
	if err := c.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line}}}, &actions); err != nil {
		t.Fatal(err)
	}
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
