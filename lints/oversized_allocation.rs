use super::support::snippet;
use crate::lint::LintContext;
use crate::model::host::Memory;
use crate::model::Model;

crate::declare_lint!(
    OVERSIZED_ALLOCATION,
    "oversized-allocation",
    Memory,
    Error,
    "constant allocation larger than any GPU's memory",
    check
);

fn check(model: &Model, cx: &mut LintContext) {
    let limit = model.max_allocation_bytes;
    for host in &model.host.functions {
        for allocation in &host.allocations {
            if allocation.memory == Memory::Host {
                continue;
            }
            let (Some(bytes), Some(size_node)) = (
                allocation.bytes.as_ref().and_then(|b| b.as_constant()),
                allocation.size_node,
            ) else {
                continue;
            };
            if (bytes as f64) <= limit {
                continue;
            }
            let gib = bytes as f64 / (1u64 << 30) as f64;
            cx.report(
                cx.diagnostic(allocation.call.byte_range(), format!("{} asks for `{}` = {bytes} bytes ({gib:.0} GiB), more than any GPU holds (limit {:.0} GiB), so it always fails with out-of-memory", allocation.api, snippet(model, size_node), limit / (1u64 << 30) as f64))
                    .with_label(size_node.byte_range(), format!("{gib:.0} GiB"))
                    .with_help("check the dimensions (a unit or an extra factor is likely wrong), or process the data in chunks"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::OVERSIZED_ALLOCATION;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &OVERSIZED_ALLOCATION,
            &["void f() { float* d; cudaMalloc(&d, 16ULL << 30); }", "void f(size_t n) { float* d; cudaMalloc(&d, n * 1024 * 1024 * 1024); }"],
            &["void f() { float* d; cudaMalloc(&d, (size_t)1 << 40); }", "void f() { const size_t b = 400ULL * 1024 * 1024 * 1024; char* d; cudaMalloc(&d, b); }"],
        );
    }
}
