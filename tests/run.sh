#!/usr/bin/env bash
# The full test suite: unit, lint cases, fixtures, CLI, and the integrations with real tools.
# Each integration step installs what it needs (apt, a Python venv, npm into a local folder).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo test"
cargo test --release --locked

echo "== HIP twins of the fixtures match what scripts/hipify-fixtures.py generates"
python3 scripts/hipify-fixtures.py --check

echo "== SARIF: the official 2.1.0 schema and Sarif.Multitool (SARIF and GitHub rules)"
bash tests/sarif_validate.sh

echo "== pre-commit: both hooks from this repository (cargo and the Python wheel), run by the real framework"
bash tests/precommit.sh

echo "== --verify GPU tests (tests/gpu.sh; CI has no GPU, so this says \"skipped: no GPU\")"
bash tests/gpu.sh

echo "== Python wheel: maturin build, installed with pip into a fresh venv and with pipx, run on kernels/"
bash tests/wheel.sh

echo "== LSP: headless Neovim as the client (installs Debian's neovim when missing)"
bash tests/nvim_lsp.sh

echo "== LSP: VS Code extension packaged to target/cudalint.vsix (npm into editors/vscode/node_modules)"
bash tests/vscode_package.sh
