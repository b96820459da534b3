//! Block-wide barriers and whether the conditions that reach them split a block.

use super::*;
use crate::model::launch::axis_index;
use crate::model::ranges::RangeContext;

/// A term of a sum with the constant the launch multiplies it by.
type ScaledTerm<'t> = (i128, Node<'t>);

/// How many expressions deciding one comparison by value ranges may look at.
const DECIDING_BUDGET: usize = 1000;

impl<'a, 't> Analyzer<'a, 't> {
    // ---- barriers ----------------------------------------------------------------------

    pub(super) fn is_barrier(&self, call: Node<'t>) -> bool {
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

    /// `if (i >= nf + gout_id) break;` in `for (n = 0, i = gout_id; ...; ++n, i += stride)`: on
    /// trip `k` the loop variable is its start plus `k` uniform steps, and the other side adds
    /// the same start to a value the block shares, so the start cancels and the test is `k *
    /// stride >= nf`, the same in every thread of the block on each trip.
    fn cancels_the_loop_start(&self, condition: Node<'t>) -> bool {
        let test = strip(syntax::condition_value(condition), self.source);
        if test.node_kind() != "binary_expression"
            || !matches!(
                operator(test, self.source),
                "<" | "<=" | ">" | ">=" | "==" | "!="
            )
        {
            return false;
        }
        let (Some(left), Some(right)) = (test.field("left"), test.field("right")) else {
            return false;
        };
        [(left, right), (right, left)]
            .into_iter()
            .any(|(variable, bound)| self.offset_like_the_loop(variable, bound, test))
    }

    /// Whether `variable` is the variable of a `for` around `test`, started at a value that
    /// stays put and stepped only by a block-uniform step in the loop's update, and `bound` is
    /// that same start plus a block-uniform value.
    fn offset_like_the_loop(&self, variable: Node<'t>, bound: Node<'t>, test: Node<'t>) -> bool {
        let variable = strip(variable, self.source);
        if variable.node_kind() != "identifier" {
            return false;
        }
        let name = self.text(variable);
        // the innermost `for` around the test that starts the variable
        let mut found = None;
        let mut node = test;
        for _ in 0..syntax::MAX_DEPTH {
            let Some(parent) = node.up() else { break };
            if parent.node_kind() == "function_definition" {
                break;
            }
            let start = (parent.node_kind() == "for_statement")
                .then(|| parent.field("initializer"))
                .flatten()
                .and_then(|initializer| self.loop_start(initializer, name));
            if let Some(start) = start {
                found = Some((parent, start));
                break;
            }
            node = parent;
        }
        let Some((for_loop, start)) = found else {
            return false;
        };
        let (Some(body), Some(update)) = (for_loop.field("body"), for_loop.field("update")) else {
            return false;
        };
        if !syntax::encloses(body, test) || self.writes_to(body, name) {
            return false;
        }
        // `++n, i += stride`: the step of this variable among the loop's updates
        let mut steps = Vec::new();
        let mut pending = vec![update];
        while let Some(part) = pending.pop() {
            let part = strip(part, self.source);
            if part.node_kind() == "comma_expression" && pending.len() < 16 {
                pending.extend(part.field("left"));
                pending.extend(part.field("right"));
            } else if syntax::assigned_target(part)
                .is_some_and(|t| syntax::same_text(t, self.source, name))
            {
                steps.push(self.loop_step(part, name));
            }
        }
        let [Some(step)] = steps.as_slice() else {
            return false;
        };
        // the start read in the bound is the value the loop started from
        if self.deps_where_read(*step).varies_within_block() || !self.reads_settled_values(start) {
            return false;
        }
        let bound = strip(bound, self.source);
        if bound.node_kind() != "binary_expression" || operator(bound, self.source) != "+" {
            return false;
        }
        let (Some(a), Some(b)) = (bound.field("left"), bound.field("right")) else {
            return false;
        };
        [(a, b), (b, a)].into_iter().any(|(common, rest)| {
            self.equivalent(common, start, 0) && !self.deps_where_read(rest).varies_within_block()
        })
    }

    /// `for (k = threadIdx.x; k < limit; k += blockDim.x)` with `limit` a uniform multiple of the
    /// step (`roundDown(n, blockDim.x)`, `n / T * T`, `n - n % T`, a width padded up to one):
    /// every thread starts below the step, so every thread runs `limit / step` iterations and a
    /// barrier in the body is reached by the whole block.
    ///
    /// A limit whose only evidence is its name (a parameter `padded_width`, a call to a `roundUp`
    /// defined nowhere in the file) is taken at its word: its value is computed where the model
    /// cannot see (the host, a header), and the barrier is then not known to split the block. A
    /// name with a visible definition is judged by that definition alone.
    pub(super) fn has_uniform_trip_count(&self, condition: Node<'t>) -> bool {
        let Some(for_loop) = condition
            .up()
            .filter(|p| matches!(p.node_kind(), "for_statement" | "while_statement"))
        else {
            return false;
        };
        if for_loop.field("condition") != Some(condition) {
            return false;
        }
        let Some((variable, limit)) = self.loop_test(syntax::condition_value(condition)) else {
            return false;
        };
        self.crosses_in_whole_strides(for_loop, variable, limit)
    }

    /// The step and the start of `variable` in `a_loop`, and whether its body moves it other
    /// than by that step. A `for` gives them in its update and initializer; a `while` steps in
    /// one statement of its body (`i += BLOCK;`, with no `continue` to skip it) and starts at
    /// the one value reaching its test from before it (`int i = threadIdx.x;`).
    fn loop_parts(
        &self,
        a_loop: Node<'t>,
        variable: Node<'t>,
    ) -> Option<(Node<'t>, Node<'t>, bool)> {
        let name = self.text(variable);
        let body = a_loop.field("body")?;
        if a_loop.node_kind() == "for_statement" {
            let step = self.loop_step(a_loop.field("update")?, name)?;
            let start = match a_loop.field("initializer") {
                Some(initializer) => self.loop_start(initializer, name)?,
                // `unsigned i = threadIdx.x; for (; i < end; i += blockDim.x)`
                None => self.start_before(a_loop, variable)?,
            };
            return Some((step, start, self.writes_to(body, name)));
        }
        if body.node_kind() != "compound_statement" || self.text(body).contains("continue") {
            return None;
        }
        let mut steps = named_children(body)
            .filter(|s| s.node_kind() == "expression_statement")
            .filter_map(|s| s.named_child(0))
            .filter_map(|update| self.loop_step(update, name));
        let step = steps.next()?;
        let key = (a_loop.id(), name.to_string());
        let known = self.loop_writes_cache.borrow().get(&key).copied();
        let moved_besides_step = known.unwrap_or_else(|| {
            let mut writes = 0;
            syntax::walk_iterative(body, |node| {
                if syntax::assigned_target(node)
                    .is_some_and(|t| syntax::same_text(t, self.source, name))
                {
                    writes += 1;
                }
                writes <= 1
            });
            self.loop_writes_cache.borrow_mut().insert(key, writes > 1);
            writes > 1
        });
        let start = self.start_before(a_loop, variable)?;
        Some((step, start, moved_besides_step))
    }

    /// The one value that reaches `variable`'s read in a loop's test from before the loop.
    fn start_before(&self, a_loop: Node<'t>, variable: Node<'t>) -> Option<Node<'t>> {
        let inside = a_loop.byte_range();
        let (_, reaching) = self.reaching(variable)?;
        let before: Vec<Node<'t>> = reaching
            .into_iter()
            .filter(|v| !inside.contains(&v.start_byte()))
            .collect();
        match before.as_slice() {
            [start] if !crate::model::reaching::updates_itself(*start, self.source) => Some(*start),
            _ => None,
        }
    }

