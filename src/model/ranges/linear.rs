//! Linear forms (`constant + Σ coefficient × term`) that facts are read as, expanding locals
//! with one definition and locals stepped in lockstep with another. Kept apart because the
//! forms are plain algebra over syntax, with no ranges in them.

use super::*;

/// The companion every definition reaching a use agrees on: each in-place step's, and each
/// plain definition being that companion's own starting value (`g = bid * size + id` before a
/// loop that steps `g` and `id` alike).
fn lockstep_companion<'t>(
    context: &dyn RangeContext<'t>,
    values: &[Node<'t>],
    source: &str,
) -> Option<Companion<'t>> {
    let mut agreed: Option<Companion<'t>> = None;
    for value in values {
        if !crate::model::reaching::updates_itself(*value, source) {
            continue;
        }
        let equal = context.companion(*value)?;
        match &agreed {
            Some(so_far)
                if so_far.expression.id() != equal.expression.id()
                    || so_far.stepped != equal.stepped =>
            {
                return None
            }
            Some(_) => {}
            None => agreed = Some(equal),
        }
    }
    let agreed = agreed?;
    values
        .iter()
        .filter(|v| !crate::model::reaching::updates_itself(**v, source))
        .all(|v| strip(*v, source).id() == strip(agreed.expression, source).id())
        .then_some(agreed)
}

/// A context that reads one local as itself rather than by its definitions: the local stepped
/// alongside, whose value where the companion is used is the one to compare.
struct KeepLocal<'c, 't> {
    context: &'c dyn RangeContext<'t>,
    name: &'c str,
}

impl<'t> RangeContext<'t> for KeepLocal<'_, 't> {
    fn source(&self) -> &str {
        self.context.source()
    }
    fn reaching(&self, use_: Node<'t>) -> Option<Reaching<'t>> {
        if text(use_, self.context.source()) == self.name {
            return None;
        }
        self.context.reaching(use_)
    }
    fn is_uniform(&self, node: Node<'t>) -> bool {
        self.context.is_uniform(node)
    }
    fn varies_within_block(&self, node: Node<'t>) -> bool {
        self.context.varies_within_block(node)
    }
    fn companion(&self, value: Node<'t>) -> Option<Companion<'t>> {
        self.context.companion(value)
    }
    fn constant(&self, node: Node<'t>) -> Option<i128> {
        self.context.constant(node)
    }
    fn call_result_range(&self, call: Node<'t>) -> Option<(i128, i128)> {
        self.context.call_result_range(call)
    }
}

/// A sum `constant + Σ coefficient × term`, terms keyed by their normalized text.
#[derive(Debug, Clone)]
pub(super) struct Linear<'t> {
    pub(super) constant: i128,
    pub(super) terms: Vec<(i128, Term<'t>)>,
}

#[derive(Debug, Clone)]
pub(super) struct Term<'t> {
    key: String,
    pub(super) node: Node<'t>,
}

impl<'t> Linear<'t> {
    /// The form of `node`; with a context, locals with one reaching definition are expanded.
    pub(super) fn of(
        node: Node<'t>,
        source: &str,
        context: Option<&dyn RangeContext<'t>>,
        depth: usize,
    ) -> Option<Linear<'t>> {
        let mut form = Linear {
            constant: 0,
            terms: Vec::new(),
        };
        form.add(node, 1, source, context, depth)?;
        Some(form)
    }

