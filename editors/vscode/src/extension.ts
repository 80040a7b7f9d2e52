// Starts `lore lsp` for a workspace with a .lore directory; everything else
// (diagnostics, hover, code lenses, code actions, links) comes from the
// server through the language client.
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    return;
  }
  const command = vscode.workspace.getConfiguration("lore").get<string>("path") || "lore";
  const server: ServerOptions = { command, args: ["lsp"], options: { cwd: folder.uri.fsPath } };
  const options: LanguageClientOptions = {
    documentSelector: [{ scheme: "file" }],
    workspaceFolder: folder,
  };
  client = new LanguageClient("lore", "lore", server, options);
  context.subscriptions.push(client);
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
