//! Thread identity: which locals derive from `threadIdx`/`blockIdx`, pointer origins, definitions.

use super::calls::callee_name;
use super::*;
use crate::model::launch::axis_index;

impl<'a, 't> Analyzer<'a, 't> {
    // ---- definitions -------------------------------------------------------------------

    pub(super) fn collect_definitions(&mut self) {
        self.change_starts = Default::default();
        let source = self.source;
        let mut declared: Vec<(Node<'t>, Node<'t>, Option<Node<'t>>, bool, &str)> = Vec::new();
        let mut assigned: Vec<(String, Node<'t>, bool)> = Vec::new();
        let mut updated: Vec<(String, Node<'t>)> = Vec::new();
        let mut calls: Vec<String> = Vec::new();
        syntax::walk_iterative(self.function.body, |node| {
            match node.node_kind() {
                "call_expression" => {
                    if let Some(name) = node.field("function").and_then(|f| callee_name(f, source))
                    {
                        calls.push(name.to_string());
                    }
                }
                "declaration" => {
                    let type_text = node.field("type").map(|t| text(t, source)).unwrap_or("");
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
                            declared.push((name, declarator, value, is_pointer, type_text));
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
                            updated.push((text(argument, source).to_string(), argument));
                        }
                    }
                }
                "lambda_expression" => return false,
                _ => {}
            }
            true
        });
        // `for (int i = tid; ...)` declares an `i` seen only inside that loop (its identity there
        // is the loop scope's); where the name is declared again outside a loop header, the
        // function-wide `i` is that other one
        let in_loop_header = |declarator: Node<'t>| {
            declarator
                .up()
                .and_then(|declaration| declaration.up())
                .is_some_and(|p| p.node_kind() == "for_statement")
        };
        let declared_outside_loop_headers: std::collections::HashSet<&str> = declared
            .iter()
            .filter(|(_, declarator, ..)| !in_loop_header(*declarator))
            .map(|(name, ..)| text(*name, source))
            .collect();
        // `T* p = nullptr;` (or no initializer) then one `p = &a[i];`: a pointer declared empty
        // and pointed once at known memory keeps that origin, as if it had been declared so
        let mut pointed_later: HashMap<String, usize> = HashMap::default();
        for (name_node, _, value, is_pointer, _) in &declared {
            if *is_pointer && value.is_none_or(|v| syntax::is_null_pointer(v, source)) {
                pointed_later.insert(self.text(*name_node).to_string(), 0);
            }
        }
        for (name, _, _) in &assigned {
            if let Some(count) = pointed_later.get_mut(name) {
                *count += 1;
            }
        }
        for (name_node, declarator, value, is_pointer, type_text) in declared {
            let name = self.text(name_node).to_string();
            let value = value.filter(|_| {
                !(in_loop_header(declarator)
                    && declared_outside_loop_headers.contains(name.as_str()))
            });
            self.declarations.entry(name.clone()).or_insert(declarator);
            let same_name = self.all_declarations.entry(name.clone()).or_default();
            if !same_name.iter().any(|d| d.id() == declarator.id()) {
                same_name.push(declarator);
            }
            if type_text.contains("grid_group") {
                self.groups.insert(name.clone(), GroupKind::Grid);
            } else if type_text.contains("cluster_group") {
                self.groups.insert(name.clone(), GroupKind::Cluster);
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
            } else if value_text.contains("this_cluster") {
                self.groups.insert(name.clone(), GroupKind::Cluster);
            } else if value_text.contains("this_thread_block")
                && !value_text.contains("tiled_partition")
            {
                self.groups.insert(name.clone(), GroupKind::Block);
            }
            if is_pointer {
                let origin = self.pointer_origin(value);
                self.same_name_pointers
                    .entry(name.clone())
                    .or_default()
                    .push((value, origin));
                if let Some(origin) = origin {
                    self.pointers.insert(name.clone(), origin);
                    if let Some(element) = declared_element(type_text, value, source) {
                        self.pointer_elements.insert(name.clone(), element);
                    }
                }
            }
            self.definitions.entry(name).or_default().push(value);
        }
        for (name, operand) in updated {
            self.steps.entry(name.clone()).or_default().push(operand);
            self.updated.insert(name);
        }
        calls.sort_unstable();
        calls.dedup();
        self.out.calls = calls;
        let mut steps_in_loops = Vec::new();
        for (name, value, compound) in assigned {
            if compound && in_loop(value) {
                steps_in_loops.push((name.clone(), value));
            }
            if self.pointers.contains_key(&name)
                && !compound
                && self.pointer_origin(value).is_none()
            {
                self.pointers.remove(&name); // re-pointed at memory we know nothing of
            } else if compound && self.pointers.contains_key(&name) {
                self.updated.insert(name.clone()); // `p += n` moves it off its first element
            } else if !compound && pointed_later.get(&name) == Some(&1) {
                if let Some(origin) = self.pointer_origin(value) {
                    self.pointers.insert(name.clone(), origin);
                }
            }
            self.definitions.entry(name).or_default().push(value);
        }
        // `i += blockDim.x * gridDim.x` in a loop walks past the launch's threads; added once
        // (`index += gtidy * stride + gtidx`) it is a position like any other
        let mut mentions = HashMap::default();
        for (name, value) in steps_in_loops {
            if self.mentions_through_definitions(
                value,
                Mentions::LaunchDimensions,
                0,
                &mut mentions,
            ) && !self.mentions_through_definitions(
                value,
                Mentions::ThreadIdentity,
                0,
                &mut mentions,
            ) {
                let scope = value.up().and_then(|statement| {
                    crate::model::reaching::scope_of_assigned_local(
                        &name,
                        statement,
                        self.function.definition,
                        source,
                    )
                });
                self.stride_variables.entry(name).or_default().push(scope);
            }
        }
    }

