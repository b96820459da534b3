use super::support::{likely_bound_parameter, snippet, verb};
use crate::diagnostic::{Edit, Fix};
use crate::lint::LintContext;
use crate::model::{IndexStatus, Model};

crate::declare_lint!(
    UNGUARDED_THREAD_INDEX,
    "unguarded-thread-index",
    Kernel,
    Warning,
    "global-memory access at a thread index that no `i < n` guard bounds",
    check,
    verifiable = true
);

fn check(model: &Model, cx: &mut LintContext) {
    for (kernel, facts) in model.kernel_facts() {
        for access in &facts.accesses {
            let IndexStatus::Unguarded { leaf, declaration } = &access.status else {
                continue;
            };
            let leaf_text = snippet(model, *leaf);
            let mut diagnostic = cx.diagnostic(
                access.node.byte_range(),
                format!(
                    "`{}` {} `{}` at an index derived from the global thread index that no guard bounds; threads past the end of the buffer access memory out of bounds",
                    snippet(model, access.node),
                    verb(access),
                    access.pointer
                ),
            );
            if let Some(declaration) = declaration {
                diagnostic = diagnostic.with_label(
                    declaration.byte_range(),
                    format!("`{leaf_text}` is computed from the thread index here"),
                );
            } else {
                diagnostic = diagnostic.with_label(
                    leaf.byte_range(),
                    format!("`{leaf_text}` spans the whole grid"),
                );
            }
            let bound = likely_bound_parameter(kernel);
            if let Some(bound) = bound {
                diagnostic = diagnostic.with_label(
                    bound.name_node.byte_range(),
                    format!("`{}` is never compared with `{leaf_text}`", bound.name),
                );
            }
            let bound_name = bound.map(|b| b.name.as_str()).unwrap_or("n");
            diagnostic = diagnostic.with_help(format!(
                "guard the access with `if ({leaf_text} < {bound_name})`, or return early with `if ({leaf_text} >= {bound_name}) return;`"
            ));
            if let (Some(bound), Some(statement)) = (bound, access.statement) {
                if statement.kind() == "expression_statement" && leaf.kind() == "identifier" {
                    let body = model.text(statement);
                    diagnostic = diagnostic.with_fix(Fix {
                        title: format!("wrap in `if ({leaf_text} < {})`", bound.name),
                        edits: vec![Edit {
                            span: statement.byte_range(),
                            replacement: format!("if ({leaf_text} < {}) {{ {body} }}", bound.name),
                        }],
                    });
                }
            }
            cx.report(diagnostic);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UNGUARDED_THREAD_INDEX;
    use crate::lint::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &UNGUARDED_THREAD_INDEX,
            &[
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = 1; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; o[i] = 1; }",
                "__global__ void k(float* o, int n) { for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) o[i] = 1; }",
                "__global__ void k(float* c, int M, int N) { int r = blockIdx.y * blockDim.y + threadIdx.y; int col = blockIdx.x * blockDim.x + threadIdx.x; if (r < M && col < N) c[r * N + col] = 0; }",
                "__global__ void k(float* c, int R, int C) { int r = blockIdx.y * blockDim.y + threadIdx.y; int q = blockIdx.x * blockDim.x + threadIdx.x; if (r >= R || q >= C) return; c[r * C + q] = 0; }",
                "__global__ void k(float* o, const float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i + 1 < n) o[i + 1] = a[i]; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i % n] = 1; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[min(i, n - 1)] = 1; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i & 1023] = 1; }",
                "__global__ void k(float* partial) { partial[blockIdx.x] = 0; }",
                "__global__ void k(float* o) { o[threadIdx.x] = 0; }",
                "__global__ void k(float* o, const float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; float v = i < n ? a[i] : 0.0f; o[i < n ? i : n - 1] = v; }",
                "__global__ void k(float* o, int n) { size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; if (i < (size_t)n) { o[i] = 2; } }",
                "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(float* o, int n) { auto g = cg::this_grid(); for (int i = g.thread_rank(); i < n; i += g.size()) o[i] = 0; }",
                "__global__ void k(int* flags, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n && flags[i]) flags[i] = 0; }",
            ],
            &[
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = 1; }",
                "__global__ void k(float* o, const float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; float v = *(a + i); o[0] = v; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; atomicAdd(&o[i], 1.0f); }",
                "__global__ void k(float* c, int M, int N) { int r = blockIdx.y * blockDim.y + threadIdx.y; int col = blockIdx.x * blockDim.x + threadIdx.x; if (r < M) c[r * N + col] = 0; }",
                "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(float* o, int n) { o[cg::this_grid().thread_rank()] = 0; }",
                "template <typename T> __global__ void k(T* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = T(0); }",
            ],
        );
    }
}
