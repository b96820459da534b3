//! Kernel-side facts: which values derive from the thread index, every global-memory access with
//! the conditions that dominate it, and every block-wide barrier.

use super::guards::{self, Comparison, Condition, Relation};
use super::helpers::{DeviceFunctions, Site};
use super::launch::{Axes, LaunchSite};
use super::ranges::Reaching;
use super::{Function, Model};
use crate::syntax::{self, named_children, normalized, operator, strip, text, NodeExt, MAX_DEPTH};
use rustc_hash::FxHashMap as HashMap;
use std::borrow::Cow;
use std::ops::Range;
use tree_sitter::Node;

mod accesses;
mod barriers;
mod bounds;
mod calls;
mod dynamic_shared;
mod flags;
mod instantiation;
mod lane_groups;
mod published;
mod ranges;
mod step_counts;
mod summary;
mod thread_values;
mod vectors;
mod walk;
mod warps;
mod widths;

#[cfg(test)]
mod tests;

pub(crate) use calls::{called_method_names, called_names, callee_name};
pub use dynamic_shared::{
    uses_dynamic_shared_memory, OverrunLaunch, SharedOverrun, SharedUnguarded,
};
use flags::{is_declared_value, without_earlier_values};
pub(crate) use summary::summarize_helper;
pub use vectors::VectorTail;
pub use warps::{is_collective, reads_other_lanes, WarpCollective};
pub use widths::{integer_width, NarrowIndex};

/// Where a value comes from, as far as thread identity goes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Deps(u8);

impl Deps {
    pub const NONE: Deps = Deps(0);
    /// `threadIdx`, a block's `thread_rank()`: differs between threads of a block.
    pub const THREAD: Deps = Deps(1);
    /// `blockIdx`: differs between blocks, uniform within one.
    pub const BLOCK: Deps = Deps(2);
    /// A grid-wide rank or a grid-stride loop variable.
    pub const GRID: Deps = Deps(4);

    pub fn union(self, other: Deps) -> Deps {
        Deps(self.0 | other.0)
    }
    /// The parts both have.
    pub fn intersection(self, other: Deps) -> Deps {
        Deps(self.0 & other.0)
    }
    pub fn contains(self, other: Deps) -> bool {
        self.0 & other.0 == other.0
    }
    pub fn is_uniform(self) -> bool {
        self.0 == 0
    }
    /// A global thread index: it spans the whole grid, so nothing but a guard bounds it.
    pub fn is_global_index(self) -> bool {
        self.contains(Deps::GRID) || (self.contains(Deps::THREAD) && self.contains(Deps::BLOCK))
    }
    /// Differs between threads of one block, so a condition on it diverges.
    pub fn varies_within_block(self) -> bool {
        self.contains(Deps::THREAD) || self.contains(Deps::GRID)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessKind {
    Read,
    Write,
    /// Compound assignment, increment, or address passed on (`atomicAdd(&p[i], v)`).
    ReadWrite,
}

impl AccessKind {
    pub fn reads(self) -> bool {
        matches!(self, AccessKind::Read | AccessKind::ReadWrite)
    }
    pub fn writes(self) -> bool {
        matches!(self, AccessKind::Write | AccessKind::ReadWrite)
    }
}

#[derive(Debug, Clone)]
pub enum IndexStatus<'t> {
    /// The index does not span the grid: uniform, block-local (`threadIdx` only) or per-block
    /// (`blockIdx` only, sized by the grid).
    NotThreadIndexed,
    /// Bounded by a dominating guard (the comparison, oriented with the index on the left) or by
    /// construction (`i % n`, `min(i, n - 1)`, `i & mask`: no comparison).
    Bounded { bound: Option<Comparison<'t>> },
    /// Nothing bounds `leaf`, a part of the index derived from the global thread index.
    Unguarded {
        leaf: Node<'t>,
        declaration: Option<Node<'t>>,
        /// The launch axes the leaf's thread identity comes from.
        axes: Axes,
        /// Other variables of the index that nothing bounds, with their axes.
        also: Vec<(Node<'t>, Axes)>,
        /// Those of `leaf` and `also` whose value is the thread index scaled (`n * tid`): the
        /// extent a launch gives their axes is not their bound.
        scaled: Vec<Node<'t>>,
    },
    /// Reached only when the index is past its bound (`if (i >= n)`, the else of `if (i < n)`) or
    /// under a guard that admits the bound itself (`if (i <= n)`).
    OutOfRange { guard: Node<'t>, admits_bound: bool },
}

#[derive(Debug, Clone)]
pub struct Access<'t> {
    /// The whole access expression: `p[e]` or `*(p + e)`.
    pub node: Node<'t>,
    pub pointer: String,
    /// The kernel parameter the pointer is, or derives from.
    pub parameter_index: usize,
    pub index: Node<'t>,
    /// For a pointer derived from a parameter (`float* row = a + r * n`), that offset.
    pub pointer_offset: Option<Node<'t>>,
    pub kind: AccessKind,
    pub deps: Deps,
    pub status: IndexStatus<'t>,
    /// The statement holding the access (for edits that wrap it in a guard).
    pub statement: Option<Node<'t>>,
    /// Made by every thread of every launch, at exactly the global `x` index
    /// (`blockIdx.x * blockDim.x + threadIdx.x`), under no condition and in no loop: the launch's
    /// `x` extent is the number of elements it reaches.
    pub every_thread_at_global_x: bool,
    /// For an access made by a device function the kernel calls (`store(out, i, v)` indexing its
    /// pointer parameter with its index parameter), that function and where it indexes: `node`
    /// is then the call, `index` the argument, `kind` the helper's access.
    pub via: Option<Via>,
    /// Of the kernel's launches (by position), those whose allocation of the buffer holds every
    /// element this access reaches, where others do not: the launches to name are the rest.
    pub launches_holding_it: Vec<usize>,
}

/// The helper behind an access made through a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Via {
    /// The device function called.
    pub helper: String,
    /// Where the access is written: in the helper, or in a function it calls.
    pub site: Site,
    /// The access at `site`, in this file; None when the helper is in another file.
    pub span: Option<Range<usize>>,
    /// The helper's file, when it is not this one.
    pub file: Option<std::path::PathBuf>,
}

#[derive(Debug, Clone)]
pub struct Barrier<'t> {
    pub node: Node<'t>,
    /// The thread-dependent condition under which the barrier is reached, if any.
    pub divergent_condition: Option<Node<'t>>,
    /// Whether the barrier is reached where that condition holds; false where it fails (the
    /// `else` arm of its `if`).
    pub reached_where_condition_holds: bool,
    /// Whether that condition is an early `return`, `continue` or `break` before the barrier
    /// rather than an enclosing branch.
    pub after_early_exit: bool,
    /// For a call of a device function that reaches a barrier, where that barrier is written.
    pub via: Option<BarrierVia>,
}

/// The barrier behind a call of a device function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BarrierVia {
    /// The device function called.
    pub helper: String,
    /// The function the barrier is written in (the helper, or one it calls).
    pub function: String,
    /// The barrier, in this file; None when it is in another file.
    pub span: Option<Range<usize>>,
    /// The helper's file, when it is not this one.
    pub file: Option<std::path::PathBuf>,
}

