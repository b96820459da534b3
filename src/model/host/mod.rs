//! Host-side facts: per host function, the pointer variables and the ordered events on them
//! (allocation, copies, launches, frees, escapes), launch sites with their configuration, CUDA
//! calls with whether their result is read, and kernel summaries that say how much of each
//! buffer a kernel reads.
//!
//! Everything is syntactic and per function. Code the model does not understand (a call into an
//! unknown function, an alias) turns the variable's facts into "unknown" (an escape), never into
//! a wrong fact: the lints only conclude from facts that hold on every path.

use super::runtime::{cuda_name, launch_form};
use super::size::{self, Evaluator, Scope, Sym};
use super::{AccessKind, FunctionKind, IndexStatus, Model, Reuse};
use crate::syntax::call_arguments as arguments;
use crate::syntax::NodeExt;
use crate::syntax::{
    self, named_children, normalized, operator, strip, text, walk_iterative, MAX_DEPTH,
};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use tree_sitter::Node;

mod builder;
mod caller_resets;
mod calls;
mod helpers;
mod launches;
mod loops;
mod macro_calls;
mod outer_frees;
mod parameters;
mod queries;
mod statements;
mod stored;
mod summary;

pub use caller_resets::CallerResets;
pub use helpers::{
    may_allocate_for_caller, summarized_for_callers, HelperAllocation, HelperSummary, HelperTarget,
    ParameterUse,
};
pub use stored::{StoredAllocation, StoredBuffers};
pub use summary::summarize_kernel;

/// Where a buffer lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Memory {
    /// `cudaMalloc`, `cudaMallocAsync`, `cudaMallocPitch`, `cuMemAlloc`.
    Device,
    /// `cudaMallocManaged`: valid on host and device.
    Managed,
    /// A device view of mapped host memory (`cudaHostGetDevicePointer`).
    Mapped,
    /// `cudaMallocHost`, `cudaHostAlloc`: host memory, pinned.
    Pinned,
    /// `malloc`, `calloc`, `new[]`, a stack array.
    Host,
}

impl Memory {
    pub fn describe(self) -> &'static str {
        match self {
            Memory::Device => "device memory",
            Memory::Managed => "managed memory",
            Memory::Mapped => "mapped host memory",
            Memory::Pinned => "pinned host memory",
            Memory::Host => "host memory",
        }
    }
}

/// How a pointer variable starts out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Initial {
    /// Declared with no initializer (and not static).
    Uninitialized,
    /// `= nullptr`, `= NULL`, `= 0`.
    Null,
    /// Anything else, a parameter included.
    Unknown,
}

#[derive(Debug, Clone)]
pub struct Variable<'t> {
    pub name: String,
    pub declaration: Node<'t>,
    /// Element type of a pointer or array (`float` for `float* p`), normalized.
    pub pointee: Option<String>,
    pub is_pointer: bool,
    pub is_parameter: bool,
    /// A function-local `static`: it keeps its value from one call to the next (a buffer
    /// allocated on the first call and reused by the others).
    pub outlives_call: bool,
    /// `std::vector<T>` or a stack array (then `pointee` is the element type).
    pub is_vector: bool,
    /// A stack array `T a[N]`.
    pub is_array: bool,
    pub initial: Initial,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteKind {
    Copy,
    Memset,
    /// A launch whose kernel may write the buffer.
    Kernel,
    /// A CUDA call the model does not detail, or unknown code: may write.
    Unknown,
}

#[derive(Debug, Clone)]
pub enum EventKind {
    Allocated {
        memory: Memory,
        allocation: usize,
    },
    /// Assigned something the model does not track (another pointer, a call result).
    Assigned,
    /// Set to null.
    Nulled,
    /// Written through: `bytes` when known; `whole` when the plain pointer (no offset) is the target.
    Written {
        kind: WriteKind,
        bytes: Option<Sym>,
        whole: bool,
    },
    /// Read by a copy out of it.
    Read {
        bytes: Option<Sym>,
        whole: bool,
    },
    /// Passed to a launch as argument `argument` (index into `HostFunction::launches`).
    Launched {
        launch: usize,
        argument: usize,
        whole: bool,
    },
    Freed {
        device: bool,
    },
    /// Handed to a function of this file that uses it without keeping it: it copies from or
    /// into it, clears it, launches kernels on it, or hands it on the same way. `reads` when
    /// that function's first use reads what the buffer holds; `writes` when it may write it.
    Borrowed {
        reads: bool,
        writes: bool,
    },
    /// Stored elsewhere, returned, or passed to unknown code: its fate is unknown from here on.
    Escaped,
    /// Its address was taken by unknown code, which may have assigned it.
    AddressTaken,
}