    /// Whether the local `use_` names is a grid-stride variable where it is read: one of the
    /// name's stepped variables is declared in a scope holding the read (or in the function's
    /// outermost one). A counter `for (int i = tid; ...; i += blockDim.x)` makes no `int i` of
    /// another block one.
    pub(super) fn is_stride_variable(&self, use_: Node<'t>) -> bool {
        self.stride_variables
            .get(self.text(use_))
            .is_some_and(|scopes| {
                scopes.iter().any(|scope| {
                    scope
                        .as_ref()
                        .is_none_or(|bytes| bytes.contains(&use_.start_byte()))
                })
            })
    }

    /// Whether the text of `value`, or of a local definition it names (two levels down), names
    /// what `mentions` looks for. Each (definition, level) is answered once: a generated kernel
    /// of thousands of accumulations reads the same definitions over and over.
    fn mentions_through_definitions(
        &self,
        value: Node<'t>,
        mentions: Mentions,
        depth: usize,
        known: &mut HashMap<(usize, usize, Mentions), bool>,
    ) -> bool {
        if let Some(&answer) = known.get(&(value.id(), depth, mentions)) {
            return answer;
        }
        let text = self.text(value);
        if mentions.words().iter().any(|word| text.contains(word)) {
            known.insert((value.id(), depth, mentions), true);
            return true;
        }
        if depth > 2 {
            return false;
        }
        let mut found = false;
        syntax::walk_iterative(value, |node| {
            if node.node_kind() == "identifier" {
                if let Some(values) = self.definitions.get(self.text(node)) {
                    found |= values.iter().any(|v| {
                        *v != value
                            && self.mentions_through_definitions(*v, mentions, depth + 1, known)
                    });
                }
            }
            !found
        });
        known.insert((value.id(), depth, mentions), found);
        found
    }

