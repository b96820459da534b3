//! Shared-memory conflicts between the threads of one block, found by running the kernel body for
//! every thread of a block with concrete thread coordinates.
//!
//! The threads run together: each statement and expression is read once for all the threads that
//! reach it, with one value per thread (or one for all, while they agree), and threads that take
//! different branches run them one after the other. A block-wide barrier moves a thread to the
//! next barrier interval (epoch); every `__shared__` access it certainly makes is logged with its
//! epoch, the bytes it touches and whether it writes. Two accesses of one epoch by different
//! threads that touch a common byte, one of them writing and neither atomic, conflict. What the
//! run cannot know (a value read from memory, a parameter that is not an integer, a call whose
//! body is not visible) is unknown: an access at an unknown place is not logged, a branch on an
//! unknown condition makes what it assigns unknown, and a thread whose barriers or exits hang on
//! one stops there. So every logged access happens in a real execution with these coordinates,
//! and every conflict found is a witness, not a guess.
//!
//! The block shape is a visible launch's, else a small one (two warps or more) that keeps every
//! shared access inside its array: a kernel written for one block size is not run with another
//! that its arrays cannot hold. The facts are computed only when a rule asks for them
//! (`KernelFacts::shared`), and only for kernels that can reach shared memory.

mod intervals;
mod lanes;

use super::kernel::AccessKind;
use super::{Function, KernelFacts, Model};
use crate::syntax::{named_children, operator, text, walk_iterative, NodeExt};
use lanes::{coordinates, Lane, Lanes, Linear, Mask, MAX_LANES};
use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;
use std::rc::Rc;
use tree_sitter::Node;

/// A pair of shared-memory accesses by two threads of a block in one barrier interval.
#[derive(Debug, Clone)]
pub struct Conflict<'t> {
    pub array: String,
    /// The element both touch, as written in C (`tile[0][1]`).
    pub element: String,
    /// The access reported: the later one in the source, or the write of the next iteration.
    pub first: SharedAccess<'t>,
    pub second: SharedAccess<'t>,
    /// Both threads are lanes of one warp.
    pub same_warp: bool,
    /// The accesses are separated by a barrier in the source, so they meet across a loop's back
    /// edge: the next iteration's access runs before the other threads leave this one.
    pub across_iterations: bool,
    /// The barrier that opens the interval (None: kernel entry) and the one that closes it
    /// (None: kernel exit).
    pub opened_by: Option<Node<'t>>,
    pub closed_by: Option<Node<'t>>,
    /// The block shape of the run that found it.
    pub block: [i64; 3],
}

#[derive(Debug, Clone, Copy)]
pub struct SharedAccess<'t> {
    pub node: Node<'t>,
    pub kind: AccessKind,
    pub thread: [i64; 3],
}

#[derive(Debug, Default)]
pub struct SharedFacts<'t> {
    pub conflicts: Vec<Conflict<'t>>,
}

/// Steps one block run may take: a statement or expression read for the threads that reach it
/// is a step, and one more per warp's worth of them.
const STEP_BUDGET: u64 = 150_000;
/// Steps all the block shapes tried for one kernel may take together.
const KERNEL_BUDGET: u64 = 250_000;
/// Steps all the kernels of one file may take together: a file of thousands of kernels that
/// use shared memory runs the first ones, and the others conclude nothing.
const FILE_BUDGET: u64 = 2_000_000;
/// What preparing one kernel for runs costs in steps, before any run: a few for every
/// kilobyte of its body (reading its declarations and indices walks all of it).
fn preparation_cost(function: &Function) -> u64 {
    let bytes = function
        .body
        .end_byte()
        .saturating_sub(function.body.start_byte());
    64 + (bytes / 256) as u64
}
/// Iterations of one loop a thread runs before it stops there (a loop with barriers that only
/// some of the running threads are in).
const MAX_ITERATIONS: u32 = 96;
/// Iterations of a loop with no barrier in it that a thread runs before it takes the rest as
/// unknown (what the loop assigns) and goes on after the loop: the pairs a loop makes show in
/// its first iterations.
const FOLLOWED_ITERATIONS: u32 = 8;
/// Iterations of a loop with barriers, that every running thread is in, followed before the
/// rest is taken as unknown and as barriers (so nothing before it pairs with anything after).
const FOLLOWED_SYNCHRONISED_ITERATIONS: u32 = 4;
/// What an integer kernel parameter is taken to hold: large enough that a bounds guard or a
/// trip count is not what hides a conflict, and spreads an index it scales past any small array.
const PARAMETER_VALUE: i64 = 256;
const MAX_NESTING: usize = 200;
/// Calls a run follows one inside another (`Block::followed`).
const MAX_CALLS: usize = 4;

/// The conflicts of one kernel. Run only when a rule asks (through `KernelFacts::shared`), and
/// only for a kernel that can touch shared memory.
pub fn analyze<'t>(
    model: &Model<'t>,
    function: &Function<'t>,
    facts: &KernelFacts<'t>,
) -> SharedFacts<'t> {
    let out = SharedFacts::default();
    // what `reaches_shared` answers for a file that declares nothing `__shared__`, without the
    // file-wide scope (built on the first kernel, so on every edit of an editor's kernel)
    if !model.mentions_shared() {
        return out;
    }
    let scope = model.shared_scope();
    if !scope.reaches_shared(function) {
        return out;
    }
    // the file's budget pays for the preparation, then lends the kernel its share
    let file_left = scope.left.get();
    let preparation = preparation_cost(function);
    if file_left <= preparation {
        scope.left.set(0);
        return out;
    }
    let mut left = KERNEL_BUDGET.min(file_left - preparation);
    let lent = left;
    let Some(program) = Program::new(scope, function) else {
        scope.left.set(file_left - preparation);
        return out;
    };
    let out = analyze_shapes(&program, model, function, facts, out, &mut left);
    scope.left.set(file_left - preparation - (lent - left));
    out
}

fn analyze_shapes<'t>(
    program: &Program<'_, 't>,
    model: &Model<'t>,
    function: &Function<'t>,
    facts: &KernelFacts<'t>,
    mut out: SharedFacts<'t>,
    left: &mut u64,
) -> SharedFacts<'t> {
    let (launched, shapes) = candidate_blocks(program, model.source, function, facts);
    if launched {
        // every launch's shape free of pairs by the intervals alone: no run can make one
        if intervals::no_pair_possible(program, &shapes) {
            return out;
        }
        // real launches: the first whose shape fits the kernel
        for block in shapes {
            if let Run::Valid(conflicts) = program.run(block, left) {
                out.conflicts = conflicts;
                break;
            }
        }
        return out;
    }
    // no launch says the shape: a pair is reported only when every shape of two warps or more
    // that fits the kernel makes it (so a pair that needs rows the real launch may not have, or a
    // block wider than the kernel was written for, is not); one warp is the last resort
    //
    // the shapes tried are the same in HIP, whose warps hold 64 lanes: the width of the warp
    // decides which pairs share one, not which blocks a kernel may be launched with
    let lanes = |block: &[i64; 3]| block[0] * block[1] * block[2];
    let probe = probe_shape(&shapes);
    let mut probed = None;
    if let Some(block) = probe {
        // the probe's run shown free of pairs without being made
        if intervals::no_pair_possible(program, &[block]) {
            return out;
        }
        match program.run(block, left) {
            Run::Valid(conflicts) if conflicts.is_empty() => return out,
            run => probed = Some((block, run)),
        }
    }
    let mut runs: Vec<Vec<Conflict<'t>>> = Vec::new();
    for block in shapes {
        let one_warp = lanes(&block) <= 32;
        if one_warp && !runs.is_empty() {
            break;
        }
        let run = match probed.take() {
            Some((probe, run)) if probe == block => run,
            other => {
                probed = other;
                program.run(block, left)
            }
        };
        if let Run::Valid(conflicts) = run {
            // the pairs kept are the first run's that every other run makes too
            let nothing = conflicts.is_empty();
            runs.push(conflicts);
            if nothing {
                break;
            }
        }
    }
    let mut runs = runs.into_iter();
    let Some(first) = runs.next() else {
        return out;
    };
    let others: Vec<Vec<Conflict<'t>>> = runs.collect();
    let pair = |c: &Conflict| {
        let (a, b) = (c.first.node.id(), c.second.node.id());
        (a.min(b), a.max(b))
    };
    out.conflicts = first
        .into_iter()
        .filter(|c| {
            others
                .iter()
                .all(|run| run.iter().any(|o| pair(o) == pair(c)))
        })
        .collect();
    out
}

/// Of the shapes tried when no launch is in sight, the one that runs first: since a pair needs
/// every shape, the one of fewest threads (two warps or more), and when it makes no pair (most
/// kernels) the larger ones, each a few times its cost, need not run at all.
fn probe_shape(shapes: &[[i64; 3]]) -> Option<[i64; 3]> {
    let lanes = |block: &[i64; 3]| block[0] * block[1] * block[2];
    shapes
        .iter()
        .filter(|block| lanes(block) > 32)
        .min_by_key(|block| lanes(block))
        .copied()
}

/// The block shapes to try, in order: each distinct constant block of the visible launches, or
/// small default shapes for the axes the kernel uses.
fn candidate_blocks<'t>(
    program: &Program<'_, 't>,
    source: &'t str,
    function: &Function<'t>,
    facts: &KernelFacts,
) -> (bool, Vec<[i64; 3]>) {
    let mut launched: Vec<[i64; 3]> = Vec::new();
    let mut all_constant = !facts.launches.is_empty();
    for launch in &facts.launches {
        let dims = launch.block.map(|d| d.and_then(|v| i64::try_from(v).ok()));
        match dims {
            [Some(x), Some(y), Some(z)] if x > 0 && y > 0 && z > 0 && x * y * z <= 1024 => {
                if !launched.contains(&[x, y, z]) {
                    launched.push([x, y, z]);
                }
            }
            _ => all_constant = false,
        }
    }
    if all_constant {
        launched.truncate(3);
        return (true, launched);
    }
    let indexed = shared_index_axes(program, source, function);
    let body = text(function.body, source);
    let uses = |axis: char| body.contains(&format!("threadIdx.{axis}"));
    let shapes: Vec<[i64; 3]> = if uses('z') {
        vec![[8, 8, 4], [16, 4, 2], [128, 1, 1], [4, 4, 2]]
    } else if uses('y') {
        vec![[16, 16, 1], [8, 8, 1], [128, 1, 1], [8, 4, 1]]
    } else {
        vec![[128, 1, 1], [64, 1, 1], [32, 1, 1]]
    };
    // an axis no shared index follows: threads apart only along it would touch the same
    // elements, so the kernel is written for one thread along it (`dim3 block(1, 4)`)
    let mut shapes: Vec<[i64; 3]> = shapes
        .into_iter()
        .map(|mut shape| {
            let extent: i64 = shape.iter().product();
            for (axis, size) in shape.iter_mut().enumerate() {
                if !indexed[axis] && indexed.iter().any(|a| *a) {
                    *size = 1;
                }
            }
            // keep two warps or more where the axes left allow
            let left: i64 = shape.iter().product();
            if left < extent {
                if let Some(axis) = (0..3).find(|a| indexed[*a]) {
                    shape[axis] = (shape[axis] * extent / left.max(1)).min(1024);
                }
            }
            shape
        })
        .collect();
    shapes.dedup();
    (false, shapes)
}

/// Which thread axes the shared-memory indices follow, by the text of the kernel: `threadIdx.y`
/// in a subscript of a shared array (or of a pointer into one), directly or through locals
/// computed from it. A thread rank or lane id counts as every axis. The parts of nodes it reads
/// are the program's (`Program::part`), which the runs read again.
fn shared_index_axes<'s>(
    program: &Program<'_, 's>,
    source: &'s str,
    function: &Function<'s>,
) -> [bool; 3] {
    let mut definitions: Vec<(&str, &str)> = Vec::new();
    let mut shared: Vec<&str> = Vec::new();
    let mut subscripts: Vec<(&str, &str)> = Vec::new();
    walk_iterative(function.body, |node| {
        match node.node_kind() {
            "init_declarator" => {
                if let (Some(name), Some(value)) = (
                    program
                        .part(node, Part::Declarator)
                        .and_then(crate::syntax::declarator_name),
                    program.part(node, Part::Value),
                ) {
                    definitions.push((text(name, source), text(value, source)));
                }
            }
            "assignment_expression" => {
                if let (Some(left), Some(right)) = (
                    program.part(node, Part::Left),
                    program.part(node, Part::Right),
                ) {
                    if left.node_kind() == "identifier" {
                        definitions.push((text(left, source), text(right, source)));
                    }
                }
            }
            "declaration" if is_shared(node, source) => {
                if let Some(name) = named_children(node).find_map(crate::syntax::declarator_name) {
                    shared.push(text(name, source));
                }
            }
            "subscript_expression" => {
                if let (Some(base), Some(index)) = (
                    program.part(node, Part::Argument),
                    program.part(node, Part::Index),
                ) {
                    subscripts.push((text(base, source), text(index, source)));
                }
            }
            "lambda_expression" => return false,
            _ => {}
        }
        true
    });
    let words = |t: &'s str| -> Vec<&'s str> {
        t.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .collect()
    };
    // each definition's words, and whether it reads a thread rank or lane id, once
    let read: Vec<(&str, Vec<&str>, bool)> = definitions
        .iter()
        .map(|(name, value)| {
            let rank = value.contains("thread_rank")
                || value.contains("laneid")
                || value.contains("lane_id");
            (*name, words(value), rank)
        })
        .collect();
    // locals that follow each axis, and pointers into shared memory
    let mut follows: [Vec<&str>; 3] = Default::default();
    let mut pointers: Vec<&str> = shared.clone();
    for _ in 0..6 {
        // a pass that adds nothing leaves the next one the same lists: none adds anything more
        let mut added = false;
        for (name, value_words, rank) in &read {
            for (axis, field) in ["threadIdx.x", "threadIdx.y", "threadIdx.z"]
                .iter()
                .enumerate()
            {
                if !follows[axis].contains(name)
                    && (*rank
                        || value_words
                            .iter()
                            .any(|w| w == field || follows[axis].contains(w)))
                {
                    follows[axis].push(name);
                    added = true;
                }
            }
            if !pointers.contains(name) && value_words.iter().any(|w| pointers.contains(w)) {
                pointers.push(name);
                added = true;
            }
        }
        if !added {
            break;
        }
    }
    let mut axes = [false; 3];
    for (base, index) in &subscripts {
        let base_word = base.split('[').next().unwrap_or(base).trim();
        if !pointers.contains(&base_word) {
            continue;
        }
        let index_words = words(index);
        for (axis, field) in ["threadIdx.x", "threadIdx.y", "threadIdx.z"]
            .iter()
            .enumerate()
        {
            if index.contains("thread_rank")
                || index_words
                    .iter()
                    .any(|w| w == field || follows[axis].contains(w))
            {
                axes[axis] = true;
            }
        }
    }
    // a pointer offset by the thread (`float* row = s + ty * 17`) follows the thread too
    for (name, value_words, _) in &read {
        if pointers.contains(name) && !shared.contains(name) {
            for (axis, field) in ["threadIdx.x", "threadIdx.y", "threadIdx.z"]
                .iter()
                .enumerate()
            {
                if value_words
                    .iter()
                    .any(|w| w == field || follows[axis].contains(w))
                {
                    axes[axis] = true;
                }
            }
        }
    }
    axes
}

enum Run<'t> {
    /// Every thread ran without leaving its arrays, with aligned barriers, within the budget.
    Valid(Vec<Conflict<'t>>),
    /// The shape does not fit the kernel (an access outside its array, barriers that do not line
    /// up, too long to run): nothing is concluded from it.
    Invalid,
}

#[derive(Debug, Clone)]
struct Array {
    name: String,
    /// Element size in bytes; 1 when the type's size is not known (then only pointers of the
    /// same type index it).
    element: i64,
    element_type: String,
    /// Extents, outermost first; None where not a known constant.
    dims: Vec<Option<i64>>,
    /// A scalar `__shared__` variable rather than an array.
    scalar: bool,
}

impl Array {
    fn bytes(&self) -> Option<i64> {
        let mut total = self.element;
        for d in &self.dims {
            total = total.checked_mul((*d)?)?;
        }
        Some(total)
    }
}

/// The inner extents of a pointer into a multi-dimensional array (`tile[ty]` has `[17]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Shape {
    dims: [i64; 4],
    len: u8,
}

impl Shape {
    const FLAT: Shape = Shape {
        dims: [0; 4],
        len: 0,
    };
    fn row_bytes(&self, element: i64) -> Option<i64> {
        self.dims[..self.len as usize]
            .iter()
            .try_fold(element, |acc, d| acc.checked_mul(*d))
    }
    fn inner(&self) -> Shape {
        let mut dims = [0; 4];
        let len = self.len.saturating_sub(1);
        let len_usize = len as usize;
        dims[..len_usize].copy_from_slice(&self.dims[1..len_usize + 1]);
        Shape { dims, len }
    }
}

/// What a pointer into shared memory points at, apart from the byte: the array, the size of an
/// element, the inner extents and the first subscript's extent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct PtrKind {
    array: u32,
    /// Size of what it points at.
    element: i64,
    shape: Shape,
    /// The first subscript's extent, when known: `tile[ty]` must stay below it.
    extent: Option<i64>,
}

/// A pointer into shared memory: its kind, kept once per kernel (`Kinds`), and the byte it
/// points at. A run holds a value per thread for every expression it reads, so values are kept
/// small (16 bytes; packed, so that `Val` needs no more).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C, packed(4))]
struct Ptr {
    kind: u32,
    byte: i64,
}

/// The pointer kinds of one kernel's runs, each kept once and named by its position.
#[derive(Default)]
struct Kinds {
    all: RefCell<Vec<PtrKind>>,
    ids: RefCell<HashMap<PtrKind, u32>>,
    /// Per kind, once asked: the kind of one of its rows (`tile[ty]` of `tile`), and the same
    /// kind with no first extent (`tile + 1`).
    derived: RefCell<Vec<[Option<u32>; 2]>>,
    /// Per kind, once asked: what a subscript of it reads.
    steps: RefCell<Vec<Option<Step>>>,
}

/// What a subscript of a pointer reads (`Kinds::step`).
#[derive(Debug, Clone, Copy)]
struct Step {
    /// The bytes one index moves; None on overflow.
    bytes: Option<i64>,
    extent: Option<i64>,
    /// The kind of what it lands on.
    lands: u32,
    /// It lands on a row of a multi-dimensional array.
    row: bool,
}

impl Kinds {
    fn id(&self, kind: PtrKind) -> u32 {
        if let Some(id) = self.ids.borrow().get(&kind) {
            return *id;
        }
        let mut all = self.all.borrow_mut();
        let id = u32::try_from(all.len()).unwrap_or(u32::MAX);
        all.push(kind);
        self.derived.borrow_mut().push([None, None]);
        self.ids.borrow_mut().insert(kind, id);
        id
    }

    fn get(&self, id: u32) -> Option<PtrKind> {
        self.all.borrow().get(id as usize).copied()
    }

    fn derive(&self, id: u32, which: usize, make: impl Fn(PtrKind) -> PtrKind) -> u32 {
        if let Some(Some(known)) = self.derived.borrow().get(id as usize).map(|d| d[which]) {
            return known;
        }
        let Some(kind) = self.get(id) else {
            return id;
        };
        let derived = self.id(make(kind));
        if let Some(slot) = self.derived.borrow_mut().get_mut(id as usize) {
            slot[which] = Some(derived);
        }
        derived
    }

    /// The kind of a row of kind `id`: its inner extents, the first of them its extent.
    fn row(&self, id: u32) -> u32 {
        self.derive(id, 0, |kind| PtrKind {
            shape: kind.shape.inner(),
            extent: (kind.shape.len > 0).then(|| kind.shape.dims[0]),
            ..kind
        })
    }

    /// What subscripting a pointer of kind `id` reads: the bytes of one step, the first
    /// extent, and the kind of what it lands on (a row, or an element).
    fn step(&self, id: u32) -> Option<Step> {
        if let Some(Some(known)) = self.steps.borrow().get(id as usize) {
            return Some(*known);
        }
        let kind = self.get(id)?;
        let step = Step {
            bytes: kind.shape.row_bytes(kind.element),
            extent: kind.extent,
            lands: self.row(id),
            row: kind.shape.len > 0,
        };
        let mut steps = self.steps.borrow_mut();
        if steps.len() <= id as usize {
            steps.resize(id as usize + 1, None);
        }
        if let Some(slot) = steps.get_mut(id as usize) {
            *slot = Some(step);
        }
        Some(step)
    }

