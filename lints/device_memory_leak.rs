use super::support::variable_name;
use crate::lint::LintContext;
use crate::model::host::{EventKind, Memory};
use crate::model::Model;
use crate::syntax::NodeExt;

crate::declare_lint!(
    DEVICE_MEMORY_LEAK,
    "device-memory-leak",
    Memory,
    Warning,
    "device allocation never freed, or allocated again on every loop iteration",
    check
);

fn check(model: &Model, cx: &mut LintContext) {
    for host in &model.host.functions {
        let mut reported = std::collections::HashSet::new();
        for allocation in &host.allocations {
            let Some(variable) = allocation.variable else {
                continue;
            };
            if !matches!(allocation.memory, Memory::Device | Memory::Managed)
                || host.variables[variable].is_parameter
                || reported.contains(&variable)
            {
                continue;
            }
            let events: Vec<_> = host.events_of(variable).collect();
            if events.iter().any(|e| {
                matches!(
                    e.kind,
                    EventKind::Escaped | EventKind::AddressTaken | EventKind::Assigned
                )
            }) {
                continue;
            }
            let Some(event) = events.iter().find(|e| e.node == allocation.call) else {
                continue;
            };
            let frees: Vec<_> = events
                .iter()
                .filter(|e| matches!(e.kind, EventKind::Freed { .. }))
                .collect();
            let name = variable_name(host, variable);
            if frees.is_empty() {
                reported.insert(variable);
                cx.report(
                    cx.diagnostic(allocation.call.byte_range(), format!("`{name}` is allocated here and never freed in `{}`, so every call leaks its device memory until the process exits", model.functions[host.function_index].name))
                        .with_help(format!("call cudaFree({name}) when the buffer is no longer needed, or hold it in an RAII wrapper")),
                );
                continue;
            }
            // allocated on every iteration of a loop that never frees it
            let Some(loop_node) = allocation.enclosing_loop else {
                continue;
            };
            let unconditional_in_loop = loop_node.field("body") == Some(event.region);
            let freed_in_loop = frees.iter().any(|f| {
                loop_node.start_byte() <= f.node.start_byte()
                    && f.node.end_byte() <= loop_node.end_byte()
            });
            if unconditional_in_loop && !freed_in_loop {
                reported.insert(variable);
                cx.report(
                    cx.diagnostic(allocation.call.byte_range(), format!("`{name}` is allocated on every iteration of this loop but freed only outside it, so all but the last buffer leak"))
                        .with_label(loop_node.byte_range(), "the loop")
                        .with_help(format!("allocate `{name}` once before the loop, or cudaFree it at the end of each iteration")),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DEVICE_MEMORY_LEAK;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &DEVICE_MEMORY_LEAK,
            &[
                "void f(int n) { float* d; cudaMalloc(&d, n * 4); cudaFree(d); }",
                "float* f(int n) { float* d; cudaMalloc(&d, n * 4); return d; }",
                "void f(float** out, int n) { float* d; cudaMalloc(&d, n * 4); *out = d; }",
                "void f(int n) { for (int i = 0; i < 4; ++i) { float* d; cudaMalloc(&d, n * 4); cudaFree(d); } }",
                "template <typename T> T* device_alloc(size_t n) { T* p; cudaMalloc(&p, n * sizeof(T)); return p; }\n void f(int n) { float* d = device_alloc<float>(n); cudaFree(d); }",
                "template <typename T> void alloc_buffer(T** out, size_t bytes) { cudaMalloc(reinterpret_cast<void**>(out), bytes); }\n void f(int n) { float* d; alloc_buffer(&d, n * 4); cudaFree(d); }",
                "void f(int n) { float* d; cudaMalloc(reinterpret_cast<void**>(&d), n); void* raw = reinterpret_cast<void*>(d); release(raw); }",
                // a helper that keeps the buffer too, or allocates on one path only, says nothing
                "float* g_last; float* keep(int n) { float* p; cudaMalloc(&p, n); g_last = p; return p; } void f(int n) { float* d = keep(n); }",
                "void maybe(float** out, int n) { if (n > 0) cudaMalloc(out, n); } void f(int n) { float* d; maybe(&d, n); }",
            ],
            &[
                "void f(int n) { float* d; cudaMalloc(&d, n * 4); }",
                "template <typename T> T* device_alloc(size_t n) { T* p; cudaMalloc(&p, n * sizeof(T)); return p; }\n void f(int n) { float* d = device_alloc<float>(n); }",
                "template <typename T> void alloc_buffer(T** out, size_t bytes) { cudaMalloc(reinterpret_cast<void**>(out), bytes); }\n void f(int n) { float* d; alloc_buffer(&d, n * 4); }",
                "template <typename T> T* device_alloc(size_t n) { T* p; cudaMalloc(&p, n * sizeof(T)); return p; }\n float* twice(size_t n) { return device_alloc<float>(2 * n); } void f(int n) { float* d = twice(n); }",
                "void f(int n) { float* d; for (int i = 0; i < 4; ++i) { cudaMalloc(&d, n * 4); } cudaFree(d); }",
            ],
        );
    }
}