#[derive(Debug, Clone)]
pub struct Event<'t> {
    pub variable: usize,
    pub kind: EventKind,
    /// The call, launch or statement.
    pub node: Node<'t>,
    /// The branch or loop body the event sits in (the function body when unconditional).
    pub region: Node<'t>,
    /// Innermost enclosing loop within the function.
    pub enclosing_loop: Option<Node<'t>>,
    /// Inside a branch or loop: not on every path.
    pub conditional: bool,
    /// The device selected by the last unconditional `cudaSetDevice` with a constant argument.
    pub device: Option<i128>,
}

impl<'t> Event<'t> {
    /// Whether this event runs on every path that reaches `later` (same or enclosing region, before it).
    pub fn dominates(&self, later: &Event<'t>) -> bool {
        self.node.end_byte() <= later.node.start_byte()
            && self.region.start_byte() <= later.node.start_byte()
            && later.node.end_byte() <= self.region.end_byte()
    }
}

/// `cudaDeviceReset()` (`hipDeviceReset`, the deprecated `cudaThreadExit`) outside any branch or
/// loop: it destroys the device's context, and with it every allocation made on that device.
#[derive(Debug, Clone)]
pub struct DeviceReset<'t> {
    pub call: Node<'t>,
    /// Where the reset stops being on every path from an allocation: just after the last
    /// `return` before it (the function's start when none, or in `main`, whose `return` ends
    /// the process). An allocation from here to the call is released by it; one before may
    /// leave through that `return` unreleased.
    pub releases_from: usize,
    /// As `Event::device`: the reset releases only what was allocated on the device it resets.
    pub device: Option<i128>,
}

#[derive(Debug, Clone)]
pub struct Allocation<'t> {
    pub call: Node<'t>,
    pub api: String,
    pub variable: Option<usize>,
    pub memory: Memory,
    /// The byte-count argument.
    pub size_node: Option<Node<'t>>,
    pub bytes: Option<Sym>,
    /// The `sizeof(U)` unit when the size has the form `count * sizeof(U)`.
    pub sizeof_unit: Option<String>,
    pub conditional: bool,
    pub enclosing_loop: Option<Node<'t>>,
    /// The enclosing loop runs again only after this call failed (a retry loop:
    /// `while (cudaGetLastError() != cudaSuccess) { n /= 2; cudaMalloc(&d, n); }`): every trip's
    /// allocation but the last allocated nothing.
    pub retried_after_failure: bool,
    /// The pointer-to-pointer variable the allocation stores through, when it is not `&v`
    /// (`cudaMalloc(out, n)` with `T** out`): `variable` is then None.
    pub through: Option<usize>,
    /// The file's host function that made the allocation for the caller (`device_alloc` in
    /// `float* d = device_alloc<float>(n)`): `call` is the call of it, `api` the CUDA call it
    /// makes, `bytes` its size with the call's arguments put in.
    pub helper: Option<String>,
}

/// `cudaMemcpy*` / `cudaMemset*`: what moved where.
#[derive(Debug, Clone)]
pub struct Transfer<'t> {
    pub call: Node<'t>,
    pub api: String,
    pub destination: Option<PointerArg>,
    pub source: Option<PointerArg>,
    pub destination_node: Option<Node<'t>>,
    pub source_node: Option<Node<'t>>,
    pub size_node: Option<Node<'t>>,
    pub bytes: Option<Sym>,
    pub sizeof_unit: Option<String>,
    /// Every copy kind the kind argument may hold, each as the `cudaMemcpyHostToDevice`-style
    /// name where it is written and (source side, destination side): the name itself, both
    /// arms of a `?:`, or the values of a local that reach the call. Empty when any of them is
    /// not such a name (`cudaMemcpyDefault`, a parameter, a call).
    pub kinds: Vec<(Node<'t>, (Side, Side))>,
    pub direction_node: Option<Node<'t>>,
    pub is_memset: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Host,
    Device,
}

