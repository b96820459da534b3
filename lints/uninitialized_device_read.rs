use super::support::variable_name;
use crate::lint::LintContext;
use crate::model::host::{Allocation, Event, EventKind, HostFunction, Memory, WriteKind};
use crate::model::size::{builtin_size, Order, Sym};
use crate::model::Model;

crate::declare_lint!(
    UNINITIALIZED_DEVICE_READ,
    "uninitialized-device-read",
    Memory,
    Error,
    "kernel reads device memory that no copy, memset or earlier kernel wrote",
    check
);

/// What wrote a buffer between its allocation and a read: each write's byte count (None when
/// unknown) and where it happened. None when something the model does not follow may have
/// written it.
type Writes<'t> = Vec<(Option<Sym>, tree_sitter::Node<'t>)>;

fn writes_before<'t>(
    model: &Model,
    host: &HostFunction<'t>,
    variable: usize,
    event: &Event<'t>,
    allocation: &Allocation<'t>,
) -> Option<Writes<'t>> {
    let read_loop = event.enclosing_loop;
    let mut writes = Vec::new();
    for earlier in host.events_before(variable, event) {
        let in_read_loop = read_loop.is_some_and(|l| {
            l.start_byte() <= earlier.node.start_byte() && earlier.node.end_byte() <= l.end_byte()
        });
        if earlier.node.end_byte() <= allocation.call.start_byte() && !in_read_loop {
            continue;
        }
        match &earlier.kind {
            EventKind::Allocated { .. }
            | EventKind::Read { .. }
            | EventKind::Borrowed { writes: false, .. } => {}
            EventKind::Written {
                kind: WriteKind::Copy | WriteKind::Memset,
                bytes,
                whole: true,
            } => writes.push((bytes.clone(), earlier.node)),
            EventKind::Launched {
                launch: other,
                argument,
                ..
            } => {
                let writes_it = host
                    .launches
                    .get(*other)
                    .and_then(|l| model.host.kernel(&l.kernel, l.arguments.len()))
                    .and_then(|k| k.parameters.get(*argument))
                    .is_none_or(|p| !p.is_const);
                if writes_it {
                    return None;
                }
            }
            _ => return None,
        }
    }
    Some(writes)
}

fn check(model: &Model, cx: &mut LintContext) {
    for launched in model.host.launched_pointers() {
        let (host, launch, position, pointer, parameter, event) = (
            launched.host,
            launched.launch,
            launched.position,
            launched.pointer,
            launched.parameter,
            launched.event,
        );
        // a captured stream or a graph runs its launches later, in an order the source does not show
        if !pointer.whole || !parameter.reads || parameter.plain_writes || host.uses_graphs {
            continue;
        }
        let Some(allocation) = host.reaching_allocation(pointer.variable, event) else {
            continue;
        };
        if allocation.memory != Memory::Device {
            continue;
        }
        let Some(writes) = writes_before(model, host, pointer.variable, event, allocation) else {
            continue;
        };
        let name = variable_name(host, pointer.variable);
        let kernel = &launch.kernel;
        if writes.is_empty() {
            cx.report(
                cx.diagnostic(launch.arguments[position].byte_range(), format!("`{kernel}` reads `{name}`, but nothing wrote `{name}` after its allocation, so the kernel computes with uninitialized memory"))
                    .with_label(allocation.call.byte_range(), format!("`{name}` allocated here and never written before the launch"))
                    .with_help(format!("copy the input into `{name}` (cudaMemcpy) or clear it (cudaMemset) before the launch")),
            );
            continue;
        }
        // what the kernel reads: its guarded extent at this launch, else the whole allocation
        let (read_bytes, whole_buffer) = match read_bytes(parameter, launch) {
            Some(bytes) => (bytes, false),
            None => match &allocation.bytes {
                Some(bytes) => (bytes.clone(), true),
                None => continue,
            },
        };
        if writes.iter().any(|(bytes, _)| {
            bytes
                .as_ref()
                .is_none_or(|b| b.compare(&read_bytes) != Order::ProvablySmaller)
        }) {
            continue;
        }
        let (written, node) = &writes[writes.len() - 1];
        let written = written.as_ref().map(|w| w.display()).unwrap_or_default();
        let message = if whole_buffer {
            format!("`{kernel}` reads `{name}`, which holds `{}` bytes, but only `{written}` bytes of it were written before the launch, so the rest is uninitialized", read_bytes.display())
        } else {
            format!("`{kernel}` reads `{}` bytes of `{name}`, but only `{written}` bytes were written before the launch, so the rest is uninitialized", read_bytes.display())
        };
        cx.report(
            cx.diagnostic(launch.arguments[position].byte_range(), message)
                .with_label(node.byte_range(), format!("only `{written}` bytes of `{name}` written here"))
                .with_label(allocation.call.byte_range(), format!("`{name}` allocated here"))
                .with_help("copy or clear the whole region the kernel reads (a byte count is elements times `sizeof` of the element), or pass the kernel the count that was copied"),
        );
    }
    // a function of this file that launches a kernel reading the buffer (a launcher) reads it
    for host in model.host.functions.iter().filter(|h| !h.uses_graphs) {
        for event in &host.events {
            if !matches!(event.kind, EventKind::Borrowed { reads: true, .. }) {
                continue;
            }
            let Some(allocation) = host.reaching_allocation(event.variable, event) else {
                continue;
            };
            if allocation.memory != Memory::Device {
                continue;
            }
            let Some(writes) = writes_before(model, host, event.variable, event, allocation) else {
                continue;
            };
            if !writes.is_empty() {
                continue;
            }
            let name = variable_name(host, event.variable);
            let callee = crate::model::host::called_name(event.node, model.source);
            cx.report(
                cx.diagnostic(event.node.byte_range(), format!("`{callee}` launches a kernel that reads `{name}`, but nothing wrote `{name}` after its allocation, so the kernel computes with uninitialized memory"))
                    .with_label(allocation.call.byte_range(), format!("`{name}` allocated here and never written before the call"))
                    .with_help(format!("copy the input into `{name}` (cudaMemcpy) or clear it (cudaMemset) before the call")),
            );
        }
    }
}