    /// `if (i >= BLOCK_DIM) __syncthreads();` in `for (i = threadIdx.x; i < round_up(n,
    /// BLOCK_DIM); i += BLOCK_DIM)`: a test of the loop variable against a multiple of the step
    /// it moves by, every thread starting below the step, has the same outcome in every thread
    /// of the block on each trip (`i < M` is the trip number `k < M / step`).
    pub(super) fn tests_a_whole_stride(&self, condition: Node<'t>) -> bool {
        let condition = strip(syntax::condition_value(condition), self.source);
        if condition.node_kind() != "binary_expression" {
            return false;
        }
        let (Some(left), Some(right)) = (condition.field("left"), condition.field("right")) else {
            return false;
        };
        let (left, right) = (strip(left, self.source), strip(right, self.source));
        let (variable, bound) = match operator(condition, self.source) {
            "<" | ">=" => (left, right),
            ">" | "<=" => (right, left),
            _ => return false,
        };
        if variable.node_kind() != "identifier" {
            return false;
        }
        let name = self.text(variable);
        let mut node = condition;
        while let Some(parent) = node.up() {
            if parent.node_kind() == "for_statement" && parent.field("body") == Some(node) {
                return parent.field("condition").is_some_and(|loop_condition| {
                    self.loop_test(loop_condition).is_some_and(|(v, limit)| {
                        self.text(v) == name
                            && self.crosses_in_whole_strides(parent, v, limit)
                            && self.crosses_in_whole_strides(parent, v, bound)
                    })
                });
            }
            if matches!(
                parent.node_kind(),
                "function_definition" | "lambda_expression"
            ) {
                return false;
            }
            node = parent;
        }
        false
    }

    /// Whether in `for_loop`, which moves `variable` by a step from a start below it, every
    /// thread of a block crosses `limit` on the same trip: the step and the limit are the same
    /// in the whole block, and the limit is a multiple of the step (or every launch makes it
    /// one).
    fn crosses_in_whole_strides(
        &self,
        a_loop: Node<'t>,
        variable: Node<'t>,
        limit: Node<'t>,
    ) -> bool {
        let Some((step, start, moved_in_body)) = self.loop_parts(a_loop, variable) else {
            return false;
        };
        // the same in every thread of a block (`end` rounded up from `blockIdx.x` is): the trip
        // count of one block's threads is what matters to its barriers
        !moved_in_body
            && !self.expression_deps(step, 0).varies_within_block()
            && !self.expression_deps(limit, 0).varies_within_block()
            && ((self.starts_below(start, step)
                && self.multiple_of(limit, step, 0) != Multiple::No)
                || self.launches_give_whole_trips(start, step, limit)
                || self.launches_give_whole_units(start, step, limit)
                || self.whole_blocks_apart(start, step, limit))
    }

    /// `for (i = blockIdx.x * blockDim.x + threadIdx.x; i < round_up(n, blockDim.x); i +=
    /// gridDim.x * blockDim.x)`: the start is a thread's place below the block size plus whole
    /// blocks the block shares, and the step and the limit are whole blocks too, so on each trip
    /// `i < limit` holds for the whole block or for none of it, whatever size the launch picks.
    fn whole_blocks_apart(&self, start: Node<'t>, step: Node<'t>, limit: Node<'t>) -> bool {
        let terms: Vec<Node<'t>> = self
            .sum_terms(self.defined_as(start))
            .iter()
            .map(|(_, term)| *term)
            .collect();
        if terms.is_empty() {
            return false;
        }
        let places: Vec<&str> = terms
            .iter()
            .filter_map(|term| self.launch_axis(*term, "threadIdx", 0))
            .collect();
        let [axis] = places.as_slice() else {
            return false;
        };
        let Some(unit) = self.block_size_node(&terms, step, axis) else {
            return false;
        };
        let whole = |value: Node<'t>| self.multiple_of(value, unit, 0) != Multiple::No;
        terms.iter().all(|term| {
            self.launch_axis(*term, "threadIdx", 0).is_some()
                || (!self.expression_deps(*term, 0).varies_within_block() && whole(*term))
        }) && whole(step)
            && whole(limit)
    }

    /// A `blockDim` read on `axis` among `terms` or in `step`, to measure whole blocks by.
    fn block_size_node(&self, terms: &[Node<'t>], step: Node<'t>, axis: &str) -> Option<Node<'t>> {
        let mut found = None;
        for root in terms.iter().copied().chain([step]) {
            syntax::walk_iterative(root, |node| {
                if found.is_none()
                    && node.node_kind() == "field_expression"
                    && self.launch_axis(node, "blockDim", 0) == Some(axis)
                {
                    found = Some(node);
                }
                found.is_none()
            });
        }
        found
    }

    /// `for (p = threadIdx.x + blockIdx.x * T; p < n; p += gridDim.x * T)` with blocks of `T`
    /// threads and an `n` every launch makes a multiple of `T`: the loop variable is a thread's
    /// place below a unit (`T`) plus whole units the block shares, the step and the limit are
    /// whole units, so `p < n` holds for the whole block or for none of it on each trip. The
    /// unit is what divides the block-wide terms, the step and the limit at every launch, and it
    /// has to exceed the largest place in the block. No launch visible: nothing is known.
    fn launches_give_whole_units(&self, start: Node<'t>, step: Node<'t>, limit: Node<'t>) -> bool {
        let launches = &self.out.launches;
        !launches.is_empty()
            && launches.iter().all(|launch| {
                let mut starts = Vec::new();
                let mut limits = Vec::new();
                if self
                    .scaled_terms(start, launch, 1, 0, &mut starts)
                    .is_none()
                    || self
                        .scaled_terms(self.defined_as(limit), launch, 1, 0, &mut limits)
                        .is_none()
                {
                    return false;
                }
                // `i = 4 * (threadIdx.x + ...) + start` against `end = start + rounded`: a term
                // both add (a segment's start the block shares) moves them alike
                starts.retain(|(scale, term)| {
                    let key = normalized(*term, self.source);
                    let common = limits.iter().position(|(other_scale, other)| {
                        other_scale == scale && normalized(*other, self.source) == key
                    });
                    match common {
                        Some(at) if !self.expression_deps(*term, 0).varies_within_block() => {
                            limits.remove(at);
                            false
                        }
                        _ => true,
                    }
                });
                let (places, shared): (Vec<ScaledTerm<'t>>, Vec<ScaledTerm<'t>>) = starts
                    .into_iter()
                    .partition(|(_, term)| self.expression_deps(*term, 0).varies_within_block());
                let [(scale, place)] = places.as_slice() else {
                    return false;
                };
                let unit = shared
                    .iter()
                    .chain(&limits)
                    .map(|(scale, term)| {
                        scale
                            .checked_mul(self.factor_at_launch(*term, launch, 0))
                            .unwrap_or(1)
                    })
                    .chain([self.factor_at_launch(step, launch, 0)])
                    .fold(0, gcd);
                *scale > 0
                    && self
                        .largest_in_block(*place, launch, 0)
                        .and_then(|largest| largest.checked_mul(*scale))
                        .is_some_and(|largest| largest < unit)
            })
    }

