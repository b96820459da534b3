#!/usr/bin/env bash
# GPU tests of --verify (not part of tests/run.sh: CI has no GPU). Without a GPU this says so and
# runs nothing; it never passes silently.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi >/dev/null 2>&1; then
    echo "skipped: no GPU (the --verify GPU tests did not run)" >&2
    exit 0
fi
cargo build --release --locked
out=${1:-target/verify-gpu}
scripts/verify-gpu.sh target/release/cudalint "$out"
cargo test --release --locked --test gpu -- --ignored --nocapture
