//! Kernels whose shared accesses no barrier interval can pair, shown from the syntax before any
//! run.
//!
//! A run (`Program::run`) reads the kernel for every thread of a block, which costs about as
//! much as parsing the kernel several times over. Most kernels that use shared memory are
//! written so that no pair can exist at all: a tile is loaded, each thread into its own element,
//! a barrier, the tile is read, a barrier. That is a fact of the barrier intervals alone: every
//! access that a path free of barriers joins to a write of the same array is the same thread's
//! own element (`tile[threadIdx.y][threadIdx.x]`), and every index stays inside its dimension.
//! When that holds for a block shape, the run of that shape is pair-free, and it need not be made.
//!
//! The proof is deliberately narrow: anything it cannot read (a call into a function of the file,
//! a barrier under a branch or in a loop whose trip count may differ between threads, an early
//! exit, a pointer into shared memory, an index that is not a constant, a thread coordinate or a
//! loop counter over constants) leaves the kernel to the runs, which decide it as before.

use super::{is_block_barrier, is_integer_type, is_shared, orders_lanes, Callee, Program};
use crate::syntax::{named_children, operator, strip, text, walk_iterative, NodeExt};
use rustc_hash::FxHashMap as HashMap;
use tree_sitter::Node;

/// The bodies the proof reads: larger kernels are left to the runs, whose step budget decides
/// what they conclude.
const MAX_BODY_BYTES: usize = 2048;
/// Statements and expressions read before giving up.
const MAX_STEPS: usize = 4096;
/// Nesting of statements read before giving up.
const MAX_DEPTH: usize = 48;
/// Passes over a loop before its state at the head settles.
const MAX_PASSES: usize = 8;

/// Whether no run with any of `blocks` can make a pair: each shape's accesses stay inside their
/// dimensions, and every two accesses of one array that some path joins with no barrier between
/// them are reads, or the same thread's own element.
pub(super) fn no_pair_possible(program: &Program<'_, '_>, blocks: &[[i64; 3]]) -> bool {
    let body = program.function.body;
    let length = body.end_byte().saturating_sub(body.start_byte());
    if blocks.is_empty() || length > MAX_BODY_BYTES || body.has_error() {
        return false;
    }
    let Some(names) = Names::of(program) else {
        return false;
    };
    blocks.iter().all(|block| {
        let mut proof = Proof {
            program,
            names: &names,
            block: *block,
            counters: Vec::new(),
            accesses: Vec::new(),
            by_node: HashMap::default(),
            steps: 0,
            conditional: 0,
        };
        proof.statement(body, Vec::new(), 0).is_ok()
    })
}

/// The proof could not be made: the runs decide.
struct GiveUp;

/// The names of the kernel the proof reads, found in one walk of its body.
struct Names<'t> {
    /// Locals that hold one thread coordinate for the whole kernel (`int tx = threadIdx.x;`),
    /// by name: the axis.
    coordinates: HashMap<&'t str, usize>,
    /// Every name something in the body writes (assigned, updated, its address taken).
    written: Vec<&'t str>,
    /// Where each write is: the name and the byte the writing expression starts at.
    writes: Vec<(&'t str, usize)>,
    /// Locals declared once with a value and never written, by name: the value.
    values: HashMap<&'t str, Node<'t>>,
}

