//! Values every thread of a block reads alike, where they are read: a `__shared__` scalar read
//! after the barrier that publishes it, and locals whose definitions that reach a read are such
//! values. A kernel's thread identity of a name is the union over all its definitions
//! (`int max_id = threadIdx.x; ... max_id = s_max[0];`); a test of the name after the last one
//! does not split the block, whatever the first one held.

use super::*;

impl<'a, 't> Analyzer<'a, 't> {
    /// The thread identity of the value `node` has where it is read: each local through the
    /// definitions that reach this read, each published shared scalar as the one value the whole
    /// block sees. Never more than `expression_deps`, which reads every definition.
    pub(super) fn deps_where_read(&self, node: Node<'t>) -> Deps {
        self.deps_where_read_at(node, 0, &mut Vec::new())
    }

    fn deps_where_read_at(&self, node: Node<'t>, depth: usize, visiting: &mut Vec<String>) -> Deps {
        let whole = self.expression_deps(node, 0);
        if whole.is_uniform() || depth > MAX_DEPTH {
            return whole;
        }
        let node = strip(node, self.source);
        let within = |deps: Deps| deps.intersection(whole);
        match node.node_kind() {
            "identifier" => {
                let name = self.text(node);
                if self.is_shared_scalar(name) {
                    return if self.published_where_read(node, name) {
                        Deps::NONE
                    } else {
                        whole
                    };
                }
                if let Some(deps) = self.loop_counter_deps_where_read(node, depth, visiting) {
                    return within(deps);
                }
                let Some((key, values)) = self.followed_values(node) else {
                    return whole;
                };
                // around a loop: the values already being followed are counted where they are
                if visiting.contains(&key) {
                    return Deps::NONE;
                }
                visiting.push(key);
                let mut deps = Deps::NONE;
                for value in values {
                    let in_place = crate::model::reaching::updates_itself(value, self.source)
                        .then(|| crate::model::ranges::update_of(value))
                        .flatten();
                    deps = deps.union(match in_place {
                        Some((target, update)) => {
                            let added = if update.node_kind() == "assignment_expression" {
                                self.deps_where_read_at(value, depth + 1, visiting)
                            } else {
                                Deps::NONE
                            };
                            self.deps_where_read_at(target, depth + 1, visiting)
                                .union(added)
                        }
                        None => self.deps_where_read_at(value, depth + 1, visiting),
                    });
                    if deps.contains(whole) {
                        break;
                    }
                }
                visiting.pop();
                within(deps)
            }
            "binary_expression"
            | "unary_expression"
            | "parenthesized_expression"
            | "conditional_expression"
            | "cast_expression"
            | "comma_expression" => within(named_children(node).fold(Deps::NONE, |deps, child| {
                deps.union(self.deps_where_read_at(child, depth + 1, visiting))
            })),
            // `min(base, cap)`, casts: what the arguments carry
            "call_expression"
                if node
                    .field("function")
                    .is_some_and(|f| is_arithmetic_call(self.text(f))) =>
            {
                within(node.field("arguments").map_or(whole, |arguments| {
                    named_children(arguments).fold(Deps::NONE, |deps, argument| {
                        deps.union(self.deps_where_read_at(argument, depth + 1, visiting))
                    })
                }))
            }
            // `iterations(x, y, len)`: what the helper derives itself, and the arguments that
            // reach its result as they are where the call reads them
            "call_expression" => match self.helper_call(node) {
                Some((summary, arguments)) => match summary.returns.as_ref() {
                    Some(returns) => within(returns.flowing.iter().fold(
                        returns.intrinsic,
                        |deps, parameter| match arguments.get(*parameter) {
                            Some(argument) => {
                                deps.union(self.deps_where_read_at(*argument, depth + 1, visiting))
                            }
                            None => whole,
                        },
                    )),
                    None => whole,
                },
                None => whole,
            },
            _ => whole,
        }
    }

    /// A `for` loop's own counter read inside the loop (`for (int i = ilim - 1; i >= 0; i--)`):
    /// what its start and its step carry where the loop reads them, when nothing in the body
    /// moves it besides the step. None for a name no enclosing loop declares.
    fn loop_counter_deps_where_read(
        &self,
        read: Node<'t>,
        depth: usize,
        visiting: &mut Vec<String>,
    ) -> Option<Deps> {
        let name = self.text(read);
        if !self.loop_scopes.iter().any(|(scoped, _)| scoped == name) {
            return None;
        }
        let for_loop = std::iter::successors(read.up(), |n| n.up())
            .take_while(|a| a.id() != self.function.body.id())
            .filter(|a| a.node_kind() == "for_statement")
            .find(|a| {
                a.field("initializer").is_some_and(|initializer| {
                    initializer.node_kind() == "declaration"
                        && named_children(initializer).any(|declarator| {
                            syntax::declarator_name(declarator)
                                .is_some_and(|n| self.text(n) == name)
                        })
                })
            })?;
        let start = self.loop_start(for_loop.field("initializer")?, name)?;
        if for_loop
            .field("body")
            .is_none_or(|body| self.writes_to(body, name))
        {
            return None;
        }
        // a step that reads the counter (`i += i >> 1`) reaches this loop again: what the
        // counter carries is counted once, where the outer reading follows it
        let key = format!("for {} {}", for_loop.id(), name);
        if visiting.contains(&key) {
            return Some(Deps::NONE);
        }
        visiting.push(key);
        let deps = self.loop_counter_steps_deps(for_loop, start, name, depth, visiting);
        visiting.pop();
        deps
    }

