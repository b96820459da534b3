use super::support::{snippet, variable_name, verb};
use crate::lint::LintContext;
use crate::model::host::LaunchedPointer;
use crate::model::size::{self, Order, Sym};
use crate::model::{FunctionKind, IndexStatus, Model};

crate::declare_lint!(
    OUT_OF_RANGE_ACCESS,
    "out-of-range-access",
    Kernel,
    Error,
    "access reached only when its index is out of range, under a guard that admits the bound, or at a constant slot past the launched buffer",
    check,
    verifiable = true
);

fn check(model: &Model, cx: &mut LintContext) {
    for (_, facts) in model.kernel_facts() {
        for access in &facts.accesses {
            let IndexStatus::OutOfRange {
                guard,
                admits_bound,
            } = &access.status
            else {
                continue;
            };
            let guard_text = snippet(model, *guard);
            let access_text = snippet(model, access.node);
            let index_text = snippet(model, access.index);
            let diagnostic = if *admits_bound {
                cx.diagnostic(
                    access.node.byte_range(),
                    format!("`{access_text}` {} `{}` under `{guard_text}`, which lets `{index_text}` reach the bound itself, one element past the end", verb(access), access.pointer),
                )
                .with_label(guard.byte_range(), "`<=` admits the bound")
                .with_help("compare with `<` so the last index is the bound minus one")
            } else {
                cx.diagnostic(
                    access.node.byte_range(),
                    format!("`{access_text}` {} `{}` only when `{index_text}` is out of range, so every thread that reaches it accesses memory past the buffer", verb(access), access.pointer),
                )
                .with_label(guard.byte_range(), format!("`{index_text}` is out of range whenever this branch runs"))
                .with_help("move the access into the in-range branch, or drop it from the out-of-range path")
            };
            cx.report(diagnostic);
        }
    }
    for launched in model.host.launched_pointers() {
        constant_slot_past_the_end(model, cx, &launched);
    }
}

/// A kernel that accesses a fixed slot of a pointer parameter (`counters[6]`), launched with a
/// buffer whose allocation provably ends before that slot: reported at the launch.
fn constant_slot_past_the_end(model: &Model, cx: &mut LintContext, launched: &LaunchedPointer) {
    let (host, launch, pointer) = (launched.host, launched.launch, launched.pointer);
    if !pointer.whole || pointer.host_data {
        return;
    }
    let Some(slot) = &launched.parameter.max_constant_index else {
        return;
    };
    let Some(element) = launched.parameter.element_type.as_deref() else {
        return;
    };
    let Some(element_size) = size::builtin_size(element) else {
        return;
    };
    let Some(allocation) = host.reaching_allocation(pointer.variable, launched.event) else {
        return;
    };
    let Some(held) = &allocation.bytes else {
        return;
    };
    let Some(needed) = slot
        .index
        .checked_add(1)
        .and_then(|n| n.checked_mul(element_size))
    else {
        return;
    };
    if held.compare(&Sym::constant(needed)) != Order::ProvablySmaller {
        return;
    }
    // the kernel's access, from its span relative to the kernel's definition
    let kernel = model.functions.iter().find(|f| {
        f.kind == FunctionKind::Kernel
            && f.name == launch.kernel
            && f.parameters.len() == launch.arguments.len()
    });
    let access = kernel.and_then(|k| {
        let start = k.definition.start_byte();
        let span = start + slot.span.start..start + slot.span.end;
        (span.end <= k.definition.end_byte()).then_some(span)
    });
    let Some(access) = access else {
        return;
    };
    let name = variable_name(host, pointer.variable);
    let parameter = kernel
        .and_then(|k| k.parameters.get(launched.position))
        .map(|p| p.name.as_str())
        .unwrap_or("?");
    let access_text = model.source.get(access.clone()).unwrap_or("");
    let (count, bytes) = match held.as_constant() {
        Some(bytes) => (
            format!("{} `{element}` elements", bytes / element_size),
            format!("{bytes} bytes"),
        ),
        None => (
            format!(
                "`({}) / {element_size}` `{element}` elements",
                held.display()
            ),
            format!("`{}` bytes", held.display()),
        ),
    };
    let holds = match allocation.size_node {
        Some(node) => snippet(model, node),
        None => held.display(),
    };
    let index = slot.index;
    cx.report(
        cx.diagnostic(
            launch.call.byte_range(),
            format!(
                "`{}` accesses element {index} of `{parameter}` (`{access_text}`), but `{name}` passed here holds {count} ({bytes}), so the kernel touches memory past the end of the allocation",
                launch.kernel
            ),
        )
        .with_label(allocation.call.byte_range(), format!("`{name}` allocated here with `{holds}` bytes"))
        .with_label(access, format!("element {index} accessed here, {needed} bytes needed"))
        .with_help(format!("allocate at least {} elements ({needed} bytes) for `{name}`, or keep the kernel's slots within the allocation", index + 1)),
    );
}

#[cfg(test)]
mod tests {
    use super::OUT_OF_RANGE_ACCESS;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &OUT_OF_RANGE_ACCESS,
            &[
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = 1; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i > 0 && i < n) o[i] = o[i - 1]; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) { o[i - n] = 0; } }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i <= n - 1) o[i] = 1; }",
                "__global__ void k(float* o, int n, int m) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { if (i >= m) o[i] = 0; } }",
                // the last of 4 slots, or a buffer whose size is not known to be smaller
                "__global__ void k(int* c) { c[3] = 1; atomicAdd(&c[2], 1); }\nvoid f() { int* d; cudaMalloc(&d, 4 * sizeof(int)); k<<<1, 1>>>(d); cudaFree(d); }",
                "__global__ void k(int* c) { c[6] = 1; }\nvoid f(int n) { int* d; cudaMalloc(&d, n * sizeof(int)); k<<<1, 1>>>(d); cudaFree(d); }",
                "__global__ void k(int* c) { c[6] = 1; }\nvoid f() { int* d; cudaMalloc(&d, 4 * sizeof(int)); k<<<1, 1>>>(d + 4); cudaFree(d); }",
                "template <typename T> __global__ void k(T* c) { c[6] = 1; }\nvoid f() { char* d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); cudaFree(d); }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; const bool valid = i < n; if (valid) o[i] = 1; }",
            ],
            &[
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n || i < 0) { o[i] = 0; } }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { o[i] = 1; } else { o[i] = 0; } }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i <= n) o[i] = 1; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i > n) o[i] = 1; }",
                "__global__ void k(int* c) { c[6] = 1; }\nvoid f() { int* d; cudaMalloc(&d, 4 * sizeof(int)); k<<<1, 1>>>(d); cudaFree(d); }",
                "__global__ void k(double* c, int v) { atomicAdd(&c[5], 1.0); }\nvoid f() { double* d; cudaMalloc((void**)&d, 40); k<<<1, 1>>>(d, 1); cudaFree(d); }",
                "template <typename T> T* device_alloc(size_t n) { T* p; cudaMalloc(&p, n * sizeof(T)); return p; }\n__global__ void k(float* c) { c[8] = 1; }\nvoid f() { float* d = device_alloc<float>(8); k<<<1, 1>>>(d); cudaFree(d); }",
                // tests kept in flags
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; const bool valid = i <= n; if (valid) o[i] = 1; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; bool past = i >= n; if (past) o[i] = 0; }",
            ],
        );
    }
}
