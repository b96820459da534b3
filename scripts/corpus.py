#!/usr/bin/env python3
"""Findings on a corpus of real projects, recorded and compared between builds.

    scripts/corpus.py run BINARY OUT.json [CORPUS_DIR]    lint every project, write the findings
    scripts/corpus.py diff OLD.json NEW.json [RULE...]    counts per project and rule, and the
                                                          findings gained and lost, finding by finding
    scripts/corpus.py sample FINDINGS.json RULE N SEED    N random findings of RULE, for hand review

CORPUS_DIR (default /work/corpus, or $CUDALINT_CORPUS) holds one checkout per project
(hecbench, cuda-samples, rodinia, deepspeed, mmcv, pytorch3d, tiny-cuda-nn,
diff-gaussian-rasterization, pytorch_cluster). Each project is linted from its root with
`cudalint check . --select all --no-cache --exit-zero --format json`; a finding is keyed by
(project, rule, path, line, message), so a change of wording counts as one lost and one gained.
"""
import collections
import json
import os
import pathlib
import random
import subprocess
import sys
import time


def run(binary, out, corpus=None):
    corpus = pathlib.Path(corpus or os.environ.get("CUDALINT_CORPUS", "/work/corpus"))
    binary = str(pathlib.Path(binary).resolve())
    result = {}
    for project in sorted(p for p in corpus.iterdir() if p.is_dir()):
        start = time.monotonic()
        completed = subprocess.run(
            [binary, "check", ".", "--select", "all", "--no-cache", "--exit-zero", "--format", "json"],
            cwd=project,
            capture_output=True,
            text=True,
        )
        elapsed = time.monotonic() - start
        try:
            diagnostics = json.loads(completed.stdout)["diagnostics"]
        except (json.JSONDecodeError, KeyError):
            sys.exit(f"{project.name}: no JSON (exit {completed.returncode}):\n{completed.stderr[-2000:]}")
        result[project.name] = [
            {
                "rule": d["rule"],
                "path": d["location"]["path"] if "location" in d else d.get("path"),
                "line": d["location"]["line"] if "location" in d else d.get("line"),
                "message": d["message"],
            }
            for d in diagnostics
        ]
        print(f"{project.name}: {len(diagnostics)} findings in {elapsed:.1f} s", file=sys.stderr)
    pathlib.Path(out).write_text(json.dumps(result, indent=1))


def keys(findings, rules):
    return {
        (project, d["rule"], d["path"], d["line"], d["message"])
        for project, found in findings.items()
        for d in found
        if not rules or d["rule"] in rules
    }


def diff(old_path, new_path, *rules):
    old = json.loads(pathlib.Path(old_path).read_text())
    new = json.loads(pathlib.Path(new_path).read_text())
    old_keys, new_keys = keys(old, rules), keys(new, rules)
    counts = collections.defaultdict(lambda: [0, 0])
    for index, found in enumerate((old_keys, new_keys)):
        for project, rule, *_ in found:
            counts[(project, rule)][index] += 1
    print("| project | rule | before | after |")
    print("|---|---|---:|---:|")
    for (project, rule), (before, after) in sorted(counts.items()):
        mark = "" if before == after else " *"
        print(f"| {project} | `{rule}` | {before} | {after}{mark} |")
    lost, gained = sorted(old_keys - new_keys), sorted(new_keys - old_keys)
    print(f"\nlost {len(lost)}, gained {len(gained)}")
    for sign, found in (("-", lost), ("+", gained)):
        for project, rule, path, line, message in found:
            print(f"{sign} {project} {rule} {path}:{line} {message[:160]}")


def sample(findings_path, rule, count, seed):
    findings = json.loads(pathlib.Path(findings_path).read_text())
    chosen = sorted(k for k in keys(findings, {rule}))
    picked = random.Random(int(seed)).sample(chosen, min(int(count), len(chosen)))
    for index, (project, _, path, line, message) in enumerate(picked):
        print(f"{index}\t{project}\t{path}:{line}\t{message}")


def main():
    commands = {"run": run, "diff": diff, "sample": sample}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    commands[sys.argv[1]](*sys.argv[2:])


if __name__ == "__main__":
    main()
