#!/usr/bin/env bash
# Neovim (Debian's package) as a real LSP client of `cudalint lsp`; see tests/nvim/lsp_test.lua.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v nvim >/dev/null 2>&1; then
    echo "installing neovim from the distribution"
    sudo_cmd=""
    if [ "$(id -u)" != 0 ]; then sudo_cmd="sudo"; fi
    if ! DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y neovim; then
        $sudo_cmd apt-get update
        DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y neovim
    fi
fi
nvim --version | head -1

# the release build: in tests/run.sh, tests/wheel.sh's maturin build has made it already (cargo
# test's build differs in dependency features that its dev-dependencies add)
cargo build --release --locked --quiet
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp tests/nvim/fixture.cu "$work/fixture.cu"
CUDALINT_BIN="$PWD/target/release/cudalint" CUDALINT_FIXTURE="$work/fixture.cu" CUDALINT_REPO="$PWD" \
    timeout 150 nvim --headless -u NONE -c "luafile tests/nvim/lsp_test.lua"
