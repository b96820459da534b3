//! Whether an index is bounded: by a dominating guard, by construction, or out of range.

use super::accesses::ThreadTerm;
use super::*;
use crate::model::helper_values::{HelperValue, Operation};

impl<'a, 't> Analyzer<'a, 't> {
    /// Like `bounded`, but a part bounded only by the launch configuration does not count: Ok(Some)
    /// only when a guard bounds it.
    pub(super) fn bounded_by_guard(
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
                if self.is_stride_variable(node) {
                    return Err(node);
                }
                let Some((key, values)) = self.reaching_definitions(node) else {
                    return Err(node);
                };
                if revisited(visiting, &key).is_some() {
                    return Err(node);
                }
                visiting.push(key);
                let mut result = Ok(None);
                for value in values {
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

    /// `i + threadIdx.x` with `i` compared against a bound and the offset unguarded: its value
    /// range (`n + blockDim.x - 2`) stays inside the kernel's sizes, but not inside `n`.
    fn guarded_base_plus_offset(&self, node: Node<'t>, comparisons: &[Comparison<'t>]) -> bool {
        let node = strip(node, self.source);
        if node.node_kind() != "binary_expression" || operator(node, self.source) != "+" {
            return false;
        }
        let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
            return false;
        };
        self.element_bound_plus_offset(left, right, comparisons)
            || self.element_bound_plus_offset(right, left, comparisons)
    }

    /// `threadIdx.x` (or `y`, `z`), directly or through a local given it once (`int tx = threadIdx.x`).
    fn is_thread_coordinate(&self, node: Node<'t>) -> bool {
        let mut node = strip(node, self.source);
        for _ in 0..4 {
            match node.node_kind() {
                "field_expression" => {
                    return node.field("argument").map(|a| self.text(a)) == Some("threadIdx")
                }
                "identifier" => match self.definitions.get(self.text(node)).map(Vec::as_slice) {
                    Some([value]) if !self.updated.contains(self.text(node)) => {
                        node = strip(*value, self.source)
                    }
                    _ => return false,
                },
                _ => return false,
            }
        }
        false
    }