    /// `node` as a sum of terms, each with the constant the launch multiplies it by:
    /// `4 * (threadIdx.x + blockIdx.x * blockDim.x) + start` is `4·threadIdx.x +
    /// 4·B·blockIdx.x + 1·start` under blocks of `B`. None when it has too many terms.
    fn scaled_terms(
        &self,
        node: Node<'t>,
        launch: &LaunchSite,
        scale: i128,
        depth: usize,
        terms: &mut Vec<ScaledTerm<'t>>,
    ) -> Option<()> {
        if depth > 6 || terms.len() > 16 {
            return None;
        }
        let node = strip(node, self.source);
        if node.node_kind() == "binary_expression" {
            let (left, right) = (node.field("left")?, node.field("right")?);
            match operator(node, self.source) {
                "+" => {
                    self.scaled_terms(left, launch, scale, depth + 1, terms)?;
                    return self.scaled_terms(right, launch, scale, depth + 1, terms);
                }
                "-" => {
                    self.scaled_terms(left, launch, scale, depth + 1, terms)?;
                    return self.scaled_terms(right, launch, -scale, depth + 1, terms);
                }
                "*" => {
                    for (factor, other) in [(left, right), (right, left)] {
                        if let Some(k) = self.value_at_launch(factor, launch, 0) {
                            return self.scaled_terms(
                                other,
                                launch,
                                scale.checked_mul(k)?,
                                depth + 1,
                                terms,
                            );
                        }
                    }
                }
                _ => {}
            }
        }
        if self.value_at_launch(node, launch, 0) != Some(0) {
            terms.push((scale, node));
        }
        Some(())
    }

