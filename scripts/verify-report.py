#!/usr/bin/env python3
"""Tables for docs/verify-results.md from the output folder of scripts/verify-gpu.sh.

Usage: scripts/verify-report.py OUTDIR
"""
import collections
import json
import os
import re
import statistics
import sys

out = sys.argv[1]
verify = json.load(open(f"{out}/verify.json"))
diagnostics = [d for d in verify["diagnostics"] if d.get("verification", {}).get("status") != "not-verifiable"]
kernel_rules = {"unguarded-thread-index", "out-of-range-access", "divergent-barrier"}
kernel = [d for d in diagnostics if d["rule"] in kernel_rules]
host = [d for d in diagnostics if d["rule"] not in kernel_rules]


def confirmed(ds):
    return sum(d["verification"]["status"] == "confirmed" for d in ds)


print(f"Kernel rules: {confirmed(kernel)} of {len(kernel)} findings confirmed.")
print(f"Host rules (replayed through the driver API): {confirmed(host)} of {len(host)} confirmed.\n")
print("| finding | rule | outcome | witness / reason |")
print("|---|---|---|---|")
for d in sorted(host, key=lambda d: (d["path"], d["line"])) + sorted(kernel, key=lambda d: (d["path"], d["line"])):
    v = d["verification"]
    detail = v["detail"].replace("|", "\\|")
    print(f"| {d['path']}:{d['line']} | {d['rule']} | {v['status']} | {detail} |")

print("\n| rule | outcome | count |")
print("|---|---|---|")
counts = collections.Counter((d["rule"], d.get("verification", {}).get("status")) for d in verify["diagnostics"])
for (rule, status), n in sorted(counts.items()):
    if status != "not-verifiable" or rule == "divergent-barrier":
        print(f"| {rule} | {status} | {n} |")

for run in ("cold", "warm"):
    timings = json.load(open(f"{out}/timings-{run}.json"))
    print(f"\n### {run}: {timings['wall_ms'] / 1000:.2f} s for the whole set, context creation {timings['context_ms']:.0f} ms, {timings['workers_started']} worker(s)\n")
    print("| file | kernels in the program | NVRTC compile ms | module load ms | runs ms (all kernels) | total ms | per kernel ms |")
    print("|---|---|---|---|---|---|---|")
    programs = collections.OrderedDict()
    for e in timings["experiments"]:
        programs.setdefault(e["file"], []).append(e)
    for file, es in programs.items():
        compile_ms = sum(e["compile_ms"] for e in es)
        load_ms = sum(e["load_ms"] for e in es)
        run_ms = sum(e["run_ms"] for e in es)
        total = compile_ms + load_ms + run_ms
        names = ", ".join(e["kernel"] for e in es)
        print(f"| {file} | {len(es)} ({names}) | {compile_ms:.1f} | {load_ms:.1f} | {run_ms:.1f} | {total:.1f} | {total / len(es):.1f} |")
    compiler = timings.get("compiler")
    if compiler:
        print(f"\nCompiler: {compiler}")


def reason(detail):
    """A not-verifiable detail without its file names, lines and numbers, to group by."""
    detail = re.sub(r"cudalint_verify\.cu\(\d+\): ", "", detail)
    detail = re.sub(r"`[^`]*`", "`_`", detail)
    detail = re.sub(r"\d+", "N", detail)
    return detail[:150]


real = f"{out}/verify-real.json"
if os.path.exists(real):
    findings = [d for d in json.load(open(real))["diagnostics"] if d["rule"] in kernel_rules]
    statuses = collections.Counter(d.get("verification", {}).get("status") for d in findings)
    verdicts = statuses["confirmed"] + statuses["not-reproduced"]
    print(f"\n## Real-code sample: {len(findings)} kernel findings")
    print(f"\nVerdicts: {verdicts} of {len(findings)} ({100 * verdicts / max(1, len(findings)):.0f}%): "
          f"{statuses['confirmed']} confirmed, {statuses['not-reproduced']} not reproduced, "
          f"{statuses['not-verifiable']} not verifiable.\n")
    print("| rule | confirmed | not reproduced | not verifiable |")
    print("|---|---:|---:|---:|")
    for rule in sorted(kernel_rules):
        c = collections.Counter(d["verification"]["status"] for d in findings if d["rule"] == rule and "verification" in d)
        print(f"| {rule} | {c['confirmed']} | {c['not-reproduced']} | {c['not-verifiable']} |")
    reasons = collections.Counter(reason(d["verification"]["detail"]) for d in findings
                                  if d.get("verification", {}).get("status") == "not-verifiable")
    print("\n| not verifiable because | findings |")
    print("|---|---:|")
    for text, n in reasons.most_common():
        print(f"| {text.replace('|', '/')} | {n} |")
    for d in findings:
        v = d.get("verification", {})
        print(f"- {d['path']}:{d['line']} {d['rule']}: {v.get('status')}: {v.get('detail', '')[:300]}")
    timings_path = f"{out}/timings-real.json"
    if os.path.exists(timings_path):
        timings = json.load(open(timings_path))
        totals = [e["total_ms"] for e in timings["experiments"]]
        if totals:
            print(f"\nPer-kernel time after context creation (compile, load, runs, twin): median "
                  f"{statistics.median(totals):.1f} ms, max {max(totals):.1f} ms over {len(totals)} "
                  f"kernels; context {timings.get('context_ms') or 0:.0f} ms; whole run "
                  f"{timings['wall_ms'] / 1000:.1f} s; compiler {timings.get('compiler')}")
