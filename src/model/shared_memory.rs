//! Shared-memory conflicts between the threads of one block, found by running the kernel body for
//! every thread of a block with concrete thread coordinates.
//!
//! Each thread is run on its own. A block-wide barrier moves it to the next barrier interval
//! (epoch); every `__shared__` access it certainly makes is logged with its epoch, the bytes it
//! touches and whether it writes. Two accesses of one epoch by different threads that touch a
//! common byte, one of them writing and neither atomic, conflict. What the run cannot know (a
//! value read from memory, a parameter that is not an integer, a call whose body is not visible)
//! is unknown: an access at an unknown place is not logged, a branch on an unknown condition makes
//! what it assigns unknown, and a thread whose barriers or exits hang on one stops there. So every
//! logged access happens in a real execution with these coordinates, and every conflict found is
//! a witness, not a guess.
//!
//! The block shape is a visible launch's, else a small one (two warps or more) that keeps every
//! shared access inside its array: a kernel written for one block size is not run with another
//! that its arrays cannot hold.

use super::kernel::AccessKind;
use super::{Function, KernelFacts, Model};
use crate::syntax::{named_children, operator, text, walk_iterative, NodeExt};
use rustc_hash::FxHashMap as HashMap;
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

/// Steps (statements and expressions evaluated) one block run may take, all threads together.
const STEP_BUDGET: u64 = 1_500_000;
/// Steps all the block shapes tried for one kernel may take together.
const KERNEL_BUDGET: u64 = 2_500_000;
/// Iterations of one loop a thread runs before it stops there: the conflicts of a loop show in
/// its first iterations, and every thread of a uniform loop stops at the same one.
const MAX_ITERATIONS: u32 = 96;
/// What an integer kernel parameter is taken to hold: large enough that a bounds guard or a
/// trip count is not what hides a conflict, and spreads an index it scales past any small array.
const PARAMETER_VALUE: i64 = 256;
const MAX_NESTING: usize = 200;
/// Marks a run in which an access left its array: the block shape does not fit the kernel.
const OUTSIDE: u32 = u32::MAX;

pub fn analyze<'t>(
    model: &Model<'t>,
    function: &Function<'t>,
    facts: &KernelFacts<'t>,
) -> SharedFacts<'t> {
    let out = SharedFacts::default();
    let Some(program) = Program::new(model, function) else {
        return out;
    };
    analyze_shapes(&program, model, function, facts, out)
}

