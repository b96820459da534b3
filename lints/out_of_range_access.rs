use super::support::{snippet, variable_name, verb};
use crate::lint::LintContext;
use crate::model::host::LaunchedPointer;
use crate::model::kernel::{OverrunLaunch, SharedOverrun, VectorTail};
use crate::model::size::{self, Order, Sym};
use crate::model::{AccessKind, FunctionKind, IndexStatus, KernelFacts, Model};

crate::declare_lint!(
    OUT_OF_RANGE_ACCESS,
    "out-of-range-access",
    Kernel,
    Error,
    "access reached only when its index is out of range, under a guard that admits the bound or bounds only a vector's first element, at a constant slot past the launched buffer, or past the dynamic shared memory every launch gives",
    check,
    verifiable = true
);

fn check(model: &Model, cx: &mut LintContext) {
    for (_, facts) in model.kernel_facts() {
        for overrun in &facts.shared_overruns {
            dynamic_shared_overrun(model, cx, facts, overrun);
        }
        vector_tails(model, cx, &facts.vector_tails);
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
        threads_past_the_end(model, cx, &launched);
    }
}

/// An `extern __shared__` array indexed past the bytes every visible launch gives the block.
fn dynamic_shared_overrun(
    model: &Model,
    cx: &mut LintContext,
    facts: &KernelFacts,
    overrun: &SharedOverrun,
) {
    let access_text = snippet(model, overrun.node);
    let verb = match overrun.kind {
        AccessKind::Read => "reads",
        AccessKind::Write => "writes",
        AccessKind::ReadWrite => "updates",
    };
    let (array, element) = (&overrun.array, &overrun.element);
    let given = |bytes: &str| match bytes {
        "no" => "no dynamic shared memory".to_string(),
        bytes => format!("`{bytes}` bytes of dynamic shared memory"),
    };
    let mut labels = Vec::new();
    let mut elsewhere = Vec::new();
    for OverrunLaunch {
        launch,
        bytes,
        reach,
    } in &overrun.launches
    {
        let Some(launch) = facts.launches.get(*launch) else {
            continue;
        };
        let needs = match reach {
            Some((_, elements)) => format!(", where the access needs `{elements}` elements"),
            None => String::new(),
        };
        if launch.path == model.path {
            if labels.len() < 2 && !labels.iter().any(|(span, _)| *span == launch.span) {
                labels.push((
                    launch.span.clone(),
                    format!("launched here with {}{needs}", given(bytes)),
                ));
            }
        } else {
            elsewhere.push(format!("{} ({})", launch.location(), given(bytes)));
        }
    }
    let reach = match (&overrun.highest, overrun.launches.first()) {
        (
            Some(_),
            Some(OverrunLaunch {
                reach: Some((highest, _)),
                ..
            }),
        ) => format!("at an index up to `{highest}`"),
        (Some(highest), _) => format!("at an index up to `{highest}`"),
        (None, _) => "at all".to_string(),
    };
    let first = overrun
        .launches
        .first()
        .map(|l| given(&l.bytes))
        .unwrap_or_default();
    let launched = match (overrun.launches.len(), elsewhere.as_slice()) {
        (1, []) => format!("its launch gives the block {first}"),
        (1, [one]) => format!("its launch at {one} gives the block only that"),
        (count, []) => {
            format!("none of its {count} launches gives the block enough (the first gives {first})")
        }
        (count, more) => format!(
            "none of its {count} launches gives the block enough ({})",
            more.join(", ")
        ),
    };
    let mut diagnostic = cx
        .diagnostic(
            overrun.node.byte_range(),
            format!("`{access_text}` {verb} the `extern __shared__` array `{array}` {reach}, but {launched}, so threads access shared memory past the end of the block's allocation"),
        )
        .with_label(overrun.declaration.byte_range(), format!("`{array}` holds as many `{element}` elements as the launch's byte count gives"));
    for (span, label) in labels {
        diagnostic = diagnostic.with_label(span, label);
    }
    let help = match overrun.launches.first() {
        Some(OverrunLaunch {
            reach: Some((_, elements)),
            ..
        }) => format!("pass at least `{}` bytes as the launch's third configuration argument, or keep the index below the elements it gives", times_size(elements, element)),
        _ => format!("pass the bytes `{array}` needs as the launch's third configuration argument (`<<<grid, block, count * sizeof({element})>>>`)"),
    };
    cx.report(diagnostic.with_help(help));
}

