use super::support::variable_name;
use crate::lint::LintContext;
use crate::model::host::{Event, EventKind, Initial, WriteKind};
use crate::model::Model;

crate::declare_lint!(
    UNINITIALIZED_DEVICE_POINTER,
    "uninitialized-device-pointer",
    Memory,
    Error,
    "pointer used by a kernel, a copy or a free before any allocation, or allocated on some paths only",
    check
);

/// Whether an event hands the pointer's value to the GPU or the runtime: a launch, a copy, a
/// memset, a free, or a function of this file that does one of these with it.
fn is_use(event: &Event) -> bool {
    matches!(
        event.kind,
        EventKind::Launched { .. }
            | EventKind::Read { .. }
            | EventKind::Written {
                kind: WriteKind::Copy | WriteKind::Memset,
                ..
            }
            | EventKind::Freed { device: true }
            | EventKind::Borrowed { .. }
    )
}

/// Whether the event passes the pointer to a kernel parameter the kernel's body never names (a
/// parameter left after its uses were removed): the kernel never dereferences it.
fn passed_to_an_unused_parameter(
    host: &crate::model::host::HostFunction,
    event: &Event,
    model: &Model,
) -> bool {
    let EventKind::Launched {
        launch, argument, ..
    } = event.kind
    else {
        return false;
    };
    host.launches
        .get(launch)
        .and_then(|l| model.host.kernel(&l.kernel, l.arguments.len()))
        .and_then(|k| k.parameters.get(argument))
        .is_some_and(|p| p.unused)
}

fn what(event: &Event, model: &Model) -> String {
    match event.kind {
        EventKind::Launched { .. } => "kernel launch".to_string(),
        EventKind::Freed { .. } => "free".to_string(),
        EventKind::Borrowed { .. } => format!(
            "call of `{}`",
            crate::model::host::called_name(event.node, model.source)
        ),
        _ => "copy".to_string(),
    }
}