/// A pointer argument resolved to a tracked variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PointerArg {
    pub variable: usize,
    /// The plain variable (no offset, no `.data()`).
    pub whole: bool,
    /// `v.data()`, `&v[0]` on a vector or array.
    pub host_data: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dim3 {
    pub x: Option<i128>,
    pub y: Option<i128>,
    pub z: Option<i128>,
}

impl Dim3 {
    pub fn product(&self) -> Option<i128> {
        self.x?.checked_mul(self.y?)?.checked_mul(self.z?)
    }
    pub fn any_zero(&self) -> bool {
        [self.x, self.y, self.z].contains(&Some(0))
    }
}

#[derive(Debug, Clone)]
pub struct Launch<'t> {
    pub call: Node<'t>,
    pub kernel: String,
    pub grid_node: Option<Node<'t>>,
    pub block_node: Option<Node<'t>>,
    pub shared_node: Option<Node<'t>>,
    pub stream_node: Option<Node<'t>>,
    pub grid: Option<Dim3>,
    pub block: Option<Dim3>,
    pub shared_bytes: Option<i128>,
    pub arguments: Vec<Node<'t>>,
    /// Per argument, the tracked pointer it passes.
    pub pointer_arguments: Vec<Option<PointerArg>>,
    /// Per argument, its value as a size (for binding kernel extents).
    pub argument_values: Vec<Option<Sym>>,
    pub device: Option<i128>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultUse {
    /// Dropped: the call is a statement of its own.
    Discarded,
    /// `(void)call`: dropped on purpose.
    DeliberatelyDiscarded,
    /// Stored in a variable that is never read afterwards.
    StoredUnread,
    /// Passed to a check, compared, returned, stored and read.
    Checked,
}

#[derive(Debug, Clone)]
pub struct CudaCall<'t> {
    pub call: Node<'t>,
    pub name: String,
    pub result: ResultUse,
    /// Inside error handling (`if (err != cudaSuccess)`) or a destructor.
    pub on_error_path: bool,
}

/// The largest constant index a kernel accesses through a pointer parameter (`counters[6]`).
#[derive(Debug, Clone, PartialEq)]
pub struct ConstantIndex {
    pub index: i128,
    /// The access, relative to the start of the kernel's definition (a summary outlives the tree
    /// it was made from: the language server keeps it while the kernel's text stays the same).
    pub span: std::ops::Range<usize>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParameterSummary {
    pub is_pointer: bool,
    pub is_const: bool,
    pub element_type: Option<String>,
    /// Some access reads it (`p[i]`, `p[i] += v`).
    pub reads: bool,
    /// Some access writes it plainly (`p[i] = v`), so reads may see the kernel's own writes.
    pub plain_writes: bool,
    /// Elements read, as a polynomial over parameter atoms `#k`.
    pub read_extent: Option<Sym>,
    /// The largest constant, non-negative index accessed (read or written) through the
    /// parameter itself (not through a pointer derived from it).
    pub max_constant_index: Option<ConstantIndex>,
    /// An access every thread makes at exactly the global `x` index (relative span, as for
    /// `max_constant_index`): a launch reaches as many elements as it runs threads along `x`.
    pub global_x_access: Option<std::ops::Range<usize>>,
    /// The body never names it: whatever a launch passes, the kernel does not touch.
    pub unused: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct KernelSummary {
    pub name: String,
    pub parameters: Vec<ParameterSummary>,
}

#[derive(Debug, Default)]
pub struct HostFunction<'t> {
    pub function_index: usize,
    pub variables: Vec<Variable<'t>>,
    pub events: Vec<Event<'t>>,
    pub allocations: Vec<Allocation<'t>>,
    pub transfers: Vec<Transfer<'t>>,
    pub launches: Vec<Launch<'t>>,
    pub calls: Vec<CudaCall<'t>>,
    pub device_resets: Vec<DeviceReset<'t>>,
    pub peer_access: bool,
    /// `goto`, or a label a macro's `goto` may jump to, makes source order a poor guide to
    /// execution order.
    pub has_goto: bool,
    /// Where the labels start: a path may enter the code after one from any jump.
    pub jump_targets: Vec<usize>,
    /// CUDA graphs with memory nodes hand out the same address again on every graph launch.
    pub uses_graphs: bool,
    /// Frees of storage the function does not declare: members, globals, fields of structures.
    pub outer_frees: Vec<OuterFree<'t>>,
}

impl<'t> HostFunction<'t> {
    pub fn events_of(&self, variable: usize) -> impl Iterator<Item = &Event<'t>> {
        self.events.iter().filter(move |e| e.variable == variable)
    }