#[derive(Debug, Clone)]
pub struct ThreadVariable<'t> {
    pub name: String,
    pub declaration: Node<'t>,
    pub deps: Deps,
}

#[derive(Debug, Default)]
pub struct KernelFacts<'t> {
    /// Every visible launch of the kernel (this file's and, through the index, the others').
    pub launches: Vec<LaunchSite>,
    pub accesses: Vec<Access<'t>>,
    pub barriers: Vec<Barrier<'t>>,
    /// Every warp collective the kernel calls, with the condition in force that splits a warp.
    pub collectives: Vec<WarpCollective<'t>>,
    /// Thread indices computed in 32 bits and compared with a 64-bit count.
    pub narrow_indices: Vec<NarrowIndex<'t>>,
    pub thread_variables: Vec<ThreadVariable<'t>>,
    /// Code nested deeper than the analysis follows.
    pub skipped: Vec<Range<usize>>,
    /// The names of the functions the kernel calls, sorted: what it may have read of the file's
    /// device functions (their summaries).
    pub calls: Vec<String>,
    /// The kernel's local pointers set from a pointer parameter (`float* row = out + r * n;`),
    /// by name, with the parameter's position: what the kernel does through them it does to
    /// the caller's buffer.
    pub derived_pointers: Vec<(String, usize)>,
    /// Accesses of `extern __shared__` arrays past what every visible launch gives them.
    pub shared_overruns: Vec<SharedOverrun<'t>>,
    /// Vector accesses through a wider view whose guard bounds their first element only.
    pub vector_tails: Vec<VectorTail<'t>>,
    /// Accesses of `extern __shared__` arrays at a global thread index no guard bounds, which
    /// every visible launch lets pass what it gives.
    pub shared_unguarded: Vec<SharedUnguarded<'t>>,
    /// Conflicting shared-memory accesses between threads of a block, computed on first use
    /// (see `shared`).
    shared: std::cell::OnceCell<crate::model::shared_memory::SharedFacts<'t>>,
}

impl<'t> KernelFacts<'t> {
    /// Whether the threads that skip `barrier`'s branch go on to the kernel's end without
    /// another barrier: the branch is in no loop and no barrier of the kernel follows it. They
    /// then leave as an early `return` would, which current GPUs tolerate; otherwise they may
    /// wait at another barrier while the rest wait at this one.
    pub fn skippers_meet_no_other_barrier(&self, barrier: &Barrier<'t>) -> bool {
        let Some(branch) = barrier.divergent_condition.and_then(statement_of_condition) else {
            return false;
        };
        let mut above = branch.up();
        for _ in 0..MAX_DEPTH {
            let Some(node) = above else { break };
            match node.node_kind() {
                "for_statement" | "while_statement" | "do_statement" | "for_range_loop" => {
                    return false
                }
                "function_definition" | "lambda_expression" => break,
                _ => above = node.up(),
            }
        }
        let end = branch.end_byte();
        self.barriers
            .iter()
            .all(|other| other.node.start_byte() < end)
    }