fn check(model: &Model, cx: &mut LintContext) {
    for host in &model.host.functions {
        if host.has_goto {
            continue;
        }
        for (index, variable) in host.variables.iter().enumerate() {
            if variable.initial != Initial::Uninitialized || !variable.is_pointer {
                continue;
            }
            for event in host
                .events_of(index)
                .filter(|e| is_use(e) && !passed_to_an_unused_parameter(host, e, model))
            {
                // a later use may still miss the definition: after a loop that may not run, or
                // outside the branch that covered this one
                if host.defined_on_every_path(index, event, model.source) {
                    continue;
                }
                let name = variable_name(host, index);
                let what = what(event, model);
                if host.events_before(index, event).next().is_none() {
                    // the first use, with nothing before it
                    if matches!(event.kind, EventKind::Freed { .. }) {
                        break;
                    }
                    cx.report(
                        cx.diagnostic(event.node.byte_range(), format!("`{name}` is passed to this {what} before it is allocated or assigned, so the GPU dereferences a garbage address"))
                            .with_label(variable.declaration.byte_range(), format!("`{name}` declared here without a value"))
                            .with_help(format!("allocate `{name}` (cudaMalloc) before this use, or initialise it to nullptr and check it")),
                    );
                    break;
                }
                // allocated on some paths only: a use under the same test as an allocation is
                // on the paths that allocated it
                if !host.may_run_without_definition(index, event, model.source) {
                    continue;
                }
                let Some(definition) = host
                    .events_before(index, event)
                    .find(|e| e.kind.defines() && e.node.end_byte() <= event.node.start_byte())
                else {
                    break;
                };
                cx.report(
                    cx.diagnostic(event.node.byte_range(), format!("`{name}` reaches this {what} on a path where no branch allocated or assigned it, so it passes a garbage address"))
                        .with_label(variable.declaration.byte_range(), format!("`{name}` declared here without a value"))
                        .with_label(definition.node.byte_range(), format!("`{name}` allocated or assigned here, on some paths only"))
                        .with_help(format!("initialise `{name}` to nullptr where it is declared, or allocate it on every path before this use")),
                );
                break;
            }
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
            // declared with its value in an `if` condition
            "struct B { float* data(); }; void f(B& b, float* h) { if (auto* d = b.data()) cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost); }",
            "void f(const char* name, char* dst) { if (const char* src = name) cudaMemcpy(dst, src, 8, cudaMemcpyHostToDevice); }",
            "void alloc(float**); void f(int n) { float* d; alloc(&d); k<<<1, 1>>>(d, n); }",
            "float* make(); void f(int n) { float* d; d = make(); k<<<1, 1>>>(d, n); }",
            "void f(int n) { float* d; cudaMalloc(reinterpret_cast<void**>(&d), n * 4); k<<<1, 1>>>(d, n); }",
            "template <typename T> void alloc_buffer(T** out, size_t bytes) { cudaMalloc(reinterpret_cast<void**>(out), bytes); }\n void f(int n) { float* d; alloc_buffer(&d, n * 4); k<<<1, 1>>>(d, n); }",
            "template <typename T> T* device_alloc(size_t n) { T* p; cudaMalloc(&p, n * sizeof(T)); return p; }\n void f(int n) { float* d; d = device_alloc<float>(n); k<<<1, 1>>>(d, n); }",
            // allocated on every path, or the others leave first, or the use is under the same test
            "void f(int n, bool m) { float* d; if (m) cudaMalloc(&d, n * 4); else cudaMallocManaged(&d, n * 4); k<<<1, 1>>>(d, n); cudaFree(d); }",
            "void f(int n, int m) { float* d; if (m == 0) { cudaMalloc(&d, n * 4); } else { printf(\"no\"); return; } cudaFree(d); }",
            "void f(int n, bool m) { float* d; if (m) cudaMalloc(&d, n * 4); if (!m) return; cudaFree(d); }",
            "void f(int n, int m) { float* d; if (m == 2) cudaMallocHost(&d, n * 4); if (m == 2) cudaFreeHost(d); }",
            // allocated on a loop's first trip: there for the rest of the body, and after a loop
            // that runs at least once
            "void f(int n, int runs) { float* d; for (int run = 0; run < runs; run++) { if (run == 0) cudaMalloc(&d, n * 4); k<<<1, 1>>>(d, n); } }",
            "void f(int n) { float* d; int run; for (run = 0; run < 1; run++) { if (!run) cudaMalloc(&d, n * 4); k<<<1, 1>>>(d, n); } cudaFree(d); }",
            // every arm of a switch over the modes allocates; a use under one mode's test after
            // the arm of that mode allocated
            "void f(int n, int mem) { float* d; switch (mem) { case GPUMEM: cudaMalloc(&d, n * 4); break; case UVM: cudaMallocManaged(&d, n * 4); break; } k<<<1, 1>>>(d, n); cudaFree(d); }",
            "void f(int n, int mem) { float* d; switch (mem) { case 0: cudaMalloc(&d, n * 4); break; default: return; } k<<<1, 1>>>(d, n); }",
            "void f(const float* h, int n, int mem) { float* d; switch (mem) { case 0: cudaMalloc(&d, n * 4); break; case 1: break; } if (mem == 0) cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice); }",
            "void f(const float* h, int n, int mem) { float* d; switch (mem) { case GPUMEM: cudaMalloc(&d, n * 4); break; case UVM: break; } if (mem == GPUMEM) cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice); }",
            // a device address read back from the device into the pointer itself
            "struct V { float* data; }; void f(float* h, const V* dv, int n) { float* d; cudaMemcpy(&d, &dv->data, sizeof(d), cudaMemcpyDeviceToHost); cudaMemcpy(h, d, n * 4, cudaMemcpyDeviceToHost); }",
            "struct V { float* data; }; void f(float* h, const V* dv, int n) { void* d; cudaMemcpy((void*)&d, &dv->data, sizeof(void*), cudaMemcpyDeviceToHost); cudaMemcpy(h, d, n * 4, cudaMemcpyDeviceToHost); }",
            // a mode that falls into the allocating arm from the one above is allocated too
            "void f(const float* h, int n, int mem) { float* d; switch (mem) { case 1: printf(\"one\"); case 0: cudaMalloc(&d, n * 4); break; case 2: break; } if (mem == 1) cudaFree(d); }",
            // a parameter the kernel never names, left after its uses were removed
            "__global__ void dist(const float* x, float* K, int* K_Id, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) K[i] = x[i] * x[i]; }\n void f(const float* x, float* K, int n) { int* d_id; dist<<<(n + 255) / 256, 256>>>(x, K, d_id, n); }",
        ];
        let fail = [
            "void f(int n) { float* d; k<<<1, 1>>>(d, n); }",
            "__global__ void dist(const float* x, float* K, int* K_Id, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { K[i] = x[i] * x[i]; K_Id[i] = i; } }\n void f(const float* x, float* K, int n) { int* d_id; dist<<<(n + 255) / 256, 256>>>(x, K, d_id, n); }",
            "void f(const float* h, int n) { float* d; cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice); }",
            // the copy reads the pointer back only after the use
            "struct V { float* data; }; void f(float* h, const V* dv, int n) { float* d; cudaMemcpy(h, d, n * 4, cudaMemcpyDeviceToHost); cudaMemcpy(&d, &dv->data, sizeof(d), cudaMemcpyDeviceToHost); }",
            "template <typename T> void alloc_buffer(T** out, size_t bytes) { cudaMalloc(reinterpret_cast<void**>(out), bytes); }\n void f(int n) { float* d; k<<<1, 1>>>(d, n); alloc_buffer(&d, n * 4); }",
            // allocated on some branches only
            "void f(const float* h, int n, bool m) { float* d; if (m) cudaMalloc(&d, n * 4); cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice); }",
            "void f(int n, int m) { float* d; if (m == 0) cudaMalloc(&d, n * 4); else if (m == 1) cudaMallocManaged(&d, n * 4); if (m == 2) printf(\"pinned\"); else cudaFree(d); }",
            // another trip than the first, a counter the body moves, a loop that may not run
            "void f(int n, int runs) { float* d; for (int run = 0; run < runs; run++) { if (run == 1) cudaMalloc(&d, n * 4); k<<<1, 1>>>(d, n); } }",
            "void f(int n, int runs) { float* d; for (int run = 0; run < runs; run++) { if (run == 0) cudaMalloc(&d, n * 4); k<<<1, 1>>>(d, n); run += 2; } }",
            "void f(int n, int runs) { float* d; for (int run = 0; run < runs; run++) { if (run == 0) cudaMalloc(&d, n * 4); k<<<1, 1>>>(d, n); } cudaFree(d); }",
            // a switch with an arm that does not allocate, one mode alone, or another mode's test
            "void f(int n, int mem) { float* d; switch (mem) { case 0: cudaMalloc(&d, n * 4); break; case 1: break; } k<<<1, 1>>>(d, n); }",
            "void f(int n, int mem) { float* d; switch (mem) { case 0: cudaMalloc(&d, n * 4); break; } k<<<1, 1>>>(d, n); }",
            "void f(const float* h, int n, int mem) { float* d; switch (mem) { case 0: cudaMalloc(&d, n * 4); break; case 1: break; } if (mem == 1) cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice); }",
            // the device mode's arm allocates the host copy instead; its named constant is not
            // the managed modes'
            "void f(const float* h, int n, int mem) { float *d, *e; switch (mem) { case GPUMEM: cudaMalloc((void**)&e, n * 4); break; case UVM_READONLY: cudaMallocManaged((void**)&d, n * 4); break; case UVM_DIRECT: cudaMallocManaged((void**)&d, n * 4); break; } if (mem == GPUMEM) cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice); }",
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
