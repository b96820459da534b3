#!/usr/bin/env bash
# Packages the VS Code extension to target/cudalint.vsix with @vscode/vsce (npm packages installed
# into editors/vscode/node_modules, which git ignores) and checks what went into it.
set -euo pipefail
cd "$(dirname "$0")/../editors/vscode"

if [ ! -x node_modules/.bin/vsce ] || [ ! -d node_modules/vscode-languageclient ]; then
    npm ci --no-audit --no-fund
fi
# `.cu` files mapped to `cpp` are served, other C++ files are not (modules stubbed: no VS Code here)
node -e '
const Module = require("module");
const load = Module._load;
Module._load = (name, ...rest) =>
  name === "vscode" || name === "vscode-languageclient/node" ? {} : load(name, ...rest);
const { documentSelector } = require("./extension.js");
const cpp = documentSelector.filter((f) => f.language === "cpp");
if (cpp.length !== 1 || cpp[0].pattern !== "**/*.{cu,cuh}") {
  console.error("FAIL: no cpp selector limited to .cu/.cuh", documentSelector);
  process.exit(1);
}
'
./node_modules/.bin/vsce --version
listing="$(./node_modules/.bin/vsce ls)"
for required in extension.js package.json node_modules/vscode-languageclient/node.js; do
    if ! grep -qx "$required" <<<"$listing"; then
        echo "FAIL: $required is not packaged" >&2
        exit 1
    fi
done
mkdir -p ../../target
rm -f ../../target/cudalint.vsix
./node_modules/.bin/vsce package --out ../../target/cudalint.vsix
test -s ../../target/cudalint.vsix
echo "OK: target/cudalint.vsix"
