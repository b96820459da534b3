use super::support::{snippet, variable_name};
use crate::lint::LintContext;
use crate::model::host::Side;
use crate::model::Model;

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

fn check(model: &Model, cx: &mut LintContext) {
    for host in &model.host.functions {
        for transfer in &host.transfers {
            let (Some((source_side, destination_side)), Some(kind_node)) =
                (transfer.direction, transfer.direction_node)
            else {
                continue;
            };
            let candidates = [
                (transfer.destination, destination_side, "destination"),
                (transfer.source, source_side, "source"),
            ];
            for (pointer, expected, role) in candidates {
                let Some(pointer) = pointer else { continue };
                let Some(actual) = host.side_of(&pointer, transfer.call) else {
                    continue;
                };
                if actual == expected {
                    continue;
                }
                let name = variable_name(host, pointer.variable);
                let kind = snippet(model, kind_node);
                cx.report(
                    cx.diagnostic(kind_node.byte_range(), format!("`{kind}` says the {role} is {} memory, but `{name}` is {} memory, so the copy fails with an invalid-value error or moves the wrong way", side_name(expected), side_name(actual)))
                        .with_label(transfer.call.byte_range(), format!("`{name}` is the {role} of this copy"))
                        .with_help("pass the destination first and the source second, with the kind that matches them (or cudaMemcpyDefault)"),
                );
                break;
            }
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
            ],
            &[
                "void f(int n) { float* h = (float*)malloc(n * 4); float* d; cudaMalloc(&d, n * 4); cudaMemcpy(d, h, n * 4, cudaMemcpyDeviceToHost); }",
                "void f(int n) { std::vector<float> v(n); float* d; cudaMalloc(&d, n * 4); cudaMemcpy(v.data(), d, n * 4, cudaMemcpyHostToDevice); }",
            ],
        );
    }
}
