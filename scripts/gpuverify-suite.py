#!/usr/bin/env python3
"""Measures shared-memory-race on GPUVerify's labelled test suite.

Usage: scripts/gpuverify-suite.py TESTSUITE_DIR OUT_DIR CUDALINT

TESTSUITE_DIR is the `testsuite` folder of a checkout of mc-imperial/gpuverify (not kept here).
Each kernel's first line is its label: `//pass` (verified race-free) or `//xfail:NOT_ALL_VERIFIED`
with the expected error below it. A kernel is racy when that error names a race; it is in the
rule's scope when the race is on a `__shared__`/`__local` array. OpenCL kernels are rewritten into
CUDA (work-item functions to threadIdx/blockIdx/blockDim, `barrier(CLK_LOCAL_MEM_FENCE)` to
`__syncthreads()`, `__local` pointer parameters to `extern __shared__` arrays); GPUVerify's
annotations (`__invariant(...)`, `__requires(...)`, ...) are replaced by `1`, since they are not
code the kernel runs. Kernels checked with `--only-divergence` or `--warp-sync` are left out: their
label does not speak of races between all threads.
"""
import json, os, re, subprocess, sys

ANNOTATIONS = re.compile(r"\b(__invariant|__global_invariant|__requires|__ensures|__assert|__assume|__global_requires|__global_ensures|__global_assert|__function_wide_invariant|__function_wide_candidate_invariant|__candidate_invariant|__candidate_global_invariant|__barrier_invariant(_binary)?|__non_temporal|__reads_from|__writes_to|__read_implies|__write_implies|__assert_local|__assume_local)\s*\(")


def replace_calls(text, pattern, replacement):
    out, i = [], 0
    while True:
        m = pattern.search(text, i)
        if not m:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
        out.append(replacement(text[m.end():j - 1]) if callable(replacement) else replacement)
        i = j


def from_opencl(text):
    axes = {"0": "x", "1": "y", "2": "z"}
    for fn, obj in [("get_local_id", "threadIdx"), ("get_group_id", "blockIdx"), ("get_local_size", "blockDim"), ("get_num_groups", "gridDim")]:
        text = re.sub(fn + r"\s*\(\s*([012])\s*\)", lambda m: f"{obj}.{axes[m.group(1)]}", text)
    text = re.sub(r"get_global_id\s*\(\s*([012])\s*\)", lambda m: f"(blockIdx.{axes[m.group(1)]} * blockDim.{axes[m.group(1)]} + threadIdx.{axes[m.group(1)]})", text)
    text = re.sub(r"get_global_size\s*\(\s*([012])\s*\)", lambda m: f"(gridDim.{axes[m.group(1)]} * blockDim.{axes[m.group(1)]})", text)
    text = replace_calls(text, re.compile(r"\bbarrier\s*\("), lambda args: "__syncthreads()" if "LOCAL" in args else "__global_only_barrier()")
    # `__local T* p` parameters become `extern __shared__ T p[];` in the body
    def kernel(m):
        params, body_open = m.group(2), m.group(3)
        shared = []
        kept = []
        for p in split_params(params):
            lm = re.match(r"\s*(?:__local|local)\s+(.*?)\s*\*\s*(?:restrict\s+|const\s+)*(\w+)\s*$", p)
            if lm:
                shared.append(f"extern __shared__ {lm.group(1)} {lm.group(2)}[];")
            else:
                kept.append(p)
        return m.group(1) + "(" + ",".join(kept) + ")" + body_open + " ".join(shared)
    text = re.sub(r"((?:__kernel|kernel)\s+[^(]*?\w+\s*)\(([^)]*)\)(\s*\{)", kernel, text)
    text = re.sub(r"\b(__kernel|kernel)\b", "__global__", text)
    text = re.sub(r"\b(__local|local)\b", "__shared__", text)
    text = re.sub(r"\b(__global|global|__constant|constant|__private|private)\b(?!_)", "", text)
    text = re.sub(r"__attribute__\s*\(\(.*?\)\)", "", text)
    return text


