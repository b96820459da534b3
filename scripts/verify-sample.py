#!/usr/bin/env python3
"""Copies a sample of real files with kernel findings into a folder for `--verify` on a GPU.

Usage: scripts/verify-sample.py BINARY CORPUS OUTDIR [HECBENCH_FILES]
       scripts/verify-sample.py --list FILES.txt CORPUS OUTDIR

With --list, the files are those of an earlier sample's files.txt (OUTDIR/<project>/<path>, one a
line), copied again with their context: the same sample, with what a later script copies.

For each project folder of CORPUS, runs `BINARY check PROJECT --format json --exit-zero` and keeps
the .cu files with a finding of a kernel rule. Every such file of the projects other than
HeCBench is kept, and HECBENCH_FILES (default 40) of HeCBench's, evenly spread over its sorted list.
Each kept file is copied with the sources of its own folder and of the `include/` or `includes/`
folders of it and its parents (for quoted includes), with its folder's `Makefile` and
`CMakeLists.txt` and the folders their `-I` flags and `include_directories` name (the build
context `--verify` reads), to OUTDIR/<project>/<path>; OUTDIR/files.txt lists the kept files. The copies are for local runs only: OUTDIR must be an ignored folder (target/...).
"""
import json
import os
import re
import shutil
import subprocess
import sys

KERNEL_RULES = {"unguarded-thread-index", "out-of-range-access", "divergent-barrier"}
SOURCES = (".cu", ".cuh", ".h", ".hpp", ".hh", ".inc", ".inl")
MAX_BYTES = 1 << 20

corpus, out = sys.argv[2], sys.argv[3]
listed = None
if sys.argv[1] == "--list":
    corpus, out = sys.argv[3], sys.argv[4]
    with open(sys.argv[2]) as listing:
        listed = [line.strip() for line in listing if line.strip()]
binary = None if listed is not None else os.path.abspath(sys.argv[1])
hecbench_files = int(sys.argv[4]) if listed is None and len(sys.argv) > 4 else 40
kept = []
for line in listed or []:
    # OUTDIR/<project>/<path>: the project is the first folder after the old OUTDIR
    parts = os.path.normpath(line).split(os.sep)
    for at in range(len(parts) - 1):
        if os.path.isfile(os.path.join(corpus, *parts[at:])):
            kept.append((parts[at], os.path.join(*parts[at + 1:])))
            break
for project in sorted(os.listdir(corpus)) if listed is None else []:
    root = os.path.join(corpus, project)
    if not os.path.isdir(root):
        continue
    proc = subprocess.run([binary, "check", ".", "--format", "json", "--exit-zero", "--no-cache"],
                          cwd=root, capture_output=True)
    try:
        diagnostics = json.loads(proc.stdout).get("diagnostics", [])
    except json.JSONDecodeError:
        continue
    files = sorted({d["path"] for d in diagnostics
                    if d["rule"] in KERNEL_RULES and d["path"].endswith(".cu")})
    if project == "hecbench" and len(files) > hecbench_files:
        step = len(files) / hecbench_files
        files = [files[int(i * step)] for i in range(hecbench_files)]
    for path in files:
        kept.append((project, os.path.normpath(path)))


def copy_folder(project, folder):
    source = os.path.join(corpus, project, folder)
    if not os.path.isdir(source):
        return
    target = os.path.join(out, project, folder)
    os.makedirs(target, exist_ok=True)
    for name in os.listdir(source):
        path = os.path.join(source, name)
        if name.endswith(SOURCES) and os.path.isfile(path) and os.path.getsize(path) <= MAX_BYTES:
            shutil.copy2(path, os.path.join(target, name))


def expand_variables(text):
    """A Makefile's text with `$(NAME)` and `${NAME}` of plain assignments (`NAME = value`,
    `NAME := value`) replaced by their values, as `--verify` reads the build context."""
    values = {}
    for line in text.splitlines():
        match = re.match(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:?=\s*(.*?)\s*$", line)
        if match and "$" not in match.group(2):
            values[match.group(1)] = match.group(2)
    return re.sub(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]",
                  lambda m: values.get(m.group(1), m.group(0)), text)


def build_file_folders(project, folder):
    """The folders a build file of `folder` adds to the include path, inside the project."""
    named = []
    for build_file, pattern in (("Makefile", r"-I[ \t]*([^\s$]+)"),
                                ("CMakeLists.txt", r"include_directories\(([^)$]*)\)")):
        path = os.path.join(corpus, project, folder, build_file)
        if not os.path.isfile(path):
            continue
        shutil.copy2(path, os.path.join(out, project, folder, build_file))
        with open(path, errors="replace") as f:
            text = f.read()
        if build_file == "Makefile":
            text = expand_variables(text)
        for match in re.finditer(pattern, text):
            for word in match.group(1).split():
                if word in ("PUBLIC", "PRIVATE", "INTERFACE", "SYSTEM"):
                    continue
                word = word.strip('"').replace("${CMAKE_CURRENT_SOURCE_DIR}/", "")
                target = os.path.normpath(os.path.join(folder, word))
                if not target.startswith(".."):
                    named.append(target)
    return named


shutil.rmtree(out, ignore_errors=True)
for project, path in kept:
    folder = os.path.dirname(path)
    copy_folder(project, folder)
    for named in build_file_folders(project, folder):
        copy_folder(project, named)
    # The header folders the quoted-include search looks in: `include/` or `includes/` of the
    # file's folder and of up to three folders above it.
    above = folder
    for _ in range(4):
        for headers in ("include", "includes"):
            copy_folder(project, os.path.join(above, headers))
        if not above:
            break
        above = os.path.dirname(above)
with open(os.path.join(out, "files.txt"), "w") as listing:
    for project, path in kept:
        listing.write(os.path.join(out, project, path) + "\n")
print(f"{len(kept)} files from {len({p for p, _ in kept})} projects in {out}")
