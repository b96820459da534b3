//! Host-side facts: per host function, the pointer variables and the ordered events on them
//! (allocation, copies, launches, frees, escapes), launch sites with their configuration, CUDA
//! calls with whether their result is read, and kernel summaries that say how much of each
//! buffer a kernel reads.
//!
//! Everything is syntactic and per function. Code the model does not understand (a call into an
//! unknown function, an alias) turns the variable's facts into "unknown" (an escape), never into
//! a wrong fact: the lints only conclude from facts that hold on every path.

use super::size::{self, Evaluator, Scope, Sym};
use super::{AccessKind, FunctionKind, IndexStatus, Model, Reuse};
use crate::syntax::NodeExt;
use crate::syntax::{
    self, named_children, normalized, operator, strip, text, walk_iterative, MAX_DEPTH,
};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use tree_sitter::Node;

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
    /// `cudaMemcpyHostToDevice` and friends, when written literally: (source side, destination side).
    pub direction: Option<(Side, Side)>,
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
    /// A `cudaGetLastError`/`cudaPeekAtLastError` test follows before the next launch.
    pub checked: bool,
    /// The launch is itself wrapped in code that may check it (a macro).
    pub wrapped: bool,
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
    pub peer_access: bool,
    /// `goto` makes source order a poor guide to execution order.
    pub has_goto: bool,
    /// CUDA graphs with memory nodes hand out the same address again on every graph launch.
    pub uses_graphs: bool,
}

impl<'t> HostFunction<'t> {
    pub fn events_of(&self, variable: usize) -> impl Iterator<Item = &Event<'t>> {
        self.events.iter().filter(move |e| e.variable == variable)
    }
}

#[derive(Debug, Default)]
pub struct HostFacts<'t> {
    pub functions: Vec<HostFunction<'t>>,
    pub kernels: Vec<KernelSummary>,
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

fn is_cuda_api(name: &str) -> bool {
    let bytes = name.as_bytes();
    let upper_after = |prefix: usize| bytes.get(prefix).is_some_and(|b| b.is_ascii_uppercase());
    (name.starts_with("cuda") && upper_after(4)) || (name.starts_with("cu") && upper_after(2))
}

/// CUDA functions that return something other than an error code, or whose bare call is a choice.
fn returns_no_error(name: &str) -> bool {
    matches!(
        name,
        "cudaGetErrorString"
            | "cudaGetErrorName"
            | "cudaCreateChannelDesc"
            | "cudaGetLastError"
            | "cudaPeekAtLastError"
    )
}

fn is_launch(call: Node) -> bool {
    named_children(call).any(|c| c.node_kind() == "kernel_call_syntax")
}

fn arguments(call: Node) -> Vec<Node> {
    call.field("arguments")
        .map(|a| {
            named_children(a)
                .filter(|c| c.node_kind() != "comment")
                .collect()
        })
        .unwrap_or_default()
}

/// `&v`, `(void**)&v`, `reinterpret_cast<void**>(&v)`: the variable whose address is passed.
fn address_of<'t>(node: Node<'t>, source: &str) -> Option<Node<'t>> {
    let node = strip(node, source);
    if node.node_kind() == "pointer_expression" && operator(node, source) == "&" {
        let inner = strip(node.field("argument")?, source);
        if inner.node_kind() == "identifier" {
            return Some(inner);
        }
    }
    None
}

/// The facts of every host function without parse errors, except those `reuse` says an earlier
/// lint already covered (the language server keeps their findings). Reads `model.host.kernels`.
pub fn build<'t>(model: &Model<'t>, reuse: &mut dyn Reuse<'t>) -> Vec<HostFunction<'t>> {
    let mut functions = Vec::new();
    for (index, function) in model.functions.iter().enumerate() {
        if function.kind != FunctionKind::Host || function.has_parse_errors {
            continue;
        }
        if reuse.host_function(model, index) {
            continue;
        }
        let mut builder = Builder::new(model, index);
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
        reuse.host_function_built(index, &builder.depends_on);
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
    functions
}

// ---- kernel summaries ---------------------------------------------------------------------

struct KernelScope<'a, 't> {
    parameters: &'a [super::Parameter<'t>],
    model: &'a Model<'t>,
}

impl<'t> Scope<'t> for KernelScope<'_, 't> {
    fn definition(&self, _: &str) -> Option<Node<'t>> {
        None
    }
    fn pointee(&self, _: &str) -> Option<String> {
        None
    }
    fn scalar_type(&self, _: &str) -> Option<String> {
        None
    }
    fn atom(&self, name: &str) -> Option<Sym> {
        let index = self
            .parameters
            .iter()
            .position(|p| p.name == name && !p.is_pointer)?;
        Some(Sym::atom(&format!("#{index}")))
    }
    fn define(&self, name: &str) -> Option<&str> {
        self.model.define(name)
    }
}

fn pointee_of_parameter(parameter: &super::Parameter) -> String {
    size::normalize_type(&parameter.type_text)
}