    /// Whether a label lies between `first` and `later`: a jump may reach `later` without
    /// passing `first`, whatever the structure around them says.
    pub fn jump_target_between(&self, first: &Event<'t>, later: &Event<'t>) -> bool {
        self.jump_targets
            .iter()
            .any(|&label| first.node.end_byte() <= label && label <= later.node.start_byte())
    }

    /// The device reset that releases what `event` allocated: one that runs on every path from
    /// the event to the function's end, on the same device. An allocation after the reset is
    /// released by none.
    pub fn reset_releasing(&self, event: &Event<'t>) -> Option<&DeviceReset<'t>> {
        if self.has_goto {
            return None;
        }
        self.device_resets.iter().find(|reset| {
            reset.releases_from <= event.node.start_byte()
                && event.node.end_byte() <= reset.call.start_byte()
                && reset.device == event.device
        })
    }
}

/// A `cudaFree` of storage the function does not declare (`d_pos` in a method, `this->d_pos`, a
/// global, `s.d`): `events` follow the function's own variables, so these are kept apart.
#[derive(Debug, Clone)]
pub struct OuterFree<'t> {
    pub call: Node<'t>,
    /// The storage freed, as written with spaces removed (`this->d_pos`).
    pub place: String,
    /// An earlier free of the same storage that runs on every path to this one, with nothing in
    /// between that may store a new pointer there: no assignment to it, no address of it taken,
    /// no call of code other than the CUDA runtime, no label a jump may reach.
    pub freed_before: Option<Node<'t>>,
    /// The statement list the call runs in: a later free inside it runs after this one.
    pub region: Node<'t>,
}

#[derive(Debug, Default)]
pub struct HostFacts<'t> {
    pub functions: Vec<HostFunction<'t>>,
    pub kernels: Vec<KernelSummary>,
    /// The host functions (indices into `Model::functions`) analysed by this lint, those with
    /// no facts included; the others' findings are kept from an earlier lint.
    pub analysed: Vec<usize>,
    /// Buffers kept in struct members and file-level variables, read from every host function.
    pub stored: StoredBuffers<'t>,
    /// Functions whose every call is followed by a device reset in the caller.
    pub caller_resets: CallerResets<'t>,
}

/// A pointer variable passed to a pointer parameter of a kernel this file defines, with what the
/// kernel does with that parameter and the launch event of the variable.
pub struct LaunchedPointer<'a, 't> {
    pub host: &'a HostFunction<'t>,
    pub launch: &'a Launch<'t>,
    pub position: usize,
    pub pointer: PointerArg,
    pub parameter: &'a ParameterSummary,
    pub event: &'a Event<'t>,
}

impl<'t> HostFacts<'t> {
    /// Every pointer variable handed to a kernel's pointer parameter, in launch order.
    pub fn launched_pointers(&self) -> impl Iterator<Item = LaunchedPointer<'_, 't>> + '_ {
        self.functions.iter().flat_map(move |host| {
            host.launches.iter().flat_map(move |launch| {
                let summary = self.kernel(&launch.kernel, launch.arguments.len());
                launch.pointer_arguments.iter().enumerate().filter_map(
                    move |(position, pointer)| {
                        let pointer = (*pointer)?;
                        let parameter =
                            summary?.parameters.get(position).filter(|p| p.is_pointer)?;
                        let event = host.event_at(pointer.variable, launch.call)?;
                        Some(LaunchedPointer {
                            host,
                            launch,
                            position,
                            pointer,
                            parameter,
                            event,
                        })
                    },
                )
            })
        })
    }

    /// The summary of the kernel a launch names. Host-side readers look up only kernels their
    /// function launches: the language server reuses a function's findings while those kernels'
    /// summaries stay the same.
    pub fn kernel(&self, name: &str, arity: usize) -> Option<&KernelSummary> {
        let mut candidates = self.kernels.iter().filter(|k| k.name == name);
        let first = candidates.next()?;
        if first.parameters.len() == arity {
            return Some(first);
        }
        candidates.find(|k| k.parameters.len() == arity)
    }
}

