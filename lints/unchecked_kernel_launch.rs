use crate::lint::LintContext;
use crate::model::Model;

crate::declare_lint!(
    UNCHECKED_KERNEL_LAUNCH,
    "unchecked-kernel-launch",
    ErrorHandling,
    Warning,
    "kernel launch not followed by a cudaGetLastError/cudaPeekAtLastError check",
    check
);

fn check(model: &Model, cx: &mut LintContext) {
    for host in &model.host.functions {
        for launch in &host.launches {
            if launch.checked || launch.wrapped {
                continue;
            }
            cx.report(
                cx.diagnostic(launch.call.byte_range(), format!("the launch of `{}` is not followed by a cudaGetLastError() check, so a bad configuration or missing kernel image fails silently", launch.kernel))
                    .with_help("check cudaGetLastError() (or cudaPeekAtLastError()) right after the launch, e.g. CUDA_CHECK(cudaGetLastError())"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UNCHECKED_KERNEL_LAUNCH;
    use crate::testing::assert_cases;

    const KERNEL: &str = "__global__ void k(float* out) { out[threadIdx.x] = 1; }\n";

    #[test]
    fn cases() {
        let pass = [
            "void f(float* d) { k<<<1, 32>>>(d); CUDA_CHECK(cudaGetLastError()); }",
            "void f(float* d) { k<<<1, 32>>>(d); getLastCudaError(\"k failed\"); }",
            "void f(float* d) { k<<<1, 32>>>(d); cudaError_t e = cudaGetLastError(); if (e != cudaSuccess) abort(); }",
            "void f(float* d) { k<<<1, 32>>>(d); if (cudaPeekAtLastError() != cudaSuccess) abort(); }",
        ];
        let fail = [
            "void f(float* d) { k<<<1, 32>>>(d); }",
            "void f(float* d) { k<<<1, 32>>>(d); cudaGetLastError(); }",
            "void f(float* d) { k<<<1, 32>>>(d); k<<<1, 32>>>(d); CUDA_CHECK(cudaGetLastError()); }",
        ];
        let pass: Vec<String> = pass.iter().map(|c| format!("{KERNEL}{c}")).collect();
        let fail: Vec<String> = fail.iter().map(|c| format!("{KERNEL}{c}")).collect();
        assert_cases(
            &UNCHECKED_KERNEL_LAUNCH,
            &pass.iter().map(String::as_str).collect::<Vec<_>>(),
            &fail.iter().map(String::as_str).collect::<Vec<_>>(),
        );
    }
}
