#!/usr/bin/env python3
"""Findings per rule, before and after, on a corpus: the README's table.

    scripts/findings-per-rule.py OLD_BINARY NEW_BINARY CORPUS_DIR

Runs the old build with no options, the new one by default, with `--select all`, and with
`select = ["all"]` plus `strict-error-checks = true`; prints a markdown table, then checks that
every memory and kernel finding (every JSON field) is the same in the old and the new default
run. Exits 1 when they differ.
"""
import collections
import json
import pathlib
import subprocess
import sys
import tempfile


def run(binary, corpus, *options):
    completed = subprocess.run(
        [binary, "check", corpus, "--format", "json", "--exit-zero", *options],
        capture_output=True,
        text=True,
    )
    if completed.returncode != 0:
        sys.exit(f"{binary} failed on {corpus}:\n{completed.stderr}")
    return json.loads(completed.stdout)["diagnostics"]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    old, new, corpus = sys.argv[1:]
    listing = subprocess.run([new, "rule"], capture_output=True, text=True, check=True).stdout
    category = {line.split()[0]: line.split()[1] for line in listing.splitlines()[1:]}
    with tempfile.TemporaryDirectory() as tmp:
        strict = pathlib.Path(tmp) / "strict.toml"
        strict.write_text('select = ["all"]\nstrict-error-checks = true\n')
        columns = {
            "before": run(old, corpus),
            "after: default": run(new, corpus),
            "after: `--select all`": run(new, corpus, "--select", "all"),
            "after: `--select all`, strict": run(new, corpus, "--config", str(strict)),
        }
    counts = {name: collections.Counter(d["rule"] for d in found) for name, found in columns.items()}
    rules = sorted(set().union(*counts.values()), key=lambda r: (-counts["before"][r], r))
    print(f"| {pathlib.Path(corpus).name} | category | " + " | ".join(columns) + " |")
    print("|---|---|" + "---:|" * len(columns))
    for rule in rules:
        cells = []
        for name, found in columns.items():
            cell = f"{counts[name][rule]:,}"
            if rule == "unchecked-cuda-call" and name != "before" and counts[name][rule]:
                calls = sum(1 + len(d["labels"]) for d in found if d["rule"] == rule)
                cell += f" ({calls:,} calls)"
            cells.append(cell)
        print(f"| `{rule}` | {category.get(rule, '?')} | " + " | ".join(cells) + " |")
    print("| total | | " + " | ".join(f"{sum(c.values()):,}" for c in counts.values()) + " |")

    def kept(found):
        return [d for d in found if category.get(d["rule"]) in ("memory", "kernel")]

    shares = []
    for name, found in columns.items():
        shares.append(f"{100 * len(kept(found)) / max(1, len(found)):.0f}%")
    print("| memory and kernel share | | " + " | ".join(shares) + " |")
    same = kept(columns["before"]) == kept(columns["after: default"])
    print(f"\nmemory and kernel findings {'identical' if same else 'DIFFERENT'} before and after")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
