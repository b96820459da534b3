#!/usr/bin/env python3
"""Write the HIP twin of every CUDA fixture: testdata/{bad,clean}/* and kernels/<rule>/*.cu become
testdata/hip/{bad,clean}/* and testdata/hip/kernels/<rule>/*.cu.

Usage: python3 scripts/hipify-fixtures.py [--check]

The renaming is the one hipify does, line for line (a twin has the lines of its original, so the
`// expect:` comments stay where they were): `#include <cuda_runtime.h>` becomes
`#include <hip/hip_runtime.h>`, every CUDA runtime name its HIP name (`cudaMalloc` -> `hipMalloc`,
`cudaHostAlloc` -> `hipHostMalloc`, `cudaError_t` -> `hipError_t`), `CUDA_CHECK` -> `HIP_CHECK`,
`cuda_check.h` -> `hip_check.h`. A finding that depends on the warp's width changes where the
wavefront of 64 lanes puts two threads in one warp (`WAVEFRONT`, marked `// wavefront:`). In about half
of the files (chosen by a checksum of the path, so adding a fixture rewrites no other twin) the launches written on one
line as a statement, `k<<<g, b>>>(args);`, become `hipLaunchKernelGGL(k, g, b, 0, 0, args);`
(`HIP_KERNEL_NAME(k<T>)` for a template), so both launch forms are covered. Files that use
PyTorch's CUDA headers or cuBLAS are left out: their HIP builds go through other headers.

`--check` writes nothing and fails when a twin is missing or differs from what the script writes.
"""
import os
import re
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, 'testdata', 'hip')

SPELLED_APART = {
    'cudaHostAlloc': 'hipHostMalloc',
    'cudaMallocHost': 'hipHostMalloc',
    'cudaFreeHost': 'hipHostFree',
    'cudaHostAllocDefault': 'hipHostMallocDefault',
    'cudaHostAllocPortable': 'hipHostMallocPortable',
    'cudaHostAllocMapped': 'hipHostMallocMapped',
    'cudaHostAllocWriteCombined': 'hipHostMallocWriteCombined',
}
# findings that change with the warp: HIP's wavefront holds 64 lanes, so two threads 32 apart
# share one; (fixture, text of the line): (its CUDA expectation, its HIP expectation)
WAVEFRONT = {
    ('bad/shared_memory_race.cu', 's[t] += s[t + w];'): (
        '// expect: shared-memory-race',
        '// expect: warp-synchronous-without-sync // wavefront: threads 0 and 32 share one'),
}
# what HIP builds of such code include instead; fixtures with these are not twinned
SKIPPED_INCLUDES = ('ATen/cuda', 'torch/extension.h', 'cublas_v2.h', 'curand_kernel.h')
# fixtures of rules that speak of CUDA only: in HIP `__shfl_down` and `__ballot` are the warp
# intrinsics, not legacy ones
CUDA_ONLY = ('legacy_warp_intrinsic.cu', os.path.join('legacy-warp-intrinsic', ''))


def sources():
    for folder in ('bad', 'clean'):
        for name in sorted(os.listdir(os.path.join(ROOT, 'testdata', folder))):
            if name.endswith(('.cu', '.cuh', '.h')):
                yield os.path.join('testdata', folder, name), os.path.join(folder, name)
    kernels = os.path.join(ROOT, 'kernels')
    for rule in sorted(os.listdir(kernels)):
        if os.path.isdir(os.path.join(kernels, rule)):
            for name in sorted(os.listdir(os.path.join(kernels, rule))):
                if name.endswith('.cu'):
                    yield os.path.join('kernels', rule, name), os.path.join('kernels', rule, name)


def rename(line):
    line = re.sub(r'#include\s*<cuda_runtime\.h>', '#include <hip/hip_runtime.h>', line)
    line = re.sub(r'#include\s*<cuda_fp16\.h>', '#include <hip/hip_fp16.h>', line)
    line = re.sub(r'#include\s*<cooperative_groups\.h>',
                  '#include <hip/hip_cooperative_groups.h>', line)
    line = line.replace('cuda_check.h', 'hip_check.h')

    def runtime_name(match):
        name = match.group(0)
        return SPELLED_APART.get(name, 'hip' + name[4:])
    line = re.sub(r'\bcuda[A-Z]\w*', runtime_name, line)
    line = re.sub(r'\bCUDA_CHECK\b', 'HIP_CHECK', line)
    line = re.sub(r'\bCUDA_(SAFE_CALL|CALL|TRY)\b', r'HIP_\1', line)
    return line


LAUNCH = re.compile(r'^(\s*)([A-Za-z_][\w:]*)(<[^<>]*>)?\s*<<<(.*?)>>>\s*\((.*)\)\s*;(.*)$')


def balanced(text):
    depth = 0
    for c in text:
        depth += c in '([{'
        depth -= c in ')]}'
        if depth < 0:
            return False
    return depth == 0


def split_top(text):
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c in '([{<'
        depth -= c in ')]}>'
        if c == ',' and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def to_macro_launch(line):
    match = LAUNCH.match(line)
    if not match:
        return line
    indent, kernel, template, config, args, rest = match.groups()
    config_parts = split_top(config)
    if not balanced(args) or not 2 <= len(config_parts) <= 4:
        return line
    config_parts += ['0', '0'][len(config_parts) - 2:]
    name = f'HIP_KERNEL_NAME({kernel}{template})' if template else kernel
    arguments = ', '.join([name] + config_parts + ([args.strip()] if args.strip() else []))
    return f'{indent}hipLaunchKernelGGL({arguments});{rest}'


def hipify(text, macro_launches, target):
    lines = text.split('\n')
    out = []
    for line in lines:
        for (fixture, code), (cuda, hip) in WAVEFRONT.items():
            if fixture == target and code in line:
                line = line.replace(cuda, hip)
        line = rename(line)
        if macro_launches and '<<<' in line:
            line = to_macro_launch(line)
        out.append(line)
    return '\n'.join(out)


def main():
    check = '--check' in sys.argv
    problems = []
    written = 0
    for source, target in sources():
        with open(os.path.join(ROOT, source)) as f:
            text = f.read()
        if any(include in text for include in SKIPPED_INCLUDES) or any(
            part in source for part in CUDA_ONLY
        ):
            continue
        target = target.replace('cuda_check.h', 'hip_check.h')
        twin = hipify(text, zlib.crc32(source.encode()) % 2 == 1, target)
        path = os.path.join(OUT, target)
        if check:
            try:
                with open(path) as f:
                    if f.read() != twin:
                        problems.append(f'{path} differs from its generated twin')
            except OSError:
                problems.append(f'{path} missing')
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(twin)
        written += 1
    if problems:
        sys.exit('\n'.join(problems))
    if not check:
        print(f'{written} twins written under {os.path.relpath(OUT, ROOT)}')


if __name__ == '__main__':
    main()
