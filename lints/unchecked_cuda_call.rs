use crate::lint::LintContext;
use crate::model::host::ResultUse;
use crate::model::Model;

crate::declare_lint!(
    UNCHECKED_CUDA_CALL,
    "unchecked-cuda-call",
    ErrorHandling,
    Warning,
    "runtime or driver API call whose error code is discarded",
    check
);

fn check(model: &Model, cx: &mut LintContext) {
    for host in &model.host.functions {
        for call in &host.calls {
            if call.on_error_path {
                continue;
            }
            let message = match call.result {
                ResultUse::Discarded => format!("the error code of `{}` is discarded, so a failure here goes unnoticed and surfaces later, far from its cause", call.name),
                ResultUse::StoredUnread => format!("the error code of `{}` is stored but never tested, so a failure here goes unnoticed and surfaces later", call.name),
                _ => continue,
            };
            cx.report(
                cx.diagnostic(call.call.byte_range(), message)
                    .with_help("wrap the call in an error-checking macro (e.g. CUDA_CHECK), or cast it to (void) if ignoring the error is intended"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UNCHECKED_CUDA_CALL;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &UNCHECKED_CUDA_CALL,
            &[
                "void f(float* d) { CUDA_CHECK(cudaFree(d)); }",
                "void f(float* d) { (void)cudaFree(d); }",
                "cudaError_t f(float* d) { return cudaFree(d); }",
                "void f(float* d) { cudaError_t e = cudaFree(d); if (e != cudaSuccess) abort(); }",
                "void f(float* d) { cudaError_t e = cudaMalloc(&d, 4); if (e != cudaSuccess) { cudaFree(d); } }",
                "void f() { cudaGetLastError(); }",
                "void f(float* d) { if (cudaFree(d) != cudaSuccess) abort(); }",
                "void f(float* d) { MY_WRAP(cudaFree(d)); }",
            ],
            &["void f(float* d) { cudaFree(d); }", "void f(float* d) { cudaError_t e = cudaFree(d); }"],
        );
    }
}
