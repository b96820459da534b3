#!/usr/bin/env bash
# The Python wheel (pyproject.toml: maturin, `bindings = "bin"`): builds it with maturin installed
# from PyPI, checks its name, version and contents against Cargo.toml, installs it into a fresh
# virtualenv and with pipx, and runs the installed `cudalint` on kernels/: the default run must exit
# 1, and with `--select all` every kernels/<rule>/bad.cu must report its rule and no good.cu anything.
#
# maturin runs `cargo build --release` in target/, the directory cargo test --release and
# `cargo build --release` use, so after those the wheel is a packaging step, not a second build.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tools=$root/.tools

# shellcheck source=tests/tools.sh
source "$root/tests/tools.sh"
ensure_venv maturin pipx

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
[ -n "$version" ] || { echo "FAIL: no version in Cargo.toml" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

started=$(date +%s)
"$tools/venv/bin/maturin" build --release --locked --out "$work/dist" 2>"$work/build.txt" || {
    cat "$work/build.txt" >&2
    echo "FAIL: maturin build failed" >&2
    exit 1
}
shopt -s nullglob
wheels=("$work"/dist/*.whl)
shopt -u nullglob
if [ "${#wheels[@]}" -ne 1 ]; then
    echo "FAIL: expected one wheel, found: ${wheels[*]:-none}" >&2
    exit 1
fi
wheel=${wheels[0]}
name=$(basename "$wheel")
echo "built $name ($(($(stat -c %s "$wheel") / 1024)) KiB) in $(($(date +%s) - started)) s"

# The wheel's version is Cargo.toml's; it holds the binary as a script and no Python code.
case "$name" in
    "cudalint-$version-py3-none-"*.whl) ;;
    *) echo "FAIL: $name is not cudalint $version for any Python (py3-none-PLATFORM)" >&2; exit 1 ;;
esac
"$tools/venv/bin/python" - "$wheel" "$version" <<'PY'
import sys
import zipfile

wheel, version = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as archive:
    names = archive.namelist()
    metadata = archive.read(f"cudalint-{version}.dist-info/METADATA").decode()
    script = archive.getinfo(f"cudalint-{version}.data/scripts/cudalint")
fields = dict(line.split(": ", 1) for line in metadata.splitlines() if ": " in line)
assert fields.get("Name") == "cudalint", fields.get("Name")
assert fields.get("Version") == version, (fields.get("Version"), version)
assert script.external_attr >> 16 & 0o111, "the binary is not executable in the wheel"
python = [n for n in names if n.endswith(".py")]
assert not python, f"the wheel holds Python code: {python}"
assert any(n.endswith(".dist-info/licenses/LICENSE") or n.endswith(".dist-info/LICENSE") for n in names), names
print(f"wheel metadata: cudalint {version}, the binary at cudalint-{version}.data/scripts/cudalint")
PY

# A fresh virtualenv: pip installs the wheel alone (no index), and `cudalint` is the venv's.
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q --no-index "$wheel"
installed=$(
    # shellcheck source=/dev/null
    source "$work/venv/bin/activate"
    command -v cudalint
)
if [ "$installed" != "$work/venv/bin/cudalint" ]; then
    echo "FAIL: cudalint in the activated venv is $installed, not the venv's" >&2
    exit 1
fi
reported=$("$work/venv/bin/cudalint" --version)
if [ "$reported" != "cudalint $version" ]; then
    echo "FAIL: the installed binary says \`$reported\`, Cargo.toml says $version" >&2
    exit 1
fi

check() {
    # shellcheck source=/dev/null
    (source "$work/venv/bin/activate" && cudalint check kernels/ "$@")
}
set +e
check >"$work/default.txt" 2>&1
default_status=$?
check --select all --format json >"$work/all.json" 2>"$work/all.err"
all_status=$?
set -e
if [ "$default_status" -ne 1 ] || [ "$all_status" -ne 1 ]; then
    cat "$work/default.txt" "$work/all.err" >&2
    echo "FAIL: cudalint check kernels/ from the venv exited $default_status (--select all: $all_status), expected 1" >&2
    exit 1
fi
"$work/venv/bin/python" - "$work/all.json" kernels <<'PY'
import json
import pathlib
import sys

diagnostics = json.load(open(sys.argv[1]))["diagnostics"]
found = {(d["path"], d["rule"]) for d in diagnostics}
rules = sorted(p.name for p in pathlib.Path(sys.argv[2]).iterdir() if (p / "bad.cu").is_file())
assert len(rules) >= 10, rules
missing = [r for r in rules if (f"kernels/{r}/bad.cu", r) not in found]
assert not missing, f"bad.cu of these rules reports nothing of its rule: {missing}"
on_good = sorted({d["path"] for d in diagnostics if d["path"].endswith("/good.cu")})
assert not on_good, f"findings in good.cu files: {on_good}"
print(f"from the venv: {len(diagnostics)} findings with --select all; each of {len(rules)} rules reports its bad.cu, no good.cu reports anything")
PY
grep -m1 "^warning\[unguarded-thread-index\]" "$work/default.txt"
tail -n 1 "$work/default.txt"

# pipx, the way ruff is usually installed: its own venv, `cudalint` linked into PIPX_BIN_DIR.
export PIPX_HOME=$work/pipx PIPX_BIN_DIR=$work/pipx-bin PIPX_MAN_DIR=$work/pipx-man
"$tools/venv/bin/pipx" install --quiet "$wheel" >"$work/pipx.txt" 2>&1 || {
    cat "$work/pipx.txt" >&2
    echo "FAIL: pipx install of the wheel failed" >&2
    exit 1
}
reported=$("$PIPX_BIN_DIR/cudalint" --version)
[ "$reported" = "cudalint $version" ] || { echo "FAIL: pipx's cudalint says \`$reported\`" >&2; exit 1; }
set +e
(cd kernels/unguarded-thread-index && "$PIPX_BIN_DIR/cudalint" check bad.cu >"$work/pipx-check.txt" 2>&1)
pipx_status=$?
set -e
if [ "$pipx_status" -ne 1 ] || ! grep -q "^warning\[unguarded-thread-index\]" "$work/pipx-check.txt"; then
    cat "$work/pipx-check.txt" >&2
    echo "FAIL: pipx's cudalint did not report the unguarded index (exit $pipx_status)" >&2
    exit 1
fi
echo "ok: the wheel (cudalint $version) installs with pip and pipx and lints kernels/ from the venv"