    /// Conflicting shared-memory accesses between threads of a block (see `shared_memory`):
    /// the kernel is run for every thread of a block the first time a rule asks, so a run whose
    /// rules do not read them does not pay for them.
    pub fn shared(
        &self,
        model: &Model<'t>,
        kernel: &Function<'t>,
    ) -> &crate::model::shared_memory::SharedFacts<'t> {
        self.shared
            .get_or_init(|| crate::model::shared_memory::analyze(model, kernel, self))
    }

    /// The most threads the kernel's launches give the `x` axis, when it is launched where the
    /// analysis sees and every launch has a constant grid and block there (`<<<64, 256>>>`):
    /// a thread index on that axis stays below it.
    pub fn launched_threads_x(&self) -> Option<i128> {
        let mut most: Option<i128> = None;
        for launch in &self.launches {
            let threads = launch.threads_x()?;
            most = Some(most.map_or(threads, |m| m.max(threads)));
        }
        most
    }

    pub fn thread_variable(&self, name: &str) -> Option<&ThreadVariable<'t>> {
        self.thread_variables.iter().find(|v| v.name == name)
    }

    /// What the launches say of a thread index on `axes`: the launches that leave threads past
    /// the problem there, and the kernel parameter that each of those passes as the extent its
    /// grid was rounded up from (the bound a guard must test), when they all agree on one.
    pub fn launch_bound<'f>(
        &self,
        kernel: &'f Function<'t>,
        axes: Axes,
    ) -> LaunchBound<'_, 'f, 't> {
        let mut bound = LaunchBound {
            parameter: None,
            unsafe_launches: Vec::new(),
        };
        let single_axis = {
            let mut all = axes.iter();
            match (all.next(), all.next()) {
                (Some(axis), None) => Some(axis),
                _ => None,
            }
        };
        let mut names: Vec<Option<&'f super::Parameter<'t>>> = Vec::new();
        for launch in &self.launches {
            if launch.exact_on(axes) {
                continue;
            }
            bound.unsafe_launches.push(launch);
            names.push(
                single_axis
                    .and_then(|axis| launch.bound_argument(axis))
                    .and_then(|position| kernel.parameters.get(position))
                    .filter(|p| !p.is_pointer),
            );
        }
        if let Some(Some(first)) = names.first() {
            if names
                .iter()
                .all(|n| n.is_some_and(|p| p.name == first.name))
            {
                bound.parameter = Some(first);
            }
        }
        bound
    }
}

/// See `KernelFacts::launch_bound`.
pub struct LaunchBound<'k, 'f, 't> {
    pub parameter: Option<&'f super::Parameter<'t>>,
    pub unsafe_launches: Vec<&'k LaunchSite>,
}

#[derive(Clone, Copy)]
struct PointerOrigin<'t> {
    parameter_index: usize,
    offset: Option<Node<'t>>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum GroupKind {
    Grid,
    /// A thread block cluster (`cg::this_cluster()`): its `block_rank()` is the block's place in
    /// the cluster, one value for the whole block.
    Cluster,
    Block,
}

/// How the statement before a program point left for the threads that did not reach it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Exit {
    /// Not an exit: the fact is an enclosing branch or loop condition.
    None,
    /// `return`: those threads have finished.
    Return,
    /// `continue`, `break`, `goto`: those threads are alive elsewhere in the kernel.
    Skip,
    /// `assert(c)`, `__builtin_assume(c)`: the code states `c` holds from here on; no thread
    /// is meant to leave, so no barrier diverges on it.
    Stated,
}

/// One fact pushed while walking: the condition and, for an early exit's negation, how it left.
#[derive(Clone, Copy)]
struct Fact<'t> {
    condition: Condition<'t>,
    exit: Exit,
}