/// Whether a macro or function name is an error check: CHECK, ERR, CALL, SAFE or ASSERT in any
/// case, the usual helper names, or one the user configured.
pub fn is_check_name(name: &str, configured: &[String]) -> bool {
    let upper = name.to_ascii_uppercase();
    ["CHECK", "ERR", "CALL", "SAFE", "ASSERT"]
        .iter()
        .any(|w| upper.contains(w))
        || configured.iter().any(|c| c == name)
}

/// How a call's result is used. `read_later(name, end)` says whether the variable `name`, when
/// the result is stored in it by a statement ending at `end`, is read afterwards.
pub fn result_use(call: Node, source: &str, read_later: &dyn Fn(&str, usize) -> bool) -> ResultUse {
    result_use_among(ancestors(call), source, read_later)
}

/// `result_use` given the call's ancestors, nearest first.
pub fn result_use_among<'t>(
    ancestors: impl Iterator<Item = Node<'t>>,
    source: &str,
    read_later: &dyn Fn(&str, usize) -> bool,
) -> ResultUse {
    for parent in ancestors.take(MAX_DEPTH) {
        match parent.node_kind() {
            "parenthesized_expression" | "comma_expression" => continue,
            "expression_statement" => return ResultUse::Discarded,
            "cast_expression" => {
                let is_void = parent
                    .field("type")
                    .is_some_and(|t| text(t, source).trim() == "void");
                return if is_void {
                    ResultUse::DeliberatelyDiscarded
                } else {
                    ResultUse::Checked
                };
            }
            "init_declarator" | "assignment_expression" => {
                let target = if parent.node_kind() == "init_declarator" {
                    parent.field("declarator").and_then(syntax::declarator_name)
                } else {
                    parent
                        .field("left")
                        .map(|l| strip(l, source))
                        .filter(|l| l.node_kind() == "identifier")
                };
                let Some(target) = target else {
                    return ResultUse::Checked;
                };
                return if read_later(text(target, source), parent.end_byte()) {
                    ResultUse::Checked
                } else {
                    ResultUse::StoredUnread
                };
            }
            _ => return ResultUse::Checked,
        }
    }
    ResultUse::Checked
}

/// Whether a call's value is what its function returns (`return f(...);`, through parentheses
/// and casts), given its ancestors, nearest first.
pub fn is_returned_among<'t>(ancestors: impl Iterator<Item = Node<'t>>) -> bool {
    for parent in ancestors.take(MAX_DEPTH) {
        match parent.node_kind() {
            "parenthesized_expression" | "cast_expression" => continue,
            "return_statement" => return true,
            _ => return false,
        }
    }
    false
}

fn ancestors(node: Node) -> impl Iterator<Item = Node> {
    std::iter::successors(node.up(), |n| n.up())
}

/// The name a call calls (`f` in `f(x)`, `ns::f<T>(x)`), or "" for a call through an expression.
pub fn called_name<'a>(call: Node, source: &'a str) -> &'a str {
    call_name(call, source)
}

fn call_name<'a>(call: Node, source: &'a str) -> &'a str {
    let Some(function) = call.field("function") else {
        return "";
    };
    match function.node_kind() {
        "identifier" => text(function, source),
        "qualified_identifier" => function
            .field("name")
            .map(|n| text(n, source))
            .unwrap_or(""),
        "template_function" => function
            .field("name")
            .map(|n| text(n, source))
            .unwrap_or(""),
        _ => "",
    }
}

/// A runtime or driver API call of CUDA or HIP (`cudaMalloc`, `cuMemAlloc`, `hipMalloc`).
fn is_cuda_api(name: &str) -> bool {
    let bytes = name.as_bytes();
    let upper_after = |prefix: usize| bytes.get(prefix).is_some_and(|b| b.is_ascii_uppercase());
    (name.starts_with("cuda") && upper_after(4))
        || (name.starts_with("cu") && upper_after(2))
        || crate::model::runtime::is_hip_name(name)
}