/// `count * sizeof(T)`, with parentheses around a sum.
fn times_size(count: &str, element: &str) -> String {
    if count.contains(' ') {
        format!("({count}) * sizeof({element})")
    } else {
        format!("{count} * sizeof({element})")
    }
}

/// A whole device buffer passed to a kernel's pointer parameter of a built-in element type, with
/// the allocation that reaches the launch and its byte count.
struct WholeBuffer<'a, 't> {
    element: &'a str,
    element_size: i128,
    allocation: &'a crate::model::host::Allocation<'t>,
    held: &'a Sym,
}

fn whole_buffer<'a, 't>(launched: &LaunchedPointer<'a, 't>) -> Option<WholeBuffer<'a, 't>> {
    let pointer = launched.pointer;
    if !pointer.whole || pointer.host_data {
        return None;
    }
    let element = launched.parameter.element_type.as_deref()?;
    let element_size = size::builtin_size(element)?;
    let allocation = launched
        .host
        .reaching_allocation(pointer.variable, launched.event)?;
    let held = allocation.bytes.as_ref()?;
    Some(WholeBuffer {
        element,
        element_size,
        allocation,
        held,
    })
}

/// The launched kernel and, in this file, an access of it that its summary gives by its span
/// relative to the kernel's definition (a summary outlives the tree it was made from).
fn kernel_access<'m, 't>(
    model: &'m Model<'t>,
    launched: &LaunchedPointer,
    relative: &std::ops::Range<usize>,
) -> Option<(&'m crate::model::Function<'t>, std::ops::Range<usize>)> {
    let launch = launched.launch;
    let kernel = model.functions.iter().find(|f| {
        f.kind == FunctionKind::Kernel
            && f.name == launch.kernel
            && f.parameters.len() == launch.arguments.len()
    })?;
    let start = kernel.definition.start_byte();
    let span = start + relative.start..start + relative.end;
    (span.end <= kernel.definition.end_byte()).then_some((kernel, span))
}

