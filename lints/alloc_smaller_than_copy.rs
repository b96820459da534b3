use super::support::{snippet, variable_name};
use crate::lint::LintContext;
use crate::model::size::Order;
use crate::model::Model;

crate::declare_lint!(
    ALLOC_SMALLER_THAN_COPY,
    "alloc-smaller-than-copy",
    Memory,
    Error,
    "copy or memset that touches more bytes than the buffer's allocation holds",
    check
);

fn check(model: &Model, cx: &mut LintContext) {
    for host in &model.host.functions {
        for transfer in &host.transfers {
            let (Some(bytes), Some(size_node)) = (&transfer.bytes, transfer.size_node) else {
                continue;
            };
            let sides = [
                (
                    transfer.destination,
                    if transfer.is_memset { "sets" } else { "writes" },
                    "into",
                ),
                (transfer.source, "reads", "out of"),
            ];
            for (pointer, verb, preposition) in sides {
                let Some(pointer) = pointer.filter(|p| p.whole && !p.host_data) else {
                    continue;
                };
                let Some(event) = host.event_at(pointer.variable, transfer.call) else {
                    continue;
                };
                let Some(allocation) = host.reaching_allocation(pointer.variable, event) else {
                    continue;
                };
                let Some(held) = &allocation.bytes else {
                    continue;
                };
                if held.compare(bytes) != Order::ProvablySmaller {
                    continue;
                }
                let Some(missing) = bytes.sub(held) else {
                    continue;
                };
                let name = variable_name(host, pointer.variable);
                let moved = snippet(model, size_node);
                // a helper's allocation has its size as the helper computes it, with the call's
                // arguments put in
                let holds = match allocation.size_node {
                    Some(node) => snippet(model, node),
                    None => held.display(),
                };
                let allocated = match &allocation.helper {
                    Some(helper) => {
                        format!("`{name}` allocated by `{helper}` here with `{holds}` bytes")
                    }
                    None => format!("`{name}` allocated here with `{holds}` bytes"),
                };
                cx.report(
                    cx.diagnostic(
                        transfer.call.byte_range(),
                        format!(
                            "{} {verb} `{moved}` bytes {preposition} `{name}`, which holds `{holds}` bytes ({} bytes too few), so it corrupts or reads past the end of the allocation",
                            transfer.api,
                            missing.display()
                        ),
                    )
                    .with_label(allocation.call.byte_range(), allocated)
                    .with_help("compute the byte count once and use it for both the allocation and the copy"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ALLOC_SMALLER_THAN_COPY;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &ALLOC_SMALLER_THAN_COPY,
            &[
                "void f(const float* h, int n) { float* d; cudaMalloc(&d, n * sizeof(float)); cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); }",
                "void f(const float* h, int n) { float* d; const size_t bytes = n * sizeof(*d); cudaMalloc(&d, bytes); cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); }",
                "void f(const float* h, int n, int m) { float* d; cudaMalloc(&d, m * sizeof(float)); cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); }",
                "void f(const float* h, int n) { float* d; cudaMalloc(&d, n * sizeof(float)); cudaMemcpy(d, h, n / 2 * sizeof(float), cudaMemcpyHostToDevice); }",
                "template <typename T> T* device_alloc(size_t n) { T* p; cudaMalloc(&p, n * sizeof(T)); return p; }\n void f(const float* h, int n) { float* d = device_alloc<float>(n); cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); }",
                "template <typename T> void alloc_buffer(T** out, size_t bytes) { cudaMalloc(reinterpret_cast<void**>(out), bytes); }\n void f(const float* h, size_t bytes) { float* d; alloc_buffer(&d, bytes); cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); }",
                // a helper calling a helper, the element type handed down: 8 * n bytes both
                "template <typename T> T* make(size_t n) { T* p; cudaMalloc(&p, n * sizeof(T)); return p; } template <typename T> T* wrap(size_t n) { return make<T>(n); } void f(const float* h, int n) { float* d = wrap<double>(n); cudaMemcpy(d, h, n * sizeof(double), cudaMemcpyHostToDevice); }",
            ],
            &[
                "void f(const float* h, int n) { float* d; cudaMalloc(&d, n * sizeof(float) - 1024); cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); }",
                "void f(int n) { float* d; cudaMalloc(&d, n * sizeof(float)); cudaMemset(d, 0, (n + 1) * sizeof(float)); }",
                "#define N 64\nvoid f(float* h) { float* d; cudaMalloc(&d, N * 4); cudaMemcpy(h, d, 2 * N * sizeof(float), cudaMemcpyDeviceToHost); }",
                "void f(const float* h, size_t bytes) { float* d; cudaMalloc(reinterpret_cast<void**>(&d), bytes / 2); cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); }",
                "void f(const float* h, size_t bytes) { float* d; cudaMallocManaged((void **) &d, bytes - 16); cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); }",
                "void f(const float* h, size_t bytes, cudaStream_t s) { float* d; cudaMallocAsync(static_cast<void**>(static_cast<void*>(&d)), bytes / 4, s); cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); }",
                "template <typename T> T* device_alloc(size_t n) { T* p; cudaMalloc(&p, n * sizeof(T)); return p; }\n void f(const float* h, int n) { float* d = device_alloc<float>(n / 2); cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); }",
                "template <typename T> void alloc_buffer(T** out, size_t bytes) { cudaMalloc(reinterpret_cast<void**>(out), bytes); }\n void f(const float* h, size_t bytes) { float* d; alloc_buffer(&d, bytes / 2); cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice); }",
            ],
        );
    }
}
