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
            &[
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;\n  o[i] = 1; // cudalint: ignore[unguarded-thread-index]\n}",
                "// cudalint: ignore-start[unguarded-thread-index]\n__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;\n  o[i] = 1;\n}\n// cudalint: ignore-end\n",
                "// cudalint: ignore-start[all]\n// cudalint: ignore-start[unguarded-thread-index]\n__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;\n  o[i] = 1;\n}\n// cudalint: ignore-end\n__global__ void j(float* o) { __syncthreads(); o[0] = 0; if (threadIdx.x == 0) __syncthreads(); }\n// cudalint: ignore-end\n",
                "// a comment that mentions cudalint: without a directive\nint x;\n",
            ],
            &[
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) o[i] = 1; // cudalint: ignore[unguarded-thread-index]\n}",
                "// cudalint: ignore-file[divergent-barrier]\n__global__ void k(float* o) {}\n",
                "// cudalint: ignore[no-such-rule]\nint x;\n",
                "int x; // cudalint: ignore\n",
                "// cudalint: ignore[]\nint x;\n",
                "// cudalint: ignore-start[divergent-barrier]\nint x;\n",
                "int x;\n// cudalint: ignore-end\n",
                "// cudalint: ignore-next-line[all]\nint x;\n",
            ],
        );
    }
}
