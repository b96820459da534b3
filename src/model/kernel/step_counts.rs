//! Counts of strided steps. `cnt = n > off ? ceil_div(n - off, B) : 0` is how many of `off`,
//! `off + B`, `off + 2 * B`, ... stay below `n`, so `off + i * B` is below `n` for every
//! `i < cnt`, and for every `i < K` where `K <= cnt` (`if (cnt >= UNROLL)` around an unrolled
//! loop of `UNROLL` steps).

use super::*;

/// What a step count counts: the steps `start + k * stride` below `limit` (normalized texts).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct StepCount<'a> {
    pub limit: Cow<'a, str>,
    pub start: Cow<'a, str>,
    pub stride: Cow<'a, str>,
}

impl<'a, 't> Analyzer<'a, 't> {
    /// The steps `node` counts, when it is a count of strided steps: a division rounded up
    /// (`(n - off + B - 1) / B`, a helper that returns one, `ceil_div`) of a difference `n -
    /// off` by a stride, possibly behind a test that gives 0 otherwise (`n > off ? ... : 0`),
    /// or a local defined once as one and never assigned again.
    pub(super) fn step_count(&self, node: Node<'t>, depth: usize) -> Option<StepCount<'a>> {
        let node = strip(node, self.source);
        if depth > 4 {
            return None;
        }
        match node.node_kind() {
            "identifier" => {
                let name = self.text(node);
                if self.updated.contains(name) {
                    return None;
                }
                let [value] = self.definitions.get(name)?.as_slice() else {
                    return None;
                };
                self.step_count(*value, depth + 1)
            }
            "conditional_expression" => {
                let (consequence, alternative) =
                    (node.field("consequence")?, node.field("alternative")?);
                let is_zero = |n: Node<'t>| self.text(strip(n, self.source)).trim() == "0";
                if is_zero(alternative) {
                    self.step_count(consequence, depth + 1)
                } else if is_zero(consequence) {
                    self.step_count(alternative, depth + 1)
                } else {
                    None
                }
            }
            "call_expression" => {
                let (numerator, divisor) = match self.helper_call(node) {
                    Some((summary, arguments)) => {
                        let value = summary.straight_line.as_ref()?.returned.as_ref()?;
                        let (a, b) = value.rounding_division()?;
                        (*arguments.get(a)?, *arguments.get(b)?)
                    }
                    None => {
                        let name = calls::callee_name(node.field("function")?, self.source)?;
                        if !crate::model::launch::names_a_rounding_division(name) {
                            return None;
                        }
                        let mut arguments = named_children(node.field("arguments")?)
                            .filter(|a| a.node_kind() != "comment");
                        (arguments.next()?, arguments.next()?)
                    }
                };
                self.counted_difference(numerator, normalized_text(divisor, self.source))
            }
            "binary_expression" if operator(node, self.source) == "/" => {
                let divisor = normalized_text(node.field("right")?, self.source);
                // `n - off + B - 1`: the difference is the sum less `B` and `- 1`
                let terms = syntax::signed_terms(node.field("left")?, self.source);
                let mut rest = Vec::new();
                let (mut divisors, mut ones) = (0, 0);
                for (positive, term) in terms {
                    let text = normalized_text(term, self.source);
                    if positive && text == divisor && divisors == 0 {
                        divisors += 1;
                    } else if !positive && text == "1" && ones == 0 {
                        ones += 1;
                    } else {
                        rest.push((positive, text));
                    }
                }
                // what is left is the difference, one term added and one taken away
                match (divisors, ones, rest.as_slice()) {
                    (1, 1, [(a_added, a), (b_added, b)]) if a_added != b_added => {
                        let (limit, start) = if *a_added { (a, b) } else { (b, a) };
                        Some(StepCount {
                            limit: limit.clone(),
                            start: start.clone(),
                            stride: divisor,
                        })
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `n - off` divided by `stride`: the steps from `off` below `n`.
    fn counted_difference(
        &self,
        difference: Node<'t>,
        stride: Cow<'a, str>,
    ) -> Option<StepCount<'a>> {
        let difference = strip(difference, self.source);
        if difference.node_kind() != "binary_expression" || operator(difference, self.source) != "-"
        {
            return None;
        }
        Some(StepCount {
            limit: normalized_text(difference.field("left")?, self.source),
            start: normalized_text(difference.field("right")?, self.source),
            stride,
        })
    }

    /// `off + i * B` under `i < cnt` (or `i < K` and `K <= cnt`) where `cnt` counts the steps
    /// of `B` from `off` below `n`: the sum stays below `n`. The comparison with the count is
    /// the guard.
    pub(super) fn upper_bound_by_step_count(
        &self,
        node: Node<'t>,
        comparisons: &[Comparison<'t>],
    ) -> Option<Comparison<'t>> {
        let terms = self.sum_terms(node);
        let [first, second] = &*terms else {
            return None;
        };
        self.step_within_count(first.1, second.1, comparisons)
            .or_else(|| self.step_within_count(second.1, first.1, comparisons))
    }

    /// Whether `start + step` (`step` written `i * B`) is one of the steps a count in force
    /// counts from `start` below its limit: the comparison with the count when it is. Also
    /// asked of an access through a pointer advanced to the start (`p = y + off; p[i * B]`).
    pub(super) fn step_within_count(
        &self,
        start: Node<'t>,
        step: Node<'t>,
        comparisons: &[Comparison<'t>],
    ) -> Option<Comparison<'t>> {
        let start = normalized_text(start, self.source);
        let step_text = self.sum_terms(step);
        let [(product, _)] = &*step_text else {
            return None;
        };
        // the comparisons `left < x` and `left <= x`
        let below = |left: Node<'t>| -> Vec<Comparison<'t>> {
            let left = normalized_text(left, self.source);
            comparisons
                .iter()
                .flat_map(|c| [c.oriented(true), c.oriented(false)])
                .filter(|c| {
                    matches!(c.relation, Relation::Less | Relation::LessEqual)
                        && normalized_text(c.left, self.source) == left
                })
                .collect()
        };
        for comparison in comparisons {
            for left_side in [true, false] {
                let oriented = comparison.oriented(left_side);
                if oriented.relation != Relation::Less
                    || strip(oriented.left, self.source).node_kind() != "identifier"
                {
                    continue;
                }
                // the count itself, or a uniform `K` with `K <= cnt` known too
                let mut counts = vec![oriented];
                if self.expression_deps(oriented.right, 0).is_uniform() {
                    counts.extend(below(oriented.right));
                }
                let counter = self.text(strip(oriented.left, self.source));
                for count in counts {
                    let Some(steps) = self.step_count(count.right, 0) else {
                        continue;
                    };
                    let mut factors = [counter, &*steps.stride];
                    factors.sort_unstable();
                    if steps.start == start && **product == factors.join(" * ") {
                        return Some(count);
                    }
                }
            }
        }
        None
    }
}