/// A kernel that accesses a fixed slot of a pointer parameter (`counters[6]`), launched with a
/// buffer whose allocation provably ends before that slot: reported at the launch.
fn constant_slot_past_the_end(model: &Model, cx: &mut LintContext, launched: &LaunchedPointer) {
    let (host, launch, pointer) = (launched.host, launched.launch, launched.pointer);
    let Some(slot) = &launched.parameter.max_constant_index else {
        return;
    };
    let Some(WholeBuffer {
        element,
        element_size,
        allocation,
        held,
    }) = whole_buffer(launched)
    else {
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
    let Some((kernel, access)) = kernel_access(model, launched, &slot.span) else {
        return;
    };
    let name = variable_name(host, pointer.variable);
    let parameter = kernel
        .parameters
        .get(launched.position)
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

/// A kernel that every thread runs at exactly the global `x` index (`p[i]`, `i = blockIdx.x *
/// blockDim.x + threadIdx.x`, under no test), launched with a constant grid and block along `x`
/// that run more threads than the buffer passed holds elements: reported at the launch.
fn threads_past_the_end(model: &Model, cx: &mut LintContext, launched: &LaunchedPointer) {
    let (host, launch, pointer) = (launched.host, launched.launch, launched.pointer);
    let Some(relative) = &launched.parameter.global_x_access else {
        return;
    };
    let Some(WholeBuffer {
        element,
        element_size,
        allocation,
        held,
    }) = whole_buffer(launched)
    else {
        return;
    };
    let (Some(blocks), Some(per_block)) = (
        launch.grid.as_ref().and_then(|g| g.x),
        launch.block.as_ref().and_then(|b| b.x),
    ) else {
        return;
    };
    let Some(threads) = blocks.checked_mul(per_block).filter(|t| *t > 0) else {
        return;
    };
    let Some(held_bytes) = held.as_constant() else {
        return;
    };
    let Some(needed) = threads.checked_mul(element_size) else {
        return;
    };
    if held_bytes >= needed {
        return;
    }
    let Some((_, access)) = kernel_access(model, launched, relative) else {
        return;
    };
    let name = variable_name(host, pointer.variable);
    let access_text = model.source.get(access.clone()).unwrap_or("");
    let elements = held_bytes / element_size;
    let holds = match allocation.size_node {
        Some(node) => snippet(model, node),
        None => held.display(),
    };
    // at the argument: each buffer of one launch is a finding of its own
    let passed = launch
        .arguments
        .get(launched.position)
        .map_or_else(|| launch.call.byte_range(), |a| a.byte_range());
    cx.report(
        cx.diagnostic(
            passed,
            format!(
                "`{}` runs `{access_text}` in every thread at its global index, and this launch runs {threads} threads ({blocks} × {per_block}), but `{name}` passed here holds {elements} `{element}` elements, so the last {} threads access memory past the end of the allocation",
                launch.kernel,
                threads - elements
            ),
        )
        .with_label(allocation.call.byte_range(), format!("`{name}` allocated here with `{holds}` bytes"))
        .with_label(access, format!("every thread accesses its own element here, {needed} bytes needed"))
        .with_label(launch.call.byte_range(), format!("launched here with {threads} threads along `x`"))
        .with_help(format!("launch {elements} threads' worth (or fewer), allocate {threads} elements, or guard the access with the element count")),
    );
}

/// Vector accesses whose guard bounds their first element only: one finding per guarded size
/// and view, at the first access, the others as labels.
fn vector_tails(model: &Model, cx: &mut LintContext, tails: &[VectorTail]) {
    let mut groups: Vec<Vec<&VectorTail>> = Vec::new();
    for tail in tails {
        let key = |t: &VectorTail| (t.size.clone(), t.lanes, t.guard.map(|g| g.id()));
        match groups.iter_mut().find(|group| key(group[0]) == key(tail)) {
            Some(group) if !group.iter().any(|t| t.node == tail.node) => group.push(tail),
            Some(_) => {}
            None => groups.push(vec![tail]),
        }
    }
    for group in groups {
        let tail = group[0];
        let verb = match tail.kind {
            AccessKind::Read => "reads",
            AccessKind::Write => "writes",
            AccessKind::ReadWrite => "updates",
        };
        let (lanes, size, past) = (tail.lanes, &tail.size, tail.past);
        let reach = match past {
            1 => "1 element".to_string(),
            n => format!("up to {n} elements"),
        };
        let mut diagnostic = cx.diagnostic(
            tail.node.byte_range(),
            format!(
                "`{}` {verb} {lanes} `{}` elements of `{}` at once through a `{}` view, but the guard bounds only the first of them against `{size}`: unless `{size}` is a multiple of {lanes}, the last thread accesses {reach} past the end",
                snippet(model, tail.node),
                tail.element,
                tail.parameter,
                tail.view,
            ),
        );
        if let Some(guard) = tail.guard {
            diagnostic = diagnostic.with_label(
                guard.byte_range(),
                "this bounds the vector's first element, not its last",
            );
        }
        for other in group.iter().skip(1).take(3) {
            diagnostic = diagnostic.with_label(other.node.byte_range(), "the same vector access");
        }
        diagnostic = diagnostic.with_help(format!(
            "test the vector's last element (its first plus {}) against `{size}` and handle the remaining elements one at a time, or check that `{size}` is a multiple of {lanes} before the launch",
            lanes - 1
        ));
        cx.report(diagnostic);
    }
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
                // offsets read at their count elsewhere hold one entry more than it
                "__global__ void k(const int* off, int* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i <= n) o[0] = off[i]; else o[0] = off[n]; }",
                "__global__ void k(float* o, int n, int m) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { if (i >= m) o[i] = 0; } }",
                // the last of 4 slots, or a buffer whose size is not known to be smaller
                "__global__ void k(int* c) { c[3] = 1; atomicAdd(&c[2], 1); }\nvoid f() { int* d; cudaMalloc(&d, 4 * sizeof(int)); k<<<1, 1>>>(d); cudaFree(d); }",
                "__global__ void k(int* c) { c[6] = 1; }\nvoid f(int n) { int* d; cudaMalloc(&d, n * sizeof(int)); k<<<1, 1>>>(d); cudaFree(d); }",
                "__global__ void k(int* c) { c[6] = 1; }\nvoid f() { int* d; cudaMalloc(&d, 4 * sizeof(int)); k<<<1, 1>>>(d + 4); cudaFree(d); }",
                "template <typename T> __global__ void k(T* c) { c[6] = 1; }\nvoid f() { char* d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); cudaFree(d); }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; const bool valid = i < n; if (valid) o[i] = 1; }",
                // dynamic shared memory the launches size for the index, or do not say
                "__global__ void k(float* o) { extern __shared__ float s[]; s[threadIdx.x + blockDim.x] = 1; o[0] = s[0]; }\nvoid f(float* o, int b) { k<<<1, b, 2 * b * sizeof(float)>>>(o); }",
                "__global__ void k(float* o, int n) { extern __shared__ float s[]; for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = o[i]; }\nvoid f(float* o, int n) { k<<<1, 128, n * sizeof(float)>>>(o, n); }",
                "__global__ void k(float* o) { extern __shared__ float s[]; s[2 * threadIdx.x] = 1; }\nvoid f(float* o, size_t bytes) { k<<<1, 128, bytes>>>(o); k<<<1, 64>>>(o); }",
                "__global__ void k(float* o) { extern __shared__ float s[]; s[threadIdx.x] = 1; }",
                // a constant launch whose threads the buffer holds, or a size not known
                "__global__ void k(float* o) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = 1; }\nvoid f() { float* d; cudaMalloc(&d, 256 * sizeof(float)); k<<<8, 32>>>(d); cudaFree(d); }",
                "__global__ void k(float* o) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = 1; }\nvoid f(int n) { float* d; cudaMalloc(&d, n * sizeof(float)); k<<<8, 32>>>(d); cudaFree(d); }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = 1; }\nvoid f() { float* d; cudaMalloc(&d, 250 * sizeof(float)); k<<<8, 32>>>(d, 250); cudaFree(d); }",
                "__global__ void k(float* o) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[threadIdx.x] = 1; }\nvoid f() { float* d; cudaMalloc(&d, 32 * sizeof(float)); k<<<8, 32>>>(d); cudaFree(d); }",
                // vectors whose guard covers the last lane, or a count of whole vectors
                "__global__ void k(const float* in, int n) { int v = blockIdx.x * blockDim.x + threadIdx.x; if (v * 4 + 3 < n) { float4 x = reinterpret_cast<const float4*>(in)[v]; } }",
                "__global__ void k(const float* in, int n) { int v = blockIdx.x * blockDim.x + threadIdx.x; if (v < n / 4) { float4 x = reinterpret_cast<const float4*>(in)[v]; } }",
            ],
            &[
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n || i < 0) { o[i] = 0; } }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { o[i] = 1; } else { o[i] = 0; } }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i <= n) o[i] = 1; }",
                "__global__ void k(const int* off, int* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i <= n) o[0] = off[i + 1]; else o[0] = off[n]; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i > n) o[i] = 1; }",
                "__global__ void k(int* c) { c[6] = 1; }\nvoid f() { int* d; cudaMalloc(&d, 4 * sizeof(int)); k<<<1, 1>>>(d); cudaFree(d); }",
                "__global__ void k(double* c, int v) { atomicAdd(&c[5], 1.0); }\nvoid f() { double* d; cudaMalloc((void**)&d, 40); k<<<1, 1>>>(d, 1); cudaFree(d); }",
                "template <typename T> T* device_alloc(size_t n) { T* p; cudaMalloc(&p, n * sizeof(T)); return p; }\n__global__ void k(float* c) { c[8] = 1; }\nvoid f() { float* d = device_alloc<float>(8); k<<<1, 1>>>(d); cudaFree(d); }",
                // tests kept in flags
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; const bool valid = i <= n; if (valid) o[i] = 1; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; bool past = i >= n; if (past) o[i] = 0; }",
                // dynamic shared memory smaller than the index reaches under every launch
                "__global__ void k(float* o) { extern __shared__ float s[]; s[threadIdx.x + blockDim.x] = 1; o[0] = s[0]; }\nvoid f(float* o, int b) { k<<<1, b, b * sizeof(float)>>>(o); }",
                "__global__ void k(double* o) { extern __shared__ double s[]; s[threadIdx.x] = 1; }\nvoid f(double* o) { k<<<1, 256, 256 * sizeof(float)>>>(o); }",
                "extern __shared__ int s[];\n__global__ void k(int* o) { s[threadIdx.x] = o[threadIdx.x]; }\nvoid f(int* o) { k<<<1, 32>>>(o); }",
                // a constant launch running more threads than the buffer holds elements
                "__global__ void k(float* o) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = 1; }\nvoid f() { float* d; cudaMalloc(&d, 250 * sizeof(float)); k<<<8, 32>>>(d); cudaFree(d); }",
                // a vector whose guard bounds only its first lane
                "__global__ void k(const float* in, int n) { int v = blockIdx.x * blockDim.x + threadIdx.x; if ((v << 2) < n) { float4 x = reinterpret_cast<const float4*>(in)[v]; } }",
            ],
        );
    }
}
