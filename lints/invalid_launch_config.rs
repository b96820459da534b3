use super::support::snippet;
use crate::lint::LintContext;
use crate::model::Model;

crate::declare_lint!(
    INVALID_LAUNCH_CONFIG,
    "invalid-launch-config",
    Launch,
    Error,
    "launch with more than 1024 threads per block, an empty grid or block, or too much shared memory",
    check
);

/// Dynamic shared memory one block may request (227 KiB on the largest current GPUs).
const MAX_SHARED_BYTES: i128 = 227 * 1024;

fn check(model: &Model, cx: &mut LintContext) {
    for host in &model.host.functions {
        for launch in &host.launches {
            let kernel = &launch.kernel;
            let problem = if let (Some(block), Some(node)) = (launch.block, launch.block_node) {
                if block.any_zero() {
                    Some((node, format!("`{kernel}` is launched with a block of `{}` = 0 threads, so the launch fails and the kernel never runs", snippet(model, node)), "use a block of 32 to 1024 threads"))
                } else if block.product().is_some_and(|p| p > 1024)
                    || block.z.is_some_and(|z| z > 64)
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
            }
        }
    }
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
        ];
        let fail = [
            "void f(float* d) { k<<<1, 2048>>>(d); }",
            "void f(float* d) { dim3 b(32, 64); k<<<1, b>>>(d); }",
            "void f(float* d) { k<<<0, 256>>>(d); }",
            "void f(float* d) { k<<<1, 256, 256 * 1024>>>(d); }",
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