    /// `a`, `a + off`, `&a[off]`, where `a` is a known global pointer.
    pub(super) fn pointer_origin(&self, value: Node<'t>) -> Option<PointerOrigin<'t>> {
        let value = strip(value, self.source);
        match value.node_kind() {
            "identifier" => self.pointer_at(value),
            "binary_expression" if operator(value, self.source) == "+" => {
                let left = strip(value.field("left")?, self.source);
                let right = value.field("right")?;
                if left.node_kind() == "identifier" {
                    let origin = self.pointer_at(left)?;
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
                let origin = self.pointer_at(base)?;
                let index = subscript_index(target)?;
                origin.offset.is_none().then_some(PointerOrigin {
                    parameter_index: origin.parameter_index,
                    offset: Some(index),
                })
            }
            _ => None,
        }
    }

    pub(super) fn propagate_thread_deps(&mut self) {
        let names: Vec<String> = self.definitions.keys().cloned().collect();
        // a local's values read only the identities of the identifiers in them: a local none of
        // whose inputs changed since it was last evaluated would come out the same, so it is
        // skipped (`changes` counts the changes so far; each local notes the count at its last
        // change and at its last evaluation)
        let inputs: Vec<Vec<&'a str>> = names
            .iter()
            .map(|name| self.identifiers_read(&self.definitions[name]))
            .collect();
        // values one thread stores into a shared scalar: the same for every thread that reads them
        // (the file's answer, read once: a search of the whole text for each kernel of a large
        // file costs its length times its kernels)
        let mentions_shared = self.model.map_or_else(
            || self.source.contains("__shared__"),
            |m| m.mentions_shared(),
        );
        let stored_by_one_thread: Vec<usize> = if mentions_shared {
            names
                .iter()
                .flat_map(|name| {
                    self.definitions[name]
                        .iter()
                        .filter(|value| self.stored_by_one_thread(name, **value))
                        .map(|value| value.id())
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut changes = 0usize;
        let mut changed_at: HashMap<&str, usize> = HashMap::default();
        let mut evaluated_at: Vec<Option<usize>> = vec![None; names.len()];
        for _ in 0..8 {
            let mut changed = false;
            for (at, name) in names.iter().enumerate() {
                if let Some(evaluated) = evaluated_at[at] {
                    let stale = inputs[at]
                        .iter()
                        .any(|input| changed_at.get(input).is_some_and(|c| *c > evaluated));
                    if !stale {
                        continue;
                    }
                }
                evaluated_at[at] = Some(changes);
                let before = self.deps.get(name).copied().unwrap_or_default();
                let mut deps = before;
                let mut scoped_changed = false;
                let scoped = self.declared_more_than_once(name);
                if let Some(values) = self.definitions.get(name) {
                    for value in values {
                        if stored_by_one_thread.contains(&value.id()) {
                            continue;
                        }
                        let value_deps = self.expression_deps(*value, 0);
                        deps = deps.union(value_deps);
                        if scoped {
                            let known = self.definition_deps.entry(value.id()).or_default();
                            if *known != known.union(value_deps) {
                                scoped_changed = true;
                                *known = known.union(value_deps);
                                self.propagation_cache.borrow_mut().clear();
                            }
                        }
                    }
                }
                if before != deps || scoped_changed {
                    self.propagation_cache.borrow_mut().clear();
                    self.deps.insert(name.clone(), deps);
                    changes += 1;
                    changed_at.insert(name.as_str(), changes);
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

    /// Whether `value` is stored into the `__shared__` scalar `name` by one thread of the block
    /// (`if (threadIdx.x == 0) top = base + threadIdx.x;`): every thread reads that one value
    /// after the barrier that publishes it, whatever the writer derived it from.
    fn stored_by_one_thread(&self, name: &str, value: Node<'t>) -> bool {
        let assigned = value
            .up()
            .is_some_and(|p| p.node_kind() == "assignment_expression");
        if !assigned || !self.is_shared_scalar(name) {
            return false;
        }
        syntax::ifs_taken_to(value).any(|(statement, _)| {
            statement
                .field("condition")
                .is_some_and(|c| self.selects_one_thread(syntax::condition_value(c), 0))
        })
    }

    /// `threadIdx.x == k` for a `k` the same in the whole block (also inside `&&`, or through a
    /// local defined once as `threadIdx.x`, `launch_axis`): the condition holds in one thread of
    /// a row.
    fn selects_one_thread(&self, condition: Node<'t>, depth: usize) -> bool {
        let condition = strip(condition, self.source);
        if depth > 4 || condition.node_kind() != "binary_expression" {
            return false;
        }
        let (Some(left), Some(right)) = (condition.field("left"), condition.field("right")) else {
            return false;
        };
        match operator(condition, self.source) {
            "&&" => {
                self.selects_one_thread(left, depth + 1)
                    || self.selects_one_thread(right, depth + 1)
            }
            "==" => [(left, right), (right, left)]
                .into_iter()
                .any(|(thread, other)| {
                    self.launch_axis(thread, "threadIdx", 0) == Some("x")
                        && self.expression_deps(other, 0).is_uniform()
                }),
            _ => false,
        }
    }

    /// The names of the identifiers in `values`: all a value's thread identity is read from.
    fn identifiers_read(&self, values: &[Node<'t>]) -> Vec<&'a str> {
        let mut names = Vec::new();
        for value in values {
            syntax::walk_iterative(*value, |node| {
                if node.node_kind() == "identifier" {
                    names.push(self.text(node));
                }
                true
            });
        }
        names.sort_unstable();
        names.dedup();
        names
    }

    /// How a value depends on the thread's identity.
    pub fn expression_deps(&self, node: Node<'t>, depth: usize) -> Deps {
        if !self.cache_deps {
            let key = (node.id(), self.reading_thread_terms.get());
            if let Some(deps) = self.propagation_cache.borrow().get(&key) {
                return *deps;
            }
            let deps = self.compute_expression_deps(node, depth);
            self.propagation_cache.borrow_mut().insert(key, deps);
            return deps;
        }
        if let Some(deps) = self.deps_cache.borrow().get(&node.id()) {
            return *deps;
        }
        let deps = self.compute_expression_deps(node, depth);
        self.deps_cache.borrow_mut().insert(node.id(), deps);
        deps
    }

    /// Whether the kernel declares several locals named `name` (a counter declared by each of two
    /// loops): a read of the name is then one of them, and carries that one's thread identity.
    /// A parameter of the name keeps the identity it is given (a summary's seeded index).
    fn declared_more_than_once(&self, name: &str) -> bool {
        self.all_declarations.get(name).is_some_and(|d| d.len() > 1)
            && !self.function.parameters.iter().any(|p| p.name == name)
    }

    /// The thread identity of the local named `name` that `read` sees, where the kernel declares
    /// several of that name: only the definitions in scope at the read, as reaching definitions
    /// tell them apart (`for (int j = threadIdx.x; ...)` says nothing of a later
    /// `for (int j = r; ...)`). None where the name is one variable in the whole kernel.
    fn deps_in_scope(&self, name: &str, read: Node<'t>) -> Option<Deps> {
        if !self.declared_more_than_once(name) || !syntax::encloses(self.function.body, read) {
            return None;
        }
        let values = self.definitions.get(name)?;
        Some(
            values
                .iter()
                .filter(|value| self.in_scope(**value, read))
                .fold(Deps::NONE, |deps, value| {
                    deps.union(
                        self.definition_deps
                            .get(&value.id())
                            .copied()
                            .unwrap_or_default(),
                    )
                }),
        )
    }

    /// `threadIdx.y` where every visible launch gives blocks one thread deep on `y`: it is 0 in
    /// every thread (`dim3 block(32, 1)` with `m = blockIdx.y * 1 + threadIdx.y`), so a test on
    /// it does not split the block. No launch visible: nothing is known.
    fn single_thread_axis(&self, field: Node<'t>) -> bool {
        let Some(axis) = field.field("field").and_then(|f| axis_index(self.text(f))) else {
            return false;
        };
        !self.out.launches.is_empty()
            && self
                .out
                .launches
                .iter()
                .all(|launch| launch.block[axis] == Some(1))
    }

    pub(super) fn compute_expression_deps(&self, node: Node<'t>, depth: usize) -> Deps {
        if depth > MAX_DEPTH {
            return Deps::NONE;
        }
        // `(blockIdx.x * blockDim.x + threadIdx.x) >> 5` where every launch's block is 32 wide:
        // `blockIdx.x`, the same for the whole block (and its remainder `threadIdx.x`)
        if node.node_kind() == "binary_expression" {
            if let Some(deps) = self.split_by_block_width(node) {
                return deps;
            }
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
                    None => self
                        .deps_in_scope(name, node)
                        .unwrap_or_else(|| self.deps.get(name).copied().unwrap_or_default()),
                }
            }
            "field_expression" => {
                let Some(argument) = node.field("argument") else {
                    return Deps::NONE;
                };
                // `p->offset` loads from memory, as `p[0].offset` does: the value stored there,
                // not the thread's position, however `p` was reached
                if operator(node, self.source) == "->" {
                    return Deps::NONE;
                }
                match self.text(argument) {
                    "threadIdx" if self.single_thread_axis(node) => Deps::NONE,
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
                    // a device function with a summary: its arguments that reach the result, and
                    // what its body derives itself; an unknown function may bound, hash or ignore
                    // its arguments: its result is opaque
                    return self.helper_call_deps(node, depth).unwrap_or(Deps::NONE);
                }
                node.field("arguments")
                    .map(|args| self.children_deps(args, depth))
                    .unwrap_or_default()
            }
            // `i - threadIdx.x` where `i` is `base + threadIdx.x` stepped by uniform amounts, or
            // `t < tend - 2 * C` where `t` and `tend` both add the same `threadIdx.x` to
            // block-uniform bases: the thread's part cancels, and what is left is the block's
            "binary_expression"
                if matches!(
                    operator(node, self.source),
                    "-" | "<" | "<=" | ">" | ">=" | "==" | "!="
                ) =>
            {
                self.deps_of_two_sides(node, depth)
            }
            // `threadIdx.x / WORD` where every launch's block is at most `WORD` wide: 0 for
            // every thread (the block is exactly one group)
            "binary_expression"
                if matches!(operator(node, self.source), "/")
                    && self.quotient_zero_at_every_launch(node) =>
            {
                Deps::NONE
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

    /// The dependence of a difference or a comparison: its sides', except where both add the
    /// same thread-varying terms to block-uniform values (`_t < _tend - 2 * C` with `_t = base +
    /// i` stepped by `C` and `_tend = end + i`): then what is left, the block's at most.
    fn deps_of_two_sides(&self, node: Node<'t>, depth: usize) -> Deps {
        let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
            return self.children_deps(node, depth);
        };
        let (left_deps, right_deps) = (
            self.expression_deps(left, depth + 1),
            self.expression_deps(right, depth + 1),
        );
        let deps = left_deps.union(right_deps);
        if self.reading_thread_terms.get()
            || !left_deps.varies_within_block()
            || !right_deps.varies_within_block()
        {
            return deps;
        }
        self.reading_thread_terms.set(true);
        let terms = self.thread_terms(left, depth + 1, 6);
        let same = terms.as_ref().is_some_and(|terms| {
            !terms.is_empty() && self.thread_terms(right, depth + 1, 6).as_ref() == Some(terms)
        });
        self.reading_thread_terms.set(false);
        match same {
            true if deps.contains(Deps::BLOCK) || deps.contains(Deps::GRID) => Deps::BLOCK,
            true => Deps::NONE,
            false => deps,
        }
    }

    /// The terms of a sum that vary within a block, each with its sign, sorted, following each
    /// local whose every definition gives the same such terms or steps it by a block-uniform
    /// amount: `b * T * C + h * N + i` with `i = threadIdx.x` is `[+threadIdx.x]`. None where a
    /// varying value is not a sum of such terms (a product of two, a local set two ways).
    fn thread_terms(
        &self,
        node: Node<'t>,
        depth: usize,
        levels: usize,
    ) -> Option<Vec<(bool, String)>> {
        if depth > MAX_DEPTH || levels == 0 {
            return None;
        }
        let node = strip(node, self.source);
        if !self.expression_deps(node, depth).varies_within_block() {
            return Some(Vec::new());
        }
        let mut terms = match (node.node_kind(), node.field("left"), node.field("right")) {
            ("binary_expression", Some(left), Some(right))
                if matches!(operator(node, self.source), "+" | "-") =>
            {
                let mut terms = self.thread_terms(left, depth + 1, levels - 1)?;
                let negate = operator(node, self.source) == "-";
                for (positive, term) in self.thread_terms(right, depth + 1, levels - 1)? {
                    terms.push((positive != negate, term));
                }
                terms
            }
            // a local declared by several loops: the definitions of the one in scope here
            ("identifier", _, _) => match self.definitions_in_scope(self.text(node), node) {
                Some(values) if !values.is_empty() => {
                    self.terms_of_every_definition(&values, depth, levels)?
                }
                Some(_) => return None,
                None => vec![(true, normalized(node, self.source))],
            },
            _ => vec![(true, normalized(node, self.source))],
        };
        // `+x` and `-x` cancel
        let mut kept: Vec<(bool, String)> = Vec::new();
        for term in terms.drain(..) {
            match kept
                .iter()
                .position(|(sign, text)| *sign != term.0 && *text == term.1)
            {
                Some(at) => {
                    kept.remove(at);
                }
                None => kept.push(term),
            }
        }
        kept.sort();
        Some(kept)
    }

    /// The thread-varying terms every plain definition among `values` gives, where the others
    /// are steps by a block-uniform amount (`+=`, `-=`).
    fn terms_of_every_definition(
        &self,
        values: &[Node<'t>],
        depth: usize,
        levels: usize,
    ) -> Option<Vec<(bool, String)>> {
        let mut found: Option<Vec<(bool, String)>> = None;
        for value in values {
            match value
                .up()
                .filter(|p| p.node_kind() == "assignment_expression")
                .map(|p| operator(p, self.source))
            {
                Some("+=" | "-=") => {
                    if self
                        .expression_deps(*value, depth + 1)
                        .varies_within_block()
                    {
                        return None;
                    }
                }
                Some("=") | None => {
                    let terms = self.thread_terms(*value, depth + 1, levels - 1)?;
                    if found.as_ref().is_some_and(|f| *f != terms) {
                        return None;
                    }
                    found = Some(terms);
                }
                _ => return None,
            }
        }
        found
    }

    pub(super) fn children_deps(&self, node: Node<'t>, depth: usize) -> Deps {
        named_children(node).fold(Deps::NONE, |deps, child| {
            deps.union(self.expression_deps(child, depth + 1))
        })
    }

    pub(super) fn group_rank_deps(&self, function: Node<'t>, name: &str) -> Deps {
        if name.contains("this_grid") {
            return Deps::GRID;
        }
        if name.contains("this_cluster") {
            return if name.ends_with("block_rank") {
                Deps::BLOCK
            } else {
                Deps::GRID
            };
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
            Some(GroupKind::Cluster) if name.ends_with("block_rank") => Deps::BLOCK,
            Some(GroupKind::Cluster) => Deps::GRID,
            Some(GroupKind::Block) => Deps::THREAD,
            None => Deps::THREAD,
        }
    }

    /// The launch axes a value's thread identity comes from: `threadIdx.y` and `blockIdx.y` give
    /// `y`; a grid-wide rank gives every axis.
    pub(super) fn thread_axes(&self, node: Node<'t>, depth: usize) -> Axes {
        self.thread_axes_of(node, depth, &mut Vec::new(), &["threadIdx", "blockIdx"])
    }

    /// The axes whose block index `node` is computed from (`y` for `(blockIdx.y << 5) +
    /// threadIdx.x`).
    pub(super) fn block_axes(&self, node: Node<'t>) -> Axes {
        self.thread_axes_of(node, 0, &mut Vec::new(), &["blockIdx"])
    }

    /// `thread_axes` (of the `identities` named: `threadIdx`, `blockIdx`), each local followed
    /// once per question: the answer is the union of what every local reached carries, so a
    /// local reached again adds nothing (`a = b; b = a` ends), and a chain of locals each built
    /// from the two before it is read in linear time, not exponential.
    fn thread_axes_of(
        &self,
        node: Node<'t>,
        depth: usize,
        expanded: &mut Vec<&'a str>,
        identities: &[&str],
    ) -> Axes {
        if depth > 12 {
            return Axes::ALL;
        }
        match node.node_kind() {
            "identifier" => {
                let name = self.text(node);
                if expanded.contains(&name) {
                    return Axes::NONE;
                }
                expanded.push(name);
                let mut axes = Axes::NONE;
                if let Some(values) = self.definitions.get(name) {
                    for value in values {
                        axes = axes.union(self.thread_axes_of(
                            *value,
                            depth + 1,
                            expanded,
                            identities,
                        ));
                    }
                }
                axes
            }
            "field_expression" => {
                let argument = node.field("argument").map(|a| self.text(a));
                let field = node.field("field").map(|f| self.text(f)).unwrap_or("");
                if operator(node, self.source) == "->" {
                    return Axes::NONE;
                }
                match argument {
                    Some(identity) if identities.contains(&identity) => Axes::from_field(field),
                    Some("threadIdx" | "blockIdx" | "blockDim" | "gridDim") => Axes::NONE,
                    _ => node
                        .field("argument")
                        .map(|a| self.thread_axes_of(a, depth + 1, expanded, identities))
                        .unwrap_or_default(),
                }
            }
            "call_expression" => {
                if self.expression_deps(node, 0).contains(Deps::GRID) {
                    return Axes::ALL;
                }
                node.field("arguments")
                    .map(|a| self.thread_axes_of(a, depth + 1, expanded, identities))
                    .unwrap_or_default()
            }
            "subscript_expression"
            | "pointer_expression"
            | "sizeof_expression"
            | "string_literal"
            | "number_literal"
            | "lambda_expression" => Axes::NONE,
            _ => named_children(node).fold(Axes::NONE, |axes, child| {
                axes.union(self.thread_axes_of(child, depth + 1, expanded, identities))
            }),
        }
    }

    /// Whether the values that reach `index` (and the pointer's `offset`) at this access carry
    /// the global thread index: each local read there through the definitions that reach that
    /// read, and a choice `c ? a : b` through the values it chooses between.
    pub(super) fn reaches_as_global_index(
        &self,
        index: Node<'t>,
        offset: Option<Node<'t>>,
    ) -> bool {
        let mut visiting = Vec::new();
        let mut deps = self.value_deps(index, 0, &mut visiting);
        if let Some(offset) = offset {
            deps = deps.union(self.value_deps(offset, 0, &mut visiting));
        }
        deps.is_global_index()
    }

    /// The thread identity of the value `node` has where it is written: like `expression_deps`,
    /// but a local contributes only the definitions that reach this read of it, and a
    /// conditional only the values it may take (which thread chooses does not make the chosen
    /// value a thread index).
    fn value_deps(&self, node: Node<'t>, depth: usize, visiting: &mut Vec<String>) -> Deps {
        let whole = self.expression_deps(node, 0);
        if depth > 16 || whole.is_uniform() {
            return whole;
        }
        let node = strip(node, self.source);
        // what flows here is never more than the expression's thread identity as a whole
        let within = |deps: Deps| deps.intersection(whole);
        within(match node.node_kind() {
            "identifier" => {
                let Some((key, values)) = self.followed_values(node) else {
                    return whole;
                };
                if visiting.contains(&key) {
                    return whole;
                }
                if let Some(known) = self.reaching_deps_cache.borrow().get(&key) {
                    return *known;
                }
                visiting.push(key.clone());
                let mut deps = Deps::NONE;
                for value in values {
                    deps = deps.union(
                        if crate::model::reaching::updates_itself(value, self.source) {
                            self.update_deps(value, depth, visiting).unwrap_or(whole)
                        } else {
                            self.value_deps(value, depth + 1, visiting)
                        },
                    );
                    if deps == whole {
                        break;
                    }
                }
                visiting.pop();
                self.reaching_deps_cache.borrow_mut().insert(key, deps);
                deps
            }
            "conditional_expression" => {
                let mut deps = Deps::NONE;
                for branch in [node.field("consequence"), node.field("alternative")] {
                    let Some(branch) = branch else { return whole };
                    deps = deps.union(self.value_deps(branch, depth + 1, visiting));
                }
                deps
            }
            // a test's outcome is 0 or 1 whichever thread computes it: no position in the grid
            "binary_expression" if is_test(operator(node, self.source)) => Deps::NONE,
            "unary_expression" if operator(node, self.source) == "!" => Deps::NONE,
            "binary_expression" => named_children(node).fold(Deps::NONE, |deps, child| {
                deps.union(self.value_deps(child, depth + 1, visiting))
            }),
            _ => whole,
        })
    }

    /// The values of the local read at `read` that may reach it, with the key of that set; None
    /// where the read is not followed to them: a loop's own counter (its identity is the loop's),
    /// a grid-stride variable, a name the kernel does not define.
    pub(super) fn followed_values(&self, read: Node<'t>) -> Option<Reaching<'t>> {
        let name = self.text(read);
        if self.loop_scopes.iter().any(|(scoped, _)| scoped == name) {
            return None;
        }
        let (key, values) = crate::model::ranges::RangeContext::reaching(self, read)?;
        // a grid-stride variable is the loop's where its stride reaches; assigned afresh after
        // the loop (`i = BS / 2` for a tree reduction), it holds what it is given there
        if self.is_stride_variable(read)
            && values.iter().any(|value| {
                crate::model::ranges::update_of(*value).is_some_and(|(_, update)| {
                    update.node_kind() == "update_expression"
                        || matches!(operator(update, self.source), "+=" | "-=")
                })
            })
        {
            return None;
        }
        (!values.is_empty()).then_some((key, values))
    }

    /// The thread identity an update in place (`x += e`, `x++`) leaves in `x`: what `x` held
    /// just before it, and what it adds. None when the update is not an assignment to a local.
    fn update_deps(
        &self,
        value: Node<'t>,
        depth: usize,
        visiting: &mut Vec<String>,
    ) -> Option<Deps> {
        let (target, update) = crate::model::ranges::update_of(value)?;
        let added = (update.node_kind() == "assignment_expression").then_some(value);
        let mut deps = self.value_deps(target, depth + 1, visiting);
        if let Some(added) = added {
            deps = deps.union(self.value_deps(added, depth + 1, visiting));
        }
        Some(deps)
    }

    /// The block width every visible launch gives on `axis`, when they all give the same
    /// constant (`<<<g, 32>>>`, `dim3 block(bsize)` with `bsize` 32). None where a launch's width
    /// is unknown, where launches disagree, or where no launch is in sight: a kernel's geometry
    /// is then whatever a caller out of sight chooses.
    pub(super) fn block_width(&self, axis: usize) -> Option<i128> {
        let mut widths = self
            .out
            .launches
            .iter()
            .map(|l| l.block.get(axis).copied().flatten());
        let first = widths.next()??;
        (first > 0 && widths.all(|width| width == Some(first))).then_some(first)
    }

    /// What the global `x` index `g = blockIdx.x * blockDim.x + threadIdx.x` split by a constant
    /// `K` depends on, where every visible launch gives blocks `W` wide on `x`: `g / K` (or `g >>
    /// log2(K)`) with `K` a multiple of `W` is `blockIdx.x / (K / W)`, the same in every thread
    /// of a block; `g % K` (or `g & (K - 1)`) with `K` dividing `W` is `threadIdx.x % K`, the
    /// same in every block. None for any other shape, width or divisor: nothing is known then.
    pub(super) fn split_by_block_width(&self, node: Node<'t>) -> Option<Deps> {
        let node = strip(node, self.source);
        let (left, right) = (node.field("left")?, node.field("right")?);
        let constant = |n: Node<'t>| self.constant_value(n, 0).map(i128::from);
        let (quotient, divisor) = match operator(node, self.source) {
            "/" => (true, constant(right)?),
            ">>" => (
                true,
                1i128.checked_shl(u32::try_from(constant(right)?).ok()?)?,
            ),
            "%" => (false, constant(right)?),
            // a mask of the low bits is the remainder by the next power of two
            "&" => {
                let mask = constant(right)?;
                let modulus = mask.checked_add(1)?;
                (mask >= 0 && modulus.count_ones() == 1).then_some((false, modulus))?
            }
            _ => return None,
        };
        if divisor <= 0 {
            return None;
        }
        if !matches!(
            self.thread_term(left, 0)?,
            super::accesses::ThreadTerm::GlobalX { strides: 0 }
        ) {
            return None;
        }
        let width = self.block_width(0)?;
        match quotient {
            true if divisor % width == 0 => Some(Deps::BLOCK),
            false if width % divisor == 0 => Some(Deps::THREAD),
            _ => None,
        }
    }

    /// `threadIdx.x / C` with every visible launch's block no wider than `C` on that axis (`C`
    /// a constant or a template argument there): the quotient is 0 in every thread. The
    /// numerator may be a quotient itself (`warp / WARPS_PER_TILE` with `warp = threadIdx.x /
    /// 32`): the divisors multiply.
    fn quotient_zero_at_every_launch(&self, quotient: Node<'t>) -> bool {
        let mut divisors = Vec::new();
        let mut numerator = quotient;
        let axis = loop {
            let node = strip(numerator, self.source);
            let node = match node.node_kind() {
                "identifier" if !self.updated.contains(self.text(node)) => {
                    match self.definitions.get(self.text(node)).map(Vec::as_slice) {
                        Some([value]) => strip(*value, self.source),
                        _ => return false,
                    }
                }
                _ => node,
            };
            if node.node_kind() != "binary_expression" || operator(node, self.source) != "/" {
                return false;
            }
            let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
                return false;
            };
            divisors.push(right);
            if let Some(field) = self.launch_axis(left, "threadIdx", 0) {
                match axis_index(field) {
                    Some(axis) => break axis,
                    None => return false,
                }
            }
            if divisors.len() >= 3 {
                return false;
            }
            numerator = left;
        };
        let product_at = |launch: Option<&LaunchSite>| -> Option<i128> {
            let mut product: i128 = 1;
            for divisor in &divisors {
                let value = match launch {
                    Some(launch) => self.value_at_launch(*divisor, launch, 0),
                    None => self.constant_value(*divisor, 0).map(i128::from),
                }
                .filter(|v| *v > 0)?;
                product = product.checked_mul(value)?;
            }
            Some(product)
        };
        // `__launch_bounds__(N)`: no launch gives a block of more than N threads
        if let (Some(bound), Some(product)) = (self.launch_bound, product_at(None)) {
            if bound <= product {
                return true;
            }
        }
        !self.out.launches.is_empty()
            && self.out.launches.iter().all(|launch| {
                match (launch.block[axis], product_at(Some(launch))) {
                    (Some(block), Some(product)) => block > 0 && block <= product,
                    _ => false,
                }
            })
    }

    /// Whether the comparisons that hold at `node` keep its block off the last one on every axis
    /// its thread identity comes from (`else` of `if (blockIdx.x == gridDim.x - 1)`, under
    /// `blockIdx.x < gridDim.x - 1`). A kernel that treats the last block apart is written for a
    /// grid rounded up to cover the problem, where every other block is full: its threads stay
    /// inside the problem without a guard of their own.
    pub(super) fn in_full_blocks(&self, node: Node<'t>, comparisons: &[Comparison<'t>]) -> bool {
        // only the block index says whether a block is the last: a column made of `blockIdx.y`
        // and `threadIdx.x` needs its block off the last one on `y` alone
        let axes = self.block_axes(strip(node, self.source));
        if axes.is_empty() || comparisons.is_empty() {
            return false;
        }
        axes.iter().all(|axis| {
            let name = crate::model::launch::AXIS_NAMES[axis];
            let (block, last) = (format!("blockIdx.{name}"), format!("gridDim.{name}-1"));
            let (next, grid) = (format!("blockIdx.{name}+1"), format!("gridDim.{name}"));
            comparisons.iter().any(|comparison| {
                [true, false].into_iter().any(|left_side| {
                    let c = comparison.oriented(left_side);
                    let left = normalized_text(c.left, self.source);
                    let right = normalized_text(c.right, self.source);
                    match c.relation {
                        Relation::NotEqual | Relation::Less => {
                            (left == block && right == last) || (left == next && right == grid)
                        }
                        _ => false,
                    }
                })
            })
        })
    }

    /// Whether every visible launch keeps this global index inside the problem: each axis its
    /// thread identity comes from has an exact grid (one block per row, a grid the size of the
    /// problem), never one rounded up. No launch visible: nothing is known.
    pub(super) fn bounded_by_launches(&self, node: Node<'t>) -> bool {
        if self.out.launches.is_empty() {
            return false;
        }
        // a grid-stride variable walks past the launch's threads: only a guard on it bounds it
        let node = strip(node, self.source);
        if node.node_kind() == "identifier" && self.is_stride_variable(node) {
            return false;
        }
        let axes = self.thread_axes(node, 0);
        self.out.launches.iter().all(|launch| launch.exact_on(axes))
    }
}

/// Comparisons and logical operators: their result is a truth value.
fn is_test(operator: &str) -> bool {
    matches!(
        operator,
        "<" | "<=" | ">" | ">=" | "==" | "!=" | "&&" | "||"
    )
}

/// Whether `node` sits in a loop of its function.
pub(super) fn in_loop(node: Node) -> bool {
    std::iter::successors(node.up(), |n| n.up())
        .take_while(|n| n.node_kind() != "function_definition")
        .any(|n| syntax::is_loop(n))
}

/// The element a local pointer declared as `T* p = value` points to: `T`, or for `auto` the
/// pointer type `value` is cast to (`auto p4 = reinterpret_cast<const float4*>(p)`).
fn declared_element(type_text: &str, value: Node, source: &str) -> Option<String> {
    if type_text != "auto" {
        return Some(type_text.to_string());
    }
    let value = match value.node_kind() {
        "parenthesized_expression" => value.named_child(0)?,
        _ => value,
    };
    super::accesses::pointer_cast(value, source).map(|(pointee, _)| pointee)
}

impl<'t> Analyzer<'_, 't> {
    /// Whether `definition` (a definition, step or declaration of some local) belongs to the
    /// local named at `at`: not to another of the same name declared in a block out of sight.
    pub(super) fn in_scope(&self, definition: Node<'t>, at: Node<'t>) -> bool {
        crate::model::reaching::in_scope_at(definition, at, self.function.definition, self.source)
    }

    /// Where the pointer local (or parameter) that `name` reads points: at which parameter, from
    /// which offset. Where the kernel declares several pointers of that name, the one in scope
    /// at the read.
    pub(super) fn pointer_at(&self, name: Node<'t>) -> Option<PointerOrigin<'t>> {
        let text = self.text(name);
        let origin = self.pointers.get(text).copied()?;
        let Some(declared) = self.same_name_pointers.get(text).filter(|d| d.len() > 1) else {
            return Some(origin);
        };
        let mut in_scope = declared
            .iter()
            .filter(|(value, _)| self.in_scope(*value, name));
        match (in_scope.next(), in_scope.next()) {
            (Some((_, origin)), None) => *origin,
            _ => Some(origin),
        }
    }

    /// The definitions of `name` that belong to the local named at `at`.
    pub(super) fn definitions_in_scope(&self, name: &str, at: Node<'t>) -> Option<Vec<Node<'t>>> {
        let values = self.definitions.get(name)?;
        Some(
            values
                .iter()
                .copied()
                .filter(|d| self.in_scope(*d, at))
                .collect(),
        )
    }
}

/// What a step's value is searched for, directly or through the locals it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Mentions {
    /// `blockDim`/`gridDim`: a grid stride.
    LaunchDimensions,
    /// `threadIdx`/`blockIdx`: a step that differs between threads (`off += lane * w`) is no
    /// grid stride.
    ThreadIdentity,
}

impl Mentions {
    fn words(self) -> &'static [&'static str] {
        match self {
            Mentions::LaunchDimensions => &["blockDim", "gridDim", ".size()", "num_threads"],
            Mentions::ThreadIdentity => &["threadIdx", "blockIdx"],
        }
    }
}
