use super::support::snippet;
use crate::lint::LintContext;
use crate::model::Model;

crate::declare_lint!(
    THREAD_INDEX_OVERFLOW,
    "thread-index-overflow",
    Kernel,
    Warning,
    "thread index computed in 32-bit arithmetic compared with a 64-bit element count",
    check
);

/// Where a 32-bit variable of this type overflows: 2^32 unsigned (`auto` holds the `unsigned
/// int` product), 2^31 signed.
fn exponent(type_text: &str) -> u32 {
    if type_text.contains("unsigned") || type_text.contains("uint") || type_text.contains("auto") {
        32
    } else {
        31
    }
}

fn check(model: &Model, cx: &mut LintContext) {
    for (_, facts) in model.kernel_facts() {
        for index in &facts.narrow_indices {
            let product = snippet(model, index.product);
            let count = format!("`{}` (`{}`)", index.count, index.count_type.trim());
            let message = if index.narrow_variable && index.grid_stride {
                format!(
                    "`{}` is declared `{}`, stepped through the grid and compared with {count}: past 2^{} elements it overflows before it reaches the count",
                    index.name,
                    index.type_text.trim(),
                    exponent(&index.type_text)
                )
            } else if index.narrow_variable {
                format!(
                    "`{}` is declared `{}`, computed from `{product}`, and compared with {count}: past 2^{} elements the index overflows and the threads past that point work on the wrong elements",
                    index.name,
                    index.type_text.trim(),
                    exponent(&index.type_text)
                )
            } else {
                format!(
                    "`{product}` is multiplied in 32-bit `unsigned int` arithmetic before it is stored in the `{}` `{}`, compared with {count}: past 2^32 threads the product wraps",
                    index.type_text.trim(),
                    index.name
                )
            };
            let mut diagnostic = cx
                .diagnostic(index.product.byte_range(), message)
                .with_label(
                    index.comparison.byte_range(),
                    "compared with the 64-bit count here",
                );
            if !index
                .declaration
                .byte_range()
                .contains(&index.product.start_byte())
            {
                diagnostic = diagnostic.with_label(index.declaration.byte_range(), "declared here");
            }
            let help = if index.grid_stride {
                format!(
                    "make the index and its stride 64-bit: `for (size_t {0} = (size_t)blockIdx.x * blockDim.x + threadIdx.x; {0} < {1}; {0} += (size_t)blockDim.x * gridDim.x)`",
                    index.name, index.count
                )
            } else {
                format!(
                    "compute it in 64 bits: `size_t {} = (size_t)blockIdx.x * blockDim.x + threadIdx.x;`",
                    index.name
                )
            };
            cx.report(diagnostic.with_help(help));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::THREAD_INDEX_OVERFLOW;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &THREAD_INDEX_OVERFLOW,
            &[
                "__global__ void k(float* x, size_t n) { size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0; }",
                "__global__ void k(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0; }",
                "__global__ void k(float* x) { int i = blockIdx.x * blockDim.x + threadIdx.x; x[i] = 0; }",
                "__global__ void k(float* x, int64_t n) { for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)blockDim.x * gridDim.x) x[i] = 0; }",
            ],
            &[
                "__global__ void k(float* x, size_t n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0; }",
                "__global__ void k(float* x, size_t n) { size_t i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0; }",
                "__global__ void k(float* x, long n) { for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) x[i] = 0; }",
            ],
        );
    }
}
