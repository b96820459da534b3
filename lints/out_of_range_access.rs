use super::support::{snippet, verb};
use crate::lint::LintContext;
use crate::model::{IndexStatus, Model};

crate::declare_lint!(
    OUT_OF_RANGE_ACCESS,
    "out-of-range-access",
    Kernel,
    Error,
    "access reached only when its index is out of range, or under a guard that admits the bound",
    check,
    verifiable = true
);

fn check(model: &Model, cx: &mut LintContext) {
    for (_, facts) in model.kernel_facts() {
        for access in &facts.accesses {
            let IndexStatus::OutOfRange {
                guard,
                admits_bound,
            } = &access.status
            else {
                continue;
            };
            let guard_text = snippet(model, *guard);
            let access_text = snippet(model, access.node);
            let index_text = snippet(model, access.index);
            let diagnostic = if *admits_bound {
                cx.diagnostic(
                    access.node.byte_range(),
                    format!("`{access_text}` {} `{}` under `{guard_text}`, which lets `{index_text}` reach the bound itself, one element past the end", verb(access), access.pointer),
                )
                .with_label(guard.byte_range(), "`<=` admits the bound")
                .with_help("compare with `<` so the last index is the bound minus one")
            } else {
                cx.diagnostic(
                    access.node.byte_range(),
                    format!("`{access_text}` {} `{}` only when `{index_text}` is out of range, so every thread that reaches it accesses memory past the buffer", verb(access), access.pointer),
                )
                .with_label(guard.byte_range(), format!("`{index_text}` is out of range whenever this branch runs"))
                .with_help("move the access into the in-range branch, or drop it from the out-of-range path")
            };
            cx.report(diagnostic);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::OUT_OF_RANGE_ACCESS;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &OUT_OF_RANGE_ACCESS,
            &[
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = 1; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i > 0 && i < n) o[i] = o[i - 1]; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) { o[i - n] = 0; } }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i <= n - 1) o[i] = 1; }",
                "__global__ void k(float* o, int n, int m) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { if (i >= m) o[i] = 0; } }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; const bool valid = i < n; if (valid) o[i] = 1; }",
            ],
            &[
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n || i < 0) { o[i] = 0; } }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { o[i] = 1; } else { o[i] = 0; } }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i <= n) o[i] = 1; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i > n) o[i] = 1; }",
                // tests kept in flags
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; const bool valid = i <= n; if (valid) o[i] = 1; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; bool past = i >= n; if (past) o[i] = 0; }",
            ],
        );
    }
}
