use super::support::variable_name;
use crate::lint::LintContext;
use crate::model::host::{EventKind, Initial, WriteKind};
use crate::model::Model;

crate::declare_lint!(
    UNINITIALIZED_DEVICE_POINTER,
    "uninitialized-device-pointer",
    Memory,
    Error,
    "pointer passed to a kernel or a copy before any allocation or assignment",
    check
);

fn check(model: &Model, cx: &mut LintContext) {
    for host in &model.host.functions {
        for (index, variable) in host.variables.iter().enumerate() {
            if variable.initial != Initial::Uninitialized || !variable.is_pointer {
                continue;
            }
            let first_use = host.events_of(index).find(|e| {
                matches!(
                    e.kind,
                    EventKind::Launched { .. }
                        | EventKind::Read { .. }
                        | EventKind::Written {
                            kind: WriteKind::Copy | WriteKind::Memset,
                            ..
                        }
                )
            });
            let Some(event) = first_use else { continue };
            if host.events_before(index, event).next().is_some() {
                continue;
            }
            let name = variable_name(host, index);
            let what = if matches!(event.kind, EventKind::Launched { .. }) {
                "kernel launch"
            } else {
                "copy"
            };
            cx.report(
                cx.diagnostic(event.node.byte_range(), format!("`{name}` is passed to this {what} before it is allocated or assigned, so the GPU dereferences a garbage address"))
                    .with_label(variable.declaration.byte_range(), format!("`{name}` declared here without a value"))
                    .with_help(format!("allocate `{name}` (cudaMalloc) before this use, or initialise it to nullptr and check it")),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UNINITIALIZED_DEVICE_POINTER;
    use crate::testing::assert_cases;

    const KERNEL: &str = "__global__ void k(float* out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = 1; }\n";

    #[test]
    fn cases() {
        let pass = [
            "void f(int n) { float* d; cudaMalloc(&d, n * 4); k<<<1, 1>>>(d, n); }",
            "void alloc(float**); void f(int n) { float* d; alloc(&d); k<<<1, 1>>>(d, n); }",
            "float* make(); void f(int n) { float* d; d = make(); k<<<1, 1>>>(d, n); }",
            "void f(int n) { float* d; cudaMalloc(reinterpret_cast<void**>(&d), n * 4); k<<<1, 1>>>(d, n); }",
            "template <typename T> void alloc_buffer(T** out, size_t bytes) { cudaMalloc(reinterpret_cast<void**>(out), bytes); }\n void f(int n) { float* d; alloc_buffer(&d, n * 4); k<<<1, 1>>>(d, n); }",
            "template <typename T> T* device_alloc(size_t n) { T* p; cudaMalloc(&p, n * sizeof(T)); return p; }\n void f(int n) { float* d; d = device_alloc<float>(n); k<<<1, 1>>>(d, n); }",
        ];
        let fail = [
            "void f(int n) { float* d; k<<<1, 1>>>(d, n); }",
            "void f(const float* h, int n) { float* d; cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice); }",
            "template <typename T> void alloc_buffer(T** out, size_t bytes) { cudaMalloc(reinterpret_cast<void**>(out), bytes); }\n void f(int n) { float* d; k<<<1, 1>>>(d, n); alloc_buffer(&d, n * 4); }",
        ];
        let pass: Vec<String> = pass.iter().map(|c| format!("{KERNEL}{c}")).collect();
        let fail: Vec<String> = fail.iter().map(|c| format!("{KERNEL}{c}")).collect();
        assert_cases(
            &UNINITIALIZED_DEVICE_POINTER,
            &pass.iter().map(String::as_str).collect::<Vec<_>>(),
            &fail.iter().map(String::as_str).collect::<Vec<_>>(),
        );
    }
}