    fn add(
        &mut self,
        node: Node<'t>,
        factor: i128,
        source: &str,
        context: Option<&dyn RangeContext<'t>>,
        depth: usize,
    ) -> Option<()> {
        if depth > 8 || self.terms.len() > 16 {
            return None;
        }
        let node = strip(node, source);
        match node.node_kind() {
            "number_literal" => {
                self.constant =
                    self.constant
                        .checked_add(factor.checked_mul(crate::model::size::parse_number(
                            text(node, source),
                        )?)?)?;
                return Some(());
            }
            "binary_expression" => {
                let (left, right) = (node.field("left")?, node.field("right")?);
                match operator(node, source) {
                    "+" => {
                        self.add(left, factor, source, context, depth + 1)?;
                        return self.add(right, factor, source, context, depth + 1);
                    }
                    "-" => {
                        self.add(left, factor, source, context, depth + 1)?;
                        return self.add(right, -factor, source, context, depth + 1);
                    }
                    "*" => {
                        for (k, other) in [(left, right), (right, left)] {
                            let k = strip(k, source);
                            let value = match k.node_kind() {
                                "number_literal" => {
                                    crate::model::size::parse_number(text(k, source))
                                }
                                // `blockIdx.x * kTileDim`: a named constant is a coefficient
                                _ => context.and_then(|c| c.constant(k)),
                            };
                            if let Some(k) = value {
                                return self.add(
                                    other,
                                    factor.checked_mul(k)?,
                                    source,
                                    context,
                                    depth + 1,
                                );
                            }
                        }
                    }
                    // `element_x << 2` is `4 * element_x`
                    "<<" => {
                        let shift = match strip(right, source).node_kind() {
                            "number_literal" => {
                                crate::model::size::parse_number(text(strip(right, source), source))
                            }
                            _ => context.and_then(|c| c.constant(right)),
                        };
                        if let Some(shift) = shift.filter(|s| (0..32).contains(s)) {
                            return self.add(
                                left,
                                factor.checked_mul(1 << shift)?,
                                source,
                                context,
                                depth + 1,
                            );
                        }
                    }
                    // `lane / kReduce` with `kReduce` 1
                    "/" if context.and_then(|c| c.constant(right)) == Some(1) => {
                        return self.add(left, factor, source, context, depth + 1);
                    }
                    _ => {}
                }
            }
            "unary_expression" if operator(node, source) == "-" => {
                return self.add(node.field("argument")?, -factor, source, context, depth + 1);
            }
            // a local with one definition reaching here is that definition
            "identifier" => {
                if let Some((context, (_, values))) =
                    context.and_then(|c| Some((c, c.reaching(node)?)))
                {
                    let mut expanded = self.clone();
                    let done = match values.as_slice() {
                        [value] if !crate::model::reaching::updates_itself(*value, source) => {
                            expanded.add(*value, factor, source, Some(context), depth + 1)
                        }
                        // stepped in lockstep with another local: what it always equals, that
                        // local read where this one is
                        _ => lockstep_companion(context, &values, source).and_then(|equal| {
                            let keep = KeepLocal {
                                context,
                                name: &equal.stepped,
                            };
                            expanded.add(equal.expression, factor, source, Some(&keep), depth + 1)
                        }),
                    };
                    if done.is_some() {
                        *self = expanded;
                        return Some(());
                    }
                }
            }
            _ => {}
        }
        let key = normalized(node, source);
        match self.terms.iter_mut().find(|(_, t)| t.key == key) {
            Some((coefficient, _)) => *coefficient += factor,
            None => self.terms.push((factor, Term { key, node })),
        }
        self.terms.retain(|(c, _)| *c != 0);
        Some(())
    }

    /// `self + k * other`.
    pub(super) fn plus(&self, other: &Linear<'t>, k: i128) -> Option<Linear<'t>> {
        let mut sum = self.clone();
        sum.constant = sum.constant.checked_add(other.constant.checked_mul(k)?)?;
        for (coefficient, term) in &other.terms {
            let added = coefficient.checked_mul(k)?;
            match sum.terms.iter_mut().find(|(_, t)| t.key == term.key) {
                Some((existing, _)) => *existing = existing.checked_add(added)?,
                None => sum.terms.push((added, term.clone())),
            }
        }
        sum.terms.retain(|(c, _)| *c != 0);
        Some(sum)
    }

    /// `self = factor * target + rest`, when every term of `target` appears in `self` with the
    /// same multiple of its coefficient.
    pub(super) fn solve_for(&self, target: &Linear<'t>) -> Option<(i128, Linear<'t>)> {
        let (first_coefficient, first) = target.terms.first()?;
        let (in_self, _) = self.terms.iter().find(|(_, t)| t.key == first.key)?;
        if in_self % first_coefficient != 0 {
            return None;
        }
        let factor = in_self / first_coefficient;
        let mut rest = self.clone();
        rest.constant -= factor.checked_mul(target.constant)?;
        for (coefficient, term) in &target.terms {
            let wanted = factor.checked_mul(*coefficient)?;
            let at = rest
                .terms
                .iter()
                .position(|(c, t)| t.key == term.key && *c == wanted)?;
            rest.terms.remove(at);
        }
        Some((factor, rest))
    }
}

/// Whether `node` is the thread index scaled: a term built on `threadIdx` with a coefficient
/// other than 1 (`2 * (blockIdx.x * blockDim.x + threadIdx.x)`) or multiplied by a size
/// (`n * threadIdx.x`). The extent a launch gives the thread index along an axis then bounds
/// the index, not `node`. Forms that cannot be read say no.
pub fn scales_thread_index<'t>(node: Node<'t>, context: &dyn RangeContext<'t>) -> bool {
    let source = context.source();
    let Some(form) = Linear::of(node, source, Some(context), 0) else {
        return false;
    };
    form.terms.iter().any(|(coefficient, term)| {
        term.key.contains("threadIdx")
            && (*coefficient != 1
                || (term.node.node_kind() == "binary_expression"
                    && operator(term.node, source) == "*"))
    })
}
