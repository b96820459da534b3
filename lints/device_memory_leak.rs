use super::support::variable_name;
use crate::lint::LintContext;
use crate::model::host::{EventKind, HostFunction, Memory};
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

/// Buffers kept in members or file-level variables: one the function allocates beside others
/// that the file frees, but that no function of the file frees, while nothing else takes it.
fn check_stored(model: &Model, host: &HostFunction, cx: &mut LintContext) {
    let stored = &model.host.stored;
    let here: Vec<_> = stored
        .allocations
        .iter()
        .filter(|a| a.function == host.function_index)
        .collect();
    // the function that frees the others this one allocates: its release of one of them
    let Some((sibling, release)) = here.iter().find_map(|a| {
        stored
            .releases
            .iter()
            .find(|(key, _)| *key == a.key)
            .map(|(_, call)| (a.key.as_str(), *call))
    }) else {
        return;
    };
    let releaser = model
        .functions
        .iter()
        .find(|f| {
            f.definition.start_byte() <= release.start_byte()
                && release.end_byte() <= f.definition.end_byte()
        })
        .map(|f| f.name.as_str())
        .unwrap_or("?");
    let function = &model.functions[host.function_index].name;
    // a device reset after every call of the function releases what it keeps, and so does
    // one in the teardown that frees its siblings: the context goes with what is left in it
    let resets = &model.host.caller_resets;
    if resets.releasing(function).is_some()
        || resets.reset_in(releaser).is_some()
        || resets.releasing(releaser).is_some()
    {
        return;
    }
    let mut reported = Vec::new();
    for allocation in &here {
        // a member an included header releases (the class's destructor in `beam.cuh`)
        let member = allocation
            .key
            .rsplit(['.', '>'])
            .next()
            .unwrap_or(&allocation.key);
        if !matches!(allocation.memory, Memory::Device | Memory::Managed)
            || stored.released(&allocation.key)
            || stored.escaped.contains(&allocation.key)
            || reported.contains(&allocation.key)
            || model.view.included.freed_members.contains(member)
        {
            continue;
        }
        reported.push(allocation.key.clone());
        let key = &allocation.key;
        cx.report(
            cx.diagnostic(allocation.call.byte_range(), format!("`{key}` is allocated here beside buffers that `{releaser}` frees, but no function of this file frees `{key}`, so each call of `{function}` leaks it"))
                .with_label(release.byte_range(), format!("`{releaser}` frees `{sibling}`, allocated beside `{key}`, here"))
                .with_help(format!("free `{key}` where the others are freed (in `{releaser}`)")),
        );
    }
}