/// Bytes the kernel reads from a parameter at this launch: its extent bound to the arguments.
fn read_bytes(
    parameter: &crate::model::host::ParameterSummary,
    launch: &crate::model::host::Launch,
) -> Option<Sym> {
    let extent = parameter.read_extent.as_ref()?;
    let elements = extent.substitute(&|atom: &str| {
        let index: usize = atom.strip_prefix('#')?.parse().ok()?;
        launch.argument_values.get(index)?.clone()
    })?;
    let element_type = parameter.element_type.as_deref()?;
    let element = match builtin_size(element_type) {
        Some(size) => Sym::constant(size),
        None => Sym::atom(&format!("sizeof({element_type})")),
    };
    elements.mul(&element)
}

#[cfg(test)]
mod tests {
    use super::UNINITIALIZED_DEVICE_READ;
    use crate::testing::assert_cases;

    const KERNEL: &str = "__global__ void k(const float* in, float* out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = in[i]; }\n";

    #[test]
    fn cases() {
        let pass = [
            "void f(const float* h, int n) { float *a, *b; cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float)); cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice); k<<<1, 1>>>(a, b, n); }",
            "void g(float*); void f(int n) { float *a, *b; cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float)); g(a); k<<<1, 1>>>(a, b, n); }",
            "void f(int n) { float *a, *b; cudaMallocManaged(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float)); k<<<1, 1>>>(a, b, n); }",
            "void f(int n) { float *a, *b; cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float)); cudaMemset(a, 0, n * sizeof(float)); k<<<1, 1>>>(a, b, n); k<<<1, 1>>>(b, a, n); }",
            // an allocation helper that also clears the buffer hands it over written
            "float* zeros(int n) { float* p; cudaMalloc(&p, n * sizeof(float)); cudaMemset(p, 0, n * sizeof(float)); return p; }\nvoid f(int n) { float* a = zeros(n); float* b; cudaMalloc(&b, n * sizeof(float)); k<<<1, 1>>>(a, b, n); }",
            // cleared before the accumulation; a launcher that fills the buffer
            "__global__ void sum(const float* in, float* t, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) atomicAdd(t, in[i]); }\nvoid f(int n) { float *a, *t; cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&t, sizeof(float)); cudaMemset(a, 0, n * sizeof(float)); cudaMemset(t, 0, sizeof(float)); sum<<<1, 1>>>(a, t, n); }",
            "void fill(float* p, const float* h, int n) { cudaMemcpy(p, h, n * sizeof(float), cudaMemcpyHostToDevice); }\nvoid f(const float* h, int n) { float *a, *b; cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float)); fill(a, h, n); k<<<1, 1>>>(a, b, n); }",
            // a captured stream runs its launches later
            "void f(int n, cudaStream_t s) { float *a, *b; cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float)); cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal); k<<<1, 1, 0, s>>>(a, b, n); }",
        ];
        let fail = [
            "float* make(int n) { float* p; cudaMalloc(&p, n * sizeof(float)); return p; }\nvoid f(int n) { float* a = make(n); float* b = make(n); k<<<1, 1>>>(a, b, n); }",
            "void f(int n) { float *a, *b; cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float)); k<<<1, 1>>>(a, b, n); }",
            "void f(const float* h, int n) { float *a, *b; cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float)); cudaMemcpy(a, h, n / 2 * sizeof(float), cudaMemcpyHostToDevice); k<<<1, 1>>>(a, b, n); }",
            // updates read what the memory holds
            "__global__ void sum(const float* in, float* t, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) atomicAdd(t, in[i]); }\nvoid f(int n) { float *a, *t; cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&t, sizeof(float)); cudaMemset(a, 0, n * sizeof(float)); sum<<<1, 1>>>(a, t, n); }",
            "__global__ void acc(const float* in, float* t, int n) { if (threadIdx.x == 0) { for (int j = 0; j < n; ++j) *t += in[j]; } }\nvoid f(int n) { float *a, *t; cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&t, sizeof(float)); cudaMemset(a, 0, n * sizeof(float)); acc<<<1, 1>>>(a, t, n); }",
            // a launcher reads what it is given
            "void run(const float* in, float* out, int n) { k<<<1, 1>>>(in, out, n); }\nvoid f(int n) { float *a, *b; cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float)); run(a, b, n); }",
            // a memset of the element count: a quarter of the bins
            "__global__ void hist(const int* in, int* bins, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) atomicAdd(&bins[in[i] & 255], 1); }\nvoid f(const int* h, int n) { int *a, *bins; cudaMalloc(&a, n * sizeof(int)); cudaMalloc(&bins, 256 * sizeof(int)); cudaMemcpy(a, h, n * sizeof(int), cudaMemcpyHostToDevice); cudaMemset(bins, 0, 256); hist<<<1, 1>>>(a, bins, n); }",
        ];
        let pass: Vec<String> = pass.iter().map(|c| format!("{KERNEL}{c}")).collect();
        let fail: Vec<String> = fail.iter().map(|c| format!("{KERNEL}{c}")).collect();
        assert_cases(
            &UNINITIALIZED_DEVICE_READ,
            &pass.iter().map(String::as_str).collect::<Vec<_>>(),
            &fail.iter().map(String::as_str).collect::<Vec<_>>(),
        );
    }
}
