//! Reported by the engine, which alone knows which suppressions matched a finding.

use crate::lint::LintContext;
use crate::model::Model;

crate::declare_lint!(
    UNUSED_SUPPRESSION,
    "unused-suppression",
    Meta,
    Warning,
    "`cudalint: ignore[...]` comment that suppresses nothing",
    check,
    precision = VeryHigh
);

fn check(_model: &Model, _cx: &mut LintContext) {}

#[cfg(test)]
mod tests {
    use super::UNUSED_SUPPRESSION;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &UNUSED_SUPPRESSION,
            &["__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;\n  o[i] = 1; // cudalint: ignore[unguarded-thread-index]\n}"],
            &[
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) o[i] = 1; // cudalint: ignore[unguarded-thread-index]\n}",
                "// cudalint: ignore-file[divergent-barrier]\n__global__ void k(float* o) {}\n",
                "// cudalint: ignore[no-such-rule]\nint x;\n",
            ],
        );
    }
}
