use super::support::variable_name;
use crate::lint::LintContext;
use crate::model::host::EventKind;
use crate::model::Model;

crate::declare_lint!(
    DOUBLE_FREE,
    "double-free",
    Memory,
    Error,
    "device pointer released twice with cudaFree",
    check
);

fn check(model: &Model, cx: &mut LintContext) {
    for host in &model.host.functions {
        if host.uses_graphs {
            continue;
        }
        for free in host
            .events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Freed { device: true }))
        {
            let next = host
                .events_of(free.variable)
                // a free macro that nulls its argument (`ptr = NULL;` in its body) clears it at
                // the call itself
                .filter(|e| {
                    e.node.start_byte() >= free.node.end_byte()
                        || (e.node.id() == free.node.id() && matches!(e.kind, EventKind::Nulled))
                })
                .find(|e| {
                    e.kind.defines()
                        || matches!(e.kind, EventKind::Escaped | EventKind::Freed { .. })
                });
            let Some(second) = next else { continue };
            if !matches!(second.kind, EventKind::Freed { device: true })
                || !free.dominates(second)
                || host.jump_target_between(free, second)
            {
                continue;
            }
            report(
                cx,
                variable_name(host, free.variable),
                free.node,
                second.node,
            );
        }
        // members, globals and fields: storage the function does not declare
        for second in &host.outer_frees {
            if let Some(first) = second.freed_before {
                report(cx, &second.place, first, second.call);
            }
        }
    }
}

fn report(cx: &mut LintContext, name: &str, first: tree_sitter::Node, second: tree_sitter::Node) {
    cx.report(
        cx.diagnostic(second.byte_range(), format!("`{name}` is freed a second time here, which returns an error or releases memory that was reallocated meanwhile"))
            .with_label(first.byte_range(), format!("`{name}` already freed here"))
            .with_help(format!("free `{name}` once, or set it to nullptr after freeing it")),
    );
}

#[cfg(test)]
mod tests {
    use super::DOUBLE_FREE;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &DOUBLE_FREE,
            &[
                "void f(int n) { float* d; cudaMalloc(&d, n); cudaFree(d); d = nullptr; cudaFree(d); }",
                "void f(int n, bool c) { float* d; cudaMalloc(&d, n); if (c) { cudaFree(d); return; } cudaFree(d); }",
                "void f(int n) { float* d; for (int i = 0; i < 2; ++i) { cudaMalloc(&d, n); cudaFree(d); } }",
                "void f(float* p, bool on_device) { on_device ? cudaFree(p) : cudaFreeHost(p); }",
                "void f(float* p, bool on_device) { on_device ? cudaFree(p) : (void)0; on_device || cudaFree(p); }",
                // members freed once each, or reallocated between, or on different paths
                "struct P { float* d_pos; float* d_cost; ~P(); };\nP::~P() { cudaFree(d_pos); cudaFree(d_cost); }",
                "struct P { float* d; void grow(int n); };\nvoid P::grow(int n) { cudaFree(d); cudaMalloc(&d, n); cudaFree(d); }",
                "struct P { float* d; void reset(); void again(); };\nvoid P::again() { cudaFree(d); reset(); cudaFree(d); }",
                "float* g;\nvoid f(bool c) { if (c) cudaFree(g); cudaFree(g); g = nullptr; }",
                "struct B { float* d; };\nvoid f(B& a, B& b) { cudaFree(a.d); cudaFree(b.d); a = b; cudaFree(a.d); }",
                "void f(float** d, int n) { for (int i = 0; i < n; i++) cudaFree(d[i]); }",
                "#define CHK(s, l) do { if (!(s)) goto l; } while (0)\nint f(int n) { float* d; CHK(cudaMalloc(&d, n) == 0, err); CHK(cudaMemset(d, 0, n) == 0, err_free); cudaFree(d); return 0; err_free: cudaFree(d); err: return 1; }",
            ],
            &[
                "void f(int n) { float* d; cudaMalloc(&d, n); cudaFree(d); cudaFree(d); }",
                "void f(float* p, bool on_device) { cudaFree(p); on_device ? cudaFree(p) : cudaFreeHost(p); }",
                "int f(int n, bool c) { float* d; cudaMalloc(&d, n); if (c) goto out; cudaFree(d); cudaFree(d); out: return 0; }",
                // a member freed twice in a destructor, a global, a field of a structure
                "struct P { float* d_pos; float* d_cost; ~P(); };\nP::~P() { cudaFree(d_pos); cudaFree(d_pos); }",
                "float* d_pos;\nvoid release() { CHECK(cudaFree(d_pos)); printf(\"done\"); CHECK(cudaFree(d_pos)); }",
                "struct B { float* d; };\nvoid release(B& b) { cudaFree(b.d); cudaFree(this->d); cudaFree(b.d); }",
            ],
        );
    }
}