impl<'t> Names<'t> {
    fn of(program: &Program<'_, 't>) -> Option<Names<'t>> {
        let source = program.scope.source;
        let mut declared: HashMap<&'t str, usize> = HashMap::default();
        let mut candidates: Vec<(&'t str, usize)> = Vec::new();
        let mut values: HashMap<&'t str, Node<'t>> = HashMap::default();
        let mut writes: Vec<(&'t str, usize)> = Vec::new();
        let mut lambda = false;
        walk_iterative(program.function.body, |node| {
            match node.node_kind() {
                "lambda_expression" => lambda = true,
                "init_declarator" => {
                    if let Some(name) = node
                        .field("declarator")
                        .and_then(crate::syntax::declarator_name)
                    {
                        let name = text(name, source);
                        *declared.entry(name).or_default() += 1;
                        if let Some(value) = node.field("value") {
                            values.insert(name, value);
                        }
                        let integer = node
                            .up()
                            .and_then(|d| d.field("type"))
                            .is_some_and(|t| whole_integer_type(text(t, source)));
                        if let Some(axis) = node
                            .field("value")
                            .and_then(|v| coordinate_axis(strip(v, source), source))
                        {
                            if integer {
                                candidates.push((name, axis));
                            }
                        }
                    }
                }
                "assignment_expression" => {
                    if let Some(left) = node.field("left") {
                        let left = strip(left, source);
                        if left.node_kind() == "identifier" {
                            writes.push((text(left, source), node.start_byte()));
                        }
                    }
                }
                "update_expression" | "pointer_expression" => {
                    let is_address =
                        node.node_kind() == "pointer_expression" && operator(node, source) == "&";
                    if node.node_kind() == "update_expression" || is_address {
                        if let Some(argument) = node.field("argument") {
                            let argument = strip(argument, source);
                            if argument.node_kind() == "identifier" {
                                writes.push((text(argument, source), node.start_byte()));
                            }
                        }
                    }
                }
                _ => {}
            }
            !lambda
        });
        if lambda {
            return None;
        }
        let mut written: Vec<&'t str> = writes.iter().map(|(name, _)| *name).collect();
        written.sort_unstable();
        written.dedup();
        let once = |name: &&'t str| {
            declared.get(name) == Some(&1)
                && !written.contains(name)
                && program.function.parameter(name).is_none()
        };
        let coordinates = candidates
            .into_iter()
            .filter(|(name, _)| once(name))
            .collect();
        values.retain(|name, _| once(name));
        Some(Names {
            coordinates,
            written,
            writes,
            values,
        })
    }
}

/// An integer type wide enough for any thread coordinate (not `char` or `short`).
fn whole_integer_type(type_text: &str) -> bool {
    let words = type_text.replace("const", " ");
    let words = words.trim();
    matches!(
        words,
        "auto" | "size_t" | "int32_t" | "uint32_t" | "int64_t" | "uint64_t" | "unsigned"
    ) || (is_integer_type(words) && !words.contains("char") && !words.contains("short"))
}

/// The axis of `threadIdx.x`, `threadIdx.y` or `threadIdx.z`, read as the runs read a field
/// expression (its object and its field).
fn coordinate_axis(node: Node, source: &str) -> Option<usize> {
    if node.node_kind() != "field_expression"
        || node.field("argument").map(|a| text(a, source)) != Some("threadIdx")
    {
        return None;
    }
    match node.field("field").map(|f| text(f, source)) {
        Some("x") => Some(0),
        Some("y") => Some(1),
        Some("z") => Some(2),
        _ => None,
    }
}

/// A loop's counter, with the values it takes in the body when they are constants.
#[derive(Clone, Copy)]
struct Counter<'t> {
    name: &'t str,
    values: Option<(i64, i64)>,
}

/// One index of a thread's own element: a constant, or one thread coordinate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Own {
    Constant(i64),
    Axis(usize),
}

/// A shared access the proof has met.
struct Access {
    array: usize,
    writes: bool,
    /// The element as the thread's own (distinct threads, distinct elements), when it is one.
    own: Option<Vec<Own>>,
}

/// The accesses some path since the last barrier has made, as positions in `Proof::accesses`,
/// sorted.
type Open = Vec<usize>;

fn union(mut a: Open, b: &Open) -> Open {
    a.extend_from_slice(b);
    a.sort_unstable();
    a.dedup();
    a
}

struct Proof<'p, 'm, 't> {
    program: &'p Program<'m, 't>,
    names: &'p Names<'t>,
    block: [i64; 3],
    /// The loop counters in force, each with the values it takes in its body.
    counters: Vec<(&'t str, i64, i64)>,
    accesses: Vec<Access>,
    by_node: HashMap<usize, usize>,
    steps: usize,
    /// Branches the statement being read sits in: a barrier there may be skipped by some threads.
    conditional: usize,
}

