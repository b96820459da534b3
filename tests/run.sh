#!/usr/bin/env bash
# The full test suite: unit, lint cases, fixtures, CLI, and the integrations with real tools.
# Each integration step installs what it needs (apt, a Python venv, npm into a local folder).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo test"
cargo test --release --locked

echo "== LSP: headless Neovim as the client (installs Debian's neovim when missing)"
tests/nvim_lsp.sh

echo "== LSP: VS Code extension packaged to target/cudalint.vsix (npm into editors/vscode/node_modules)"
tests/vscode_package.sh
