//! Lint throughput against bare tree-sitter parsing of the same files, in the same run.
//!
//!     cargo bench --bench throughput                 # a generated corpus (deterministic, ~330k lines)
//!     cargo bench --bench throughput -- DIR [DIR..]  # any directories of .cu/.cuh files
//!
//! Prints files, lines, MB/s of both and their ratio, and the peak resident memory. Parse and
//! lint are measured back to back in rounds (`BENCH_ROUNDS`, default 3); the round with the
//! median ratio is the result.

use cudalint::config::Settings;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn main() {
    // as the command does
    cudalint::keep_freed_memory();
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let corpus_dir;
    let roots: Vec<PathBuf> = if args.is_empty() {
        corpus_dir = std::env::temp_dir().join("cudalint-bench-corpus");
        let lines = generate_corpus(&corpus_dir, 330_000);
        eprintln!("generated {} lines in {}", lines, corpus_dir.display());
        vec![corpus_dir.clone()]
    } else {
        args.iter().map(PathBuf::from).collect()
    };
    let files = collect(&roots);
    let texts: Vec<(PathBuf, String)> = files
        .into_iter()
        .filter_map(|p| {
            cudalint::engine::read_source_lossy(&p)
                .ok()
                .map(|(t, _)| (p, t))
        })
        .collect();
    let bytes: usize = texts.iter().map(|(_, t)| t.len()).sum();
    let lines: usize = texts.iter().map(|(_, t)| t.lines().count()).sum();
    let threads = rayon::current_num_threads();

    // warm-up, so both measurements see the same caches
    texts.par_iter().for_each(|(_, t)| {
        let _ = cudalint::engine::parse(t, None);
    });

    let settings = Settings::default();
    // both phases, as `cudalint check` runs them: each file on its own, then again with the
    // project index where another file answers one of its lookups
    let sources: Vec<cudalint::engine::SourceFile> = texts
        .iter()
        .map(|(path, text)| cudalint::engine::SourceFile {
            path,
            text,
            settings: &settings,
        })
        .collect();

    // Rounds of one bare parse and one lint, back to back: on a shared machine the speed drifts
    // over seconds, so each round's ratio compares two runs close in time, and the median round
    // is the figure (`BENCH_ROUNDS`, 3 by default).
    let rounds: usize = std::env::var("BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .filter(|r| *r > 0)
        .unwrap_or(3);
    let mut measured: Vec<(f64, f64)> = Vec::new();
    let mut nodes = 0;
    let mut findings = 0;
    let mut relinted = 0;
    for round in 1..=rounds {
        let start = Instant::now();
        nodes = texts
            .par_iter()
            .map(|(_, text)| {
                cudalint::engine::parse(text, None)
                    .map(|t| t.root_node().child_count())
                    .unwrap_or(0)
            })
            .sum();
        let parse_seconds = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let project = cudalint::engine::lint_project(&sources);
        findings = project.files.iter().map(|f| f.diagnostics.len()).sum();
        relinted = project.relinted;
        let lint_seconds = start.elapsed().as_secs_f64();
        println!(
            "round {round}          parse {parse_seconds:.3} s  lint {lint_seconds:.3} s  ratio {:.0}%",
            100.0 * parse_seconds / lint_seconds
        );
        measured.push((parse_seconds, lint_seconds));
    }
    measured.sort_by(|a, b| (a.0 / a.1).total_cmp(&(b.0 / b.1)));
    let (parse_seconds, lint_seconds) = measured[measured.len() / 2];

    let mb = bytes as f64 / 1e6;
    println!("files            {}", texts.len());
    println!("lines            {lines}");
    println!("bytes            {bytes} ({mb:.1} MB)");
    println!("threads          {threads}");
    println!("median round of {rounds}:");
    println!(
        "bare parse       {:.3} s  {:.1} MB/s  ({nodes} top-level nodes)",
        parse_seconds,
        mb / parse_seconds
    );
    println!(
        "cudalint lint    {:.3} s  {:.1} MB/s  ({findings} findings, {relinted} files linted again in phase 2)",
        lint_seconds,
        mb / lint_seconds,
    );
    println!(
        "ratio            {:.0}% of bare parse throughput",
        100.0 * parse_seconds / lint_seconds
    );
    println!("peak memory      {} MB (VmHWM)", peak_memory_kb() / 1024);
}

fn collect(roots: &[PathBuf]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for root in roots {
        for entry in ignore::WalkBuilder::new(root).build().flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "cu" || e == "cuh") {
                files.push(path.to_path_buf());
            }
        }
    }
    files.sort();
    files
}

fn peak_memory_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// A small deterministic generator (xorshift), so every run lints the same corpus.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

