use super::support::variable_name;
use crate::lint::LintContext;
use crate::model::host::{Event, EventKind, HostFunction, WriteKind};
use crate::model::Model;
use tree_sitter::Node;

crate::declare_lint!(
    USE_AFTER_FREE,
    "use-after-free",
    Memory,
    Error,
    "device buffer used by a copy or a launch after cudaFree released it",
    check
);

fn check(model: &Model, cx: &mut LintContext) {
    for host in &model.host.functions {
        if host.uses_graphs {
            continue;
        }
        // frees of a buffer already freed: their uses belong to the first free's finding
        let mut covered: Vec<Node> = Vec::new();
        for free in host
            .events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Freed { device: true }))
        {
            if covered.contains(&free.node) {
                continue;
            }
            let (uses, frees_again) = uses_after(host, free);
            covered.extend(frees_again);
            let Some((first, again)) = uses.split_first() else {
                continue;
            };
            let name = variable_name(host, free.variable);
            let what = if matches!(first.kind, EventKind::Launched { .. }) {
                "kernel launch"
            } else {
                "copy"
            };
            let mut diagnostic = cx.diagnostic(first.node.byte_range(), format!("`{name}` is used by this {what} after it was freed, so the GPU touches released memory (an illegal address or another allocation's data)"))
                .with_label(free.node.byte_range(), format!("`{name}` freed here"));
            for later in again {
                diagnostic = diagnostic.with_label(
                    later.node.byte_range(),
                    format!("`{name}` used again after the free"),
                );
            }
            cx.report(diagnostic.with_help(format!("move cudaFree({name}) after the last use")));
        }
    }
}

/// Whether an event reads or writes the buffer on the GPU: a launch, a copy or a memset.
fn is_use(event: &Event) -> bool {
    matches!(
        event.kind,
        EventKind::Launched { .. }
            | EventKind::Read { .. }
            | EventKind::Written {
                kind: WriteKind::Copy | WriteKind::Memset,
                ..
            }
    )
}

/// The uses of the freed buffer that run on every path after `free`, one per call, up to the
/// next time the variable gets a value or escapes; and the later frees of it on every path
/// (double-free's business, not uses). No uses unless the first use comes on every path.
fn uses_after<'a, 't>(
    host: &'a HostFunction<'t>,
    free: &'a Event<'t>,
) -> (Vec<&'a Event<'t>>, Vec<Node<'t>>) {
    let mut uses: Vec<&Event<'t>> = Vec::new();
    let mut frees = Vec::new();
    let later = host
        .events_of(free.variable)
        .filter(|e| e.node.start_byte() >= free.node.end_byte());
    for event in later {
        // past a label, a jump may come from before the free
        if host.jump_target_between(free, event) {
            break;
        }
        if matches!(event.kind, EventKind::Freed { .. }) && free.dominates(event) {
            frees.push(event.node);
            continue;
        }
        if event.kind.defines()
            || matches!(event.kind, EventKind::Escaped | EventKind::Freed { .. })
        {
            break;
        }
        if !is_use(event) {
            continue;
        }
        if !free.dominates(event) {
            if uses.is_empty() {
                break;
            }
            continue;
        }
        if !uses.iter().any(|u| u.node == event.node) {
            uses.push(event);
        }
    }
    (uses, frees)
}

#[cfg(test)]
mod tests {
    use super::USE_AFTER_FREE;
    use crate::testing::{assert_cases, run_on_snippet};

    #[test]
    fn cases() {
        assert_cases(
            &USE_AFTER_FREE,
            &[
                "void f(float* h, int n) { float* d; cudaMalloc(&d, n); cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost); cudaFree(d); }",
                "void f(float* h, int n, bool c) { float* d; cudaMalloc(&d, n); if (c) { cudaFree(d); return; } cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost); cudaFree(d); }",
                "void f(float* h, int n) { float* d; cudaMalloc(&d, n); cudaFree(d); cudaMalloc(&d, n); cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost); cudaFree(d); }",
            ],
            &[
                "void f(float* h, int n) { float* d; cudaMalloc(&d, n); cudaFree(d); cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost); }",
                "template <typename T> T* device_alloc(size_t n) { T* p; cudaMalloc(&p, n * sizeof(T)); return p; }\nvoid f(float* h, int n) { float* d = device_alloc<float>(n); cudaFree(d); cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost); }",
            ],
        );
    }

    #[test]
    fn later_uses_are_labels_of_one_finding() {
        let source = "__global__ void k(float* p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 0; }\n\
            void f(float* h, int n) { float* d; cudaMalloc(&d, n * sizeof(float)); cudaFree(d); cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); k<<<1, 256>>>(d, n); cudaMemset(d, 0, n * sizeof(float)); cudaFree(d); cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost); }\n";
        let found = run_on_snippet(&USE_AFTER_FREE, source);
        assert_eq!(found.len(), 1, "{found:?}");
        let at = |text: &str| {
            let start = source.find(text).unwrap_or_else(|| panic!("{text}"));
            start..start + text.len()
        };
        assert_eq!(
            found[0].span,
            at("cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice)")
        );
        let labels: Vec<(std::ops::Range<usize>, &str)> = found[0]
            .labels
            .iter()
            .map(|l| (l.span.clone(), l.message.as_str()))
            .collect();
        assert_eq!(
            labels,
            [
                (at("cudaFree(d)"), "`d` freed here"),
                (at("k<<<1, 256>>>(d, n)"), "`d` used again after the free"),
                (
                    at("cudaMemset(d, 0, n * sizeof(float))"),
                    "`d` used again after the free"
                ),
                // past the second free (double-free reports that one): still the same buffer
                (
                    at("cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost)"),
                    "`d` used again after the free"
                ),
            ]
        );
    }
}