struct Analyzer<'a, 't> {
    source: &'a str,
    /// The file's model, for its `#define`s and file-scope constants (None in unit analyses).
    model: Option<&'a Model<'t>>,
    function: &'a Function<'t>,
    /// Summaries of the device functions this function may call.
    helpers: &'a DeviceFunctions,
    /// Locals stepped by `++`/`--`, which `definitions` does not list, and pointers moved by `+=`.
    updated: std::collections::HashSet<String>,
    /// Those steps: the operand of each `++`/`--`, by local.
    steps: HashMap<String, Vec<Node<'t>>>,
    /// The block size `__launch_bounds__` caps the kernel at.
    launch_bound: Option<i128>,
    /// What reaches each use the range analysis asked about (by node id), and the tests each
    /// definition passed on the way to a use: finding them walks the tree upwards.
    reaching_cache: std::cell::RefCell<HashMap<usize, Option<Reaching<'t>>>>,
    passed_cache: std::cell::RefCell<HashMap<(usize, usize), Vec<Comparison<'t>>>>,
    /// The file-scope constants, read on first use (an index set against a launch's buffers).
    file_constants: std::cell::OnceCell<Option<crate::model::launch::FileConstants<'t>>>,
    /// While summarising a device function: per `return` met by the walk, whether its value is
    /// bounded by the facts in force there.
    returns: Option<Vec<bool>>,
    pointers: HashMap<String, PointerOrigin<'t>>,
    /// Where the kernel declares several pointer locals of one name (a `row` in each of two
    /// blocks): each declaration's value and the origin it gives, so that a read finds the one
    /// in scope there.
    same_name_pointers: HashMap<String, Vec<(Node<'t>, Option<PointerOrigin<'t>>)>>,
    /// While a constant is read at one visible launch: its template arguments, by parameter.
    template_values: std::cell::RefCell<Option<Vec<(String, i64)>>>,
    /// The element type each local pointer view declares (`float4` for `const float4* p4`).
    pointer_elements: HashMap<String, String>,
    /// The `extern __shared__` arrays a kernel with visible launches can see, by name.
    extern_shared: HashMap<String, dynamic_shared::ExternArray<'t>>,
    definitions: HashMap<String, Vec<Node<'t>>>,
    declarations: HashMap<String, Node<'t>>,
    /// Every declarator of each name, where `declarations` keeps the first: kernels declare
    /// locals of one name in several scopes.
    all_declarations: HashMap<String, Vec<Node<'t>>>,
    deps: HashMap<String, Deps>,
    /// The thread identity of each definition (by its value's node id) of a name the kernel
    /// declares more than once: a read takes those of the local in scope there.
    definition_deps: HashMap<usize, Deps>,
    groups: HashMap<String, GroupKind>,
    /// Variables stepped by the launch dimensions (`i += blockDim.x * gridDim.x`): whatever they
    /// start from, only a guard on them bounds them. Each with the bytes of the scope that
    /// declares the stepped variable (None: the whole function), so another local of the name
    /// in another block is not one (see `is_stride_variable`).
    stride_variables: HashMap<String, Vec<Option<std::ops::Range<usize>>>>,
    facts: Vec<Fact<'t>>,
    /// Loop variables re-initialised by an enclosing `for` (`for (i = 0; ...)` reusing a name):
    /// inside that loop their thread identity is the initializer's, not the function-wide one.
    loop_scopes: Vec<(String, Deps)>,
    /// The conditions in force where each definition (by its value's node id) was made: a value
    /// computed under `if (s < len)` stays bounded after the branch.
    definition_guards: HashMap<usize, Vec<Condition<'t>>>,
    comparison_cache: std::cell::RefCell<Option<CachedSplit<'t>>>,
    /// The exits each statement carries out of it (`bare_block_exit_facts`), by node id: the walk
    /// asks of every statement, and a statement nested `d` deep is inside `d` that are asked.
    carried_exits: std::cell::RefCell<HashMap<usize, Vec<Fact<'t>>>>,
    /// Where the walk reads facts for now (the start of the access, barrier or statement being
    /// looked at): a flag's test still holds there when the locals it read only change later
    /// (`if (active) { r[i]; i += stride; }`). None outside the walk.
    position: std::cell::Cell<Option<usize>>,
    /// The start of every definition and step of a local, in order: the facts a flag gives at
    /// two positions are the same when no change lies between them.
    change_starts: std::cell::OnceCell<Vec<usize>>,
    /// Set when a flag's facts were cut at `position` while the facts in force were split.
    position_read: std::cell::Cell<bool>,
    /// Thread identity per expression node, valid while `loop_scopes` is unchanged; on only
    /// after the definitions have reached their fixpoint.
    deps_cache: std::cell::RefCell<HashMap<usize, Deps>>,
    cache_deps: bool,
    /// Thread identity per expression node while the definitions are propagated (`cache_deps`
    /// off), by node id and whether it was found while reading a sum's terms: valid until a
    /// local's identity changes, when it is cleared. Without it a long generated sum is read
    /// again at each of its levels.
    propagation_cache: std::cell::RefCell<HashMap<(usize, bool), Deps>>,
    /// Set while the thread-varying terms of a sum are read (`thread_terms`): the dependences
    /// found meanwhile cancel no terms of their own (no reading within a reading), and enter the
    /// cache as found, at worst less uniform than they could be.
    reading_thread_terms: std::cell::Cell<bool>,
    /// Per comparison side (by node id), the normalized texts of the expressions a bound on it
    /// bounds too (see `covers`): they follow thread identities, so they are kept and cleared
    /// with `deps_cache`.
    covered_cache: std::cell::RefCell<HashMap<usize, Vec<Cow<'a, str>>>>,
    /// The locals a straight-line helper call writes through a reference or pointer argument
    /// (`compute3DIndices(id, nx, ny, xid, yid, zid)`), with that call: found on first use.
    written_by_calls: std::cell::OnceCell<HashMap<String, Option<Node<'t>>>>,
    /// The terms of each sum `upper_bound_by_terms` reads, by node id (see `sum_terms`).
    sum_terms_cache: std::cell::RefCell<HashMap<usize, SumTerms<'a, 't>>>,
    /// `definition_guards` split into comparisons, by the value's node id (see
    /// `definition_comparisons`); the flags they read follow the loop scopes, so it is cleared
    /// with `deps_cache`.
    definition_comparisons_cache: std::cell::RefCell<HashMap<usize, std::rc::Rc<[Comparison<'t>]>>>,
    /// Whether a loop's body (by the body's node id for a `for`, the loop's for a `while`)
    /// moves a variable besides its step: read by every barrier in the loop.
    loop_writes_cache: std::cell::RefCell<HashMap<(usize, String), bool>>,
    /// The thread identity a local carries where a set of its definitions reaches (by the
    /// set's key, see `value_deps`): a chain of updates in place reads each earlier set once.
    reaching_deps_cache: std::cell::RefCell<HashMap<String, Deps>>,
    /// What the value ranges decide of a comparison (see `decided_by_ranges`), by its node id:
    /// an early exit's test is asked at every barrier and collective after it.
    decided_cache: std::cell::RefCell<HashMap<usize, Option<bool>>>,
    out: KernelFacts<'t>,
}

/// The operands of a sum, each with its normalized text (see `sum_terms`).
type SumTerms<'a, 't> = std::rc::Rc<[(Cow<'a, str>, Node<'t>)]>;

/// Comparisons that hold, and disjunctions of comparisons of which one holds.
type SplitFacts<'t> = (Vec<Comparison<'t>>, Vec<guards::Disjunction<'t>>);

/// The facts' identities (condition node, whether it holds) and their split.
/// The split of the facts in force, keyed by their conditions and by how many changes of locals
/// lie before the position the walk reads them at.
type CachedSplit<'t> = ((Vec<(usize, bool)>, usize), std::rc::Rc<SplitFacts<'t>>);