/// Writes files of realistic CUDA: kernels with and without guards, grid-stride loops, tiled
/// shared-memory code with barriers, templates, macros, `#if` blocks, host code with allocations,
/// copies, launches and error checks. Returns the number of lines written.
pub fn generate_corpus(dir: &Path, target_lines: usize) -> usize {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("create corpus dir");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut total = 0;
    let mut file_index = 0;
    while total < target_lines {
        let mut text = String::new();
        text.push_str("#include <cuda_runtime.h>\n#include <cstdio>\n#include <vector>\n\n");
        text.push_str("#define CUDA_CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { fprintf(stderr, \"%s\\n\", cudaGetErrorString(e_)); exit(1); } } while (0)\n");
        text.push_str(&format!(
            "#define BLOCK {}\n#define TILE 16\n\n",
            rng.pick(&["128", "256", "512"])
        ));
        for k in 0..(20 + rng.next() % 20) {
            let ty = rng.pick(&["float", "double", "int", "half"]);
            let n = rng.pick(&["n", "N", "size", "count", "numElements"]);
            match rng.next() % 7 {
                0 => text.push_str(&format!(
                    "__global__ void axpy_{k}({ty}* __restrict__ y, const {ty}* __restrict__ x, {ty} a, int {n}) {{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < {n}) {{\n        y[i] = a * x[i] + y[i];\n    }}\n}}\n\n"
                )),
                1 => text.push_str(&format!(
                    "__global__ void grid_stride_{k}(const {ty}* in, {ty}* out, size_t {n}) {{\n    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < {n}; i += (size_t)blockDim.x * gridDim.x) {{\n        {ty} v = in[i];\n        out[i] = v * v;\n    }}\n}}\n\n"
                )),
                2 => text.push_str(&format!(
                    "__global__ void matmul_{k}(const float* A, const float* B, float* C, int M, int K, int Nc) {{\n    __shared__ float As[TILE][TILE];\n    __shared__ float Bs[TILE][TILE];\n    int row = blockIdx.y * TILE + threadIdx.y;\n    int col = blockIdx.x * TILE + threadIdx.x;\n    float acc = 0.0f;\n    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {{\n        int ac = t * TILE + threadIdx.x;\n        int br = t * TILE + threadIdx.y;\n        As[threadIdx.y][threadIdx.x] = (row < M && ac < K) ? A[row * K + ac] : 0.0f;\n        Bs[threadIdx.y][threadIdx.x] = (br < K && col < Nc) ? B[br * Nc + col] : 0.0f;\n        __syncthreads();\n        for (int e = 0; e < TILE; ++e) acc += As[threadIdx.y][e] * Bs[e][threadIdx.x];\n        __syncthreads();\n    }}\n    if (row < M && col < Nc) C[row * Nc + col] = acc;\n}}\n\n"
                )),
                3 => text.push_str(&format!(
                    "template <typename T, int BS>\n__global__ void reduce_{k}(const T* in, T* partial, int {n}) {{\n    __shared__ T s[BS];\n    unsigned tid = threadIdx.x;\n    unsigned i = blockIdx.x * BS * 2 + threadIdx.x;\n    T v = 0;\n    if (i < {n}) v = in[i];\n    if (i + BS < {n}) v += in[i + BS];\n    s[tid] = v;\n    __syncthreads();\n    for (unsigned w = BS / 2; w > 0; w >>= 1) {{\n        if (tid < w) s[tid] += s[tid + w];\n        __syncthreads();\n    }}\n    if (tid == 0) partial[blockIdx.x] = s[0];\n}}\n\n"
                )),
                4 => text.push_str(&format!(
                    "__global__ void unguarded_{k}({ty}* data, {ty} s, int {n}) {{\n    int idx = blockIdx.x * blockDim.x + threadIdx.x;\n    data[idx] = data[idx] * s;\n}}\n\n"
                )),
                5 => text.push_str(&format!(
                    "__global__ void stencil_{k}(const float* u, float* v, int nx, int ny) {{\n    int x = blockIdx.x * blockDim.x + threadIdx.x;\n    int y = blockIdx.y * blockDim.y + threadIdx.y;\n    if (x <= 0 || y <= 0 || x >= nx - 1 || y >= ny - 1) return;\n    int c = y * nx + x;\n#if USE_FIVE_POINT\n    v[c] = 0.25f * (u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx]);\n#else\n    v[c] = u[c] + 0.1f * (u[c - 1] + u[c + 1] - 2.0f * u[c]);\n#endif\n}}\n\n"
                )),
                _ => text.push_str(&format!(
                    "void run_{k}(const std::vector<float>& h, int {n}) {{\n    float* d_in = nullptr;\n    float* d_out = nullptr;\n    size_t bytes = {n} * sizeof(float);\n    CUDA_CHECK(cudaMalloc(&d_in, bytes));\n    CUDA_CHECK(cudaMalloc(&d_out, bytes));\n    CUDA_CHECK(cudaMemcpy(d_in, h.data(), bytes, cudaMemcpyHostToDevice));\n    int blocks = ({n} + BLOCK - 1) / BLOCK;\n    grid_stride_host<<<blocks, BLOCK>>>(d_in, d_out, {n});\n    CUDA_CHECK(cudaGetLastError());\n    std::vector<float> out({n});\n    CUDA_CHECK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));\n    CUDA_CHECK(cudaFree(d_in));\n    CUDA_CHECK(cudaFree(d_out));\n}}\n\n"
                )),
            }
        }
        let lines = text.lines().count();
        total += lines;
        std::fs::write(dir.join(format!("module_{file_index:04}.cu")), text)
            .expect("write corpus file");
        file_index += 1;
    }
    total
}
