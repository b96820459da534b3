#!/usr/bin/env bash
# The full test suite: unit, lint cases, fixtures, CLI, and the integrations with real tools.
# Each integration step installs what it needs (apt, a Python venv, npm into a local folder).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo test"
cargo test --locked --all-targets

echo "== --verify GPU tests (tests/gpu.sh; CI has no GPU, so this says \"skipped: no GPU\")"
tests/gpu.sh
