#!/usr/bin/env bash
# Runs this repository's two pre-commit hooks with the real pre-commit framework
# (`pre-commit try-repo`) in a temporary git repository: on a kernel with an unguarded thread index
# each must fail with the diagnostic shown, on a clean one each must pass. try-repo clones the
# repository's committed HEAD plus uncommitted changes to tracked files and installs each hook the
# way a user's pre-commit would: `cudalint` (language: rust) with `cargo install`, `cudalint-python`
# (language: python) with `pip install .`, which builds the Python wheel with maturin
# (pyproject.toml) and installs its binary into the hook's virtualenv.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tools=$root/.tools

# shellcheck source=tests/tools.sh
source "$root/tests/tools.sh"
ensure_venv pre-commit
# try-repo installs the hooks into a fresh temporary store each time; one cargo build directory
# shared by both hooks and kept between runs makes each install a rebuild of cudalint alone (about a
# minute) once the dependencies are built, and the second hook of a run finds the first one's build
# of the same clone up to date (maturin runs the same `cargo build --release`).
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

# Each hook must run the cudalint its own installation put in its environment, never one already on
# the PATH (the README's `cargo install` puts one in ~/.cargo/bin, beside cargo): the hooks see a
# PATH without any folder holding a `cudalint`, and reach the tools they build with (and git)
# through links of their own.
toolchain=$work/toolchain
mkdir -p "$toolchain"
for tool in cargo rustc rustup cc git; do
    if found=$(command -v "$tool"); then
        ln -s "$found" "$toolchain/$tool"
    fi
done
hook_path=$toolchain
IFS=: read -r -a path_entries <<<"$PATH"
for entry in "${path_entries[@]}"; do
    if [ -n "$entry" ] && [ ! -e "$entry/cudalint" ]; then
        hook_path=$hook_path:$entry
    fi
done
if PATH=$hook_path command -v cudalint >/dev/null; then
    echo "FAIL: a cudalint is still on the hooks' PATH: $(PATH=$hook_path command -v cudalint)" >&2
    exit 1
fi

try_repo() {
    (cd "$project" && PATH=$hook_path "$tools/venv/bin/pre-commit" try-repo "$root" --color never "$@")
}

# Both hooks' status lines, e.g. `cudalint.....Failed` and `cudalint (python).....Failed`.
expect_status() {
    local output=$1 status=$2 name
    for name in "cudalint" "cudalint (python)"; do
        if ! grep -q "^$name\.\.\..*$status\$" "$output"; then
            cat "$output" >&2
            echo "FAIL: hook \`$name\` did not report $status" >&2
            exit 1
        fi
    done
}

started=$(date +%s)
set +e
try_repo --files bad.cu >"$work/bad.txt" 2>&1
bad_status=$?
set -e
echo "pre-commit (both hooks) on bad.cu: exit $bad_status after $(($(date +%s) - started)) s (includes installing both hooks)"
expect_status "$work/bad.txt" Failed
# Each hook printed the finding: the diagnostic's header appears once per hook.
findings=$(grep -c "^warning\[unguarded-thread-index\]" "$work/bad.txt" || true)
if [ "$bad_status" -ne 1 ] || [ "$findings" -ne 2 ]; then
    cat "$work/bad.txt" >&2
    echo "FAIL: the hooks did not both fail on bad.cu with the diagnostic shown ($findings shown)" >&2
    exit 1
fi
grep -m1 "^warning\[unguarded-thread-index\]" "$work/bad.txt"

started=$(date +%s)
set +e
try_repo --files clean.cu >"$work/clean.txt" 2>&1
clean_status=$?
set -e
echo "pre-commit (both hooks) on clean.cu: exit $clean_status after $(($(date +%s) - started)) s"
expect_status "$work/clean.txt" Passed
if [ "$clean_status" -ne 0 ]; then
    cat "$work/clean.txt" >&2
    echo "FAIL: the hooks did not pass on clean.cu" >&2
    exit 1
fi
echo "ok: both pre-commit hooks (rust and python) fail on a bad kernel and pass a clean one"