/// CUDA functions that return something other than an error code, or whose bare call is a choice
/// (HIP's read by their CUDA names).
fn returns_no_error(name: &str) -> bool {
    matches!(
        crate::model::runtime::cuda_name(name).as_ref(),
        "cudaGetErrorString"
            | "cudaGetErrorName"
            | "cudaCreateChannelDesc"
            | "cudaGetLastError"
            | "cudaPeekAtLastError"
    )
}

/// `cudaGetLastError`, `cudaPeekAtLastError` and HIP's: the calls that read a launch's error.
pub fn is_last_error_query(name: &str) -> bool {
    matches!(
        crate::model::runtime::cuda_name(name).as_ref(),
        "cudaGetLastError" | "cudaPeekAtLastError"
    )
}

/// `&v`, `(void**)&v`, `reinterpret_cast<void**>(&v)`: the variable whose address is passed.
fn address_of<'t>(node: Node<'t>, source: &str) -> Option<Node<'t>> {
    crate::syntax::address_operand(node, source).filter(|n| n.node_kind() == "identifier")
}

/// The facts of every host function without parse errors, except those `reuse` says an earlier
/// lint already covered (the language server keeps their findings). Reads `model.host.kernels`.
pub fn build<'t>(
    model: &Model<'t>,
    reuse: &mut dyn Reuse<'t>,
) -> (
    Vec<HostFunction<'t>>,
    Vec<usize>,
    StoredBuffers<'t>,
    CallerResets<'t>,
) {
    let mut functions = Vec::new();
    let mut analysed = Vec::new();
    let helpers = helpers::HelperCache::default();
    let stored = stored::collect(model, &helpers);
    let caller_resets = caller_resets::collect(model);
    reuse.host_context(context_digest(model, &stored, &caller_resets));
    for (index, function) in model.functions.iter().enumerate() {
        if function.kind != FunctionKind::Host || function.has_parse_errors {
            continue;
        }
        if reuse.host_function(model, index) {
            continue;
        }
        let mut builder = Builder::new(model, index, &helpers, 0);
        builder.prepare();
        let body = function.body;
        let context = Context {
            region: body,
            enclosing_loop: None,
            conditional: false,
            error_path: function.name.starts_with('~'),
        };
        builder.statement(body, context, 0);
        builder.finish();
        // the error flow's verdicts point into the callers and callees they read
        builder.depends_on.extend(model.errors.reads(index));
        // a buffer kept in a member is freed, if at all, by another function: name those
        for allocation in stored.allocations.iter().filter(|a| a.function == index) {
            for (key, call) in &stored.releases {
                let releaser = model.functions.iter().find(|f| within(*call, f.definition));
                if let (true, Some(releaser)) = (*key != allocation.key, releaser) {
                    builder.depends_on.push(releaser.name.clone());
                }
            }
        }
        builder.depends_on.sort_unstable();
        builder.depends_on.dedup();
        reuse.host_function_built(index, &builder.depends_on);
        analysed.push(index);
        let host = builder.out;
        if !host.events.is_empty()
            || !host.launches.is_empty()
            || !host.calls.is_empty()
            || !host.allocations.is_empty()
            || !host.transfers.is_empty()
        {
            functions.push(host);
        }
    }
    (functions, analysed, stored, caller_resets)
}

/// A hash of the file-wide facts host functions read (see `Reuse::host_context`).
fn context_digest(model: &Model, stored: &StoredBuffers, caller_resets: &CallerResets) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = rustc_hash::FxHasher::default();
    let mut aliases: Vec<_> = model.type_aliases.iter().collect();
    aliases.sort_unstable();
    aliases.hash(&mut hasher);
    model.function_macros.hash(&mut hasher);
    let function_name = |node: Node| {
        model
            .functions
            .iter()
            .find(|f| within(node, f.definition))
            .map(|f| f.name.as_str())
    };
    for allocation in &stored.allocations {
        (
            &allocation.key,
            function_name(allocation.call),
            allocation.memory as u8,
        )
            .hash(&mut hasher);
    }
    for (key, call) in &stored.releases {
        (key, function_name(*call)).hash(&mut hasher);
    }
    let mut escaped: Vec<_> = stored.escaped.iter().collect();
    escaped.sort_unstable();
    escaped.hash(&mut hasher);
    caller_resets.names().hash(&mut hasher);
    hasher.finish()
}

// ---- host functions -----------------------------------------------------------------------