    /// Whether `base` (uniform within a block) is itself compared against a bound (`i < n`, not a
    /// row `r < rows` scaled into `r * cols`) while nothing but the block size bounds the
    /// per-thread `offset` added to it: the sum reaches past the bound.
    fn element_bound_plus_offset(
        &self,
        base: Node<'t>,
        offset: Node<'t>,
        comparisons: &[Comparison<'t>],
    ) -> bool {
        let base = strip(base, self.source);
        if base.node_kind() != "identifier"
            || !self.is_thread_coordinate(offset)
            || self.expression_deps(base, 0).is_uniform()
            || self.expression_deps(base, 0).contains(Deps::THREAD)
        {
            return false;
        }
        let compared = self.upper_bound(base, comparisons).is_some_and(|bound| {
            strip(bound.left, self.source).node_kind() == "identifier"
                && self.text(strip(bound.left, self.source)) == self.text(base)
        });
        compared
            && !matches!(
                self.bounded_by_guard(offset, comparisons, &mut Vec::new(), 0),
                Ok(Some(_))
            )
    }

    /// Whether `left + right` is a uniform factor times a sum a guard bounds, written out term by
    /// term: `sz * sz * bx * B + sz * sz * tx` under `bx * B + tx < n` is `sz * sz` times the
    /// guarded item, a row of a buffer of `sz * sz * n`, as `sz * sz * (bx * B + tx)` is.
    fn guarded_after_a_common_factor(
        &self,
        left: Node<'t>,
        right: Node<'t>,
        comparisons: &[Comparison<'t>],
    ) -> bool {
        let (mut left_factors, mut right_factors) =
            (self.product_factors(left), self.product_factors(right));
        let mut common = 0;
        left_factors.retain(
            |factor| match right_factors.iter().position(|f| f == factor) {
                Some(at) => {
                    right_factors.remove(at);
                    common += 1;
                    false
                }
                None => true,
            },
        );
        if common == 0 || left_factors.is_empty() || right_factors.is_empty() {
            return false;
        }
        left_factors.sort_unstable();
        right_factors.sort_unstable();
        let upper = comparisons
            .iter()
            .flat_map(|c| [c.oriented(true), c.oriented(false)]);
        for comparison in upper {
            if !matches!(comparison.relation, Relation::Less | Relation::LessEqual) {
                continue;
            }
            let sum = strip(comparison.left, self.source);
            if sum.node_kind() != "binary_expression" || operator(sum, self.source) != "+" {
                continue;
            }
            let (Some(a), Some(b)) = (sum.field("left"), sum.field("right")) else {
                continue;
            };
            let (mut a, mut b) = (self.product_factors(a), self.product_factors(b));
            a.sort_unstable();
            b.sort_unstable();
            if (a == left_factors && b == right_factors)
                || (a == right_factors && b == left_factors)
            {
                return true;
            }
        }
        false
    }

    /// The factors of a product, each by its normalized text (`sz * sz * (bx * B)` is `sz`,
    /// `sz`, `bx`, `B`); a single term is its own factor.
    fn product_factors(&self, node: Node<'t>) -> Vec<String> {
        self.multiplied(node)
            .unwrap_or_default()
            .into_iter()
            .map(|factor| normalized_text(factor, self.source).into_owned())
            .collect()
    }

    /// The factors a product multiplies, parentheses left out, at most 17 (`a * (b * c)` is `a`,
    /// `b`, `c`; anything else is its own one factor); None where a side is missing.
    fn multiplied(&self, node: Node<'t>) -> Option<Vec<Node<'t>>> {
        let mut factors = Vec::new();
        let mut pending = vec![strip(node, self.source)];
        while let Some(node) = pending.pop() {
            if factors.len() > 16 {
                break;
            }
            if node.node_kind() == "binary_expression" && operator(node, self.source) == "*" {
                pending.push(strip(node.field("left")?, self.source));
                pending.push(strip(node.field("right")?, self.source));
            } else {
                factors.push(node);
            }
        }
        Some(factors)
    }

    /// The definitions of the local `use_` names that may reach it, with a key for that set: a
    /// definition built from the local's earlier value (`off = off * L`) is followed to that
    /// earlier value, not back to itself.
    fn reaching_definitions(&self, use_: Node<'t>) -> Option<Reaching<'t>> {
        let name = self.text(use_);
        let all = self.definitions.get(name)?;
        let values =
            crate::model::reaching::reaching(all, use_, self.function.definition, self.source);
        let first = values.first()?;
        // the local and its first definition name it in a cycle; all its definitions, after
        // `#`, tell a use reached by the same ones
        let starts: Vec<String> = values.iter().map(|v| v.start_byte().to_string()).collect();
        Some((
            format!("{name}@{}#{}", first.start_byte(), starts.join(",")),
            values,
        ))
    }

    /// Ok when every part of `node` that derives from the global thread index is bounded from
    /// above; Err names the first part that is not. A part the recognised shapes leave open is
    /// still bounded when its value range is.
    pub(super) fn bounded(
        &self,
        node: Node<'t>,
        comparisons: &[Comparison<'t>],
        visiting: &mut Vec<String>,
        depth: usize,
    ) -> Result<Option<Comparison<'t>>, Node<'t>> {
        match self.bounded_by_shape(node, comparisons, visiting, depth) {
            // the whole index, and each local on the way, is asked once
            Err(_)
                if (depth == 0 || node.node_kind() == "identifier")
                    && !self.guarded_base_plus_offset(node, comparisons)
                    && self.range_bounded(node, comparisons) =>
            {
                Ok(None)
            }
            result => result,
        }
    }

    fn bounded_by_shape(
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
        if deps.is_global_index()
            && (self.bounded_by_launches(node) || self.in_full_blocks(node, comparisons))
        {
            return Ok(None);
        }
        if deps == Deps::THREAD || deps == Deps::BLOCK {
            return Ok(None); // block-local or per-block: bounded by the launch configuration
        }
        match node.node_kind() {
            "identifier" => {
                let Some((key, values)) = self.reaching_definitions(node) else {
                    return Err(node);
                };
                if let Some(at) = revisited(visiting, &key) {
                    // back at a use of a local being followed, through steps that never make a
                    // value larger (a quotient, a right shift, a difference's left side, a
                    // copy): the way around the loop gives no value above those of the
                    // definitions already being followed, which are asked on their own; a
                    // definition that reaches only this use is asked here
                    if visiting[at + 1..].iter().any(|k| k == GROWS) {
                        return Err(node);
                    }
                    let followed = followed_definitions(visiting, &key);
                    let fresh: Vec<Node<'t>> = values
                        .into_iter()
                        .filter(|v| !followed.contains(&v.start_byte()))
                        .collect();
                    let stepped = fresh
                        .iter()
                        .any(|v| crate::model::reaching::updates_itself(*v, self.source));
                    if stepped && self.is_stride_variable(node) {
                        return Err(node);
                    }
                    visiting.push(key);
                    let mut bound = None;
                    let later = fresh.iter().any(|v| !is_declared_value(*v));
                    for value in fresh {
                        if takes_away_in_place(value, self.source) {
                            continue;
                        }
                        let step = crate::model::reaching::updates_itself(value, self.source);
                        let mut at_definition = self.with_definition_guards(value, comparisons);
                        if later {
                            at_definition = without_earlier_values(at_definition);
                        }
                        let value = self
                            .stepped_alongside(value)
                            .map_or(value, |c| c.expression);
                        match growing(visiting, step, |visiting| {
                            self.bounded(value, &at_definition, visiting, depth + 1)
                        }) {
                            Ok(b) => bound = bound.or(b),
                            Err(_) => {
                                visiting.pop();
                                return Err(node);
                            }
                        }
                    }
                    visiting.pop();
                    return Ok(bound);
                }
                // `g += s` taken alongside `u += s` keeps `g` at its start with `u`'s value
                let values: Vec<Node<'t>> = values
                    .into_iter()
                    .map(|v| self.stepped_alongside(v).map_or(v, |c| c.expression))
                    .collect();
                let steps_alone = values
                    .iter()
                    .any(|v| crate::model::reaching::updates_itself(*v, self.source));
                if steps_alone && self.is_stride_variable(node) {
                    return Err(node); // `i += blockDim.x * gridDim.x`: bounded only by a guard on `i` itself
                }
                visiting.push(key);
                let mut bound = None;
                // past a later value of the local, facts of the value a flag saw say nothing
                let later = values.iter().any(|v| !is_declared_value(*v));
                for value in values {
                    // `t -= q * stride`: no larger than what the local held, which the other
                    // values reaching here bound (as `t = t - q * stride` is its left side)
                    if takes_away_in_place(value, self.source) {
                        continue;
                    }
                    // an update in place (`x += s`) adds to what the local held
                    let step = crate::model::reaching::updates_itself(value, self.source);
                    let mut at_definition = self.with_definition_guards(value, comparisons);
                    if later {
                        at_definition = without_earlier_values(at_definition);
                    }
                    let bounded = growing(visiting, step, |visiting| {
                        self.bounded(value, &at_definition, visiting, depth + 1)
                    });
                    match bounded {
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
                let Some(argument) = node.field("argument") else {
                    return Err(node);
                };
                if self.text(argument) == "threadIdx" {
                    return Ok(None); // bounded by blockDim
                }
                // a member of a local value (not one read through a pointer): bounded where the
                // value is, `ab.x` of `size_t2 ab = index1to2(id, n);` under `id < count`
                let of_value = operator(node, self.source) == "."
                    && strip(argument, self.source).node_kind() == "identifier"
                    && !matches!(self.text(argument), "blockIdx" | "blockDim" | "gridDim");
                if of_value {
                    self.bounded(argument, comparisons, visiting, depth + 1)
                        .map_err(|_| node)
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
                            ) || (self.expression_deps(side, 0).varies_within_block()
                                && self.range_below_a_size(side, comparisons))
                        };
                        if operator(node, self.source) == "+"
                            && (self.element_bound_plus_offset(left, right, comparisons)
                                || self.element_bound_plus_offset(right, left, comparisons))
                        {
                            // `i + threadIdx.x` under a loop bound `i < n`: the guard bounds `i`
                            // alone, the per-thread offset carries the sum past `n`
                            return Err(node);
                        }
                        let either = growing(visiting, true, |visiting| {
                            guarded(left, visiting) || guarded(right, visiting)
                        }) || (operator(node, self.source) == "+"
                            && self.guarded_after_a_common_factor(left, right, comparisons));
                        if either {
                            Ok(None)
                        } else {
                            Err(node)
                        }
                    }
                    "+" if self.element_bound_plus_offset(left, right, comparisons)
                        || self.element_bound_plus_offset(right, left, comparisons) =>
                    {
                        Err(node)
                    }
                    "+" | "*" | "<<" | "|" | "^" | "%" => growing(visiting, true, |visiting| {
                        let a = self.bounded(left, comparisons, visiting, depth + 1)?;
                        let b = self.bounded(right, comparisons, visiting, depth + 1)?;
                        Ok(a.or(b))
                    }),
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
                if short == "thread_rank" && self.expression_deps(node, 0) == Deps::THREAD {
                    return Ok(None);
                }
                if is_arithmetic_call(name) {
                    // `__umul24(y, w) + x`, `max(a, b)`, casts: bounded when every argument is
                    return growing(visiting, true, |visiting| {
                        let mut bound = None;
                        for argument in arguments {
                            bound = bound.or(self.bounded(
                                argument,
                                comparisons,
                                visiting,
                                depth + 1,
                            )?);
                        }
                        Ok(bound)
                    });
                }
                growing(visiting, true, |visiting| {
                    self.bounded_helper_call(node, comparisons, visiting, depth)
                })
                .unwrap_or(Err(node))
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
                            self,
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
    pub(super) fn upper_bound(
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
            .or_else(|| self.upper_bound_by_step_count(node, comparisons))
    }

    /// `k + lane + (warp << 7)` under `lane + (warp << 7) < len`: the guarded terms are a part of
    /// the sum and the rest (`k`) is uniform or per-block.
    pub(super) fn upper_bound_by_terms(
        &self,
        node: Node<'t>,
        comparisons: &[Comparison<'t>],
    ) -> Option<Comparison<'t>> {
        // anything but a sum is one term at most
        let sum = strip(node, self.source);
        if sum.node_kind() != "binary_expression" || operator(sum, self.source) != "+" {
            return None;
        }
        let terms = self.sum_terms(node);
        if terms.len() < 2 {
            return None;
        }
        // which of `terms` a comparison's terms have matched so far
        let mut matched = vec![false; terms.len()];
        for comparison in comparisons {
            for left_side in [true, false] {
                let oriented = comparison.oriented(left_side);
                if !matches!(
                    oriented.relation,
                    Relation::Less | Relation::LessEqual | Relation::Equal
                ) {
                    continue;
                }
                let mut guarded = self.sum_terms(oriented.left);
                // a local defined once as a sum is tested as that sum (`addr = start + index +
                // tid * 2` under `addr < end`, read as `start + tid * 2 + index`)
                let left = strip(oriented.left, self.source);
                if left.node_kind() == "identifier" && !self.updated.contains(self.text(left)) {
                    if let Some([value]) = self.definitions.get(self.text(left)).map(Vec::as_slice)
                    {
                        // whose parts keep their values from there to the access (no local
                        // of it is assigned or stepped on the way, so the sum read is the sum
                        // tested)
                        let mut steady = true;
                        syntax::walk_iterative(*value, |n| {
                            if n.node_kind() == "identifier" {
                                steady &= self.unchanged_between(self.text(n), *value, node);
                            }
                            steady
                        });
                        let defined = self.sum_terms(*value);
                        if steady && defined.len() > 1 {
                            guarded = defined;
                        }
                    }
                }
                if guarded.is_empty() || guarded.len() > terms.len() {
                    continue;
                }
                matched.fill(false);
                // each guarded term takes the first equal term not taken yet
                // a local that starts as the guarded term and takes only uniform steps is that
                // term plus a per-block amount (`b` of `for (a = a0, b = b0; ...; a += sa, b +=
                // sb)` under `b0 + tx < w`)
                let all_found = guarded.iter().all(|(text, _)| {
                    let unmatched = (0..terms.len()).find(|&at| {
                        !matched[at] && (terms[at].0 == *text || self.starts_as(terms[at].1, text))
                    });
                    unmatched.map(|at| matched[at] = true).is_some()
                });
                if !all_found {
                    continue;
                }
                let rest_is_per_block = terms
                    .iter()
                    .zip(&matched)
                    .filter(|(_, taken)| !**taken)
                    .all(|((_, term), _)| {
                        let deps = self.expression_deps(*term, 0);
                        deps.is_uniform()
                            || deps == Deps::BLOCK
                            || (oriented.relation == Relation::Less
                                && self.whole_rows(*term, oriented.right))
                    });
                if rest_is_per_block {
                    return Some(oriented);
                }
            }
        }
        None
    }

    /// A term of a sum as it is compared: its normalized text, a product of names with its
    /// factors in a fixed order (`tid * depth` and `depth * tid` read alike).
    fn term_text(&self, node: Node<'t>) -> std::borrow::Cow<'a, str> {
        self.product_in_order(node).map_or_else(
            || normalized_text(node, self.source),
            std::borrow::Cow::Owned,
        )
    }

    /// A product of names, fields and numbers written with its factors in a fixed order
    /// (`tid * depth` and `depth * tid` read alike); None for anything else.
    fn product_in_order(&self, node: Node<'t>) -> Option<String> {
        if node.node_kind() != "binary_expression" || operator(node, self.source) != "*" {
            return None;
        }
        let factors = self.multiplied(node)?;
        let plain = |factor: &Node<'t>| {
            matches!(
                factor.node_kind(),
                "identifier" | "field_expression" | "number_literal"
            )
        };
        if factors.len() > 8 || !factors.iter().all(plain) {
            return None;
        }
        let mut texts: Vec<String> = factors
            .into_iter()
            .map(|factor| normalized_text(factor, self.source).into_owned())
            .collect();
        texts.sort_unstable();
        Some(texts.join(" * "))
    }

    /// Whether no value of the local `name` is assigned on a way from `from` to `to`: none
    /// written between them, nor in a loop around `to` that `from` is outside of (its next trip
    /// comes back to `to` after it).
    fn unchanged_between(&self, name: &str, from: Node<'t>, to: Node<'t>) -> bool {
        let values = self
            .definitions
            .get(name)
            .into_iter()
            .chain(self.steps.get(name))
            .flatten();
        let loops: Vec<Node<'t>> = std::iter::successors(to.up(), |n| n.up())
            .take_while(|n| !syntax::encloses(*n, from))
            .filter(|n| syntax::is_loop(*n))
            .collect();
        let mut unchanged = true;
        for value in values {
            let between =
                value.start_byte() >= from.end_byte() && value.end_byte() <= to.start_byte();
            let in_loop = loops.iter().any(|l| syntax::encloses(*l, *value));
            unchanged &= !between && !in_loop;
        }
        unchanged
    }

    /// Whether the local `term` starts as the expression written `start` and otherwise only
    /// takes steps by a uniform amount (`+= s`, `++`) where it is read: its value is `start`
    /// plus a per-block amount.
    fn starts_as(&self, term: Node<'t>, start: &str) -> bool {
        if term.node_kind() != "identifier" {
            return false;
        }
        let Some((_, values)) = self.reaching_definitions(term) else {
            return false;
        };
        let mut starts = 0;
        for value in values {
            if !crate::model::reaching::updates_itself(value, self.source) {
                starts += 1;
                if self.term_text(strip(value, self.source)) != start {
                    return false;
                }
                continue;
            }
            // `+=` and `++` list their target: the step is what the update adds
            let Some(update) = value.up() else {
                return false;
            };
            let uniform_step = match update.node_kind() {
                "update_expression" => text(update, self.source).contains("++"),
                "assignment_expression" => {
                    operator(update, self.source) == "+="
                        && update
                            .field("right")
                            .is_some_and(|r| self.expression_deps(r, 0).is_uniform())
                }
                _ => false,
            };
            if !uniform_step {
                return false;
            }
        }
        starts == 1
    }

    /// Whether `term` is whole rows of the extent `width` a column is tested against: `width *
    /// r` (either order) with `r` the thread's place in its block or uniform. A column below
    /// `width` plus such rows stays in the rows the block covers.
    fn whole_rows(&self, term: Node<'t>, width: Node<'t>) -> bool {
        let term = strip(term, self.source);
        if term.node_kind() != "binary_expression" || operator(term, self.source) != "*" {
            return false;
        }
        let (Some(left), Some(right)) = (term.field("left"), term.field("right")) else {
            return false;
        };
        let width = normalized_text(width, self.source);
        [(left, right), (right, left)]
            .into_iter()
            .any(|(factor, row)| {
                let deps = self.expression_deps(row, 0);
                normalized_text(factor, self.source) == width
                    && (deps.is_uniform() || deps == Deps::THREAD)
            })
    }

    /// The operands of a chain of `+`, normalized, ignoring literal `0` terms; found once per
    /// node.
    pub(super) fn sum_terms(&self, node: Node<'t>) -> SumTerms<'a, 't> {
        if let Some(terms) = self.sum_terms_cache.borrow().get(&node.id()) {
            return terms.clone();
        }
        let mut terms = Vec::new();
        let mut stack = vec![strip(node, self.source)];
        while let Some(current) = stack.pop() {
            if terms.len() > 32 {
                terms.clear();
                break;
            }
            if current.node_kind() == "binary_expression" && operator(current, self.source) == "+" {
                if let (Some(left), Some(right)) = (current.field("left"), current.field("right")) {
                    stack.push(strip(left, self.source));
                    stack.push(strip(right, self.source));
                    continue;
                }
            }
            let text = self.term_text(current);
            if text != "0" {
                terms.push((text, current));
            }
        }
        let terms: SumTerms<'a, 't> = terms.into();
        self.sum_terms_cache
            .borrow_mut()
            .insert(node.id(), terms.clone());
        terms
    }

    pub(super) fn upper_bound_of(
        &self,
        node: Node<'t>,
        comparisons: &[Comparison<'t>],
    ) -> Option<Comparison<'t>> {
        let target = normalized_text(node, self.source);
        for comparison in comparisons {
            for left_side in [true, false] {
                let oriented = comparison.oriented(left_side);
                if matches!(
                    oriented.relation,
                    Relation::Less | Relation::LessEqual | Relation::Equal
                ) && self.covers(oriented.left, &target)
                {
                    return Some(oriented);
                }
            }
        }
        None
    }

    /// Whether bounding `expression` bounds `target` (normalized) too: it is `target`, or
    /// `target` plus or times something that does not depend on the thread, or a variable
    /// defined that way. The expressions a comparison side covers are found once (see
    /// `covered_texts`) and kept while the thread identities they were found with hold.
    pub(super) fn covers(&self, expression: Node<'t>, target: &str) -> bool {
        if !self.cache_deps {
            let mut texts = Vec::new();
            self.covered_texts(expression, 0, &mut texts);
            return texts.iter().any(|text| text == target);
        }
        if let Some(texts) = self.covered_cache.borrow().get(&expression.id()) {
            return texts.iter().any(|text| text == target);
        }
        let mut texts = Vec::new();
        self.covered_texts(expression, 0, &mut texts);
        let found = texts.iter().any(|text| text == target);
        self.covered_cache
            .borrow_mut()
            .insert(expression.id(), texts);
        found
    }

    /// The normalized texts of every expression that bounding `expression` bounds too: itself,
    /// the thread-dependent side of a sum or product with a uniform other side (`i * w + k`
    /// under a bound bounds `i`), the dividend of a quotient by a uniform divisor, and what a
    /// local defined once is defined as.
    fn covered_texts(&self, expression: Node<'t>, depth: usize, texts: &mut Vec<Cow<'a, str>>) {
        if depth > 4 {
            return;
        }
        let expression = strip(expression, self.source);
        texts.push(normalized_text(expression, self.source));
        match expression.node_kind() {
            "binary_expression" if matches!(operator(expression, self.source), "+" | "*") => {
                let (Some(left), Some(right)) =
                    (expression.field("left"), expression.field("right"))
                else {
                    return;
                };
                if self.expression_deps(right, 0).is_uniform() {
                    self.covered_texts(left, depth + 1, texts);
                }
                if self.expression_deps(left, 0).is_uniform() {
                    self.covered_texts(right, depth + 1, texts);
                }
            }
            // `row = idx / width` with `row < height` bounds `idx` as well
            "binary_expression" if matches!(operator(expression, self.source), "/" | ">>") => {
                let (Some(left), Some(right)) =
                    (expression.field("left"), expression.field("right"))
                else {
                    return;
                };
                if self.expression_deps(right, 0).is_uniform() {
                    self.covered_texts(left, depth + 1, texts);
                }
            }
            // `ic = div_mod(i, FH, fh)`: what the helper returns, in the call's arguments
            "call_expression" => {
                if let Some((summary, arguments)) = self.helper_call(expression) {
                    if let Some(value) = summary
                        .straight_line
                        .as_ref()
                        .and_then(|line| line.returned.as_ref())
                    {
                        self.covered_by_value(value, &arguments, depth, texts);
                    }
                }
            }
            // `compute3DIndices(id, nx, ny, xid, yid, zid)` then `zid < nz`: the one call that
            // writes the local, as the assignment it makes
            "identifier"
                if !self.definitions.contains_key(self.text(expression))
                    && !self.updated.contains(self.text(expression)) =>
            {
                if let Some((value, arguments)) = self.written_by_call(self.text(expression)) {
                    self.covered_by_value(value, &arguments, depth + 1, texts);
                }
            }
            "identifier" => match self.definitions.get(self.text(expression)) {
                // a copy of a local that changes later (`int out = i; i *= 4;`) is of one of
                // its values only: `out < n` says nothing of `i` after the change
                Some(values)
                    if values.len() == 1
                        && (strip(values[0], self.source).node_kind() != "identifier"
                            || self.reads_settled_values(values[0])) =>
                {
                    self.covered_texts(values[0], depth + 1, texts);
                }
                _ => {}
            },
            _ => {}
        }
    }

    /// `covered_texts` of a helper's value with the call's `arguments` for its parameters: the
    /// same steps through sums, products and quotients by values every thread shares.
    fn covered_by_value(
        &self,
        value: &HelperValue,
        arguments: &[Node<'t>],
        depth: usize,
        texts: &mut Vec<Cow<'a, str>>,
    ) {
        if depth > 4 {
            return;
        }
        match value {
            HelperValue::Parameter(p) => {
                if let Some(argument) = arguments.get(*p) {
                    self.covered_texts(*argument, depth, texts);
                }
            }
            HelperValue::Binary(Operation::Add | Operation::Multiply, left, right) => {
                if self.value_is_uniform(right, arguments) {
                    self.covered_by_value(left, arguments, depth + 1, texts);
                }
                if self.value_is_uniform(left, arguments) {
                    self.covered_by_value(right, arguments, depth + 1, texts);
                }
            }
            HelperValue::Binary(Operation::Divide, left, right)
                if self.value_is_uniform(right, arguments) =>
            {
                self.covered_by_value(left, arguments, depth + 1, texts);
            }
            _ => {}
        }
    }

    /// Whether every thread computes the same `value` with the call's `arguments` put in.
    fn value_is_uniform(&self, value: &HelperValue, arguments: &[Node<'t>]) -> bool {
        let mut pending = vec![value];
        while let Some(value) = pending.pop() {
            match value {
                HelperValue::Constant(_) => {}
                HelperValue::Launch(name) => {
                    if !name.starts_with("blockDim") && !name.starts_with("gridDim") {
                        return false;
                    }
                }
                HelperValue::Parameter(p) => match arguments.get(*p) {
                    Some(argument) if self.expression_deps(*argument, 0).is_uniform() => {}
                    _ => return false,
                },
                HelperValue::Negate(inner) => pending.push(inner),
                HelperValue::Binary(_, left, right) => {
                    pending.push(left);
                    pending.push(right);
                }
            }
        }
        true
    }

    /// `p[i]` under `i >= n`, `i > n`, `i >= n || i < 0`, or `i <= n`, with nothing else bounding `i`.
    pub(super) fn out_of_range(
        &self,
        index: Node<'t>,
        comparisons: &[Comparison<'t>],
        disjunctions: &[guards::Disjunction<'t>],
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
        let target = normalized_text(base, self.source);
        let on_target = |c: &Comparison<'t>| -> Option<Comparison<'t>> {
            [true, false]
                .into_iter()
                .map(|side| c.oriented(side))
                .find(|o| syntax::same_text(o.left, self.source, &target))
        };
        // the comparisons of the index, oriented with it on the left, read by each test below
        let on_index: Vec<Comparison<'t>> = comparisons.iter().filter_map(on_target).collect();
        let strict_upper = on_index
            .iter()
            .any(|c| matches!(c.relation, Relation::Less | Relation::Equal));
        if strict_upper {
            return None;
        }
        // `t >= first && t <= last` is a window: its lower side is no test against the end
        let bounded_above = on_index.iter().any(|c| c.relation == Relation::LessEqual);
        // loop conditions walk ranges (`while (k >= bottom)`); only branch conditions say "out of range"
        let from_loop = |c: &Comparison<'t>| {
            c.origin.up().is_some_and(|p| {
                matches!(
                    p.node_kind(),
                    "for_statement" | "while_statement" | "do_statement"
                )
            })
        };
        for comparison in &on_index {
            if matches!(
                comparison.relation,
                Relation::Greater | Relation::GreaterEqual
            ) && !from_loop(comparison)
                && !bounded_above
                && self.is_plain_bound(comparison.right)
                && self.is_sized_bound(comparison.right, 0)
                && !self.counts_an_enclosing_loop(comparison.right, comparison.origin)
                && !self.block_is_another_extent(base, comparison.right)
                && !self.bounded_apart_from(base, comparisons, comparison.origin)
                && !self.always_at_least(
                    base,
                    comparison.right,
                    comparison.relation == Relation::Greater,
                    comparisons,
                    comparison.origin,
                )
            {
                return Some(IndexStatus::OutOfRange {
                    guard: comparison.origin,
                    admits_bound: false,
                });
            }
        }
        for comparison in &on_index {
            if comparison.relation == Relation::LessEqual
                && !from_loop(comparison)
                && self.is_parameter_extent(comparison.right, 0)
                && !self.launches_count_past(comparison.right)
                && !self.bounded_apart_from(base, comparisons, comparison.origin)
            {
                return Some(IndexStatus::OutOfRange {
                    guard: comparison.origin,
                    admits_bound: true,
                });
            }
        }
        for alternatives in disjunctions {
            // each alternative a single test of the index: `i >= n || i < 0`
            let oriented: Option<Vec<Comparison<'t>>> = alternatives
                .iter()
                .map(|alternative| match alternative.as_slice() {
                    [single] => on_target(single),
                    _ => None,
                })
                .collect();
            let Some(oriented) = oriented else { continue };
            if oriented.iter().any(from_loop) {
                continue;
            }
            let above = |c: &Comparison<'t>| {
                matches!(c.relation, Relation::Greater | Relation::GreaterEqual)
                    && self.is_plain_bound(c.right)
                    && self.is_sized_bound(c.right, 0)
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

    /// Whether `index` is the thread's place in its block (`threadIdx.x`, or a local holding it)
    /// and every visible launch (one at least) gives blocks as wide as a kernel parameter other
    /// than `bound`: `if (e < rot) ... else p[e]` with `<<<tokens, E>>>(..., E, rot)` splits the
    /// `E` threads of a row at `rot`, and the threads past `rot` are still inside it.
    fn block_is_another_extent(&self, index: Node<'t>, bound: Node<'t>) -> bool {
        if self.thread_term(index, 0) != Some(ThreadTerm::ThreadX) || self.out.launches.is_empty() {
            return false;
        }
        let bound = strip(bound, self.source);
        let bound_position = (bound.node_kind() == "identifier")
            .then(|| {
                self.function
                    .parameters
                    .iter()
                    .position(|p| p.name == self.text(bound))
            })
            .flatten();
        self.out
            .launches
            .iter()
            .all(|launch| match launch.block_in_arguments[0].as_deref() {
                Some([(1, factors)]) => {
                    matches!(factors.as_slice(), [only] if Some(*only) != bound_position)
                }
                _ => false,
            })
    }

    /// Whether every visible launch (one at least) covers one more thread than the parameter
    /// `bound` it passes (`<<<(n + 1 + B - 1) / B, B>>>(n, ...)`): the launcher counts `n + 1`
    /// items (the fence posts of `n` segments), and `i <= n` is the test of that count.
    fn launches_count_past(&self, bound: Node<'t>) -> bool {
        let bound = strip(bound, self.source);
        if bound.node_kind() != "identifier" {
            return false;
        }
        let Some(position) = self
            .function
            .parameters
            .iter()
            .position(|p| p.name == self.text(bound))
        else {
            return false;
        };
        let compact = |s: &str| -> String { s.chars().filter(|c| !c.is_whitespace()).collect() };
        !self.out.launches.is_empty()
            && self.out.launches.iter().all(|launch| {
                let Some(argument) = launch.arguments.get(position) else {
                    return false;
                };
                let argument = compact(argument);
                let one_more = [format!("{argument}+1"), format!("1+{argument}")];
                launch.grid.iter().any(|axis| {
                    matches!(axis, crate::model::launch::GridAxis::RoundedUp(extent)
                        if one_more.contains(&compact(extent)))
                })
            })
    }

    /// Whether `bound` can be the extent of the buffers the kernel indexes: a size it is given
    /// (a parameter, a field of one, a constant) or a value computed from sizes. A value the
    /// kernel reads from memory (`heads[blockIdx.x]`, `counts[b].valid`) is a position in the
    /// data, a segment's start or a count of the entries that hold data, and a thread past it
    /// may still be inside the buffer (the padding after the valid entries).
    fn is_sized_bound(&self, bound: Node<'t>, depth: usize) -> bool {
        if depth > 8 {
            return true;
        }
        let bound = strip(bound, self.source);
        match bound.node_kind() {
            "subscript_expression" | "pointer_expression" => false,
            "field_expression" => match bound.field("argument") {
                Some(argument) => self.is_sized_bound(argument, depth + 1),
                None => true,
            },
            "identifier" => {
                let name = self.text(bound);
                if self.function.parameter(name).is_some() {
                    return true;
                }
                match self.definitions.get(name) {
                    Some(values) => values.iter().all(|v| self.is_sized_bound(*v, depth + 1)),
                    None => true,
                }
            }
            _ => named_children(bound).all(|child| self.is_sized_bound(child, depth + 1)),
        }
    }

    /// A scalar kernel parameter (or a field of one): the size the caller passed.
    pub(super) fn is_parameter_bound(&self, node: Node<'t>) -> bool {
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
    /// A scalar parameter, or a product of them (`nx * ny * nz`, the element count of a grid).
    pub(super) fn is_parameter_extent(&self, node: Node<'t>, depth: usize) -> bool {
        let node = strip(node, self.source);
        if node.node_kind() == "binary_expression" && operator(node, self.source) == "*" {
            return depth < 4
                && [node.field("left"), node.field("right")]
                    .into_iter()
                    .all(|side| side.is_some_and(|s| self.is_parameter_extent(s, depth + 1)));
        }
        self.is_parameter_bound(node)
    }

    /// Whether `bound` is the counter of a `for` loop around `at` (`for (m = 0; m < n; m++)
    /// if (i > m)`): a test against the position the loop has reached, not against an extent,
    /// so its branch is not the out-of-range one.
    fn counts_an_enclosing_loop(&self, bound: Node<'t>, at: Node<'t>) -> bool {
        let bound = strip(bound, self.source);
        if bound.node_kind() != "identifier" {
            return false;
        }
        let name = self.text(bound);
        std::iter::successors(at.up(), |n| n.up())
            .filter(|n| n.node_kind() == "for_statement")
            .any(|lp| {
                ["initializer", "update"].iter().any(|field| {
                    lp.field(field).is_some_and(|part| {
                        let mut found = false;
                        syntax::walk_iterative(part, |node| {
                            found |= node.node_kind() == "identifier" && self.text(node) == name;
                            !found
                        });
                        found
                    })
                })
            })
    }

    pub(super) fn is_plain_bound(&self, node: Node<'t>) -> bool {
        let node = strip(node, self.source);
        matches!(
            node.node_kind(),
            "identifier" | "field_expression" | "qualified_identifier"
        ) && self.expression_deps(node, 0).is_uniform()
    }
}

/// Marks, among the locals `bounded` is following, a step that can give a larger value than
/// the one it starts from (a sum, a product, a call, an update in place): a cycle through it
/// can grow on every trip.
const GROWS: &str = "\u{1}grows";

/// `f` with a growing step marked while it runs, when `grows`.
/// Whether `value` is the right side of an update in place that never makes the local larger:
/// `t -= d`, `t /= d`, `t >>= s` (read, as a difference's or a quotient's left side is, for
/// values that are not negative).
fn takes_away_in_place(value: Node, source: &str) -> bool {
    value.up().is_some_and(|parent| {
        parent.node_kind() == "assignment_expression"
            && parent.field("right").is_some_and(|r| r.id() == value.id())
            && matches!(operator(parent, source), "-=" | "/=" | ">>=")
    })
}

fn growing<R>(visiting: &mut Vec<String>, grows: bool, f: impl FnOnce(&mut Vec<String>) -> R) -> R {
    if !grows {
        return f(visiting);
    }
    visiting.push(GROWS.to_string());
    let result = f(visiting);
    visiting.pop();
    result
}

/// Where the local of `key` (see `reaching_definitions`) is first being followed: the same
/// local and first definition, whatever else reaches this use.
fn revisited(visiting: &[String], key: &str) -> Option<usize> {
    let local = key.split('#').next().unwrap_or(key);
    visiting
        .iter()
        .position(|k| k.split('#').next() == Some(local) && k.as_str() != GROWS)
}

/// The start bytes of the definitions of `key`'s local already being followed, at every use of
/// it on the way.
fn followed_definitions(visiting: &[String], key: &str) -> Vec<usize> {
    let local = key.split('#').next().unwrap_or(key);
    visiting
        .iter()
        .filter_map(|k| k.split_once('#').filter(|(name, _)| *name == local))
        .flat_map(|(_, starts)| starts.split(','))
        .filter_map(|start| start.parse().ok())
        .collect()
}
