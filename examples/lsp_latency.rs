//! Latency of `cudalint lsp`: didChange → publishDiagnostics on a 5,000-line file, over 100 edits.
//!
//!     cargo build --release && cargo run --release --example lsp_latency -- target/release/cudalint
//!
//! Each edit types or deletes one character in a kernel in the middle of the file (as a keystroke
//! does) and waits for the diagnostics of that version before the next.

#[path = "../tests/support/lsp_client.rs"]
mod lsp_client;

use lsp_client::Client;
use serde_json::json;
use std::time::Instant;

const EDITS: usize = 100;
const WARMUP: usize = 5;

fn kernel_block(index: usize) -> String {
    // One block in ten has a finding, so the diagnostics of unchanged kernels below the edit
    // move with it.
    let unguarded = if index % 10 == 3 {
        "    out[i] = in[i];\n"
    } else {
        ""
    };
    format!(
        r#"// Block {index}: a kernel, a device helper and its launch.
__device__ float scale_{index}(float x, float factor) {{
    return x * factor + 0.5f;
}}

__global__ void kernel_{index}(float* out, const float* in, int n, float factor) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {{
        float value = in[i];
        for (int k = 0; k < 4; ++k) {{
            value = scale_{index}(value, factor);
        }}
        out[i] = value;
    }}
{unguarded}}}

void launch_{index}(float* d_out, const float* d_in, int n) {{
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    kernel_{index}<<<blocks, threads>>>(d_out, d_in, n, 2.0f);
    cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) {{
        return;
    }}
}}

"#
    )
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn main() {
    let binary = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/release/cudalint".into());
    let mut text = String::from("#include <cuda_runtime.h>\n\n");
    let mut index = 0;
    while text.lines().count() < 5000 {
        text.push_str(&kernel_block(index));
        index += 1;
    }
    let lines = text.lines().count();
    let dir = std::env::temp_dir().join(format!("cudalint-latency-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let uri = format!("file://{}/big.cu", dir.display());
    let (mut client, _) = Client::initialized(&binary, &dir.display().to_string(), false);
    client.open(&uri, &text);
    let initial = client.diagnostics(&uri, 1).len();

    // The line `out[i] = value;` of the middle kernel: type a character after `value`, then delete it.
    let target = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == "out[i] = value;")
        .map(|(n, _)| n)
        .nth(index / 2)
        .unwrap_or(0);
    let column = text
        .lines()
        .nth(target)
        .and_then(|l| l.find(';'))
        .unwrap_or(0);
    let mut samples = Vec::new();
    for edit in 0..WARMUP + EDITS {
        let version = edit as i64 + 2;
        let change = if edit % 2 == 0 {
            json!({"range": {"start": {"line": target, "character": column}, "end": {"line": target, "character": column}}, "text": "2"})
        } else {
            json!({"range": {"start": {"line": target, "character": column}, "end": {"line": target, "character": column + 1}}, "text": ""})
        };
        let started = Instant::now();
        client.change(&uri, version, json!([change]));
        client.diagnostics(&uri, version);
        if edit >= WARMUP {
            samples.push(started.elapsed().as_secs_f64() * 1000.0);
        }
    }
    let _ = client.shutdown();
    let _ = std::fs::remove_dir_all(&dir);
    samples.sort_by(|a, b| a.total_cmp(b));
    println!(
        "file: {lines} lines, {} bytes, {initial} findings",
        text.len()
    );
    println!(
        "didChange -> publishDiagnostics over {EDITS} edits: p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        percentile(&samples, 50.0),
        percentile(&samples, 95.0),
        samples.last().copied().unwrap_or(0.0)
    );
}