fn check(model: &Model, cx: &mut LintContext) {
    for host in &model.host.functions {
        check_stored(model, host, cx);
        let mut reported = std::collections::HashSet::new();
        for allocation in &host.allocations {
            let Some(variable) = allocation.variable else {
                continue;
            };
            if !matches!(allocation.memory, Memory::Device | Memory::Managed)
                || host.variables[variable].is_parameter
                || (host.variables[variable].outlives_call
                    && made_once(allocation.call, host, model.source))
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
            let mut frees: Vec<_> = events
                .iter()
                .filter(|e| matches!(e.kind, EventKind::Freed { .. }))
                .map(|e| e.node)
                .collect();
            // a device reset releases the buffer like a free of it where the reset stands
            frees.extend(host.reset_releasing(event).map(|reset| reset.call));
            let name = variable_name(host, variable);
            if frees.is_empty() {
                reported.insert(variable);
                let function = &model.functions[host.function_index].name;
                // a loop around the allocation leaks a buffer per trip, in `main` too
                if let Some(loop_node) = allocation.enclosing_loop {
                    cx.report(
                        cx.diagnostic(allocation.call.byte_range(), format!("`{name}` is allocated here, in a loop, and never freed in `{function}`, so every iteration leaks another buffer"))
                            .with_label(loop_node.byte_range(), "the loop")
                            .with_help(format!("call cudaFree({name}) at the end of each iteration, or allocate it once before the loop and free it after")),
                    );
                    continue;
                }
                // a device reset after every call of the function releases it
                if model.host.caller_resets.releasing(function).is_some() {
                    continue;
                }
                // `main` runs once: its exit releases the buffer, which a leak check still reports
                let consequence = if function == "main" {
                    "; only the process exit releases it, so a leak check (`compute-sanitizer --leak-check full`) reports it and the code leaks on every call once moved into a function"
                } else {
                    ", so every call leaks its device memory until the process exits"
                };
                cx.report(
                    cx.diagnostic(allocation.call.byte_range(), format!("`{name}` is allocated here and never freed in `{function}`{consequence}"))
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
                loop_node.start_byte() <= f.start_byte() && f.end_byte() <= loop_node.end_byte()
            });
            if unconditional_in_loop && !freed_in_loop && !allocation.retried_after_failure {
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

/// Whether an allocation into a function-local `static` runs under a test of a `static` (`if
/// (!dmap) { cudaMalloc(&dmap, ...); cudaMalloc(&x, ...); }`): a cache made on the first call
/// and kept for the next ones, not a buffer each call loses.
fn made_once(call: tree_sitter::Node, host: &HostFunction, source: &str) -> bool {
    let statics: Vec<&str> = host
        .variables
        .iter()
        .filter(|v| v.outlives_call)
        .map(|v| v.name.as_str())
        .collect();
    std::iter::successors(call.up(), |node| node.up())
        .filter(|a| a.node_kind() == "if_statement")
        .filter_map(|branch| branch.field("condition"))
        .any(|condition| {
            let mut names_a_static = false;
            crate::syntax::walk_iterative(condition, |node| {
                names_a_static |= node.node_kind() == "identifier"
                    && statics.contains(&crate::syntax::text(node, source));
                !names_a_static
            });
            names_a_static
        })
}

#[cfg(test)]
mod tests {
    use super::DEVICE_MEMORY_LEAK;
    use crate::testing::assert_cases;

    #[test]
    fn a_buffer_allocated_in_a_loop_and_never_freed_leaks_per_iteration() {
        let code = "int main() { for (int pass = 0; pass <= 10; ++pass) { float* d; cudaMalloc(&d, 1024); } return 0; }";
        let messages: Vec<String> = crate::testing::run_on_snippet(&DEVICE_MEMORY_LEAK, code)
            .into_iter()
            .map(|d| d.message)
            .collect();
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(
            messages[0].contains(
                "in a loop, and never freed in `main`, so every iteration leaks another buffer"
            ),
            "{}",
            messages[0]
        );
    }

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
                // freed by a function of the file
                "void release(void* p) { if (p) cudaFree(p); } void f(int n) { float* d; cudaMalloc(&d, n); release(d); }",
                // handed to code the file does not show, or to a macro that names it
                "void keep(float*); void f(int n) { float* d; cudaMalloc(&d, n); keep(d); }",
                "#define CLEANUP() cudaFree(d)\nvoid f(int n) { float* d; cudaMalloc(&d, n); CLEANUP(); }",
                // members freed by the matching cleanup, or kept elsewhere
                "struct S { float* a; float* b; }; void init(S& s, int n) { cudaMalloc(&s.a, n); cudaMalloc(&s.b, n); } void done(S& s) { cudaFree(s.a); cudaFree(s.b); }",
                "struct S { float* a; float* b; }; float* g; void init(S& s, int n) { cudaMalloc(&s.a, n); cudaMalloc(&s.b, n); g = s.b; } void done(S& s) { cudaFree(s.a); }",
                "struct S { float* a; float* b; }; void init(S& s, int n) { cudaMalloc(&s.a, n); cudaMalloc(&s.b, n); }",
            ],
            &[
                "void f(int n) { float* d; cudaMalloc(&d, n * 4); }",
                "template <typename T> T* device_alloc(size_t n) { T* p; cudaMalloc(&p, n * sizeof(T)); return p; }\n void f(int n) { float* d = device_alloc<float>(n); }",
                "template <typename T> void alloc_buffer(T** out, size_t bytes) { cudaMalloc(reinterpret_cast<void**>(out), bytes); }\n void f(int n) { float* d; alloc_buffer(&d, n * 4); }",
                "template <typename T> T* device_alloc(size_t n) { T* p; cudaMalloc(&p, n * sizeof(T)); return p; }\n float* twice(size_t n) { return device_alloc<float>(2 * n); } void f(int n) { float* d = twice(n); }",
                "void f(int n) { float* d; for (int i = 0; i < 4; ++i) { cudaMalloc(&d, n * 4); } cudaFree(d); }",
                // launches (of kernels defined elsewhere too), launchers, validation helpers and
                // library calls use the buffer without taking it
                "__global__ void k(float* p, int n);\nvoid f(int n) { float* d; cudaMalloc(&d, n * 4); k<<<1, 1>>>(d, n); }",
                "__global__ void k(float* p, int n);\nvoid run(float* p, int n) { k<<<1, 1>>>(p, n); }\nvoid f(int n) { float* d; cudaMalloc(&d, n * 4); run(d, n); }",
                "bool check(const float* d, int n) { float h; cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost); return h > 0; }\nvoid f(int n) { float* d; cudaMalloc(&d, n * 4); check(d, n); }",
                "void f(cublasHandle_t h, int n) { float* d; cudaMalloc(&d, n * 4); cublasSscal(h, n, nullptr, d, 1); }",
                // a helper that fills it from a file with C's I/O keeps none of it
                "#include <cstdio>\nvoid load(const char* name, void* buffer, size_t n) { FILE* fp = fopen(name, \"rb\"); fread(buffer, 1, n, fp); fclose(fp); }\nvoid f(int n) { int* d; cudaMallocManaged(&d, n * 4); load(\"d.bin\", d, n * 4); }",
                "__global__ void k(float* p, int n);\nvoid f(int n) { float* d; for (int i = 0; i < 4; ++i) { cudaMalloc(&d, n * 4); k<<<1, 1>>>(d, n); } cudaFree(d); }",
                "struct S { float* a; float* b; }; void init(S& s, int n) { cudaMalloc(&s.a, n); cudaMalloc(&s.b, n); } void done(S& s) { cudaFree(s.a); }",
                "class B { float* a; float* b; public: B(int n) { cudaMalloc(&a, n); cudaMalloc(&b, n); } ~B() { cudaFree(a); } };",
            ],
        );
    }
}