    /// The one definition of a local nothing updates (`end` of `size_t end = start + ...`), or
    /// `node` itself.
    fn defined_as(&self, node: Node<'t>) -> Node<'t> {
        let stripped = strip(node, self.source);
        if stripped.node_kind() != "identifier" || self.updated.contains(self.text(stripped)) {
            return node;
        }
        let name = self.text(stripped);
        match self.definitions.get(name).map(Vec::as_slice) {
            Some([value]) if self.function.parameter(name).is_none() => *value,
            _ => node,
        }
    }

    /// `for (k = threadIdx.x; k < n; k += STEP)` where every visible launch gives a block no
    /// wider than the step on that axis and passes an `n` the step divides (`paths *= 1024`
    /// before a launch stepping by 256, a template `STEP` of 256 with a block of 256): every
    /// thread runs `n / STEP` iterations. No launch visible: nothing is known.
    fn launches_give_whole_trips(&self, start: Node<'t>, step: Node<'t>, limit: Node<'t>) -> bool {
        self.step_spans_every_block(start, step)
            && self.out.launches.iter().all(|launch| {
                self.value_at_launch(step, launch, 0)
                    .filter(|s| *s > 0)
                    .is_some_and(|step| self.factor_at_launch(limit, launch, 0) % step == 0)
            })
    }

    /// `start` is a thread's place in its block (`threadIdx` on an axis, or its rank over several,
    /// `threadIdx.y * blockDim.x + threadIdx.x`) and every visible launch gives `step` a value
    /// above the largest place its block has (`BLOCK_DIM` with blocks of `BLOCK_DIM`, 256 with
    /// blocks of 32×8): every thread starts below the step. No launch visible: nothing is known.
    fn step_spans_every_block(&self, start: Node<'t>, step: Node<'t>) -> bool {
        let launches = &self.out.launches;
        !launches.is_empty()
            && launches.iter().all(|launch| {
                let step = self.value_at_launch(step, launch, 0).filter(|s| *s > 0);
                let largest = self.largest_in_block(start, launch, 0);
                matches!((step, largest), (Some(step), Some(largest)) if largest < step)
            })
    }

    /// The largest value a thread's place in its block takes at `launch`, when the launch's
    /// block fixes it: sums and products of `threadIdx`, `blockDim` and constants, all at least
    /// 0. None for anything else, or a block the launch leaves open.
    fn largest_in_block(&self, node: Node<'t>, launch: &LaunchSite, depth: usize) -> Option<i128> {
        if depth > 6 {
            return None;
        }
        let node = strip(node, self.source);
        if let Some(field) = self.launch_axis(node, "threadIdx", 0) {
            return launch.block[axis_index(field)?]?.checked_sub(1);
        }
        if let Some(value) = self.value_at_launch(node, launch, 0) {
            return (value >= 0).then_some(value);
        }
        match node.node_kind() {
            "binary_expression" => {
                let left = self.largest_in_block(node.field("left")?, launch, depth + 1)?;
                let right = self.largest_in_block(node.field("right")?, launch, depth + 1)?;
                match operator(node, self.source) {
                    "+" => left.checked_add(right),
                    "*" => left.checked_mul(right),
                    _ => None,
                }
            }
            "identifier" if !self.updated.contains(self.text(node)) => {
                match self.definitions.get(self.text(node))?.as_slice() {
                    [value] if self.function.parameter(self.text(node)).is_none() => {
                        self.largest_in_block(*value, launch, depth + 1)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The value `node` has at `launch`, when the launch fixes it: a constant, the launch's
    /// block dimension for `blockDim`, its template argument for a template parameter.
    pub(super) fn value_at_launch(
        &self,
        node: Node<'t>,
        launch: &LaunchSite,
        depth: usize,
    ) -> Option<i128> {
        if depth > 6 {
            return None;
        }
        if let Some(value) = self.constant_value(node, 0) {
            return Some(i128::from(value));
        }
        let node = strip(node, self.source);
        if let Some(field) = self.launch_axis(node, "blockDim", 0) {
            let axis = axis_index(field)?;
            return launch.block[axis];
        }
        if node.node_kind() != "identifier" {
            return None;
        }
        let name = self.text(node);
        if self.updated.contains(name) {
            return None;
        }
        if let Some(value) = launch.template_value(self.function, name) {
            return Some(value);
        }
        match self.definitions.get(name).map(Vec::as_slice) {
            Some([value]) if self.function.parameter(name).is_none() => {
                self.value_at_launch(*value, launch, depth + 1)
            }
            _ => None,
        }
    }

    /// The largest constant known to divide the value `node` has at `launch` (1 when none is
    /// known): a kernel parameter takes what the launch passes (`LaunchSite::argument_factors`).
    fn factor_at_launch(&self, node: Node<'t>, launch: &LaunchSite, depth: usize) -> i128 {
        if depth > 6 {
            return 1;
        }
        if let Some(value) = self.value_at_launch(node, launch, 0) {
            return value.checked_abs().unwrap_or(1);
        }
        let node = strip(node, self.source);
        match node.node_kind() {
            "identifier" => {
                let name = self.text(node);
                if self.updated.contains(name) {
                    return 1;
                }
                if self.definitions.contains_key(name) {
                    return match self.definitions.get(name).map(Vec::as_slice) {
                        Some([value]) if self.function.parameter(name).is_none() => {
                            self.factor_at_launch(*value, launch, depth + 1)
                        }
                        _ => 1,
                    };
                }
                let position = self.function.parameters.iter().position(|p| p.name == name);
                match (position, launch.arity) {
                    (Some(at), Some(arity)) if arity == self.function.parameters.len() => {
                        launch.argument_factors.get(at).copied().unwrap_or(1)
                    }
                    _ => 1,
                }
            }
            "binary_expression" => {
                let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
                    return 1;
                };
                let (a, b) = (
                    self.factor_at_launch(left, launch, depth + 1),
                    self.factor_at_launch(right, launch, depth + 1),
                );
                match operator(node, self.source) {
                    "*" => a.checked_mul(b).unwrap_or(a.max(b)),
                    "+" | "-" => gcd(a, b),
                    _ => 1,
                }
            }
            _ => 1,
        }
    }

    /// `k < limit` or `limit > k`: the loop variable and its limit.
    fn loop_test(&self, condition: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        let condition = strip(condition, self.source);
        if condition.node_kind() != "binary_expression" {
            return None;
        }
        let (left, right) = (
            strip(condition.field("left")?, self.source),
            strip(condition.field("right")?, self.source),
        );
        let (variable, limit) = match operator(condition, self.source) {
            "<" => (left, right),
            ">" => (right, left),
            _ => return None,
        };
        (variable.node_kind() == "identifier").then_some((variable, limit))
    }

    /// `k += step` or `k = k + step`: the step.
    pub(super) fn loop_step(&self, update: Node<'t>, variable: &str) -> Option<Node<'t>> {
        let update = strip(update, self.source);
        if update.node_kind() != "assignment_expression"
            || !syntax::same_text(update.field("left")?, self.source, variable)
        {
            return None;
        }
        let right = update.field("right")?;
        match operator(update, self.source) {
            "+=" => Some(right),
            "=" => {
                let sum = strip(right, self.source);
                if sum.node_kind() != "binary_expression" || operator(sum, self.source) != "+" {
                    return None;
                }
                let (a, b) = (sum.field("left")?, sum.field("right")?);
                if syntax::same_text(a, self.source, variable) {
                    Some(b)
                } else if syntax::same_text(b, self.source, variable) {
                    Some(a)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// `int k = start` or `k = start`: the start.
    pub(super) fn loop_start(&self, initializer: Node<'t>, variable: &str) -> Option<Node<'t>> {
        match initializer.node_kind() {
            "declaration" => named_children(initializer)
                .filter(|d| d.node_kind() == "init_declarator")
                .find(|d| {
                    d.field("declarator")
                        .and_then(syntax::declarator_name)
                        .is_some_and(|n| self.text(n) == variable)
                })?
                .field("value"),
            "assignment_expression" if operator(initializer, self.source) == "=" => {
                syntax::same_text(initializer.field("left")?, self.source, variable)
                    .then(|| initializer.field("right"))?
            }
            _ => None,
        }
    }

    /// Whether `body` assigns or steps `variable`.
    pub(super) fn writes_to(&self, body: Node<'t>, variable: &str) -> bool {
        // asked again for every barrier in the loop: a generated kernel holds hundreds
        let key = (body.id(), variable.to_string());
        if let Some(known) = self.loop_writes_cache.borrow().get(&key) {
            return *known;
        }
        let mut writes = false;
        syntax::walk_iterative(body, |node| {
            writes |= syntax::assigned_target(node)
                .is_some_and(|t| syntax::same_text(t, self.source, variable))
                && !leaves_the_loop_after(node, body);
            !writes
        });
        self.loop_writes_cache.borrow_mut().insert(key, writes);
        writes
    }

    /// Whether every thread's `start` is below `step`: `threadIdx.x` with a step of `blockDim.x`
    /// (through locals too), or a comparison in force that says so (`if (tid >= T) return;`).
    fn starts_below(&self, start: Node<'t>, step: Node<'t>) -> bool {
        if let (Some(thread), Some(block)) = (
            self.launch_axis(start, "threadIdx", 0),
            self.launch_axis(step, "blockDim", 0),
        ) {
            if thread == block {
                return true;
            }
        }
        if self.step_spans_every_block(start, step) {
            return true;
        }
        // a grid-stride loop: a thread's global index is below the grid's thread count
        // (`blockIdx.x * blockDim.x + threadIdx.x` against `blockDim.x * gridDim.x`)
        let ranges = crate::model::ranges::Ranges::with_budget(self, DECIDING_BUDGET);
        let (highest, least_step) = (ranges.range(start, &[]).hi, ranges.range(step, &[]).lo);
        if let (Some(highest), Some(least_step)) = (highest, least_step) {
            if least_step
                .sub(&highest)
                .and_then(|gap| gap.as_constant())
                .is_some_and(|gap| gap >= 1)
            {
                return true;
            }
        }
        let split = self.current_comparisons();
        let (start, step) = (
            normalized(start, self.source),
            normalized(step, self.source),
        );
        split.0.iter().any(|comparison| {
            [true, false].into_iter().any(|side| {
                let oriented = comparison.oriented(side);
                oriented.relation == Relation::Less
                    && syntax::same_text(oriented.left, self.source, &start)
                    && syntax::same_text(oriented.right, self.source, &step)
            })
        })
    }

    /// `threadIdx.y` is `Some("y")` for `object` `threadIdx`, as is a local defined once as it.
    pub(super) fn launch_axis(
        &self,
        node: Node<'t>,
        object: &str,
        depth: usize,
    ) -> Option<&'a str> {
        let node = strip(node, self.source);
        match node.node_kind() {
            "field_expression" => {
                (self.text(node.field("argument")?) == object).then_some(())?;
                Some(self.text(node.field("field")?))
            }
            "identifier" if depth < 4 && !self.updated.contains(self.text(node)) => {
                match self.definitions.get(self.text(node))?.as_slice() {
                    [value] => self.launch_axis(*value, object, depth + 1),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Whether `a` and `b` are the same value: the same text, the same launch dimension, or a
    /// local defined once as the other.
    fn equivalent(&self, a: Node<'t>, b: Node<'t>, depth: usize) -> bool {
        let (a, b) = (strip(a, self.source), strip(b, self.source));
        if syntax::same_text(a, self.source, &normalized(b, self.source)) {
            return true;
        }
        match (
            self.launch_axis(a, "blockDim", 0),
            self.launch_axis(b, "blockDim", 0),
        ) {
            (Some(x), Some(y)) => return x == y,
            (Some(axis), None) if depth == 0 => return self.is_block_size_of_every_launch(b, axis),
            (None, Some(axis)) if depth == 0 => return self.is_block_size_of_every_launch(a, axis),
            _ => {}
        }
        if depth >= 4 {
            return false;
        }
        let single = |node: Node<'t>| -> Option<Node<'t>> {
            if node.node_kind() != "identifier" || self.updated.contains(self.text(node)) {
                return None;
            }
            match self.definitions.get(self.text(node))?.as_slice() {
                [value] => Some(*value),
                _ => None,
            }
        };
        single(a).is_some_and(|value| self.equivalent(value, b, depth + 1))
            || single(b).is_some_and(|value| self.equivalent(a, value, depth + 1))
    }

    /// Whether `value` is the block's size on `axis` at every visible launch, given in the
    /// kernel's own parameters (`<<<nodes, heads * feat>>>(..., heads, feat)` makes
    /// `heads * feat` the block's width) or as one constant.
    fn is_block_size_of_every_launch(&self, value: Node<'t>, axis: &str) -> bool {
        let Some(index) = axis_index(axis) else {
            return false;
        };
        let Some(size) = RangeContext::block_dim(self, index) else {
            return false;
        };
        let range =
            crate::model::ranges::Ranges::with_budget(self, DECIDING_BUDGET).range(value, &[]);
        range.lo.as_ref() == Some(&size) && range.hi.as_ref() == Some(&size)
    }

    /// Whether `value` is a multiple of `step`, and on what evidence.
    pub(super) fn multiple_of(&self, value: Node<'t>, step: Node<'t>, depth: usize) -> Multiple {
        if depth > 8 {
            return Multiple::No;
        }
        let value = strip(value, self.source);
        if self.equivalent(value, step, 0) {
            return Multiple::Shape;
        }
        match value.node_kind() {
            "number_literal" => {
                let number = |n: Node| parse_integer(self.text(strip(n, self.source)));
                match (number(value), number(step)) {
                    (Some(v), Some(s)) if s != 0 && v % s == 0 => Multiple::Shape,
                    _ => Multiple::No,
                }
            }
            "identifier" => {
                let name = self.text(value);
                if self.updated.contains(name) {
                    return Multiple::No;
                }
                match self.definitions.get(name).map(Vec::as_slice) {
                    Some([definition]) => self.multiple_of(*definition, step, depth + 1),
                    // a name declared again in another block (`int end` twice): the one
                    // definition that reaches this read
                    Some(_) => match self.reaching(value) {
                        Some((_, reaching)) if reaching.len() == 1 => {
                            self.multiple_of(reaching[0], step, depth + 1)
                        }
                        _ => Multiple::No,
                    },
                    None if claims_rounding(name) => Multiple::Name,
                    None => Multiple::No,
                }
            }
            "binary_expression" => {
                let (Some(left), Some(right)) = (value.field("left"), value.field("right")) else {
                    return Multiple::No;
                };
                match operator(value, self.source) {
                    // `(n / s) * s`, `tiles * s`: a product with a multiple as a factor
                    "*" => self
                        .multiple_of(left, step, depth + 1)
                        .max(self.multiple_of(right, step, depth + 1)),
                    // `n - n % s`
                    "-" if self.remainder_of(right, left, step)
                        || self.low_bits_of(right, left, step) =>
                    {
                        Multiple::Shape
                    }
                    "+" | "-" => self
                        .multiple_of(left, step, depth + 1)
                        .min(self.multiple_of(right, step, depth + 1)),
                    // `x & ~(s - 1)` for a power-of-two `s`
                    "&" if self.clears_below(right, step) => Multiple::Shape,
                    _ => Multiple::No,
                }
            }
            "call_expression" => {
                if let Some((summary, arguments)) = self.helper_call(value) {
                    let by = summary.returns.as_ref().and_then(|r| r.multiple_of);
                    return match by.and_then(|k| arguments.get(k)) {
                        Some(argument) if self.equivalent(*argument, step, 0) => Multiple::Shape,
                        _ => Multiple::No,
                    };
                }
                let name = value
                    .field("function")
                    .and_then(|f| super::calls::callee_name(f, self.source));
                match name {
                    Some(name) if self.helpers.named(name).is_empty() && claims_rounding(name) => {
                        Multiple::Name
                    }
                    _ => Multiple::No,
                }
            }
            _ => Multiple::No,
        }
    }

    /// `remainder` is `dividend % step`.
    fn remainder_of(&self, remainder: Node<'t>, dividend: Node<'t>, step: Node<'t>) -> bool {
        let remainder = strip(remainder, self.source);
        remainder.node_kind() == "binary_expression"
            && operator(remainder, self.source) == "%"
            && remainder
                .field("left")
                .is_some_and(|l| self.equivalent(l, dividend, 0))
            && remainder
                .field("right")
                .is_some_and(|r| self.equivalent(r, step, 0))
    }

    /// `low` is `dividend & (step - 1)` (or `& M` with `M + 1 == step`): the remainder by a
    /// power-of-two step, as the mask is only written for one (`num - (num & (BLOCK - 1))`).
    fn low_bits_of(&self, low: Node<'t>, dividend: Node<'t>, step: Node<'t>) -> bool {
        let low = strip(low, self.source);
        if low.node_kind() != "binary_expression" || operator(low, self.source) != "&" {
            return false;
        }
        let (Some(left), Some(right)) = (low.field("left"), low.field("right")) else {
            return false;
        };
        let step_value = parse_integer(self.text(strip(step, self.source)));
        let is_mask = |mask: Node<'t>| {
            let mask = strip(mask, self.source);
            if let Some(value) = parse_integer(self.text(mask)) {
                return step_value == Some(value + 1) && (value + 1) & value == 0;
            }
            mask.node_kind() == "binary_expression"
                && operator(mask, self.source) == "-"
                && mask
                    .field("left")
                    .is_some_and(|l| self.equivalent(l, step, 0))
                && mask
                    .field("right")
                    .is_some_and(|r| parse_integer(self.text(r)) == Some(1))
                && step_value.is_none_or(|v| v > 0 && v & (v - 1) == 0)
        };
        [(left, right), (right, left)]
            .into_iter()
            .any(|(value, mask)| self.equivalent(value, dividend, 0) && is_mask(mask))
    }

    /// `mask` is `~(step - 1)` (or `~M` with `M + 1 == step`) and `step` a power of two.
    fn clears_below(&self, mask: Node<'t>, step: Node<'t>) -> bool {
        let mask = strip(mask, self.source);
        let Some(step_value) = parse_integer(self.text(strip(step, self.source))) else {
            return false;
        };
        if mask.node_kind() != "unary_expression"
            || operator(mask, self.source) != "~"
            || step_value <= 0
            || step_value & (step_value - 1) != 0
        {
            return false;
        }
        let Some(low) = mask.field("argument").map(|a| strip(a, self.source)) else {
            return false;
        };
        if let Some(value) = parse_integer(self.text(low)) {
            return value + 1 == step_value;
        }
        low.node_kind() == "binary_expression"
            && operator(low, self.source) == "-"
            && low
                .field("left")
                .is_some_and(|l| self.equivalent(l, step, 0))
            && low
                .field("right")
                .is_some_and(|r| parse_integer(self.text(r)) == Some(1))
    }

    /// `blockDim.x`, or a local defined as it (`int localSize = blockDim.x;`).
    pub(super) fn is_block_size(&self, node: Node<'t>) -> bool {
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
    pub(super) fn compares_two_thread_values(&self, condition: Node<'t>) -> bool {
        let in_loop = condition
            .up()
            .is_some_and(|p| matches!(p.node_kind(), "for_statement" | "while_statement"));
        let condition = strip(syntax::condition_value(condition), self.source);
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

    /// A call of a device function whose body reaches a block-wide barrier: where that barrier is.
    pub(super) fn helper_barrier(&self, call: Node<'t>) -> Option<BarrierVia> {
        let (summary, _) = self.helper_call(call)?;
        let site = summary.barrier.as_ref()?;
        if self.instantiation_skips_barriers(call) {
            return None;
        }
        let file = self
            .helpers
            .foreign_file(&site.function, site.arity)
            .map(std::path::Path::to_path_buf);
        let start = self.helpers.start(&site.function, site.arity);
        if start.is_none() && file.is_none() {
            return None;
        }
        Some(BarrierVia {
            helper: summary.name.clone(),
            function: site.function.clone(),
            span: start.map(|start| start + site.span.start..start + site.span.end),
            file,
        })
    }

    pub(super) fn record_barrier(&mut self, node: Node<'t>, via: Option<BarrierVia>) {
        // The CUDA programming guide allows a barrier in conditional code only when the
        // condition is the same for the whole block; threads that returned early never arrive
        // (behaviour left undefined, whatever recent hardware does with exited threads). An
        // early return on a global index is uniform when every visible launch is exact on its
        // axes: no thread then lies past the problem, and none returns.
        let divergent = self
            .facts
            .iter()
            .filter(|fact| {
                fact.exit != Exit::Stated
                    && (fact.exit != Exit::Return || !self.exits_no_thread(fact.condition.node))
                    && !(fact.exit == Exit::None
                        && branch_of(fact.condition.node).is_some()
                        && self.same_for_every_thread(fact.condition.node))
                    && !self.has_uniform_trip_count(fact.condition.node)
                    && !self.tests_a_whole_stride(fact.condition.node)
                    && !self.limit_claims_rounding(fact.condition.node)
                    && !self.compares_two_thread_values(fact.condition.node)
                    && !self.cancels_the_loop_start(fact.condition.node)
                    && !self.arms_meet_at_every_barrier(fact.condition.node)
                    && !self.exit_arm_meets_the_rest(fact.condition.node)
            })
            .find(|fact| {
                self.deps_where_read(syntax::condition_value(fact.condition.node))
                    .varies_within_block()
            })
            .copied();
        self.out.barriers.push(Barrier {
            node,
            divergent_condition: divergent.map(|f| f.condition.node),
            reached_where_condition_holds: divergent.is_none_or(|f| f.condition.holds),
            after_early_exit: divergent
                .map(|f| matches!(f.exit, Exit::Skip | Exit::Return))
                .unwrap_or(false),
            via,
        });
    }

    /// `if (warp_group == 0) { ...; __syncthreads(); ... } else { ...; __syncthreads(); ... }`:
    /// both arms of a branch reach the same barriers in the same order: on the arm's own
    /// straight path, or in loops whose headers are written alike in both arms and run the same
    /// trips in every thread (`for (kk = 0; kk < K; kk += BK)` around two barriers, in the
    /// producer arm and in the helper arm). The threads of either side meet at every one of
    /// them, as warp-specialised pipelines are written.
    fn arms_meet_at_every_barrier(&self, condition: Node<'t>) -> bool {
        let Some(branch) = branch_of(condition) else {
            return false;
        };
        let (Some(consequence), Some(alternative)) =
            (branch.field("consequence"), branch.field("alternative"))
        else {
            return false;
        };
        // `else_clause` wraps the alternative's statement
        let alternative = match alternative.node_kind() {
            "else_clause" => match alternative.named_child(0) {
                Some(statement) => statement,
                None => return false,
            },
            _ => alternative,
        };
        match (
            self.barrier_steps(consequence),
            self.barrier_steps(alternative),
        ) {
            (Some(a), Some(b)) => !a.is_empty() && a == b,
            _ => false,
        }
    }

    /// The barriers `arm` reaches, in order, with the loops that repeat them: None when one is
    /// reached under a branch, in a loop whose trips may differ between threads or that a
    /// `break`/`continue` may leave early, or when something leaves the arm (`return`, `goto`).
    fn barrier_steps(&self, arm: Node<'t>) -> Option<Vec<BarrierStep>> {
        let mut steps = Vec::new();
        self.push_barrier_steps(arm, arm, 0, &mut steps)?;
        Some(steps)
    }

    fn push_barrier_steps(
        &self,
        node: Node<'t>,
        arm: Node<'t>,
        depth: usize,
        steps: &mut Vec<BarrierStep>,
    ) -> Option<()> {
        if depth > MAX_DEPTH / 4 {
            return None;
        }
        match node.node_kind() {
            "return_statement" | "goto_statement" => return None,
            "lambda_expression" => return Some(()),
            "break_statement" | "continue_statement" => {
                // one that leaves a loop or switch holding no barrier changes nothing here; one
                // of a loop around barriers is refused with that loop
                let inner = enclosing_within(node, arm).find(|a| {
                    matches!(
                        a.node_kind(),
                        "for_statement"
                            | "for_range_loop"
                            | "while_statement"
                            | "do_statement"
                            | "switch_statement"
                    )
                })?;
                return (!self.reaches_a_barrier(inner)).then_some(());
            }
            "call_expression" if self.is_barrier(node) || self.helper_barrier(node).is_some() => {
                steps.push(BarrierStep::Barrier);
                return Some(());
            }
            // `a && b` evaluates `b` only where `a` holds, as a branch does; a barrier inside
            // any other operator is read no further either
            "if_statement"
            | "switch_statement"
            | "conditional_expression"
            | "binary_expression"
                if self.reaches_a_barrier(node) =>
            {
                return None;
            }
            "for_statement" | "while_statement" | "do_statement"
                if self.reaches_a_barrier(node) =>
            {
                let condition = node.field("condition")?;
                if self
                    .deps_where_read(syntax::condition_value(condition))
                    .varies_within_block()
                {
                    return None;
                }
                let header: String = [
                    node.field("initializer"),
                    Some(condition),
                    node.field("update"),
                ]
                .into_iter()
                .flatten()
                .map(|part| self.text(part).split_whitespace().collect::<String>())
                .collect::<Vec<_>>()
                .join(";");
                let mut body = Vec::new();
                self.push_barrier_steps(node.field("body")?, arm, depth + 1, &mut body)?;
                steps.push(BarrierStep::Loop(
                    format!("{}({header})", node.node_kind()),
                    body,
                ));
                return Some(());
            }
            "for_range_loop" if self.reaches_a_barrier(node) => return None,
            _ => {}
        }
        for child in named_children(node) {
            self.push_barrier_steps(child, arm, depth + 1, steps)?;
        }
        Some(())
    }

    /// Whether a barrier (or a helper holding one) is called anywhere below `node`.
    fn reaches_a_barrier(&self, node: Node<'t>) -> bool {
        let mut found = false;
        syntax::walk_iterative(node, |n| {
            if n.node_kind() == "lambda_expression" {
                return false;
            }
            found |= n.node_kind() == "call_expression"
                && (self.is_barrier(n) || self.helper_barrier(n).is_some());
            !found
        });
        found
    }

    /// `if (threadIdx.x < fill) { ...; __syncthreads(); __syncthreads(); return; } rest`: an arm
    /// of the function's body that ends in its only `return` reaches as many barriers as the rest
    /// of the body after it, each on a straight path, so the threads that leave and those that
    /// stay meet at every one of them (as in the arms of `arms_meet_at_every_barrier`).
    fn exit_arm_meets_the_rest(&self, condition: Node<'t>) -> bool {
        let Some(branch) = branch_of(condition) else {
            return false;
        };
        let body = self.function.body;
        if branch.field("alternative").is_some() || branch.up().map(|b| b.id()) != Some(body.id()) {
            return false;
        }
        let Some(arm) = branch
            .field("consequence")
            .filter(|c| c.node_kind() == "compound_statement")
        else {
            return false;
        };
        let statements: Vec<Node<'t>> = syntax::named_children(arm)
            .filter(|s| s.node_kind() != "comment")
            .collect();
        let Some((last, before)) = statements.split_last() else {
            return false;
        };
        if last.node_kind() != "return_statement" || last.named_child_count() > 0 {
            return false;
        }
        let count = |statements: &[Node<'t>]| -> Option<usize> {
            statements.iter().try_fold(0, |total, statement| {
                Some(total + self.straight_barriers(*statement)?)
            })
        };
        let rest: Vec<Node<'t>> = syntax::named_children(body)
            .filter(|s| s.start_byte() >= branch.end_byte() && s.node_kind() != "comment")
            .collect();
        match (count(before), count(&rest)) {
            (Some(leaving), Some(staying)) => leaving > 0 && leaving == staying,
            _ => false,
        }
    }

    /// How many barriers `arm` reaches, when every one is on its straight path (in no loop) and
    /// nothing in it leaves it early; None otherwise.
    fn straight_barriers(&self, arm: Node<'t>) -> Option<usize> {
        let steps = self.barrier_steps(arm)?;
        steps
            .iter()
            .all(|step| *step == BarrierStep::Barrier)
            .then_some(steps.len())
    }

    /// A branch's test that holds for every thread of every visible launch, or for none: each of
    /// the tests it joins with `&&` or `||` (`row < M && col < N`) is the same for the whole
    /// block, or tests a global index against a size parameter on axes every launch covers
    /// exactly. A test against a constant (`threadIdx.x < 16`) splits the block, whatever the
    /// others are.
    fn same_for_every_thread(&self, condition: Node<'t>) -> bool {
        let mut pending = vec![syntax::condition_value(condition)];
        let mut parts = 0;
        while let Some(part) = pending.pop() {
            let part = strip(part, self.source);
            parts += 1;
            if parts > 16 {
                return false;
            }
            match (part.node_kind(), part.field("left"), part.field("right")) {
                ("binary_expression", Some(left), Some(right))
                    if matches!(operator(part, self.source), "&&" | "||") =>
                {
                    pending.push(left);
                    pending.push(right);
                }
                _ => {
                    let same_for_the_block = !self.deps_where_read(part).varies_within_block()
                        || self.decided_by_ranges(part).is_some();
                    let covered_exactly =
                        self.tests_against_a_parameter(part) && self.exits_no_thread(part);
                    if !same_for_the_block && !covered_exactly {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// `i < n` (or `n > i`, ...) with `n` a parameter of the kernel, or a product of them (`idx
    /// < Nx * Ny * Nzpit`): the size a launch passes, not a constant part of the block (`rank <
    /// 128`).
    fn tests_against_a_parameter(&self, condition: Node<'t>) -> bool {
        let condition = strip(syntax::condition_value(condition), self.source);
        if condition.node_kind() != "binary_expression"
            || !matches!(operator(condition, self.source), "<" | "<=" | ">" | ">=")
        {
            return false;
        }
        let (Some(left), Some(right)) = (condition.field("left"), condition.field("right")) else {
            return false;
        };
        [(left, right), (right, left)]
            .into_iter()
            .any(|(index, bound)| {
                self.expression_deps(index, 0).is_global_index()
                    && self.is_parameter_extent(bound, 0)
            })
    }

    /// `if (i >= n) return;` on a global index `i` that every visible launch keeps inside the
    /// problem (an exact grid on each of its axes): no thread takes the return. The same test
    /// as a branch around a barrier (`if (i < n) { ... __syncthreads(); }`) is taken by every
    /// thread.
    pub(super) fn exits_no_thread(&self, condition: Node<'t>) -> bool {
        (self.expression_deps(condition, 0).is_global_index()
            && self.bounded_by_launches(condition)
            && self.tests_against_extents(condition))
            || self.decided_by_ranges(condition) == Some(false)
    }

    /// Whether each test in `condition` that differs between threads compares with a size, not
    /// with a number written out: an exact grid keeps every index below the problem's extent,
    /// which says nothing of `steps < 1` (thread 0's index takes it).
    fn tests_against_extents(&self, condition: Node<'t>) -> bool {
        let mut pending = vec![syntax::condition_value(condition)];
        while let Some(part) = pending.pop() {
            let part = strip(part, self.source);
            if pending.len() > 16 {
                return false;
            }
            match (part.node_kind(), part.field("left"), part.field("right")) {
                ("binary_expression", Some(left), Some(right)) => {
                    if matches!(operator(part, self.source), "&&" | "||") {
                        pending.push(left);
                        pending.push(right);
                        continue;
                    }
                    let varies =
                        |side: Node<'t>| self.expression_deps(side, 0).varies_within_block();
                    if (varies(left) && !self.may_be_the_extent(right))
                        || (varies(right) && !self.may_be_the_extent(left))
                    {
                        return false;
                    }
                }
                ("unary_expression", ..) => pending.extend(part.field("argument")),
                _ => {}
            }
        }
        true
    }

    /// Whether `bound`, what a thread index is compared with, can be the extent an exact grid
    /// covers: not a number written out, not the extent made smaller (`n - 1`, `n / 2`), and
    /// not a parameter some launch passes a constant smaller than its threads on `x`
    /// (`k<<<n / 256, 256>>>(d, n, 7)` testing `gid >= m`).
    fn may_be_the_extent(&self, bound: Node<'t>) -> bool {
        let bound = strip(bound, self.source);
        match bound.node_kind() {
            "number_literal" => false,
            "binary_expression" => {
                !matches!(operator(bound, self.source), "-" | "/" | ">>" | "%" | "&")
            }
            "identifier" => {
                let name = self.text(bound);
                let Some(position) = self.function.parameters.iter().position(|p| p.name == name)
                else {
                    return true;
                };
                self.out.launches.iter().all(|launch| {
                    launch.argument_value(position).is_none_or(|given| {
                        launch.threads_x().is_some_and(|threads| threads <= given)
                    })
                })
            }
            _ => true,
        }
    }

    /// A comparison whose outcome the value ranges fix for every thread: `threadIdx.x >= n`
    /// where every launch gives blocks of `n` threads (`<<<1, n>>>(..., n)`) holds in none,
    /// `threadIdx.x < n` in all.
    pub(super) fn decided_by_ranges(&self, condition: Node<'t>) -> Option<bool> {
        if !self.cache_deps {
            return self.decided_by_ranges_uncached(condition);
        }
        if let Some(known) = self.decided_cache.borrow().get(&condition.id()) {
            return *known;
        }
        let decided = self.decided_by_ranges_uncached(condition);
        self.decided_cache
            .borrow_mut()
            .insert(condition.id(), decided);
        decided
    }

    fn decided_by_ranges_uncached(&self, condition: Node<'t>) -> Option<bool> {
        let condition = strip(syntax::condition_value(condition), self.source);
        if condition.node_kind() != "binary_expression" {
            return None;
        }
        let (left, right) = (condition.field("left")?, condition.field("right")?);
        // oriented as `small < big` (strict) or `small <= big`
        let (small, big, strict) = match operator(condition, self.source) {
            "<" => (left, right, true),
            "<=" => (left, right, false),
            ">" => (right, left, true),
            ">=" => (right, left, false),
            _ => return None,
        };
        // both sides read with no facts: a smaller question than an index under its guards,
        // and one asked of every exit before each barrier and collective
        let ranges = crate::model::ranges::Ranges::with_budget(self, DECIDING_BUDGET);
        // a constant of the file or an included header (`TILE`) by its value
        let range_of = |side: Node<'t>| match self.constant_value(side, 0) {
            Some(value) => crate::model::ranges::Range::exactly(crate::model::size::Sym::constant(
                i128::from(value),
            )),
            None => ranges.range(side, &[]),
        };
        let (small_range, big_range) = (range_of(small), range_of(big));
        let one = crate::model::size::Sym::constant(1);
        // any bound that holds may decide it: `threadIdx.x` is below `blockDim.x` and below
        // 1024, `n` is itself and at least the least constant every launch passes
        let below = |upper: &crate::model::ranges::Range,
                     lower: &crate::model::ranges::Range,
                     by_one: bool| {
            upper.upper_bounds().any(|most| {
                lower.lower_bounds().any(|least| {
                    let limit = if by_one {
                        least.sub(&one)
                    } else {
                        Some(least.clone())
                    };
                    limit.is_some_and(|limit| most.at_most(&limit))
                })
            })
        };
        // holds everywhere: the largest `small` is below (or at) the smallest `big`
        if below(&small_range, &big_range, strict) {
            return Some(true);
        }
        // holds nowhere: the largest `big` is below (or, strictly, at) the smallest `small`
        if below(&big_range, &small_range, !strict) {
            return Some(false);
        }
        self.decided_at_every_launch(small, big, strict)
    }

    /// The same comparison decided launch by launch: each side's range over the kernel's
    /// `gridDim`, `blockDim` and parameters, with each visible launch's grid, block and arguments
    /// put in. `thread >= threads` with `thread` a global index over eight lanes per item is
    /// taken by no thread of `k<<<blocks, threads << 3>>>(blocks * threads)`. Every launch must
    /// decide it, and the same way.
    fn decided_at_every_launch(
        &self,
        small: Node<'t>,
        big: Node<'t>,
        strict: bool,
    ) -> Option<bool> {
        let launches = &self.out.launches;
        if launches.is_empty() || launches.iter().any(|l| l.sizes.is_empty()) {
            return None;
        }
        let own = super::ranges::OwnSizes::grid_and_block(self);
        let ranges = crate::model::ranges::Ranges::new(&own);
        // the file's constants (`idy < S` with `#define S 10`) by their values
        let range = |side: Node<'t>| {
            let mut range = ranges.range(side, &[]);
            for bound in [&mut range.lo, &mut range.hi] {
                *bound = bound.as_ref().and_then(|b| self.with_file_constants(b));
            }
            range
        };
        let (small_range, big_range) = (range(small), range(big));
        let names = self.function.parameter_names();
        // a name the kernel reads that is no parameter (a `__constant__`, a helper's result)
        // could meet a host local of the same spelling
        let own_names = |range: &crate::model::ranges::Range| {
            [&range.lo, &range.hi].into_iter().flatten().all(|value| {
                value.atoms().all(|atom| {
                    atom.starts_with("gridDim.")
                        || atom.starts_with("blockDim.")
                        || names.contains(&atom.as_str())
                })
            })
        };
        if !own_names(&small_range) || !own_names(&big_range) {
            return None;
        }
        let one = crate::model::size::Sym::constant(1);
        // `most <= least - 1` (or `most <= least`), read for integers: a floored `most` is
        // below its real value
        let below = |most: &crate::model::size::Sym, least: &crate::model::size::Sym, by_one| {
            let limit = if by_one {
                least.sub(&one)
            } else {
                Some(least.clone())
            };
            limit.is_some_and(|limit| most.integer_at_most(&limit))
        };
        let decided = |sizes: &crate::model::launch::LaunchSizes| -> Option<bool> {
            let bound = |side: &Option<crate::model::size::Sym>| {
                side.as_ref().and_then(|value| sizes.bind(value, &names))
            };
            if let (Some(most), Some(least)) = (bound(&small_range.hi), bound(&big_range.lo)) {
                if below(&most, &least, strict) {
                    return Some(true);
                }
            }
            if let (Some(most), Some(least)) = (bound(&big_range.hi), bound(&small_range.lo)) {
                if below(&most, &least, !strict) {
                    return Some(false);
                }
            }
            None
        };
        let mut outcome = None;
        for launch in launches {
            let here = launch.sizes.iter().find_map(decided)?;
            if outcome.is_some_and(|seen| seen != here) {
                return None;
            }
            outcome = Some(here);
        }
        outcome
    }
}

/// What an arm of a branch does with barriers, in order (see `barrier_steps`).
#[derive(Debug, Clone, PartialEq, Eq)]
enum BarrierStep {
    Barrier,
    /// A loop, by its kind and its header as written, and the steps of its body.
    Loop(String, Vec<BarrierStep>),
}

/// Evidence that a value is a multiple of a loop's step, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Multiple {
    /// Not known to be one.
    No,
    /// Only a name says so: `padded_width` or `roundUp(n, b)` with no visible definition.
    Name,
    /// Its shape says so: `n / s * s`, `n - n % s`, `k * s`, a helper returning a multiple.
    Shape,
}

impl<'t> Analyzer<'_, 't> {
    /// `for (j = threadIdx.x; j < padded_width_blocks; j += blockSize)`: a loop limit whose name
    /// says it is rounded to a multiple of the step, where the shape reasoning cannot show it
    /// (a step equal to the block size only at the launch, a limit rounded to several strides).
    /// Taken at its word: a divergent barrier there is reported only on evidence.
    fn limit_claims_rounding(&self, condition: Node<'t>) -> bool {
        let in_loop = condition
            .up()
            .is_some_and(|p| matches!(p.node_kind(), "for_statement" | "while_statement"));
        let Some((_, limit)) = self.loop_test(condition).filter(|_| in_loop) else {
            return false;
        };
        if !claims_rounding(self.text(limit)) {
            return false;
        }
        // a visible definition must at least be a product (`SDIV(w, b) * b`), not `n + 1`
        match self.definitions.get(self.text(limit)).map(Vec::as_slice) {
            None => true,
            Some([value]) => {
                let value = strip(*value, self.source);
                value.node_kind() == "binary_expression"
                    && matches!(operator(value, self.source), "*" | "<<")
            }
            Some(_) => false,
        }
    }
}

/// The greatest common divisor, with `gcd(0, b) == b`.
/// Whether the statements after `write`, in a block inside the loop `body`, end with `break` or
/// `return` (`if (last) { ++i; kept = i; break; }`): the value written never reaches another
/// trip's test.
fn leaves_the_loop_after(write: Node, body: Node) -> bool {
    // a `break` inside an inner loop or `switch` leaves only that
    let breaks_this_loop = |block: Node| {
        let mut node = block;
        while node.id() != body.id() {
            if matches!(
                node.node_kind(),
                "for_statement" | "while_statement" | "do_statement" | "switch_statement"
            ) {
                return false;
            }
            match node.up() {
                Some(parent) => node = parent,
                None => return false,
            }
        }
        true
    };
    let mut node = write;
    while let Some(parent) = node.up() {
        if parent.node_kind() == "compound_statement" {
            let last = syntax::named_children(parent)
                .filter(|s| s.node_kind() != "comment")
                .last();
            if last.is_some_and(|last| {
                last.start_byte() >= node.end_byte()
                    && match last.node_kind() {
                        "return_statement" => true,
                        "break_statement" => breaks_this_loop(parent),
                        _ => false,
                    }
            }) {
                return true;
            }
        }
        if parent.id() == body.id() {
            return false;
        }
        node = parent;
    }
    false
}

/// Whether `condition` is the test of an `if` (not of a loop, whose later trips test again).
/// The `if` statement whose test `condition` is (through its parentheses), if any.
fn branch_of(condition: Node) -> Option<Node> {
    let mut node = condition;
    while let Some(parent) = node.up() {
        match parent.node_kind() {
            "condition_clause" | "parenthesized_expression" => node = parent,
            "if_statement" => return Some(parent),
            _ => return None,
        }
    }
    None
}

/// The nodes around `node` up to `arm`, `arm` included.
fn enclosing_within<'t>(node: Node<'t>, arm: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    std::iter::successors(node.up(), |n| n.up())
        .take_while(move |a| a.id() != arm.id())
        .chain(std::iter::once(arm))
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A name that says its value is rounded to a multiple.
fn claims_rounding(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.contains("pad") || name.contains("round") || name.contains("align")
}

/// `256`, `0x100`, `256u`: an integer literal's value.
fn parse_integer(text: &str) -> Option<i64> {
    let digits = text.trim_end_matches(['u', 'U', 'l', 'L']);
    match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => i64::from_str_radix(hex, 16).ok(),
        None => digits.parse().ok(),
    }
}
