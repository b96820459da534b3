//! Kernel-side facts: which values derive from the thread index, every global-memory access with
//! the conditions that dominate it, and every block-wide barrier.

use super::guards::{self, Comparison, Condition, Relation};
use super::{Function, Model};
use crate::syntax::{self, named_children, normalized, operator, strip, text, NodeExt, MAX_DEPTH};
use rustc_hash::FxHashMap as HashMap;
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
    /// Whether that condition is a `continue`/`break` before the barrier rather than an enclosing branch.
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

/// How the statement before a program point left for the threads that did not reach it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Exit {
    /// Not an exit: the fact is an enclosing branch or loop condition.
    None,
    /// `return`: those threads have finished.
    Return,
    /// `continue`, `break`, `goto`: those threads are alive elsewhere in the kernel.
    Skip,
}

/// One fact pushed while walking: the condition and, for an early exit's negation, how it left.
#[derive(Clone, Copy)]
struct Fact<'t> {
    condition: Condition<'t>,
    exit: Exit,
}

struct Analyzer<'a, 't> {
    source: &'a str,
    function: &'a Function<'t>,
    pointers: HashMap<String, PointerOrigin<'t>>,
    definitions: HashMap<String, Vec<Node<'t>>>,
    declarations: HashMap<String, Node<'t>>,
    deps: HashMap<String, Deps>,
    groups: HashMap<String, GroupKind>,
    /// Variables stepped by the launch dimensions (`i += blockDim.x * gridDim.x`): whatever they
    /// start from, only a guard on them bounds them.
    stride_variables: std::collections::HashSet<String>,
    facts: Vec<Fact<'t>>,
    /// Loop variables re-initialised by an enclosing `for` (`for (i = 0; ...)` reusing a name):
    /// inside that loop their thread identity is the initializer's, not the function-wide one.
    loop_scopes: Vec<(String, Deps)>,
    /// The conditions in force where each definition (by its value's node id) was made: a value
    /// computed under `if (s < len)` stays bounded after the branch.
    definition_guards: HashMap<usize, Vec<Condition<'t>>>,
    comparison_cache: std::cell::RefCell<Option<CachedSplit<'t>>>,
    /// Thread identity per expression node, valid while `loop_scopes` is unchanged; on only
    /// after the definitions have reached their fixpoint.
    deps_cache: std::cell::RefCell<HashMap<usize, Deps>>,
    cache_deps: bool,
    out: KernelFacts<'t>,
}

/// Comparisons that hold, and disjunctions of comparisons of which one holds.
type SplitFacts<'t> = (Vec<Comparison<'t>>, Vec<Vec<Comparison<'t>>>);

/// The facts' identities (condition node, whether it holds) and their split.
type CachedSplit<'t> = (Vec<(usize, bool)>, std::rc::Rc<SplitFacts<'t>>);