/// The count of changes in a cached split's key when no flag was read at a position.
const ANY_POSITION: usize = usize::MAX - 1;

pub fn analyze<'t>(model: &Model<'t>, function: &Function<'t>) -> KernelFacts<'t> {
    let mut facts = analyze_instantiation(model, function, None);
    bound_by_each_instantiation(model, function, &mut facts);
    facts
}

/// The most instantiations a kernel is read again for.
const MAX_INSTANTIATIONS_READ: usize = 4;

/// One instantiation of a template kernel: its template parameters' values, and the launches
/// that give them.
type Instantiation = (Vec<(String, i64)>, Vec<LaunchSite>);

/// An instantiation with the positions of its launches among the kernel's.
type Grouped = (Vec<(String, i64)>, Vec<LaunchSite>, Vec<usize>);

/// `if constexpr (!kFull) { if (row >= rows) return; }` guards only the instantiations whose
/// arguments take the test, and a `Full` launch may be exact where a `Predicated` one is not:
/// an access unguarded when the kernel is read once for every launch is bounded when each
/// instantiation its launches make, read with its own arguments and launches, bounds it.
fn bound_by_each_instantiation<'t>(
    model: &Model<'t>,
    function: &Function<'t>,
    facts: &mut KernelFacts<'t>,
) {
    let parameters = &function.template_parameters;
    let unguarded = |status: &IndexStatus| matches!(status, IndexStatus::Unguarded { .. });
    if parameters.is_empty()
        || facts.launches.is_empty()
        || !facts.accesses.iter().any(|a| unguarded(&a.status))
    {
        return;
    }
    let mut instantiations: Vec<Grouped> = Vec::new();
    for (at, launch) in facts.launches.iter().enumerate() {
        // a parameter whose argument is not known (a type, a value out of sight) stays unbound:
        // a test that reads it decides nothing in that instantiation
        let values = launch.template_bindings(function);
        match instantiations
            .iter_mut()
            .find(|(known, _, _)| *known == values)
        {
            Some((_, launches, positions)) => {
                launches.push(launch.clone());
                positions.push(at);
            }
            None => instantiations.push((values, vec![launch.clone()], vec![at])),
        }
        if instantiations.len() > MAX_INSTANTIATIONS_READ {
            return;
        }
    }
    let bound: Vec<&str> = instantiations
        .iter()
        .flat_map(|(values, _, _)| values.iter().map(|(name, _)| name.as_str()))
        .collect();
    if !tests_read_any(function, model.source, &bound) {
        return;
    }
    let readings: Vec<(KernelFacts<'t>, Vec<usize>)> = instantiations
        .into_iter()
        .map(|(values, launches, positions)| {
            let reading = analyze_instantiation(model, function, Some((values, launches)));
            (reading, positions)
        })
        .collect();
    for access in facts.accesses.iter_mut().filter(|a| unguarded(&a.status)) {
        let bounded_in = |reading: &KernelFacts<'t>| {
            reading
                .accesses
                .iter()
                .filter(|other| other.node.id() == access.node.id())
                .all(|other| !unguarded(&other.status))
        };
        if readings.iter().all(|(reading, _)| bounded_in(reading)) {
            access.status = IndexStatus::Bounded { bound: None };
            access.launches_holding_it.clear();
            continue;
        }
        // the launches of an instantiation that bounds it are none to name
        for (_, positions) in readings.iter().filter(|(reading, _)| bounded_in(reading)) {
            for at in positions {
                if !access.launches_holding_it.contains(at) {
                    access.launches_holding_it.push(*at);
                }
            }
        }
    }
}