    /// Kind `id` with no first extent: a pointer moved off the start of its row.
    fn unbounded(&self, id: u32) -> u32 {
        self.derive(id, 1, |kind| PtrKind {
            extent: None,
            ..kind
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Val {
    /// A known integer, and whether it may differ between the threads of the block.
    Int(i64, bool),
    Ptr(Ptr),
    /// Not known; whether it may differ between threads.
    Unknown(bool),
    /// An integer that follows from the value taken for a kernel parameter: good for sizes and
    /// trip counts (`i < n`), not for choosing a path (`mode == 3`) or an element (`s[n]`), where
    /// the launch's real value decides.
    Chosen(i64),
    /// What the read at a site (`bias[c]`, memory the run does not follow, through a pointer
    /// every thread holds alike) returned at an index: not known, but the same for every thread
    /// that read that element there.
    Load(u32, i64),
    /// What a read of a shared element returned, by the element's byte: `Block::held` names the
    /// pointer kind it was read through and how many writes the run had made then. Stored back
    /// through the same kind at the same byte with no write since, it changes nothing.
    Held(u32, i64),
}

impl Lane for Val {
    fn numbered(self, number: i64) -> Self {
        match self {
            Val::Int(_, varies) => Val::Int(number, varies),
            Val::Ptr(ptr) => Val::Ptr(Ptr {
                kind: ptr.kind,
                byte: number,
            }),
            Val::Load(site, _) => Val::Load(site, number),
            Val::Held(token, _) => Val::Held(token, number),
            other => other,
        }
    }
}

impl Lanes<Val> {
    /// Every thread's value through `f`, which keeps a value's number or ignores it, choosing
    /// which by everything but the number (its variant, its kind, whether it varies): a linear
    /// form is converted once.
    fn convert(&self, f: impl Fn(Val) -> Val) -> Vals {
        if let Lanes::Linear(linear) = self {
            let (zero, one) = (f(linear.shape.numbered(0)), f(linear.shape.numbered(1)));
            if zero == one {
                return Lanes::Uni(zero);
            }
            if one == zero.numbered(1) {
                return Lanes::Linear(Linear {
                    shape: zero,
                    ..*linear
                });
            }
        }
        self.map(f)
    }
}

impl Lane for Loc {
    fn numbered(self, number: i64) -> Self {
        match self {
            Loc::Shared { ptr, row } => Loc::Shared {
                ptr: Ptr {
                    kind: ptr.kind,
                    byte: number,
                },
                row,
            },
            Loc::Indexed(_) => Loc::Indexed(number),
            other => other,
        }
    }
}

impl Lane for Stored {
    fn numbered(self, _: i64) -> Self {
        self
    }
}

impl Lane for Option<i64> {
    fn numbered(self, _: i64) -> Self {
        self
    }
}

impl Val {
    fn varies(self) -> bool {
        match self {
            Val::Int(_, v) | Val::Unknown(v) => v,
            Val::Ptr(_) | Val::Load(..) | Val::Held(..) => true,
            Val::Chosen(_) => false,
        }
    }
    fn truth(self) -> Option<bool> {
        match self {
            Val::Int(v, _) => Some(v != 0),
            Val::Ptr(_) => Some(true),
            Val::Unknown(_) | Val::Chosen(_) | Val::Load(..) | Val::Held(..) => None,
        }
    }
}

/// What every kernel of a file reads the same way: its file-scope shared arrays and integer
/// constants, and which device functions may reach a barrier. Built once per file, on the first
/// kernel that declares or reaches shared memory.
pub struct FileScope<'t> {
    source: &'t str,
    view: &'t crate::source::PreprocessedView,
    /// File-scope shared arrays, visible from the start of every kernel.
    globals: Vec<(&'t str, Array)>,
    /// File-scope integer constants.
    constants: HashMap<&'t str, i64>,
    /// Device functions of the file that reach a barrier (or a call that may hide one).
    may_sync: HashMap<String, bool>,
    /// Functions of the file a kernel may call, by name (None: several share it).
    helpers: HashMap<&'t str, Option<Rc<Helper<'t>>>>,
    /// Steps left to the runs of the file's kernels (`FILE_BUDGET`).
    left: std::cell::Cell<u64>,
    /// The lanes of a warp: 32 in CUDA, a wavefront of 64 in HIP (AMD's data-centre GPUs).
    warp: i64,
}

impl<'t> FileScope<'t> {
    pub fn new(model: &Model<'t>) -> FileScope<'t> {
        let mut scope = FileScope {
            source: model.source,
            view: model.view,
            globals: Vec::new(),
            constants: HashMap::default(),
            may_sync: HashMap::default(),
            helpers: HashMap::default(),
            left: std::cell::Cell::new(FILE_BUDGET),
            warp: model.runtime.warp_size(),
        };
        for node in named_children(model.tree.root_node()) {
            scope.file_scope(node, 0);
        }
        // each function walked once: whether it syncs itself, and the names it calls; then a
        // helper that calls one that syncs syncs too
        for f in &model.functions {
            if f.kind != super::FunctionKind::Kernel {
                scope.may_sync.insert(f.name.clone(), false);
                let name = text(f.name_node, model.source);
                let name = name.rsplit("::").next().unwrap_or(name);
                scope
                    .helpers
                    .entry(name)
                    .and_modify(|seen| *seen = None)
                    .or_insert_with(|| Some(Rc::new(Helper::new(f, model.source))));
            }
        }
        let mut calls: Vec<(&str, Vec<&'t str>)> = Vec::new();
        for f in &model.functions {
            if f.kind == super::FunctionKind::Kernel {
                continue;
            }
            let mut syncs = false;
            let mut called: Vec<&'t str> = Vec::new();
            walk_iterative(f.body, |node| {
                match node.node_kind() {
                    "call_expression" => match scope.callee(node) {
                        Callee::Named(name) => called.push(name),
                        Callee::MaySync => syncs = true,
                        Callee::Free => {}
                    },
                    "gnu_asm_expression" => syncs = true,
                    _ => {}
                }
                !syncs
            });
            if syncs {
                scope.may_sync.insert(f.name.clone(), true);
            } else {
                calls.push((f.name.as_str(), called));
            }
        }
        // from each helper known to sync, up through its callers: each call edge looked at once
        let mut callers: HashMap<&'t str, Vec<usize>> = HashMap::default();
        for (index, (_, called)) in calls.iter().enumerate() {
            for callee in called {
                callers.entry(*callee).or_default().push(index);
            }
        }
        let mut pending: Vec<String> = scope
            .may_sync
            .iter()
            .filter(|(_, syncs)| **syncs)
            .map(|(name, _)| name.clone())
            .collect();
        while let Some(name) = pending.pop() {
            let Some(indices) = callers.get(name.as_str()) else {
                continue;
            };
            for index in indices {
                let Some((caller, _)) = calls.get(*index) else {
                    continue;
                };
                if let Some(syncs) = scope.may_sync.get_mut(*caller) {
                    if !*syncs {
                        *syncs = true;
                        pending.push(caller.to_string());
                    }
                }
            }
        }
        scope
    }

    /// Whether a kernel can touch shared memory: it declares some, or the file has some at its
    /// scope. A kernel that cannot is not run.
    pub fn reaches_shared(&self, function: &Function<'t>) -> bool {
        !self.globals.is_empty() || text(function.body, self.source).contains("__shared__")
    }

    fn file_scope(&mut self, node: Node<'t>, depth: usize) {
        if depth > 8 {
            return;
        }
        let source = self.source;
        match node.node_kind() {
            "declaration" if is_shared(node, source) => {
                for declarator in named_children(node) {
                    if let Some(name) = crate::syntax::declarator_name(declarator) {
                        if let Some(array) = self.array(node) {
                            self.globals.push((text(name, source), array));
                        }
                        break;
                    }
                }
            }
            "declaration" => {
                let type_text = text(node, source);
                if !(type_text.starts_with("const")
                    || type_text.starts_with("constexpr")
                    || type_text.starts_with("static const"))
                {
                    return;
                }
                for declarator in named_children(node) {
                    if declarator.node_kind() != "init_declarator" {
                        continue;
                    }
                    let (Some(name), Some(value)) =
                        (declarator.field("declarator"), declarator.field("value"))
                    else {
                        continue;
                    };
                    if name.node_kind() != "identifier" {
                        continue;
                    }
                    if let Some(v) = crate::model::size::parse_number(text(value, source))
                        .and_then(|v| i64::try_from(v).ok())
                    {
                        self.constants.insert(text(name, source), v);
                    }
                }
            }
            "namespace_definition"
            | "linkage_specification"
            | "declaration_list"
            | "preproc_ifdef"
            | "preproc_if"
            | "preproc_else" => {
                for child in named_children(node) {
                    self.file_scope(child, depth + 1);
                }
                if let Some(body) = node.field("body") {
                    for child in named_children(body) {
                        self.file_scope(child, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }

    /// The array a `__shared__` declaration makes (its first declarator).
    fn array(&self, declaration: Node<'t>) -> Option<Array> {
        let source = self.source;
        let element_type = declaration
            .field("type")
            .map(|t| text(t, source))
            .unwrap_or("")
            .to_string();
        let declarator = named_children(declaration).find(|c| {
            matches!(
                c.node_kind(),
                "identifier" | "array_declarator" | "init_declarator"
            )
        })?;
        let declarator = if declarator.node_kind() == "init_declarator" {
            declarator.field("declarator")?
        } else {
            declarator
        };
        let name = crate::syntax::declarator_name(declarator)?;
        let mut dims = Vec::new();
        let mut current = declarator;
        for _ in 0..8 {
            if current.node_kind() != "array_declarator" {
                break;
            }
            dims.push(current.field("size").and_then(|s| self.constant(s)));
            match current.field("declarator") {
                Some(inner) => current = inner,
                None => break,
            }
        }
        if current.node_kind() != "identifier" {
            return None; // a pointer or a function: not an array of shared memory
        }
        dims.reverse();
        let scalar = dims.is_empty();
        let element = crate::model::size::builtin_size(&element_type)
            .and_then(|v| i64::try_from(v).ok())
            .unwrap_or(1);
        Some(Array {
            name: text(name, source).to_string(),
            element,
            element_type,
            dims,
            scalar,
        })
    }

    /// A compile-time integer: a literal, a `#define`, a file constant, arithmetic of those.
    fn constant(&self, node: Node<'t>) -> Option<i64> {
        self.constant_at(node, 0)
    }

    fn constant_at(&self, node: Node<'t>, depth: usize) -> Option<i64> {
        if depth > 16 {
            return None;
        }
        let source = self.source;
        let node = crate::syntax::strip(node, source);
        match node.node_kind() {
            "number_literal" => crate::model::size::parse_number(text(node, source))
                .and_then(|v| i64::try_from(v).ok()),
            "identifier" => self.named_constant(text(node, source)),
            "binary_expression" => {
                let l = self.constant_at(node.field("left")?, depth + 1)?;
                let r = self.constant_at(node.field("right")?, depth + 1)?;
                arithmetic(operator(node, source), l, r)
            }
            _ => None,
        }
    }

    /// A `#define`'s body, when the file gives it only one.
    fn define(&self, name: &str) -> Option<&'t str> {
        if self.view.ambiguous_defines.contains(name) {
            return None;
        }
        self.view.define(name)
    }

    /// The value of a file-scope integer constant or a `#define` of known constants.
    pub fn named_constant(&self, name: &str) -> Option<i64> {
        if let Some(v) = self.constants.get(name) {
            return Some(*v);
        }
        let value = self.define(name)?;
        let trimmed = value
            .trim()
            .trim_start_matches('(')
            .trim_end_matches(')')
            .trim();
        if let Some(v) =
            crate::model::size::parse_number(trimmed).and_then(|v| i64::try_from(v).ok())
        {
            return Some(v);
        }
        // `#define B (T * 2)`: a product or sum of known constants
        let mut tokens = trimmed.split_whitespace().flat_map(|t| split_operators(t));
        let first = tokens.next()?;
        let mut total = self.token_value(first)?;
        while let Some(op) = tokens.next() {
            let next = self.token_value(tokens.next()?)?;
            total = arithmetic(op, total, next)?;
        }
        Some(total)
    }

    fn token_value(&self, token: &str) -> Option<i64> {
        if let Some(v) = crate::model::size::parse_number(token).and_then(|v| i64::try_from(v).ok())
        {
            return Some(v);
        }
        self.constants.get(token).copied()
    }

    /// Whether a call may be (or hide) a block-wide barrier without being a plain one.
    fn call_may_sync(&self, call: Node<'t>) -> bool {
        match self.callee(call) {
            Callee::MaySync => true,
            Callee::Free => false,
            Callee::Named(name) => self.may_sync.get(name).is_none_or(|syncs| *syncs),
        }
    }

    /// What a call is, as far as barriers go (a function of the file is named, to be looked up).
    fn callee(&self, call: Node<'t>) -> Callee<'t> {
        let source = self.source;
        let Some(function) = call.field("function") else {
            return Callee::MaySync;
        };
        if is_block_barrier(call, source) {
            return Callee::MaySync;
        }
        let name = text(function, source);
        if function.node_kind() == "field_expression" {
            let method = function
                .field("field")
                .map(|f| text(f, source))
                .unwrap_or("");
            let syncs = matches!(
                method,
                "sync"
                    | "Sum"
                    | "Reduce"
                    | "Scan"
                    | "ExclusiveSum"
                    | "InclusiveSum"
                    | "Load"
                    | "Store"
                    | "barrier_wait"
                    | "arrive_and_wait"
                    | "wait"
            ) || !is_pure_method(method);
            return if syncs { Callee::MaySync } else { Callee::Free };
        }
        let short = name.rsplit("::").next().unwrap_or(name);
        let short = short.split('<').next().unwrap_or(short).trim();
        if self.may_sync.contains_key(short) {
            return Callee::Named(short);
        }
        if is_barrier_free_builtin(short) {
            Callee::Free
        } else {
            Callee::MaySync
        }
    }
}

/// A call, as far as barriers go.
enum Callee<'t> {
    /// A function of the file: whether it may synchronise is looked up by name.
    Named(&'t str),
    /// A barrier, a cooperative-groups sync, a library block primitive, or a call whose body is
    /// not visible.
    MaySync,
    /// A builtin or method that does not synchronise.
    Free,
}

/// A function of the file a kernel calls, as a run follows it.
struct Helper<'t> {
    body: Node<'t>,
    /// Per parameter: its name, its type, whether it is a pointer, whether a reference.
    parameters: Vec<(&'t str, &'t str, bool, bool)>,
    /// Every parameter has a name (an unnamed one is not bound).
    complete: bool,
    /// Whether it names a file-scope shared array, and whether it declares one of its own
    /// (found on the first call followed).
    shared: std::cell::OnceCell<(bool, bool)>,
}

impl<'t> Helper<'t> {
    fn new(function: &Function<'t>, source: &'t str) -> Self {
        let declared = function
            .definition
            .field("declarator")
            .and_then(|d| {
                let mut d = d;
                // through pointer or reference declarators to the function declarator
                for _ in 0..4 {
                    if d.node_kind() == "function_declarator" {
                        return Some(d);
                    }
                    d = d.field("declarator")?;
                }
                None
            })
            .and_then(|d| d.field("parameters"))
            .map_or(0, |list| {
                named_children(list)
                    .filter(|p| p.node_kind().ends_with("parameter_declaration"))
                    .count()
            });
        let parameters: Vec<(&'t str, &'t str, bool, bool)> = function
            .parameters
            .iter()
            .map(|p| {
                let declarator = p.declaration.field("declarator");
                (
                    text(p.name_node, source),
                    p.declaration.field("type").map_or("", |t| text(t, source)),
                    p.is_pointer,
                    declarator.is_some_and(|d| d.node_kind() == "reference_declarator"),
                )
            })
            .collect();
        Helper {
            body: function.body,
            complete: parameters.len() == declared,
            parameters,
            shared: std::cell::OnceCell::new(),
        }
    }
}

/// What a region run as unknown (a branch on an unknown condition, the rest of a loop) may do.
struct Region<'t> {
    /// The locals it assigns.
    assigned: Vec<&'t str>,
    /// It may pass a barrier or leave the enclosing code: a thread that runs it as unknown
    /// stops.
    leaves: bool,
    /// It may leave the enclosing code or call what may hide a barrier (a barrier of its own
    /// aside).
    exits: bool,
    /// It calls `__syncwarp`: the lanes' order depends on how many times it runs.
    warp_sync: bool,
}

/// The kernel prepared for runs: its shared arrays and the facts every run reads.
struct Program<'m, 't> {
    scope: &'m FileScope<'t>,
    function: &'m Function<'t>,
    /// The file's shared arrays, then the kernel's.
    arrays: Vec<Array>,
    /// Shared declarations by node id → array.
    declared: HashMap<usize, u32>,
    /// Every block-wide barrier of the kernel body, in source order.
    barriers: Vec<Node<'t>>,
    /// What each region run as unknown assigns (None: it may pass a barrier or leave), by node
    /// and whether it is a loop: every thread meets the same regions many times.
    regions: RefCell<HashMap<(usize, bool), Rc<Region<'t>>>>,
    /// The kinds of the pointers into shared memory the runs make.
    kinds: Kinds,
    /// The children the runs have asked for, by node and part (`Program::part`).
    parts: RefCell<HashMap<(usize, Part), Option<Node<'t>>>>,
    /// Operator tokens by node (`Program::operator`).
    operators: RefCell<HashMap<usize, &'t str>>,
    /// The file's constants the runs have read, by name (`Program::named_constant`).
    constants: RefCell<HashMap<&'t str, Option<i64>>>,
}

/// A child of a syntax node that the runs read: the one in a field, or a subscript's index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Part {
    Left,
    Right,
    Argument,
    Field,
    Condition,
    Consequence,
    Alternative,
    Value,
    Type,
    Function,
    Arguments,
    Initializer,
    Update,
    Body,
    Declarator,
    Index,
}

impl Part {
    /// The child of `node` this part names, asked of the tree.
    fn find(self, node: Node<'_>) -> Option<Node<'_>> {
        let field = match self {
            Part::Index => return subscript_index(node),
            Part::Left => "left",
            Part::Right => "right",
            Part::Argument => "argument",
            Part::Field => "field",
            Part::Condition => "condition",
            Part::Consequence => "consequence",
            Part::Alternative => "alternative",
            Part::Value => "value",
            Part::Type => "type",
            Part::Function => "function",
            Part::Arguments => "arguments",
            Part::Initializer => "initializer",
            Part::Update => "update",
            Part::Body => "body",
            Part::Declarator => "declarator",
        };
        node.field(field)
    }
}

impl<'m, 't> Program<'m, 't> {
    /// The child of `node` that `part` names. Every thread meets the same nodes on every
    /// iteration of a loop, and a field read from the tree searches the node's children (a
    /// field the tree's table does not hold, such as a subscript's `indices`, asks tree-sitter),
    /// so each is found once per kernel.
    fn part(&self, node: Node<'t>, part: Part) -> Option<Node<'t>> {
        let key = (node.id(), part);
        if let Some(found) = self.parts.borrow().get(&key) {
            return *found;
        }
        let found = part.find(node);
        self.parts.borrow_mut().insert(key, found);
        found
    }

    /// The operator token of `node` (`operator`), found once per node.
    fn operator(&self, node: Node<'t>) -> &'t str {
        if let Some(known) = self.operators.borrow().get(&node.id()) {
            return known;
        }
        let found = operator(node, self.scope.source);
        self.operators.borrow_mut().insert(node.id(), found);
        found
    }

    /// `FileScope::named_constant`, read once per name: a loop bound such as `TILE` is read on
    /// every iteration, and a `#define` is parsed each time.
    fn named_constant(&self, name: &'t str) -> Option<i64> {
        if let Some(known) = self.constants.borrow().get(name) {
            return *known;
        }
        let found = self.scope.named_constant(name);
        self.constants.borrow_mut().insert(name, found);
        found
    }

    /// What a region whose execution is not known may do (see `Region`).
    fn region(&self, node: Node<'t>, is_loop: bool) -> Rc<Region<'t>> {
        if let Some(known) = self.regions.borrow().get(&(node.id(), is_loop)) {
            return Rc::clone(known);
        }
        let source = self.scope.source;
        let mut leaves = false;
        let mut exits = false;
        let mut warp_sync = false;
        let mut assigned: Vec<&'t str> = Vec::new();
        walk_iterative(node, |n| {
            match n.node_kind() {
                "return_statement" | "goto_statement" => exits = true,
                "call_expression"
                    if n.field("function").is_some_and(|f| {
                        let name = text(f, source);
                        orders_lanes(name.rsplit("::").next().unwrap_or(name).trim())
                    }) =>
                {
                    warp_sync = true
                }
                "break_statement" | "continue_statement" if !is_loop => exits = true,
                "call_expression" if is_block_barrier(n, source) => leaves = true,
                "call_expression" if self.call_may_sync(n) => exits = true,
                "gnu_asm_expression" => exits = true,
                "assignment_expression" => {
                    if let Some(left) = n.field("left") {
                        let left = crate::syntax::strip(left, source);
                        if left.node_kind() == "identifier" {
                            assigned.push(text(left, source));
                        }
                    }
                }
                "update_expression" => {
                    if let Some(argument) = n.field("argument") {
                        let argument = crate::syntax::strip(argument, source);
                        if argument.node_kind() == "identifier" {
                            assigned.push(text(argument, source));
                        }
                    }
                }
                "lambda_expression" => return false,
                _ => {}
            }
            !exits
        });
        let leaves = leaves || exits;
        assigned.sort_unstable();
        assigned.dedup();
        let region = Rc::new(Region {
            assigned,
            leaves,
            exits,
            warp_sync,
        });
        self.regions
            .borrow_mut()
            .insert((node.id(), is_loop), Rc::clone(&region));
        region
    }

    fn new(scope: &'m FileScope<'t>, function: &'m Function<'t>) -> Option<Program<'m, 't>> {
        let source = scope.source;
        let mut program = Program {
            scope,
            function,
            arrays: scope.globals.iter().map(|(_, a)| a.clone()).collect(),
            declared: HashMap::default(),
            barriers: Vec::new(),
            regions: RefCell::default(),
            kinds: Kinds::default(),
            // most nodes of the body are met, most for a part or two
            parts: RefCell::new(HashMap::with_capacity_and_hasher(
                function.body.descendant_count(),
                Default::default(),
            )),
            operators: RefCell::default(),
            constants: RefCell::default(),
        };
        let mut shared_declarations = Vec::new();
        let mut barriers = Vec::new();
        walk_iterative(function.body, |node| {
            match node.node_kind() {
                "declaration" if is_shared(node, source) => shared_declarations.push(node),
                "call_expression" if is_block_barrier(node, source) => barriers.push(node),
                "lambda_expression" => return false,
                _ => {}
            }
            true
        });
        for declaration in shared_declarations {
            if let Some(array) = scope.array(declaration) {
                program.arrays.push(array);
                if let Ok(id) = u32::try_from(program.arrays.len() - 1) {
                    program.declared.insert(declaration.id(), id);
                }
            }
        }
        if program.arrays.is_empty() {
            return None;
        }
        program.barriers = barriers;
        Some(program)
    }

    fn call_may_sync(&self, call: Node<'t>) -> bool {
        self.scope.call_may_sync(call)
    }

    fn run(&self, block: [i64; 3], left: &mut u64) -> Run<'t> {
        let threads = block[0] * block[1] * block[2];
        let mut log = Log {
            warp: self.scope.warp,
            ..Log::default()
        };
        let mut budget = STEP_BUDGET.min(*left);
        let start_budget = budget;
        let result = self.run_with(block, threads, &mut log, &mut budget);
        *left -= start_budget - budget;
        result
    }

    fn run_with(
        &self,
        block: [i64; 3],
        threads: i64,
        log: &mut Log<'t>,
        budget: &mut u64,
    ) -> Run<'t> {
        let mut state = Block::new(self, block, budget, log);
        let all = state.alive;
        if state.statement(self.function.body, all, 0).is_err() {
            return Run::Invalid;
        }
        let passed = std::mem::take(&mut state.passed);
        drop(state);
        // every thread passes the same barriers in the same order, up to where it exits: of
        // any two threads' sequences, one begins the other
        let mut reference = Passes::NONE;
        for lane in passed.lanes.iter().take(threads.max(0) as usize) {
            if !passed.one_begins_the_other(*lane, reference) {
                return Run::Invalid;
            }
            if passed.length(*lane) > passed.length(reference) {
                reference = *lane;
            }
        }
        let barrier_nodes = passed.sequence(reference);
        if log.outside {
            return Run::Invalid;
        }
        let mut conflicts: Vec<Conflict<'t>> = Vec::new();
        let mut seen: Vec<(usize, usize, bool)> = Vec::new();
        for found in &log.conflicts {
            if log.poisoned.contains(&found.epoch) {
                continue;
            }
            let (a, b) = (found.later, found.earlier);
            let (Some(node_a), Some(node_b)) = (
                log.sites.get(a.site as usize),
                log.sites.get(b.site as usize),
            ) else {
                continue;
            };
            let key = (
                node_a.id().min(node_b.id()),
                node_a.id().max(node_b.id()),
                found.same_warp,
            );
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let (mut first, mut second) = (
                SharedAccess {
                    node: *node_a,
                    kind: a.kind,
                    thread: coordinates(a.linear, block),
                },
                SharedAccess {
                    node: *node_b,
                    kind: b.kind,
                    thread: coordinates(b.linear, block),
                },
            );
            let (low, high) = if first.node.start_byte() <= second.node.start_byte() {
                (first.node.start_byte(), second.node.start_byte())
            } else {
                (second.node.start_byte(), first.node.start_byte())
            };
            let across_iterations = first.node.id() != second.node.id()
                && self
                    .barriers
                    .iter()
                    .any(|b| b.start_byte() > low && b.start_byte() < high);
            // report the access later in the source; across a back edge, the one that runs
            // early in the next iteration (prefer the write)
            let later_in_source = first.node.start_byte() >= second.node.start_byte();
            let swap = if across_iterations {
                !first.kind.writes() && second.kind.writes()
                    || (first.kind.writes() == second.kind.writes() && later_in_source)
            } else {
                !later_in_source
            };
            if swap {
                std::mem::swap(&mut first, &mut second);
            }
            let epoch = found.epoch as usize;
            let array = self.arrays.get(found.array as usize);
            conflicts.push(Conflict {
                array: array.map(|a| a.name.clone()).unwrap_or_default(),
                element: array
                    .map(|a| element_text(a, found.byte))
                    .unwrap_or_default(),
                first,
                second,
                same_warp: found.same_warp,
                across_iterations,
                // a loop run as unknown stands for barriers, but is not one to point at
                opened_by: epoch
                    .checked_sub(1)
                    .and_then(|e| barrier_nodes.get(e).copied())
                    .filter(|n| n.node_kind() == "call_expression"),
                closed_by: barrier_nodes
                    .get(epoch)
                    .copied()
                    .filter(|n| n.node_kind() == "call_expression"),
                block,
            });
        }
        Run::Valid(conflicts)
    }
}

/// `tile[0][1]` for a byte offset into `tile`.
fn element_text(array: &Array, byte: i64) -> String {
    if array.scalar {
        return array.name.clone();
    }
    let mut index = byte / array.element.max(1);
    let mut parts = Vec::new();
    for (position, _) in array.dims.iter().enumerate().rev() {
        if position == 0 {
            parts.push(index);
            break;
        }
        match array.dims[position] {
            Some(extent) if extent > 0 => {
                parts.push(index % extent);
                index /= extent;
            }
            _ => {
                parts.clear();
                parts.push(byte / array.element.max(1));
                break;
            }
        }
    }
    parts.reverse();
    let mut out = array.name.clone();
    for p in parts {
        out.push_str(&format!("[{p}]"));
    }
    out
}

#[derive(Debug, Clone, Copy)]
struct Record {
    /// The thread's linear index in the block.
    linear: i64,
    /// The warp it belongs to.
    warp: i64,
    /// The bytes it touches: `start..start + size`.
    start: i64,
    size: i64,
    site: u32,
    kind: AccessKind,
    /// `__syncwarp()` calls the thread had passed: lanes of one warp are ordered by them.
    warp_syncs: u32,
    /// What a write stored, for telling two identical stores apart from a real conflict.
    stored: Stored,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stored {
    Int(i64),
    /// A value every thread computes the same way at the same place.
    Uniform(u32),
    /// What the read at a site returned at an index (`Val::Load`).
    Load(u32, i64),
    /// The value the element held: read from it by the same thread, with no write since
    /// (`Val::Held`).
    Back,
    /// An atomic update (`atomicAdd`, ...): no race with another atomic.
    Atomic,
    Varying,
}

/// Up to three accesses of one byte: the first accessor, a second thread, and the first from
/// another warp than the first's. Every later access that conflicts with some earlier one
/// conflicts with one of these. Held as positions in `Log::records`: a slot is made for every
/// element a block touches, and small slots keep that table in the cache.
#[derive(Clone, Copy)]
struct Kept {
    items: [u32; 3],
}

const NO_RECORD: u32 = u32::MAX;

impl Default for Kept {
    fn default() -> Self {
        Kept {
            items: [NO_RECORD; 3],
        }
    }
}

impl Kept {
    fn iter<'r>(&self, records: &'r [Record]) -> impl Iterator<Item = &'r Record> + 'r {
        let items = self.items;
        items
            .into_iter()
            .take_while(|item| *item != NO_RECORD)
            .filter_map(move |item| records.get(item as usize))
    }

    fn offer(&mut self, record: Record, records: &mut Vec<Record>) {
        if self.items[2] != NO_RECORD && (self.items[2] as usize) < records.len() {
            return; // three kept: nothing more is
        }
        let keep = {
            let mut kept: [Option<&Record>; 3] = [None; 3];
            for (place, kept_record) in kept.iter_mut().zip(self.iter(records)) {
                *place = Some(kept_record);
            }
            match kept {
                [None, ..] => true,
                [Some(first), None, _] => first.linear != record.linear,
                [Some(first), Some(second), None] => {
                    first.warp != record.warp && second.warp != record.warp
                }
                _ => false,
            }
        };
        if keep {
            if let Some(free) = self.items.iter_mut().find(|item| **item == NO_RECORD) {
                *free = records.len() as u32;
                records.push(record);
            }
        }
    }
}

#[derive(Default, Clone, Copy)]
struct Slot {
    writes: Kept,
    reads: Kept,
}

/// The slots of one array in one barrier interval, by element: the first elements in a table
/// (an array of shared memory is small, and a run touches most of it), the rest by hash.
#[derive(Default)]
struct Slots {
    table: Vec<Slot>,
    rest: HashMap<i64, Slot>,
}

impl Slots {
    /// Elements below this are kept in the table.
    const TABLE: i64 = 1 << 12;

    fn get(&mut self, element: i64) -> &mut Slot {
        if (0..Self::TABLE).contains(&element) {
            let index = element as usize;
            if index >= self.table.len() {
                self.table.resize(index + 1, Slot::default());
            }
            &mut self.table[index]
        } else {
            self.rest.entry(element).or_default()
        }
    }
}

/// A read put aside (`Log::deferred`): its threads, all in one interval, through pointers of
/// one kind, with the same `__syncwarp()` count.
struct Deferred {
    key: (u32, u32),
    site: u32,
    kind: AccessKind,
    locs: Lanes<Loc>,
    lanes: Mask,
    pointee: Pointee,
    warp_syncs: u32,
    /// What a write stores, per thread.
    stored: Option<Lanes<Stored>>,
}

/// What an access through a pointer reads: the array, the bytes it touches, the array's
/// element size, and the array's size when known.
#[derive(Debug, Clone, Copy)]
struct Pointee {
    array: u32,
    size: i64,
    unit: i64,
    total: Option<i64>,
}

struct Found {
    epoch: u32,
    array: u32,
    byte: i64,
    later: Record,
    earlier: Record,
    same_warp: bool,
}

#[derive(Default)]
struct Log<'t> {
    sites: Vec<Node<'t>>,
    site_ids: HashMap<usize, u32>,
    /// Per barrier interval still open to some thread and array: per element, what touched it.
    slots: Vec<(u32, u32, Slots)>,
    /// Reads put aside, in order: a read conflicts only with a write, so the reads of an
    /// interval and array that no write has touched yet make no pair. The first write there
    /// logs them first, in order, as if each had been logged when it was made; the reads of an
    /// interval that never sees a write to the array (a loop over a tile after its barrier)
    /// are never logged one by one.
    deferred: Vec<Deferred>,
    /// The intervals and arrays some write has touched: their reads are logged at once.
    written: Vec<(u32, u32)>,
    /// The lanes of a warp.
    warp: i64,
    /// The accesses the slots keep.
    records: Vec<Record>,
    conflicts: Vec<Found>,
    /// Epochs in which some thread called what may hide a barrier: nothing is concluded there.
    poisoned: Vec<u32>,
    /// An access left its array: the block shape does not fit the kernel, and the run stops.
    outside: bool,
}

impl<'t> Log<'t> {
    fn site(&mut self, node: Node<'t>) -> u32 {
        if let Some(id) = self.site_ids.get(&node.id()) {
            return *id;
        }
        let id = self.sites.len() as u32;
        self.sites.push(node);
        self.site_ids.insert(node.id(), id);
        id
    }

    /// Forgets the intervals before `open`: every running thread has left them.
    fn close_before(&mut self, open: u32) {
        self.slots.retain(|(epoch, _, _)| *epoch >= open);
        self.deferred.retain(|d| d.key.0 >= open);
        self.written.retain(|(epoch, _)| *epoch >= open);
        if self.slots.is_empty() {
            self.records.clear();
        }
    }

    /// Logs an access to the elements (of `unit` bytes) it touches, and the first conflict it
    /// makes with an earlier access of the same interval; the reads put aside there first.
    fn record(&mut self, epoch: u32, array: u32, unit: i64, record: Record) {
        let key = (epoch, array);
        self.replay(key);
        if record.kind.writes() && !self.written.contains(&key) {
            self.written.push(key);
        }
        self.put(epoch, array, unit, record);
    }

    /// Logs the accesses put aside for an interval and array, in order.
    fn replay(&mut self, key: (u32, u32)) {
        if !self.deferred.iter().any(|d| d.key == key) {
            return;
        }
        let (due, rest): (Vec<Deferred>, Vec<Deferred>) = std::mem::take(&mut self.deferred)
            .into_iter()
            .partition(|d| d.key == key);
        self.deferred = rest;
        let (epoch, array) = key;
        for access in due {
            if access.kind.writes() && !self.written.contains(&key) {
                self.written.push(key);
            }
            for lane in access.lanes.lanes() {
                let Loc::Shared { ptr, row: false } = access.locs.get(lane) else {
                    continue;
                };
                let earlier = Record {
                    linear: lane as i64,
                    warp: lane as i64 / self.warp,
                    start: ptr.byte,
                    size: access.pointee.size,
                    site: access.site,
                    kind: access.kind,
                    warp_syncs: access.warp_syncs,
                    stored: access
                        .stored
                        .as_ref()
                        .map_or(Stored::Varying, |s| s.get(lane)),
                };
                self.put(epoch, array, access.pointee.unit, earlier);
            }
        }
    }

    /// Whether an access to an interval and array may be put aside: a read, while no write
    /// there is logged or put aside; a write whose threads touch bytes apart, while nothing
    /// else there is.
    fn may_defer(&self, key: (u32, u32), writes: bool) -> bool {
        if self.written.contains(&key) {
            return false;
        }
        if writes {
            !self.deferred.iter().any(|d| d.key == key)
                && !self.slots.iter().any(|(e, a, _)| (*e, *a) == key)
        } else {
            !self
                .deferred
                .iter()
                .any(|d| d.key == key && d.kind.writes())
        }
    }

    fn put(&mut self, epoch: u32, array: u32, unit: i64, record: Record) {
        let warp = |r: &Record| r.warp;
        let unit = unit.max(1);
        let (first, last) = (
            record.start.div_euclid(unit),
            (record.start + record.size.max(1) - 1).div_euclid(unit),
        );
        let overlap = |o: &Record| {
            o.start < record.start + record.size.max(1) && record.start < o.start + o.size.max(1)
        };
        let position = match self
            .slots
            .iter()
            .rposition(|(e, a, _)| *e == epoch && *a == array)
        {
            Some(position) => position,
            None => {
                self.slots.push((epoch, array, Slots::default()));
                self.slots.len() - 1
            }
        };
        let slots = &mut self.slots[position].2;
        let records = &mut self.records;
        for element in first..=last.min(first + 31) {
            let byte = record.start.max(element * unit);
            let slot = slots.get(element);
            let reads = if record.kind.writes() {
                slot.reads
            } else {
                Kept::default()
            };
            let found = {
                let against = || slot.writes.iter(records).chain(reads.iter(records));
                let other_warp = against().find(|o| {
                    o.linear != record.linear
                        && warp(o) != warp(&record)
                        && overlap(o)
                        && !benign(o, &record)
                });
                let same_warp = against().find(|o| {
                    o.linear != record.linear
                        && overlap(o)
                        && warp(o) == warp(&record)
                        && o.warp_syncs == record.warp_syncs
                        && !benign(o, &record)
                });
                other_warp
                    .map(|o| (*o, false))
                    .or(same_warp.map(|o| (*o, true)))
            };
            if record.kind.writes() {
                slot.writes.offer(record, records);
            } else {
                slot.reads.offer(record, records);
            }
            if let Some((earlier, same_warp)) = found {
                // a pair is kept in a few intervals (one may turn out to hide a barrier), not in
                // every iteration of a loop, so that the other pairs find room
                let same_pair = |c: &&Found| {
                    c.same_warp == same_warp
                        && ((c.later.site == record.site && c.earlier.site == earlier.site)
                            || (c.later.site == earlier.site && c.earlier.site == record.site))
                };
                let kept = self.conflicts.iter().filter(same_pair).count();
                let here = self
                    .conflicts
                    .iter()
                    .filter(same_pair)
                    .any(|c| c.epoch == epoch);
                if !here && kept < 4 && self.conflicts.len() < 512 {
                    self.conflicts.push(Found {
                        epoch,
                        array,
                        byte,
                        later: record,
                        earlier,
                        same_warp,
                    });
                }
                // one element is enough to show a pair of accesses
                return;
            }
        }
    }
}

/// Two threads storing the same value: no outcome depends on their order. A write that stores
/// back what its element held changes nothing, so no read or other such write depends on its
/// order; any other write to the element in the interval conflicts with the read that store
/// began with, and is found there.
fn benign(a: &Record, b: &Record) -> bool {
    if a.stored == Stored::Atomic && b.stored == Stored::Atomic {
        return true;
    }
    let back = |r: &Record| r.kind == AccessKind::Write && r.stored == Stored::Back;
    if (back(a) && (back(b) || b.kind == AccessKind::Read))
        || (back(b) && a.kind == AccessKind::Read)
    {
        return true;
    }
    a.kind == AccessKind::Write
        && b.kind == AccessKind::Write
        && match (a.stored, b.stored) {
            (Stored::Int(x), Stored::Int(y)) => x == y,
            (Stored::Uniform(x), Stored::Uniform(y)) => x == y,
            (Stored::Load(x, i), Stored::Load(y, j)) => x == y && i == j,
            _ => false,
        }
}

type Vals = Lanes<Val>;

/// Where one thread's access lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Loc {
    /// An element, or with `row` a row of a multi-dimensional array (which decays to a pointer
    /// to its first element, `ptr`).
    Shared { ptr: Ptr, row: bool },
    /// Memory the run does not follow (global, local arrays, fields), and whether what it holds
    /// there may differ between threads (it does not at a uniform place).
    Elsewhere(bool),
    /// An element of memory the run does not follow, through a pointer every thread holds alike:
    /// threads at the same index read the same value.
    Indexed(i64),
}

/// Where an assignment or a read lands.
#[derive(Debug, Clone)]
enum Place<'t> {
    Local(&'t str),
    /// Memory, per thread, written as `node`.
    Memory(Node<'t>, Lanes<Loc>),
}

/// The run stops: the block shape does not fit, or the run is past its budget.
struct Invalid;

/// Threads that left the statement for the enclosing loop.
#[derive(Debug, Clone, Copy)]
struct Jumps {
    broke: Mask,
    continued: Mask,
}

impl Jumps {
    const NONE: Jumps = Jumps {
        broke: Mask::NONE,
        continued: Mask::NONE,
    };

    fn or(self, other: Jumps) -> Jumps {
        Jumps {
            broke: self.broke.or(other.broke),
            continued: self.continued.or(other.continued),
        }
    }
}

/// The barriers each thread has passed, in order. The sequences are held as the paths of a tree
/// from an empty root, so that threads that pass the same barriers share one path, and passing
/// one is a step along it rather than a copy per thread.
#[derive(Default)]
struct Passes<'t> {
    /// Per path end: the end it extends, its barrier, its length.
    ends: Vec<(u32, Node<'t>, u32)>,
    /// The end each barrier leads to from an end (by the barrier's node id).
    next: HashMap<(u32, usize), u32>,
    /// Per thread, its end.
    lanes: Vec<u32>,
}

impl<'t> Passes<'t> {
    /// The empty sequence.
    const NONE: u32 = u32::MAX;

    fn new(lanes: usize) -> Self {
        Passes {
            lanes: vec![Self::NONE; lanes],
            ..Passes::default()
        }
    }

    /// The threads of `mask` pass barrier `node`.
    fn pass(&mut self, mask: Mask, node: Node<'t>) {
        let mut last: Option<(u32, u32)> = None;
        for lane in mask.lanes() {
            let Some(from) = self.lanes.get(lane).copied() else {
                continue;
            };
            let to = match last {
                Some((seen, to)) if seen == from => to,
                _ => {
                    let to = self.step(from, node);
                    last = Some((from, to));
                    to
                }
            };
            if let Some(end) = self.lanes.get_mut(lane) {
                *end = to;
            }
        }
    }

    fn step(&mut self, from: u32, node: Node<'t>) -> u32 {
        if let Some(to) = self.next.get(&(from, node.id())) {
            return *to;
        }
        let to = u32::try_from(self.ends.len()).unwrap_or(Self::NONE);
        let length = self.length(from) + 1;
        self.ends.push((from, node, length));
        self.next.insert((from, node.id()), to);
        to
    }

    fn length(&self, end: u32) -> u32 {
        self.ends.get(end as usize).map_or(0, |e| e.2)
    }

    fn parent(&self, end: u32) -> u32 {
        self.ends.get(end as usize).map_or(Self::NONE, |e| e.0)
    }

    /// Whether one of the two sequences begins the other.
    fn one_begins_the_other(&self, a: u32, b: u32) -> bool {
        let (mut longer, shorter) = if self.length(a) >= self.length(b) {
            (a, b)
        } else {
            (b, a)
        };
        while self.length(longer) > self.length(shorter) {
            longer = self.parent(longer);
        }
        longer == shorter
    }

    /// The barriers of a sequence, in order.
    fn sequence(&self, mut end: u32) -> Vec<Node<'t>> {
        let mut out = Vec::new();
        while let Some((from, node, _)) = self.ends.get(end as usize) {
            out.push(*node);
            end = *from;
        }
        out.reverse();
        out
    }
}

/// The threads of one block run together: each statement and expression is read once for all
/// the threads that reach it, with a value per thread. Threads that take different branches run
/// them one after the other, as each thread would on its own; nothing a thread logs depends on
/// the others.
struct Block<'p, 'm, 't> {
    program: &'p Program<'m, 't>,
    block: [i64; 3],
    lanes: usize,
    /// Threads that have neither returned nor stopped.
    alive: Mask,
    /// Threads evaluating a part whose execution is not certain: their accesses are not logged.
    speculative: Mask,
    /// Per thread: barriers passed, and `__syncwarp()` calls.
    epoch: Vec<u32>,
    /// The barrier interval and `__syncwarp()` count every alive thread is at, when they agree:
    /// found again after either changes, or a thread stops (`common_interval`).
    common: std::cell::Cell<Option<Option<(u32, u32)>>>,
    passed: Passes<'t>,
    warp_syncs: Vec<u32>,
    /// `threadIdx` per axis, the linear thread index and the lane within the warp.
    coordinates: [Vals; 3],
    linear: Vals,
    lane_id: Vals,
    /// Locals, innermost last, with their declared types.
    scopes: Vec<(&'t str, Vals, &'t str)>,
    frames: Vec<usize>,
    /// Per `Val::Held` token: the pointer kind the element was read through, and `writes` then.
    held: Vec<(u32, u32)>,
    /// Inside a followed call: where its locals begin (below, only the file-scope arrays are
    /// seen), how many calls deep, and the threads that have returned from it.
    floor: usize,
    calls: usize,
    returned: Mask,
    /// Writes the run has made (or may have made: a call, a region not followed), but stores
    /// back of what an element held.
    writes: u32,
    budget: &'p mut u64,
    log: &'p mut Log<'t>,
}

impl<'p, 'm, 't> Block<'p, 'm, 't> {
    fn new(
        program: &'p Program<'m, 't>,
        block: [i64; 3],
        budget: &'p mut u64,
        log: &'p mut Log<'t>,
    ) -> Self {
        let lanes = (block[0] * block[1] * block[2]).clamp(1, MAX_LANES as i64) as usize;
        // threads are numbered x first, then y, then z
        let whole = block.iter().product::<i64>() == lanes as i64;
        let linear = |coef: [i128; 3], per: &dyn Fn(usize) -> Val| {
            whole
                .then(|| Linear::form(Val::Int(0, true), 0, coef, block))
                .flatten()
                .unwrap_or_else(|| Lanes::from_fn(lanes, per))
        };
        let axis = |a: usize| {
            let mut coef = [0; 3];
            coef[a] = 1;
            linear(coef, &|lane| {
                Val::Int(coordinates(lane as i64, block)[a], true)
            })
        };
        let mut state = Block {
            program,
            block,
            lanes,
            alive: Mask::first(lanes),
            speculative: Mask::NONE,
            epoch: vec![0; lanes],
            common: std::cell::Cell::new(None),
            passed: Passes::new(lanes),
            warp_syncs: vec![0; lanes],
            coordinates: [axis(0), axis(1), axis(2)],
            linear: linear(
                [1, i128::from(block[0]), i128::from(block[0] * block[1])],
                &|lane| Val::Int(lane as i64, true),
            ),
            lane_id: Lanes::from_fn(lanes, |lane| {
                Val::Int(lane as i64 % program.scope.warp, true)
            }),
            scopes: Vec::new(),
            frames: Vec::new(),
            held: Vec::new(),
            floor: 0,
            calls: 0,
            returned: Mask::NONE,
            writes: 0,
            budget,
            log,
        };
        state.bind_entry();
        state
    }

    fn source(&self) -> &'t str {
        self.program.scope.source
    }

    fn text(&self, node: Node<'t>) -> &'t str {
        text(node, self.program.scope.source)
    }

    fn part(&self, node: Node<'t>, part: Part) -> Option<Node<'t>> {
        self.program.part(node, part)
    }

    fn bind_entry(&mut self) {
        for (id, (name, _)) in self.program.scope.globals.iter().enumerate() {
            let value = self.array_value(id as u32);
            self.scopes.push((name, Lanes::Uni(value), ""));
        }
        for parameter in &self.program.function.parameters {
            let value = if parameter.is_pointer {
                Val::Unknown(false)
            } else if is_integer_type(&parameter.type_text) && !parameter.type_text.contains('&') {
                Val::Chosen(PARAMETER_VALUE)
            } else {
                Val::Unknown(false)
            };
            let name = text(parameter.name_node, self.source());
            let type_text = parameter
                .declaration
                .field("type")
                .map_or("", |t| text(t, self.source()));
            self.scopes.push((name, Lanes::Uni(value), type_text));
        }
    }

    fn array_value(&self, id: u32) -> Val {
        let Some(array) = self.program.arrays.get(id as usize) else {
            return Val::Unknown(true);
        };
        let mut shape = Shape::FLAT;
        let inner: Vec<Option<i64>> = array.dims.iter().skip(1).copied().collect();
        if inner.len() <= 4 && inner.iter().all(Option::is_some) {
            for (i, d) in inner.iter().enumerate() {
                shape.dims[i] = d.unwrap_or(0);
            }
            shape.len = inner.len() as u8;
        } else {
            // inner extents unknown: the array's rows cannot be told apart
            return Val::Unknown(true);
        }
        let kind = self.program.kinds.id(PtrKind {
            array: id,
            element: array.element,
            shape,
            extent: array.dims.first().copied().flatten(),
        });
        Val::Ptr(Ptr { kind, byte: 0 })
    }

    fn lookup(&self, name: &str) -> Option<&Vals> {
        self.position(name).map(|position| &self.scopes[position].1)
    }

    /// Where local `name` is: among the current function's locals, else (in a followed call)
    /// among the file-scope arrays.
    fn position(&self, name: &str) -> Option<usize> {
        let floor = self.floor.min(self.scopes.len());
        let outer = self.program.scope.globals.len().min(floor);
        self.scopes[floor..]
            .iter()
            .rposition(|(n, ..)| *n == name)
            .map(|p| p + floor)
            .or_else(|| self.scopes[..outer].iter().rposition(|(n, ..)| *n == name))
    }

    /// `value` kept in a variable of type `type_text`: a value read from an element stays what
    /// the element held only in a variable of the element's own type (a conversion may change it).
    fn held_as(&self, value: &Vals, type_text: &str) -> Vals {
        let holds = |v: &Val| matches!(v, Val::Held(..));
        let any = match value {
            Lanes::Uni(v) => holds(v),
            Lanes::Linear(linear) => holds(&linear.shape),
            Lanes::Per(values) => values.iter().any(holds),
        };
        if !any {
            return value.clone();
        }
        let kinds = &self.program.kinds;
        let arrays = &self.program.arrays;
        let held = &self.held;
        value.convert(|v| match v {
            Val::Held(token, _) => {
                let kind = held
                    .get(token as usize)
                    .and_then(|(kind, _)| kinds.get(*kind));
                let array = kind.and_then(|k| arrays.get(k.array as usize));
                let fits = match (kind, array) {
                    (Some(kind), Some(array)) => {
                        kind.element == array.element
                            && (type_text.trim() == "auto"
                                || same_type(type_text, &array.element_type))
                    }
                    _ => false,
                };
                if fits {
                    v
                } else {
                    Val::Unknown(true)
                }
            }
            other => other,
        })
    }

    /// The token of a value read now through pointers of kind `kind` (`Val::Held`).
    fn held_token(&mut self, kind: u32) -> u32 {
        let now = (kind, self.writes);
        let start = self.held.len().saturating_sub(4);
        if let Some(found) = self.held[start..].iter().position(|h| *h == now) {
            return (start + found) as u32;
        }
        self.held.push(now);
        (self.held.len() - 1) as u32
    }

    /// Gives the threads of `mask` a new value of local `name`.
    fn assign_local(&mut self, name: &str, value: &Vals, mask: Mask) {
        let (alive, lanes) = (self.alive, self.lanes);
        let Some(position) = self.position(name) else {
            return;
        };
        // a value read from an element stays what the element held only in a local of its type
        let type_text = self.scopes[position].2;
        let value = self.held_as(value, type_text);
        let slot = &mut self.scopes[position];
        slot.1 = if alive.without(mask).is_empty() {
            value
        } else {
            slot.1.blend(&value, mask, lanes)
        };
    }

    /// The barrier interval and `__syncwarp()` count every alive thread is at, when they agree.
    fn common_interval(&self) -> Option<(u32, u32)> {
        if let Some(known) = self.common.get() {
            return known;
        }
        let mut lanes = self.alive.lanes();
        let found = lanes.next().and_then(|first| {
            let at = (*self.epoch.get(first)?, *self.warp_syncs.get(first)?);
            lanes
                .all(|lane| {
                    self.epoch.get(lane) == Some(&at.0) && self.warp_syncs.get(lane) == Some(&at.1)
                })
                .then_some(at)
        });
        self.common.set(Some(found));
        found
    }

    /// Threads of `mask` whose accesses are logged: alive and not speculative.
    fn certain(&self, mask: Mask) -> Mask {
        mask.and(self.alive).without(self.speculative)
    }

    /// The threads of `mask` stop where they are, keeping what they logged.
    fn stop(&mut self, mask: Mask) {
        self.alive = self.alive.without(mask);
        self.common.set(None);
    }

    /// One statement or expression read for the threads of `mask`: a step, and one more for
    /// every warp's worth of threads.
    fn step(&mut self, mask: Mask) -> Result<(), Invalid> {
        let threads = mask.count();
        let cost = 1 + u64::from(threads / 32);
        if *self.budget < cost || self.log.outside {
            return Err(Invalid);
        }
        *self.budget -= cost;
        Ok(())
    }

    /// Splits the threads of `mask` by a condition's value: true, false, unknown.
    fn split(&self, value: &Vals, mask: Mask) -> (Mask, Mask, Mask) {
        let (mut yes, mut no, mut unknown) = (Mask::NONE, Mask::NONE, Mask::NONE);
        if let Lanes::Uni(v) = value {
            return match v.truth() {
                Some(true) => (mask, Mask::NONE, Mask::NONE),
                Some(false) => (Mask::NONE, mask, Mask::NONE),
                None => (Mask::NONE, Mask::NONE, mask),
            };
        }
        for lane in mask.lanes() {
            match value.get(lane).truth() {
                Some(true) => yes.set(lane),
                Some(false) => no.set(lane),
                None => unknown.set(lane),
            }
        }
        (yes, no, unknown)
    }

    // ---- statements -------------------------------------------------------------------

    fn statement(&mut self, node: Node<'t>, mask: Mask, depth: usize) -> Result<Jumps, Invalid> {
        let mask = mask.and(self.alive);
        if mask.is_empty() {
            return Ok(Jumps::NONE);
        }
        if depth > MAX_NESTING {
            return Err(Invalid);
        }
        self.step(mask)?;
        match node.node_kind() {
            "compound_statement" => {
                self.frames.push(self.scopes.len());
                let jumps = self.sequence(named_children(node), mask, depth);
                if let Some(mark) = self.frames.pop() {
                    self.scopes.truncate(mark);
                }
                jumps
            }
            "declaration" => {
                self.declaration(node, mask, depth)?;
                Ok(Jumps::NONE)
            }
            "expression_statement" => {
                for child in named_children(node) {
                    self.eval(child, mask, depth + 1)?;
                }
                Ok(Jumps::NONE)
            }
            "if_statement" => {
                let Some(condition) = self.part(node, Part::Condition) else {
                    self.stop(mask);
                    return Ok(Jumps::NONE);
                };
                let value = self.condition(condition, mask, depth)?;
                let (yes, no, unknown) = self.split(&value, mask);
                let mut jumps = Jumps::NONE;
                if let Some(consequence) = self.part(node, Part::Consequence) {
                    jumps = jumps.or(self.statement(consequence, yes, depth + 1)?);
                }
                if let Some(alternative) = self.part(node, Part::Alternative) {
                    jumps = jumps.or(self.sequence(named_children(alternative), no, depth)?);
                }
                self.unknown_region(node, false, unknown);
                Ok(jumps)
            }
            "for_statement" => {
                self.frames.push(self.scopes.len());
                let result = self.for_loop(node, mask, depth);
                if let Some(mark) = self.frames.pop() {
                    self.scopes.truncate(mark);
                }
                result.map(|()| Jumps::NONE)
            }
            "while_statement" | "do_statement" => {
                let (Some(condition), Some(body)) = (
                    self.part(node, Part::Condition),
                    self.part(node, Part::Body),
                ) else {
                    self.stop(mask);
                    return Ok(Jumps::NONE);
                };
                let test_first = node.node_kind() == "while_statement";
                self.run_loop(node, mask, None, Some(condition), body, test_first, depth)?;
                Ok(Jumps::NONE)
            }
            "return_statement" => {
                for child in named_children(node) {
                    self.eval(child, mask, depth + 1)?;
                }
                if self.calls > 0 {
                    // they go on after the call
                    self.returned = self.returned.or(mask);
                }
                self.stop(mask);
                Ok(Jumps::NONE)
            }
            "break_statement" => Ok(Jumps {
                broke: mask,
                continued: Mask::NONE,
            }),
            "continue_statement" => Ok(Jumps {
                broke: Mask::NONE,
                continued: mask,
            }),
            "labeled_statement" => {
                match named_children(node).find(|c| c.node_kind() != "statement_identifier") {
                    Some(inner) => self.statement(inner, mask, depth + 1),
                    None => Ok(Jumps::NONE),
                }
            }
            "comment"
            | "preproc_def"
            | "preproc_function_def"
            | "preproc_include"
            | "preproc_call"
            | "type_definition"
            | "alias_declaration"
            | "using_declaration"
            | "static_assert_declaration" => Ok(Jumps::NONE),
            // switch, goto, range loops, try: not followed
            _ => {
                self.unknown_region(node, false, mask);
                Ok(Jumps::NONE)
            }
        }
    }

    /// Statements run in order by the threads that have not left them.
    fn sequence(
        &mut self,
        statements: impl Iterator<Item = Node<'t>>,
        mask: Mask,
        depth: usize,
    ) -> Result<Jumps, Invalid> {
        let mut jumps = Jumps::NONE;
        for child in statements {
            let live = mask
                .and(self.alive)
                .without(jumps.broke)
                .without(jumps.continued);
            if live.is_empty() {
                break;
            }
            jumps = jumps.or(self.statement(child, live, depth + 1)?);
        }
        Ok(jumps)
    }

    fn condition(
        &mut self,
        condition: Node<'t>,
        mask: Mask,
        depth: usize,
    ) -> Result<Vals, Invalid> {
        let condition = if condition.node_kind() == "condition_clause" {
            match self
                .part(condition, Part::Value)
                .or_else(|| named_children(condition).next())
            {
                Some(c) => c,
                None => return Ok(Lanes::Uni(Val::Unknown(true))),
            }
        } else {
            condition
        };
        if condition.node_kind() == "declaration" {
            return Ok(Lanes::Uni(Val::Unknown(true)));
        }
        self.eval(condition, mask, depth + 1)
    }

    /// A region whose execution is not known for the threads of `mask` (a branch on an unknown
    /// condition, a statement the run does not follow): what it assigns becomes unknown; if it
    /// can pass a barrier or leave the enclosing code, those threads stop.
    fn unknown_region(&mut self, node: Node<'t>, is_loop: bool, mask: Mask) {
        let mask = mask.and(self.alive);
        if mask.is_empty() {
            return;
        }
        let region = self.program.region(node, is_loop);
        if region.leaves {
            self.stop(mask);
            return;
        }
        // what it writes is not followed
        self.writes = self.writes.wrapping_add(1);
        let unknown = Lanes::Uni(Val::Unknown(true));
        for name in &region.assigned {
            self.assign_local(name, &unknown, mask);
        }
    }

    fn for_loop(&mut self, node: Node<'t>, mask: Mask, depth: usize) -> Result<(), Invalid> {
        if let Some(initializer) = self.part(node, Part::Initializer) {
            if initializer.node_kind() == "declaration" {
                self.declaration(initializer, mask, depth)?;
            } else {
                self.eval(initializer, mask, depth + 1)?;
            }
        }
        let Some(body) = self.part(node, Part::Body) else {
            self.stop(mask);
            return Ok(());
        };
        let (condition, update) = (
            self.part(node, Part::Condition),
            self.part(node, Part::Update),
        );
        self.run_loop(node, mask, update, condition, body, true, depth)
    }

    /// The iterations of a loop, for the threads still in it; a thread that breaks, fails the
    /// condition or meets an unknown one (the rest then runs as unknown) goes on after it.
    #[allow(clippy::too_many_arguments)]
    fn run_loop(
        &mut self,
        node: Node<'t>,
        mask: Mask,
        update: Option<Node<'t>>,
        condition: Option<Node<'t>>,
        body: Node<'t>,
        test_first: bool,
        depth: usize,
    ) -> Result<(), Invalid> {
        let mut live = mask;
        let mut iterations = 0;
        loop {
            live = live.and(self.alive);
            if live.is_empty() {
                return Ok(());
            }
            iterations += 1;
            if iterations > FOLLOWED_SYNCHRONISED_ITERATIONS {
                let region = self.program.region(node, true);
                if region.warp_sync {
                    // the lanes' order depends on every `__syncwarp()` it passes
                } else if !region.leaves {
                    if iterations > FOLLOWED_ITERATIONS {
                        self.unknown_region(node, true, live);
                        return Ok(());
                    }
                } else if !region.exits && live == self.alive {
                    self.skip_synchronised_loop(node, live);
                    return Ok(());
                }
            }
            if iterations > MAX_ITERATIONS {
                self.stop(live);
                return Ok(());
            }
            if test_first || iterations > 1 {
                if let Some(condition) = condition {
                    let value = if test_first {
                        self.condition(condition, live, depth)?
                    } else {
                        self.eval(condition, live, depth + 1)?
                    };
                    let (yes, _, unknown) = self.split(&value, live);
                    self.unknown_region(node, true, unknown);
                    live = yes;
                    if live.is_empty() {
                        return Ok(());
                    }
                }
            }
            let jumps = self.statement(body, live, depth + 1)?;
            live = live.and(self.alive).without(jumps.broke);
            if let Some(update) = update {
                self.eval(update, live, depth + 1)?;
            }
        }
    }

    /// The rest of a loop with barriers that every running thread is in: what it assigns becomes
    /// unknown, and the threads go on after it in a new barrier interval (the loop stands for the
    /// barriers it would pass, so nothing before it pairs with anything after it).
    fn skip_synchronised_loop(&mut self, node: Node<'t>, mask: Mask) {
        let region = self.program.region(node, true);
        self.writes = self.writes.wrapping_add(1);
        let unknown = Lanes::Uni(Val::Unknown(true));
        for name in &region.assigned {
            self.assign_local(name, &unknown, mask);
        }
        let passing = mask.and(self.alive);
        self.passed.pass(passing, node);
        for lane in passing.lanes() {
            self.epoch[lane] += 1;
        }
        self.common.set(None);
        self.close_intervals();
    }

    /// Forgets the accesses of the intervals every running thread has left: nothing logged from
    /// now on can meet them.
    fn close_intervals(&mut self) {
        let Some(open) = self.alive.lanes().map(|lane| self.epoch[lane]).min() else {
            return;
        };
        self.log.close_before(open);
    }

    fn declaration(&mut self, node: Node<'t>, mask: Mask, depth: usize) -> Result<(), Invalid> {
        let source = self.source();
        if let Some(id) = self.program.declared.get(&node.id()).copied() {
            if let Some(name) = named_children(node).find_map(crate::syntax::declarator_name) {
                let value = match self.program.arrays.get(id as usize) {
                    // a scalar is a place: the name itself is looked up as one
                    Some(array) if array.scalar => Val::Ptr(Ptr {
                        kind: self.program.kinds.id(PtrKind {
                            array: id,
                            element: array.element,
                            shape: Shape::FLAT,
                            extent: None,
                        }),
                        byte: 0,
                    }),
                    _ => self.array_value(id),
                };
                self.scopes
                    .push((text(name, source), Lanes::Uni(value), ""));
            }
            return Ok(());
        }
        let type_text = self
            .part(node, Part::Type)
            .map(|t| text(t, source))
            .unwrap_or("");
        let integral = is_integer_type(type_text) || type_text == "auto";
        // read only for a pointer initialised from a pointer (it normalises the type's text)
        let element_size = std::cell::OnceCell::new();
        for declarator in named_children(node) {
            let (target, value) = match declarator.node_kind() {
                "init_declarator" => (
                    self.part(declarator, Part::Declarator),
                    self.part(declarator, Part::Value),
                ),
                "identifier"
                | "pointer_declarator"
                | "array_declarator"
                | "reference_declarator" => (Some(declarator), None),
                _ => continue,
            };
            let Some(target) = target else { continue };
            let Some(name) = crate::syntax::declarator_name(target) else {
                continue;
            };
            let pointer = crate::syntax::declarator_is_pointer(target)
                && target.node_kind() != "array_declarator";
            let reference = target.node_kind() == "reference_declarator";
            let mut stored = Lanes::Uni(Val::Unknown(true));
            if let Some(value) = value {
                let value = if matches!(value.node_kind(), "initializer_list" | "argument_list") {
                    let parts: Vec<Node<'t>> = named_children(value).collect();
                    match parts.as_slice() {
                        [single] => *single,
                        _ => {
                            for child in parts {
                                self.eval(child, mask, depth + 1)?;
                            }
                            self.scopes.push((
                                text(name, source),
                                Lanes::Uni(Val::Unknown(true)),
                                type_text,
                            ));
                            continue;
                        }
                    }
                } else {
                    value
                };
                let evaluated = self.eval(value, mask, depth + 1)?;
                let arrays = &self.program.arrays;
                let kinds = &self.program.kinds;
                stored = evaluated.convert(|v| match v {
                    Val::Ptr(p) if pointer => {
                        let kind = kinds.get(p.kind);
                        match *element_size.get_or_init(|| pointee_size(type_text)) {
                            Some(size) if kind.is_some_and(|k| size == k.element) => Val::Ptr(p),
                            _ if same_type(
                                type_text,
                                kind.and_then(|k| arrays.get(k.array as usize))
                                    .map_or("", |a| a.element_type.as_str()),
                            ) =>
                            {
                                Val::Ptr(p)
                            }
                            _ => Val::Unknown(true),
                        }
                    }
                    Val::Ptr(_) => Val::Unknown(true),
                    Val::Int(..) | Val::Chosen(_) if integral && !pointer && !reference => v,
                    Val::Load(..) | Val::Held(..) if !pointer && !reference => v,
                    other => Val::Unknown(other.varies()),
                });
                stored = self.held_as(&stored, type_text);
            }
            self.scopes.push((text(name, source), stored, type_text));
        }
        Ok(())
    }

    // ---- expressions ------------------------------------------------------------------

    fn eval(&mut self, node: Node<'t>, mask: Mask, depth: usize) -> Result<Vals, Invalid> {
        if depth > MAX_NESTING {
            return Err(Invalid);
        }
        self.step(mask)?;
        let unknown = |varies: bool| Ok(Lanes::Uni(Val::Unknown(varies)));
        match node.node_kind() {
            "number_literal" => {
                let literal = self.text(node);
                Ok(Lanes::Uni(
                    crate::model::size::parse_number(literal)
                        .filter(|_| !literal.contains(['.', 'e', 'E']) || literal.starts_with("0x"))
                        .and_then(|v| i64::try_from(v).ok())
                        .map_or(Val::Unknown(false), |v| Val::Int(v, false)),
                ))
            }
            "true" => Ok(Lanes::Uni(Val::Int(1, false))),
            "false" => Ok(Lanes::Uni(Val::Int(0, false))),
            "char_literal" | "string_literal" | "null" | "nullptr" => unknown(false),
            "parenthesized_expression" => {
                match named_children(node).find(|c| c.node_kind() != "comment") {
                    Some(inner) => self.eval(inner, mask, depth + 1),
                    None => unknown(true),
                }
            }
            "identifier" => {
                // the local is looked up once, for its place and its value
                let name = self.text(node);
                let Some(position) = self.position(name) else {
                    return Ok(self.global_value(name));
                };
                match self.scalar_place(name, &self.scopes[position].1) {
                    Some(loc) => Ok(self.read(node, &Lanes::Uni(loc), mask)),
                    None => Ok(self.scopes[position].1.clone()),
                }
            }
            "field_expression" => {
                let Some(argument) = self.part(node, Part::Argument) else {
                    return unknown(true);
                };
                let field = self
                    .part(node, Part::Field)
                    .map(|f| self.text(f))
                    .unwrap_or("");
                let axis = match field {
                    "x" => Some(0),
                    "y" => Some(1),
                    "z" => Some(2),
                    _ => None,
                };
                match (self.text(argument), axis) {
                    ("threadIdx", Some(a)) => Ok(self.coordinates[a].clone()),
                    ("blockDim", Some(a)) => Ok(Lanes::Uni(Val::Int(self.block[a], false))),
                    ("blockIdx", Some(_)) => Ok(Lanes::Uni(Val::Int(0, false))),
                    ("gridDim", Some(_)) => unknown(false),
                    _ => {
                        // a member of something: evaluate the object for its reads, not followed
                        let object = self.eval(argument, mask, depth + 1)?;
                        Ok(object.convert(|v| Val::Unknown(v.varies())))
                    }
                }
            }
            "binary_expression" => {
                let (Some(left), Some(right)) =
                    (self.part(node, Part::Left), self.part(node, Part::Right))
                else {
                    return unknown(true);
                };
                let op = self.program.operator(node);
                let l = self.eval(left, mask, depth + 1)?;
                if op == "&&" || op == "||" {
                    return self.logical(op == "||", &l, right, mask, depth);
                }
                let r = self.eval(right, mask, depth + 1)?;
                let op = Op::parse(op);
                Ok(binary_lanes(op, &l, &r, &self.program.kinds))
            }
            "unary_expression" => {
                let Some(argument) = self.part(node, Part::Argument) else {
                    return unknown(true);
                };
                let v = self.eval(argument, mask, depth + 1)?;
                let op = self.program.operator(node);
                Ok(v.map(|v| match (op, v) {
                    ("-", Val::Int(x, t)) => {
                        x.checked_neg().map_or(Val::Unknown(t), |x| Val::Int(x, t))
                    }
                    ("+", v) => v,
                    ("!", Val::Int(x, t)) => Val::Int((x == 0) as i64, t),
                    ("!", Val::Ptr(_)) => Val::Int(0, true),
                    ("~", Val::Int(x, t)) => Val::Int(!x, t),
                    ("-", Val::Chosen(x)) => {
                        x.checked_neg().map_or(Val::Unknown(false), Val::Chosen)
                    }
                    (_, v) => Val::Unknown(v.varies()),
                }))
            }
            "conditional_expression" => {
                let Some(condition) = self.part(node, Part::Condition) else {
                    return unknown(true);
                };
                let c = self.eval(condition, mask, depth + 1)?;
                let (yes, no, open) = self.split(&c, mask);
                let before = self.speculative;
                self.speculative = self.speculative.or(open);
                let a = match self.part(node, Part::Consequence) {
                    Some(n) if !yes.or(open).is_empty() => self.eval(n, yes.or(open), depth + 1),
                    _ => unknown(true),
                };
                let b = match self.part(node, Part::Alternative) {
                    Some(n) if !no.or(open).is_empty() => self.eval(n, no.or(open), depth + 1),
                    _ => unknown(true),
                };
                self.speculative = before;
                let (a, b) = (a?, b?);
                if let (Lanes::Uni(_), true) = (&c, open.is_empty()) {
                    return Ok(if yes.is_empty() { b } else { a });
                }
                Ok(Lanes::from_fn(self.lanes, |lane| {
                    match c.get(lane).truth() {
                        Some(true) => a.get(lane),
                        Some(false) => b.get(lane),
                        None => match (a.get(lane), b.get(lane)) {
                            (Val::Int(x, s), Val::Int(y, t)) if x == y => {
                                Val::Int(x, s || t || c.get(lane).varies())
                            }
                            _ => Val::Unknown(true),
                        },
                    }
                }))
            }
            "cast_expression" => {
                let Some(value) = self.part(node, Part::Value) else {
                    return unknown(true);
                };
                let v = self.eval(value, mask, depth + 1)?;
                let type_text = self
                    .part(node, Part::Type)
                    .map(|t| self.text(t))
                    .unwrap_or("");
                let cast = Cast::new(type_text, &self.program.arrays);
                Ok(cast.apply_lanes(&v, &self.program.kinds))
            }
            "assignment_expression" => self.assignment(node, mask, depth),
            "update_expression" => {
                let Some(argument) = self.part(node, Part::Argument) else {
                    return unknown(true);
                };
                let op = self.program.operator(node);
                let delta = if op == "--" { -1 } else { 1 };
                let prefix = node.child(0).is_some_and(|c| !c.is_named());
                match self.place(argument, mask, depth)? {
                    Place::Local(name) => {
                        let old = self.identifier_value(name);
                        let one = Lanes::Uni(Val::Int(delta, false));
                        let new = binary_lanes(Op::Add, &old, &one, &self.program.kinds);
                        self.assign_local(name, &new, mask);
                        Ok(if prefix { new } else { old })
                    }
                    Place::Memory(node, locs) => {
                        self.access(node, &locs, mask, AccessKind::ReadWrite, None);
                        unknown(true)
                    }
                }
            }
            "subscript_expression" | "pointer_expression" => {
                if node.node_kind() == "pointer_expression" && self.program.operator(node) == "&" {
                    let Some(argument) = self.part(node, Part::Argument) else {
                        return unknown(true);
                    };
                    return Ok(match self.place(argument, mask, depth)? {
                        Place::Memory(_, locs) => locs.map(|loc| match loc {
                            Loc::Shared { ptr, .. } => Val::Ptr(ptr),
                            Loc::Elsewhere(_) | Loc::Indexed(_) => Val::Unknown(true),
                        }),
                        Place::Local(_) => Lanes::Uni(Val::Unknown(true)),
                    });
                }
                match self.place(node, mask, depth)? {
                    Place::Memory(node, locs) => Ok(self.read(node, &locs, mask)),
                    Place::Local(name) => Ok(self.identifier_value(name)),
                }
            }
            "call_expression" => self.call(node, mask, depth),
            "comma_expression" => {
                let mut last = Lanes::Uni(Val::Unknown(true));
                for child in named_children(node) {
                    last = self.eval(child, mask, depth + 1)?;
                }
                Ok(last)
            }
            "sizeof_expression" => {
                let size = self
                    .part(node, Part::Type)
                    .and_then(|t| crate::model::size::builtin_size(self.text(t)))
                    .and_then(|v| i64::try_from(v).ok());
                Ok(Lanes::Uni(
                    size.map_or(Val::Unknown(false), |s| Val::Int(s, false)),
                ))
            }
            "lambda_expression" => unknown(true),
            "gnu_asm_expression" => {
                self.poison(mask);
                unknown(true)
            }
            _ => {
                // anything else: evaluate the parts for their reads; the value is not followed
                let mut varies = Lanes::Uni(false);
                for child in named_children(node) {
                    if child.node_kind().ends_with("_statement") {
                        self.stop(mask);
                        return unknown(true);
                    }
                    let v = self.eval(child, mask, depth + 1)?;
                    varies = varies.zip(&v, |a, v| a || v.varies());
                }
                Ok(varies.map(Val::Unknown))
            }
        }
    }

    /// `l && right` (or `||`): a thread whose left value decides does not evaluate the right;
    /// one whose left value is unknown evaluates it speculatively.
    fn logical(
        &mut self,
        or: bool,
        l: &Vals,
        right: Node<'t>,
        mask: Mask,
        depth: usize,
    ) -> Result<Vals, Invalid> {
        let short = Some(or);
        let (yes, no, open) = self.split(l, mask);
        let rest = if or { no } else { yes }.or(open);
        let r = if rest.is_empty() {
            Lanes::Uni(Val::Unknown(true))
        } else {
            let before = self.speculative;
            self.speculative = self.speculative.or(open);
            let r = self.eval(right, rest, depth + 1);
            self.speculative = before;
            r?
        };
        if rest.is_empty() && matches!(l, Lanes::Uni(_)) {
            return Ok(l.map(|v| Val::Int(or as i64, v.varies())));
        }
        Ok(l.zip(&r, |l, r| {
            if l.truth() == short {
                return Val::Int(or as i64, l.varies());
            }
            let varies = l.varies() || r.varies();
            match (l.truth(), r.truth()) {
                (Some(_), Some(b)) => Val::Int(b as i64, varies),
                (None, Some(b)) if Some(b) == short => Val::Int(b as i64, varies),
                _ => Val::Unknown(varies),
            }
        }))
    }

    fn identifier_value(&self, name: &'t str) -> Vals {
        if let Some(v) = self.lookup(name) {
            return v.clone();
        }
        self.global_value(name)
    }

    /// The value of a name that is not a local: a constant of the file, a `#define`.
    fn global_value(&self, name: &'t str) -> Vals {
        if let Some(v) = self.program.named_constant(name) {
            return Lanes::Uni(Val::Int(v, false));
        }
        // `#define tid threadIdx.x`
        if let Some(value) = self.program.scope.define(name) {
            let compact: String = value
                .chars()
                .filter(|c| !c.is_whitespace() && *c != '(' && *c != ')')
                .collect();
            if let Some((object, field)) = compact.split_once('.') {
                let axis = match field {
                    "x" => 0,
                    "y" => 1,
                    "z" => 2,
                    _ => return Lanes::Uni(Val::Unknown(false)),
                };
                return match object {
                    "threadIdx" => self.coordinates[axis].clone(),
                    "blockDim" => Lanes::Uni(Val::Int(self.block[axis], false)),
                    "blockIdx" => Lanes::Uni(Val::Int(0, false)),
                    _ => Lanes::Uni(Val::Unknown(false)),
                };
            }
        }
        match name {
            "warpSize" => Lanes::Uni(Val::Int(self.program.scope.warp, false)),
            _ => Lanes::Uni(Val::Unknown(false)),
        }
    }

    /// Nothing is concluded in the barrier intervals the threads of `mask` are in.
    fn poison(&mut self, mask: Mask) {
        for lane in mask.and(self.alive).lanes() {
            let epoch = self.epoch[lane];
            if !self.log.poisoned.contains(&epoch) {
                self.log.poisoned.push(epoch);
            }
        }
    }

    /// The place an lvalue expression names.
    fn place(&mut self, node: Node<'t>, mask: Mask, depth: usize) -> Result<Place<'t>, Invalid> {
        if depth > MAX_NESTING {
            return Err(Invalid);
        }
        let elsewhere = |node| Place::Memory(node, Lanes::Uni(Loc::Elsewhere(true)));
        match node.node_kind() {
            "parenthesized_expression" => {
                match named_children(node).find(|c| c.node_kind() != "comment") {
                    Some(inner) => self.place(inner, mask, depth + 1),
                    None => Ok(elsewhere(node)),
                }
            }
            "identifier" => Ok(self
                .place_of_identifier(node)
                .unwrap_or_else(|| elsewhere(node))),
            "subscript_expression" => {
                let (Some(base), Some(index)) = (
                    self.part(node, Part::Argument),
                    self.part(node, Part::Index),
                ) else {
                    return Ok(elsewhere(node));
                };
                let base = self.eval_pointer(base, mask, depth)?;
                let index = self.eval(index, mask, depth + 1)?;
                Ok(Place::Memory(node, self.offset(&base, &index, true, mask)))
            }
            "pointer_expression" if self.program.operator(node) == "*" => {
                let Some(argument) = self.part(node, Part::Argument) else {
                    return Ok(elsewhere(node));
                };
                let pointer = self.eval(argument, mask, depth + 1)?;
                let zero = Lanes::Uni(Val::Int(0, false));
                Ok(Place::Memory(
                    node,
                    self.offset(&pointer, &zero, false, mask),
                ))
            }
            "field_expression" => {
                // a member of a shared struct: members are not told apart, so not followed
                if let Some(argument) = self.part(node, Part::Argument) {
                    if argument.node_kind() != "identifier" {
                        self.eval(argument, mask, depth + 1)?;
                    }
                }
                Ok(elsewhere(node))
            }
            _ => {
                self.eval(node, mask, depth + 1)?;
                Ok(elsewhere(node))
            }
        }
    }

    /// The base of a subscript: an array or pointer value (a row of a 2D array stays a pointer).
    fn eval_pointer(&mut self, base: Node<'t>, mask: Mask, depth: usize) -> Result<Vals, Invalid> {
        let stripped = crate::syntax::strip(base, self.source());
        if stripped.node_kind() == "subscript_expression" {
            return Ok(match self.place(stripped, mask, depth + 1)? {
                Place::Memory(node, locs) => {
                    let values = self.read(node, &locs, mask);
                    match &locs {
                        Lanes::Linear(linear) if matches!(linear.shape, Loc::Shared { .. }) => {
                            values
                        }
                        Lanes::Linear(_) => Lanes::Uni(Val::Unknown(true)),
                        _ => locs.zip(&values, |loc, value| match loc {
                            Loc::Shared { .. } => value,
                            Loc::Elsewhere(_) | Loc::Indexed(_) => Val::Unknown(true),
                        }),
                    }
                }
                Place::Local(_) => Lanes::Uni(Val::Unknown(true)),
            });
        }
        if stripped.node_kind() == "identifier" {
            return Ok(self.identifier_value(self.text(stripped)));
        }
        self.eval(base, mask, depth + 1)
    }

    /// A shared scalar or a local named by `node`; None for anything else (a global, a constant).
    fn place_of_identifier(&self, node: Node<'t>) -> Option<Place<'t>> {
        let name = self.text(node);
        let value = self.lookup(name)?;
        Some(match self.scalar_place(name, value) {
            Some(loc) => Place::Memory(node, Lanes::Uni(loc)),
            None => Place::Local(name),
        })
    }

    /// The element of a shared scalar, where local `name` holding `value` names one.
    fn scalar_place(&self, name: &str, value: &Vals) -> Option<Loc> {
        match value {
            Lanes::Uni(Val::Ptr(p))
                if self
                    .program
                    .kinds
                    .get(p.kind)
                    .and_then(|kind| self.program.arrays.get(kind.array as usize))
                    .is_some_and(|a| a.scalar && a.name == name)
                    && { p.byte } == 0 =>
            {
                Some(Loc::Shared {
                    ptr: *p,
                    row: false,
                })
            }
            _ => None,
        }
    }

    /// `base[index]` (or `*base`) per thread: the element's place, checked against the array's
    /// extents (a logged thread out of them marks the run as not fitting).
    fn offset(&mut self, base: &Vals, index: &Vals, subscript: bool, mask: Mask) -> Lanes<Loc> {
        let kinds = &self.program.kinds;
        // the threads of one subscript mostly share the kind of their pointer
        let mut cached: Option<(u32, Option<Step>)> = None;
        let mut step_of = |kind: u32| match cached {
            Some((known, step)) if known == kind => step,
            _ => {
                let step = kinds.step(kind);
                cached = Some((kind, step));
                step
            }
        };
        let locs = match (base, index) {
            (Lanes::Uni(b), Lanes::Uni(i)) => Lanes::Uni(offset(*b, *i, subscript, &mut step_of)),
            _ => linear_offset(base, index, subscript, &mut step_of).unwrap_or_else(|| {
                Lanes::per(
                    (0..self.lanes)
                        .map(|lane| {
                            offset(base.get(lane), index.get(lane), subscript, &mut step_of)
                        })
                        .collect(),
                )
            }),
        };
        if subscript && !within_extent(base, index, &mut step_of) {
            // a logged thread that would leave the array's first extent
            let mut leaves_at = |lane: usize| match (base.get(lane), index.get(lane)) {
                (Val::Ptr(ptr), Val::Int(index, _)) => step_of(ptr.kind)
                    .and_then(|step| step.extent)
                    .is_some_and(|extent| index < 0 || index >= extent),
                _ => false,
            };
            let certain = self.certain(mask);
            let leaves = match (base, index) {
                (Lanes::Uni(_), Lanes::Uni(_)) => !certain.is_empty() && leaves_at(0),
                _ => certain.lanes().any(&mut leaves_at),
            };
            if leaves {
                self.log.outside = true;
            }
        }
        locs
    }

    /// Logs the reads the threads of `mask` make at `locs`; each thread's value.
    fn read(&mut self, node: Node<'t>, locs: &Lanes<Loc>, mask: Mask) -> Vals {
        self.access(node, locs, mask, AccessKind::Read, None);
        let indexed = match locs {
            Lanes::Uni(loc) => matches!(loc, Loc::Indexed(_)),
            Lanes::Linear(linear) => matches!(linear.shape, Loc::Indexed(_)),
            Lanes::Per(locs) => locs.iter().any(|l| matches!(l, Loc::Indexed(_))),
        };
        let site = if indexed { self.log.site(node) } else { 0 };
        if let Lanes::Linear(linear) = locs {
            // the same variant for every thread: a row is a pointer at the same byte, a read of
            // memory not followed the value at the same index
            let shape = match linear.shape {
                Loc::Shared { ptr, row: true } => Val::Ptr(ptr),
                Loc::Shared { ptr, row: false } => Val::Held(self.held_token(ptr.kind), ptr.byte),
                Loc::Elsewhere(varies) => return Lanes::Uni(Val::Unknown(varies)),
                Loc::Indexed(index) => Val::Load(site, index),
            };
            return Lanes::Linear(Linear {
                shape,
                base: linear.base,
                coef: linear.coef,
                block: linear.block,
            });
        }
        let mut last: Option<(u32, u32)> = None;
        let mut value = |block: &mut Self, loc: Loc| match loc {
            Loc::Shared { ptr, row: true } => Val::Ptr(ptr),
            Loc::Shared { ptr, row: false } => {
                let token = match last {
                    Some((kind, token)) if kind == ptr.kind => token,
                    _ => block.held_token(ptr.kind),
                };
                last = Some((ptr.kind, token));
                Val::Held(token, ptr.byte)
            }
            Loc::Elsewhere(varies) => Val::Unknown(varies),
            Loc::Indexed(index) => Val::Load(site, index),
        };
        match locs {
            Lanes::Uni(loc) => Lanes::Uni(value(self, *loc)),
            _ => Lanes::per(
                (0..self.lanes)
                    .map(|lane| value(self, locs.get(lane)))
                    .collect(),
            ),
        }
    }

    /// Logs the accesses of the certain threads of `mask` to shared elements; a write stores
    /// `stored` (None: a value that may differ between threads).
    fn access(
        &mut self,
        node: Node<'t>,
        locs: &Lanes<Loc>,
        mask: Mask,
        kind: AccessKind,
        stored: Option<&Lanes<Stored>>,
    ) {
        if kind.writes() {
            let back = match stored {
                Some(Lanes::Uni(stored)) => *stored == Stored::Back,
                Some(stored) => mask
                    .and(self.alive)
                    .lanes()
                    .all(|lane| stored.get(lane) == Stored::Back),
                None => false,
            };
            if !back {
                self.writes = self.writes.wrapping_add(1);
            }
        }
        let logged = self.certain(mask);
        if logged.is_empty() {
            return;
        }
        if let Lanes::Uni(Loc::Elsewhere(_) | Loc::Indexed(_) | Loc::Shared { row: true, .. })
        | Lanes::Linear(Linear {
            shape: Loc::Elsewhere(_) | Loc::Indexed(_) | Loc::Shared { row: true, .. },
            ..
        }) = locs
        {
            return;
        }
        let site = self.log.site(node);
        // the array and sizes of the last kind met: the threads of one access share it
        let mut last: Option<(u32, Pointee)> = None;
        if let Some(deferred) = self.defer_linear(locs, logged, site, kind, stored, &mut last) {
            self.log.deferred.push(deferred);
            return;
        }
        if kind == AccessKind::Read {
            // a read whose threads are all in one interval, on one kind of pointer, is put
            // aside while no write has touched that interval's array (`Log::defer`)
            let mut common: Option<(u32, u32, u32)> = None;
            let mut alike = true;
            for lane in logged.lanes() {
                let Loc::Shared { ptr, row: false } = locs.get(lane) else {
                    continue;
                };
                let here = (ptr.kind, self.epoch[lane], self.warp_syncs[lane]);
                match common {
                    None => common = Some(here),
                    Some(seen) if seen == here => {}
                    Some(_) => alike = false,
                }
                let Some(pointee) = self.pointee(ptr.kind, &mut last) else {
                    alike = false;
                    continue;
                };
                let byte = ptr.byte;
                if byte < 0
                    || pointee
                        .total
                        .is_some_and(|total| byte + pointee.size > total)
                {
                    self.log.outside = true;
                    return;
                }
            }
            let Some((kind_id, epoch, warp_syncs)) = common else {
                return;
            };
            if alike {
                if let Some((_, pointee)) = last.filter(|(k, _)| *k == kind_id) {
                    let key = (epoch, pointee.array);
                    if self.log.may_defer(key, false) {
                        self.log.deferred.push(Deferred {
                            key,
                            site,
                            kind,
                            locs: locs.clone(),
                            lanes: logged,
                            pointee,
                            warp_syncs,
                            stored: None,
                        });
                        return;
                    }
                }
            }
        }
        for lane in logged.lanes() {
            let Loc::Shared { ptr, row: false } = locs.get(lane) else {
                continue;
            };
            let Some(pointee) = self.pointee(ptr.kind, &mut last) else {
                continue;
            };
            let byte = ptr.byte;
            let outside = byte < 0
                || pointee
                    .total
                    .is_some_and(|total| byte + pointee.size > total);
            if outside {
                self.log.outside = true;
                return;
            }
            let record = Record {
                linear: lane as i64,
                warp: lane as i64 / self.program.scope.warp,
                start: byte,
                size: pointee.size,
                site,
                kind,
                warp_syncs: self.warp_syncs[lane],
                stored: stored.map_or(Stored::Varying, |s| s.get(lane)),
            };
            self.log
                .record(self.epoch[lane], pointee.array, pointee.unit, record);
        }
    }

    /// An access through a linear form of places to put aside (`Log::may_defer`): every logged
    /// thread inside the array (its least and greatest byte are), in one interval, with one
    /// `__syncwarp()` count, and for a write, no two threads on a common byte. None where it is
    /// logged thread by thread.
    fn defer_linear(
        &self,
        locs: &Lanes<Loc>,
        logged: Mask,
        site: u32,
        kind: AccessKind,
        stored: Option<&Lanes<Stored>>,
        last: &mut Option<(u32, Pointee)>,
    ) -> Option<Deferred> {
        let Lanes::Linear(linear) = locs else {
            return None;
        };
        let Loc::Shared { ptr, row: false } = linear.shape else {
            return None;
        };
        let pointee = self.pointee(ptr.kind, last)?;
        let (low, high) = linear.range();
        let inside = low >= 0
            && pointee
                .total
                .is_none_or(|total| high + i128::from(pointee.size) <= i128::from(total));
        if !inside {
            return None;
        }
        // the logged threads are alive: where every alive thread is at one interval, so are they
        let (epoch, warp_syncs) = match self.common_interval() {
            Some(at) => at,
            None => {
                let mut lanes = logged.lanes();
                let first = lanes.next()?;
                let at = (*self.epoch.get(first)?, *self.warp_syncs.get(first)?);
                if !lanes.all(|lane| {
                    self.epoch.get(lane) == Some(&at.0) && self.warp_syncs.get(lane) == Some(&at.1)
                }) {
                    return None;
                }
                at
            }
        };
        let key = (epoch, pointee.array);
        if kind.writes() && !linear.apart(pointee.size) {
            return None;
        }
        if !self.log.may_defer(key, kind.writes()) {
            return None;
        }
        Some(Deferred {
            key,
            site,
            kind,
            locs: locs.clone(),
            lanes: logged,
            pointee,
            warp_syncs,
            stored: stored.cloned(),
        })
    }

    /// The array a pointer of kind `kind` points into, and the sizes an access through it
    /// reads; `last` keeps the last answer.
    fn pointee(&self, kind: u32, last: &mut Option<(u32, Pointee)>) -> Option<Pointee> {
        if let Some((known, pointee)) = last {
            if *known == kind {
                return Some(*pointee);
            }
        }
        let target = self.program.kinds.get(kind)?;
        let array = self.program.arrays.get(target.array as usize)?;
        let pointee = Pointee {
            array: target.array,
            size: target.element.max(1),
            unit: array.element,
            total: array.bytes(),
        };
        *last = Some((kind, pointee));
        Some(pointee)
    }

    fn assignment(&mut self, node: Node<'t>, mask: Mask, depth: usize) -> Result<Vals, Invalid> {
        let (Some(left), Some(right)) = (self.part(node, Part::Left), self.part(node, Part::Right))
        else {
            return Ok(Lanes::Uni(Val::Unknown(true)));
        };
        let op = self.program.operator(node);
        let value = self.eval(right, mask, depth + 1)?;
        match self.place(left, mask, depth)? {
            Place::Local(name) => {
                let new = if op == "=" {
                    value
                } else {
                    let old = self.identifier_value(name);
                    let op = Op::parse(op.trim_end_matches('='));
                    binary_lanes(op, &old, &value, &self.program.kinds)
                };
                let was_pointer = self.lookup(name).map(|v| match v {
                    Lanes::Linear(old) => Lanes::Uni(matches!(old.shape, Val::Ptr(_))),
                    _ => v.map(|v| matches!(v, Val::Ptr(_))),
                });
                // an integer local keeps integers; a pointer keeps pointers
                let keep = |new: Val, was: bool| match (was, new) {
                    (true, Val::Ptr(_)) | (_, Val::Int(..)) => new,
                    (_, Val::Ptr(_)) => Val::Unknown(true),
                    _ => new,
                };
                let new = match was_pointer {
                    Some(Lanes::Uni(was)) => new.convert(|new| keep(new, was)),
                    Some(was) => new.zip(&was, keep),
                    None => new.convert(|new| keep(new, false)),
                };
                self.assign_local(name, &new, mask);
                Ok(new)
            }
            Place::Memory(target, locs) => {
                if op == "=" {
                    // a value every thread computes the same way here is told apart by its site
                    let site_of_value = match &value {
                        Lanes::Uni(Val::Unknown(false)) => self.log.site(right),
                        Lanes::Per(values) if values.contains(&Val::Unknown(false)) => {
                            self.log.site(right)
                        }
                        Lanes::Linear(linear) if linear.shape == Val::Unknown(false) => {
                            self.log.site(right)
                        }
                        _ => 0,
                    };
                    // a value read from the element it goes back to, through the same kind of
                    // pointer, with no write since: the element keeps its value
                    let (held, writes) = (&self.held, self.writes);
                    let store = |v: Val, loc: Loc| match (v, loc) {
                        (Val::Held(token, byte), Loc::Shared { ptr, row: false })
                            if ptr.byte == byte
                                && held.get(token as usize) == Some(&(ptr.kind, writes)) =>
                        {
                            Stored::Back
                        }
                        (Val::Int(v, _) | Val::Chosen(v), _) => Stored::Int(v),
                        (Val::Unknown(false), _) => Stored::Uniform(site_of_value),
                        (Val::Load(site, index), _) => Stored::Load(site, index),
                        _ => Stored::Varying,
                    };
                    let stored = match &value {
                        // only a value an element held is stored by where it goes: any other
                        // every thread shares is stored alike at every place
                        Lanes::Uni(v) if !matches!(v, Val::Held(..)) => {
                            Lanes::Uni(store(*v, Loc::Elsewhere(true)))
                        }
                        _ => value.zip(&locs, store),
                    };
                    self.access(target, &locs, mask, AccessKind::Write, Some(&stored));
                } else {
                    self.access(target, &locs, mask, AccessKind::ReadWrite, None);
                }
                Ok(Lanes::Uni(Val::Unknown(true)))
            }
        }
    }

    fn call(&mut self, node: Node<'t>, mask: Mask, depth: usize) -> Result<Vals, Invalid> {
        let source = self.source();
        let Some(function) = self.part(node, Part::Function) else {
            return Ok(Lanes::Uni(Val::Unknown(true)));
        };
        if crate::syntax::is_functional_cast(node, source) {
            let inner = self
                .part(node, Part::Arguments)
                .and_then(|a| named_children(a).next());
            let value = match inner {
                Some(inner) => self.eval(inner, mask, depth + 1)?,
                None => Lanes::Uni(Val::Unknown(true)),
            };
            let type_text = match function.node_kind() {
                "template_function" => self
                    .part(function, Part::Arguments)
                    .map(|a| self.text(a).trim_matches(['<', '>']))
                    .unwrap_or(""),
                _ => self.text(function),
            };
            let cast = Cast::new(type_text, &self.program.arrays);
            return Ok(cast.apply_lanes(&value, &self.program.kinds));
        }
        if is_block_barrier(node, source) {
            if let Some(arguments) = self.part(node, Part::Arguments) {
                for argument in named_children(arguments) {
                    self.eval(argument, mask, depth + 1)?;
                }
            }
            // a barrier reached speculatively: those threads stop there
            self.stop(mask.and(self.speculative));
            let passing = mask.and(self.alive);
            self.passed.pass(passing, node);
            for lane in passing.lanes() {
                self.epoch[lane] += 1;
            }
            self.common.set(None);
            self.close_intervals();
            // `__syncthreads_count` and the like return the same value to every thread
            return Ok(Lanes::Uni(Val::Unknown(false)));
        }
        let name = self.text(function);
        let short = name.rsplit("::").next().unwrap_or(name);
        let short = short.split('<').next().unwrap_or(short).trim();
        let arguments: Vec<Node<'t>> = self
            .part(node, Part::Arguments)
            .map(|a| {
                named_children(a)
                    .filter(|c| c.node_kind() != "comment")
                    .collect()
            })
            .unwrap_or_default();
        if short.starts_with("atomic")
            || short.starts_with("__atomic")
            || short.starts_with("cuda::atomic")
        {
            // an atomic updates the element its address names: atomics do not race with each
            // other (`benign`), a plain access of another thread does
            self.writes = self.writes.wrapping_add(1);
            let mut target: Option<Lanes<Loc>> = None;
            for (position, argument) in arguments.iter().enumerate() {
                if position == 0 {
                    let stripped = crate::syntax::strip(*argument, source);
                    if stripped.node_kind() == "pointer_expression"
                        && self.program.operator(stripped) == "&"
                    {
                        if let Some(inner) = self.part(stripped, Part::Argument) {
                            if let Place::Memory(_, locs) = self.place(inner, mask, depth + 1)? {
                                target = Some(locs);
                            }
                        }
                        continue;
                    }
                    let address = self.eval(*argument, mask, depth + 1)?;
                    let kinds = &self.program.kinds;
                    target = Some(address.map(|v| match v {
                        // a pointer to an element, not to a row
                        Val::Ptr(ptr) if kinds.get(ptr.kind).is_some_and(|k| k.shape.len == 0) => {
                            Loc::Shared { ptr, row: false }
                        }
                        _ => Loc::Elsewhere(true),
                    }));
                    continue;
                }
                self.eval(*argument, mask, depth + 1)?;
            }
            if let Some(locs) = target {
                let atomic = Lanes::Uni(Stored::Atomic);
                self.access(node, &locs, mask, AccessKind::ReadWrite, Some(&atomic));
            }
            return Ok(Lanes::Uni(Val::Unknown(true)));
        }
        if function.node_kind() == "field_expression" {
            // a method: its object and arguments are evaluated for their reads
            if let Some(object) = self.part(function, Part::Argument) {
                self.eval(object, mask, depth + 1)?;
            }
        }
        let mut values = Vec::with_capacity(arguments.len());
        for argument in &arguments {
            values.push(self.eval(*argument, mask, depth + 1)?);
        }
        if orders_lanes(short) {
            // after its operands are read: no lane leaves it before every lane of the mask has
            // reached it
            self.stop(mask.and(self.speculative));
            for lane in mask.and(self.alive).lanes() {
                self.warp_syncs[lane] += 1;
            }
            self.common.set(None);
        }
        if self.program.call_may_sync(node) {
            self.writes = self.writes.wrapping_add(1);
            self.poison(mask);
            return Ok(Lanes::Uni(Val::Unknown(true)));
        }
        if let Some(helper) = self.followed(short, &values) {
            self.follow(&helper, &values, mask, depth)?;
            return Ok(Lanes::Uni(Val::Unknown(true)));
        }
        let mut varies: Lanes<bool> = Lanes::Uni(false);
        for value in &values {
            varies = varies.zip(value, |a, v| a || v.varies());
        }
        let fold = |f: fn(i64, i64) -> Option<i64>| -> Vals {
            let both = values[0].zip(&values[1], |a, b| match (a, b) {
                (Val::Int(a, _), Val::Int(b, _)) => f(a, b),
                _ => None,
            });
            both.zip(&varies, |v, varies| match v {
                Some(v) => Val::Int(v, varies),
                None => Val::Unknown(varies),
            })
        };
        Ok(match (short, values.len()) {
            ("min" | "umin" | "imin" | "llmin" | "MIN", 2) => fold(|a, b| Some(a.min(b))),
            ("max" | "umax" | "imax" | "llmax" | "MAX", 2) => fold(|a, b| Some(a.max(b))),
            ("__mul24" | "__umul24", 2) => fold(|a, b| a.checked_mul(b)),
            ("abs", 1) => values[0].zip(&varies, |a, varies| match a {
                Val::Int(a, _) => Val::Int(a.abs(), varies),
                _ => Val::Unknown(varies),
            }),
            ("thread_rank", 0) => self.linear.clone(),
            ("__lane_id" | "laneid", 0) => self.lane_id.clone(),
            _ if is_pure_builtin(short) => varies.map(Val::Unknown),
            // a helper of this file with no barrier: its result is followed no further, and what
            // it may write through its arguments is not known
            _ => {
                self.writes = self.writes.wrapping_add(1);
                Lanes::Uni(Val::Unknown(true))
            }
        })
    }
}

impl<'p, 'm, 't> Block<'p, 'm, 't> {
    /// The function of the file a call to `name` with these arguments runs, when the run follows
    /// it: a shared pointer is among the arguments or it names a file-scope shared array, it
    /// declares no shared array of its own, and the calls followed are not deeper than
    /// `MAX_CALLS`. A call that touches no shared memory is not followed.
    fn followed(&self, name: &str, values: &[Vals]) -> Option<Rc<Helper<'t>>> {
        if self.calls >= MAX_CALLS {
            return None;
        }
        let helper = self.program.scope.helpers.get(name)?.as_ref()?;
        if !helper.complete || helper.parameters.len() != values.len() {
            return None;
        }
        let pointer = |v: &Val| matches!(v, Val::Ptr(_));
        let passes_shared = values.iter().any(|value| match value {
            Lanes::Uni(v) => pointer(v),
            Lanes::Linear(linear) => pointer(&linear.shape),
            Lanes::Per(values) => values.iter().any(pointer),
        });
        let scope = self.program.scope;
        let (names_global, declares) = *helper.shared.get_or_init(|| {
            let body = text(helper.body, scope.source);
            (
                scope.globals.iter().any(|(name, _)| body.contains(name)),
                body.contains("__shared__"),
            )
        });
        ((passes_shared || names_global) && !declares).then(|| Rc::clone(helper))
    }

    /// Runs a function's body for the threads of `mask`, its parameters bound to the
    /// arguments' values; threads that return from it go on after the call.
    fn follow(
        &mut self,
        helper: &Helper<'t>,
        values: &[Vals],
        mask: Mask,
        depth: usize,
    ) -> Result<(), Invalid> {
        let mask = mask.and(self.alive);
        if mask.is_empty() {
            return Ok(());
        }
        let mark = self.scopes.len();
        for ((name, type_text, pointer, reference), value) in helper.parameters.iter().zip(values) {
            let integral = is_integer_type(type_text);
            let bound = value.convert(|v| match v {
                _ if *reference => Val::Unknown(true),
                Val::Ptr(_) if *pointer => v,
                Val::Ptr(_) => Val::Unknown(true),
                _ if *pointer => Val::Unknown(v.varies()),
                Val::Int(..) | Val::Chosen(_) if integral => v,
                Val::Load(..) | Val::Held(..) => v,
                other => Val::Unknown(other.varies()),
            });
            let bound = self.held_as(&bound, type_text);
            self.scopes.push((name, bound, type_text));
        }
        let (floor, returned) = (self.floor, self.returned);
        self.floor = mark;
        self.returned = Mask::NONE;
        self.calls += 1;
        let result = self.statement(helper.body, mask, depth + 1);
        self.calls -= 1;
        self.floor = floor;
        self.scopes.truncate(mark);
        self.alive = self.alive.or(self.returned.and(mask));
        self.returned = returned;
        self.common.set(None);
        result.map(|_| ())
    }
}

/// `base[index]` (or `*base`) for every thread, where a base or an index is a linear form and
/// the other one value: a linear form of places, or one place for all; None where the threads'
/// places are neither (some leave the first extent, some do not; a byte that overflows).
fn linear_offset(
    base: &Vals,
    index: &Vals,
    subscript: bool,
    step_of: &mut impl FnMut(u32) -> Option<Step>,
) -> Option<Lanes<Loc>> {
    let form = |values: &Vals| match values {
        Lanes::Uni(v) => Some((*v, None)),
        Lanes::Linear(linear) => Some((linear.shape, Some(*linear))),
        Lanes::Per(_) => None,
    };
    let (base_value, base_form) = form(base)?;
    let (index_value, index_form) = form(index)?;
    let block = match (base_form, index_form) {
        (Some(b), Some(i)) if b.block != i.block => return None,
        (Some(linear), _) | (None, Some(linear)) => linear.block,
        (None, None) => return None,
    };
    let number = |value: Val, linear: Option<Linear<Val>>| -> (i128, [i128; 3]) {
        match linear {
            Some(linear) => (i128::from(linear.base), linear.coef.map(i128::from)),
            None => match value {
                Val::Int(v, _) => (i128::from(v), [0; 3]),
                Val::Ptr(p) => (i128::from(p.byte), [0; 3]),
                _ => (0, [0; 3]),
            },
        }
    };
    // what varies and which variants meet is the same for every thread
    let varies = base_value.varies() || index_value.varies();
    let (Val::Ptr(ptr), Val::Int(..)) = (base_value, index_value) else {
        return Some(match (base_value, index_value, index_form) {
            (Val::Unknown(false), Val::Int(_, true), Some(linear)) if subscript => {
                Lanes::Linear(Linear {
                    shape: Loc::Indexed(0),
                    base: linear.base,
                    coef: linear.coef,
                    block: linear.block,
                })
            }
            (Val::Unknown(false), Val::Int(_, true), None) if subscript => return None,
            _ => Lanes::Uni(Loc::Elsewhere(varies)),
        });
    };
    let elsewhere = Some(Lanes::Uni(Loc::Elsewhere(varies)));
    let Some(step) = step_of(ptr.kind) else {
        return elsewhere;
    };
    let Some(row) = step.bytes else {
        return elsewhere;
    };
    let (index_base, index_coef) = number(index_value, index_form);
    let (low, high) = match index_form {
        Some(linear) => linear.range(),
        None => (index_base, index_base),
    };
    if let (true, Some(extent)) = (subscript, step.extent) {
        let extent = i128::from(extent);
        if high < 0 || low >= extent {
            return elsewhere;
        }
        if low < 0 || high >= extent {
            return None;
        }
    }
    // each thread computes `index * row` first
    let row = i128::from(row);
    let fits = |v: i128| i64::try_from(v).is_ok();
    if !(fits(low * row) && fits(high * row)) {
        return None;
    }
    let (byte_base, byte_coef) = number(base_value, base_form);
    let mut coef = [0i128; 3];
    for (axis, slot) in coef.iter_mut().enumerate() {
        *slot = index_coef[axis] * row + byte_coef[axis];
    }
    Linear::form(
        Loc::Shared {
            ptr: Ptr {
                kind: step.lands,
                byte: 0,
            },
            row: step.row,
        },
        index_base * row + byte_base,
        coef,
        block,
    )
}

/// Whether no thread's index leaves the first extent of its pointer, where that is known for
/// every thread at once (the base is one kind of value for all, the index one integer or a
/// linear form inside the extent); false where it must be read thread by thread.
fn within_extent(base: &Vals, index: &Vals, step_of: &mut impl FnMut(u32) -> Option<Step>) -> bool {
    let base_value = match base {
        Lanes::Uni(value) => *value,
        Lanes::Linear(linear) => linear.shape,
        Lanes::Per(_) => return false,
    };
    let Val::Ptr(ptr) = base_value else {
        return true; // no thread subscripts a pointer
    };
    let (low, high) = match index {
        Lanes::Uni(Val::Int(i, _)) => (i128::from(*i), i128::from(*i)),
        Lanes::Linear(linear) if matches!(linear.shape, Val::Int(..)) => linear.range(),
        Lanes::Uni(_) | Lanes::Linear(_) => return true, // no thread's index is an integer
        Lanes::Per(_) => return false,
    };
    match step_of(ptr.kind).and_then(|step| step.extent) {
        Some(extent) => low >= 0 && high < i128::from(extent),
        None => true,
    }
}

/// One thread's `base[index]`.
fn offset(
    base: Val,
    index: Val,
    subscript: bool,
    step_of: &mut impl FnMut(u32) -> Option<Step>,
) -> Loc {
    let varies = base.varies() || index.varies();
    let (Val::Ptr(ptr), Val::Int(index, _)) = (base, index) else {
        return match (base, index) {
            (Val::Unknown(false), Val::Int(index, true)) if subscript => Loc::Indexed(index),
            _ => Loc::Elsewhere(varies),
        };
    };
    let Some(step) = step_of(ptr.kind) else {
        return Loc::Elsewhere(varies);
    };
    let Some(row) = step.bytes else {
        return Loc::Elsewhere(varies);
    };
    if subscript
        && step
            .extent
            .is_some_and(|extent| index < 0 || index >= extent)
    {
        return Loc::Elsewhere(varies);
    }
    let Some(byte) = index.checked_mul(row).and_then(|b| b.checked_add(ptr.byte)) else {
        return Loc::Elsewhere(varies);
    };
    Loc::Shared {
        ptr: Ptr {
            kind: step.lands,
            byte,
        },
        row: step.row,
    }
}

/// A conversion to a type, read once for every thread's value.
struct Cast {
    pointer: bool,
    pointee: Option<i64>,
    /// The pointee type is the element type of the array a pointer points into.
    same_type: Vec<bool>,
    kind: IntCast,
}

#[derive(Clone, Copy)]
enum IntCast {
    Float,
    Unsigned32,
    Signed32,
    Keep,
}

impl Cast {
    fn new(type_text: &str, arrays: &[Array]) -> Cast {
        let t_norm = type_text.replace(' ', "");
        let kind =
            if t_norm.contains("float") || t_norm.contains("double") || t_norm.contains("half") {
                IntCast::Float
            } else if matches!(
                t_norm.as_str(),
                "unsigned" | "unsignedint" | "uint32_t" | "uint"
            ) {
                IntCast::Unsigned32
            } else if matches!(t_norm.as_str(), "int" | "int32_t") {
                IntCast::Signed32
            } else {
                IntCast::Keep
            };
        let pointer = type_text.contains('*');
        Cast {
            pointer,
            pointee: pointee_size(type_text),
            same_type: if pointer {
                arrays
                    .iter()
                    .map(|a| same_type(type_text, &a.element_type))
                    .collect()
            } else {
                Vec::new()
            },
            kind,
        }
    }

    /// The conversion of every thread's value. A linear form of pointers keeps its bytes (the
    /// pointer's kind alone decides); one of integers stays as it is where no thread's integer
    /// changes.
    fn apply_lanes(&self, values: &Vals, kinds: &Kinds) -> Vals {
        if let Lanes::Linear(linear) = values {
            match linear.shape {
                Val::Ptr(_) => return values.convert(|v| self.apply(v, kinds)),
                Val::Int(_, varies) => {
                    let (low, high) = linear.range();
                    let unchanged = match self.kind {
                        IntCast::Float => return Lanes::Uni(Val::Unknown(varies)),
                        IntCast::Unsigned32 => low >= 0 && high <= 0xffff_ffff,
                        IntCast::Signed32 => {
                            low >= i128::from(i32::MIN) && high <= i128::from(i32::MAX)
                        }
                        IntCast::Keep => true,
                    };
                    if unchanged {
                        return values.clone();
                    }
                }
                _ => {}
            }
        }
        values.map(|v| self.apply(v, kinds))
    }

    fn apply(&self, value: Val, kinds: &Kinds) -> Val {
        match value {
            Val::Ptr(p) => {
                if !self.pointer {
                    return Val::Unknown(true);
                }
                let Some(kind) = kinds.get(p.kind) else {
                    return Val::Unknown(true);
                };
                match self.pointee {
                    Some(size) if kind.shape.len == 0 || size == kind.element => Val::Ptr(Ptr {
                        kind: kinds.id(PtrKind {
                            element: size,
                            shape: Shape::FLAT,
                            extent: None,
                            ..kind
                        }),
                        byte: p.byte,
                    }),
                    _ if self.same_type.get(kind.array as usize) == Some(&true) => Val::Ptr(p),
                    _ => Val::Unknown(true),
                }
            }
            Val::Int(v, t) => match self.kind {
                IntCast::Float => Val::Unknown(t),
                IntCast::Unsigned32 => Val::Int(v & 0xffff_ffff, t),
                IntCast::Signed32 => Val::Int(v as i32 as i64, t),
                IntCast::Keep => Val::Int(v, t),
            },
            // a conversion may change what was read
            Val::Held(..) => Val::Unknown(true),
            other => other,
        }
    }
}

fn subscript_index(node: Node) -> Option<Node> {
    let indices = node.field("indices").or_else(|| node.field("index"))?;
    if indices.node_kind() == "subscript_argument_list" {
        named_children(indices).find(|c| c.node_kind() != "comment")
    } else {
        Some(indices)
    }
}

/// A binary operator, read once for every thread's operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    Other,
}

impl Op {
    fn parse(op: &str) -> Op {
        match op {
            "+" => Op::Add,
            "-" => Op::Sub,
            "*" => Op::Mul,
            "/" => Op::Div,
            "%" => Op::Rem,
            "<<" => Op::Shl,
            ">>" => Op::Shr,
            "&" => Op::BitAnd,
            "|" => Op::BitOr,
            "^" => Op::BitXor,
            "<" => Op::Lt,
            "<=" => Op::Le,
            ">" => Op::Gt,
            ">=" => Op::Ge,
            "==" => Op::Eq,
            "!=" => Op::Ne,
            _ => Op::Other,
        }
    }
}

/// `l op r` for every thread. A linear form stays one where every thread's result is the
/// form's (sums, differences and multiples of integers, pointers moved by an integer, each
/// checked for overflow on the threads at the ends of the form's range); any other operation is
/// read thread by thread.
fn binary_lanes(op: Op, l: &Vals, r: &Vals, kinds: &Kinds) -> Vals {
    let linear = match (l, r) {
        (Lanes::Linear(a), Lanes::Uni(b)) => linear_binary(op, a, *b, true, kinds),
        (Lanes::Uni(b), Lanes::Linear(a)) => linear_binary(op, a, *b, false, kinds),
        (Lanes::Linear(a), Lanes::Linear(b)) => linear_pair(op, a, b),
        _ => None,
    };
    linear
        .or_else(|| unknown_binary(l, r))
        .unwrap_or_else(|| l.zip(r, |a, b| binary(op, a, b, kinds)))
}

/// `l op r` where the operands' variants alone decide it, for operands of one variant on every
/// thread (one value or a linear form): `binary` reads the numbers only of integers, chosen
/// values and pointers, so with anything else on either side (a value read from memory times
/// another) every thread's result is the same unknown, found without reading each thread's.
fn unknown_binary(l: &Vals, r: &Vals) -> Option<Vals> {
    let shape = |values: &Vals| match values {
        Lanes::Uni(v) => Some(*v),
        Lanes::Linear(linear) => Some(linear.shape),
        Lanes::Per(_) => None,
    };
    let (a, b) = (shape(l)?, shape(r)?);
    let numbered = |v: Val| matches!(v, Val::Int(..) | Val::Chosen(_) | Val::Ptr(_));
    if numbered(a) && numbered(b) {
        return None;
    }
    // whether a value varies does not depend on its number (`Val::varies`)
    Some(Lanes::Uni(Val::Unknown(a.varies() || b.varies())))
}

/// `a op b` (`b op a` unless `linear_left`) for a linear form `a` and a value every thread
/// shares, where the result is one value or a linear form: None where it is neither.
fn linear_binary(
    op: Op,
    a: &Linear<Val>,
    b: Val,
    linear_left: bool,
    kinds: &Kinds,
) -> Option<Vals> {
    let base = i128::from(a.base);
    let coef = a.coef.map(i128::from);
    match (a.shape, b) {
        (Val::Int(_, va), Val::Int(c, vb))
            if matches!(op, Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::Eq | Op::Ne) =>
        {
            let (low, high) = a.range();
            decided(op, low, high, i128::from(c), linear_left)
                .map(|truth| Lanes::Uni(Val::Int(truth, va || vb)))
        }
        (Val::Int(_, va), Val::Chosen(c)) if matches!(op, Op::Lt | Op::Le | Op::Gt | Op::Ge) => {
            let (low, high) = a.range();
            decided(op, low, high, i128::from(c), linear_left)
                .map(|truth| Lanes::Uni(Val::Int(truth, va)))
        }
        (Val::Int(_, va), Val::Int(c, vb)) => {
            let c = i128::from(c);
            let (base, coef) = match (op, linear_left) {
                (Op::Add, _) => (base + c, coef),
                (Op::Sub, true) => (base - c, coef),
                (Op::Sub, false) => (c - base, coef.map(|k| -k)),
                (Op::Mul, _) => (base * c, coef.map(|k| k * c)),
                _ => return None,
            };
            Linear::form(Val::Int(0, va || vb), base, coef, a.block)
        }
        // with a chosen parameter, a varying integer gives a varying unknown, but for an order
        (Val::Int(_, true), Val::Chosen(_)) if !matches!(op, Op::Lt | Op::Le | Op::Gt | Op::Ge) => {
            Some(Lanes::Uni(Val::Unknown(true)))
        }
        // a pointer moved by a varying integer
        (Val::Int(..), Val::Ptr(p)) if (op == Op::Add) || (op == Op::Sub && !linear_left) => {
            let negate = op == Op::Sub;
            let Some(row) = kinds
                .get(p.kind)
                .and_then(|kind| kind.shape.row_bytes(kind.element))
            else {
                return Some(Lanes::Uni(Val::Unknown(true)));
            };
            let (low, high) = a.range();
            let (low, high) = if negate { (-high, -low) } else { (low, high) };
            // every thread's `delta * row` must fit, as each thread computes it first
            let fits = |v: i128| i64::try_from(v).is_ok();
            if !(fits(low)
                && fits(high)
                && fits(low * i128::from(row))
                && fits(high * i128::from(row)))
            {
                return None;
            }
            let sign = if negate { -1 } else { 1 };
            let row = i128::from(row);
            Linear::form(
                Val::Ptr(Ptr {
                    kind: kinds.unbounded(p.kind),
                    byte: 0,
                }),
                i128::from(p.byte) + sign * row * base,
                coef.map(|k| sign * row * k),
                a.block,
            )
        }
        (Val::Int(_, va), Val::Unknown(_) | Val::Load(..) | Val::Held(..)) => {
            Some(Lanes::Uni(Val::Unknown(va || b.varies())))
        }
        (Val::Int(..), Val::Ptr(_)) => Some(Lanes::Uni(Val::Unknown(true))),
        // a pointer moved by an integer every thread shares
        (Val::Ptr(p), Val::Int(c, _)) if op == Op::Add || (linear_left && op == Op::Sub) => {
            let Some(row) = kinds
                .get(p.kind)
                .and_then(|kind| kind.shape.row_bytes(kind.element))
            else {
                return Some(Lanes::Uni(Val::Unknown(true)));
            };
            let delta = if op == Op::Sub {
                c.checked_neg()
            } else {
                Some(c)
            };
            let Some(moved) = delta.and_then(|d| d.checked_mul(row)) else {
                return Some(Lanes::Uni(Val::Unknown(true)));
            };
            Linear::form(
                Val::Ptr(Ptr {
                    kind: kinds.unbounded(p.kind),
                    byte: 0,
                }),
                base + i128::from(moved),
                coef,
                a.block,
            )
        }
        (Val::Ptr(_), _) => Some(Lanes::Uni(Val::Unknown(true))),
        _ => None,
    }
}

/// A comparison of every thread's `x` (between `low` and `high`) with `c` (`x op c`, or
/// `c op x` unless `linear_left`), where it comes out the same for all.
fn decided(op: Op, low: i128, high: i128, c: i128, linear_left: bool) -> Option<i64> {
    let op = match (linear_left, op) {
        (true, op) => op,
        (false, Op::Lt) => Op::Gt,
        (false, Op::Le) => Op::Ge,
        (false, Op::Gt) => Op::Lt,
        (false, Op::Ge) => Op::Le,
        (false, op) => op,
    };
    let (all, none) = match op {
        Op::Lt => (high < c, low >= c),
        Op::Le => (high <= c, low > c),
        Op::Gt => (low > c, high <= c),
        Op::Ge => (low >= c, high < c),
        Op::Eq => (low == c && high == c, c < low || c > high),
        Op::Ne => (c < low || c > high, low == c && high == c),
        _ => return None,
    };
    if all {
        Some(1)
    } else if none {
        Some(0)
    } else {
        None
    }
}

/// `a op b` for two linear forms of integers, where it is one.
fn linear_pair(op: Op, a: &Linear<Val>, b: &Linear<Val>) -> Option<Vals> {
    let (Val::Int(_, va), Val::Int(_, vb)) = (a.shape, b.shape) else {
        return None;
    };
    if a.block != b.block {
        return None;
    }
    let sign: i128 = match op {
        Op::Add => 1,
        Op::Sub => -1,
        _ => return None,
    };
    let mut coef = [0i128; 3];
    for (axis, slot) in coef.iter_mut().enumerate() {
        *slot = i128::from(a.coef[axis]) + sign * i128::from(b.coef[axis]);
    }
    Linear::form(
        Val::Int(0, va || vb),
        i128::from(a.base) + sign * i128::from(b.base),
        coef,
        a.block,
    )
}

fn binary(op: Op, l: Val, r: Val, kinds: &Kinds) -> Val {
    let varies = l.varies() || r.varies();
    match (l, r) {
        (Val::Int(a, _), Val::Int(b, _)) => {
            apply(op, a, b).map_or(Val::Unknown(varies), |v| Val::Int(v, varies))
        }
        (Val::Chosen(a) | Val::Int(a, _), Val::Chosen(b) | Val::Int(b, _)) => {
            match (op, apply(op, a, b)) {
                (_, None) | (Op::Eq | Op::Ne, _) => Val::Unknown(varies),
                (Op::Lt | Op::Le | Op::Gt | Op::Ge, Some(v)) => Val::Int(v, varies),
                (_, Some(v)) if !varies => Val::Chosen(v),
                _ => Val::Unknown(varies),
            }
        }
        (Val::Ptr(p), Val::Int(b, _)) if op == Op::Add || op == Op::Sub => {
            let Some(row) = kinds
                .get(p.kind)
                .and_then(|kind| kind.shape.row_bytes(kind.element))
            else {
                return Val::Unknown(true);
            };
            let delta = if op == Op::Sub {
                b.checked_neg()
            } else {
                Some(b)
            };
            match delta
                .and_then(|d| d.checked_mul(row))
                .and_then(|d| d.checked_add(p.byte))
            {
                Some(byte) => Val::Ptr(Ptr {
                    kind: kinds.unbounded(p.kind),
                    byte,
                }),
                None => Val::Unknown(true),
            }
        }
        (Val::Int(a, _), Val::Ptr(p)) if op == Op::Add => {
            binary(Op::Add, Val::Ptr(p), Val::Int(a, false), kinds)
        }
        _ => Val::Unknown(varies),
    }
}

fn arithmetic(op: &str, a: i64, b: i64) -> Option<i64> {
    apply(Op::parse(op), a, b)
}

fn apply(op: Op, a: i64, b: i64) -> Option<i64> {
    Some(match op {
        Op::Add => a.checked_add(b)?,
        Op::Sub => a.checked_sub(b)?,
        Op::Mul => a.checked_mul(b)?,
        Op::Div => a.checked_div(b)?,
        Op::Rem => a.checked_rem(b)?,
        Op::Shl => {
            if !(0..63).contains(&b) {
                return None;
            }
            a.checked_mul(1i64 << b)?
        }
        Op::Shr => {
            if !(0..63).contains(&b) {
                return None;
            }
            a >> b
        }
        Op::BitAnd => a & b,
        Op::BitOr => a | b,
        Op::BitXor => a ^ b,
        Op::Lt => (a < b) as i64,
        Op::Le => (a <= b) as i64,
        Op::Gt => (a > b) as i64,
        Op::Ge => (a >= b) as i64,
        Op::Eq => (a == b) as i64,
        Op::Ne => (a != b) as i64,
        Op::Other => return None,
    })
}

/// `T * 2`, `(T*2)`: a `#define` value split into numbers, names and operators.
fn split_operators(token: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in token.char_indices() {
        if matches!(c, '*' | '+' | '-' | '/' | '(' | ')') {
            if start < i {
                out.push(&token[start..i]);
            }
            if c != '(' && c != ')' {
                out.push(&token[i..i + 1]);
            }
            start = i + 1;
        }
    }
    if start < token.len() {
        out.push(&token[start..]);
    }
    out
}

fn is_shared(declaration: Node, source: &str) -> bool {
    crate::syntax::children(declaration).any(|c| {
        matches!(
            c.node_kind(),
            "type_qualifier"
                | "attribute_specifier"
                | "storage_class_specifier"
                | "attribute_declaration"
        ) && text(c, source).contains("__shared__")
    })
}

/// `__syncthreads()` and its counting forms: a barrier for the whole block.
fn is_block_barrier(call: Node, source: &str) -> bool {
    let Some(function) = call.field("function") else {
        return false;
    };
    matches!(
        text(function, source),
        "__syncthreads" | "__syncthreads_count" | "__syncthreads_and" | "__syncthreads_or"
    )
}

/// Whether a declared type is an integer type (`const unsigned`, `long long`, `uint32_t`).
pub(crate) fn is_integer_type(type_text: &str) -> bool {
    let mut signedness = false;
    let mut words = type_text.split_whitespace().filter(|word| match *word {
        "const" => false,
        "unsigned" | "signed" => {
            signedness = true;
            false
        }
        _ => true,
    });
    match (words.next(), words.next()) {
        (None, _) => signedness,
        (Some(word), None) => is_integer_word(word),
        // `long long`, `unsigned long int`, `short int`
        (Some(first), Some(second)) => [first, second]
            .into_iter()
            .chain(words)
            .all(|word| matches!(word, "int" | "long" | "short")),
    }
}

/// The one-word names `is_integer_type` accepts.
fn is_integer_word(word: &str) -> bool {
    matches!(
        word,
        "int"
            | "long"
            | "short"
            | "size_t"
            | "int64_t"
            | "uint64_t"
            | "int32_t"
            | "uint32_t"
            | "int16_t"
            | "uint16_t"
            | "ptrdiff_t"
            | "uint"
            | "bool"
            | "index_t"
            | "std::size_t"
            | "std::int64_t"
            | "char"
    )
}

/// The size of what a pointer type points at (`float*` → 4).
fn pointee_size(type_text: &str) -> Option<i64> {
    let base = type_text.trim_end().trim_end_matches('*').trim();
    crate::model::size::builtin_size(base).and_then(|v| i64::try_from(v).ok())
}

fn same_type(type_text: &str, element_type: &str) -> bool {
    let a = crate::model::size::normalize_type(type_text.trim_end().trim_end_matches('*'));
    let b = crate::model::size::normalize_type(element_type);
    !a.is_empty() && a == b
}

/// Math and conversion intrinsics: no barrier, no shared access, a result of their arguments.
fn is_pure_builtin(name: &str) -> bool {
    const MATH: &[&str] = &[
        "sqrt",
        "rsqrt",
        "cbrt",
        "exp",
        "exp2",
        "exp10",
        "expm1",
        "log",
        "log2",
        "log10",
        "log1p",
        "sin",
        "cos",
        "tan",
        "asin",
        "acos",
        "atan",
        "atan2",
        "sinh",
        "cosh",
        "tanh",
        "pow",
        "fabs",
        "floor",
        "ceil",
        "round",
        "trunc",
        "fmod",
        "fmin",
        "fmax",
        "erf",
        "erfc",
        "hypot",
        "fma",
        "rint",
        "lrint",
        "copysign",
        "ldexp",
        "frexp",
        "isnan",
        "isinf",
        "isfinite",
        "signbit",
        "abs",
        "min",
        "max",
        "lround",
        "llround",
        "sincos",
        "sinpi",
        "cospi",
        "norm",
        "rnorm",
        "rcbrt",
        "nearbyint",
    ];
    let base = name
        .strip_suffix('f')
        .filter(|b| MATH.contains(b))
        .unwrap_or(name);
    MATH.contains(&base)
        || name.starts_with("make_")
        || name.starts_with("__") && !name.contains("sync") && !name.contains("barrier")
}

/// `__syncwarp()` and the warp collectives with a mask (`__shfl_sync`, `__ballot_sync`, ...):
/// every lane of the mask reaches the call before any leaves it, so they order the lanes' shared
/// accesses before and after it as `__syncwarp()` does.
fn orders_lanes(name: &str) -> bool {
    name == "__syncwarp"
        || (name.ends_with("_sync")
            && [
                "__shfl", "__ballot", "__any", "__all", "__match", "__reduce",
            ]
            .iter()
            .any(|prefix| name.starts_with(prefix)))
}

/// A call that is known not to synchronise the block.
fn is_barrier_free_builtin(name: &str) -> bool {
    is_pure_builtin(name)
        || name.starts_with("__shfl")
        || name.starts_with("__ballot")
        || name.starts_with("__any")
        || name.starts_with("__all")
        || name.starts_with("__reduce")
        || name.starts_with("__match")
        || name.starts_with("__activemask")
        || name.starts_with("__syncwarp")
        || name.starts_with("__threadfence")
        || name.starts_with("atomic")
        || matches!(
            name,
            "printf"
                | "assert"
                | "__trap"
                | "__brkpt"
                | "clock"
                | "clock64"
                | "static_cast"
                | "reinterpret_cast"
                | "const_cast"
                | "umin"
                | "umax"
                | "imin"
                | "imax"
                | "llmin"
                | "llmax"
                | "MIN"
                | "MAX"
                | "thread_rank"
                | "size"
                | "num_threads"
                | "meta_group_rank"
                | "this_thread_block"
                | "tiled_partition"
                | "this_grid"
        )
}

/// Methods that read an object without synchronising anything.
fn is_pure_method(name: &str) -> bool {
    matches!(
        name,
        "thread_rank"
            | "size"
            | "num_threads"
            | "meta_group_rank"
            | "meta_group_size"
            | "group_index"
            | "thread_index"
            | "x"
            | "y"
            | "z"
            | "get"
            | "data"
            | "shfl"
            | "shfl_down"
            | "shfl_up"
            | "shfl_xor"
            | "any"
            | "all"
            | "ballot"
    )
}

#[cfg(test)]
mod tests {
    fn conflicts(source: &str) -> Vec<(String, String, bool, bool)> {
        let view = crate::source::preprocess(source, &[]);
        let tree = crate::engine::parse(&view.text, None).unwrap_or_else(|| panic!("parse"));
        let lines = crate::source::LineIndex::new(source);
        let model = crate::model::Model::build(
            std::path::Path::new("t.cu"),
            source,
            &view,
            &tree,
            &lines,
            &[],
        );
        let mut out = Vec::new();
        for (kernel, facts) in model.kernel_facts() {
            for c in &facts.shared(&model, kernel).conflicts {
                out.push((
                    model.text(c.first.node).to_string(),
                    model.text(c.second.node).to_string(),
                    c.same_warp,
                    c.across_iterations,
                ));
            }
        }
        out
    }

    #[test]
    fn an_operation_decided_by_its_operands_variants_agrees_with_each_thread() {
        use super::{binary, unknown_binary, Kinds, Lanes, Linear, Op, Ptr, Val, Vals};
        let kinds = Kinds::default();
        let block = [8, 8, 1];
        let linear = |shape: Val| match Linear::form(shape, 3, [4, 64, 0], block) {
            Some(lanes) => lanes,
            None => panic!("a linear form"),
        };
        let operands: Vec<Vals> = vec![
            Lanes::Uni(Val::Int(5, false)),
            Lanes::Uni(Val::Unknown(false)),
            Lanes::Uni(Val::Unknown(true)),
            Lanes::Uni(Val::Chosen(256)),
            Lanes::Uni(Val::Load(2, 7)),
            Lanes::Uni(Val::Held(1, 12)),
            Lanes::Uni(Val::Ptr(Ptr { kind: 0, byte: 8 })),
            linear(Val::Int(0, true)),
            linear(Val::Held(0, 0)),
            linear(Val::Load(1, 0)),
            linear(Val::Ptr(Ptr { kind: 0, byte: 0 })),
        ];
        let mut decided = 0;
        for l in &operands {
            for r in &operands {
                for op in [Op::Add, Op::Mul, Op::Lt, Op::Other] {
                    let Some(shortcut) = unknown_binary(l, r) else {
                        continue;
                    };
                    decided += 1;
                    let Lanes::Uni(value) = shortcut else {
                        panic!("one value for all threads");
                    };
                    for lane in 0..64 {
                        assert_eq!(
                            binary(op, l.get(lane), r.get(lane), &kinds),
                            value,
                            "{l:?} {op:?} {r:?} at {lane}"
                        );
                    }
                }
            }
        }
        // pairs of integers, chosen values and pointers are left to each thread
        assert_eq!(decided, 4 * (11 * 11 - 5 * 5));
    }

    #[test]
    fn integer_types_are_read_with_their_qualifiers() {
        for integer in [
            "int",
            "const int",
            "unsigned",
            "unsigned int",
            "const unsigned long long",
            "long int",
            "short",
            "unsigned char",
            "size_t",
            "const std::size_t",
            "signed",
        ] {
            assert!(super::is_integer_type(integer), "{integer}");
        }
        for other in [
            "float",
            "const",
            "int*",
            "volatile int",
            "const float",
            "long double",
        ] {
            assert!(!super::is_integer_type(other), "{other}");
        }
    }

    #[test]
    fn tile_loaded_and_read_without_a_barrier() {
        let found = conflicts("#define T 16\n__global__ void k(const float* a, float* c) { __shared__ float t[T][T]; t[threadIdx.y][threadIdx.x] = a[threadIdx.x]; float s = 0; for (int k = 0; k < T; ++k) s += t[threadIdx.y][k] * t[k][threadIdx.x]; c[0] = s; }");
        assert!(
            found
                .iter()
                .any(|(a, b, same_warp, _)| a == "t[k][threadIdx.x]"
                    && b == "t[threadIdx.y][threadIdx.x]"
                    && !same_warp),
            "{found:?}"
        );
    }

    #[test]
    fn a_barrier_between_write_and_read_separates_them() {
        let found = conflicts("__global__ void k(const float* a, float* c) { __shared__ float t[64]; t[threadIdx.x] = a[threadIdx.x]; __syncthreads(); c[threadIdx.x] = t[63 - threadIdx.x]; }");
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn own_slots_do_not_conflict() {
        let found = conflicts("__global__ void k(const float* a, float* c) { __shared__ float t[256]; int i = threadIdx.x; t[2 * i] = a[i]; t[2 * i + 1] = t[2 * i] + 1; c[i] = t[2 * i + 1]; }");
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn reduction_step_without_a_barrier() {
        let found = conflicts("__global__ void k(const float* a, float* c) { __shared__ float s[256]; int t = threadIdx.x; s[t] = a[t]; __syncthreads(); for (int w = blockDim.x / 2; w > 0; w >>= 1) { if (t < w) s[t] += s[t + w]; } if (t == 0) c[0] = s[0]; }");
        assert!(
            found.iter().any(|(_, _, same_warp, _)| !same_warp),
            "{found:?}"
        );
    }

    #[test]
    fn reduction_with_a_barrier_in_the_loop_is_clean() {
        let found = conflicts("__global__ void k(const float* a, float* c) { __shared__ float s[256]; int t = threadIdx.x; s[t] = a[t]; __syncthreads(); for (int w = blockDim.x / 2; w > 0; w >>= 1) { if (t < w) s[t] += s[t + w]; __syncthreads(); } if (t == 0) c[0] = s[0]; }");
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn next_iteration_overwrites_what_this_one_reads() {
        let found = conflicts("__global__ void k(const float* a, float* c, int n) { __shared__ float s[64]; float acc = 0; for (int b = 0; b < n; b += 64) { s[threadIdx.x] = a[b + threadIdx.x]; __syncthreads(); for (int j = 0; j < 64; ++j) acc += s[j]; } c[threadIdx.x] = acc; }");
        assert!(
            found
                .iter()
                .any(|(first, _, _, across)| *across && first == "s[threadIdx.x]"),
            "{found:?}"
        );
    }

    #[test]
    fn a_trailing_barrier_closes_the_iteration() {
        let found = conflicts("__global__ void k(const float* a, float* c, int n) { __shared__ float s[64]; float acc = 0; for (int b = 0; b < n; b += 64) { s[threadIdx.x] = a[b + threadIdx.x]; __syncthreads(); for (int j = 0; j < 64; ++j) acc += s[j]; __syncthreads(); } c[threadIdx.x] = acc; }");
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn xor_partner_read_without_a_barrier() {
        let found = conflicts("__global__ void k(float* c) { __shared__ float s[64]; int t = threadIdx.x; s[t] = t; float v = s[t ^ 32]; c[t] = v; }");
        assert!(
            found.iter().any(|(_, _, same_warp, _)| !same_warp),
            "{found:?}"
        );
        let found = conflicts("__global__ void k(float* c) { __shared__ float s[64]; int t = threadIdx.x; s[t] = t; __syncthreads(); float v = s[t ^ 32]; c[t] = v; }");
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn atomics_and_identical_stores_are_not_conflicts() {
        let found = conflicts("__global__ void k(int* c) { __shared__ int n; if (threadIdx.x == 0) n = 0; __syncthreads(); atomicAdd(&n, 1); __syncthreads(); c[threadIdx.x] = n; }");
        assert!(found.is_empty(), "{found:?}");
        let found = conflicts("__global__ void k(int* c, const int* f) { __shared__ int flag; flag = 0; __syncthreads(); if (f[threadIdx.x]) flag = 1; __syncthreads(); c[threadIdx.x] = flag; }");
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn guards_on_the_thread_index_limit_the_writers() {
        let found = conflicts("__global__ void k(float* c) { __shared__ float s[64]; if (threadIdx.x == 0) s[0] = 1; __syncthreads(); c[threadIdx.x] = s[0]; }");
        assert!(found.is_empty(), "{found:?}");
        let found = conflicts("__global__ void k(float* c) { __shared__ float s[64]; if (threadIdx.x == 0) s[0] = 1; c[threadIdx.x] = s[0]; }");
        assert_eq!(found.iter().filter(|c| !c.2).count(), 1, "{found:?}");
    }

    #[test]
    fn unknown_indices_and_hidden_barriers_conclude_nothing() {
        // the index comes from memory
        let found = conflicts("__global__ void k(const int* idx, float* c) { __shared__ float s[64]; s[idx[threadIdx.x]] = 1; c[threadIdx.x] = s[threadIdx.x]; }");
        assert!(found.is_empty(), "{found:?}");
        // a call that may synchronise the block splits the interval
        let found = conflicts("__global__ void k(float* c) { __shared__ float s[64]; s[threadIdx.x] = 1; block_reduce(s); c[threadIdx.x] = s[63 - threadIdx.x]; }");
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn a_pair_that_needs_rows_the_launch_may_not_have_is_not_reported() {
        // `threadIdx.y` only picks the row of the problem: with no launch in sight, a block of
        // one row is as likely as a square one, and there the rows do not meet
        let found = conflicts("__global__ void k(const float* a, float* c) { __shared__ float s[128]; int row = blockIdx.y * blockDim.y + threadIdx.y; s[threadIdx.x] = a[row]; __syncthreads(); for (int w = 64; w > 0; w >>= 1) { if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w]; __syncthreads(); } c[row] = s[0]; }");
        assert!(found.is_empty(), "{found:?}");
        // a launch that says the block is square decides it
        let found = conflicts("__global__ void k(const float* a, float* c) { __shared__ float s[128]; int row = blockIdx.y * blockDim.y + threadIdx.y; s[threadIdx.x] = a[row]; __syncthreads(); c[row] = s[0]; }\nvoid h(const float* a, float* c) { dim3 b(16, 16); k<<<4, b>>>(a, c); }");
        assert!(found.iter().any(|c| !c.2), "{found:?}");
    }

    #[test]
    fn a_block_shape_the_arrays_cannot_hold_is_not_used() {
        // written for 32 threads: with 64 the writes would leave the array, so 32 is run, where
        // the pair is in one warp
        let found = conflicts("__global__ void k(float* c) { __shared__ float s[32]; s[threadIdx.x] = 1; c[threadIdx.x] = s[31 - threadIdx.x]; }");
        assert!(
            !found.is_empty() && found.iter().all(|(_, _, same_warp, _)| *same_warp),
            "{found:?}"
        );
    }

    #[test]
    fn threads_storing_what_they_read_at_one_global_element_agree() {
        // threads 16 apart copy the same element of `b` into the same slot
        let same = conflicts("__global__ void k(const float* b, float* c) { __shared__ float bias[16]; int t = threadIdx.x % 16; bias[t] = b[t]; __syncthreads(); c[threadIdx.x] = bias[t]; }");
        assert!(same.is_empty(), "{same:?}");
        // they copy different elements into it
        let different = conflicts("__global__ void k(const float* b, float* c) { __shared__ float bias[16]; int t = threadIdx.x % 16; bias[t] = b[threadIdx.x]; __syncthreads(); c[threadIdx.x] = bias[t]; }");
        assert!(!different.is_empty());
    }

    #[test]
    fn a_constant_defined_two_ways_is_not_known() {
        // `W` is 64 or 32 depending on the target: `tid / W` is not a known slot
        let found = conflicts("#if defined(__GFX9__)\n#define W 64\n#else\n#define W 32\n#endif\n__global__ void k(float* c) { __shared__ float s[8]; s[threadIdx.x / W] = c[threadIdx.x]; __syncthreads(); c[threadIdx.x] = s[0]; }");
        assert!(found.is_empty(), "{found:?}");
        let known = conflicts("#define W 64\n__global__ void k(float* c) { __shared__ float s[8]; s[threadIdx.x / W] = c[threadIdx.x]; __syncthreads(); c[threadIdx.x] = s[0]; }");
        assert!(!known.is_empty());
    }

    #[test]
    fn a_barrier_at_the_end_of_a_long_chain_of_helpers_is_seen() {
        // helpers defined callers first, so the one that syncs is read last
        let mut source = String::new();
        for i in (1..200).rev() {
            source.push_str(&format!("__device__ void f{i}();\n"));
        }
        for i in (1..200).rev() {
            source.push_str(&format!("__device__ void f{i}() {{ f{}(); }}\n", i - 1));
        }
        source.push_str("__device__ void f0() { __syncthreads(); }\n");
        source.push_str("__global__ void k(const float* a, float* c) { __shared__ float t[128]; t[threadIdx.x] = a[threadIdx.x]; f199(); c[threadIdx.x] = t[0]; }");
        let found = conflicts(&source);
        assert!(found.is_empty(), "{found:?}");
        let without = source.replace("__syncthreads();", "");
        assert!(!conflicts(&without).is_empty());
    }

    #[test]
    fn a_file_past_its_budget_concludes_nothing() {
        let source = "__global__ void k(const float* a, float* c) { __shared__ float t[128]; t[threadIdx.x] = a[threadIdx.x]; c[threadIdx.x] = t[0]; }";
        let view = crate::source::preprocess(source, &[]);
        let tree = crate::engine::parse(&view.text, None).unwrap_or_else(|| panic!("parse"));
        let lines = crate::source::LineIndex::new(source);
        let build = || {
            crate::model::Model::build(
                std::path::Path::new("t.cu"),
                source,
                &view,
                &tree,
                &lines,
                &[],
            )
        };
        // with the whole budget: found, and the file's budget pays for it
        let model = build();
        let (kernel, facts) = model
            .kernel_facts()
            .next()
            .unwrap_or_else(|| panic!("kernel"));
        assert!(!facts.shared(&model, kernel).conflicts.is_empty());
        let left = model.shared_scope().left.get();
        assert!(left < super::FILE_BUDGET && left > 0, "{left}");
        // with the file's budget spent by earlier kernels: nothing
        let model = build();
        model.shared_scope().left.set(super::preparation_cost(
            model
                .functions
                .first()
                .unwrap_or_else(|| panic!("function")),
        ));
        let (kernel, facts) = model
            .kernel_facts()
            .next()
            .unwrap_or_else(|| panic!("kernel"));
        assert!(facts.shared(&model, kernel).conflicts.is_empty());
        assert_eq!(model.shared_scope().left.get(), 0);
    }

    #[test]
    fn a_store_back_of_the_value_read_changes_nothing() {
        // read into a local of the element's type, or stored straight back
        for body in [
            "int v; v = a[0]; a[0] = v;",
            "int v = a[threadIdx.x % 4]; a[threadIdx.x % 4] = v;",
            "a[threadIdx.x % 4] = a[threadIdx.x % 4];",
        ] {
            let found = conflicts(&format!(
                "__global__ void k(int* c) {{ __shared__ int a[64]; {body} c[threadIdx.x] = a[0]; }}"
            ));
            assert!(found.is_empty(), "{body}: {found:?}");
        }
    }

    #[test]
    fn a_store_back_is_not_one_once_the_value_may_differ() {
        for (element, body) in [
            // another value
            ("int", "int v = a[0]; a[0] = v + 1;"),
            // another element
            (
                "int",
                "int v = a[threadIdx.x]; a[(threadIdx.x + 1) % 64] = v;",
            ),
            // a conversion on the way
            ("float", "int v = a[0]; a[0] = v;"),
            // a write of the element in between
            ("int", "int v = a[0]; a[threadIdx.x] = 3; a[0] = v;"),
        ] {
            let found = conflicts(&format!(
                "__global__ void k(int* c) {{ __shared__ {element} a[64]; {body} c[threadIdx.x] = 1; }}"
            ));
            assert!(!found.is_empty(), "{body}");
        }
    }

    #[test]
    fn calls_into_device_functions_are_followed() {
        let found = conflicts("__device__ float at(const float* s, int i) { return s[i]; }\n__global__ void k(float* c) { __shared__ float s[64]; s[threadIdx.x] = c[threadIdx.x]; c[threadIdx.x] = at(s, 63 - threadIdx.x); }");
        assert!(
            found
                .iter()
                .any(|(a, b, same_warp, _)| (a == "s[i]" || b == "s[i]") && !same_warp),
            "{found:?}"
        );
        // a return ends the call, not the thread; the callee does not see the caller's locals
        let found = conflicts("__device__ void put(float* s, int i) { if (i >= 64) return; s[i] = 1; }\n__global__ void k(float* c) { __shared__ float s[64]; int i = 5; put(s, threadIdx.x + 64); put(s, threadIdx.x); c[threadIdx.x] = s[63 - threadIdx.x]; }");
        assert!(
            found
                .iter()
                .any(|(a, b, ..)| a == "s[63 - threadIdx.x]" || b == "s[63 - threadIdx.x]"),
            "{found:?}"
        );
        // own elements only
        let found = conflicts("__device__ float at(const float* s, int i) { return s[i]; }\n__global__ void k(float* c) { __shared__ float s[64]; s[threadIdx.x] = c[threadIdx.x]; c[threadIdx.x] = at(s, threadIdx.x); }");
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn atomics_race_with_plain_accesses_not_with_each_other() {
        let found = conflicts("__global__ void k(int* c) { __shared__ int n; if (threadIdx.x == 0) n = 0; atomicAdd(&n, 1); __syncthreads(); c[threadIdx.x] = n; }");
        assert!(
            found
                .iter()
                .any(|(a, b, ..)| a == "atomicAdd(&n, 1)" || b == "atomicAdd(&n, 1)"),
            "{found:?}"
        );
        let found = conflicts("__global__ void k(int* c) { __shared__ int n[4]; atomicAdd(&n[threadIdx.x % 4], 1); atomicMax(n + threadIdx.x % 4, 3); __syncthreads(); c[threadIdx.x] = n[0]; }");
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn warp_collectives_with_a_mask_order_the_lanes() {
        let found = conflicts("__global__ void k(int* c) { __shared__ int s[32]; int lane = threadIdx.x & 31; int v = lane > 0 ? s[lane - 1] : 0; v += __shfl_up_sync(0xffffffff, v, 1); s[lane] = v; c[threadIdx.x] = v; }\nvoid h(int* c) { k<<<1, 32>>>(c); }");
        assert!(found.is_empty(), "{found:?}");
        let found = conflicts("__global__ void k(int* c) { __shared__ int s[32]; int lane = threadIdx.x & 31; int v = lane > 0 ? s[lane - 1] : 0; s[lane] = v; c[threadIdx.x] = v; }\nvoid h(int* c) { k<<<1, 32>>>(c); }");
        assert!(
            found.iter().any(|(_, _, same_warp, _)| *same_warp),
            "{found:?}"
        );
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let mut body = String::new();
        for _ in 0..2000 {
            body.push_str("if (threadIdx.x < 1000) {");
        }
        body.push_str("s[threadIdx.x] = 1;");
        for _ in 0..2000 {
            body.push('}');
        }
        let source = format!("__global__ void k() {{ __shared__ float s[64]; {body} }}");
        let _ = conflicts(&source);
    }
}
