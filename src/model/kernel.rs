//! Kernel-side facts: which values derive from the thread index, every global-memory access with
//! the conditions that dominate it, and every block-wide barrier.

use super::guards::{self, Comparison, Condition, Relation};
use super::{Function, Model};
use crate::syntax::{self, named_children, normalized, operator, strip, text, MAX_DEPTH};
use std::collections::HashMap;
use std::ops::Range;
use tree_sitter::Node;

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
}

#[derive(Debug, Clone)]
pub struct Barrier<'t> {
    pub node: Node<'t>,
    /// The thread-dependent condition under which the barrier is reached, if any.
    pub divergent_condition: Option<Node<'t>>,
    /// Whether that condition is an early exit before the barrier rather than an enclosing branch.
    pub after_early_exit: bool,
}

#[derive(Debug, Clone)]
pub struct ThreadVariable<'t> {
    pub name: String,
    pub declaration: Node<'t>,
    pub deps: Deps,
}

#[derive(Debug, Default)]
pub struct KernelFacts<'t> {
    pub accesses: Vec<Access<'t>>,
    pub barriers: Vec<Barrier<'t>>,
    pub thread_variables: Vec<ThreadVariable<'t>>,
    /// Code nested deeper than the analysis follows.
    pub skipped: Vec<Range<usize>>,
}

impl<'t> KernelFacts<'t> {
    pub fn thread_variable(&self, name: &str) -> Option<&ThreadVariable<'t>> {
        self.thread_variables.iter().find(|v| v.name == name)
    }
}

struct PointerOrigin<'t> {
    parameter_index: usize,
    offset: Option<Node<'t>>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum GroupKind {
    Grid,
    Block,
}

/// One fact pushed while walking: the condition and whether it is an early exit's negation.
#[derive(Clone, Copy)]
struct Fact<'t> {
    condition: Condition<'t>,
    early_exit: bool,
}

struct Analyzer<'a, 't> {
    source: &'a str,
    function: &'a Function<'t>,
    pointers: HashMap<String, PointerOrigin<'t>>,
    definitions: HashMap<String, Vec<Node<'t>>>,
    declarations: HashMap<String, Node<'t>>,
    deps: HashMap<String, Deps>,
    groups: HashMap<String, GroupKind>,
    /// Variables changed by `+=`, `++` and the like (loop counters, grid-stride variables).
    self_updated: std::collections::HashSet<String>,
    facts: Vec<Fact<'t>>,
    out: KernelFacts<'t>,
}

pub fn analyze<'t>(model: &Model<'t>, function: &Function<'t>) -> KernelFacts<'t> {
    let mut analyzer = Analyzer {
        source: model.source,
        function,
        pointers: HashMap::new(),
        definitions: HashMap::new(),
        declarations: HashMap::new(),
        deps: HashMap::new(),
        groups: HashMap::new(),
        self_updated: Default::default(),
        facts: Vec::new(),
        out: KernelFacts::default(),
    };
    for (index, parameter) in function.parameters.iter().enumerate() {
        if parameter.is_pointer {
            analyzer.pointers.insert(
                parameter.name.clone(),
                PointerOrigin {
                    parameter_index: index,
                    offset: None,
                },
            );
        }
    }
    analyzer.collect_definitions();
    analyzer.propagate_thread_deps();
    analyzer.statement(function.body, 0);
    analyzer.out
}