/// Whether a test of the kernel (an `if`, a loop's condition, a `?:`) reads one of `names`, or
/// a local initialised from one (`constexpr bool kFull = V == Variant::Full;`): only then can an
/// instantiation's arguments change what guards an access.
fn tests_read_any(function: &Function, source: &str, names: &[&str]) -> bool {
    if names.is_empty() {
        return false;
    }
    let mut read: Vec<&str> = names.to_vec();
    let mentions = |node: Node, read: &[&str]| {
        let mut found = false;
        syntax::walk_iterative(node, |n| {
            found |= n.node_kind() == "identifier" && read.contains(&syntax::text(n, source));
            !found
        });
        found
    };
    // locals initialised from a bound name, one level deep, in the order they are written
    syntax::walk_iterative(function.body, |n| {
        if n.node_kind() == "init_declarator" {
            if let (Some(name), Some(value)) = (
                n.field("declarator").and_then(syntax::declarator_name),
                n.field("value"),
            ) {
                if mentions(value, &read) {
                    read.push(syntax::text(name, source));
                }
            }
        }
        true
    });
    let mut found = false;
    syntax::walk_iterative(function.body, |n| {
        let test = match n.node_kind() {
            "if_statement"
            | "while_statement"
            | "for_statement"
            | "do_statement"
            | "conditional_expression" => n.field("condition"),
            _ => None,
        };
        found |= test.is_some_and(|t| mentions(t, &read));
        !found
    });
    found
}

fn analyze_instantiation<'t>(
    model: &Model<'t>,
    function: &Function<'t>,
    instantiation: Option<Instantiation>,
) -> KernelFacts<'t> {
    let mut analyzer = Analyzer::new(model.source, function, &model.device_functions);
    analyzer.model = Some(model);
    if analyzer.launch_bound.is_none() {
        // `__launch_bounds__(kThreads)` with a constant of the file
        analyzer.launch_bound = ranges::declared_launch_bound_name(function, model.source)
            .and_then(|name| {
                model
                    .shared_scope()
                    .named_constant(name)
                    .map(i128::from)
                    // `constexpr size_t kThreads = kWarps * kWarpSize;`: an expression of others
                    .or_else(|| analyzer.file_constants(model)?.value(name, model))
            })
            .filter(|v| *v > 0);
    }
    match instantiation {
        Some((values, launches)) => {
            analyzer.out.launches = launches;
            *analyzer.template_values.borrow_mut() = Some(values);
        }
        None => analyzer.out.launches = model.launches_of(function),
    }
    if function.kind == super::FunctionKind::Kernel
        && !analyzer.out.launches.is_empty()
        && model.mentions_shared()
    {
        analyzer.extern_shared = dynamic_shared::extern_arrays(function, model.source);
    }
    analyzer.collect_definitions();
    analyzer.propagate_thread_deps();
    analyzer.cache_deps = true;
    analyzer.statement(function.body, 0);
    analyzer.find_narrow_indices();
    analyzer.out.derived_pointers = analyzer.derived_pointers();
    analyzer.out
}

impl<'a, 't> Analyzer<'a, 't> {
    /// See `KernelFacts::derived_pointers`: every local pointer one of whose values is an
    /// address in a parameter's buffer (`out + a + b`, `&out[k]`, another such local plus an
    /// offset), whichever of several locals of its name it is.
    fn derived_pointers(&self) -> Vec<(String, usize)> {
        let parameters = &self.function.parameters;
        let mut derived: Vec<(String, usize)> = Vec::new();
        // a local set from another is found once that one is: a few rounds reach every chain
        for _ in 0..4 {
            let before = derived.len();
            for name in self.same_name_pointers.keys() {
                let Some(values) = self.definitions.get(name) else {
                    continue;
                };
                for value in values {
                    let mut bases = Vec::new();
                    address_bases(*value, self.source, &mut bases, 0);
                    let base = bases.iter().find_map(|base| {
                        let base = self.text(*base);
                        parameters
                            .iter()
                            .position(|p| p.is_pointer && p.name == base)
                            .or_else(|| {
                                derived
                                    .iter()
                                    .find(|(known, _)| known == base)
                                    .map(|(_, i)| *i)
                            })
                    });
                    if let Some(index) = base {
                        if !derived.contains(&(name.clone(), index)) {
                            derived.push((name.clone(), index));
                        }
                    }
                }
            }
            if derived.len() == before {
                break;
            }
        }
        derived.sort_unstable();
        derived.dedup();
        derived
    }