fn analyze_shapes<'t>(
    program: &Program<'_, 't>,
    model: &Model<'t>,
    function: &Function<'t>,
    facts: &KernelFacts<'t>,
    mut out: SharedFacts<'t>,
) -> SharedFacts<'t> {
    let (launched, shapes) = candidate_blocks(model.source, function, facts);
    let mut left = KERNEL_BUDGET;
    if launched {
        // real launches: the first whose shape fits the kernel
        for block in shapes {
            if let Run::Valid(conflicts) = program.run(block, &mut left) {
                out.conflicts = conflicts;
                break;
            }
        }
        return out;
    }
    // no launch says the shape: a pair is reported only when every shape of two warps or more
    // that fits the kernel makes it (so a pair that needs rows the real launch may not have, or a
    // block wider than the kernel was written for, is not); one warp is the last resort
    let mut runs: Vec<Vec<Conflict<'t>>> = Vec::new();
    for block in shapes {
        let one_warp = block[0] * block[1] * block[2] <= 32;
        if one_warp && !runs.is_empty() {
            break;
        }
        if let Run::Valid(conflicts) = program.run(block, &mut left) {
            runs.push(conflicts);
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

/// The block shapes to try, in order: each distinct constant block of the visible launches, or
/// small default shapes for the axes the kernel uses.
fn candidate_blocks(
    source: &str,
    function: &Function,
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
    let indexed = shared_index_axes(source, function);
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
/// computed from it. A thread rank or lane id counts as every axis.
fn shared_index_axes(source: &str, function: &Function) -> [bool; 3] {
    let mut definitions: Vec<(&str, &str)> = Vec::new();
    let mut shared: Vec<&str> = Vec::new();
    let mut subscripts: Vec<(&str, &str)> = Vec::new();
    walk_iterative(function.body, |node| {
        match node.node_kind() {
            "init_declarator" => {
                if let (Some(name), Some(value)) = (
                    node.field("declarator")
                        .and_then(crate::syntax::declarator_name),
                    node.field("value"),
                ) {
                    definitions.push((text(name, source), text(value, source)));
                }
            }
            "assignment_expression" => {
                if let (Some(left), Some(right)) = (node.field("left"), node.field("right")) {
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
                if let (Some(base), Some(index)) = (node.field("argument"), subscript_index(node)) {
                    subscripts.push((text(base, source), text(index, source)));
                }
            }
            "lambda_expression" => return false,
            _ => {}
        }
        true
    });
    let words = |t: &str| -> Vec<String> {
        t.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .map(str::to_string)
            .collect()
    };
    // locals that follow each axis, and pointers into shared memory
    let mut follows: [Vec<&str>; 3] = Default::default();
    let mut pointers: Vec<&str> = shared.clone();
    for _ in 0..6 {
        for (name, value) in &definitions {
            let value_words = words(value);
            for (axis, field) in ["threadIdx.x", "threadIdx.y", "threadIdx.z"]
                .iter()
                .enumerate()
            {
                let rank = value.contains("thread_rank")
                    || value.contains("laneid")
                    || value.contains("lane_id");
                if !follows[axis].contains(name)
                    && (rank
                        || value_words
                            .iter()
                            .any(|w| w == field || follows[axis].contains(&w.as_str())))
                {
                    follows[axis].push(name);
                }
            }
            if !pointers.contains(name)
                && value_words.iter().any(|w| pointers.contains(&w.as_str()))
            {
                pointers.push(name);
            }
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
                    .any(|w| w == field || follows[axis].contains(&w.as_str()))
            {
                axes[axis] = true;
            }
        }
    }
    // a pointer offset by the thread (`float* row = s + ty * 17`) follows the thread too
    for (name, value) in &definitions {
        if pointers.contains(name) && !shared.contains(name) {
            let value_words = words(value);
            for (axis, field) in ["threadIdx.x", "threadIdx.y", "threadIdx.z"]
                .iter()
                .enumerate()
            {
                if value_words
                    .iter()
                    .any(|w| w == field || follows[axis].contains(&w.as_str()))
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Ptr {
    array: u32,
    byte: i64,
    /// Size of what it points at.
    element: i64,
    shape: Shape,
    /// The first subscript's extent, when known: `tile[ty]` must stay below it.
    extent: Option<i64>,
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
}

impl Val {
    fn varies(self) -> bool {
        match self {
            Val::Int(_, v) | Val::Unknown(v) => v,
            Val::Ptr(_) => true,
            Val::Chosen(_) => false,
        }
    }
    fn truth(self) -> Option<bool> {
        match self {
            Val::Int(v, _) => Some(v != 0),
            Val::Ptr(_) => Some(true),
            Val::Unknown(_) | Val::Chosen(_) => None,
        }
    }
}

/// How a statement ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Normal,
    Break,
    Continue,
    Return,
    /// The thread's path hangs on something unknown: it stops, keeping what it logged.
    Stop,
    /// The shape does not fit: the whole run is discarded.
    Invalid,
}

/// The kernel prepared for runs: its shared arrays and the facts every run reads.
struct Program<'m, 't> {
    model: &'m Model<'t>,
    function: &'m Function<'t>,
    arrays: Vec<Array>,
    /// Shared declarations by node id → array.
    declared: HashMap<usize, u32>,
    /// File-scope shared arrays, visible from the start.
    globals: Vec<(&'t str, u32)>,
    /// File-scope integer constants.
    constants: HashMap<&'t str, i64>,
    /// Every block-wide barrier of the kernel body, in source order.
    barriers: Vec<Node<'t>>,
    /// Device functions of the file that reach a barrier (or a call that may hide one).
    may_sync: HashMap<String, bool>,
}

impl<'m, 't> Program<'m, 't> {
    fn new(model: &'m Model<'t>, function: &'m Function<'t>) -> Option<Program<'m, 't>> {
        let source = model.source;
        let mut program = Program {
            model,
            function,
            arrays: Vec::new(),
            declared: HashMap::default(),
            globals: Vec::new(),
            constants: HashMap::default(),
            barriers: Vec::new(),
            may_sync: HashMap::default(),
        };
        // file scope: shared arrays and integer constants
        for node in named_children(model.tree.root_node()) {
            program.file_scope(node, 0);
        }
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
            if let Some(id) = program.add_array(declaration) {
                program.declared.insert(declaration.id(), id);
            }
        }
        if program.arrays.is_empty() {
            return None;
        }
        program.barriers = barriers;
        for f in &model.functions {
            if f.kind != super::FunctionKind::Kernel {
                program.may_sync.insert(f.name.clone(), false);
            }
        }
        // a helper that syncs, directly or through helpers or calls of unknown bodies
        for _ in 0..8 {
            let mut changed = false;
            for f in &model.functions {
                if f.kind == super::FunctionKind::Kernel
                    || program.may_sync.get(&f.name) == Some(&true)
                {
                    continue;
                }
                let mut syncs = false;
                walk_iterative(f.body, |node| {
                    if node.node_kind() == "call_expression" {
                        syncs |= program.call_may_sync(node);
                    }
                    if node.node_kind() == "gnu_asm_expression" {
                        syncs = true;
                    }
                    !syncs
                });
                if syncs {
                    program.may_sync.insert(f.name.clone(), true);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        Some(program)
    }

    fn file_scope(&mut self, node: Node<'t>, depth: usize) {
        if depth > 8 {
            return;
        }
        let source = self.model.source;
        match node.node_kind() {
            "declaration" if is_shared(node, source) => {
                for declarator in named_children(node) {
                    if let Some(name) = crate::syntax::declarator_name(declarator) {
                        if let Some(id) = self.add_array(node) {
                            self.globals.push((text(name, source), id));
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

    /// Registers the array a `__shared__` declaration makes (its first declarator).
    fn add_array(&mut self, declaration: Node<'t>) -> Option<u32> {
        let source = self.model.source;
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
        self.arrays.push(Array {
            name: text(name, source).to_string(),
            element,
            element_type,
            dims,
            scalar,
        });
        u32::try_from(self.arrays.len() - 1).ok()
    }

    /// A compile-time integer: a literal, a `#define`, a file constant, arithmetic of those.
    fn constant(&self, node: Node<'t>) -> Option<i64> {
        self.constant_at(node, 0)
    }

    fn constant_at(&self, node: Node<'t>, depth: usize) -> Option<i64> {
        if depth > 16 {
            return None;
        }
        let source = self.model.source;
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

    fn named_constant(&self, name: &str) -> Option<i64> {
        if let Some(v) = self.constants.get(name) {
            return Some(*v);
        }
        let value = self.model.define(name)?;
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
        let source = self.model.source;
        let Some(function) = call.field("function") else {
            return true;
        };
        if is_block_barrier(call, source) {
            return true;
        }
        let name = text(function, source);
        if function.node_kind() == "field_expression" {
            let method = function
                .field("field")
                .map(|f| text(f, source))
                .unwrap_or("");
            return matches!(
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
        }
        let short = name.rsplit("::").next().unwrap_or(name);
        let short = short.split('<').next().unwrap_or(short).trim();
        if let Some(known) = self.may_sync.get(short) {
            return *known;
        }
        !is_barrier_free_builtin(short)
    }

    fn run(&self, block: [i64; 3], left: &mut u64) -> Run<'t> {
        let threads = block[0] * block[1] * block[2];
        let mut log = Log::default();
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
        let mut reference: Vec<usize> = Vec::new();
        let mut barrier_nodes: Vec<Node<'t>> = Vec::new();
        for linear in 0..threads {
            let thread = [
                linear % block[0],
                (linear / block[0]) % block[1],
                linear / (block[0] * block[1]),
            ];
            let mut state = Thread {
                program: self,
                block,
                thread,
                linear,
                epoch: 0,
                passed: Vec::new(),
                scopes: Vec::new(),
                frames: Vec::new(),
                budget,
                log,
                speculative: 0,
                warp_syncs: 0,
                elsewhere_varies: true,
            };
            state.bind_entry();
            let before = *state.budget;
            let flow = state.statement(self.function.body, 0);
            if flow == Flow::Invalid {
                return Run::Invalid;
            }
            // a first thread that would take the block past the budget: give up now, not at the end
            let spent = before - *state.budget;
            if linear == 0 && spent.saturating_mul(threads as u64) > before {
                return Run::Invalid;
            }
            let passed = std::mem::take(&mut state.passed);
            // every thread passes the same barriers in the same order, up to where it exits
            let common = passed.len().min(reference.len());
            if passed[..common]
                .iter()
                .map(|n| n.id())
                .ne(reference[..common].iter().copied())
            {
                return Run::Invalid;
            }
            if passed.len() > reference.len() {
                reference = passed.iter().map(|n| n.id()).collect();
                barrier_nodes = passed;
            }
        }
        if log.poisoned.contains(&OUTSIDE) {
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
                    thread: a.thread,
                },
                SharedAccess {
                    node: *node_b,
                    kind: b.kind,
                    thread: b.thread,
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
                opened_by: epoch
                    .checked_sub(1)
                    .and_then(|e| barrier_nodes.get(e).copied()),
                closed_by: barrier_nodes.get(epoch).copied(),
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
    thread: [i64; 3],
    linear: i64,
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
    Varying,
}

#[derive(Default)]
struct Slot {
    /// The first accessor, a second thread, and the first from another warp than the first's.
    writes: Vec<Record>,
    reads: Vec<Record>,
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
    slots: HashMap<(u32, u32, i64), Slot>,
    conflicts: Vec<Found>,
    /// Epochs in which some thread called what may hide a barrier: nothing is concluded there.
    poisoned: Vec<u32>,
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

    fn record(&mut self, epoch: u32, array: u32, byte: i64, size: i64, record: Record) {
        let warp = |r: &Record| r.linear / 32;
        for offset in 0..size.clamp(1, 32) {
            let byte = byte + offset;
            let slot = self.slots.entry((epoch, array, byte)).or_default();
            let mut against: Vec<Record> = Vec::new();
            if record.kind.writes() {
                against.extend(slot.writes.iter().chain(slot.reads.iter()).copied());
            } else {
                against.extend(slot.writes.iter().copied());
            }
            let other_warp = against.iter().find(|o| {
                o.linear != record.linear && warp(o) != warp(&record) && !benign(o, &record)
            });
            let same_warp = against.iter().find(|o| {
                o.linear != record.linear
                    && warp(o) == warp(&record)
                    && o.warp_syncs == record.warp_syncs
                    && !benign(o, &record)
            });
            let found = other_warp
                .map(|o| (*o, false))
                .or(same_warp.map(|o| (*o, true)));
            let list = if record.kind.writes() {
                &mut slot.writes
            } else {
                &mut slot.reads
            };
            let keep = match list.as_slice() {
                [] => true,
                [first] => first.linear != record.linear,
                [first, ..] if list.len() < 3 => {
                    warp(first) != warp(&record) && list.iter().all(|r| warp(r) != warp(&record))
                }
                _ => false,
            };
            if keep {
                list.push(record);
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

/// Two threads storing the same value: no outcome depends on their order.
fn benign(a: &Record, b: &Record) -> bool {
    a.kind == AccessKind::Write
        && b.kind == AccessKind::Write
        && match (a.stored, b.stored) {
            (Stored::Int(x), Stored::Int(y)) => x == y,
            (Stored::Uniform(x), Stored::Uniform(y)) => x == y,
            _ => false,
        }
}

/// Where an assignment or a read lands.
#[derive(Debug, Clone, Copy)]
enum Place<'t> {
    Local(&'t str),
    /// An element, or with `row` a row of a multi-dimensional array (which decays to a pointer
    /// to its first element, `ptr`).
    Shared {
        ptr: Ptr,
        node: Node<'t>,
        row: bool,
    },
    /// Memory the run does not follow (global, local arrays, fields).
    Elsewhere,
}

struct Thread<'p, 'm, 't> {
    program: &'p Program<'m, 't>,
    block: [i64; 3],
    thread: [i64; 3],
    linear: i64,
    epoch: u32,
    passed: Vec<Node<'t>>,
    /// Locals, innermost last.
    scopes: Vec<(&'t str, Val)>,
    frames: Vec<usize>,
    budget: &'p mut u64,
    log: &'p mut Log<'t>,
    /// Inside a part whose execution is not certain: accesses are not logged.
    speculative: u32,
    warp_syncs: u32,
    /// Whether the last place outside shared memory may differ between threads.
    elsewhere_varies: bool,
}

impl<'p, 'm, 't> Thread<'p, 'm, 't> {
    fn source(&self) -> &'t str {
        self.program.model.source
    }

    fn text(&self, node: Node<'t>) -> &'t str {
        text(node, self.program.model.source)
    }

    fn bind_entry(&mut self) {
        for (name, id) in &self.program.globals {
            let value = self.array_value(*id);
            self.scopes.push((name, value));
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
            self.scopes.push((name, value));
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
        Val::Ptr(Ptr {
            array: id,
            byte: 0,
            element: array.element,
            shape,
            extent: array.dims.first().copied().flatten(),
        })
    }

    fn lookup(&self, name: &str) -> Option<Val> {
        self.scopes
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
    }

    fn assign_local(&mut self, name: &str, value: Val) {
        if let Some(slot) = self.scopes.iter_mut().rev().find(|(n, _)| *n == name) {
            slot.1 = value;
        }
    }

    fn step(&mut self) -> bool {
        if *self.budget == 0 {
            return false;
        }
        *self.budget -= 1;
        true
    }

    // ---- statements -------------------------------------------------------------------

    fn statement(&mut self, node: Node<'t>, depth: usize) -> Flow {
        if depth > MAX_NESTING || !self.step() {
            return Flow::Invalid;
        }
        match node.node_kind() {
            "compound_statement" => {
                self.frames.push(self.scopes.len());
                let mut flow = Flow::Normal;
                for child in named_children(node) {
                    flow = self.statement(child, depth + 1);
                    if flow != Flow::Normal {
                        break;
                    }
                }
                if let Some(mark) = self.frames.pop() {
                    self.scopes.truncate(mark);
                }
                flow
            }
            "declaration" => self.declaration(node, depth),
            "expression_statement" => {
                for child in named_children(node) {
                    if let Err(flow) = self.eval(child, depth + 1) {
                        return flow;
                    }
                }
                Flow::Normal
            }
            "if_statement" => {
                let Some(condition) = node.field("condition") else {
                    return Flow::Stop;
                };
                let value = match self.condition(condition, depth) {
                    Ok(v) => v,
                    Err(flow) => return flow,
                };
                match value.truth() {
                    Some(true) => node
                        .field("consequence")
                        .map_or(Flow::Normal, |c| self.statement(c, depth + 1)),
                    Some(false) => match node.field("alternative") {
                        Some(alternative) => {
                            let mut flow = Flow::Normal;
                            for child in named_children(alternative) {
                                flow = self.statement(child, depth + 1);
                                if flow != Flow::Normal {
                                    break;
                                }
                            }
                            flow
                        }
                        None => Flow::Normal,
                    },
                    None => self.unknown_region(node, false),
                }
            }
            "for_statement" => self.for_loop(node, depth),
            "while_statement" => {
                let (Some(condition), Some(body)) = (node.field("condition"), node.field("body"))
                else {
                    return Flow::Stop;
                };
                let mut iterations = 0;
                loop {
                    iterations += 1;
                    if iterations > MAX_ITERATIONS {
                        return Flow::Stop;
                    }
                    let value = match self.condition(condition, depth) {
                        Ok(v) => v,
                        Err(flow) => return flow,
                    };
                    match value.truth() {
                        Some(false) => return Flow::Normal,
                        None => return self.unknown_region(node, true),
                        Some(true) => {}
                    }
                    match self.statement(body, depth + 1) {
                        Flow::Break => return Flow::Normal,
                        Flow::Normal | Flow::Continue => {}
                        other => return other,
                    }
                }
            }
            "do_statement" => {
                let (Some(condition), Some(body)) = (node.field("condition"), node.field("body"))
                else {
                    return Flow::Stop;
                };
                let mut iterations = 0;
                loop {
                    iterations += 1;
                    if iterations > MAX_ITERATIONS {
                        return Flow::Stop;
                    }
                    match self.statement(body, depth + 1) {
                        Flow::Break => return Flow::Normal,
                        Flow::Normal | Flow::Continue => {}
                        other => return other,
                    }
                    let value = match self.eval(condition, depth + 1) {
                        Ok(v) => v,
                        Err(flow) => return flow,
                    };
                    match value.truth() {
                        Some(false) => return Flow::Normal,
                        None => return self.unknown_region(node, true),
                        Some(true) => {}
                    }
                }
            }
            "return_statement" => {
                for child in named_children(node) {
                    if let Err(flow) = self.eval(child, depth + 1) {
                        return flow;
                    }
                }
                Flow::Return
            }
            "break_statement" => Flow::Break,
            "continue_statement" => Flow::Continue,
            "labeled_statement" => {
                match named_children(node).find(|c| c.node_kind() != "statement_identifier") {
                    Some(inner) => self.statement(inner, depth + 1),
                    None => Flow::Normal,
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
            | "static_assert_declaration" => Flow::Normal,
            // switch, goto, range loops, try: not followed
            _ => self.unknown_region(node, false),
        }
    }

    fn condition(&mut self, condition: Node<'t>, depth: usize) -> Result<Val, Flow> {
        let condition = if condition.node_kind() == "condition_clause" {
            match condition
                .field("value")
                .or_else(|| named_children(condition).next())
            {
                Some(c) => c,
                None => return Ok(Val::Unknown(true)),
            }
        } else {
            condition
        };
        if condition.node_kind() == "declaration" {
            return Ok(Val::Unknown(true));
        }
        self.eval(condition, depth + 1)
    }

    /// A region whose execution is not known (a branch on an unknown condition, a statement the
    /// run does not follow): what it assigns becomes unknown; if it can pass a barrier or leave
    /// the enclosing code, the thread stops.
    fn unknown_region(&mut self, node: Node<'t>, is_loop: bool) -> Flow {
        let source = self.source();
        let mut leaves = false;
        let mut assigned: Vec<&'t str> = Vec::new();
        walk_iterative(node, |n| {
            match n.node_kind() {
                "return_statement" | "goto_statement" => leaves = true,
                "break_statement" | "continue_statement" if !is_loop => leaves = true,
                "call_expression" if self.program.call_may_sync(n) => leaves = true,
                "gnu_asm_expression" => leaves = true,
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
            !leaves
        });
        if leaves {
            return Flow::Stop;
        }
        for name in assigned {
            self.assign_local(name, Val::Unknown(true));
        }
        Flow::Normal
    }

    fn for_loop(&mut self, node: Node<'t>, depth: usize) -> Flow {
        self.frames.push(self.scopes.len());
        let flow = self.for_loop_inner(node, depth);
        if let Some(mark) = self.frames.pop() {
            self.scopes.truncate(mark);
        }
        flow
    }

    fn for_loop_inner(&mut self, node: Node<'t>, depth: usize) -> Flow {
        if let Some(initializer) = node.field("initializer") {
            let flow = if initializer.node_kind() == "declaration" {
                self.declaration(initializer, depth)
            } else {
                match self.eval(initializer, depth + 1) {
                    Ok(_) => Flow::Normal,
                    Err(flow) => flow,
                }
            };
            if flow != Flow::Normal {
                return flow;
            }
        }
        let condition = node.field("condition");
        let update = node.field("update");
        let Some(body) = node.field("body") else {
            return Flow::Stop;
        };
        let mut iterations = 0;
        loop {
            iterations += 1;
            if iterations > MAX_ITERATIONS {
                return Flow::Stop;
            }
            if let Some(condition) = condition {
                let value = match self.condition(condition, depth) {
                    Ok(v) => v,
                    Err(flow) => return flow,
                };
                match value.truth() {
                    Some(false) => return Flow::Normal,
                    None => return self.unknown_region(node, true),
                    Some(true) => {}
                }
            }
            match self.statement(body, depth + 1) {
                Flow::Break => return Flow::Normal,
                Flow::Normal | Flow::Continue => {}
                other => return other,
            }
            if let Some(update) = update {
                if let Err(flow) = self.eval(update, depth + 1) {
                    return flow;
                }
            }
        }
    }

    fn declaration(&mut self, node: Node<'t>, depth: usize) -> Flow {
        let source = self.source();
        if let Some(id) = self.program.declared.get(&node.id()).copied() {
            if let Some(name) = named_children(node).find_map(crate::syntax::declarator_name) {
                let value = match self.program.arrays.get(id as usize) {
                    // a scalar is a place: the name itself is looked up as one
                    Some(array) if array.scalar => Val::Ptr(Ptr {
                        array: id,
                        byte: 0,
                        element: array.element,
                        shape: Shape::FLAT,
                        extent: None,
                    }),
                    _ => self.array_value(id),
                };
                self.scopes.push((text(name, source), value));
            }
            return Flow::Normal;
        }
        let type_text = node.field("type").map(|t| text(t, source)).unwrap_or("");
        let integral = is_integer_type(type_text) || type_text == "auto";
        for declarator in named_children(node) {
            let (target, value) = match declarator.node_kind() {
                "init_declarator" => (declarator.field("declarator"), declarator.field("value")),
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
            let mut stored = Val::Unknown(true);
            if let Some(value) = value {
                let value = if matches!(value.node_kind(), "initializer_list" | "argument_list") {
                    match named_children(value).collect::<Vec<_>>().as_slice() {
                        [single] => *single,
                        _ => {
                            for child in named_children(value) {
                                if let Err(flow) = self.eval(child, depth + 1) {
                                    return flow;
                                }
                            }
                            self.scopes.push((text(name, source), Val::Unknown(true)));
                            continue;
                        }
                    }
                } else {
                    value
                };
                let evaluated = match self.eval(value, depth + 1) {
                    Ok(v) => v,
                    Err(flow) => return flow,
                };
                stored = match evaluated {
                    Val::Ptr(p) if pointer => match pointee_size(type_text) {
                        Some(size) if size == p.element => {
                            Val::Ptr(p)
                        }
                        _ if same_type(
                            type_text,
                            self.program
                                .arrays
                                .get(p.array as usize)
                                .map_or("", |a| a.element_type.as_str()),
                        ) =>
                        {
                            Val::Ptr(p)
                        }
                        _ => Val::Unknown(true),
                    },
                    Val::Ptr(_) => Val::Unknown(true),
                    Val::Int(..) | Val::Chosen(_) if integral && !pointer && !reference => {
                        evaluated
                    }
                    other => Val::Unknown(other.varies()),
                };
            }
            self.scopes.push((text(name, source), stored));
        }
        Flow::Normal
    }

    // ---- expressions ------------------------------------------------------------------

    fn eval(&mut self, node: Node<'t>, depth: usize) -> Result<Val, Flow> {
        if depth > MAX_NESTING || !self.step() {
            return Err(Flow::Invalid);
        }
        let source = self.source();
        match node.node_kind() {
            "number_literal" => Ok(crate::model::size::parse_number(self.text(node))
                .filter(|_| {
                    !self.text(node).contains(['.', 'e', 'E']) || self.text(node).starts_with("0x")
                })
                .and_then(|v| i64::try_from(v).ok())
                .map_or(Val::Unknown(false), |v| Val::Int(v, false))),
            "true" => Ok(Val::Int(1, false)),
            "false" => Ok(Val::Int(0, false)),
            "char_literal" | "string_literal" | "null" | "nullptr" => Ok(Val::Unknown(false)),
            "parenthesized_expression" => {
                match named_children(node).find(|c| c.node_kind() != "comment") {
                    Some(inner) => self.eval(inner, depth + 1),
                    None => Ok(Val::Unknown(true)),
                }
            }
            "identifier" => {
                let name = self.text(node);
                match self.place_of_identifier(node) {
                    Place::Shared { ptr, node, .. } => Ok(self.read(ptr, node)),
                    _ => Ok(self.identifier_value(name)),
                }
            }
            "field_expression" => {
                let Some(argument) = node.field("argument") else {
                    return Ok(Val::Unknown(true));
                };
                let field = node.field("field").map(|f| self.text(f)).unwrap_or("");
                let axis = match field {
                    "x" => Some(0),
                    "y" => Some(1),
                    "z" => Some(2),
                    _ => None,
                };
                match (self.text(argument), axis) {
                    ("threadIdx", Some(a)) => Ok(Val::Int(self.thread[a], true)),
                    ("blockDim", Some(a)) => Ok(Val::Int(self.block[a], false)),
                    ("blockIdx", Some(_)) => Ok(Val::Int(0, false)),
                    ("gridDim", Some(_)) => Ok(Val::Unknown(false)),
                    _ => {
                        // a member of something: evaluate the object for its reads, not followed
                        let object = self.eval(argument, depth + 1)?;
                        Ok(Val::Unknown(object.varies()))
                    }
                }
            }
            "binary_expression" => {
                let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
                    return Ok(Val::Unknown(true));
                };
                let op = operator(node, source);
                let l = self.eval(left, depth + 1)?;
                match op {
                    "&&" | "||" => {
                        let short = if op == "&&" { Some(false) } else { Some(true) };
                        if l.truth() == short {
                            return Ok(Val::Int((op == "||") as i64, l.varies()));
                        }
                        let certain = l.truth().is_some();
                        if !certain {
                            self.speculative += 1;
                        }
                        let r = self.eval(right, depth + 1);
                        if !certain {
                            self.speculative -= 1;
                        }
                        let r = r?;
                        let varies = l.varies() || r.varies();
                        Ok(match (l.truth(), r.truth()) {
                            (Some(_), Some(b)) => Val::Int(b as i64, varies),
                            (None, Some(b)) if Some(b) == short => Val::Int(b as i64, varies),
                            _ => Val::Unknown(varies),
                        })
                    }
                    _ => {
                        let r = self.eval(right, depth + 1)?;
                        Ok(binary(op, l, r))
                    }
                }
            }
            "unary_expression" => {
                let Some(argument) = node.field("argument") else {
                    return Ok(Val::Unknown(true));
                };
                let v = self.eval(argument, depth + 1)?;
                Ok(match (operator(node, source), v) {
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
                })
            }
            "conditional_expression" => {
                let Some(condition) = node.field("condition") else {
                    return Ok(Val::Unknown(true));
                };
                let c = self.eval(condition, depth + 1)?;
                let (consequence, alternative) =
                    (node.field("consequence"), node.field("alternative"));
                match c.truth() {
                    Some(true) => {
                        consequence.map_or(Ok(Val::Unknown(true)), |n| self.eval(n, depth + 1))
                    }
                    Some(false) => {
                        alternative.map_or(Ok(Val::Unknown(true)), |n| self.eval(n, depth + 1))
                    }
                    None => {
                        self.speculative += 1;
                        let a = consequence.map(|n| self.eval(n, depth + 1));
                        let b = alternative.map(|n| self.eval(n, depth + 1));
                        self.speculative -= 1;
                        let (a, b) = (a.transpose()?, b.transpose()?);
                        Ok(match (a, b) {
                            (Some(Val::Int(x, s)), Some(Val::Int(y, t))) if x == y => {
                                Val::Int(x, s || t || c.varies())
                            }
                            _ => Val::Unknown(true),
                        })
                    }
                }
            }
            "cast_expression" => {
                let Some(value) = node.field("value") else {
                    return Ok(Val::Unknown(true));
                };
                let v = self.eval(value, depth + 1)?;
                let type_text = node.field("type").map(|t| self.text(t)).unwrap_or("");
                Ok(self.cast(type_text, v))
            }
            "assignment_expression" => self.assignment(node, depth),
            "update_expression" => {
                let Some(argument) = node.field("argument") else {
                    return Ok(Val::Unknown(true));
                };
                let op = operator(node, source);
                let delta = if op == "--" { -1 } else { 1 };
                let prefix = node.child(0).is_some_and(|c| !c.is_named());
                match self.place(argument, depth)? {
                    Place::Local(name) => {
                        let old = self.identifier_value(name);
                        let new = binary("+", old, Val::Int(delta, false));
                        self.assign_local(name, new);
                        Ok(if prefix { new } else { old })
                    }
                    Place::Shared {
                        ptr,
                        node,
                        row: false,
                    } => {
                        self.access(ptr, node, AccessKind::ReadWrite, Stored::Varying);
                        Ok(Val::Unknown(true))
                    }
                    _ => Ok(Val::Unknown(true)),
                }
            }
            "subscript_expression" | "pointer_expression" => {
                if node.node_kind() == "pointer_expression" && operator(node, source) == "&" {
                    let Some(argument) = node.field("argument") else {
                        return Ok(Val::Unknown(true));
                    };
                    return Ok(match self.place(argument, depth)? {
                        Place::Shared { ptr, .. } => Val::Ptr(ptr),
                        _ => Val::Unknown(true),
                    });
                }
                match self.place(node, depth)? {
                    // a row of a multi-dimensional array: a pointer, not a read
                    Place::Shared { ptr, row: true, .. } => Ok(Val::Ptr(ptr)),
                    Place::Shared { ptr, node, .. } => Ok(self.read(ptr, node)),
                    Place::Local(name) => Ok(self.identifier_value(name)),
                    Place::Elsewhere => Ok(Val::Unknown(std::mem::replace(
                        &mut self.elsewhere_varies,
                        true,
                    ))),
                }
            }
            "call_expression" => self.call(node, depth),
            "comma_expression" => {
                let mut last = Val::Unknown(true);
                for child in named_children(node) {
                    last = self.eval(child, depth + 1)?;
                }
                Ok(last)
            }
            "sizeof_expression" => {
                let size = node
                    .field("type")
                    .and_then(|t| crate::model::size::builtin_size(self.text(t)))
                    .and_then(|v| i64::try_from(v).ok());
                Ok(size.map_or(Val::Unknown(false), |s| Val::Int(s, false)))
            }
            "lambda_expression" => Ok(Val::Unknown(true)),
            "gnu_asm_expression" => {
                self.poison();
                Ok(Val::Unknown(true))
            }
            _ => {
                // anything else: evaluate the parts for their reads; the value is not followed
                let mut varies = false;
                for child in named_children(node) {
                    if child.node_kind().ends_with("_statement") {
                        return Err(Flow::Stop);
                    }
                    varies |= self.eval(child, depth + 1)?.varies();
                }
                Ok(Val::Unknown(varies))
            }
        }
    }

    fn identifier_value(&self, name: &str) -> Val {
        if let Some(v) = self.lookup(name) {
            return v;
        }
        if let Some(v) = self.program.named_constant(name) {
            return Val::Int(v, false);
        }
        // `#define tid threadIdx.x`
        if let Some(value) = self.program.model.define(name) {
            let compact: String = value
                .chars()
                .filter(|c| !c.is_whitespace() && *c != '(' && *c != ')')
                .collect();
            if let Some((object, field)) = compact.split_once('.') {
                let axis = match field {
                    "x" => 0,
                    "y" => 1,
                    "z" => 2,
                    _ => return Val::Unknown(false),
                };
                return match object {
                    "threadIdx" => Val::Int(self.thread[axis], true),
                    "blockDim" => Val::Int(self.block[axis], false),
                    "blockIdx" => Val::Int(0, false),
                    _ => Val::Unknown(false),
                };
            }
        }
        match name {
            "warpSize" => Val::Int(32, false),
            _ => Val::Unknown(false),
        }
    }

    fn poison(&mut self) {
        if !self.log.poisoned.contains(&self.epoch) {
            self.log.poisoned.push(self.epoch);
        }
    }

    fn cast(&self, type_text: &str, value: Val) -> Val {
        match value {
            Val::Ptr(p) => {
                if !type_text.contains('*') {
                    return Val::Unknown(true);
                }
                match pointee_size(type_text) {
                    Some(size) if p.shape.len == 0 || size == p.element => Val::Ptr(Ptr {
                        element: size,
                        shape: Shape::FLAT,
                        extent: None,
                        ..p
                    }),
                    _ if same_type(
                        type_text,
                        self.program
                            .arrays
                            .get(p.array as usize)
                            .map_or("", |a| a.element_type.as_str()),
                    ) =>
                    {
                        Val::Ptr(p)
                    }
                    _ => Val::Unknown(true),
                }
            }
            Val::Int(v, t) => {
                let t_norm = type_text.replace(' ', "");
                if t_norm.contains("float") || t_norm.contains("double") || t_norm.contains("half")
                {
                    Val::Unknown(t)
                } else if t_norm == "unsigned"
                    || t_norm == "unsignedint"
                    || t_norm == "uint32_t"
                    || t_norm == "uint"
                {
                    Val::Int(v & 0xffff_ffff, t)
                } else if t_norm == "int" || t_norm == "int32_t" {
                    Val::Int(v as i32 as i64, t)
                } else {
                    Val::Int(v, t)
                }
            }
            other => other,
        }
    }

    /// The place an lvalue expression names.
    fn place(&mut self, node: Node<'t>, depth: usize) -> Result<Place<'t>, Flow> {
        if depth > MAX_NESTING {
            return Err(Flow::Invalid);
        }
        let source = self.source();
        let node_kind = node.node_kind();
        match node_kind {
            "parenthesized_expression" => {
                match named_children(node).find(|c| c.node_kind() != "comment") {
                    Some(inner) => self.place(inner, depth + 1),
                    None => Ok(Place::Elsewhere),
                }
            }
            "identifier" => Ok(self.place_of_identifier(node)),
            "subscript_expression" => {
                let (Some(base), Some(index)) = (node.field("argument"), subscript_index(node))
                else {
                    return Ok(Place::Elsewhere);
                };
                let base = self.eval_pointer(base, depth)?;
                let index = self.eval(index, depth + 1)?;
                // memory the run does not follow holds the same for every thread at a uniform place
                self.elsewhere_varies = base.varies() || index.varies();
                Ok(self.offset(base, index, node, true))
            }
            "pointer_expression" if operator(node, source) == "*" => {
                let Some(argument) = node.field("argument") else {
                    return Ok(Place::Elsewhere);
                };
                let pointer = self.eval(argument, depth + 1)?;
                self.elsewhere_varies = pointer.varies();
                Ok(self.offset(pointer, Val::Int(0, false), node, false))
            }
            "field_expression" => {
                // a member of a shared struct: members are not told apart, so not followed
                if let Some(argument) = node.field("argument") {
                    if argument.node_kind() != "identifier" {
                        self.eval(argument, depth + 1)?;
                    }
                }
                Ok(Place::Elsewhere)
            }
            _ => {
                self.eval(node, depth + 1)?;
                Ok(Place::Elsewhere)
            }
        }
    }

    /// The base of a subscript: an array or pointer value (a row of a 2D array stays a pointer).
    fn eval_pointer(&mut self, base: Node<'t>, depth: usize) -> Result<Val, Flow> {
        let stripped = crate::syntax::strip(base, self.source());
        if stripped.node_kind() == "subscript_expression" {
            return Ok(match self.place(stripped, depth + 1)? {
                Place::Shared { ptr, row: true, .. } => Val::Ptr(ptr),
                Place::Shared { ptr, node, .. } => self.read(ptr, node),
                _ => Val::Unknown(true),
            });
        }
        if stripped.node_kind() == "identifier" {
            return Ok(self.identifier_value(self.text(stripped)));
        }
        self.eval(base, depth + 1)
    }

    fn place_of_identifier(&self, node: Node<'t>) -> Place<'t> {
        let name = self.text(node);
        match self.lookup(name) {
            Some(Val::Ptr(p))
                if self
                    .program
                    .arrays
                    .get(p.array as usize)
                    .is_some_and(|a| a.scalar)
                    && self.is_scalar_binding(name, p) =>
            {
                Place::Shared {
                    ptr: p,
                    node,
                    row: false,
                }
            }
            Some(_) => Place::Local(name),
            None => Place::Elsewhere,
        }
    }

    /// Whether `name` is the shared scalar itself (not a pointer local that holds its address).
    fn is_scalar_binding(&self, name: &str, ptr: Ptr) -> bool {
        self.program
            .arrays
            .get(ptr.array as usize)
            .is_some_and(|a| a.name == name)
            && ptr.byte == 0
    }

    /// `base[index]` (or `*base`): the element's place, checked against the array's extents.
    fn offset(&mut self, base: Val, index: Val, node: Node<'t>, subscript: bool) -> Place<'t> {
        let (Val::Ptr(ptr), Val::Int(index, _)) = (base, index) else {
            return Place::Elsewhere;
        };
        let Some(row) = ptr.shape.row_bytes(ptr.element) else {
            return Place::Elsewhere;
        };
        if subscript {
            if let Some(extent) = ptr.extent {
                if index < 0 || index >= extent {
                    return self.out_of_bounds();
                }
            }
        }
        let Some(byte) = index.checked_mul(row).and_then(|b| b.checked_add(ptr.byte)) else {
            return Place::Elsewhere;
        };
        let inner = ptr.shape.inner();
        let extent = (ptr.shape.len > 0).then(|| ptr.shape.dims[0]);
        Place::Shared {
            ptr: Ptr {
                array: ptr.array,
                byte,
                element: ptr.element,
                shape: inner,
                extent,
            },
            node,
            row: ptr.shape.len > 0,
        }
    }

    fn out_of_bounds(&mut self) -> Place<'t> {
        if self.speculative == 0 {
            self.log.poisoned.push(OUTSIDE);
        }
        Place::Elsewhere
    }

    fn read(&mut self, ptr: Ptr, node: Node<'t>) -> Val {
        self.access(ptr, node, AccessKind::Read, Stored::Varying);
        Val::Unknown(true)
    }

    fn access(&mut self, ptr: Ptr, node: Node<'t>, kind: AccessKind, stored: Stored) {
        if self.speculative > 0 {
            return;
        }
        let Some(array) = self.program.arrays.get(ptr.array as usize) else {
            return;
        };
        let size = ptr.element.max(1);
        let outside = ptr.byte < 0 || array.bytes().is_some_and(|total| ptr.byte + size > total);
        if outside {
            self.log.poisoned.push(OUTSIDE);
            return;
        }
        let site = self.log.site(node);
        let record = Record {
            thread: self.thread,
            linear: self.linear,
            site,
            kind,
            warp_syncs: self.warp_syncs,
            stored,
        };
        self.log
            .record(self.epoch, ptr.array, ptr.byte, size, record);
    }

    fn assignment(&mut self, node: Node<'t>, depth: usize) -> Result<Val, Flow> {
        let source = self.source();
        let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
            return Ok(Val::Unknown(true));
        };
        let op = operator(node, source);
        let value = self.eval(right, depth + 1)?;
        let site_of_value = right;
        match self.place(left, depth)? {
            Place::Local(name) => {
                let new = if op == "=" {
                    value
                } else {
                    let old = self.identifier_value(name);
                    binary(op.trim_end_matches('='), old, value)
                };
                let new = match (self.lookup(name), new) {
                    // an integer local keeps integers; a pointer keeps pointers
                    (Some(Val::Ptr(_)), Val::Ptr(_)) | (_, Val::Int(..)) => new,
                    (_, Val::Ptr(_)) => Val::Unknown(true),
                    _ => new,
                };
                self.assign_local(name, new);
                Ok(new)
            }
            Place::Shared {
                ptr,
                node,
                row: false,
            } => {
                if op == "=" {
                    let stored = match value {
                        Val::Int(v, _) | Val::Chosen(v) => Stored::Int(v),
                        Val::Unknown(false) => Stored::Uniform(self.log.site(site_of_value)),
                        _ => Stored::Varying,
                    };
                    self.access(ptr, node, AccessKind::Write, stored);
                } else {
                    self.access(ptr, node, AccessKind::ReadWrite, Stored::Varying);
                }
                Ok(Val::Unknown(true))
            }
            _ => Ok(Val::Unknown(true)),
        }
    }

    fn call(&mut self, node: Node<'t>, depth: usize) -> Result<Val, Flow> {
        let source = self.source();
        let Some(function) = node.field("function") else {
            return Ok(Val::Unknown(true));
        };
        if crate::syntax::is_functional_cast(node, source) {
            let inner = node
                .field("arguments")
                .and_then(|a| named_children(a).next());
            let value = match inner {
                Some(inner) => self.eval(inner, depth + 1)?,
                None => Val::Unknown(true),
            };
            let type_text = match function.node_kind() {
                "template_function" => function
                    .field("arguments")
                    .map(|a| self.text(a).trim_matches(['<', '>']))
                    .unwrap_or(""),
                _ => self.text(function),
            };
            return Ok(self.cast(type_text, value));
        }
        if is_block_barrier(node, source) {
            if let Some(arguments) = node.field("arguments") {
                for argument in named_children(arguments) {
                    self.eval(argument, depth + 1)?;
                }
            }
            if self.speculative > 0 {
                return Err(Flow::Stop);
            }
            self.passed.push(node);
            self.epoch += 1;
            // `__syncthreads_count` and the like return the same value to every thread
            return Ok(Val::Unknown(false));
        }
        let name = self.text(function);
        let short = name.rsplit("::").next().unwrap_or(name);
        let short = short.split('<').next().unwrap_or(short).trim();
        if short == "__syncwarp" {
            if self.speculative > 0 {
                return Err(Flow::Stop);
            }
            self.warp_syncs += 1;
        }
        let arguments: Vec<Node<'t>> = node
            .field("arguments")
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
            // atomics do not race with each other; their address is not a plain access
            for (position, argument) in arguments.iter().enumerate() {
                if position == 0 {
                    let stripped = crate::syntax::strip(*argument, source);
                    if stripped.node_kind() == "pointer_expression"
                        && operator(stripped, source) == "&"
                    {
                        if let Some(inner) = stripped.field("argument") {
                            self.place(inner, depth + 1)?;
                        }
                        continue;
                    }
                }
                self.eval(*argument, depth + 1)?;
            }
            return Ok(Val::Unknown(true));
        }
        if function.node_kind() == "field_expression" {
            // a method: its object and arguments are evaluated for their reads
            if let Some(object) = function.field("argument") {
                self.eval(object, depth + 1)?;
            }
        }
        let mut values = Vec::with_capacity(arguments.len());
        for argument in &arguments {
            values.push(self.eval(*argument, depth + 1)?);
        }
        if self.program.call_may_sync(node) {
            self.poison();
            return Ok(Val::Unknown(true));
        }
        let varies = values.iter().any(|v| v.varies());
        let int = |i: usize| match values.get(i) {
            Some(Val::Int(v, _)) => Some(*v),
            _ => None,
        };
        Ok(match (short, values.len()) {
            ("min" | "umin" | "imin" | "llmin" | "MIN", 2) => match (int(0), int(1)) {
                (Some(a), Some(b)) => Val::Int(a.min(b), varies),
                _ => Val::Unknown(varies),
            },
            ("max" | "umax" | "imax" | "llmax" | "MAX", 2) => match (int(0), int(1)) {
                (Some(a), Some(b)) => Val::Int(a.max(b), varies),
                _ => Val::Unknown(varies),
            },
            ("abs", 1) => int(0).map_or(Val::Unknown(varies), |a| Val::Int(a.abs(), varies)),
            ("__mul24" | "__umul24", 2) => match (int(0), int(1)) {
                (Some(a), Some(b)) => a
                    .checked_mul(b)
                    .map_or(Val::Unknown(varies), |v| Val::Int(v, varies)),
                _ => Val::Unknown(varies),
            },
            ("thread_rank", 0) => Val::Int(self.linear, true),
            ("__lane_id" | "laneid", 0) => Val::Int(self.linear % 32, true),
            _ if is_pure_builtin(short) => Val::Unknown(varies),
            // a helper of this file with no barrier: its result is followed no further
            _ => Val::Unknown(true),
        })
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

fn binary(op: &str, l: Val, r: Val) -> Val {
    let varies = l.varies() || r.varies();
    match (l, r) {
        (Val::Int(a, _), Val::Int(b, _)) => {
            arithmetic(op, a, b).map_or(Val::Unknown(varies), |v| Val::Int(v, varies))
        }
        (Val::Chosen(a) | Val::Int(a, _), Val::Chosen(b) | Val::Int(b, _)) => {
            match (op, arithmetic(op, a, b)) {
                (_, None) | ("==" | "!=", _) => Val::Unknown(varies),
                ("<" | "<=" | ">" | ">=", Some(v)) => Val::Int(v, varies),
                (_, Some(v)) if !varies => Val::Chosen(v),
                _ => Val::Unknown(varies),
            }
        }
        (Val::Ptr(p), Val::Int(b, _)) if op == "+" || op == "-" => {
            let Some(row) = p.shape.row_bytes(p.element) else {
                return Val::Unknown(true);
            };
            let delta = if op == "-" { b.checked_neg() } else { Some(b) };
            match delta
                .and_then(|d| d.checked_mul(row))
                .and_then(|d| d.checked_add(p.byte))
            {
                Some(byte) => Val::Ptr(Ptr {
                    byte,
                    extent: None,
                    ..p
                }),
                None => Val::Unknown(true),
            }
        }
        (Val::Int(a, _), Val::Ptr(p)) if op == "+" => binary("+", Val::Ptr(p), Val::Int(a, false)),
        _ => Val::Unknown(varies),
    }
}

fn arithmetic(op: &str, a: i64, b: i64) -> Option<i64> {
    Some(match op {
        "+" => a.checked_add(b)?,
        "-" => a.checked_sub(b)?,
        "*" => a.checked_mul(b)?,
        "/" => a.checked_div(b)?,
        "%" => a.checked_rem(b)?,
        "<<" => {
            if !(0..63).contains(&b) {
                return None;
            }
            a.checked_mul(1i64 << b)?
        }
        ">>" => {
            if !(0..63).contains(&b) {
                return None;
            }
            a >> b
        }
        "&" => a & b,
        "|" => a | b,
        "^" => a ^ b,
        "<" => (a < b) as i64,
        "<=" => (a <= b) as i64,
        ">" => (a > b) as i64,
        ">=" => (a >= b) as i64,
        "==" => (a == b) as i64,
        "!=" => (a != b) as i64,
        _ => return None,
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

fn is_integer_type(type_text: &str) -> bool {
    let t = type_text
        .replace("const", "")
        .replace("unsigned", "int")
        .replace("signed", "int");
    let t = t.trim();
    matches!(
        t.split_whitespace().collect::<Vec<_>>().join(" ").as_str(),
        "int"
            | "int int"
            | "long"
            | "long long"
            | "int long"
            | "int long long"
            | "long int"
            | "short"
            | "int short"
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
            | "int char"
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
        for (_, facts) in model.kernel_facts() {
            for c in &facts.shared.conflicts {
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