/// What host code needs to know of a kernel: per parameter, whether it is read or written and how
/// much of it is read.
pub fn summarize_kernel(
    model: &Model,
    function: &super::Function,
    facts: &super::KernelFacts,
) -> KernelSummary {
    let mut parameters: Vec<ParameterSummary> = function
        .parameters
        .iter()
        .map(|p| ParameterSummary {
            is_pointer: p.is_pointer,
            is_const: p.type_text.split_whitespace().any(|w| w == "const"),
            element_type: p.is_pointer.then(|| pointee_of_parameter(p)),
            ..Default::default()
        })
        .collect();
    let scope = KernelScope {
        parameters: &function.parameters,
        model,
    };
    let evaluator = Evaluator {
        source: model.source,
        scope: &scope,
        fold_sizeof: true,
    };
    // a pointer handed whole to another function (`f(p)`, `atomicAdd(p, v)`) may be written there
    walk_iterative(function.body, |node| {
        if node.node_kind() == "argument_list" {
            for argument in named_children(node) {
                let mut argument = strip(argument, model.source);
                if argument.node_kind() == "binary_expression" {
                    argument = argument
                        .field("left")
                        .map(|l| strip(l, model.source))
                        .unwrap_or(argument);
                }
                if argument.node_kind() == "identifier" {
                    let name = text(argument, model.source);
                    if let Some(index) = function
                        .parameters
                        .iter()
                        .position(|p| p.is_pointer && p.name == name)
                    {
                        parameters[index].plain_writes = true;
                    }
                }
            }
        }
        true
    });
    for access in &facts.accesses {
        let Some(summary) = parameters.get_mut(access.parameter_index) else {
            continue;
        };
        // `&p[i]` handed on, or `p[i].field` / `p[i].method()`: may write, not a definite read
        let parent = strip_parents(access.node);
        let handed_on = parent.is_some_and(|p| {
            (p.node_kind() == "pointer_expression" && operator(p, model.source) == "&")
                || p.node_kind() == "field_expression"
                || (p.node_kind() == "init_declarator"
                    && p.field("declarator")
                        .is_some_and(|d| d.node_kind() == "reference_declarator"))
        });
        if handed_on {
            summary.plain_writes = true;
            continue;
        }
        if access.kind.reads() {
            summary.reads = true;
        }
        if access.kind == AccessKind::Write {
            summary.plain_writes = true;
        }
        if !access.kind.reads() || access.pointer_offset.is_some() {
            continue;
        }
        let IndexStatus::Bounded { bound: Some(bound) } = &access.status else {
            continue;
        };
        if normalized(bound.left, model.source) != normalized(access.index, model.source) {
            continue;
        }
        let extent = match bound.relation {
            super::guards::Relation::Less => evaluator.eval(bound.right),
            super::guards::Relation::LessEqual => evaluator
                .eval(bound.right)
                .and_then(|s| s.add(&Sym::constant(1))),
            _ => None,
        };
        if let Some(extent) = extent {
            // keep the largest extent that is provably no smaller than the others
            let replace = match &summary.read_extent {
                None => true,
                Some(existing) => existing.compare(&extent) == size::Order::ProvablySmaller,
            };
            if replace {
                summary.read_extent = Some(extent);
            }
        }
    }
    KernelSummary {
        name: function.name.clone(),
        parameters,
    }
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
    source: &'t str,
    function: &'m super::Function<'t>,
    out: HostFunction<'t>,
    by_name: HashMap<String, usize>,
    /// Locals assigned after their declaration (or whose address is taken): not substituted.
    reassigned: HashSet<String>,
    initializers: HashMap<String, Node<'t>>,
    /// Locals declared `const`/`constexpr`: their initializer holds everywhere.
    const_names: HashSet<String>,
    scalar_types: HashMap<String, String>,
    dim3_arguments: HashMap<String, Node<'t>>,
    /// Positions of identifier uses, to tell whether a stored error code is read later.
    uses: HashMap<&'t str, Vec<usize>>,
    error_variables: HashSet<String>,
    /// Positions where a launch error is queried and tested.
    launch_checks: Vec<usize>,
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
}

impl<'m, 't> Builder<'m, 't> {
    fn new(model: &'m Model<'t>, function_index: usize) -> Self {
        let function = &model.functions[function_index];
        Builder {
            model,
            source: model.source,
            function,
            out: HostFunction {
                function_index,
                ..Default::default()
            },
            by_name: HashMap::default(),
            reassigned: HashSet::default(),
            initializers: HashMap::default(),
            const_names: HashSet::default(),
            scalar_types: HashMap::default(),
            dim3_arguments: HashMap::default(),
            uses: HashMap::default(),
            error_variables: HashSet::default(),
            launch_checks: Vec::new(),
            device: None,
            depends_on: Vec::new(),
        }
    }

