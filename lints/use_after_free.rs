use super::support::variable_name;
use crate::lint::LintContext;
use crate::model::host::{EventKind, WriteKind};
use crate::model::Model;

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
        if host.has_goto || host.uses_graphs {
            continue;
        }
        for free in host
            .events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Freed { device: true }))
        {
            let mut later = host
                .events_of(free.variable)
                .filter(|e| e.node.start_byte() >= free.node.end_byte());
            let used = later.find(|e| {
                e.kind.defines()
                    || matches!(e.kind, EventKind::Escaped | EventKind::Freed { .. })
                    || matches!(
                        e.kind,
                        EventKind::Launched { .. }
                            | EventKind::Read { .. }
                            | EventKind::Written {
                                kind: WriteKind::Copy | WriteKind::Memset,
                                ..
                            }
                    )
            });
            let Some(used) = used else { continue };
            if !matches!(
                used.kind,
                EventKind::Launched { .. } | EventKind::Read { .. } | EventKind::Written { .. }
            ) || !free.dominates(used)
            {
                continue;
            }
            let name = variable_name(host, free.variable);
            let what = if matches!(used.kind, EventKind::Launched { .. }) {
                "kernel launch"
            } else {
                "copy"
            };
            cx.report(
                cx.diagnostic(used.node.byte_range(), format!("`{name}` is used by this {what} after it was freed, so the GPU touches released memory (an illegal address or another allocation's data)"))
                    .with_label(free.node.byte_range(), format!("`{name}` freed here"))
                    .with_help(format!("move cudaFree({name}) after the last use")),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::USE_AFTER_FREE;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &USE_AFTER_FREE,
            &[
                "void f(float* h, int n) { float* d; cudaMalloc(&d, n); cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost); cudaFree(d); }",
                "void f(float* h, int n, bool c) { float* d; cudaMalloc(&d, n); if (c) { cudaFree(d); return; } cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost); cudaFree(d); }",
                "void f(float* h, int n) { float* d; cudaMalloc(&d, n); cudaFree(d); cudaMalloc(&d, n); cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost); cudaFree(d); }",
            ],
            &["void f(float* h, int n) { float* d; cudaMalloc(&d, n); cudaFree(d); cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost); }"],
        );
    }
}
