use super::support::variable_name;
use crate::lint::LintContext;
use crate::model::host::{EventKind, Memory, WriteKind};
use crate::model::Model;

crate::declare_lint!(
    HOST_POINTER_TO_KERNEL,
    "host-pointer-to-kernel",
    Memory,
    Error,
    "host memory (malloc, new, stack array, vector data) passed as a kernel argument",
    check
);

fn check(model: &Model, cx: &mut LintContext) {
    for launched in model.host.launched_pointers() {
        let (host, launch, position, pointer, event) = (
            launched.host,
            launched.launch,
            launched.position,
            launched.pointer,
            launched.event,
        );
        let Some(variable) = host.variables.get(pointer.variable) else {
            continue;
        };
        // registered or handed to unknown code first: it may be mapped now
        if host.events_before(pointer.variable, event).any(|e| {
            matches!(
                e.kind,
                EventKind::Written {
                    kind: WriteKind::Unknown,
                    ..
                } | EventKind::Escaped
                    | EventKind::AddressTaken
            )
        }) {
            continue;
        }
        let (origin, label_node) =
            if pointer.host_data || (variable.is_array && !variable.is_pointer) {
                if variable.is_parameter {
                    continue;
                }
                (
                    if variable.is_array {
                        "a stack array"
                    } else {
                        "a std::vector's host storage"
                    },
                    variable.declaration,
                )
            } else {
                match host.reaching_allocation(pointer.variable, event) {
                    Some(allocation) if allocation.memory == Memory::Host => {
                        ("host memory from malloc/new", allocation.call)
                    }
                    _ => continue,
                }
            };
        let name = variable_name(host, pointer.variable);
        cx.report(
            cx.diagnostic(launch.arguments[position].byte_range(), format!("`{name}` is {origin}, passed to kernel `{}`, which dereferences it on the GPU and faults with an illegal address", launch.kernel))
                .with_label(label_node.byte_range(), format!("`{name}` is host memory"))
                .with_help("allocate a device buffer with cudaMalloc, copy the data into it and pass that, or use cudaMallocManaged"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::HOST_POINTER_TO_KERNEL;
    use crate::testing::assert_cases;

    const KERNEL: &str = "__global__ void k(float* out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = 1; }\n";

    #[test]
    fn cases() {
        let pass = [
            "void f(int n) { float* d; cudaMalloc(&d, n * 4); k<<<1, 1>>>(d, n); }",
            "void f(int n) { float* h; cudaMallocManaged(&h, n * 4); k<<<1, 1>>>(h, n); }",
            "void f(float* p, int n) { k<<<1, 1>>>(p, n); }",
            "void f(int n) { auto [d, e] = device_pools(n); k<<<1, 1>>>(d, n); k<<<1, 1>>>(e, n); }",
            "void f(int n) { auto& [d, e] = pools; k<<<1, 1>>>(e, n); }",
        ];
        let fail = [
            "void f(int n) { float* h = (float*)malloc(n * 4); k<<<1, 1>>>(h, n); }",
            "void f() { float a[16]; k<<<1, 16>>>(a, 16); }",
            "void f(int n) { std::vector<float> v(n); k<<<1, 1>>>(v.data(), n); }",
        ];
        let pass: Vec<String> = pass.iter().map(|c| format!("{KERNEL}{c}")).collect();
        let fail: Vec<String> = fail.iter().map(|c| format!("{KERNEL}{c}")).collect();
        assert_cases(
            &HOST_POINTER_TO_KERNEL,
            &pass.iter().map(String::as_str).collect::<Vec<_>>(),
            &fail.iter().map(String::as_str).collect::<Vec<_>>(),
        );
    }
}