def split_params(params):
    out, depth, cur = [], 0, ""
    for c in params:
        if c == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += {"(": 1, ")": -1, "<": 1, ">": -1}.get(c, 0)
        cur += c
    if cur.strip():
        out.append(cur)
    return out


def header(text):
    lines = []
    for line in text.splitlines()[:12]:
        if line.startswith("//"):
            lines.append(line[2:])
        elif line.strip():
            break
    return lines


def main():
    suite, out_dir, cudalint = sys.argv[1:4]
    rows = []
    for root, _, files in os.walk(suite):
        for name in files:
            if name not in ("kernel.cu", "kernel.cl"):
                continue
            path = os.path.join(root, name)
            text = open(path, encoding="utf-8", errors="replace").read()
            head = header(text)
            if not head:
                continue
            label = head[0].strip().lower()
            flags = head[1] if len(head) > 1 else ""
            if any(f in flags for f in ("--only-divergence", "--warp-sync", "--only-log", "/checkArrays", "--no-benign-tolerance")):
                continue
            expected = " ".join(head[2:]) if len(head) > 2 else ""
            if label == "pass":
                kind = "free"
            elif label == "xfail:not_all_verified" and re.search(r"race|Write by|Read by", expected):
                kind = "racy"
            else:
                continue
            code = from_opencl(text) if name.endswith(".cl") else text
            code = replace_calls(code, ANNOTATIONS, "1")
            uncommented = re.sub(r"//[^\n]*", "", code)
            shared_names = set(re.findall(r"__shared__[^;\[]*?\b(\w+)\s*(?:\[|;)", uncommented))
            target = re.search(r"race on ([A-Za-z_]\w*)", expected)
            in_scope = bool(shared_names) and (target is None or target.group(1) in shared_names)
            rel = os.path.relpath(path, suite)
            dest = os.path.join(out_dir, kind, rel.replace(os.sep, "__").rsplit(".", 1)[0] + ".cu")
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            open(dest, "w").write(code)
            rows.append({"kernel": rel, "kind": kind, "in_scope": in_scope, "file": dest})
    result = subprocess.run([cudalint, "check", "--select", "shared-memory-race,warp-synchronous-without-sync", "--format", "json", "--exit-zero", out_dir], capture_output=True, text=True)
    report = json.loads(result.stdout)
    found = {}
    for d in report.get("diagnostics", []):
        found.setdefault(os.path.abspath(d["path"]), []).append(d["rule"])
    for row in rows:
        rules = found.get(os.path.abspath(row["file"]), [])
        row["race"] = rules.count("shared-memory-race")
        row["warp"] = rules.count("warp-synchronous-without-sync")
        row["findings"] = len(rules)
    racy = [r for r in rows if r["kind"] == "racy" and r["in_scope"]]
    racy_out = [r for r in rows if r["kind"] == "racy" and not r["in_scope"]]
    free = [r for r in rows if r["kind"] == "free"]
    print(f"racy kernels, race on shared memory: {sum(1 for r in racy if r['findings'])} found / {len(racy)} (shared-memory-race {sum(1 for r in racy if r['race'])}, warp-synchronous-without-sync only {sum(1 for r in racy if r['warp'] and not r['race'])})")
    print(f"racy kernels, race elsewhere (out of scope): {sum(1 for r in racy_out if r['findings'])} reported / {len(racy_out)}")
    print(f"race-free kernels: {sum(1 for r in free if r['findings'])} reported / {len(free)} (shared-memory-race {sum(1 for r in free if r['race'])}, warp-synchronous-without-sync {sum(1 for r in free if r['warp'])}) (with shared memory: {sum(1 for r in free if '__shared__' in open(r['file']).read())})")
    for r in sorted(rows, key=lambda r: r["kernel"]):
        tag = "FOUND" if r["findings"] and r["kind"] == "racy" else "FALSE" if r["findings"] else "missed" if r["kind"] == "racy" and r["in_scope"] else None
        if tag:
            print(f"  {tag:6} {r['kernel']} race={r['race']} warp={r['warp']}")
    json.dump(rows, open(os.path.join(out_dir, "rows.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