    /// An analyzer of `function` with its pointer parameters known; nothing collected yet.
    fn new(source: &'a str, function: &'a Function<'t>, helpers: &'a DeviceFunctions) -> Self {
        let mut analyzer = Analyzer {
            source,
            model: None,
            function,
            helpers,
            updated: Default::default(),
            steps: HashMap::default(),
            launch_bound: ranges::declared_launch_bound(function, source),
            reaching_cache: Default::default(),
            passed_cache: Default::default(),
            file_constants: Default::default(),
            returns: None,
            pointers: HashMap::default(),
            same_name_pointers: HashMap::default(),
            template_values: Default::default(),
            pointer_elements: HashMap::default(),
            extern_shared: HashMap::default(),
            definitions: HashMap::default(),
            declarations: HashMap::default(),
            all_declarations: HashMap::default(),
            deps: HashMap::default(),
            definition_deps: HashMap::default(),
            groups: HashMap::default(),
            stride_variables: Default::default(),
            facts: Vec::new(),
            loop_scopes: Vec::new(),
            definition_guards: HashMap::default(),
            comparison_cache: Default::default(),
            carried_exits: Default::default(),
            position: Default::default(),
            change_starts: Default::default(),
            position_read: Default::default(),
            deps_cache: Default::default(),
            propagation_cache: Default::default(),
            reaching_deps_cache: Default::default(),
            decided_cache: Default::default(),
            cache_deps: false,
            reading_thread_terms: Default::default(),
            covered_cache: Default::default(),
            written_by_calls: Default::default(),
            sum_terms_cache: Default::default(),
            definition_comparisons_cache: Default::default(),
            loop_writes_cache: Default::default(),
            out: KernelFacts::default(),
        };
        for (index, parameter) in function.parameters.iter().enumerate() {
            if parameter.is_pointer || parameter.is_tensor_accessor() {
                analyzer.pointers.insert(
                    parameter.name.clone(),
                    PointerOrigin {
                        parameter_index: index,
                        offset: None,
                    },
                );
            }
        }
        analyzer
    }

    fn text(&self, node: Node) -> &'a str {
        text(node, self.source)
    }

    /// Forgets what was derived from the thread identities in force (`deps_cache` and what is
    /// built on it), when they change.
    fn clear_deps_caches(&self) {
        self.deps_cache.borrow_mut().clear();
        self.propagation_cache.borrow_mut().clear();
        self.covered_cache.borrow_mut().clear();
        self.definition_comparisons_cache.borrow_mut().clear();
        self.reaching_deps_cache.borrow_mut().clear();
        self.decided_cache.borrow_mut().clear();
    }
}

/// `syntax::normalized` without allocating where the text holds no whitespace to remove.
fn normalized_text<'a>(node: Node, source: &'a str) -> Cow<'a, str> {
    let node = strip(node, source);
    let text = text(node, source);
    // ASCII whitespace as `char::is_whitespace` has it (with the vertical tab)
    let space = |b: &u8| matches!(b, b' ' | b'\t'..=b'\r');
    if !text.is_ascii() {
        if text.contains(char::is_whitespace) {
            return Cow::Owned(text.chars().filter(|c| !c.is_whitespace()).collect());
        }
        return Cow::Borrowed(text);
    }
    if !text.as_bytes().iter().any(space) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.bytes().filter(|b| !space(b)).map(char::from).collect())
}

/// `blockIdx.x * blockDim.x + threadIdx.x`: a per-block part combined with a per-thread part.
fn forms_global_index(left: Deps, right: Deps) -> bool {
    let per_block = |d: Deps| d.contains(Deps::BLOCK) && !d.contains(Deps::THREAD);
    let per_thread = |d: Deps| d.contains(Deps::THREAD) && !d.contains(Deps::BLOCK);
    (per_block(left) && per_thread(right)) || (per_thread(left) && per_block(right))
}

fn subscript_index(node: Node) -> Option<Node> {
    let indices = node.field("indices").or_else(|| node.field("index"))?;
    let index = if indices.node_kind() == "subscript_argument_list" {
        named_children(indices).find(|c| c.node_kind() != "comment")?
    } else {
        indices
    };
    // `len[g++]` reads `len` at `g` as it was before the step, and `a[--mid]` one below it:
    // no higher than `g` and `mid` were, which is what bounds an index from above
    let postfix = index.node_kind() == "update_expression"
        && index
            .child(0)
            .zip(index.field("argument"))
            .is_some_and(|(first, argument)| first.id() == argument.id());
    let decrement = index.node_kind() == "update_expression"
        && index.child(0).is_some_and(|first| first.kind() == "--");
    if postfix || decrement {
        return index.field("argument");
    }
    Some(index)
}