#[derive(Clone, Copy)]
struct Context<'t> {
    region: Node<'t>,
    enclosing_loop: Option<Node<'t>>,
    conditional: bool,
    error_path: bool,
}

struct Builder<'m, 't> {
    model: &'m Model<'t>,
    /// Summaries of the file's host functions that allocate for their callers.
    helpers: &'m helpers::HelperCache,
    /// How many helper calls deep this function's facts are built (0: a function of its own).
    helper_depth: usize,
    source: &'t str,
    function: &'m super::Function<'t>,
    out: HostFunction<'t>,
    by_name: HashMap<String, usize>,
    /// Locals assigned after their declaration (or whose address is taken): not substituted.
    reassigned: HashSet<String>,
    /// The values a local is given with `=` (its initializer too), for locals changed in no
    /// other way (no `+=`, `++`, `&x`, no unknown call taking it).
    plain_definitions: HashMap<String, Vec<Node<'t>>>,
    /// Locals changed in a way other than `=`.
    opaque: HashSet<String>,
    initializers: HashMap<String, Node<'t>>,
    /// Locals declared `const`/`constexpr`: their initializer holds everywhere.
    const_names: HashSet<String>,
    scalar_types: HashMap<String, String>,
    dim3_arguments: HashMap<String, Node<'t>>,
    /// Positions of identifier uses, to tell whether a stored error code is read later.
    uses: HashMap<&'t str, Vec<usize>>,
    error_variables: HashSet<String>,
    device: Option<i128>,
    /// Names of the file's other functions looked up (callees, launched kernels): what these
    /// facts, and the lints reading the launches, depend on outside the function.
    depends_on: Vec<String>,
}

struct HostScope<'b, 'm, 't> {
    builder: &'b Builder<'m, 't>,
}

impl<'t> Scope<'t> for HostScope<'_, '_, 't> {
    fn definition(&self, name: &str) -> Option<Node<'t>> {
        if self.builder.reassigned.contains(name) && !self.builder.const_names.contains(name) {
            return None;
        }
        self.builder.initializers.get(name).copied()
    }
    fn pointee(&self, name: &str) -> Option<String> {
        let index = *self.builder.by_name.get(name)?;
        self.builder.out.variables.get(index)?.pointee.clone()
    }
    fn scalar_type(&self, name: &str) -> Option<String> {
        self.builder.scalar_types.get(name).cloned()
    }
    fn define(&self, name: &str) -> Option<&str> {
        self.builder.model.define(name)
    }
    fn is_type(&self, name: &str) -> bool {
        self.builder
            .function
            .template_parameters
            .iter()
            .any(|t| t == name)
    }
}

fn strip_parents(node: Node) -> Option<Node> {
    let mut parent = node.up()?;
    for _ in 0..MAX_DEPTH {
        if parent.node_kind() != "parenthesized_expression" {
            return Some(parent);
        }
        parent = parent.up()?;
    }
    None
}

fn is_null(node: Node, source: &str) -> bool {
    crate::syntax::is_null_pointer(node, source)
}

impl EventKind {
    /// Whether the event gives the variable a new value (or may have).
    pub fn defines(&self) -> bool {
        matches!(
            self,
            EventKind::Allocated { .. }
                | EventKind::Assigned
                | EventKind::Nulled
                | EventKind::AddressTaken
        )
    }
}

fn within(node: Node, outer: Node) -> bool {
    outer.start_byte() <= node.start_byte() && node.end_byte() <= outer.end_byte()
}

#[cfg(test)]
mod tests {
    /// Per allocated variable, whether a device reset of the function releases it.
    fn released(source: &str, function: &str) -> Vec<(String, bool)> {
        crate::testing::with_host_function("reset.cu", source, function, |_, host| {
            host.events
                .iter()
                .filter(|e| matches!(e.kind, super::EventKind::Allocated { .. }))
                .map(|e| {
                    (
                        host.variables[e.variable].name.clone(),
                        host.reset_releasing(e).is_some(),
                    )
                })
                .collect()
        })
    }

    /// Per free of storage the function does not declare: what it frees, and whether an earlier
    /// free of it runs on every path with nothing between that may store a new pointer.
    fn outer_frees(source: &str, function: &str) -> Vec<(String, bool)> {
        crate::testing::with_host_function("outer.cu", source, function, |_, host| {
            host.outer_frees
                .iter()
                .map(|free| (free.place.clone(), free.freed_before.is_some()))
                .collect()
        })
    }

