// ruff-format.js WASM_DIR LINE_LENGTH QUOTES FILE... formats each Python
// file in place with ruff's formatter, from its WebAssembly build
// (@astral-sh/ruff-wasm-nodejs): the round trips need a real ruff, and
// npm is where this machine can get one.
const fs = require('fs');
const path = require('path');
const [dir, lineLength, quotes, ...files] = process.argv.slice(2);
const { Workspace, PositionEncoding } = require(path.join(dir, 'ruff_wasm.js'));
const ws = new Workspace({ 'line-length': Number(lineLength), format: { 'quote-style': quotes } }, PositionEncoding.Utf16);
let failed = 0;
for (const f of files) {
  try {
    const src = fs.readFileSync(f, 'utf8');
    const out = ws.format(src);
    if (out !== src) fs.writeFileSync(f, out);
  } catch (e) {
    failed++;
  }
}
if (failed > 0) {
  console.error(`ruff: ${failed} of ${files.length} files not formatted`);
}
