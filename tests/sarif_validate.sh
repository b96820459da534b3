#!/usr/bin/env bash
# Validates `--format sarif` for the whole fixture set with the official SARIF 2.1.0 JSON schema
# (Python jsonschema) and with Microsoft's SARIF Multitool, GitHub code scanning's rules included.
# Each checker must also reject a deliberately broken log, so a checker that silently checks
# nothing cannot pass. Installs what it needs into .tools/ (ignored by git), skipping what is there.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tools=$root/.tools
multitool_version=5.7.0
bin=${CUDALINT_BIN:-$root/target/debug/cudalint}

# shellcheck source=tests/tools.sh
source "$root/tests/tools.sh"
ensure_venv jsonschema
ensure_multitool "$multitool_version"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

[ -n "${CUDALINT_BIN:-}" ] || cargo build --locked --quiet
set +e
"$bin" check testdata kernels --format sarif -o "$work/fixtures.sarif"
status=$?
set -e
if [ "$status" -ne 1 ]; then
    echo "FAIL: cudalint check on the fixtures exited $status (expected 1: findings)" >&2
    exit 1
fi

# The control: a result without locations and a region without positions break both checkers.
"$tools/venv/bin/python" - "$work/fixtures.sarif" "$work/broken.sarif" <<'EOF'
import json, sys
log = json.load(open(sys.argv[1]))
results = log["runs"][0]["results"]
assert len(results) >= 2, "the fixture set gave fewer than two results"
del results[0]["locations"]
results[1]["locations"][0]["physicalLocation"]["region"] = {"startLine": 0}
json.dump(log, open(sys.argv[2], "w"), indent=1)
EOF

echo "-- JSON schema ($schema_file)"
"$tools/venv/bin/python" - "$schema_file" "$work/fixtures.sarif" "$work/broken.sarif" <<'EOF'
import json, sys
from jsonschema import validators
schema = json.load(open(sys.argv[1]))
Validator = validators.validator_for(schema)
Validator.check_schema(schema)
validator = Validator(schema)
good = json.load(open(sys.argv[2]))
errors = sorted(validator.iter_errors(good), key=lambda e: list(e.absolute_path))
for error in errors[:20]:
    print("schema error at", "/".join(map(str, error.absolute_path)), ":", error.message)
if errors:
    sys.exit(f"FAIL: {len(errors)} schema error(s) in the fixture SARIF")
broken = json.load(open(sys.argv[3]))
if not list(validator.iter_errors(broken)):
    sys.exit("FAIL: the schema accepted the broken control log")
print(f"ok: {len(good['runs'][0]['results'])} results, {len(good['runs'][0]['tool']['driver']['rules'])} rules valid against the SARIF 2.1.0 schema ({Validator.__name__}); the broken control is rejected")
EOF

echo "-- Sarif.Multitool validate --rule-kind \"Sarif;Gh\""
# Its exit code is 0 whatever it finds: read the SARIF log it writes.
run_multitool() {
    "$multitool" validate --rule-kind "Sarif;Gh" --level "Error;Warning;Note" --log ForceOverwrite -o "$2" "$1" >"$2.txt" 2>&1 || {
        cat "$2.txt" >&2
        echo "FAIL: Sarif.Multitool could not run" >&2
        exit 1
    }
}
run_multitool "$work/fixtures.sarif" "$work/fixtures.validation.sarif"
run_multitool "$work/broken.sarif" "$work/broken.validation.sarif"
"$tools/venv/bin/python" - "$work/fixtures.validation.sarif" "$work/broken.validation.sarif" <<'EOF'
import json, sys
from collections import Counter

def findings(path):
    log = json.load(open(path))
    runs = log.get("runs") or []
    if not runs:
        sys.exit(f"FAIL: {path} has no run: the multitool did not validate")
    rules = [r["id"] for r in runs[0]["tool"]["driver"].get("rules", [])]
    results = runs[0].get("results") or []
    # SARIF's default level is warning.
    return [(r.get("level", "warning"), r["ruleId"], r["message"].get("text") or " ".join(r["message"].get("arguments", []))) for r in results], rules

good, rules_seen = findings(sys.argv[1])
bad, _ = findings(sys.argv[2])
serious = [f for f in good if f[0] in ("error", "warning")]
for level, rule, text in serious[:20]:
    print(f"{level} {rule}: {text}")
if serious:
    sys.exit(f"FAIL: the multitool reports {len(serious)} error/warning result(s) on the fixture SARIF")
if not any(level == "error" and rule.startswith("GH") for level, rule, _ in bad):
    sys.exit("FAIL: the multitool found no GitHub (GH) error in the broken control log")
notes = Counter(rule for _, rule, _ in good)
print(f"ok: no error or warning ({dict(sorted(notes.items()))} notes); the broken control gives {sum(1 for f in bad if f[0] == 'error')} errors")
EOF
