#!/bin/sh
# Builds the extension and packages it as lore.vsix in this directory:
# npm install, tsc, then @vscode/vsce (which bundles the runtime
# dependency vscode-languageclient). Run from anywhere.
set -eu
cd "$(dirname "$0")"
npm install --no-audit --no-fund --silent
npx --yes tsc -p ./
npx --yes @vscode/vsce@3.2.1 package --allow-missing-repository -o lore.vsix
ls -l lore.vsix