/// Calls whose result is plain arithmetic on their arguments (so it carries their thread identity).
fn is_arithmetic_call(name: &str) -> bool {
    let short = name.rsplit("::").next().unwrap_or(name);
    let short = short.split('<').next().unwrap_or(short);
    matches!(
        short,
        "min"
            | "max"
            | "abs"
            | "labs"
            | "llabs"
            | "fminf"
            | "fmaxf"
            | "fmin"
            | "fmax"
            | "umin"
            | "umax"
            | "imin"
            | "imax"
            | "llmin"
            | "llmax"
            | "ullmin"
            | "ullmax"
            | "__mul24"
            | "__umul24"
            | "__mul64hi"
            | "static_cast"
            | "reinterpret_cast"
            | "size_t"
            | "int"
            | "unsigned"
            | "long"
            | "int64_t"
            | "uint64_t"
            | "int32_t"
            | "uint32_t"
            | "ptrdiff_t"
            | "MIN"
            | "MAX"
    )
}

fn exit_kind(node: Node) -> Option<Exit> {
    match node.node_kind() {
        "return_statement" | "throw_statement" => Some(Exit::Return),
        "break_statement" | "continue_statement" | "goto_statement" => Some(Exit::Skip),
        "compound_statement" => named_children(node)
            .filter(|c| c.node_kind() != "comment")
            .last()
            .and_then(exit_kind),
        _ => None,
    }
}

pub(crate) fn access_kind(node: Node, source: &str) -> AccessKind {
    let mut current = node;
    for _ in 0..8 {
        let Some(parent) = current.up() else {
            break;
        };
        match parent.node_kind() {
            "parenthesized_expression" => current = parent,
            "field_expression" if parent.field("argument") == Some(current) => current = parent,
            "subscript_expression" if parent.field("argument") == Some(current) => current = parent,
            // a call assigned to is an lvalue of its argument: a vector store macro
            // (`LDST32BITS(c[i]) = v`, `reinterpret_cast<half2*>(&(c[i]))[0] = v` expanded)
            "argument_list"
                if parent
                    .up()
                    .and_then(|call| call.up())
                    .is_some_and(|above| above.node_kind() == "assignment_expression") =>
            {
                let Some(call) = parent.up() else { break };
                current = call;
            }
            "assignment_expression" if parent.field("left") == Some(current) => {
                return if operator(parent, source) == "=" {
                    AccessKind::Write
                } else {
                    AccessKind::ReadWrite
                };
            }
            "update_expression" => return AccessKind::ReadWrite,
            "pointer_expression" if operator(parent, source) == "&" => {
                return AccessKind::ReadWrite
            }
            _ => break,
        }
    }
    AccessKind::Read
}

/// The branch or loop whose condition `condition` is (or is part of).
fn statement_of_condition(condition: Node) -> Option<Node> {
    let mut current = condition;
    for _ in 0..8 {
        current = current.up()?;
        if matches!(
            current.node_kind(),
            "if_statement"
                | "for_statement"
                | "while_statement"
                | "do_statement"
                | "switch_statement"
        ) {
            return Some(current);
        }
    }
    None
}

fn enclosing_statement(node: Node) -> Option<Node> {
    let mut current = node;
    for _ in 0..MAX_DEPTH {
        let parent = current.up()?;
        if matches!(parent.node_kind(), "compound_statement") {
            return current
                .node_kind()
                .ends_with("statement")
                .then_some(current)
                .or(Some(current));
        }
        if matches!(
            parent.node_kind(),
            "if_statement" | "for_statement" | "while_statement" | "else_clause"
        ) && current.node_kind().ends_with("statement")
        {
            return Some(current);
        }
        current = parent;
    }
    None
}

/// The names an address may be computed from: `p` of `p`, `p + a + b`, `a + p`, `p - k`,
/// `&p[k]`, `(T*)p`; the sides of a sum are all candidates (which is the pointer, the caller
/// knows).
fn address_bases<'t>(value: Node<'t>, source: &str, bases: &mut Vec<Node<'t>>, depth: usize) {
    let value = strip(value, source);
    if depth > 16 {
        return;
    }
    match value.node_kind() {
        "identifier" => bases.push(value),
        "binary_expression" if operator(value, source) == "+" => {
            for side in [value.field("left"), value.field("right")]
                .into_iter()
                .flatten()
            {
                address_bases(side, source, bases, depth + 1);
            }
        }
        "binary_expression" if operator(value, source) == "-" => {
            if let Some(left) = value.field("left") {
                address_bases(left, source, bases, depth + 1);
            }
        }
        "pointer_expression" if operator(value, source) == "&" => {
            let target = value.field("argument").map(|t| strip(t, source));
            if let Some(base) = target
                .filter(|t| t.node_kind() == "subscript_expression")
                .and_then(|t| t.field("argument"))
            {
                address_bases(base, source, bases, depth + 1);
            }
        }
        _ => {}
    }
}
