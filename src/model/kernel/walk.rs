//! The walk over a kernel body: statements, expressions, and the conditions in force at each point.

use super::*;

/// How many nested statements the exits carried out of a statement are read through.
const MAX_CARRIED_DEPTH: usize = 64;

impl<'a, 't> Analyzer<'a, 't> {
    // ---- the walk ----------------------------------------------------------------------

    pub(super) fn too_deep(&mut self, node: Node<'t>, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            self.out.skipped.push(node.byte_range());
            return true;
        }
        false
    }

    pub(super) fn statement(&mut self, node: Node<'t>, depth: usize) {
        if self.too_deep(node, depth) {
            return;
        }
        self.position.set(Some(node.start_byte()));
        match node.node_kind() {
            "compound_statement" => {
                let saved = self.facts.len();
                for child in named_children(node) {
                    self.statement(child, depth + 1);
                    self.facts.extend(self.early_exit_facts(child));
                    let mut carried = Vec::new();
                    self.bare_block_exit_facts(child, &mut carried);
                    self.facts.extend(carried);
                }
                self.facts.truncate(saved);
            }
            "if_statement" => {
                let Some(condition) = node.field("condition") else {
                    return;
                };
                self.expression(condition, depth + 1);
                // a branch a constant test never takes is never run (`if constexpr (false)`)
                let taken = self.constant_truth(condition, 0);
                if let Some(consequence) =
                    node.field("consequence").filter(|_| taken != Some(false))
                {
                    self.with_fact(condition, true, |this| {
                        this.statement(consequence, depth + 1)
                    });
                }
                if let Some(alternative) = node.field("alternative").filter(|_| taken != Some(true))
                {
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
                    self.clear_deps_caches();
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
                    self.clear_deps_caches();
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
                if node.node_kind() == "return_statement" {
                    self.note_return(node);
                }
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
    pub(super) fn loop_variable_scope(&self, node: Node<'t>) -> Option<(String, Deps)> {
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
        let variable = self.text(name);
        if let Some(update) = node.field("update") {
            if let Some(step) = update.field("right") {
                deps = deps.union(self.deps_besides(step, variable, 0));
            }
        }
        Some((variable.to_string(), deps))
    }

    /// The thread identity `expression` adds to the loop variable `variable` it updates: its
    /// reads of `variable` itself carry what the loop started it with (`i = i / 2` after
    /// `i = blockDim.y / 2` stays uniform, whatever `i` held in an earlier loop).
    fn deps_besides(&self, expression: Node<'t>, variable: &str, depth: usize) -> Deps {
        let expression = strip(expression, self.source);
        match expression.node_kind() {
            "identifier" if self.text(expression) == variable => Deps::NONE,
            "binary_expression" | "unary_expression" | "cast_expression" if depth < MAX_DEPTH => {
                named_children(expression).fold(Deps::NONE, |deps, child| {
                    deps.union(self.deps_besides(child, variable, depth + 1))
                })
            }
            _ => self.expression_deps(expression, 0),
        }
    }

    pub(super) fn remember_definition_guards(&mut self, value: Node<'t>) {
        if !self.facts.is_empty() {
            let conditions = self.facts.iter().map(|f| f.condition).collect();
            self.definition_guards.insert(value.id(), conditions);
            self.definition_comparisons_cache
                .borrow_mut()
                .remove(&value.id());
        }
    }

    pub(super) fn statement_or_expression(&mut self, node: Node<'t>, depth: usize) {
        if node.node_kind().ends_with("_statement")
            || node.node_kind() == "declaration"
            || node.node_kind().starts_with("preproc")
        {
            self.statement(node, depth)
        } else {
            self.expression(node, depth)
        }
    }

    pub(super) fn with_fact(
        &mut self,
        condition: Node<'t>,
        holds: bool,
        body: impl FnOnce(&mut Self),
    ) {
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

    /// `{ if (i >= n) return; ... }`: an early exit inside a bare block also holds after it,
    /// unless its condition names a local of the block (another variable outside it).
    fn bare_block_exit_facts(&self, statement: Node<'t>, out: &mut Vec<Fact<'t>>) {
        out.extend(self.carried_exits(statement, 0).0);
    }

    /// The exits `statement` carries out of it, and whether all were read: below
    /// `MAX_CARRIED_DEPTH` nested statements the rest are left out (fewer facts, never wrong
    /// ones), and such a partial answer is not kept for a later question.
    fn carried_exits(&self, statement: Node<'t>, depth: usize) -> (Vec<Fact<'t>>, bool) {
        if !matches!(statement.node_kind(), "if_statement" | "compound_statement") {
            return (Vec::new(), true);
        }
        if depth > MAX_CARRIED_DEPTH {
            return (Vec::new(), false);
        }
        if let Some(known) = self.carried_exits.borrow().get(&statement.id()) {
            return (known.clone(), true);
        }
        let mut found = Vec::new();
        let complete = self.carried_exits_uncached(statement, &mut found, depth);
        if complete {
            self.carried_exits
                .borrow_mut()
                .insert(statement.id(), found.clone());
        }
        (found, complete)
    }

    fn carried_exits_uncached(
        &self,
        statement: Node<'t>,
        out: &mut Vec<Fact<'t>>,
        depth: usize,
    ) -> bool {
        if statement.node_kind() == "if_statement" {
            // `if constexpr (!kFull) { if (row >= rows) return; }` with the test known true:
            // the arm always runs, and its exits hold after it (known false: the other arm's)
            let arm = match statement
                .field("condition")
                .map(|c| self.constant_truth(c, 0))
            {
                Some(Some(true)) => statement.field("consequence"),
                Some(Some(false)) => statement
                    .field("alternative")
                    .and_then(|clause| match clause.node_kind() {
                        "else_clause" => clause.named_child(0),
                        _ => Some(clause),
                    }),
                _ => return self.joined_exit_facts(statement, out, depth),
            };
            let Some(arm) = arm else {
                return true;
            };
            out.extend(self.early_exit_facts(arm));
            let (carried, complete) = self.carried_exits(arm, depth + 1);
            out.extend(carried);
            return complete;
        }
        if statement.node_kind() != "compound_statement" {
            return true;
        }
        let mut complete = true;
        let mut locals: Vec<&str> = Vec::new();
        for child in named_children(statement) {
            if child.node_kind() == "declaration" {
                let mut cursor = child.walk();
                for declarator in child.children_by_field_name("declarator", &mut cursor) {
                    if let Some(name) = syntax::declarator_name(declarator) {
                        locals.push(self.text(name));
                    }
                }
            }
            let mut facts = Vec::new();
            facts.extend(self.early_exit_facts(child));
            let (carried, all) = self.carried_exits(child, depth + 1);
            complete &= all;
            facts.extend(carried);
            for fact in facts {
                let mut names_a_local = false;
                syntax::walk_iterative(fact.condition.node, |node| {
                    names_a_local |=
                        node.node_kind() == "identifier" && locals.contains(&self.text(node));
                    !names_a_local
                });
                if !names_a_local {
                    out.push(fact);
                }
            }
        }
        complete
    }

    /// `if (shared) { ...; if (x >= w) return; ... } else { if (x >= w) return; ... }`: an exit
    /// that both arms of an `if` take on the same test holds after them, as one before the `if`
    /// would.
    fn joined_exit_facts(
        &self,
        statement: Node<'t>,
        out: &mut Vec<Fact<'t>>,
        depth: usize,
    ) -> bool {
        let (Some(consequence), Some(alternative)) = (
            statement.field("consequence"),
            statement
                .field("alternative")
                .and_then(|clause| match clause.node_kind() {
                    "else_clause" => clause.named_child(0),
                    _ => Some(clause),
                }),
        ) else {
            return true;
        };
        let arm_exits = |arm: Node<'t>| {
            let mut facts = Vec::new();
            facts.extend(self.early_exit_facts(arm));
            let (carried, complete) = self.carried_exits(arm, depth + 1);
            facts.extend(carried);
            (facts, complete)
        };
        let (others, others_complete) = arm_exits(alternative);
        let (facts, complete) = arm_exits(consequence);
        for fact in facts {
            let same = |other: &Fact<'t>| {
                other.exit == fact.exit
                    && other.condition.holds == fact.condition.holds
                    && syntax::same_text(
                        other.condition.node,
                        self.source,
                        &syntax::normalized(fact.condition.node, self.source),
                    )
            };
            if others.iter().any(same) {
                out.push(fact);
            }
        }
        complete && others_complete
    }

    /// After `if (c) return;` (or continue/break), the rest of the block runs only when `!c`;
    /// after `assert(c)` or `__builtin_assume(c)`, `c` holds.
    pub(super) fn early_exit_facts(&self, statement: Node<'t>) -> Option<Fact<'t>> {
        if statement.node_kind() == "expression_statement" {
            let call = statement
                .named_child(0)
                .filter(|c| c.node_kind() == "call_expression")?;
            let callee = self.text(call.field("function")?);
            if !matches!(
                callee,
                "assert" | "__builtin_assume" | "__assume" | "CUDA_KERNEL_ASSERT"
            ) {
                return None;
            }
            let arguments = call.field("arguments")?;
            let stated = named_children(arguments).find(|a| a.node_kind() != "comment")?;
            return Some(Fact {
                condition: Condition {
                    node: stated,
                    holds: true,
                },
                exit: Exit::Stated,
            });
        }
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

    pub(super) fn expression(&mut self, node: Node<'t>, depth: usize) {
        if self.too_deep(node, depth) {
            return;
        }
        if matches!(
            node.node_kind(),
            "subscript_expression" | "pointer_expression" | "call_expression"
        ) {
            self.position.set(Some(node.start_byte()));
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
                    self.record_barrier(node, None);
                } else if let Some(via) = self.helper_barrier(node) {
                    self.record_barrier(node, Some(via));
                }
                self.record_helper_accesses(node);
                self.record_collective(node);
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
}

impl<'t> Analyzer<'_, 't> {
    /// The truth value of a test that is the same in every thread and every launch: literals,
    /// `constexpr` and `const` locals defined once, file constants, template parameters that
    /// every visible launch sets alike, and `!`, `&&`, `||` and comparisons of those. None when
    /// any part may vary.
    pub(super) fn constant_truth(&self, condition: Node<'t>, depth: usize) -> Option<bool> {
        if depth > 8 {
            return None;
        }
        let node = strip(syntax::condition_value(condition), self.source);
        match node.node_kind() {
            "true" => Some(true),
            "false" => Some(false),
            "unary_expression" if operator(node, self.source) == "!" => self
                .constant_truth(node.field("argument")?, depth + 1)
                .map(|t| !t),
            "binary_expression" => {
                let (left, right) = (node.field("left")?, node.field("right")?);
                match operator(node, self.source) {
                    op @ ("&&" | "||") => {
                        let short = op == "||";
                        let (a, b) = (
                            self.constant_truth(left, depth + 1),
                            self.constant_truth(right, depth + 1),
                        );
                        // one side at the short-circuit value decides; else both must be known
                        if a == Some(short) || b == Some(short) {
                            Some(short)
                        } else {
                            a.and(b).map(|_| !short)
                        }
                    }
                    op @ ("==" | "!=" | "<" | "<=" | ">" | ">=") => {
                        let (a, b) = (self.constant_number(left)?, self.constant_number(right)?);
                        Some(match op {
                            "==" => a == b,
                            "!=" => a != b,
                            "<" => a < b,
                            "<=" => a <= b,
                            ">" => a > b,
                            _ => a >= b,
                        })
                    }
                    _ => self.constant_number(node).map(|v| v != 0),
                }
            }
            "identifier" => {
                let name = self.text(node);
                if self.function.parameter(name).is_none() && !self.updated.contains(name) {
                    if let Some([value]) = self.definitions.get(name).map(Vec::as_slice) {
                        return self.constant_truth(*value, depth + 1);
                    }
                }
                self.constant_number(node).map(|v| v != 0)
            }
            _ => self.constant_number(node).map(|v| v != 0),
        }
    }

    /// A number every thread of every visible launch sees alike: a constant, or a template
    /// parameter each launch gives the same value.
    fn constant_number(&self, node: Node<'t>) -> Option<i128> {
        let node = strip(node, self.source);
        match node.node_kind() {
            "true" => return Some(1),
            "false" => return Some(0),
            _ => {}
        }
        if let Some(value) = self.constant_value(node, 0) {
            return Some(i128::from(value));
        }
        if node.node_kind() != "identifier"
            || !self
                .function
                .template_parameters
                .iter()
                .any(|p| p == self.text(node))
        {
            return None;
        }
        let launches = &self.out.launches;
        let first = self.value_at_launch(node, launches.first()?, 0)?;
        launches[1..]
            .iter()
            .all(|launch| self.value_at_launch(node, launch, 0) == Some(first))
            .then_some(first)
    }
}