    fn text(&self, node: Node) -> &'t str {
        text(node, self.source)
    }

    fn evaluate(&self, node: Node<'t>, fold_sizeof: bool) -> Option<Sym> {
        let scope = HostScope { builder: self };
        Evaluator {
            source: self.source,
            scope: &scope,
            fold_sizeof,
        }
        .eval(node)
    }

    /// `count * sizeof(U)` as written (through local definitions): U. A numeric factor
    /// (`n * 2 * sizeof(float)`) or a sum makes the intent unclear: None.
    fn sizeof_unit(&self, node: Node<'t>) -> Option<String> {
        let mut node = strip(node, self.source);
        for _ in 0..4 {
            if node.node_kind() != "identifier" {
                break;
            }
            let name = self.text(node);
            if self.reassigned.contains(name) {
                return None;
            }
            node = strip(*self.initializers.get(name)?, self.source);
        }
        let mut factors = Vec::new();
        let mut pending = vec![node];
        while let Some(current) = pending.pop() {
            if factors.len() > 16 {
                return None;
            }
            if current.node_kind() == "binary_expression" && operator(current, self.source) == "*" {
                pending.extend(
                    [current.field("left")?, current.field("right")?]
                        .map(|n| strip(n, self.source)),
                );
            } else {
                factors.push(current);
            }
        }
        let mut unit = None;
        for factor in factors {
            match factor.node_kind() {
                "number_literal" => return None,
                "sizeof_expression" => {
                    if unit.is_some() {
                        return None;
                    }
                    unit = Some(size::normalize_type(self.text(factor.field("type")?)));
                }
                "binary_expression" if !matches!(operator(factor, self.source), "+" | "-") => {
                    return None
                }
                _ => {}
            }
        }
        unit
    }

    fn variable_of(&self, node: Node) -> Option<usize> {
        let node = strip(node, self.source);
        (node.node_kind() == "identifier")
            .then(|| self.by_name.get(self.text(node)).copied())
            .flatten()
    }

    /// The tracked pointer an argument passes: `v`, `v + k`, `&v[k]`, `v.data()`, `(T*)v`.
    fn pointer_arg(&self, node: Node<'t>) -> Option<PointerArg> {
        let node = strip(node, self.source);
        match node.node_kind() {
            "identifier" => {
                let variable = self.variable_of(node)?;
                let info = &self.out.variables[variable];
                (info.is_pointer || info.pointee.is_some()).then_some(PointerArg {
                    variable,
                    whole: true,
                    host_data: false,
                })
            }
            "binary_expression" if matches!(operator(node, self.source), "+" | "-") => {
                let variable = self.variable_of(node.field("left")?)?;
                self.out.variables[variable]
                    .is_pointer
                    .then_some(PointerArg {
                        variable,
                        whole: false,
                        host_data: false,
                    })
            }
            "pointer_expression" if operator(node, self.source) == "&" => {
                let inner = strip(node.field("argument")?, self.source);
                if inner.node_kind() != "subscript_expression" {
                    return None;
                }
                let variable = self.variable_of(inner.field("argument")?)?;
                let info = &self.out.variables[variable];
                let zero = inner
                    .field("indices")
                    .or_else(|| inner.field("index"))
                    .map(|i| self.text(i).trim_matches(['[', ']', ' ']) == "0")
                    .unwrap_or(false);
                Some(PointerArg {
                    variable,
                    whole: zero,
                    host_data: info.is_vector,
                })
            }
            "call_expression" => {
                let function = node.field("function")?;
                if function.node_kind() != "field_expression" || !arguments(node).is_empty() {
                    return None;
                }
                let field = function.field("field")?;
                if self.text(field) != "data" {
                    return None;
                }
                let variable = self.variable_of(function.field("argument")?)?;
                self.out.variables[variable]
                    .is_vector
                    .then_some(PointerArg {
                        variable,
                        whole: true,
                        host_data: true,
                    })
            }
            _ => None,
        }
    }

    // ---- pre-pass: declarations, reassignments, uses ----

    fn prepare(&mut self) {
        let source = self.source;
        for parameter in &self.function.parameters {
            let type_text = size::normalize_type(&parameter.type_text);
            let index = self.out.variables.len();
            self.out.variables.push(Variable {
                name: parameter.name.clone(),
                declaration: parameter.declaration,
                pointee: parameter.is_pointer.then(|| type_text.clone()),
                is_pointer: parameter.is_pointer,
                is_parameter: true,
                is_vector: false,
                is_array: false,
                initial: Initial::Unknown,
            });
            self.by_name.insert(parameter.name.clone(), index);
            if !parameter.is_pointer {
                self.scalar_types.insert(parameter.name.clone(), type_text);
            }
        }
        let mut declarations = Vec::new();
        let mut reassigned = HashSet::default();
        let mut uses: HashMap<&'t str, Vec<usize>> = HashMap::default();
        let mut has_goto = false;
        let mut peer = false;
        let mut graphs = false;
        // identifiers that name what a declarator declares, noted when the walk (pre-order) meets
        // the declarator, since `Node::parent` costs a search from the root
        let mut declared_names: HashSet<usize> = HashSet::default();
        walk_iterative(self.function.body, |node| {
            let kind = node.node_kind();
            if matches!(
                kind,
                "init_declarator" | "pointer_declarator" | "array_declarator" | "declaration"
            ) {
                if let Some(declarator) = node
                    .field("declarator")
                    .filter(|d| d.node_kind() == "identifier")
                {
                    declared_names.insert(declarator.id());
                }
            }
            match kind {
                "declaration" => declarations.push(node),
                "assignment_expression" => {
                    if let Some(left) = node.field("left") {
                        let left = strip(left, source);
                        let base = if left.node_kind() == "field_expression" {
                            left.field("argument")
                        } else {
                            Some(left)
                        };
                        if let Some(base) = base.filter(|b| b.node_kind() == "identifier") {
                            reassigned.insert(text(base, source).to_string());
                        }
                    }
                }
                "update_expression" => {
                    if let Some(argument) = node.field("argument") {
                        reassigned.insert(text(strip(argument, source), source).to_string());
                    }
                }
                "pointer_expression" if operator(node, source) == "&" => {
                    if let Some(argument) = node.field("argument") {
                        let argument = strip(argument, source);
                        if argument.node_kind() == "identifier" {
                            reassigned.insert(text(argument, source).to_string());
                        }
                    }
                }
                "goto_statement" => has_goto = true,
                // `stream >> n` assigns n
                "binary_expression" if operator(node, source) == ">>" => {
                    if let Some(right) = node
                        .field("right")
                        .map(|r| strip(r, source))
                        .filter(|r| r.node_kind() == "identifier")
                    {
                        reassigned.insert(text(right, source).to_string());
                    }
                }
                "identifier" if !declared_names.contains(&node.id()) => {
                    uses.entry(text(node, source))
                        .or_default()
                        .push(node.start_byte());
                }
                "call_expression" => {
                    let name = call_name(node, source);
                    // a local handed to unknown code may be taken by reference and changed there
                    let benign = is_launch(node)
                        || is_cuda_api(name)
                        || matches!(
                            name,
                            "printf"
                                | "fprintf"
                                | "sizeof"
                                | "dim3"
                                | "min"
                                | "max"
                                | "std::min"
                                | "std::max"
                        );
                    if !benign {
                        if let Some(arguments) = node.field("arguments") {
                            for argument in named_children(arguments) {
                                if argument.node_kind() == "identifier" {
                                    reassigned.insert(text(argument, source).to_string());
                                }
                            }
                        }
                    }
                    if matches!(name, "cudaDeviceEnablePeerAccess" | "cuCtxEnablePeerAccess") {
                        peer = true;
                    }
                    if name.starts_with("cudaGraph") || name == "cudaStreamBeginCapture" {
                        graphs = true;
                    }
                }
                _ => {}
            }
            true
        });
        self.reassigned = reassigned;
        self.uses = uses;
        self.out.has_goto = has_goto;
        self.out.peer_access = peer;
        self.out.uses_graphs = graphs;
        let mut declared_names: HashMap<String, usize> =
            self.by_name.keys().map(|k| (k.clone(), 1)).collect();
        for declaration in declarations {
            for name in self.declare(declaration) {
                *declared_names.entry(name).or_default() += 1;
            }
        }
        // a name declared twice (sibling scopes, shadowing) is not resolved by name: untracked
        for (name, count) in declared_names {
            if count > 1 {
                self.by_name.remove(&name);
                self.initializers.remove(&name);
                self.scalar_types.remove(&name);
                self.reassigned.insert(name);
            }
        }
    }

    /// Records a declaration's variables and returns their names.
    fn declare(&mut self, declaration: Node<'t>) -> Vec<String> {
        let mut names = Vec::new();
        let Some(type_node) = declaration.field("type") else {
            return names;
        };
        let type_text = self.text(type_node);
        let is_static = syntax::children(declaration)
            .any(|c| c.node_kind() == "storage_class_specifier" && self.text(c) == "static");
        let normalized_type = size::normalize_type(type_text);
        let vector_element = (normalized_type.starts_with("vector<")
            || normalized_type.starts_with("thrust::host_vector<"))
        .then(|| {
            let start = normalized_type.find('<')? + 1;
            let end = normalized_type.rfind('>')?;
            normalized_type.get(start..end).map(str::to_string)
        })
        .flatten();
        for declarator in named_children(declaration) {
            let (target, value) = match declarator.node_kind() {
                "init_declarator" => (declarator.field("declarator"), declarator.field("value")),
                "identifier" | "pointer_declarator" | "array_declarator" => {
                    (Some(declarator), None)
                }
                // `std::vector<float> v(n);` parses as a function declaration
                "function_declarator" if vector_element.is_some() => {
                    (declarator.field("declarator"), None)
                }
                _ => continue,
            };
            let Some(target) = target else { continue };
            let Some(name_node) = syntax::declarator_name(target) else {
                continue;
            };
            let name = self.text(name_node).to_string();
            names.push(name.clone());
            let is_const = syntax::children(declaration).any(|c| {
                c.node_kind() == "type_qualifier" && matches!(self.text(c), "const" | "constexpr")
            });
            if is_const {
                self.const_names.insert(name.clone());
            }
            // `T* a[N]` is an array (of pointers), not a pointer
            let is_array =
                target.node_kind() == "array_declarator" || self.text(target).contains('[');
            let is_pointer = target.node_kind() == "pointer_declarator" && !is_array;
            if let Some(value) = value {
                if value.node_kind() == "argument_list" && normalized_type == "dim3" {
                    self.dim3_arguments.insert(name.clone(), value);
                } else if value.node_kind() != "argument_list"
                    && value.node_kind() != "initializer_list"
                {
                    self.initializers.insert(name.clone(), value);
                }
            }
            if !is_pointer && !is_array && vector_element.is_none() {
                self.scalar_types
                    .insert(name.clone(), normalized_type.clone());
                continue;
            }
            let pointee = if let Some(element) = &vector_element {
                Some(element.clone())
            } else if is_pointer {
                // `float** p` declares a pointer to `float*`
                let stars = self
                    .text(target)
                    .chars()
                    .take_while(|c| *c == '*' || c.is_whitespace())
                    .filter(|c| *c == '*')
                    .count();
                Some(format!(
                    "{normalized_type}{}",
                    "*".repeat(stars.saturating_sub(1))
                ))
            } else {
                Some(normalized_type.clone())
            };
            let initial = match value {
                None if is_static => Initial::Null,
                None => Initial::Uninitialized,
                Some(v) if is_null(v, self.source) => Initial::Null,
                Some(_) => Initial::Unknown,
            };
            let index = self.out.variables.len();
            self.out.variables.push(Variable {
                name: name.clone(),
                declaration: declarator,
                pointee,
                is_pointer,
                is_parameter: false,
                is_vector: vector_element.is_some() || is_array,
                is_array,
                initial: if is_array || vector_element.is_some() {
                    Initial::Unknown
                } else {
                    initial
                },
            });
            // the innermost declaration wins for shadowed names; good enough for one function
            self.by_name.insert(name, index);
        }
        names
    }

    fn finish(&mut self) {
        self.depends_on.sort_unstable();
        self.depends_on.dedup();
        let mut checks = std::mem::take(&mut self.launch_checks);
        checks.sort_unstable();
        let count = self.out.launches.len();
        for index in 0..count {
            let start = self.out.launches[index].call.end_byte();
            let end = if index + 1 < count {
                self.out.launches[index + 1].call.start_byte()
            } else {
                usize::MAX
            };
            let first_after = checks.partition_point(|&p| p < start);
            self.out.launches[index].checked = checks.get(first_after).is_some_and(|&p| p < end);
        }
    }

    fn push_event(
        &mut self,
        variable: usize,
        kind: EventKind,
        node: Node<'t>,
        context: Context<'t>,
    ) {
        self.out.events.push(Event {
            variable,
            kind,
            node,
            region: context.region,
            enclosing_loop: context.enclosing_loop,
            conditional: context.conditional,
            device: self.device,
        });
    }

    // ---- statements ----

    fn statement(&mut self, node: Node<'t>, context: Context<'t>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match node.node_kind() {
            "compound_statement" | "translation_unit" => {
                for child in named_children(node) {
                    self.statement(child, context, depth + 1);
                }
            }
            "declaration" => self.declaration(node, context),
            "expression_statement" => {
                if let Some(expression) = node.named_child(0) {
                    self.expression(expression, context);
                }
            }
            "if_statement" => {
                let condition = node.field("condition");
                let mut branch = Context {
                    conditional: true,
                    ..context
                };
                if let Some(condition) = condition {
                    self.expression(condition, context);
                    let condition_text = self.text(condition);
                    if condition_text.contains("cudaSuccess")
                        || condition_text.contains("CUDA_SUCCESS")
                        || self
                            .error_variables
                            .iter()
                            .any(|v| condition_text.contains(v.as_str()))
                    {
                        branch.error_path = true;
                    }
                }
                if let Some(consequence) = node.field("consequence") {
                    self.statement(
                        consequence,
                        Context {
                            region: consequence,
                            ..branch
                        },
                        depth + 1,
                    );
                }
                if let Some(alternative) = node.field("alternative") {
                    self.statement(
                        alternative,
                        Context {
                            region: alternative,
                            ..branch
                        },
                        depth + 1,
                    );
                }
                self.forget_device_if_changed(node);
            }
            "for_statement" | "while_statement" | "do_statement" | "for_range_loop" => {
                let body = node.field("body");
                let inner = Context {
                    region: body.unwrap_or(node),
                    enclosing_loop: Some(node),
                    conditional: true,
                    ..context
                };
                for field in ["initializer", "condition", "update", "right"] {
                    if let Some(part) = node.field(field) {
                        if part.node_kind() == "declaration" {
                            self.declaration(part, inner);
                        } else {
                            self.expression(part, inner);
                        }
                    }
                }
                if let Some(body) = body {
                    self.statement(body, inner, depth + 1);
                }
                self.forget_device_if_changed(node);
            }
            "return_statement" => {
                for child in named_children(node) {
                    self.expression(child, context);
                    self.escape_identifiers(child, context);
                }
            }
            "switch_statement" | "case_statement" | "try_statement" | "catch_clause"
            | "labeled_statement" | "else_clause" => {
                let inner = Context {
                    region: node,
                    conditional: true,
                    ..context
                };
                for child in named_children(node) {
                    if child.node_kind().ends_with("statement")
                        || child.node_kind() == "declaration"
                        || child.node_kind() == "catch_clause"
                        || child.node_kind() == "else_clause"
                    {
                        self.statement(child, inner, depth + 1);
                    } else {
                        self.expression(child, inner);
                    }
                }
            }
            "comment" | "break_statement" | "continue_statement" | "goto_statement" => {}
            _ => self.expression(node, context),
        }
    }

    /// A `cudaSetDevice` inside a branch or loop leaves the device unknown afterwards.
    fn forget_device_if_changed(&mut self, node: Node<'t>) {
        if self.text(node).contains("SetDevice") {
            self.device = None;
        }
    }

    fn declaration(&mut self, node: Node<'t>, context: Context<'t>) {
        // `MACRO cudaMemset(p, 0, n);` (a macro with no semicolon before a call) parses as a
        // function declaration: the call is real, but the model cannot tell what it does
        let declared_type = node
            .field("type")
            .map(|t| size::normalize_type(self.text(t)))
            .unwrap_or_default();
        let is_container = declared_type.contains('<') || declared_type.contains("::");
        // `Owner o{raw}` / `Owner o(raw)`: the constructed object takes the pointer
        let constructor_call = |d: &Node| {
            (d.node_kind() == "function_declarator" && !is_container)
                || (d.node_kind() == "init_declarator"
                    && d.field("value").is_some_and(|v| {
                        matches!(v.node_kind(), "argument_list" | "initializer_list")
                    }))
        };
        if named_children(node).any(|d| constructor_call(&d)) {
            let mut mentioned = Vec::new();
            for declarator in named_children(node).filter(constructor_call) {
                let arguments = declarator
                    .field("value")
                    .or_else(|| declarator.field("parameters"));
                let Some(arguments) = arguments else { continue };
                walk_iterative(arguments, |n| {
                    if matches!(n.node_kind(), "identifier" | "type_identifier") {
                        mentioned.push(n);
                    }
                    true
                });
            }
            for identifier in mentioned {
                if let Some(&variable) = self.by_name.get(self.text(identifier)) {
                    self.push_event(variable, EventKind::Escaped, identifier, context);
                }
            }
            return;
        }
        for declarator in named_children(node) {
            if declarator.node_kind() != "init_declarator" {
                continue;
            }
            let Some(value) = declarator.field("value") else {
                continue;
            };
            self.expression(value, context);
            let Some(name_node) = declarator
                .field("declarator")
                .and_then(syntax::declarator_name)
            else {
                continue;
            };
            let name = self.text(name_node);
            if value.node_kind() != "argument_list" && value.node_kind() != "initializer_list" {
                let stripped = strip(value, self.source);
                if stripped.node_kind() == "call_expression"
                    && is_cuda_api(call_name(stripped, self.source))
                {
                    self.error_variables.insert(name.to_string());
                }
                self.escape_identifiers(value, context);
                if let Some(&variable) = self.by_name.get(name) {
                    self.assigned(variable, value, declarator, context, true);
                }
            }
        }
    }

    /// `v = value` (or `T* v = value`).
    fn assigned(
        &mut self,
        variable: usize,
        value: Node<'t>,
        node: Node<'t>,
        context: Context<'t>,
        is_declaration: bool,
    ) {
        let stripped = strip(value, self.source);
        let kind = if is_null(stripped, self.source) {
            if is_declaration {
                return;
            }
            EventKind::Nulled
        } else if stripped.node_kind() == "new_expression" && self.text(stripped).contains('[')
            || stripped.node_kind() == "call_expression"
                && matches!(
                    call_name(stripped, self.source),
                    "malloc" | "calloc" | "aligned_alloc"
                )
        {
            let allocation = self.out.allocations.len();
            let size_node = (stripped.node_kind() == "call_expression")
                .then(|| arguments(stripped).last().copied())
                .flatten();
            self.out.allocations.push(Allocation {
                call: stripped,
                api: call_name(stripped, self.source).to_string(),
                variable: Some(variable),
                memory: Memory::Host,
                size_node,
                bytes: None,
                sizeof_unit: None,
                conditional: context.conditional,
                enclosing_loop: context.enclosing_loop,
            });
            EventKind::Allocated {
                memory: Memory::Host,
                allocation,
            }
        } else {
            EventKind::Assigned
        };
        self.push_event(variable, kind, node, context);
    }

    /// Every tracked pointer named directly in `node` (not inside a call) is stored or returned.
    fn escape_identifiers(&mut self, node: Node<'t>, context: Context<'t>) {
        let mut found = Vec::new();
        let source = self.source;
        walk_iterative(node, |n| match n.node_kind() {
            "call_expression"
            | "lambda_expression"
            | "subscript_expression"
            | "sizeof_expression"
            | "field_expression" => false,
            "identifier" => {
                found.push(n);
                false
            }
            "pointer_expression" if operator(n, source) == "*" => false,
            _ => true,
        });
        for identifier in found {
            if let Some(&variable) = self.by_name.get(self.text(identifier)) {
                if self.out.variables[variable].is_pointer || self.out.variables[variable].is_vector
                {
                    self.push_event(variable, EventKind::Escaped, identifier, context);
                }
            }
        }
    }

    // ---- expressions ----

    fn expression(&mut self, node: Node<'t>, context: Context<'t>) {
        let mut calls = Vec::new();
        let mut assignments = Vec::new();
        let mut deletes = Vec::new();
        walk_iterative(node, |n| match n.node_kind() {
            "lambda_expression" | "compound_statement" => false,
            "call_expression" => {
                calls.push(n);
                true
            }
            "assignment_expression" => {
                assignments.push(n);
                true
            }
            "delete_expression" => {
                deletes.push(n);
                true
            }
            _ => true,
        });
        // calls in source order (outer before inner, as written)
        for call in calls {
            self.call(call, context);
        }
        for assignment in assignments {
            let (Some(left), Some(right)) = (assignment.field("left"), assignment.field("right"))
            else {
                continue;
            };
            let left = strip(left, self.source);
            let right_stripped = strip(right, self.source);
            if right_stripped.node_kind() == "call_expression"
                && is_cuda_api(call_name(right_stripped, self.source))
                && left.node_kind() == "identifier"
            {
                self.error_variables.insert(self.text(left).to_string());
            }
            if left.node_kind() == "identifier" && operator(assignment, self.source) == "=" {
                if let Some(&variable) = self.by_name.get(self.text(left)) {
                    self.escape_identifiers(right, context);
                    self.assigned(variable, right, assignment, context, false);
                    continue;
                }
            }
            if operator(assignment, self.source) == "=" {
                self.escape_identifiers(right, context);
            }
        }
        for delete in deletes {
            if let Some(argument) = named_children(delete).last() {
                if let Some(variable) = self.variable_of(argument) {
                    self.push_event(
                        variable,
                        EventKind::Freed { device: false },
                        delete,
                        context,
                    );
                }
            }
        }
    }

    fn result_use(&self, call: Node<'t>) -> ResultUse {
        let mut node = call;
        for _ in 0..MAX_DEPTH {
            let Some(parent) = node.parent() else {
                return ResultUse::Checked;
            };
            match parent.node_kind() {
                "parenthesized_expression" => node = parent,
                "expression_statement" => return ResultUse::Discarded,
                "cast_expression" => {
                    let is_void = parent
                        .field("type")
                        .is_some_and(|t| self.text(t).trim() == "void");
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
                            .map(|l| strip(l, self.source))
                            .filter(|l| l.node_kind() == "identifier")
                    };
                    let Some(target) = target else {
                        return ResultUse::Checked;
                    };
                    let name = self.text(target);
                    let statement_end = parent.end_byte();
                    let read_later = self
                        .uses
                        .get(name)
                        .is_some_and(|positions| positions.iter().any(|&p| p > statement_end));
                    return if read_later {
                        ResultUse::Checked
                    } else {
                        ResultUse::StoredUnread
                    };
                }
                "comma_expression" => node = parent,
                _ => return ResultUse::Checked,
            }
        }
        ResultUse::Checked
    }

    fn call(&mut self, call: Node<'t>, context: Context<'t>) {
        if is_launch(call) {
            self.launch(call, context);
            return;
        }
        let name = call_name(call, self.source).to_string();
        let args = arguments(call);
        if name.is_empty() {
            // a method call or a call through an expression: arguments go to unknown code
            self.unknown_call_arguments(&args, context);
            return;
        }
        if matches!(name.as_str(), "cudaGetLastError" | "cudaPeekAtLastError") {
            if !matches!(
                self.result_use(call),
                ResultUse::Discarded | ResultUse::DeliberatelyDiscarded | ResultUse::StoredUnread
            ) {
                self.launch_checks.push(call.start_byte());
            }
            return;
        }
        if is_check_name(&name, self.model.check_macros)
            || matches!(
                name.as_str(),
                "checkCudaErrors" | "gpuErrchk" | "getLastCudaError"
            )
        {
            // a check with no CUDA call inside queries the last error itself (`getLastCudaError("msg")`)
            let wraps_call = args.iter().any(|a| {
                let mut found = false;
                walk_iterative(*a, |n| {
                    if n.node_kind() == "call_expression" && is_cuda_api(call_name(n, self.source))
                    {
                        found = true;
                    }
                    !found
                });
                found
            });
            if !wraps_call {
                self.launch_checks.push(call.start_byte());
            }
            return;
        }
        if is_cuda_api(&name) {
            self.cuda_call(call, &name, &args, context);
            return;
        }
        match name.as_str() {
            "free" => {
                if let Some(variable) = args.first().and_then(|a| self.variable_of(*a)) {
                    self.push_event(variable, EventKind::Freed { device: false }, call, context);
                }
            }
            "malloc" | "calloc" | "printf" | "fprintf" | "sizeof" | "static_cast" | "memset"
            | "memcpy" => {
                if matches!(name.as_str(), "memset" | "memcpy") {
                    self.unknown_call_arguments(&args, context);
                }
            }
            _ => self.unknown_call_arguments(&args, context),
        }
    }

    fn unknown_call_arguments(&mut self, args: &[Node<'t>], context: Context<'t>) {
        for argument in args {
            if let Some(identifier) = address_of(*argument, self.source) {
                if let Some(&variable) = self.by_name.get(self.text(identifier)) {
                    self.push_event(variable, EventKind::AddressTaken, *argument, context);
                }
                continue;
            }
            if let Some(pointer) = self.pointer_arg(*argument) {
                self.push_event(pointer.variable, EventKind::Escaped, *argument, context);
                continue;
            }
            let stripped = strip(*argument, self.source);
            if stripped.node_kind() == "identifier" {
                if let Some(&variable) = self.by_name.get(self.text(stripped)) {
                    self.push_event(variable, EventKind::Escaped, *argument, context);
                }
            }
        }
    }

    fn cuda_call(&mut self, call: Node<'t>, name: &str, args: &[Node<'t>], context: Context<'t>) {
        self.depends_on.push(name.to_string());
        let defined_here = self.model.function_named(name);
        let returns_error = defined_here.map(|f| {
            let head = &self.source[f.definition.start_byte()..f.name_node.start_byte()];
            head.contains("cudaError") || head.contains("CUresult")
        });
        if !returns_no_error(name) && returns_error != Some(false) {
            let result = self.result_use(call);
            self.out.calls.push(CudaCall {
                call,
                name: name.to_string(),
                result,
                on_error_path: context.error_path,
            });
        }
        match name {
            "cudaSetDevice" => {
                let value = args
                    .first()
                    .and_then(|a| self.evaluate(*a, true))
                    .and_then(|s| s.as_constant());
                self.device = if context.conditional { None } else { value };
            }
            "cudaMalloc" | "cudaMallocAsync" | "cudaMallocManaged" | "cudaMallocHost"
            | "cudaHostAlloc" | "cuMemAlloc" | "cuMemAlloc_v2" | "cudaMallocPitch"
            | "cuMemAllocManaged" | "cuMemAllocHost" => {
                let memory = match name {
                    "cudaMallocManaged" | "cuMemAllocManaged" => Memory::Managed,
                    "cudaMallocHost" | "cuMemAllocHost" => Memory::Pinned,
                    "cudaHostAlloc" => {
                        if args
                            .get(2)
                            .is_some_and(|f| self.text(*f).contains("Mapped"))
                        {
                            Memory::Mapped
                        } else {
                            Memory::Pinned
                        }
                    }
                    _ => Memory::Device,
                };
                let size_node = if name == "cudaMallocPitch" {
                    None
                } else {
                    args.get(1).copied()
                };
                let bytes = size_node.and_then(|s| self.evaluate(s, true));
                let sizeof_unit = size_node.and_then(|s| self.sizeof_unit(s));
                let variable = args
                    .first()
                    .and_then(|a| address_of(*a, self.source))
                    .and_then(|i| self.by_name.get(self.text(i)).copied());
                let allocation = self.out.allocations.len();
                self.out.allocations.push(Allocation {
                    call,
                    api: name.to_string(),
                    variable,
                    memory,
                    size_node,
                    bytes,
                    sizeof_unit,
                    conditional: context.conditional,
                    enclosing_loop: context.enclosing_loop,
                });
                if let Some(variable) = variable {
                    self.push_event(
                        variable,
                        EventKind::Allocated { memory, allocation },
                        call,
                        context,
                    );
                }
                for argument in args.iter().skip(1) {
                    self.escape_address(*argument, context);
                }
            }
            "cudaHostGetDevicePointer" => {
                if let Some(variable) = args
                    .first()
                    .and_then(|a| address_of(*a, self.source))
                    .and_then(|i| self.by_name.get(self.text(i)).copied())
                {
                    let allocation = self.out.allocations.len();
                    self.out.allocations.push(Allocation {
                        call,
                        api: name.to_string(),
                        variable: Some(variable),
                        memory: Memory::Mapped,
                        size_node: None,
                        bytes: None,
                        sizeof_unit: None,
                        conditional: context.conditional,
                        enclosing_loop: context.enclosing_loop,
                    });
                    self.push_event(
                        variable,
                        EventKind::Allocated {
                            memory: Memory::Mapped,
                            allocation,
                        },
                        call,
                        context,
                    );
                }
            }
            "cudaFree" | "cudaFreeAsync" | "cudaFreeHost" | "cuMemFree" | "cuMemFree_v2"
            | "cuMemFreeHost" => {
                if let Some(variable) = args.first().and_then(|a| self.variable_of(*a)) {
                    self.push_event(variable, EventKind::Freed { device: true }, call, context);
                }
            }
            "cudaMemcpy"
            | "cudaMemcpyAsync"
            | "cudaMemset"
            | "cudaMemsetAsync"
            | "cudaMemcpyPeer"
            | "cudaMemcpyPeerAsync" => {
                let is_memset = name.starts_with("cudaMemset");
                let is_peer = name.starts_with("cudaMemcpyPeer");
                let destination_node = args.first().copied();
                let source_node = if is_memset {
                    None
                } else if is_peer {
                    args.get(2).copied()
                } else {
                    args.get(1).copied()
                };
                let size_node = if is_peer {
                    args.get(4).copied()
                } else {
                    args.get(2).copied()
                };
                let direction_node = if is_memset || is_peer {
                    None
                } else {
                    args.get(3).copied()
                };
                let bytes = size_node.and_then(|s| self.evaluate(s, true));
                let sizeof_unit = size_node.and_then(|s| self.sizeof_unit(s));
                let direction =
                    direction_node.and_then(|d| match self.text(strip(d, self.source)) {
                        "cudaMemcpyHostToDevice" => Some((Side::Host, Side::Device)),
                        "cudaMemcpyDeviceToHost" => Some((Side::Device, Side::Host)),
                        "cudaMemcpyDeviceToDevice" => Some((Side::Device, Side::Device)),
                        "cudaMemcpyHostToHost" => Some((Side::Host, Side::Host)),
                        _ => None,
                    });
                let destination = destination_node.and_then(|d| self.pointer_arg(d));
                let source = source_node.and_then(|s| self.pointer_arg(s));
                if let Some(d) = destination {
                    let kind = if is_memset {
                        WriteKind::Memset
                    } else {
                        WriteKind::Copy
                    };
                    self.push_event(
                        d.variable,
                        EventKind::Written {
                            kind,
                            bytes: bytes.clone(),
                            whole: d.whole,
                        },
                        call,
                        context,
                    );
                }
                if let Some(s) = source {
                    self.push_event(
                        s.variable,
                        EventKind::Read {
                            bytes: bytes.clone(),
                            whole: s.whole,
                        },
                        call,
                        context,
                    );
                }
                self.out.transfers.push(Transfer {
                    call,
                    api: name.to_string(),
                    destination,
                    source,
                    destination_node,
                    source_node,
                    size_node,
                    bytes,
                    sizeof_unit,
                    direction,
                    direction_node,
                    is_memset,
                });
            }
            _ => {
                // a CUDA call the model does not detail: it may write what it is given, or assign
                // through an address (`cudaGetSymbolAddress(&p, ...)`)
                for argument in args {
                    if let Some(identifier) = address_of(*argument, self.source) {
                        if let Some(&variable) = self.by_name.get(self.text(identifier)) {
                            self.push_event(variable, EventKind::AddressTaken, *argument, context);
                        }
                    } else if let Some(pointer) = self.pointer_arg(*argument) {
                        self.push_event(
                            pointer.variable,
                            EventKind::Written {
                                kind: WriteKind::Unknown,
                                bytes: None,
                                whole: false,
                            },
                            call,
                            context,
                        );
                    }
                }
            }
        }
    }

    fn escape_address(&mut self, argument: Node<'t>, context: Context<'t>) {
        if let Some(identifier) = address_of(argument, self.source) {
            if let Some(&variable) = self.by_name.get(self.text(identifier)) {
                self.push_event(variable, EventKind::AddressTaken, argument, context);
            }
        }
    }

    fn dim3_of(&self, node: Node<'t>) -> Option<Dim3> {
        let node = strip(node, self.source);
        let components: Vec<Node<'t>> = match node.node_kind() {
            "identifier" => {
                let name = self.text(node);
                if self.reassigned.contains(name) {
                    return None;
                }
                if let Some(list) = self.dim3_arguments.get(name) {
                    named_children(*list)
                        .filter(|c| c.node_kind() != "comment")
                        .collect()
                } else {
                    vec![node]
                }
            }
            "call_expression" if call_name(node, self.source) == "dim3" => arguments(node),
            "initializer_list" => named_children(node).collect(),
            _ => vec![node],
        };
        if components.is_empty() || components.len() > 3 {
            return None;
        }
        let value = |i: usize| -> Option<i128> {
            match components.get(i) {
                None => Some(1),
                Some(c) => self.evaluate(*c, true).and_then(|s| s.as_constant()),
            }
        };
        Some(Dim3 {
            x: value(0),
            y: value(1),
            z: value(2),
        })
    }

    fn launch(&mut self, call: Node<'t>, context: Context<'t>) {
        let function = call.field("function");
        let kernel = function
            .map(|f| match f.node_kind() {
                "template_function" | "qualified_identifier" => {
                    f.field("name").map(|n| self.text(n)).unwrap_or("")
                }
                _ => self.text(f),
            })
            .unwrap_or("")
            .to_string();
        let config: Vec<Node<'t>> = named_children(call)
            .find(|c| c.node_kind() == "kernel_call_syntax")
            .map(|k| {
                named_children(k)
                    .filter(|c| c.node_kind() != "comment")
                    .collect()
            })
            .unwrap_or_default();
        let args = arguments(call);
        let pointer_arguments: Vec<Option<PointerArg>> =
            args.iter().map(|a| self.pointer_arg(*a)).collect();
        let argument_values: Vec<Option<Sym>> =
            args.iter().map(|a| self.evaluate(*a, true)).collect();
        let wrapped = !matches!(
            strip_parents(call).map(|p| p.node_kind()),
            Some("expression_statement")
        );
        let launch_index = self.out.launches.len();
        let summary_arity = args.len();
        self.out.launches.push(Launch {
            call,
            kernel: kernel.clone(),
            grid_node: config.first().copied(),
            block_node: config.get(1).copied(),
            shared_node: config.get(2).copied(),
            stream_node: config.get(3).copied(),
            grid: config.first().and_then(|g| self.dim3_of(*g)),
            block: config.get(1).and_then(|b| self.dim3_of(*b)),
            shared_bytes: config
                .get(2)
                .and_then(|s| self.evaluate(*s, true))
                .and_then(|s| s.as_constant()),
            arguments: args.clone(),
            pointer_arguments: pointer_arguments.clone(),
            argument_values,
            checked: false,
            wrapped,
            device: self.device,
        });
        // the lints read this kernel's summary too (`HostFacts::kernel`)
        self.depends_on.push(kernel.clone());
        let known_kernel = self.model.functions.iter().any(|f| {
            f.kind == FunctionKind::Kernel
                && f.name == kernel
                && f.parameters.len() == summary_arity
        });
        for (position, argument) in args.iter().enumerate() {
            match pointer_arguments[position] {
                Some(pointer) if known_kernel => {
                    self.push_event(
                        pointer.variable,
                        EventKind::Launched {
                            launch: launch_index,
                            argument: position,
                            whole: pointer.whole,
                        },
                        call,
                        context,
                    );
                }
                Some(pointer) => {
                    self.push_event(pointer.variable, EventKind::Escaped, *argument, context)
                }
                None => {
                    if let Some(identifier) = address_of(*argument, self.source) {
                        if let Some(&variable) = self.by_name.get(self.text(identifier)) {
                            self.push_event(variable, EventKind::AddressTaken, *argument, context);
                        }
                    }
                }
            }
        }
    }
}