    #[test]
    fn frees_of_members_globals_and_fields_know_the_free_before_them() {
        let source = "float* g;\nstruct P { float* d; float* e; void reset(); ~P(); };\n\
            P::~P() { cudaFree(d); cudaFree(this->e); cudaFree(d); }\n\
            void twice_reset(P& p) { cudaFree(p.d); p.reset(); cudaFree(p.d); }\n\
            void branch(bool c) { if (c) cudaFree(g); cudaFree(g); g = nullptr; cudaFree(g); }\n\
            void local(int n) { float* h; cudaMalloc(&h, n); cudaFree(h); }\n";
        let named = |v: &[(&str, bool)]| -> Vec<(String, bool)> {
            v.iter().map(|(n, r)| (n.to_string(), *r)).collect()
        };
        // `this->e` is the member `e`; the second `d` follows the first with nothing between
        assert_eq!(
            outer_frees(source, "~P"),
            named(&[("d", false), ("e", false), ("d", true)])
        );
        // a method called between may reallocate the field
        assert_eq!(
            outer_frees(source, "twice_reset"),
            named(&[("p.d", false), ("p.d", false)])
        );
        // a free on one branch runs on some paths only; an assignment stores a new pointer
        assert_eq!(
            outer_frees(source, "branch"),
            named(&[("g", false), ("g", false), ("g", false)])
        );
        // the function's own variable is followed by its events, not here
        assert!(outer_frees(source, "local").is_empty());
    }

    #[test]
    fn a_device_reset_on_every_path_releases_what_is_allocated_before_it() {
        let source = "void f(int n) { float *a, *b; cudaMalloc(&a, n); cudaDeviceReset(); cudaMalloc(&b, n); }\n\
            void g(int n) { float* a; hipMalloc(&a, n); hipDeviceReset(); }\n\
            int h(int n) { float *a, *b; cudaMalloc(&a, n); if (n > 4) return 1; cudaMalloc(&b, n); cudaDeviceReset(); return 0; }\n\
            int e(int n) { float* a; cudaMalloc(&a, n); if (cudaGetLastError() != cudaSuccess) { cudaDeviceReset(); return 1; } return 0; }\n\
            void d(int n) { float* a; cudaSetDevice(0); cudaMalloc(&a, n); cudaSetDevice(1); cudaDeviceReset(); }\n\
            int main(int argc, char** argv) { float* a; cudaMalloc(&a, 64); if (argc > 4) return 1; cudaDeviceReset(); return 0; }\n";
        let named = |v: &[(&str, bool)]| -> Vec<(String, bool)> {
            v.iter().map(|(n, r)| (n.to_string(), *r)).collect()
        };
        assert_eq!(released(source, "f"), named(&[("a", true), ("b", false)]));
        assert_eq!(released(source, "g"), named(&[("a", true)]));
        // a `return` before the reset leaves with `a`
        assert_eq!(released(source, "h"), named(&[("a", false), ("b", true)]));
        // a reset on the error path only
        assert_eq!(released(source, "e"), named(&[("a", false)]));
        // the reset of another device
        assert_eq!(released(source, "d"), named(&[("a", false)]));
        // `main`'s early `return` ends the process, which releases `a` as the reset does
        assert_eq!(released(source, "main"), named(&[("a", true)]));
    }

    #[test]
    fn a_pointer_direct_initialised_in_parentheses_starts_with_that_value() {
        let source = "void f(float* h) { float* a(nullptr); float* b(NULL); float* c(h); float* d; float* e = 0; cudaFree(a); }\n";
        let initial = crate::testing::with_host_function("direct.cu", source, "f", |_, host| {
            host.variables
                .iter()
                .filter(|v| !v.is_parameter)
                .map(|v| (v.name.clone(), v.initial))
                .collect::<Vec<_>>()
        });
        use super::Initial::{Null, Uninitialized, Unknown};
        let expected = [
            ("a", Null),
            ("b", Null),
            ("c", Unknown),
            ("d", Uninitialized),
            ("e", Null),
        ];
        let expected: Vec<_> = expected.iter().map(|(n, i)| (n.to_string(), *i)).collect();
        assert_eq!(initial, expected);
    }
}
