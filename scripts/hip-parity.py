#!/usr/bin/env python3
"""Compare cudalint's findings on HeCBench's HIP programs with those on their CUDA twins.

Usage: python3 scripts/hip-parity.py CUDALINT [HECBENCH_SRC] [--json OUT.json] [--list]

For every program NAME with both NAME-cuda and NAME-hip folders under HECBENCH_SRC (default
/work/corpus/hecbench/src), each folder is linted on its own
(`CUDALINT check DIR --format json --exit-zero --select all --no-cache`). A finding of the CUDA
twin corresponds to one of the HIP twin when both are of the same rule, in files of the same name
(`hip` read as `cuda` in the name), at lines that correspond: the lines of the two files are
normalised (blanks dropped, `hip` names read as their `cuda` names, `hipLaunchKernelGGL(k, g, b,
s, t, ...)` read as `k<<<g, b, s, t>>>(...)`) and aligned with difflib; a finding matches one of
the same rule within two lines of its aligned line, or, for a rule that reports once per function
(`f` ignores the error codes of N calls), the finding of the same function. A program has the same findings for a rule
when every finding of either twin has its counterpart.

Prints, per rule, the programs whose findings differ, then the share of programs whose findings
are the same for every rule. `--list` prints each unmatched finding.
"""
import difflib
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

NEAR = 2


def lint(binary, folder):
    cmd = [binary, 'check', folder, '--format', 'json', '--exit-zero', '--select', 'all',
           '--no-cache']
    proc = subprocess.run(cmd, cwd=folder, capture_output=True)
    try:
        report = json.loads(proc.stdout.decode('utf-8', 'replace') or '{}')
    except json.JSONDecodeError:
        report = {}
    found = []
    for d in report.get('diagnostics', []):
        path = os.path.relpath(os.path.join(folder, d.get('path', '')), folder) \
            if not os.path.isabs(d.get('path', '')) else os.path.relpath(d['path'], folder)
        found.append((d.get('rule'), path, d.get('line') or 0, d.get('message') or ''))
    return found


HIP_NAME = re.compile(r'\bhip([A-Z_][A-Za-z0-9_]*)')
HIP_UPPER = re.compile(r'\bHIP([A-Z_][A-Za-z0-9_]*)')
GGL = re.compile(r'hipLaunchKernelGGL\s*\(\s*(?:HIP_KERNEL_NAME\s*\(\s*([^()]*)\)|([^,]+))\s*,'
                 r'([^,]+),([^,]+),([^,]+),([^,]+?)(?:,|\)\s*;)(.*)')
SPELLED_APART = {'cudaHostMalloc': 'cudaMallocHost', 'cudaHostFree': 'cudaFreeHost'}


def normalise(line):
    match = GGL.search(line)
    if match:
        kernel = (match.group(1) or match.group(2)).strip()
        config = ','.join(g.strip() for g in match.group(3, 4, 5, 6))
        line = line[:match.start()] + f'{kernel}<<<{config}>>>({match.group(7)}'
    line = HIP_NAME.sub(r'cuda\1', line)
    line = HIP_UPPER.sub(r'CUDA\1', line)
    for hip, cuda in SPELLED_APART.items():
        line = line.replace(hip, cuda)
    line = line.replace('hip/hip_runtime.h', 'cuda.h').replace('hip_runtime', 'cuda_runtime')
    return re.sub(r'\s+', '', line)


def read_lines(path):
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            return [normalise(line) for line in f]
    except OSError:
        return []


