#!/usr/bin/env bash
# The full test suite: unit, lint cases, fixtures, CLI, and the integrations with real tools.
# Each integration step installs what it needs (apt, a Python venv, npm into a local folder).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo test"
cargo test --release --locked

echo "== SARIF: the official 2.1.0 schema and Sarif.Multitool (SARIF and GitHub rules)"
bash tests/sarif_validate.sh

echo "== pre-commit: the hook from this repository, run by the real framework"
bash tests/precommit.sh