impl<'a, 't> Analyzer<'a, 't> {
    fn text(&self, node: Node) -> &'a str {
        text(node, self.source)
    }

    // ---- definitions -------------------------------------------------------------------

    fn collect_definitions(&mut self) {
        let source = self.source;
        let mut declared: Vec<(Node<'t>, Node<'t>, Option<Node<'t>>, bool, String)> = Vec::new();
        let mut assigned: Vec<(String, Node<'t>, bool)> = Vec::new();
        let mut updated: Vec<String> = Vec::new();
        syntax::walk_iterative(self.function.body, |node| {
            match node.kind() {
                "declaration" => {
                    let type_text = node
                        .child_by_field_name("type")
                        .map(|t| text(t, source))
                        .unwrap_or("")
                        .to_string();
                    for declarator in named_children(node) {
                        let (target, value) = match declarator.kind() {
                            "init_declarator" => (
                                declarator.child_by_field_name("declarator"),
                                declarator.child_by_field_name("value"),
                            ),
                            "identifier" | "pointer_declarator" | "array_declarator" => {
                                (Some(declarator), None)
                            }
                            _ => continue,
                        };
                        let Some(target) = target else { continue };
                        let is_pointer = syntax::declarator_is_pointer(target);
                        if let Some(name) = syntax::declarator_name(target) {
                            declared.push((name, declarator, value, is_pointer, type_text.clone()));
                        }
                    }
                }
                "assignment_expression" => {
                    if let (Some(left), Some(right)) = (
                        node.child_by_field_name("left"),
                        node.child_by_field_name("right"),
                    ) {
                        let left = strip(left, source);
                        if left.kind() == "identifier" {
                            let compound = operator(node, source) != "=";
                            assigned.push((text(left, source).to_string(), right, compound));
                        }
                    }
                }
                "update_expression" => {
                    if let Some(argument) = node.child_by_field_name("argument") {
                        let argument = strip(argument, source);
                        if argument.kind() == "identifier" {
                            updated.push(text(argument, source).to_string());
                        }
                    }
                }
                "lambda_expression" => return false,
                _ => {}
            }
            true
        });
        for (name_node, declarator, value, is_pointer, type_text) in declared {
            let name = self.text(name_node).to_string();
            self.declarations.entry(name.clone()).or_insert(declarator);
            if type_text.contains("grid_group") {
                self.groups.insert(name.clone(), GroupKind::Grid);
            } else if type_text.contains("thread_block") && !type_text.contains("tile") {
                self.groups.insert(name.clone(), GroupKind::Block);
            }
            let Some(mut value) = value else { continue };
            if value.kind() == "initializer_list" || value.kind() == "argument_list" {
                match value.named_child(0) {
                    Some(inner) if value.named_child_count() == 1 => value = inner,
                    _ => continue,
                }
            }
            let value_text = self.text(value);
            if value_text.contains("this_grid") {
                self.groups.insert(name.clone(), GroupKind::Grid);
            } else if value_text.contains("this_thread_block")
                && !value_text.contains("tiled_partition")
            {
                self.groups.insert(name.clone(), GroupKind::Block);
            }
            if is_pointer {
                if let Some(origin) = self.pointer_origin(value) {
                    self.pointers.insert(name.clone(), origin);
                }
            }
            self.definitions.entry(name).or_default().push(value);
        }
        self.self_updated.extend(updated);
        for (name, value, compound) in assigned {
            if compound {
                self.self_updated.insert(name.clone());
            }
            if compound && self.text(value).contains("gridDim") {
                // `i += blockDim.x * gridDim.x`: a grid-stride loop variable
                self.deps.insert(name.clone(), Deps::GRID);
            }
            if self.pointers.contains_key(&name)
                && !compound
                && self.pointer_origin(value).is_none()
            {
                self.pointers.remove(&name); // re-pointed at memory we know nothing of
            }
            self.definitions.entry(name).or_default().push(value);
        }
    }

    /// `a`, `a + off`, `&a[off]`, where `a` is a known global pointer.
    fn pointer_origin(&self, value: Node<'t>) -> Option<PointerOrigin<'t>> {
        let value = strip(value, self.source);
        match value.kind() {
            "identifier" => {
                let origin = self.pointers.get(self.text(value))?;
                Some(PointerOrigin {
                    parameter_index: origin.parameter_index,
                    offset: origin.offset,
                })
            }
            "binary_expression" if operator(value, self.source) == "+" => {
                let left = strip(value.child_by_field_name("left")?, self.source);
                let right = value.child_by_field_name("right")?;
                if left.kind() == "identifier" {
                    let origin = self.pointers.get(self.text(left))?;
                    if origin.offset.is_none() {
                        return Some(PointerOrigin {
                            parameter_index: origin.parameter_index,
                            offset: Some(right),
                        });
                    }
                }
                None
            }
            "pointer_expression" if operator(value, self.source) == "&" => {
                let target = strip(value.child_by_field_name("argument")?, self.source);
                if target.kind() != "subscript_expression" {
                    return None;
                }
                let base = strip(target.child_by_field_name("argument")?, self.source);
                let origin = self.pointers.get(self.text(base))?;
                let index = subscript_index(target)?;
                origin.offset.is_none().then_some(PointerOrigin {
                    parameter_index: origin.parameter_index,
                    offset: Some(index),
                })
            }
            _ => None,
        }
    }

    fn propagate_thread_deps(&mut self) {
        for _ in 0..8 {
            let mut changed = false;
            let names: Vec<String> = self.definitions.keys().cloned().collect();
            for name in names {
                let mut deps = self.deps.get(&name).copied().unwrap_or_default();
                if let Some(values) = self.definitions.get(&name) {
                    for value in values.clone() {
                        deps = deps.union(self.expression_deps(value, 0));
                    }
                }
                if self.deps.get(&name).copied().unwrap_or_default() != deps {
                    self.deps.insert(name, deps);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut variables: Vec<ThreadVariable<'t>> = self
            .deps
            .iter()
            .filter(|(_, deps)| !deps.is_uniform())
            .filter_map(|(name, deps)| {
                Some(ThreadVariable {
                    name: name.clone(),
                    declaration: *self.declarations.get(name)?,
                    deps: *deps,
                })
            })
            .collect();
        variables.sort_by_key(|v| v.declaration.start_byte());
        self.out.thread_variables = variables;
    }

    /// How a value depends on the thread's identity.
    pub fn expression_deps(&self, node: Node<'t>, depth: usize) -> Deps {
        if depth > MAX_DEPTH {
            return Deps::NONE;
        }
        match node.kind() {
            "identifier" => self.deps.get(self.text(node)).copied().unwrap_or_default(),
            "field_expression" => {
                let Some(argument) = node.child_by_field_name("argument") else {
                    return Deps::NONE;
                };
                match self.text(argument) {
                    "threadIdx" => Deps::THREAD,
                    "blockIdx" => Deps::BLOCK,
                    "blockDim" | "gridDim" => Deps::NONE,
                    _ => self.expression_deps(argument, depth + 1),
                }
            }
            "call_expression" => {
                let Some(function) = node.child_by_field_name("function") else {
                    return Deps::NONE;
                };
                let name = self.text(function);
                if name.ends_with("thread_rank")
                    || name.ends_with("thread_index")
                    || name.ends_with("block_rank")
                {
                    return self.group_rank_deps(function, name);
                }
                if name.ends_with("laneid") || name == "__lane_id" {
                    return Deps::THREAD;
                }
                if is_memory_read_call(name) {
                    return Deps::NONE;
                }
                node.child_by_field_name("arguments")
                    .map(|args| self.children_deps(args, depth))
                    .unwrap_or_default()
            }
            "subscript_expression"
            | "pointer_expression"
            | "sizeof_expression"
            | "string_literal"
            | "number_literal" => Deps::NONE,
            "assignment_expression" => node
                .child_by_field_name("right")
                .map(|r| self.expression_deps(r, depth + 1))
                .unwrap_or_default(),
            "lambda_expression" => Deps::NONE,
            _ => self.children_deps(node, depth),
        }
    }

    fn children_deps(&self, node: Node<'t>, depth: usize) -> Deps {
        named_children(node).fold(Deps::NONE, |deps, child| {
            deps.union(self.expression_deps(child, depth + 1))
        })
    }

    fn group_rank_deps(&self, function: Node<'t>, name: &str) -> Deps {
        if name.contains("this_grid") {
            return Deps::GRID;
        }
        if name.contains("this_thread_block") {
            return if name.ends_with("block_rank") {
                Deps::BLOCK
            } else {
                Deps::THREAD
            };
        }
        let object = function
            .child_by_field_name("argument")
            .map(|a| self.text(strip(a, self.source)));
        match object.and_then(|o| self.groups.get(o)) {
            Some(GroupKind::Grid) if name.ends_with("block_rank") => Deps::BLOCK,
            Some(GroupKind::Grid) => Deps::GRID,
            Some(GroupKind::Block) => Deps::THREAD,
            None => Deps::THREAD,
        }
    }

    // ---- the walk ----------------------------------------------------------------------

    fn too_deep(&mut self, node: Node<'t>, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            self.out.skipped.push(node.byte_range());
            return true;
        }
        false
    }

    fn statement(&mut self, node: Node<'t>, depth: usize) {
        if self.too_deep(node, depth) {
            return;
        }
        match node.kind() {
            "compound_statement" => {
                let saved = self.facts.len();
                for child in named_children(node) {
                    self.statement(child, depth + 1);
                    self.facts.extend(self.early_exit_facts(child));
                }
                self.facts.truncate(saved);
            }
            "if_statement" => {
                let Some(condition) = node.child_by_field_name("condition") else {
                    return;
                };
                self.expression(condition, depth + 1);
                if let Some(consequence) = node.child_by_field_name("consequence") {
                    self.with_fact(condition, true, |this| {
                        this.statement(consequence, depth + 1)
                    });
                }
                if let Some(alternative) = node.child_by_field_name("alternative") {
                    self.with_fact(condition, false, |this| {
                        for child in named_children(alternative) {
                            this.statement(child, depth + 1);
                        }
                    });
                }
            }
            "for_statement" => {
                for field in ["initializer", "condition"] {
                    if let Some(part) = node.child_by_field_name(field) {
                        self.statement_or_expression(part, depth + 1);
                    }
                }
                let condition = node.child_by_field_name("condition");
                let body = node.child_by_field_name("body");
                let update = node.child_by_field_name("update");
                let run = |this: &mut Self| {
                    if let Some(body) = body {
                        this.statement(body, depth + 1);
                    }
                    if let Some(update) = update {
                        this.expression(update, depth + 1);
                    }
                };
                match condition {
                    Some(condition) => self.with_fact(condition, true, run),
                    None => run(self),
                }
            }
            "while_statement" => {
                let Some(condition) = node.child_by_field_name("condition") else {
                    return;
                };
                self.expression(condition, depth + 1);
                if let Some(body) = node.child_by_field_name("body") {
                    self.with_fact(condition, true, |this| this.statement(body, depth + 1));
                }
            }
            "expression_statement" | "return_statement" => {
                for child in named_children(node) {
                    self.expression(child, depth + 1);
                }
            }
            "declaration" => {
                for declarator in named_children(node) {
                    if let Some(value) = declarator.child_by_field_name("value") {
                        self.expression(value, depth + 1);
                    }
                }
            }
            "comment"
            | "break_statement"
            | "continue_statement"
            | "goto_statement"
            | "preproc_def"
            | "preproc_function_def"
            | "preproc_include"
            | "preproc_call" => {}
            _ => {
                for child in named_children(node) {
                    self.statement_or_expression(child, depth + 1);
                }
            }
        }
    }

    fn statement_or_expression(&mut self, node: Node<'t>, depth: usize) {
        if node.kind().ends_with("_statement")
            || node.kind() == "declaration"
            || node.kind().starts_with("preproc")
        {
            self.statement(node, depth)
        } else {
            self.expression(node, depth)
        }
    }

    fn with_fact(&mut self, condition: Node<'t>, holds: bool, body: impl FnOnce(&mut Self)) {
        self.facts.push(Fact {
            condition: Condition {
                node: condition,
                holds,
            },
            early_exit: false,
        });
        body(self);
        self.facts.pop();
    }

    /// After `if (c) return;` (or continue/break), the rest of the block runs only when `!c`.
    fn early_exit_facts(&self, statement: Node<'t>) -> Option<Fact<'t>> {
        if statement.kind() != "if_statement" {
            return None;
        }
        let condition = statement.child_by_field_name("condition")?;
        let consequence = statement.child_by_field_name("consequence")?;
        if always_exits(consequence) {
            return Some(Fact {
                condition: Condition {
                    node: condition,
                    holds: false,
                },
                early_exit: true,
            });
        }
        let alternative = statement.child_by_field_name("alternative")?;
        let last = named_children(alternative).last()?;
        always_exits(last).then_some(Fact {
            condition: Condition {
                node: condition,
                holds: true,
            },
            early_exit: true,
        })
    }

    fn expression(&mut self, node: Node<'t>, depth: usize) {
        if self.too_deep(node, depth) {
            return;
        }
        match node.kind() {
            "subscript_expression" => {
                self.record_subscript(node);
                for child in named_children(node) {
                    self.expression(child, depth + 1);
                }
            }
            "pointer_expression" => {
                if operator(node, self.source) == "*" {
                    self.record_dereference(node);
                }
                for child in named_children(node) {
                    self.expression(child, depth + 1);
                }
            }
            "binary_expression" => {
                let op = operator(node, self.source);
                let (Some(left), Some(right)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ) else {
                    return;
                };
                self.expression(left, depth + 1);
                match op {
                    "&&" => self.with_fact(left, true, |this| this.expression(right, depth + 1)),
                    "||" => self.with_fact(left, false, |this| this.expression(right, depth + 1)),
                    _ => self.expression(right, depth + 1),
                }
            }
            "conditional_expression" => {
                let Some(condition) = node.child_by_field_name("condition") else {
                    return;
                };
                self.expression(condition, depth + 1);
                if let Some(consequence) = node.child_by_field_name("consequence") {
                    self.with_fact(condition, true, |this| {
                        this.expression(consequence, depth + 1)
                    });
                }
                if let Some(alternative) = node.child_by_field_name("alternative") {
                    self.with_fact(condition, false, |this| {
                        this.expression(alternative, depth + 1)
                    });
                }
            }
            "call_expression" => {
                if self.is_barrier(node) {
                    self.record_barrier(node);
                }
                for child in named_children(node) {
                    self.expression(child, depth + 1);
                }
            }
            "lambda_expression" | "string_literal" | "number_literal" | "identifier"
            | "comment" => {}
            _ => {
                for child in named_children(node) {
                    self.statement_or_expression(child, depth + 1);
                }
            }
        }
    }

    // ---- barriers ----------------------------------------------------------------------

    fn is_barrier(&self, call: Node<'t>) -> bool {
        let Some(function) = call.child_by_field_name("function") else {
            return false;
        };
        let name = self.text(function);
        match name {
            "__syncthreads"
            | "__syncthreads_count"
            | "__syncthreads_and"
            | "__syncthreads_or"
            | "__barrier_sync" => true,
            "cg::sync" | "cooperative_groups::sync" | "sync" => {
                let argument = call
                    .child_by_field_name("arguments")
                    .and_then(|a| a.named_child(0));
                argument
                    .map(|a| self.groups.contains_key(self.text(strip(a, self.source))))
                    .unwrap_or(false)
            }
            _ if function.kind() == "field_expression" => {
                let method = function.child_by_field_name("field").map(|f| self.text(f));
                let object = function
                    .child_by_field_name("argument")
                    .map(|o| self.text(strip(o, self.source)));
                method == Some("sync")
                    && object
                        .map(|o| {
                            self.groups.contains_key(o)
                                || o.contains("this_thread_block")
                                || o.contains("this_grid")
                        })
                        .unwrap_or(false)
            }
            _ => false,
        }
    }

    fn record_barrier(&mut self, node: Node<'t>) {
        let divergent = self
            .facts
            .iter()
            .find(|fact| {
                self.expression_deps(fact.condition.node, 0)
                    .varies_within_block()
            })
            .copied();
        self.out.barriers.push(Barrier {
            node,
            divergent_condition: divergent.map(|f| f.condition.node),
            after_early_exit: divergent.map(|f| f.early_exit).unwrap_or(false),
        });
    }

    // ---- accesses ----------------------------------------------------------------------

    fn record_subscript(&mut self, node: Node<'t>) {
        let Some(base) = node
            .child_by_field_name("argument")
            .map(|a| strip(a, self.source))
        else {
            return;
        };
        if base.kind() != "identifier" {
            return;
        }
        let Some(index) = subscript_index(node) else {
            return;
        };
        self.record_access(node, self.text(base).to_string(), index);
    }

    fn record_dereference(&mut self, node: Node<'t>) {
        let Some(argument) = node
            .child_by_field_name("argument")
            .map(|a| strip(a, self.source))
        else {
            return;
        };
        if argument.kind() != "binary_expression" || operator(argument, self.source) != "+" {
            return;
        }
        let (Some(left), Some(right)) = (
            argument.child_by_field_name("left"),
            argument.child_by_field_name("right"),
        ) else {
            return;
        };
        let (left, right) = (strip(left, self.source), strip(right, self.source));
        if left.kind() == "identifier" && self.pointers.contains_key(self.text(left)) {
            self.record_access(node, self.text(left).to_string(), right);
        } else if right.kind() == "identifier" && self.pointers.contains_key(self.text(right)) {
            self.record_access(node, self.text(right).to_string(), left);
        }
    }

    fn record_access(&mut self, node: Node<'t>, pointer: String, index: Node<'t>) {
        let Some(origin) = self.pointers.get(&pointer) else {
            return;
        };
        let parameter_index = origin.parameter_index;
        let pointer_offset = origin.offset;
        let mut deps = self.expression_deps(index, 0);
        if let Some(offset) = pointer_offset {
            deps = deps.union(self.expression_deps(offset, 0));
        }
        let status = if deps.is_global_index() {
            self.index_status(index, pointer_offset)
        } else {
            IndexStatus::NotThreadIndexed
        };
        self.out.accesses.push(Access {
            node,
            pointer,
            parameter_index,
            index,
            pointer_offset,
            kind: access_kind(node, self.source),
            deps,
            status,
            statement: enclosing_statement(node),
        });
    }

    fn current_comparisons(&self) -> (Vec<Comparison<'t>>, Vec<Vec<Comparison<'t>>>) {
        let mut comparisons = Vec::new();
        let mut disjunctions = Vec::new();
        for fact in &self.facts {
            guards::comparisons(
                fact.condition,
                self.source,
                &mut comparisons,
                &mut disjunctions,
            );
        }
        (comparisons, disjunctions)
    }

    fn index_status(&self, index: Node<'t>, offset: Option<Node<'t>>) -> IndexStatus<'t> {
        let (comparisons, disjunctions) = self.current_comparisons();
        if let Some(status) = self.out_of_range(index, &comparisons, &disjunctions) {
            return status;
        }
        let mut visiting = Vec::new();
        let bound = match self.bounded(index, &comparisons, &mut visiting, 0) {
            Ok(bound) => bound,
            Err(leaf) => return self.unguarded(leaf),
        };
        if let Some(offset) = offset {
            if let Err(leaf) = self.bounded(offset, &comparisons, &mut visiting, 0) {
                return self.unguarded(leaf);
            }
        }
        IndexStatus::Bounded { bound }
    }

    fn unguarded(&self, leaf: Node<'t>) -> IndexStatus<'t> {
        let declaration = (leaf.kind() == "identifier")
            .then(|| self.declarations.get(self.text(leaf)).copied())
            .flatten();
        IndexStatus::Unguarded { leaf, declaration }
    }

    /// Ok when every part of `node` that derives from the global thread index is bounded from
    /// above; Err names the first part that is not.
    fn bounded(
        &self,
        node: Node<'t>,
        comparisons: &[Comparison<'t>],
        visiting: &mut Vec<String>,
        depth: usize,
    ) -> Result<Option<Comparison<'t>>, Node<'t>> {
        let node = strip(node, self.source);
        if depth > MAX_DEPTH {
            return Err(node);
        }
        let deps = self.expression_deps(node, 0);
        if deps.is_uniform() {
            return Ok(None);
        }
        if let Some(bound) = self.upper_bound(node, comparisons) {
            return Ok(Some(bound));
        }
        if deps == Deps::THREAD || deps == Deps::BLOCK {
            return Ok(None); // block-local or per-block: bounded by the launch configuration
        }
        match node.kind() {
            "identifier" => {
                let name = self.text(node).to_string();
                if visiting.contains(&name) {
                    return Err(node);
                }
                let Some(values) = self.definitions.get(&name) else {
                    return Err(node);
                };
                if self.self_updated.contains(&name) {
                    return Err(node); // `i += stride`: bounded only by a guard on `i` itself
                }
                visiting.push(name);
                let mut bound = None;
                for value in values.clone() {
                    match self.bounded(value, comparisons, visiting, depth + 1) {
                        Ok(b) => bound = bound.or(b),
                        Err(_) => {
                            visiting.pop();
                            return Err(node);
                        }
                    }
                }
                visiting.pop();
                Ok(bound)
            }
            "field_expression" => {
                let argument = node.child_by_field_name("argument").map(|a| self.text(a));
                if argument == Some("threadIdx") {
                    Ok(None) // bounded by blockDim
                } else {
                    Err(node)
                }
            }
            "binary_expression" => {
                let (Some(left), Some(right)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ) else {
                    return Err(node);
                };
                let right_uniform = self.expression_deps(right, 0).is_uniform();
                let left_uniform = self.expression_deps(left, 0).is_uniform();
                match operator(node, self.source) {
                    "%" if right_uniform => Ok(None),
                    "&" if right_uniform || left_uniform => Ok(None),
                    "/" | ">>" | "-" => self.bounded(left, comparisons, visiting, depth + 1),
                    "+" | "*" | "<<" | "|" | "^" | "%"
                        if forms_global_index(
                            self.expression_deps(left, 0),
                            self.expression_deps(right, 0),
                        ) =>
                    {
                        Err(node)
                    }
                    "+" | "*" | "<<" | "|" | "^" | "%" => {
                        let a = self.bounded(left, comparisons, visiting, depth + 1)?;
                        let b = self.bounded(right, comparisons, visiting, depth + 1)?;
                        Ok(a.or(b))
                    }
                    _ => Err(node),
                }
            }
            "call_expression" => {
                let name = node
                    .child_by_field_name("function")
                    .map(|f| self.text(f))
                    .unwrap_or("");
                let short = name.rsplit("::").next().unwrap_or(name);
                let arguments: Vec<Node<'t>> = node
                    .child_by_field_name("arguments")
                    .map(|a| named_children(a).collect())
                    .unwrap_or_default();
                if matches!(
                    short,
                    "min"
                        | "fminf"
                        | "fmin"
                        | "umin"
                        | "llmin"
                        | "ullmin"
                        | "imin"
                        | "__min"
                        | "MIN"
                ) {
                    if arguments
                        .iter()
                        .any(|a| self.bounded(*a, comparisons, visiting, depth + 1).is_ok())
                    {
                        return Ok(None);
                    }
                }
                if short == "thread_rank" && self.expression_deps(node, 0) == Deps::THREAD {
                    return Ok(None);
                }
                Err(node)
            }
            "conditional_expression" => {
                let condition = node.child_by_field_name("condition");
                let mut branches = Vec::new();
                for (field, holds) in [("consequence", true), ("alternative", false)] {
                    let Some(branch) = node.child_by_field_name(field) else {
                        return Err(node);
                    };
                    let mut extended = comparisons.to_vec();
                    if let Some(condition) = condition {
                        let mut disjunctions = Vec::new();
                        guards::comparisons(
                            Condition {
                                node: condition,
                                holds,
                            },
                            self.source,
                            &mut extended,
                            &mut disjunctions,
                        );
                    }
                    branches.push(self.bounded(branch, &extended, visiting, depth + 1)?);
                }
                Ok(branches.into_iter().flatten().next())
            }
            _ => Err(node),
        }
    }

    /// A dominating comparison that bounds `node` from above: `node < n`, `node + k < n`,
    /// `node <= n - 1`, `node == c`, or a comparison on a variable defined as `node` plus more.
    fn upper_bound(
        &self,
        node: Node<'t>,
        comparisons: &[Comparison<'t>],
    ) -> Option<Comparison<'t>> {
        let target = normalized(node, self.source);
        for comparison in comparisons {
            for left_side in [true, false] {
                let oriented = comparison.oriented(left_side);
                if matches!(
                    oriented.relation,
                    Relation::Less | Relation::LessEqual | Relation::Equal
                ) && self.covers(oriented.left, &target, 0)
                {
                    return Some(oriented);
                }
            }
        }
        None
    }

    /// Whether bounding `expression` bounds `target` too: it is `target`, or `target` plus or times
    /// something that does not depend on the thread, or a variable defined that way.
    fn covers(&self, expression: Node<'t>, target: &str, depth: usize) -> bool {
        if depth > 4 {
            return false;
        }
        let expression = strip(expression, self.source);
        if normalized(expression, self.source) == target {
            return true;
        }
        match expression.kind() {
            "binary_expression" if matches!(operator(expression, self.source), "+" | "*") => {
                let (Some(left), Some(right)) = (
                    expression.child_by_field_name("left"),
                    expression.child_by_field_name("right"),
                ) else {
                    return false;
                };
                (self.covers(left, target, depth + 1)
                    && self.expression_deps(right, 0).is_uniform())
                    || (self.covers(right, target, depth + 1)
                        && self.expression_deps(left, 0).is_uniform())
            }
            "identifier" => match self.definitions.get(self.text(expression)) {
                Some(values) if values.len() == 1 => self.covers(values[0], target, depth + 1),
                _ => false,
            },
            _ => false,
        }
    }

    /// `p[i]` under `i >= n`, `i > n`, `i >= n || i < 0`, or `i <= n`, with nothing else bounding `i`.
    fn out_of_range(
        &self,
        index: Node<'t>,
        comparisons: &[Comparison<'t>],
        disjunctions: &[Vec<Comparison<'t>>],
    ) -> Option<IndexStatus<'t>> {
        let mut base = strip(index, self.source);
        if base.kind() == "binary_expression" && operator(base, self.source) == "+" {
            let right = base
                .child_by_field_name("right")
                .map(|r| strip(r, self.source));
            if right.is_some_and(|r| r.kind() == "number_literal") {
                base = strip(base.child_by_field_name("left")?, self.source);
            }
        }
        let target = normalized(base, self.source);
        let on_target = |c: &Comparison<'t>| -> Option<Comparison<'t>> {
            [true, false]
                .into_iter()
                .map(|side| c.oriented(side))
                .find(|o| normalized(o.left, self.source) == target)
        };
        let strict_upper = comparisons
            .iter()
            .filter_map(on_target)
            .any(|c| matches!(c.relation, Relation::Less | Relation::Equal));
        if strict_upper {
            return None;
        }
        for comparison in comparisons.iter().filter_map(on_target) {
            if matches!(
                comparison.relation,
                Relation::Greater | Relation::GreaterEqual
            ) && self.is_plain_bound(comparison.right)
            {
                return Some(IndexStatus::OutOfRange {
                    guard: comparison.origin,
                    admits_bound: false,
                });
            }
        }
        for comparison in comparisons.iter().filter_map(on_target) {
            if comparison.relation == Relation::LessEqual && self.is_plain_bound(comparison.right) {
                return Some(IndexStatus::OutOfRange {
                    guard: comparison.origin,
                    admits_bound: true,
                });
            }
        }
        for parts in disjunctions {
            let oriented: Option<Vec<Comparison<'t>>> = parts.iter().map(on_target).collect();
            let Some(oriented) = oriented else { continue };
            let above = |c: &Comparison<'t>| {
                matches!(c.relation, Relation::Greater | Relation::GreaterEqual)
                    && self.is_plain_bound(c.right)
            };
            let negative = |c: &Comparison<'t>| {
                c.relation == Relation::Less && self.text(c.right).trim() == "0"
            };
            if oriented.iter().any(above) && oriented.iter().all(|c| above(c) || negative(c)) {
                return Some(IndexStatus::OutOfRange {
                    guard: oriented[0].origin,
                    admits_bound: false,
                });
            }
        }
        None
    }

    /// A bound that names a size: `n`, `params.n`, `N`; not a literal and not `n - 1`.
    fn is_plain_bound(&self, node: Node<'t>) -> bool {
        let node = strip(node, self.source);
        matches!(
            node.kind(),
            "identifier" | "field_expression" | "qualified_identifier"
        ) && self.expression_deps(node, 0).is_uniform()
    }
}

/// `blockIdx.x * blockDim.x + threadIdx.x`: a per-block part combined with a per-thread part.
fn forms_global_index(left: Deps, right: Deps) -> bool {
    let per_block = |d: Deps| d.contains(Deps::BLOCK) && !d.contains(Deps::THREAD);
    let per_thread = |d: Deps| d.contains(Deps::THREAD) && !d.contains(Deps::BLOCK);
    (per_block(left) && per_thread(right)) || (per_thread(left) && per_block(right))
}

fn subscript_index(node: Node) -> Option<Node> {
    let indices = node
        .child_by_field_name("indices")
        .or_else(|| node.child_by_field_name("index"))?;
    if indices.kind() == "subscript_argument_list" {
        named_children(indices).find(|c| c.kind() != "comment")
    } else {
        Some(indices)
    }
}

fn is_memory_read_call(name: &str) -> bool {
    matches!(
        name,
        "__ldg"
            | "__ldcg"
            | "__ldca"
            | "__ldcs"
            | "__ldlu"
            | "__ldcv"
            | "atomicAdd"
            | "atomicSub"
            | "atomicExch"
            | "atomicMax"
            | "atomicMin"
            | "atomicCAS"
            | "atomicInc"
            | "atomicDec"
            | "atomicAnd"
            | "atomicOr"
            | "atomicXor"
            | "__shfl_sync"
            | "__shfl_down_sync"
            | "__shfl_up_sync"
            | "__shfl_xor_sync"
            | "__ballot_sync"
    )
}

fn always_exits(node: Node) -> bool {
    match node.kind() {
        "return_statement" | "break_statement" | "continue_statement" | "goto_statement"
        | "throw_statement" => true,
        "compound_statement" => named_children(node)
            .filter(|c| c.kind() != "comment")
            .last()
            .map(always_exits)
            .unwrap_or(false),
        _ => false,
    }
}

fn access_kind(node: Node, source: &str) -> AccessKind {
    let mut current = node;
    for _ in 0..8 {
        let Some(parent) = current.parent() else {
            break;
        };
        match parent.kind() {
            "parenthesized_expression" => current = parent,
            "field_expression" if parent.child_by_field_name("argument") == Some(current) => {
                current = parent
            }
            "subscript_expression" if parent.child_by_field_name("argument") == Some(current) => {
                current = parent
            }
            "assignment_expression" if parent.child_by_field_name("left") == Some(current) => {
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

fn enclosing_statement(node: Node) -> Option<Node> {
    let mut current = node;
    for _ in 0..MAX_DEPTH {
        let parent = current.parent()?;
        if matches!(parent.kind(), "compound_statement") {
            return current
                .kind()
                .ends_with("statement")
                .then_some(current)
                .or(Some(current));
        }
        if matches!(
            parent.kind(),
            "if_statement" | "for_statement" | "while_statement" | "else_clause"
        ) && current.kind().ends_with("statement")
        {
            return Some(current);
        }
        current = parent;
    }
    None
}
