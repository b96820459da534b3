use super::support::snippet;
use crate::lint::LintContext;
use crate::model::launch::limits::{self, MAX_BLOCK_THREADS, MAX_GRID_YZ};
use crate::model::Model;

crate::declare_lint!(
    INVALID_LAUNCH_CONFIG,
    "invalid-launch-config",
    Launch,
    Error,
    "launch with more than 1024 threads per block, an empty grid or block, too much shared memory, or an unclamped size in grid y/z or a block dimension",
    check
);

/// Dynamic shared memory one block may request (227 KiB on the largest current GPUs).
const MAX_SHARED_BYTES: i128 = 227 * 1024;

fn check(model: &Model, cx: &mut LintContext) {
    let mut reported = std::collections::HashSet::new();
    for host in &model.host.functions {
        for launch in &host.launches {
            let kernel = &launch.kernel;
            let problem = if let (Some(block), Some(node)) = (launch.block, launch.block_node) {
                if block.any_zero() {
                    Some((node, format!("`{kernel}` is launched with a block of `{}` = 0 threads, so the launch fails and the kernel never runs", snippet(model, node)), "use a block of 32 to 1024 threads"))
                } else if (block.product().is_some_and(|p| p > 1024)
                    || block.z.is_some_and(|z| z > 64))
                    && !block_tested_within_limit(model, host.function_index, launch.call, node)
                {
                    let threads = block
                        .product()
                        .map(|p| p.to_string())
                        .unwrap_or_else(|| "too many".into());
                    Some((node, format!("`{kernel}` is launched with a block of `{}` = {threads} threads, more than the 1024 a block may hold, so the launch fails and the kernel never runs", snippet(model, node)), "use at most 1024 threads per block and more blocks"))
                } else {
                    None
                }
            } else {
                None
            };
            let problem = problem.or_else(|| {
                let (grid, node) = (launch.grid?, launch.grid_node?);
                grid.any_zero().then(|| (node, format!("`{kernel}` is launched with a grid of `{}` = 0 blocks, so the launch fails and nothing runs", snippet(model, node)), "launch at least one block (round the block count up)"))
            });
            let problem = problem.or_else(|| {
                let (shared, node) = (launch.shared_bytes?, launch.shared_node?);
                (shared > MAX_SHARED_BYTES).then(|| (node, format!("`{kernel}` requests `{}` = {shared} bytes of dynamic shared memory, more than the 227 KiB a block may use, so the launch fails", snippet(model, node)), "use less shared memory per block (smaller tiles)"))
            });
            if let Some((node, message, help)) = problem {
                cx.report(
                    cx.diagnostic(node.byte_range(), message)
                        .with_label(launch.call.byte_range(), "this launch")
                        .with_help(help),
                );
                continue;
            }
            let Some(function) = model.functions.get(host.function_index) else {
                continue;
            };
            let dimensions = limits::unbounded_dimensions(
                function.body,
                model.source,
                model,
                launch.call,
                launch.grid_node,
                launch.block_node,
            );
            // one finding per launch, the first dimension that can overflow; one per value when
            // launches share a configuration
            let Some(dimension) = dimensions.first() else {
                continue;
            };
            if !reported.insert(dimension.value.byte_range().start) {
                continue;
            }
            {
                let axis = ["x", "y", "z"][dimension.axis.min(2)];
                let (what, limit, help) = if dimension.block {
                    (
                        format!("block `{axis}`"),
                        format!("{MAX_BLOCK_THREADS} threads"),
                        "launch a fixed block (256 threads) and loop over the size, or cap it with `min(...)`",
                    )
                } else {
                    (
                        format!("grid `{axis}`"),
                        format!("{MAX_GRID_YZ} blocks"),
                        "put the unbounded size on grid `x` (up to 2^31-1 blocks), or cap the grid and loop over the rest",
                    )
                };
                let value = snippet(model, dimension.value);
                let message = format!(
                    "`{kernel}` is launched with {what} = `{value}`, the size `{}` with no clamp; {what} holds at most {limit}, so a large input fails the launch",
                    dimension.name
                );
                let mut diagnostic = cx
                    .diagnostic(dimension.value.byte_range(), message)
                    .with_label(launch.call.byte_range(), "this launch");
                let (size, value) = (dimension.size.byte_range(), dimension.value.byte_range());
                if size != value {
                    let within = value.start <= size.start && size.end <= value.end;
                    diagnostic = diagnostic.with_label(
                        size,
                        if within {
                            format!("`{}` grows with the input", dimension.name)
                        } else {
                            format!("`{}` is defined here, unbounded", dimension.name)
                        },
                    );
                }
                if let Some(divisor) = dimension.divisor {
                    diagnostic = diagnostic.with_label(
                        divisor.byte_range(),
                        format!("`{}` can be 1", snippet(model, divisor)),
                    );
                }
                cx.report(diagnostic.with_help(help));
            }
        }
    }
}

