#!/usr/bin/env bash
# The GPU half of the --verify tests, in one go: every verifiable finding of the fixtures run with
# --verify, every kernel of kernels/ and testdata/clean/ run instrumented (good code must stay
# clean), timings, and the cross-check of the bad reproductions under compute-sanitizer.
# When a sample of real files is present (SAMPLE, default target/verify-sample, as
# scripts/verify-sample.py writes it), --verify also runs over its files.txt: the share of kernel
# findings on real code that reach a verdict, and the per-kernel times.
# Usage: scripts/verify-gpu.sh BINARY OUTDIR (run from a tree holding kernels/ and testdata/).
set -u
BIN=${1:?binary}
OUT=${2:?output directory}
mkdir -p "$OUT"
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi >/dev/null 2>&1; then
    echo "skipped: no GPU" >&2
    exit 0
fi
export PATH=/usr/local/cuda/bin:$PATH
# NVRTC: the toolkit's library directory, and an unversioned name for the loader to find.
NVRTC=$(ldconfig -p | grep -o '/[^ ]*libnvrtc\.so[.0-9]*$' | head -1)
[ -z "$NVRTC" ] && NVRTC=$(find / -xdev -name 'libnvrtc.so*' ! -name '*builtins*' 2>/dev/null | head -1)
mkdir -p /tmp/cudalint-lib && [ -n "$NVRTC" ] && ln -sf "$NVRTC" /tmp/cudalint-lib/libnvrtc.so
export LD_LIBRARY_PATH=/tmp/cudalint-lib:$(dirname "${NVRTC:-/usr/local/cuda/lib64/x}"):/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
{
    echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | sed 's/^/gpu: /'
    nvcc --version | tail -2 | head -1 | sed 's/^/nvcc: /'
    echo "nvrtc: $NVRTC"
} > "$OUT/env.txt"
cat "$OUT/env.txt"

# Cold: the first run on a freshly started machine (NVRTC's library not yet in the page cache).
# Warm: the same command again.
for run in cold warm; do
    echo "== cudalint check --verify testdata kernels ($run)"
    start=$(date +%s%N)
    "$BIN" check --verify --format json --verify-timings "$OUT/timings-$run.json" testdata kernels > "$OUT/verify-$run.json" 2> "$OUT/verify-stderr-$run.txt"
    rc=$?
    end=$(date +%s%N)
    echo "exit $rc, wall $(( (end - start) / 1000000 )) ms" | tee -a "$OUT/verify-stderr-$run.txt"
    cat "$OUT/verify-stderr-$run.txt"
    rm -f "$OUT/verify-stderr-$run.txt"
done
mv "$OUT/verify-warm.json" "$OUT/verify.json"
rm -f "$OUT/verify-cold.json"
# NVRTC's own phase times (front end, optimizer, PTX translation) per program, warm cache.
CUDALINT_NVRTC_OPTIONS="--time=$OUT/nvrtc-phases.csv" "$BIN" check --verify --format json testdata kernels > /dev/null 2>&1
echo "NVRTC phases (warm), ms per program:"
for phase in "CUDA C++ Frontend" "NVVM Optimizer" "PTX Translation"; do
    echo "  $phase: $(grep "$phase" "$OUT/nvrtc-phases.csv" 2>/dev/null | awk -F', ' '{printf "%s ", $3}')"
done
rm -f "$OUT/nvrtc-phases.csv"

SAMPLE=${SAMPLE:-target/verify-sample}
if [ -f "$SAMPLE/files.txt" ]; then
    echo "== cudalint check --verify on the real-code sample ($(wc -l < "$SAMPLE/files.txt") files)"
    start=$(date +%s%N)
    timeout 300 "$BIN" check --verify --verify-timeout 3 --format json --verify-timings "$OUT/timings-real.json" $(cat "$SAMPLE/files.txt") > "$OUT/verify-real.json" 2> "$OUT/verify-real-stderr.txt"
    rc=$?
    end=$(date +%s%N)
    echo "exit $rc, wall $(( (end - start) / 1000000 )) ms"
    tail -5 "$OUT/verify-real-stderr.txt"
fi

echo "== every kernel instrumented (verify-file)"
"$BIN" verify-file kernels/*/good.cu kernels/*/bad.cu testdata/clean/*.cu testdata/bad/*.cu testdata/seeds/*.cu > "$OUT/probe.txt" 2>&1
echo "exit $?"; grep -c "clean in" "$OUT/probe.txt"; grep -v "clean in" "$OUT/probe.txt" | cut -c1-300 | head -40

echo "== compute-sanitizer on kernels/*/{bad,good}.cu"
mkdir -p /tmp/cudalint-san
build_one() {
    dir=$(dirname "$1"); rule=$(basename "$dir"); kind=$(basename "$1" .cu)
    nvcc -arch=native -lineinfo -o "/tmp/cudalint-san/$rule-$kind" "$1" > "/tmp/cudalint-san/$rule-$kind.build" 2>&1 || echo "build failed" >> "/tmp/cudalint-san/$rule-$kind.build"
}
export -f build_one
ls kernels/*/bad.cu kernels/*/good.cu | xargs -P 16 -I{} bash -c 'build_one {}'
check_one() {
    exe=$1; tool=$2
    [ -x "$exe" ] || { echo "$(basename "$exe") $tool: not built"; return; }
    log="$exe.$tool.log"
    timeout 60 compute-sanitizer --tool "$tool" --error-exitcode 99 "$exe" > "$log" 2>&1
    code=$?
    summary=$(grep -o 'ERROR SUMMARY: [0-9]* error' "$log" | head -1)
    first=$(grep -m1 -E '^========= (Invalid|Uninitialized|Program hit|Address|Leaked|Malloc|Cuda API error|Unused|Race|Barrier)' "$log" | sed 's/^========= //' | cut -c1-110)
    echo "$(basename "$exe") $tool: exit $code; $summary; $first"
}
export -f check_one
{
    for exe in /tmp/cudalint-san/*-bad /tmp/cudalint-san/*-good; do
        for tool in memcheck initcheck; do echo "$exe $tool"; done
    done
    # Barriers: synccheck on the divergent-barrier reproductions.
    for exe in /tmp/cudalint-san/divergent-barrier-bad /tmp/cudalint-san/divergent-barrier-good; do
        echo "$exe synccheck"
    done
} | xargs -P 8 -L 1 bash -c 'check_one $0 $1' | sort > "$OUT/sanitizer.txt"
cat "$OUT/sanitizer.txt"
