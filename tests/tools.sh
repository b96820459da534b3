# Sourced by the integration scripts: installs their external tools into .tools/ (ignored by git),
# idempotently. Expects $tools to be set.

# A Python virtual environment at $tools/venv with the given PyPI packages.
ensure_venv() {
    if [ ! -x "$tools/venv/bin/python" ]; then
        if ! python3 -m venv "$tools/venv" 2>/dev/null; then
            rm -rf "$tools/venv"
            apt-get install -y -q python3-venv >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q python3-venv >/dev/null; }
            python3 -m venv "$tools/venv"
        fi
    fi
    local missing=()
    local package
    for package in "$@"; do
        "$tools/venv/bin/python" -m pip show -q "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "installing ${missing[*]} into $tools/venv"
        "$tools/venv/bin/python" -m pip install -q "${missing[@]}"
    fi
}

# Microsoft's SARIF Multitool from npm (a self-contained .NET executable in the platform package)
# and the SARIF 2.1.0 schema it ships. Sets $multitool and $schema_file.
ensure_multitool() {
    local version=$1
    local package_dir=$tools/npm/node_modules/@microsoft/sarif-multitool-linux
    if ! grep -qs "\"version\": \"$version\"" "$package_dir/package.json"; then
        command -v npm >/dev/null || { apt-get install -y -q npm >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q npm >/dev/null; }; }
        echo "installing @microsoft/sarif-multitool@$version into $tools/npm"
        mkdir -p "$tools/npm"
        npm install --prefix "$tools/npm" --no-audit --no-fund --loglevel=error "@microsoft/sarif-multitool@$version" >/dev/null
    fi
    multitool=$package_dir/Sarif.Multitool
    schema_file=$package_dir/sarif-2.1.0.json
    # The package's postinstall only sets this bit, and npm may skip install scripts.
    chmod u+x "$multitool"
    [ -f "$schema_file" ] || { echo "FAIL: $schema_file is missing from the npm package" >&2; exit 1; }
    # Without libicu, .NET refuses to start unless told to use invariant globalisation.
    export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1
}
