#!/usr/bin/env bash
# Runs this repository's pre-commit hook with the real pre-commit framework (`pre-commit try-repo`)
# in a temporary git repository: a kernel with an unguarded thread index must fail with the
# diagnostic shown, a clean one must pass. `language: rust` makes pre-commit `cargo install` the
# repository's committed HEAD (plus uncommitted changes to tracked files); its build directory is
# kept in .tools/ so later runs are incremental.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tools=$root/.tools

# shellcheck source=tests/tools.sh
source "$root/tests/tools.sh"
ensure_venv pre-commit
# try-repo installs the hook into a fresh temporary store each time; keeping cargo's build directory
# makes that a rebuild of cudalint alone (about a minute) once the dependencies are built.
export PRE_COMMIT_HOME=$tools/pre-commit-home
export CARGO_TARGET_DIR=$tools/precommit-target

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
project=$work/project
mkdir -p "$project"
git -C "$project" init -q
cp kernels/unguarded-thread-index/bad.cu "$project/bad.cu"
cp testdata/clean/saxpy_grid_stride.cu "$project/clean.cu"
git -C "$project" add bad.cu clean.cu

try_repo() {
    (cd "$project" && "$tools/venv/bin/pre-commit" try-repo "$root" cudalint --color never "$@")
}

started=$(date +%s)
set +e
try_repo --files bad.cu >"$work/bad.txt" 2>&1
bad_status=$?
set -e
echo "pre-commit on bad.cu: exit $bad_status after $(($(date +%s) - started)) s (includes building the hook the first time)"
if [ "$bad_status" -ne 1 ] || ! grep -q "unguarded-thread-index" "$work/bad.txt" || ! grep -q "^cudalint.*Failed" "$work/bad.txt"; then
    cat "$work/bad.txt" >&2
    echo "FAIL: the hook did not fail on bad.cu with the diagnostic shown" >&2
    exit 1
fi
grep -m1 "unguarded-thread-index" "$work/bad.txt"

started=$(date +%s)
set +e
try_repo --files clean.cu >"$work/clean.txt" 2>&1
clean_status=$?
set -e
echo "pre-commit on clean.cu: exit $clean_status after $(($(date +%s) - started)) s"
if [ "$clean_status" -ne 0 ] || ! grep -q "^cudalint.*Passed" "$work/clean.txt"; then
    cat "$work/clean.txt" >&2
    echo "FAIL: the hook did not pass on clean.cu" >&2
    exit 1
fi
echo "ok: the pre-commit hook fails on a bad kernel and passes a clean one"