def line_map(cuda_file, hip_file):
    """For each 1-based line of the CUDA file, the corresponding line of the HIP file."""
    a, b = read_lines(cuda_file), read_lines(hip_file)
    mapping = {}
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for k in range(i2 - i1):
            if tag == 'equal':
                mapping[i1 + k + 1] = j1 + k + 1
            else:
                # replaced or deleted lines: the proportional position in the other block
                span = max(j2 - j1, 1)
                mapping[i1 + k + 1] = j1 + min(k * span // max(i2 - i1, 1), span - 1) + 1
    return mapping


def file_key(path):
    return re.sub(r'hip', 'cuda', os.path.normpath(path))


def pair_files(cuda, hip):
    """The HIP twin's path of each CUDA path that has findings: the same path (`hip` read as
    `cuda`), else the only HIP file of the same name (twins are sometimes laid out apart)."""
    hip_keys = {file_key(f[1]): f[1] for f in hip}
    by_name = defaultdict(set)
    for f in hip:
        by_name[os.path.basename(file_key(f[1]))].add(f[1])
    pairs = {}
    for f in cuda:
        key = file_key(f[1])
        if key in hip_keys:
            pairs[f[1]] = hip_keys[key]
        elif len(by_name.get(os.path.basename(key), ())) == 1:
            pairs[f[1]] = next(iter(by_name[os.path.basename(key)]))
        else:
            pairs[f[1]] = f[1]
    return pairs


def compare(src, program, cuda, hip):
    cuda_dir, hip_dir = (os.path.join(src, f'{program}-{s}') for s in ('cuda', 'hip'))
    pairs = pair_files(cuda, hip)
    maps = {}
    unmatched = []
    pool = defaultdict(list)
    for index, (rule, path, line, _message) in enumerate(hip):
        pool[(rule, path)].append((line, index))
    used = set()
    for rule, path, line, message in cuda:
        hip_path = pairs[path]
        if path not in maps:
            maps[path] = line_map(os.path.join(cuda_dir, path), os.path.join(hip_dir, hip_path))
        target = maps[path].get(line, line)
        candidates = [(abs(l - target), i) for l, i in pool.get((rule, hip_path), [])
                      if i not in used and abs(l - target) <= NEAR]
        if candidates:
            used.add(min(candidates)[1])
        else:
            unmatched.append(('cuda', rule, path, line, message))
    # a rule that reports once per function (`main` ignores the error codes of 9 calls) puts its
    # finding at the function's first unchecked call: the twins' findings of one function match
    rest = []
    for side, rule, path, line, message in unmatched:
        function = per_function(message)
        candidates = [i for l, i in pool.get((rule, pairs[path]), [])
                      if i not in used and function and per_function(hip[i][3]) == function]
        if candidates:
            used.add(candidates[0])
        else:
            rest.append((side, rule, path, line, message))
    for index, (rule, path, line, message) in enumerate(hip):
        if index not in used:
            rest.append(('hip', rule, path, line, message))
    return rest


def per_function(message):
    """The function a once-per-function finding names (`f` ignores the error codes of ...)."""
    match = re.match(r'`([^`]+)` ignores the error codes of', message)
    return match.group(1) if match else None


def main():
    argv = sys.argv[1:]
    out = None
    if '--json' in argv:
        at = argv.index('--json')
        out = argv[at + 1] if at + 1 < len(argv) else None
        del argv[at:at + 2]
    args = [a for a in argv if not a.startswith('--')]
    if not args:
        sys.exit(__doc__)
    binary = os.path.abspath(args[0])
    src = args[1] if len(args) > 1 else '/work/corpus/hecbench/src'
    programs = sorted(
        name[:-4] for name in os.listdir(src)
        if name.endswith('-hip') and os.path.isdir(os.path.join(src, name[:-4] + '-cuda')))
    folders = [os.path.join(src, f'{p}-{s}') for p in programs for s in ('cuda', 'hip')]
    with ThreadPoolExecutor(max_workers=int(os.environ.get('JOBS', '2'))) as executor:
        results = dict(zip(folders, executor.map(lambda f: lint(binary, f), folders)))
    differing = {}
    per_rule = defaultdict(set)
    totals = defaultdict(lambda: [0, 0])
    for p in programs:
        cuda = results[os.path.join(src, f'{p}-cuda')]
        hip = results[os.path.join(src, f'{p}-hip')]
        for f in cuda:
            totals[f[0]][0] += 1
        for f in hip:
            totals[f[0]][1] += 1
        unmatched = compare(src, p, cuda, hip)
        if unmatched:
            differing[p] = unmatched
            for u in unmatched:
                per_rule[u[1]].add(p)
    print(f'{"rule":34} {"cuda":>6} {"hip":>6} {"programs differing":>19}')
    for rule in sorted(set(totals) | set(per_rule)):
        print(f'{rule:34} {totals[rule][0]:6} {totals[rule][1]:6} {len(per_rule[rule]):19}')
    same = len(programs) - len(differing)
    print(f'programs with both twins: {len(programs)}; same findings for every rule: {same} '
          f'({100.0 * same / max(len(programs), 1):.1f}%)')
    rule_pairs = len(programs) * max(len(set(totals)), 1)
    differing_pairs = sum(len(v) for v in per_rule.values())
    print(f'(program, rule) pairs the same: {rule_pairs - differing_pairs} of {rule_pairs}')
    if '--list' in sys.argv:
        for p, unmatched in sorted(differing.items()):
            for side, rule, path, line, message in unmatched:
                print(f'{p}\tonly-{side}\t{rule}\t{path}:{line}\t{message}')
    if out:
        with open(out, 'w') as f:
            json.dump({'programs': programs,
                       'differing': {p: [list(u) for u in v] for p, v in differing.items()}},
                      f, indent=1)


if __name__ == '__main__':
    main()