fn strip_parents(node: Node) -> Option<Node> {
    let mut parent = node.parent()?;
    for _ in 0..MAX_DEPTH {
        if parent.node_kind() != "parenthesized_expression" {
            return Some(parent);
        }
        parent = parent.parent()?;
    }
    None
}

fn is_null(node: Node, source: &str) -> bool {
    let node = strip(node, source);
    matches!(node.node_kind(), "null" | "nullptr")
        || matches!(text(node, source), "NULL" | "0" | "nullptr")
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

impl<'t> HostFunction<'t> {
    /// Events of `variable` that may run before `at`: earlier in the source, or anywhere in a
    /// loop around `at` (the previous iteration).
    pub fn events_before<'a>(
        &'a self,
        variable: usize,
        at: &'a Event<'t>,
    ) -> impl Iterator<Item = &'a Event<'t>> + 'a {
        self.events_of(variable).filter(move |e| {
            !std::ptr::eq(*e, at)
                && (e.node.end_byte() <= at.node.start_byte()
                    || at.enclosing_loop.is_some_and(|l| {
                        within(e.node, l) && e.node.start_byte() != at.node.start_byte()
                    }))
        })
    }

    /// The allocation that gives `variable` its value at `at`, when it is the only definition that
    /// can reach there (a local, not a parameter).
    pub fn reaching_allocation(&self, variable: usize, at: &Event<'t>) -> Option<&Allocation<'t>> {
        if self.variables.get(variable)?.is_parameter {
            return None;
        }
        let mut definitions = self
            .events_before(variable, at)
            .filter(|e| e.kind.defines());
        let first = definitions.next()?;
        if definitions.next().is_some() {
            return None;
        }
        match first.kind {
            EventKind::Allocated { allocation, .. }
                if first.node.end_byte() <= at.node.start_byte() =>
            {
                self.allocations.get(allocation)
            }
            _ => None,
        }
    }

    /// The event a launch or transfer recorded for `variable` at `node`.
    pub fn event_at(&self, variable: usize, node: Node<'t>) -> Option<&Event<'t>> {
        self.events
            .iter()
            .find(|e| e.variable == variable && e.node == node)
    }

    /// Where a pointer argument lives, when the model knows.
    pub fn side_of(&self, pointer: &PointerArg, at: Node<'t>) -> Option<Side> {
        let variable = self.variables.get(pointer.variable)?;
        if pointer.host_data || (variable.is_vector && !variable.is_pointer) {
            return Some(Side::Host);
        }
        let event = self
            .events
            .iter()
            .find(|e| e.variable == pointer.variable && e.node == at)?;
        match self.reaching_allocation(pointer.variable, event)?.memory {
            Memory::Device => Some(Side::Device),
            Memory::Host | Memory::Pinned => Some(Side::Host),
            Memory::Managed | Memory::Mapped => None,
        }
    }
}
