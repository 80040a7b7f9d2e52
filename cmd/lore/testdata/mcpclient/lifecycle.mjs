// lifecycle.mjs drives lore's MCP server with the official TypeScript SDK:
//   node lifecycle.mjs stdio LORE REPO
//   node lifecycle.mjs http URL
// The client validates every structured result against the tool's output
// schema (callTool throws when one does not match). Prints one line per
// step and "ok" at the end; exits 1 on the first failure.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [mode, a, b] = process.argv.slice(2);
const repo = mode === "stdio" ? b : process.env.LORE_REPO;

function fail(msg) {
  console.log("FAIL " + msg);
  process.exit(1);
}
function check(cond, msg) {
  if (!cond) fail(msg);
}

async function statelessListTools(url) {
  // The stateless form: no initialize, no session id; one POST is a whole
  // exchange.
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  const text = await res.text();
  check(res.status === 200, `stateless tools/list: HTTP ${res.status}: ${text}`);
  check(!res.headers.get("mcp-session-id"), "stateless answer carries a session id");
  const body = JSON.parse(text);
  check(body.result && body.result.tools.some((t) => t.name === "lore_impact"), "stateless tools/list: " + JSON.stringify(body));
  const evil = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Origin: "https://evil.example" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }),
  });
  check(evil.status === 403, `a request from another site's page: HTTP ${evil.status}`);
  console.log("stateless tools/list: " + body.result.tools.length + " tools; foreign origin refused");
}

const client = new Client({ name: "lore-ci", version: "1.0.0" });
let transport;
if (mode === "stdio") {
  transport = new StdioClientTransport({ command: a, args: ["-C", repo, "mcp"], stderr: "inherit" });
} else {
  await statelessListTools(a);
  transport = new StreamableHTTPClientTransport(new URL(a));
}
await client.connect(transport);
console.log("initialized: " + client.getServerVersion().name);

const { tools } = await client.listTools();
const names = tools.map((t) => t.name);
for (const want of ["lore_learn", "lore_list", "lore_show", "lore_verify", "lore_accept", "lore_context", "lore_impact", "lore_remove", "lore_link", "lore_unlink", "lore_edit"]) {
  check(names.includes(want), "tools lack " + want);
}
check(tools.every((t) => t.outputSchema && t.outputSchema.type === "object"), "a tool without an output schema");
console.log("tools: " + names.length);

async function call(name, args) {
  const res = await client.callTool({ name, arguments: args });
  if (res.isError) fail(`${name}: ${res.content.map((c) => c.text).join("")}`);
  check(res.structuredContent, name + " has no structured content");
  return res.structuredContent;
}

await call("lore_analyze_imports", {});
const tag = mode + "-" + Date.now();
const added = await call("lore_learn", {
  title: "verifyToken must reject empty tokens (" + tag + ")",
  body: "An empty token once passed verifyToken.",
  tags: [tag],
});
const id = added.id;
const sugg = added.suggested_anchors.map((s) => s.spec);
check(sugg.includes("src/jwt.ts::verifyToken"), "no suggested anchor: " + JSON.stringify(added.suggested_anchors));
await call("lore_link", { learning: id, anchor: sugg[0] });
console.log("learn: " + id + ", anchored to the suggestion " + sugg[0]);

const listed = await call("lore_list", { tags: [tag] });
check(listed.total === 1 && listed.learnings[0].id === id, "lore_list: " + JSON.stringify(listed));
const found = await call("lore_list", { query: "EMPTY tokens " + tag });
check(found.learnings.some((l) => l.id === id), "lore_list by text: " + JSON.stringify(found));
const shown = await call("lore_show", { learning: id });
check(shown.learning.anchors.length === 1, "lore_show: " + JSON.stringify(shown));
console.log("list, search, show");

// Drift: change verifyToken's body; verify lists it (and nothing valid).
const jwt = join(repo, "src/jwt.ts");
const before = readFileSync(jwt, "utf8");
writeFileSync(jwt, before.replace("token.length > 0", "token.length > 8"));
let v = await call("lore_verify", { learnings: [id] });
check(v.summary.drifted === 1 && v.results.length === 1 && v.results[0].status === "drifted", "lore_verify: " + JSON.stringify(v));
const imp = await call("lore_impact", {});
check(imp.learnings.some((l) => l.id === id) && imp.changes.some((c) => c.path === "src/jwt.ts"), "lore_impact: " + JSON.stringify(imp));
await call("lore_accept", { learning: id });
v = await call("lore_verify", { learnings: [id] });
check(v.summary.valid === 1 && v.results.length === 0, "after accept: " + JSON.stringify(v));
writeFileSync(jwt, before);
console.log("verify (drifted only), impact, accept");

const ctx = await call("lore_context", { targets: ["src/auth.ts"] });
check(ctx.learnings.some((l) => l.id === id && /imports/.test(l.reason)), "lore_context: " + JSON.stringify(ctx));
await call("lore_edit", { learning: id, tags: [tag, "auth"] });
const res = await client.readResource({ uri: "lore://learning/" + id });
check(/verifyToken must reject/.test(res.contents[0].text) && /— (valid|drifted)/.test(res.contents[0].text), "resource: " + res.contents[0].text);
const prompt = await client.getPrompt({ name: "lore_before_edit", arguments: { target: "src/jwt.ts" } });
check(/verifyToken must reject/.test(prompt.messages[0].content.text), "prompt: " + JSON.stringify(prompt));
console.log("context, edit, resource, prompt");

const depth = await client.callTool({ name: "lore_context", arguments: { targets: ["src/auth.ts"], depth: 0 } });
check(depth.isError && /depth 0: want 1\.\.5/.test(depth.content[0].text), "depth 0 accepted");
await call("lore_remove", { learning: id });
const gone = await call("lore_list", { tags: [tag] });
check(gone.total === 0, "after remove: " + JSON.stringify(gone));
console.log("remove");

await client.close();
console.log("ok");