    /// What a loop counter's start and its steps carry where the loop reads them.
    fn loop_counter_steps_deps(
        &self,
        for_loop: Node<'t>,
        start: Node<'t>,
        name: &str,
        depth: usize,
        visiting: &mut Vec<String>,
    ) -> Option<Deps> {
        let mut deps = self.deps_where_read_at(start, depth + 1, visiting);
        let mut pending: Vec<Node<'t>> = for_loop.field("update").into_iter().collect();
        while let Some(part) = pending.pop() {
            let part = strip(part, self.source);
            match part.node_kind() {
                "comma_expression" if pending.len() < 16 => {
                    pending.extend(part.field("left"));
                    pending.extend(part.field("right"));
                }
                // `i--`, `++i`: a step of one
                "update_expression"
                    if part
                        .field("argument")
                        .is_some_and(|a| syntax::same_text(a, self.source, name)) => {}
                "assignment_expression" => {
                    let target = part.field("left")?;
                    if !syntax::same_text(target, self.source, name) {
                        continue;
                    }
                    let step = match operator(part, self.source) {
                        "=" => self.loop_step(part, name)?,
                        _ => part.field("right")?,
                    };
                    deps = deps.union(self.deps_where_read_at(step, depth + 1, visiting));
                }
                _ => {}
            }
        }
        Some(deps)
    }

    /// Whether `name` is a `__shared__` scalar of the kernel (`__shared__ int total;`).
    pub(super) fn is_shared_scalar(&self, name: &str) -> bool {
        let Some(declarator) = self.declarations.get(name) else {
            return false;
        };
        declarator.up().is_some_and(|declaration| {
            declaration.node_kind() == "declaration"
                && self.text(declaration).contains("__shared__")
        }) && !matches!(
            declarator.node_kind(),
            "array_declarator" | "pointer_declarator"
        ) && declarator
            .field("declarator")
            .is_none_or(|inner| inner.node_kind() == "identifier")
    }

    /// Whether the read `read` of the shared scalar `name` sees the one value the barrier before
    /// it published: a barrier comes before the read with no store to `name` between (in no loop
    /// around the read that the barrier is outside of either), and no store follows the read
    /// before the next barrier (around the loop that holds both, too). Every thread then reads
    /// the same value, whichever threads stored it.
    fn published_where_read(&self, read: Node<'t>, name: &str) -> bool {
        let body = self.function.body;
        // back to the barrier
        let mut child = read;
        let mut barrier = None;
        let mut loops_crossed = Vec::new();
        while barrier.is_none() && child.id() != body.id() {
            let Some(parent) = child.up() else {
                return false;
            };
            if parent.node_kind() == "compound_statement" {
                let mut sibling = child.prev_named_sibling();
                while let Some(statement) = sibling {
                    if self.is_barrier_statement(statement) {
                        barrier = Some(statement);
                        break;
                    }
                    if self.stores_to(statement, name) {
                        return false;
                    }
                    sibling = statement.prev_named_sibling();
                }
            }
            if barrier.is_none() && syntax::is_loop(parent) {
                loops_crossed.push(parent);
            }
            child = parent;
        }
        let Some(barrier) = barrier else {
            return false;
        };
        if loops_crossed.iter().any(|l| self.stores_to(*l, name)) {
            return false;
        }
        // on to the next barrier
        let mut child = read;
        while child.id() != body.id() {
            let Some(parent) = child.up() else {
                return false;
            };
            if parent.node_kind() == "compound_statement" {
                let mut sibling = child.next_named_sibling();
                while let Some(statement) = sibling {
                    if self.is_barrier_statement(statement) {
                        return true;
                    }
                    if self.stores_to(statement, name) {
                        return false;
                    }
                    sibling = statement.next_named_sibling();
                }
            }
            // the end of a loop's body goes back to its start: on to the barrier the read
            // came after, or past the read itself
            if syntax::is_loop(parent) && syntax::encloses(parent, barrier) {
                return self.no_store_before_a_barrier(parent, name);
            }
            child = parent;
        }
        true
    }

    /// From the start of `loop_statement`'s body: a barrier comes before any store to `name`.
    fn no_store_before_a_barrier(&self, loop_statement: Node<'t>, name: &str) -> bool {
        let Some(body) = loop_statement.field("body") else {
            return false;
        };
        if body.node_kind() != "compound_statement" {
            return false;
        }
        for statement in named_children(body) {
            if self.is_barrier_statement(statement) {
                return true;
            }
            if self.stores_to(statement, name) {
                return false;
            }
        }
        false
    }

    fn is_barrier_statement(&self, statement: Node<'t>) -> bool {
        statement.node_kind() == "expression_statement"
            && statement
                .named_child(0)
                .is_some_and(|call| call.node_kind() == "call_expression" && self.is_barrier(call))
    }

    /// Whether `within` assigns, steps or takes the address of `name`.
    fn stores_to(&self, within: Node<'t>, name: &str) -> bool {
        let mut stores = false;
        syntax::walk_iterative(within, |node| {
            let target = match node.node_kind() {
                "pointer_expression" if operator(node, self.source) == "&" => {
                    node.field("argument")
                }
                _ => syntax::assigned_target(node),
            };
            stores |= target.is_some_and(|t| syntax::same_text(t, self.source, name));
            !stores
        });
        stores
    }
}