pub fn analyze<'t>(model: &Model<'t>, function: &Function<'t>) -> KernelFacts<'t> {
    let mut analyzer = Analyzer {
        source: model.source,
        function,
        pointers: HashMap::default(),
        definitions: HashMap::default(),
        declarations: HashMap::default(),
        deps: HashMap::default(),
        groups: HashMap::default(),
        stride_variables: Default::default(),
        facts: Vec::new(),
        loop_scopes: Vec::new(),
        definition_guards: HashMap::default(),
        comparison_cache: Default::default(),
        deps_cache: Default::default(),
        cache_deps: false,
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
    analyzer.cache_deps = true;
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
            match node.node_kind() {
                "declaration" => {
                    let type_text = node
                        .field("type")
                        .map(|t| text(t, source))
                        .unwrap_or("")
                        .to_string();
                    for declarator in named_children(node) {
                        let (target, value) = match declarator.node_kind() {
                            "init_declarator" => {
                                (declarator.field("declarator"), declarator.field("value"))
                            }
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
                    if let (Some(left), Some(right)) = (node.field("left"), node.field("right")) {
                        let left = strip(left, source);
                        if left.node_kind() == "identifier" {
                            let compound = operator(node, source) != "=";
                            assigned.push((text(left, source).to_string(), right, compound));
                        }
                    }
                }
                "update_expression" => {
                    if let Some(argument) = node.field("argument") {
                        let argument = strip(argument, source);
                        if argument.node_kind() == "identifier" {
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
            if value.node_kind() == "initializer_list" || value.node_kind() == "argument_list" {
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
        let _ = updated;
        for (name, value, compound) in assigned {
            if compound && self.mentions_launch_dimensions(value, 0) {
                self.stride_variables.insert(name.clone());
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

    /// Whether a value involves `blockDim`/`gridDim`, directly or through a local definition.
    fn mentions_launch_dimensions(&self, value: Node<'t>, depth: usize) -> bool {
        let text = self.text(value);
        if text.contains("blockDim")
            || text.contains("gridDim")
            || text.contains(".size()")
            || text.contains("num_threads")
        {
            return true;
        }
        if depth > 2 {
            return false;
        }
        let mut found = false;
        syntax::walk_iterative(value, |node| {
            if node.node_kind() == "identifier" {
                if let Some(values) = self.definitions.get(self.text(node)) {
                    found |= values
                        .iter()
                        .any(|v| *v != value && self.mentions_launch_dimensions(*v, depth + 1));
                }
            }
            !found
        });
        found
    }

    /// `a`, `a + off`, `&a[off]`, where `a` is a known global pointer.
    fn pointer_origin(&self, value: Node<'t>) -> Option<PointerOrigin<'t>> {
        let value = strip(value, self.source);
        match value.node_kind() {
            "identifier" => {
                let origin = self.pointers.get(self.text(value))?;
                Some(PointerOrigin {
                    parameter_index: origin.parameter_index,
                    offset: origin.offset,
                })
            }
            "binary_expression" if operator(value, self.source) == "+" => {
                let left = strip(value.field("left")?, self.source);
                let right = value.field("right")?;
                if left.node_kind() == "identifier" {
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
                let target = strip(value.field("argument")?, self.source);
                if target.node_kind() != "subscript_expression" {
                    return None;
                }
                let base = strip(target.field("argument")?, self.source);
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
        if !self.cache_deps {
            return self.compute_expression_deps(node, depth);
        }
        if let Some(deps) = self.deps_cache.borrow().get(&node.id()) {
            return *deps;
        }
        let deps = self.compute_expression_deps(node, depth);
        self.deps_cache.borrow_mut().insert(node.id(), deps);
        deps
    }

    fn compute_expression_deps(&self, node: Node<'t>, depth: usize) -> Deps {
        if depth > MAX_DEPTH {
            return Deps::NONE;
        }
        match node.node_kind() {
            "identifier" => {
                let name = self.text(node);
                match self
                    .loop_scopes
                    .iter()
                    .rev()
                    .find(|(scoped, _)| scoped == name)
                {
                    Some((_, deps)) => *deps,
                    None => self.deps.get(name).copied().unwrap_or_default(),
                }
            }
            "field_expression" => {
                let Some(argument) = node.field("argument") else {
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
                let Some(function) = node.field("function") else {
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
                if !is_arithmetic_call(name) {
                    // an unknown function may bound, hash or ignore its arguments: its result is opaque
                    return Deps::NONE;
                }
                node.field("arguments")
                    .map(|args| self.children_deps(args, depth))
                    .unwrap_or_default()
            }
            // `(k * blockDim.x + threadIdx.x) / blockDim.x`: the thread's part is below the
            // divisor, so the quotient is the same for the whole block
            "binary_expression"
                if matches!(operator(node, self.source), "/")
                    && node.field("right").is_some_and(|r| self.is_block_size(r))
                    && node
                        .field("left")
                        .is_some_and(|l| self.expression_deps(l, depth + 1) == Deps::THREAD) =>
            {
                Deps::NONE
            }
            "subscript_expression"
            | "pointer_expression"
            | "sizeof_expression"
            | "string_literal"
            | "number_literal" => Deps::NONE,
            "assignment_expression" => node
                .field("right")
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
            .field("argument")
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
        match node.node_kind() {
            "compound_statement" => {
                let saved = self.facts.len();
                for child in named_children(node) {
                    self.statement(child, depth + 1);
                    self.facts.extend(self.early_exit_facts(child));
                }
                self.facts.truncate(saved);
            }
            "if_statement" => {
                let Some(condition) = node.field("condition") else {
                    return;
                };
                self.expression(condition, depth + 1);
                if let Some(consequence) = node.field("consequence") {
                    self.with_fact(condition, true, |this| {
                        this.statement(consequence, depth + 1)
                    });
                }
                if let Some(alternative) = node.field("alternative") {
                    self.with_fact(condition, false, |this| {
                        for child in named_children(alternative) {
                            this.statement(child, depth + 1);
                        }
                    });
                }
            }
            "for_statement" => {
                let scoped = self.loop_variable_scope(node);
                let pushed = scoped.is_some();
                if pushed {
                    self.deps_cache.borrow_mut().clear();
                }
                self.loop_scopes.extend(scoped);
                for field in ["initializer", "condition"] {
                    if let Some(part) = node.field(field) {
                        self.statement_or_expression(part, depth + 1);
                    }
                }
                let condition = node.field("condition");
                let body = node.field("body");
                let update = node.field("update");
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
                if pushed {
                    self.loop_scopes.pop();
                    self.deps_cache.borrow_mut().clear();
                }
            }
            "while_statement" => {
                let Some(condition) = node.field("condition") else {
                    return;
                };
                self.expression(condition, depth + 1);
                if let Some(body) = node.field("body") {
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
                    if let Some(value) = declarator.field("value") {
                        self.remember_definition_guards(value);
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

    /// `for (i = e; ...; i += step)`: the loop variable and the identity it has inside the loop.
    fn loop_variable_scope(&self, node: Node<'t>) -> Option<(String, Deps)> {
        let initializer = node.field("initializer")?;
        let (name, value) = match initializer.node_kind() {
            "declaration" => {
                let declarator =
                    named_children(initializer).find(|c| c.node_kind() == "init_declarator")?;
                (
                    syntax::declarator_name(declarator.field("declarator")?)?,
                    declarator.field("value")?,
                )
            }
            "assignment_expression" if operator(initializer, self.source) == "=" => (
                strip(initializer.field("left")?, self.source),
                initializer.field("right")?,
            ),
            _ => return None,
        };
        if name.node_kind() != "identifier" {
            return None;
        }
        let mut deps = self.expression_deps(value, 0);
        if let Some(update) = node.field("update") {
            if let Some(step) = update.field("right") {
                deps = deps.union(self.expression_deps(step, 0));
            }
        }
        Some((self.text(name).to_string(), deps))
    }

    fn remember_definition_guards(&mut self, value: Node<'t>) {
        if !self.facts.is_empty() {
            let conditions = self.facts.iter().map(|f| f.condition).collect();
            self.definition_guards.insert(value.id(), conditions);
        }
    }

    fn statement_or_expression(&mut self, node: Node<'t>, depth: usize) {
        if node.node_kind().ends_with("_statement")
            || node.node_kind() == "declaration"
            || node.node_kind().starts_with("preproc")
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
            exit: Exit::None,
        });
        body(self);
        self.facts.pop();
    }

    /// After `if (c) return;` (or continue/break), the rest of the block runs only when `!c`.
    fn early_exit_facts(&self, statement: Node<'t>) -> Option<Fact<'t>> {
        if statement.node_kind() != "if_statement" {
            return None;
        }
        let condition = statement.field("condition")?;
        let consequence = statement.field("consequence")?;
        if let Some(exit) = exit_kind(consequence) {
            return Some(Fact {
                condition: Condition {
                    node: condition,
                    holds: false,
                },
                exit,
            });
        }
        let alternative = statement.field("alternative")?;
        let last = named_children(alternative).last()?;
        exit_kind(last).map(|exit| Fact {
            condition: Condition {
                node: condition,
                holds: true,
            },
            exit,
        })
    }

    fn expression(&mut self, node: Node<'t>, depth: usize) {
        if self.too_deep(node, depth) {
            return;
        }
        match node.node_kind() {
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
                let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
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
                let Some(condition) = node.field("condition") else {
                    return;
                };
                self.expression(condition, depth + 1);
                if let Some(consequence) = node.field("consequence") {
                    self.with_fact(condition, true, |this| {
                        this.expression(consequence, depth + 1)
                    });
                }
                if let Some(alternative) = node.field("alternative") {
                    self.with_fact(condition, false, |this| {
                        this.expression(alternative, depth + 1)
                    });
                }
            }
            "assignment_expression" => {
                if let Some(value) = node.field("right") {
                    self.remember_definition_guards(value);
                }
                for child in named_children(node) {
                    self.expression(child, depth + 1);
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
        let Some(function) = call.field("function") else {
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
                let argument = call.field("arguments").and_then(|a| a.named_child(0));
                argument
                    .map(|a| self.groups.contains_key(self.text(strip(a, self.source))))
                    .unwrap_or(false)
            }
            _ if function.node_kind() == "field_expression" => {
                let method = function.field("field").map(|f| self.text(f));
                let object = function
                    .field("argument")
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

    /// `for (j = threadIdx.x; j < padded_width; j += blockDim.x)`: the bound is rounded up to a
    /// multiple of the stride so every thread runs the same number of iterations.
    fn has_padded_trip_count(&self, condition: Node<'t>) -> bool {
        let in_loop = condition
            .parent()
            .is_some_and(|p| matches!(p.node_kind(), "for_statement" | "while_statement"));
        let text = self.text(condition).to_ascii_lowercase();
        in_loop && (text.contains("pad") || text.contains("round") || text.contains("aligned"))
    }

    /// `blockDim.x`, or a local defined as it (`int localSize = blockDim.x;`).
    fn is_block_size(&self, node: Node<'t>) -> bool {
        let node = strip(node, self.source);
        match node.node_kind() {
            "field_expression" => syntax::same_text(node, self.source, "blockDim.x"),
            "identifier" => matches!(
                self.definitions.get(self.text(node)).map(Vec::as_slice),
                Some([value]) if syntax::same_text(*value, self.source, "blockDim.x")
            ),
            _ => false,
        }
    }

    /// `for (m = start; m < stop; ...)` with both `start` and `stop` per-thread: every thread may
    /// well run the same number of iterations, so the loop is not known to split the block.
    fn compares_two_thread_values(&self, condition: Node<'t>) -> bool {
        let in_loop = condition
            .parent()
            .is_some_and(|p| matches!(p.node_kind(), "for_statement" | "while_statement"));
        let condition = match condition.node_kind() {
            "condition_clause" => condition.field("value").unwrap_or(condition),
            _ => condition,
        };
        let condition = strip(condition, self.source);
        in_loop
            && condition.node_kind() == "binary_expression"
            && matches!(
                operator(condition, self.source),
                "<" | "<=" | ">" | ">=" | "!="
            )
            && [condition.field("left"), condition.field("right")]
                .into_iter()
                .all(|side| side.is_some_and(|s| self.expression_deps(s, 0).varies_within_block()))
    }

    fn record_barrier(&mut self, node: Node<'t>) {
        // Threads that returned early have exited; since Volta a barrier does not wait for them,
        // so only enclosing conditions and skipped loop iterations split the block.
        let divergent = self
            .facts
            .iter()
            .filter(|fact| {
                fact.exit != Exit::Return
                    && !self.has_padded_trip_count(fact.condition.node)
                    && !self.compares_two_thread_values(fact.condition.node)
            })
            .find(|fact| {
                self.expression_deps(fact.condition.node, 0)
                    .varies_within_block()
            })
            .copied();
        self.out.barriers.push(Barrier {
            node,
            divergent_condition: divergent.map(|f| f.condition.node),
            after_early_exit: divergent.map(|f| f.exit == Exit::Skip).unwrap_or(false),
        });
    }

    // ---- accesses ----------------------------------------------------------------------

    fn record_subscript(&mut self, node: Node<'t>) {
        let Some(base) = node.field("argument").map(|a| strip(a, self.source)) else {
            return;
        };
        if base.node_kind() != "identifier" {
            return;
        }
        let Some(index) = subscript_index(node) else {
            return;
        };
        self.record_access(node, self.text(base).to_string(), index);
    }

    fn record_dereference(&mut self, node: Node<'t>) {
        let Some(argument) = node.field("argument").map(|a| strip(a, self.source)) else {
            return;
        };
        if argument.node_kind() != "binary_expression" || operator(argument, self.source) != "+" {
            return;
        }
        let (Some(left), Some(right)) = (argument.field("left"), argument.field("right")) else {
            return;
        };
        let (left, right) = (strip(left, self.source), strip(right, self.source));
        if left.node_kind() == "identifier" && self.pointers.contains_key(self.text(left)) {
            self.record_access(node, self.text(left).to_string(), right);
        } else if right.node_kind() == "identifier" && self.pointers.contains_key(self.text(right))
        {
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

    /// The comparisons the current facts guarantee; consecutive accesses under the same facts
    /// share one split.
    fn current_comparisons(&self) -> std::rc::Rc<SplitFacts<'t>> {
        let key: Vec<(usize, bool)> = self
            .facts
            .iter()
            .map(|f| (f.condition.node.id(), f.condition.holds))
            .collect();
        if let Some((cached_key, split)) = self.comparison_cache.borrow().as_ref() {
            if *cached_key == key {
                return split.clone();
            }
        }
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
        let split = std::rc::Rc::new((comparisons, disjunctions));
        *self.comparison_cache.borrow_mut() = Some((key, split.clone()));
        split
    }

    fn index_status(&self, index: Node<'t>, offset: Option<Node<'t>>) -> IndexStatus<'t> {
        let split = self.current_comparisons();
        let (comparisons, disjunctions) = (&split.0, &split.1);
        if let Some(status) = self.out_of_range(index, comparisons, disjunctions) {
            return status;
        }
        let mut visiting = Vec::new();
        let bound = match self.bounded(index, comparisons, &mut visiting, 0) {
            Ok(bound) => bound,
            Err(leaf) => return self.unguarded(leaf),
        };
        if let Some(offset) = offset {
            if let Err(leaf) = self.bounded(offset, comparisons, &mut visiting, 0) {
                return self.unguarded(leaf);
            }
        }
        IndexStatus::Bounded { bound }
    }

    fn unguarded(&self, leaf: Node<'t>) -> IndexStatus<'t> {
        let declaration = (leaf.node_kind() == "identifier")
            .then(|| self.declarations.get(self.text(leaf)).copied())
            .flatten();
        IndexStatus::Unguarded { leaf, declaration }
    }

    /// The comparisons in force now plus those in force where `value` was assigned.
    fn with_definition_guards(
        &self,
        value: Node<'t>,
        comparisons: &[Comparison<'t>],
    ) -> Vec<Comparison<'t>> {
        let mut all = comparisons.to_vec();
        if let Some(conditions) = self.definition_guards.get(&value.id()) {
            let mut disjunctions = Vec::new();
            for condition in conditions {
                guards::comparisons(*condition, self.source, &mut all, &mut disjunctions);
            }
        }
        all
    }

    /// Like `bounded`, but a part bounded only by the launch configuration does not count: Ok(Some)
    /// only when a guard bounds it.
    fn bounded_by_guard(
        &self,
        node: Node<'t>,
        comparisons: &[Comparison<'t>],
        visiting: &mut Vec<String>,
        depth: usize,
    ) -> Result<Option<Comparison<'t>>, Node<'t>> {
        let node = strip(node, self.source);
        if let Some(bound) = self.upper_bound(node, comparisons) {
            return Ok(Some(bound));
        }
        if depth > MAX_DEPTH {
            return Err(node);
        }
        match node.node_kind() {
            "identifier" => {
                let name = self.text(node).to_string();
                if visiting.contains(&name) || self.stride_variables.contains(&name) {
                    return Err(node);
                }
                let Some(values) = self.definitions.get(&name) else {
                    return Err(node);
                };
                visiting.push(name);
                let mut result = Ok(None);
                for value in values.clone() {
                    match self.bounded_by_guard(value, comparisons, visiting, depth + 1) {
                        Ok(Some(bound)) => {
                            result = result.map(|r: Option<Comparison<'t>>| r.or(Some(bound)))
                        }
                        Ok(None) if self.expression_deps(value, 0).is_uniform() => {}
                        _ => {
                            result = Err(node);
                            break;
                        }
                    }
                }
                visiting.pop();
                result
            }
            "binary_expression" => {
                let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
                    return Err(node);
                };
                let mut guard = None;
                for side in [left, right] {
                    if self.expression_deps(side, 0).is_uniform() {
                        continue;
                    }
                    match self.bounded_by_guard(side, comparisons, visiting, depth + 1)? {
                        Some(bound) => guard = guard.or(Some(bound)),
                        None => return Err(node),
                    }
                }
                Ok(guard)
            }
            _ => Err(node),
        }
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
        match node.node_kind() {
            "identifier" => {
                let name = self.text(node).to_string();
                if visiting.contains(&name) {
                    return Err(node);
                }
                let Some(values) = self.definitions.get(&name) else {
                    return Err(node);
                };
                if self.stride_variables.contains(&name) {
                    return Err(node); // `i += blockDim.x * gridDim.x`: bounded only by a guard on `i` itself
                }
                visiting.push(name);
                let mut bound = None;
                for value in values.clone() {
                    let at_definition = self.with_definition_guards(value, comparisons);
                    match self.bounded(value, &at_definition, visiting, depth + 1) {
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
                let argument = node.field("argument").map(|a| self.text(a));
                if argument == Some("threadIdx") {
                    Ok(None) // bounded by blockDim
                } else {
                    Err(node)
                }
            }
            "binary_expression" => {
                let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
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
                        // a per-block base plus a per-thread offset: in range when either part is guarded
                        // (`offset + path` with `path < n`), a fresh global index when neither is
                        let guarded = |side: Node<'t>, visiting: &mut Vec<String>| {
                            matches!(
                                self.bounded_by_guard(side, comparisons, visiting, depth + 1),
                                Ok(Some(_))
                            )
                        };
                        if guarded(left, visiting) || guarded(right, visiting) {
                            Ok(None)
                        } else {
                            Err(node)
                        }
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
                let name = node.field("function").map(|f| self.text(f)).unwrap_or("");
                let short = name.rsplit("::").next().unwrap_or(name);
                let arguments: Vec<Node<'t>> = node
                    .field("arguments")
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
                ) && arguments
                    .iter()
                    .any(|a| self.bounded(*a, comparisons, visiting, depth + 1).is_ok())
                {
                    return Ok(None);
                }
                if short == "thread_rank" && self.expression_deps(node, 0) == Deps::THREAD {
                    return Ok(None);
                }
                if is_arithmetic_call(name) {
                    // `__umul24(y, w) + x`, `max(a, b)`, casts: bounded when every argument is
                    let mut bound = None;
                    for argument in arguments {
                        bound =
                            bound.or(self.bounded(argument, comparisons, visiting, depth + 1)?);
                    }
                    return Ok(bound);
                }
                Err(node)
            }
            "conditional_expression" => {
                let condition = node.field("condition");
                let mut branches = Vec::new();
                for (field, holds) in [("consequence", true), ("alternative", false)] {
                    let Some(branch) = node.field(field) else {
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
        if comparisons.is_empty() {
            return None;
        }
        if let Some(bound) = self.upper_bound_of(node, comparisons) {
            return Some(bound);
        }
        // `id` defined once as `blockIdx.x * blockDim.x + threadIdx.x`, guarded by that expression
        if node.node_kind() == "identifier" {
            if let Some([value]) = self.definitions.get(self.text(node)).map(Vec::as_slice) {
                if let Some(bound) = self.upper_bound_of(strip(*value, self.source), comparisons) {
                    return Some(bound);
                }
            }
        }
        self.upper_bound_by_terms(node, comparisons)
    }

    /// `k + lane + (warp << 7)` under `lane + (warp << 7) < len`: the guarded terms are a part of
    /// the sum and the rest (`k`) is uniform or per-block.
    fn upper_bound_by_terms(
        &self,
        node: Node<'t>,
        comparisons: &[Comparison<'t>],
    ) -> Option<Comparison<'t>> {
        let terms = self.sum_terms(node);
        if terms.len() < 2 {
            return None;
        }
        for comparison in comparisons {
            for left_side in [true, false] {
                let oriented = comparison.oriented(left_side);
                if !matches!(
                    oriented.relation,
                    Relation::Less | Relation::LessEqual | Relation::Equal
                ) {
                    continue;
                }
                let guarded = self.sum_terms(oriented.left);
                if guarded.is_empty() || guarded.len() >= terms.len() {
                    continue;
                }
                let mut rest: Vec<(String, Node<'t>)> = terms.clone();
                let all_found = guarded.iter().all(|(text, _)| {
                    match rest.iter().position(|(t, _)| t == text) {
                        Some(at) => {
                            rest.remove(at);
                            true
                        }
                        None => false,
                    }
                });
                let rest_is_per_block = rest.iter().all(|(_, term)| {
                    let deps = self.expression_deps(*term, 0);
                    deps.is_uniform() || deps == Deps::BLOCK
                });
                if all_found && rest_is_per_block {
                    return Some(oriented);
                }
            }
        }
        None
    }

    /// The operands of a chain of `+`, normalized, ignoring literal `0` terms.
    fn sum_terms(&self, node: Node<'t>) -> Vec<(String, Node<'t>)> {
        let mut terms = Vec::new();
        let mut stack = vec![strip(node, self.source)];
        while let Some(current) = stack.pop() {
            if terms.len() > 32 {
                return Vec::new();
            }
            if current.node_kind() == "binary_expression" && operator(current, self.source) == "+" {
                if let (Some(left), Some(right)) = (current.field("left"), current.field("right")) {
                    stack.push(strip(left, self.source));
                    stack.push(strip(right, self.source));
                    continue;
                }
            }
            let text = normalized(current, self.source);
            if text != "0" {
                terms.push((text, current));
            }
        }
        terms
    }

    fn upper_bound_of(
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
                if self.bounded_through_remainder(&oriented, &target) {
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
        if syntax::same_text(expression, self.source, target) {
            return true;
        }
        match expression.node_kind() {
            "binary_expression" if matches!(operator(expression, self.source), "+" | "*") => {
                let (Some(left), Some(right)) =
                    (expression.field("left"), expression.field("right"))
                else {
                    return false;
                };
                (self.covers(left, target, depth + 1)
                    && self.expression_deps(right, 0).is_uniform())
                    || (self.covers(right, target, depth + 1)
                        && self.expression_deps(left, 0).is_uniform())
            }
            // `row = idx / width` with `row < height` bounds `idx` as well
            "binary_expression" if matches!(operator(expression, self.source), "/" | ">>") => {
                let (Some(left), Some(right)) =
                    (expression.field("left"), expression.field("right"))
                else {
                    return false;
                };
                self.covers(left, target, depth + 1) && self.expression_deps(right, 0).is_uniform()
            }
            "identifier" => match self.definitions.get(self.text(expression)) {
                Some(values) if values.len() == 1 => self.covers(values[0], target, depth + 1),
                _ => false,
            },
            _ => false,
        }
    }

    /// `remaining = n - i` with `remaining >= k` (or `> k`) bounds `i` by `n - k`.
    fn bounded_through_remainder(&self, comparison: &Comparison<'t>, target: &str) -> bool {
        if !matches!(
            comparison.relation,
            Relation::Greater | Relation::GreaterEqual
        ) {
            return false;
        }
        let left = strip(comparison.left, self.source);
        let difference = match left.node_kind() {
            "identifier" => match self.definitions.get(self.text(left)) {
                Some(values) if values.len() == 1 => strip(values[0], self.source),
                _ => return false,
            },
            _ => left,
        };
        difference.node_kind() == "binary_expression"
            && operator(difference, self.source) == "-"
            && difference
                .field("right")
                .is_some_and(|r| self.covers(r, target, 1))
            && difference
                .field("left")
                .is_some_and(|l| self.expression_deps(l, 0).is_uniform())
    }

    /// `p[i]` under `i >= n`, `i > n`, `i >= n || i < 0`, or `i <= n`, with nothing else bounding `i`.
    fn out_of_range(
        &self,
        index: Node<'t>,
        comparisons: &[Comparison<'t>],
        disjunctions: &[Vec<Comparison<'t>>],
    ) -> Option<IndexStatus<'t>> {
        let mut base = strip(index, self.source);
        if base.node_kind() == "binary_expression" && operator(base, self.source) == "+" {
            let right = base.field("right").map(|r| strip(r, self.source));
            if right.is_some_and(|r| r.node_kind() == "number_literal") {
                base = strip(base.field("left")?, self.source);
            }
        }
        if !self.expression_deps(base, 0).varies_within_block() {
            return None; // a uniform index under a thread-dependent pointer is not what the guard is about
        }
        let target = normalized(base, self.source);
        let on_target = |c: &Comparison<'t>| -> Option<Comparison<'t>> {
            [true, false]
                .into_iter()
                .map(|side| c.oriented(side))
                .find(|o| syntax::same_text(o.left, self.source, &target))
        };
        let strict_upper = comparisons
            .iter()
            .filter_map(on_target)
            .any(|c| matches!(c.relation, Relation::Less | Relation::Equal));
        if strict_upper {
            return None;
        }
        // loop conditions walk ranges (`while (k >= bottom)`); only branch conditions say "out of range"
        let from_loop = |c: &Comparison<'t>| {
            c.origin.parent().is_some_and(|p| {
                matches!(
                    p.node_kind(),
                    "for_statement" | "while_statement" | "do_statement"
                )
            })
        };
        for comparison in comparisons.iter().filter_map(on_target) {
            if matches!(
                comparison.relation,
                Relation::Greater | Relation::GreaterEqual
            ) && !from_loop(&comparison)
                && self.is_plain_bound(comparison.right)
            {
                return Some(IndexStatus::OutOfRange {
                    guard: comparison.origin,
                    admits_bound: false,
                });
            }
        }
        for comparison in comparisons.iter().filter_map(on_target) {
            if comparison.relation == Relation::LessEqual
                && !from_loop(&comparison)
                && self.is_parameter_bound(comparison.right)
            {
                return Some(IndexStatus::OutOfRange {
                    guard: comparison.origin,
                    admits_bound: true,
                });
            }
        }
        for parts in disjunctions {
            let oriented: Option<Vec<Comparison<'t>>> = parts.iter().map(on_target).collect();
            let Some(oriented) = oriented else { continue };
            if oriented.iter().any(from_loop) {
                continue;
            }
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

    /// A scalar kernel parameter (or a field of one): the size the caller passed.
    fn is_parameter_bound(&self, node: Node<'t>) -> bool {
        let mut node = strip(node, self.source);
        while node.node_kind() == "field_expression" {
            match node.field("argument") {
                Some(argument) => node = strip(argument, self.source),
                None => return false,
            }
        }
        if node.node_kind() != "identifier" {
            return false;
        }
        // `Imax`, `last`, `end`: an inclusive maximum, for which `<=` is right
        let name = self.text(node).to_ascii_lowercase();
        let inclusive = name.contains("max") || name.contains("last") || name.ends_with("end");
        !inclusive
            && self
                .function
                .parameter(self.text(node))
                .is_some_and(|p| !p.is_pointer)
    }

    /// A bound that names a size: `n`, `params.n`, `N`; not a literal and not `n - 1`.
    fn is_plain_bound(&self, node: Node<'t>) -> bool {
        let node = strip(node, self.source);
        matches!(
            node.node_kind(),
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
    let indices = node.field("indices").or_else(|| node.field("index"))?;
    if indices.node_kind() == "subscript_argument_list" {
        named_children(indices).find(|c| c.node_kind() != "comment")
    } else {
        Some(indices)
    }
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

fn access_kind(node: Node, source: &str) -> AccessKind {
    let mut current = node;
    for _ in 0..8 {
        let Some(parent) = current.parent() else {
            break;
        };
        match parent.node_kind() {
            "parenthesized_expression" => current = parent,
            "field_expression" if parent.field("argument") == Some(current) => current = parent,
            "subscript_expression" if parent.field("argument") == Some(current) => current = parent,
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

fn enclosing_statement(node: Node) -> Option<Node> {
    let mut current = node;
    for _ in 0..MAX_DEPTH {
        let parent = current.parent()?;
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