impl<'t> Proof<'_, '_, 't> {
    fn source(&self) -> &'t str {
        self.program.scope.source
    }

    fn step(&mut self, depth: usize) -> Result<(), GiveUp> {
        self.steps += 1;
        if self.steps > MAX_STEPS || depth > MAX_DEPTH {
            return Err(GiveUp);
        }
        Ok(())
    }

    /// The accesses open after `node`, given those open before it.
    fn statement(&mut self, node: Node<'t>, open: Open, depth: usize) -> Result<Open, GiveUp> {
        self.step(depth)?;
        let source = self.source();
        match node.node_kind() {
            "compound_statement" => {
                let mut open = open;
                for child in named_children(node) {
                    open = self.statement(child, open, depth + 1)?;
                }
                Ok(open)
            }
            "comment" => Ok(open),
            "expression_statement" => {
                let Some(expression) = named_children(node).find(|c| c.node_kind() != "comment")
                else {
                    return Ok(open);
                };
                if is_plain_barrier(expression, source) {
                    // every thread reaches it, so it closes every interval
                    return if self.conditional == 0 {
                        Ok(Vec::new())
                    } else {
                        Err(GiveUp)
                    };
                }
                self.expression(expression, open, depth + 1)
            }
            "declaration" => {
                if is_shared(node, source) {
                    return Ok(open);
                }
                let mut open = open;
                for declarator in named_children(node) {
                    if let Some(name) = crate::syntax::declarator_name(declarator) {
                        if self.array_named(text(name, source)).is_some() {
                            return Err(GiveUp); // a local hiding a shared array
                        }
                    }
                    if declarator.node_kind() == "init_declarator" {
                        if let Some(value) = declarator.field("value") {
                            open = self.expression(value, open, depth + 1)?;
                        }
                    }
                }
                Ok(open)
            }
            "if_statement" => {
                let condition = node.field("condition").ok_or(GiveUp)?;
                let open = self.expression(condition, open, depth + 1)?;
                self.conditional += 1;
                let taken = node
                    .field("consequence")
                    .map(|c| self.statement(c, open.clone(), depth + 1))
                    .transpose();
                let skipped = match node.field("alternative") {
                    Some(alternative) => {
                        let statement = if alternative.node_kind() == "else_clause" {
                            named_children(alternative)
                                .find(|c| c.node_kind() != "comment")
                                .ok_or(GiveUp)
                        } else {
                            Ok(alternative)
                        };
                        statement.and_then(|s| self.statement(s, open.clone(), depth + 1))
                    }
                    None => Ok(open),
                };
                self.conditional -= 1;
                let taken = taken?.ok_or(GiveUp)?;
                Ok(union(taken, &skipped?))
            }
            "for_statement" => self.for_loop(node, open, depth),
            // early exits, other loops, switches, labels and preprocessor lines are left to runs
            _ => Err(GiveUp),
        }
    }

    fn for_loop(&mut self, node: Node<'t>, open: Open, depth: usize) -> Result<Open, GiveUp> {
        let body = node.field("body").ok_or(GiveUp)?;
        let initializer = node.field("initializer");
        let condition = node.field("condition");
        let update = node.field("update");
        let inside = body.byte_range();
        let synchronises = self
            .program
            .barriers
            .iter()
            .any(|b| inside.contains(&b.start_byte()));
        let counter = self.counter(initializer, condition, update, body);
        if synchronises
            && !self.uniform_header(counter.map(|c| c.name), [initializer, condition, update])
        {
            return Err(GiveUp);
        }
        let entry = match initializer {
            Some(i) if i.node_kind() == "declaration" => self.statement(i, open, depth + 1)?,
            Some(i) => self.expression(i, open, depth + 1)?,
            None => open,
        };
        let ranged = counter.and_then(|c| c.values.map(|(low, high)| (c.name, low, high)));
        if let Some(ranged) = ranged {
            self.counters.push(ranged);
        }
        let mut head = entry.clone();
        let mut settled = false;
        for _ in 0..MAX_PASSES {
            let tested = match condition {
                Some(c) => self.expression(c, head.clone(), depth + 1)?,
                None => head.clone(),
            };
            let ran = self.statement(body, tested, depth + 1)?;
            let updated = match update {
                Some(u) => self.expression(u, ran, depth + 1)?,
                None => ran,
            };
            let next = union(entry.clone(), &updated);
            if next == head {
                settled = true;
                break;
            }
            head = next;
        }
        if ranged.is_some() {
            self.counters.pop();
        }
        if !settled {
            return Err(GiveUp);
        }
        match condition {
            Some(c) => self.expression(c, head, depth + 1),
            None => Err(GiveUp), // leaves only by `break`, which is not read here
        }
    }

    /// The counter of `for (int i = A; i < B; ++i)` (or `i += S`) that the body does not write,
    /// with the values it takes in the body when `A` and `B` are constants.
    fn counter(
        &self,
        initializer: Option<Node<'t>>,
        condition: Option<Node<'t>>,
        update: Option<Node<'t>>,
        body: Node<'t>,
    ) -> Option<Counter<'t>> {
        let source = self.source();
        let declarators: Vec<Node<'t>> = named_children(initializer?)
            .filter(|c| c.node_kind() == "init_declarator")
            .collect();
        let [declarator] = declarators.as_slice() else {
            return None;
        };
        let name = text(
            declarator
                .field("declarator")
                .and_then(crate::syntax::declarator_name)?,
            source,
        );
        let update = strip(update?, source);
        let steps_up = match update.node_kind() {
            "update_expression" => {
                text(update, source).contains("++")
                    && update
                        .field("argument")
                        .is_some_and(|a| text(strip(a, source), source) == name)
            }
            "assignment_expression" => {
                operator(update, source) == "+="
                    && update
                        .field("left")
                        .is_some_and(|l| text(strip(l, source), source) == name)
                    && update
                        .field("right")
                        .and_then(|r| self.range(r))
                        .is_some_and(|(step, _)| step > 0)
            }
            _ => false,
        };
        let inside = body.byte_range();
        let written = self
            .names
            .writes
            .iter()
            .any(|(written, at)| *written == name && inside.contains(at));
        if !steps_up || written {
            return None;
        }
        let values = self.counter_values(name, *declarator, condition);
        Some(Counter { name, values })
    }

    /// The values the counter `name` takes in the body of `for (int name = A; name < B; ...)`
    /// (or `<=`, or `B > name`), when `A` and `B` are constants.
    fn counter_values(
        &self,
        name: &str,
        declarator: Node<'t>,
        condition: Option<Node<'t>>,
    ) -> Option<(i64, i64)> {
        let source = self.source();
        let (low, _) = self.range(declarator.field("value")?)?;
        let condition = strip(condition?, source);
        if condition.node_kind() != "binary_expression" {
            return None;
        }
        let (left, right) = (
            strip(condition.field("left")?, source),
            strip(condition.field("right")?, source),
        );
        let last = match operator(condition, source) {
            "<" if text(left, source) == name => self.range(right)?.1.checked_sub(1)?,
            "<=" if text(left, source) == name => self.range(right)?.1,
            ">" if text(right, source) == name => self.range(left)?.1.checked_sub(1)?,
            _ => return None,
        };
        Some((low, last.max(low)))
    }

    /// Whether a loop header holding a barrier gives every thread the same trip count: it names
    /// only its own counter, the kernel's parameters that nothing writes, constants, locals that
    /// hold one such value, and the block's and grid's dimensions and coordinates.
    fn uniform_header(&self, counter: Option<&'t str>, parts: [Option<Node<'t>>; 3]) -> bool {
        counter.is_some()
            && parts
                .into_iter()
                .flatten()
                .all(|part| self.uniform(part, counter, 0))
    }

    fn uniform(&self, node: Node<'t>, counter: Option<&'t str>, depth: usize) -> bool {
        if depth > 8 {
            return false;
        }
        let source = self.source();
        let function = self.program.function;
        let mut uniform = true;
        walk_iterative(node, |n| {
            match n.node_kind() {
                "field_expression" => {
                    let object = n.field("argument").map(|a| text(a, source)).unwrap_or("");
                    uniform &= matches!(object, "blockIdx" | "blockDim" | "gridDim");
                    return false;
                }
                "identifier" => {
                    let name = text(n, source);
                    let written = self.names.written.contains(&name);
                    uniform &= Some(name) == counter
                        || (function.parameter(name).is_some() && !written)
                        || self.program.named_constant(name).is_some()
                        || self
                            .names
                            .values
                            .get(name)
                            .is_some_and(|value| self.uniform(*value, None, depth + 1));
                }
                "call_expression" | "subscript_expression" | "pointer_expression" => {
                    uniform = false
                }
                _ => {}
            }
            uniform
        });
        uniform
    }

    /// The accesses open after the expression `node`: each shared access it makes is checked
    /// against those open before it, and against itself (the same access by other threads).
    fn expression(&mut self, node: Node<'t>, open: Open, depth: usize) -> Result<Open, GiveUp> {
        self.step(depth)?;
        let source = self.source();
        let mut open = open;
        let mut failed = false;
        walk_iterative(node, |n| {
            if failed || self.step(depth).is_err() {
                failed = true;
                return false;
            }
            let outcome: Result<bool, GiveUp> = match n.node_kind() {
                "subscript_expression" => match self.shared_access(n) {
                    // its indices are constants, coordinates and counters: nothing under it
                    Ok(Some(access)) => self.meet(access, std::mem::take(&mut open)).map(|after| {
                        open = after;
                        false
                    }),
                    Ok(None) => Ok(true),
                    Err(give_up) => Err(give_up),
                },
                // a shared array used whole: a pointer into it
                "identifier" if self.array_named(text(n, source)).is_some() => Err(GiveUp),
                "call_expression" => {
                    let callee = n.field("function").map(|f| text(f, source)).unwrap_or("");
                    let short = callee.rsplit("::").next().unwrap_or(callee).trim();
                    if is_block_barrier(n, source)
                        || orders_lanes(short)
                        || !matches!(self.program.scope.callee(n), Callee::Free)
                    {
                        Err(GiveUp)
                    } else {
                        Ok(true)
                    }
                }
                "lambda_expression" | "gnu_asm_expression" | "ERROR" => Err(GiveUp),
                _ => Ok(true),
            };
            match outcome {
                Ok(descend) => descend,
                Err(GiveUp) => {
                    failed = true;
                    false
                }
            }
        });
        if failed {
            return Err(GiveUp);
        }
        Ok(open)
    }

    /// The access a subscript makes when its base is a shared array, recorded once per node;
    /// None when it is not shared memory.
    fn shared_access(&mut self, node: Node<'t>) -> Result<Option<usize>, GiveUp> {
        if let Some(known) = self.by_node.get(&node.id()) {
            return Ok(Some(*known));
        }
        let source = self.source();
        let mut indices = Vec::new();
        let mut base = node;
        while base.node_kind() == "subscript_expression" {
            indices.push(super::subscript_index(base).ok_or(GiveUp)?);
            base = strip(base.field("argument").ok_or(GiveUp)?, source);
        }
        if base.node_kind() != "identifier" {
            return Ok(None);
        }
        let Some(array_index) = self.array_named(text(base, source)) else {
            return Ok(None);
        };
        let array = &self.program.arrays[array_index];
        indices.reverse();
        if array.scalar || indices.len() != array.dims.len() {
            return Err(GiveUp); // a row of the array: a pointer into it
        }
        let mut own = Some(Vec::new());
        for (index, extent) in indices.iter().zip(&array.dims) {
            let extent = extent.ok_or(GiveUp)?;
            let (low, high) = self.range(*index).ok_or(GiveUp)?;
            if low < 0 || high >= extent {
                return Err(GiveUp);
            }
            let part = match self.coordinate(*index) {
                Some(axis) => Own::Axis(axis),
                None if low == high => Own::Constant(low),
                None => {
                    own = None;
                    continue;
                }
            };
            if let Some(parts) = own.as_mut() {
                parts.push(part);
            }
        }
        // distinct threads touch distinct elements only when every axis the block spreads
        // along names a dimension of its own
        let own = own.filter(|parts| {
            (0..3).all(|axis| {
                let uses = parts.iter().filter(|p| **p == Own::Axis(axis)).count();
                uses <= 1 && (uses == 1 || self.block[axis] <= 1)
            })
        });
        let parent = node.up().ok_or(GiveUp)?;
        let writes = match parent.node_kind() {
            "assignment_expression" => parent.field("left") == Some(node),
            "update_expression" => true,
            "pointer_expression" => return Err(GiveUp), // its address taken
            _ => false,
        };
        let position = self.accesses.len();
        self.accesses.push(Access {
            array: array_index,
            writes,
            own,
        });
        self.by_node.insert(node.id(), position);
        Ok(Some(position))
    }

    /// `open` after the access at `position`, or GiveUp when it may pair with an open access or
    /// with itself in another thread.
    fn meet(&self, position: usize, open: Open) -> Result<Open, GiveUp> {
        let access = &self.accesses[position];
        let apart = |other: &Access| {
            other.array != access.array
                || (!other.writes && !access.writes)
                || (access.own.is_some() && access.own == other.own)
        };
        if !apart(access) || open.iter().any(|o| !apart(&self.accesses[*o])) {
            return Err(GiveUp);
        }
        Ok(union(open, &vec![position]))
    }

    fn array_named(&self, name: &str) -> Option<usize> {
        self.program.arrays.iter().position(|a| a.name == name)
    }

    /// The thread coordinate `node` holds, when it is one.
    fn coordinate(&self, node: Node<'t>) -> Option<usize> {
        let source = self.source();
        let node = strip(node, source);
        match node.node_kind() {
            "identifier" => self.names.coordinates.get(text(node, source)).copied(),
            _ => coordinate_axis(node, source),
        }
    }

    /// The values `node` takes in the block: constants, thread coordinates, loop counters over
    /// constants, and sums, differences and products of them.
    fn range(&self, node: Node<'t>) -> Option<(i64, i64)> {
        let source = self.source();
        let node = strip(node, source);
        if let Some(axis) = self.coordinate(node) {
            return Some((0, self.block[axis].max(1) - 1));
        }
        match node.node_kind() {
            "number_literal" => {
                let value =
                    i64::try_from(crate::model::size::parse_number(text(node, source))?).ok()?;
                Some((value, value))
            }
            "identifier" => {
                let name = text(node, source);
                if let Some((_, low, high)) = self.counters.iter().rev().find(|c| c.0 == name) {
                    return Some((*low, *high));
                }
                if self.program.function.parameter(name).is_some()
                    || self.names.written.contains(&name)
                {
                    return None;
                }
                let value = self.program.named_constant(name)?;
                Some((value, value))
            }
            "binary_expression" => {
                let (a, b) = (
                    self.range(node.field("left")?)?,
                    self.range(node.field("right")?)?,
                );
                match operator(node, source) {
                    "+" => Some((a.0.checked_add(b.0)?, a.1.checked_add(b.1)?)),
                    "-" => Some((a.0.checked_sub(b.1)?, a.1.checked_sub(b.0)?)),
                    "*" if a.0 >= 0 && b.0 >= 0 => {
                        Some((a.0.checked_mul(b.0)?, a.1.checked_mul(b.1)?))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// `__syncthreads();` as a statement of its own.
fn is_plain_barrier(expression: Node, source: &str) -> bool {
    expression.node_kind() == "call_expression"
        && expression
            .field("function")
            .is_some_and(|f| text(f, source) == "__syncthreads")
        && expression
            .field("arguments")
            .is_some_and(|a| named_children(a).all(|c| c.node_kind() == "comment"))
}

#[cfg(test)]
mod tests {
    use super::super::{candidate_blocks, probe_shape, Program, Run};

    /// Per kernel of `source` that can reach shared memory: its name, whether the intervals
    /// prove the decisive runs free of pairs, and whether any of those runs found a pair.
    fn proofs(source: &str) -> Vec<(String, bool, bool)> {
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
            let Some(program) = Program::new(model.shared_scope(), kernel) else {
                continue;
            };
            let (launched, shapes) = candidate_blocks(&program, source, kernel, facts);
            let blocks: Vec<[i64; 3]> = if launched {
                shapes
            } else {
                probe_shape(&shapes).into_iter().collect()
            };
            let proven = super::no_pair_possible(&program, &blocks);
            let paired = blocks.iter().any(|block| {
                let mut left = super::super::KERNEL_BUDGET;
                matches!(program.run(*block, &mut left), Run::Valid(c) if !c.is_empty())
            });
            out.push((kernel.name.clone(), proven, paired));
        }
        out
    }

    fn proven(source: &str) -> bool {
        let found = proofs(source);
        assert_eq!(found.len(), 1, "one kernel with shared memory: {found:?}");
        let (_, proven, paired) = &found[0];
        assert!(
            !(*proven && *paired),
            "proven free of pairs, yet a run pairs"
        );
        *proven
    }

    const TILED: &str = r#"
#define TILE 16
__global__ void matmul(const float* a, const float* b, float* c, int n) {
    __shared__ float sa[TILE][TILE];
    __shared__ float sb[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    int tiles = (n + TILE - 1) / TILE;
    float sum = 0.0f;
    for (int t = 0; t < tiles; ++t) {
        sa[ty][tx] = (row < n && t * TILE + tx < n) ? a[row * n + t * TILE + tx] : 0.0f;
        sb[ty][tx] = (col < n && t * TILE + ty < n) ? b[(t * TILE + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            sum += sa[ty][k] * sb[k][tx];
        }
        __syncthreads();
    }
    if (row < n && col < n) c[row * n + col] = sum;
}
"#;

    #[test]
    fn a_tiled_product_with_barriers_around_the_reads_is_proven() {
        assert!(proven(TILED));
        let launched = format!(
            "{TILED}\nvoid run(const float* a, const float* b, float* c, int n) {{\n    dim3 block(TILE, TILE);\n    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);\n    matmul<<<grid, block>>>(a, b, c, n);\n}}\n"
        );
        assert!(proven(&launched));
    }

    #[test]
    fn a_transpose_through_a_padded_tile_is_proven() {
        let source = r#"
#define TILE 32
__global__ void transpose(float* out, const float* in, int width, int height) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < width && y < height) tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < height && y < width) out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}
void run(float* out, const float* in, int w, int h) {
    transpose<<<dim3((w + TILE - 1) / TILE, (h + TILE - 1) / TILE), dim3(TILE, TILE)>>>(out, in, w, h);
}
"#;
        assert!(proven(source));
    }

    #[test]
    fn pairs_the_intervals_cannot_rule_out_are_left_to_the_runs() {
        // a tree reduction reads a neighbour's slot in the interval it writes its own
        let reduction = r#"
__global__ void sum(const float* in, float* out) {
    __shared__ float s[256];
    int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * 256 + tid];
    __syncthreads();
    for (int stride = 128; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
void run(const float* in, float* out, int blocks) { sum<<<blocks, 256>>>(in, out); }
"#;
        assert!(!proven(reduction));
        // no barrier between the load of the tile and its use: a real pair
        let missing = TILED.replacen("__syncthreads();\n        for", "for", 1);
        assert!(!proven(&missing));
        // every thread writes the same element
        let same_element = r#"
__global__ void flag(int* out, int n) {
    __shared__ int seen[1];
    seen[0] = n;
    __syncthreads();
    out[threadIdx.x] = seen[0];
}
void run(int* out, int n) { flag<<<1, 64>>>(out, n); }
"#;
        assert!(!proven(same_element));
        // a barrier only some threads reach
        let divergent = TILED.replacen(
            "        __syncthreads();\n    }",
            "        if (tx < 8) __syncthreads();\n    }",
            1,
        );
        assert!(!proven(&divergent));
        // a trip count that differs between threads, around a barrier
        let varying = TILED.replacen("t < tiles", "t < tiles + tx", 1);
        assert!(!proven(&varying));
    }

    #[test]
    fn shapes_the_own_elements_do_not_fit_are_left_to_the_runs() {
        let call = |block: &str| {
            format!(
                "{TILED}\nvoid run(const float* a, const float* b, float* c, int n) {{\n    dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);\n    matmul<<<grid, {block}>>>(a, b, c, n);\n}}\n"
            )
        };
        // threads apart only along z write the same element of the tile
        assert!(!proven(&call("dim3(TILE, TILE, 2)")));
        // rows wider than the tile: `sa[ty][tx]` leaves its row
        assert!(!proven(&call("dim3(32, 8)")));
    }

    /// Every kernel of the fixtures the intervals prove free of pairs makes none in its runs.
    #[test]
    fn no_fixture_kernel_proven_free_of_pairs_pairs_in_a_run() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut proven_kernels = 0;
        let mut files = 0;
        for folder in ["testdata", "kernels"] {
            for entry in walk(&root.join(folder)) {
                let Ok(source) = std::fs::read_to_string(&entry) else {
                    continue;
                };
                files += 1;
                for (name, proven, paired) in proofs(&source) {
                    assert!(
                        !(proven && paired),
                        "{}: {name} proven free of pairs, yet a run pairs",
                        entry.display()
                    );
                    proven_kernels += usize::from(proven);
                }
            }
        }
        assert!(files > 50, "the fixtures were read ({files} files)");
        assert!(proven_kernels > 0, "some fixture kernel is proven");
    }

    fn walk(folder: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut found = Vec::new();
        let mut pending = vec![folder.to_path_buf()];
        while let Some(dir) = pending.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    pending.push(path);
                } else if path
                    .extension()
                    .is_some_and(|e| e == "cu" || e == "cuh" || e == "hip")
                {
                    found.push(path);
                }
            }
        }
        found.sort();
        found
    }
}
