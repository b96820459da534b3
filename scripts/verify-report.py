#!/usr/bin/env python3
"""Tables for docs/verify-results.md from the output folder of scripts/verify-gpu.sh.

Usage: scripts/verify-report.py OUTDIR
"""
import collections
import json
import sys

out = sys.argv[1]
verify = json.load(open(f"{out}/verify.json"))
diagnostics = [d for d in verify["diagnostics"] if d.get("verification", {}).get("status") != "not-verifiable"]
kernel_rules = {"unguarded-thread-index", "out-of-range-access"}
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
