use super::support::{snippet, variable_name};
use crate::lint::LintContext;
use crate::model::host::{HostFunction, Side, Transfer};
use crate::model::Model;
use crate::syntax::strip;

crate::declare_lint!(
    MEMCPY_DIRECTION_MISMATCH,
    "memcpy-direction-mismatch",
    Memory,
    Error,
    "cudaMemcpy kind that contradicts where the source and destination live",
    check
);

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Host => "host",
        Side::Device => "device",
    }
}

/// The first pointer of the copy whose side contradicts a kind: its name, role, the side the
/// kind says and the side it has.
fn contradiction(
    host: &HostFunction,
    transfer: &Transfer,
    (source_side, destination_side): (Side, Side),
) -> Option<(usize, &'static str, Side, Side)> {
    let candidates = [
        (transfer.destination, destination_side, "destination"),
        (transfer.source, source_side, "source"),
    ];
    candidates
        .into_iter()
        .find_map(|(pointer, expected, role)| {
            let pointer = pointer?;
            let actual = host.side_of(&pointer, transfer.call)?;
            (actual != expected).then_some((pointer.variable, role, expected, actual))
        })
}

fn check(model: &Model, cx: &mut LintContext) {
    for host in &model.host.functions {
        for transfer in &host.transfers {
            let Some(kind_node) = transfer.direction_node else {
                continue;
            };
            // every kind the argument may hold must contradict the pointers: a `?:` or a local
            // with one right kind may be right on the paths that run
            let found: Vec<_> = transfer
                .kinds
                .iter()
                .map(|(written, sides)| {
                    contradiction(host, transfer, *sides).map(|c| (*written, c))
                })
                .collect();
            if found.is_empty() || found.iter().any(Option::is_none) {
                continue;
            }
            let Some((written, (variable, role, expected, actual))) =
                found.into_iter().flatten().next()
            else {
                continue;
            };
            let name = variable_name(host, variable);
            let kind = snippet(model, written);
            let mut diagnostic = cx.diagnostic(kind_node.byte_range(), format!("`{kind}` says the {role} is {} memory, but `{name}` is {} memory, so the copy fails with an invalid-value error or moves the wrong way", side_name(expected), side_name(actual)))
                .with_label(transfer.call.byte_range(), format!("`{name}` is the {role} of this copy"));
            if written.byte_range() != strip(kind_node, model.source).byte_range() {
                for (other, _) in &transfer.kinds {
                    diagnostic = diagnostic.with_label(
                        other.byte_range(),
                        format!("the kind `{}` comes from here", snippet(model, *other)),
                    );
                }
            }
            cx.report(diagnostic.with_help("pass the destination first and the source second, with the kind that matches them (or cudaMemcpyDefault)"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MEMCPY_DIRECTION_MISMATCH;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &MEMCPY_DIRECTION_MISMATCH,
            &[
                "void f(int n) { float* h = (float*)malloc(n * 4); float* d; cudaMalloc(&d, n * 4); cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice); cudaMemcpy(h, d, n * 4, cudaMemcpyDeviceToHost); }",
                "void f(float* a, float* b, int n) { cudaMemcpy(a, b, n * 4, cudaMemcpyDeviceToHost); }",
                "void f(int n) { float* m; cudaMallocManaged(&m, n * 4); float* d; cudaMalloc(&d, n * 4); cudaMemcpy(d, m, n * 4, cudaMemcpyHostToDevice); }",
                // pinned host memory is reachable from the device: the copy succeeds
                "void f(int n) { float* h = (float*)malloc(n * 4); float* p; cudaMallocHost(&p, n * 4); cudaMemcpy(p, h, n * 4, cudaMemcpyHostToDevice); cudaMemcpy(h, p, n * 4, cudaMemcpyDeviceToHost); }",
                // a kind that may be the right one on the paths that run
                "void f(int n, bool up) { float* h = (float*)malloc(n * 4); float* d; cudaMalloc(&d, n * 4); cudaMemcpy(d, h, n * 4, up ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost); }",
                "void f(int n, bool up) { float* h = (float*)malloc(n * 4); float* d; cudaMalloc(&d, n * 4); cudaMemcpyKind k = cudaMemcpyDeviceToHost; if (up) k = cudaMemcpyHostToDevice; cudaMemcpy(d, h, n * 4, k); }",
            ],
            &[
                "void f(int n) { float* h = (float*)malloc(n * 4); float* d; cudaMalloc(&d, n * 4); cudaMemcpy(d, h, n * 4, cudaMemcpyDeviceToHost); }",
                "void f(int n) { std::vector<float> v(n); float* d; cudaMalloc(&d, n * 4); cudaMemcpy(v.data(), d, n * 4, cudaMemcpyHostToDevice); }",
                "void f(int n) { float* h = (float*)malloc(n * 4); float* d; cudaMalloc(&d, n * 4); cudaMemcpyKind k = cudaMemcpyHostToDevice; cudaMemcpy(d, h, n * 4, k); cudaMemcpy(h, d, n * 4, k); }",
                "void f(int n, bool p) { float* h = (float*)malloc(n * 4); float* d; cudaMalloc(&d, n * 4); cudaMemcpy(h, d, n * 4, p ? cudaMemcpyHostToHost : cudaMemcpyHostToDevice); }",
                "void f(int w, int r) { float* h = (float*)malloc(w * r * 4); float* d; cudaMalloc(&d, w * r * 4); cudaMemcpy2D(h, w * 4, d, w * 4, w * 4, r, cudaMemcpyHostToDevice); }",
            ],
        );
    }
}