/// `if (K < 1024) k<<<K, K>>>`: the launch runs only where its block passes the test, so a
/// constant `K` past the limit makes the branch dead, not the launch invalid.
fn block_tested_within_limit(
    model: &Model,
    function_index: usize,
    call: tree_sitter::Node,
    block: tree_sitter::Node,
) -> bool {
    model.functions.get(function_index).is_some_and(|function| {
        limits::tested_within(
            function.body,
            model.source,
            model,
            call,
            block,
            MAX_BLOCK_THREADS,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::INVALID_LAUNCH_CONFIG;
    use crate::testing::assert_cases;

    const KERNEL: &str = "__global__ void k(float* out) { out[threadIdx.x] = 1; }\n";

    #[test]
    fn cases() {
        let pass = [
            "void f(float* d) { k<<<4, 1024>>>(d); }",
            "void f(float* d, int argc) { const int t = argc > 1 ? 4096 : 2048; k<<<1, t>>>(d); }",
            "void f(float* d) { dim3 b(32, 32); k<<<1, b>>>(d); }",
            "void f(float* d) { k<<<1, 256, 48 * 1024>>>(d); }",
            // a branch its own test keeps from running with the constant block
            "#define K 2701\nvoid f(float* d) { if (K < 1024) k<<<K, K>>>(d); else k<<<(K + 255) / 256, 256>>>(d); }",
            // a block assigned on the path that tests it
            "void f(float* d, int nnz, int block = 1024) { int g = 1; if (nnz < 1024) block = nnz; else g = (nnz + block - 1) / block; k<<<g, block>>>(d); }",
            // a batch or heads on grid y is small by design
            "void f(float* d, int n, int batch, int heads) { dim3 g((n + 255) / 256, batch, heads); k<<<g, 256>>>(d); }",
            // rows capped, or on grid x
            "void f(float* d, int rows) { dim3 g(1, min(rows, 65535)); k<<<g, 256>>>(d); }",
            "void f(float* d, int num_rows) { k<<<num_rows, 256>>>(d); }",
            "void f(float* d, int rows) { if (rows > 65535) return; dim3 g(1, rows); k<<<g, 256>>>(d); }",
            // a sequence length on grid x, the batch on y
            "void f(float* d, int batch_size, int heads, int seq_len) { dim3 g(heads * seq_len, batch_size); k<<<g, 128>>>(d); }",
            // a size the launch's path bounds by a constant
            "void f(float* d, int batch, int seq_len) { if (seq_len <= 1024) { dim3 g(batch, seq_len); k<<<g, 128>>>(d); } }",
            "void f(float* d, int batch, int seq_len) { if (seq_len > 4096) throw 1; dim3 g(batch, seq_len); k<<<g, 128>>>(d); }",
            "void f(float* d, int batch, int heads, int seq_len) { assert(seq_len < 512); dim3 g(batch, heads * seq_len); k<<<g, 128>>>(d); }",
            // capped with a named limit
            "#define MAX_GRID_Y 65535\nvoid f(float* d, int b, int num_rows) { dim3 g(b, min(num_rows, MAX_GRID_Y)); k<<<g, 128>>>(d); }",
            // a divisor that never reaches 1, or one that may grow with the size
            "void f(float* d, int b, int num_rows, int rows_per_block) { dim3 g(b, num_rows / rows_per_block); k<<<g, 128>>>(d); }",
            // a grid built by a helper: not read
            "dim3 grid_for(int, int); void f(float* d, int b, int seq_len) { dim3 g = grid_for(b, seq_len); k<<<g, 128>>>(d); }",
            // the declaration each launch sees, in its own branch
            "void f(float* d, int b, int seq_len) { if (seq_len > 64) { dim3 g(seq_len, b); k<<<g, 128>>>(d); } else { dim3 g(b, 1); k<<<g, 128>>>(d); } }",
            // rows of an output map computed from the image's height
            "void f(float* d, int b, int padded_height, int padded_width, int r) { int out_rows = padded_height - 2 * r; int out_cols = padded_width - 2 * r; dim3 g(out_cols, out_rows, b); k<<<g, 32>>>(d); }",
            // a configured cap per item, not a count of the input
            "void f(float* d, int pillars, int max_num_points_per_pillar) { k<<<pillars, max_num_points_per_pillar>>>(d); }",
            // the block's value itself tested, or tested against the block of another launch
            "void f(float* d, Scene* s) { int targets = s->targets(); int points = s->points(); if (targets * points <= 1024) k<<<1, targets * points>>>(d); }",
            "void f(float* d, int rows, int hidden_size, int max_threads) { if (hidden_size <= max_threads) k<<<rows, hidden_size>>>(d); else k<<<rows * 2, max_threads>>>(d); }",
        ];
        let fail = [
            "void f(float* d) { k<<<1, 2048>>>(d); }",
            "void f(float* d) { dim3 b(32, 64); k<<<1, b>>>(d); }",
            "void f(float* d) { k<<<0, 256>>>(d); }",
            "void f(float* d) { k<<<1, 256, 256 * 1024>>>(d); }",
            // one block per row on grid y
            "void f(float* d, int cols, int num_rows) { dim3 g((cols + 31) / 32, num_rows); k<<<g, 32>>>(d); }",
            "void f(float* d, int rows, int hidden_size) { k<<<rows, hidden_size>>>(d); }",
            // a sequence length, alone or times the heads, on grid y or z
            "void f(float* d, int batch_size, int seq_length) { dim3 g(batch_size, seq_length); k<<<g, 128>>>(d); }",
            "void f(float* d, int batch_size, int heads, int seq_length) { dim3 g(batch_size, 3, seq_length * heads); k<<<g, 128>>>(d); }",
            // divided by a count that is 1 for long sequences
            "void f(float* d, int batch_size, int heads, int seq_len) { int per_block = seq_len < 128 ? 128 / seq_len : 1; dim3 g(batch_size, heads * seq_len / per_block); k<<<g, 128>>>(d); }",
            // the batch times the heads
            "void f(float* d, int batch_size, int num_heads, int seq_len) { dim3 g((seq_len + 127) / 128, batch_size * num_heads); k<<<g, 128>>>(d); }",
            // a local named for what it counts, read from a tensor
            "void f(float* d, Tensor x) { int num_rows = x.size(0); dim3 g(1, num_rows); k<<<g, 128>>>(d); }",
            // a bound on a different product, or by a name no launch takes as its block
            "void f(float* d, Scene* s) { int targets = s->targets(); int points = s->points(); if (targets <= 1024) k<<<1, targets * points>>>(d); }",
            "void f(float* d, int rows, int hidden_size, int limit) { if (hidden_size <= limit) k<<<rows, hidden_size>>>(d); }",
            // a bound on another launch's path does not hold here
            "void f(float* d, int b, int seq_len) { if (seq_len <= 1024) { k<<<b, 128>>>(d); } dim3 g(b, seq_len); k<<<g, 128>>>(d); }",
            // the declaration this launch sees, in its branch
            "void f(float* d, int b, int seq_len) { if (seq_len > 64) { dim3 g(b, seq_len); k<<<g, 128>>>(d); } else { dim3 g(seq_len, b); k<<<g, 128>>>(d); } }",
            // a test of another size, or a test the constant passes, leaves the block too large
            "#define K 2701\nvoid f(float* d, int n) { if (n < 1024) k<<<K, K>>>(d); }",
            "#define K 2701\nvoid f(float* d) { if (K < 4096) k<<<1, K>>>(d); }",
            // a block assigned on a path that tests something else
            "void f(float* d, int nnz, int block = 1024) { if (nnz > 0) block = nnz; k<<<1, block>>>(d); }",
        ];
        let pass: Vec<String> = pass.iter().map(|c| format!("{KERNEL}{c}")).collect();
        let fail: Vec<String> = fail.iter().map(|c| format!("{KERNEL}{c}")).collect();
        assert_cases(
            &INVALID_LAUNCH_CONFIG,
            &pass.iter().map(String::as_str).collect::<Vec<_>>(),
            &fail.iter().map(String::as_str).collect::<Vec<_>>(),
        );
    }
}
