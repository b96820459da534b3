//! What the comparisons in force say of an expression: each read as a bound on a linear form
//! and solved for the expression, alone or two added together, with choices and `min`/`max`
//! read case by case; and the tests a definition passed on its way to a use. Separate because
//! it reads conditions, where the rest of the analysis reads values.

use super::*;

impl<'c, 't, C: RangeContext<'t>> Ranges<'c, 't, C> {
    /// The quotient (`a / d`, `a >> s`) that the local read at `node` holds, through copies,
    /// when one value reaches it.
    fn quotient_held(&self, node: Node<'t>) -> Option<Node<'t>> {
        let source = self.source();
        let mut node = node;
        for _ in 0..4 {
            if node.node_kind() != "identifier" {
                break;
            }
            let (_, reaching) = self.context.reaching(node)?;
            let [value] = reaching.as_slice() else {
                return None;
            };
            let value = strip(*value, source);
            if value.id() == node.id()
                || crate::syntax::same_text(value, source, text(node, source))
            {
                return None;
            }
            node = value;
        }
        (node.node_kind() == "binary_expression" && matches!(operator(node, source), "/" | ">>"))
            .then_some(node)
    }

    /// What the comparisons in force say of `node`: each is read as a bound on a linear form
    /// (`L rel R`), and `node` is solved out of it when `L` is `k * node` plus other terms.
    pub(super) fn range_from_facts(
        &self,
        node: Node<'t>,
        facts: &[Comparison<'t>],
        depth: usize,
    ) -> Range {
        let source = self.source();
        // each fact is read like an expression: a query under many facts spends its budget
        // sooner, and one whose budget is spent learns nothing more from them
        let left = self.budget.get();
        if left < facts.len() {
            return Range::unknown();
        }
        self.budget.set(left - facts.len());
        // compared as written first, then with locals replaced by their single definitions
        let targets: Vec<Linear<'t>> = [None, Some(self.context as &dyn RangeContext<'t>)]
            .into_iter()
            .filter_map(|context| Linear::of(node, source, context, 0))
            .filter(|t| !t.terms.is_empty())
            .collect();
        if targets.is_empty() {
            return Range::unknown();
        }
        let mut result = Range::unknown();
        for comparison in facts {
            for left_side in [true, false] {
                let oriented = comparison.oriented(left_side);
                if oriented.relation == Relation::NotEqual {
                    continue;
                }
                let right = self.plain_range(oriented.right, depth + 1);
                // the bounds on the compared side, those of the kept bounds first
                let one = Sym::constant(1);
                let below = |h: &Sym| h.sub(&one);
                let above = |l: &Sym| l.add(&one);
                let uppers =
                    |shift: &dyn Fn(&Sym) -> Option<Sym>| -> Vec<(Option<Sym>, Option<Sym>)> {
                        right.upper_bounds().map(|h| (None, shift(h))).collect()
                    };
                let lowers =
                    |shift: &dyn Fn(&Sym) -> Option<Sym>| -> Vec<(Option<Sym>, Option<Sym>)> {
                        right.lower_bounds().map(|l| (shift(l), None)).collect()
                    };
                let mut sides: Vec<(Option<Sym>, Option<Sym>)> = match oriented.relation {
                    Relation::Less => uppers(&below),
                    Relation::LessEqual => uppers(&|h| Some(h.clone())),
                    Relation::Greater => lowers(&above),
                    Relation::GreaterEqual => lowers(&|l| Some(l.clone())),
                    Relation::Equal => {
                        let mut both_sides = vec![(right.lo.clone(), right.hi.clone())];
                        both_sides.extend(right.other_lo.iter().map(|l| (Some(l.clone()), None)));
                        both_sides.extend(right.other_hi.iter().map(|h| (None, Some(h.clone()))));
                        both_sides
                    }
                    Relation::NotEqual => continue,
                };
                // `q / d < R` bounds `q` by `R * d - 1`
                let mut compared = strip(oriented.left, source);
                for _ in 0..4 {
                    // `tid = tid / xextent; yidx = tid; if (yidx < yextent)`: the quotient a
                    // local holds on every path to the test
                    if let Some(quotient) = self.quotient_held(compared) {
                        compared = quotient;
                    }
                    if compared.node_kind() != "binary_expression"
                        || !matches!(operator(compared, source), "/" | ">>")
                    {
                        break;
                    }
                    let (Some(dividend), Some(divisor)) =
                        (compared.field("left"), compared.field("right"))
                    else {
                        break;
                    };
                    let divisor = self.plain_range(divisor, depth + 1);
                    let Some(d) = divisor.hi.clone() else { break };
                    let d = if operator(compared, source) == ">>" {
                        match d.as_constant() {
                            Some(shift) if (0..32).contains(&shift) => Sym::constant(1 << shift),
                            _ => break,
                        }
                    } else if divisor.is_nonnegative() {
                        d
                    } else {
                        break;
                    };
                    for (lo, hi) in &mut sides {
                        *hi = hi.take().and_then(|h| h.add(&one)?.mul(&d)?.sub(&one));
                        *lo = None;
                    }
                    compared = strip(dividend, source);
                }
                let solved = targets
                    .iter()
                    .zip([None, Some(self.context as &dyn RangeContext<'t>)])
                    .find_map(|(target, context)| {
                        Linear::of(compared, source, context, 0)?.solve_for(target)
                    });
                let Some((factor, rest)) = solved else {
                    continue;
                };
                // factor * target = compared - rest
                let rest = self.linear_range(&rest, depth);
                for (lo, hi) in sides {
                    let bound = if factor > 0 {
                        hi.as_ref()
                            .zip(rest.lo.as_ref())
                            .and_then(|(h, r)| h.sub(r))
                            .and_then(|h| h.divided_by(factor))
                    } else {
                        lo.as_ref()
                            .zip(rest.hi.as_ref())
                            .and_then(|(l, r)| r.sub(l))
                            .and_then(|h| h.divided_by(-factor))
                    };
                    let lower = if factor > 0 {
                        lo.as_ref()
                            .zip(rest.hi.as_ref())
                            .and_then(|(l, r)| l.sub(r))
                            .filter(|_| factor == 1)
                    } else {
                        None
                    };
                    result = result.meet(Range {
                        lo: lower,
                        hi: bound,
                        ..Range::default()
                    });
                }
            }
        }
        // what one comparison leaves open, two added together may close: `x < hi` with `hi`
        // chosen as `n - base` or `B` (under `base + B <= n`) bounds `base + x` by `n`
        // asked of locals, and of a difference of locals (`i - base` under `i < base + n`,
        // where the parts' own ranges lose that both move with the same block): a sum's parts
        // are read through the locals they name
        if (!result.is_bounded() || result.lo.is_none()) && self.read_as_sum(node) {
            result = result.meet(self.range_from_sums(node, facts, depth));
        }
        result
    }

    /// Whether `node` is a local, or a difference with a local on each side.
    fn read_as_sum(&self, node: Node<'t>) -> bool {
        let source = self.source();
        let node = strip(node, source);
        match node.node_kind() {
            "identifier" => true,
            "binary_expression" if operator(node, source) == "-" => {
                let local = |side: Option<Node<'t>>| {
                    side.is_some_and(|s| strip(s, source).node_kind() == "identifier")
                };
                local(node.field("left")) && local(node.field("right"))
            }
            _ => false,
        }
    }

    /// The range of `node` from the comparisons in force read as linear facts `f <= 0` (locals
    /// replaced by their single definitions), one at a time or two added together; a fact that
    /// compares with a choice `c ? a : b` is read once with each value, under `c` and under
    /// `!c`, and the two ranges joined.
    fn range_from_sums(&self, node: Node<'t>, facts: &[Comparison<'t>], depth: usize) -> Range {
        let left = self.budget.get();
        if facts.is_empty() || facts.len() > 16 || self.plain.get() || left < 64 {
            return Range::unknown();
        }
        self.budget.set(left - 64);
        let source = self.source();
        let Some(target) = Linear::of(node, source, Some(self.context as &dyn RangeContext<'t>), 0)
        else {
            return Range::unknown();
        };
        if target.terms.is_empty() {
            return Range::unknown();
        }
        let mut plain_forms: Vec<Linear<'t>> = Vec::new();
        let mut choices: Vec<Vec<Vec<Linear<'t>>>> = Vec::new();
        for fact in facts {
            let cases = self.cases_of(fact, true);
            if cases.len() > 1 && choices.len() < 4 {
                choices.push(cases);
            }
            plain_forms.extend(self.cases_of(fact, false).into_iter().flatten());
        }
        plain_forms.extend(self.starting_points(&target, depth));
        plain_forms.extend(self.last_values(&target));
        let mut result = self.bound_by_sums(&target, &plain_forms, depth);
        for cases in choices {
            let mut joined: Option<Range> = None;
            for case in cases {
                let mut forms = case;
                forms.extend(plain_forms.iter().cloned());
                let range = self.bound_by_sums(&target, &forms, depth);
                joined = Some(match joined {
                    None => range,
                    Some(so_far) => so_far.join(range),
                });
            }
            if let Some(range) = joined {
                result = result.meet(range);
            }
        }
        result
    }

    /// For each local of `target` that only grows from the one value it starts at (`for (i =
    /// start; ...; i += s)` with `s` at least 0), the fact `start - i <= 0`.
    fn starting_points(&self, target: &Linear<'t>, depth: usize) -> Vec<Linear<'t>> {
        let source = self.source();
        let mut forms = Vec::new();
        for (_, term) in &target.terms {
            let local = strip(term.node, source);
            if local.node_kind() != "identifier" {
                continue;
            }
            let Some((_, values)) = self.context.reaching(local) else {
                continue;
            };
            let (steps, starts): (Vec<Node<'t>>, Vec<Node<'t>>) = values
                .iter()
                .partition(|v| crate::model::reaching::updates_itself(**v, source));
            let [start] = starts.as_slice() else {
                continue;
            };
            if steps.is_empty()
                || !steps
                    .iter()
                    .all(|step| self.step_direction(*step, &[], depth) == Some(true))
            {
                continue;
            }
            let itself = Linear {
                constant: 0,
                terms: vec![(1, term.clone())],
            };
            if let Some(form) = Linear::of(
                *start,
                source,
                Some(self.context as &dyn RangeContext<'t>),
                0,
            )
            .and_then(|start| start.plus(&itself, -1))
            {
                forms.push(form);
            }
        }
        forms
    }

    /// For each loop counter of `target` read in its loop's body whose span is a multiple of
    /// its step (`last_stepped_value`), the fact `i + S - end <= 0`: added to a guard on `end`
    /// (`end < n`), it bounds `i` by `n - S - 1`, so a vector of `S` elements read at `i` ends
    /// inside `n`.
    fn last_values(&self, target: &Linear<'t>) -> Vec<Linear<'t>> {
        let source = self.source();
        let context = Some(self.context as &dyn RangeContext<'t>);
        let mut forms = Vec::new();
        for (_, term) in &target.terms {
            let Some((end, step)) = self.last_stepped_value(term.node) else {
                continue;
            };
            let itself = Linear {
                constant: step,
                terms: vec![(1, term.clone())],
            };
            if let Some(form) =
                Linear::of(end, source, context, 0).and_then(|end| itself.plus(&end, -1))
            {
                forms.push(form);
            }
        }
        forms
    }

    /// `comparison` as linear facts `f <= 0`: one case, or with `split`, two when one side holds
    /// a choice `c ? a : b` (each with the facts its test gives); none when a side is not linear.
    fn cases_of(&self, comparison: &Comparison<'t>, split: bool) -> Vec<Vec<Linear<'t>>> {
        let source = self.source();
        let context = Some(self.context as &dyn RangeContext<'t>);
        let (Some(left), Some(right)) = (
            Linear::of(comparison.left, source, context, 0),
            Linear::of(comparison.right, source, context, 0),
        ) else {
            return Vec::new();
        };
        let Some(difference) = left.plus(&right, -1) else {
            return Vec::new();
        };
        let choice = difference
            .terms
            .iter()
            .position(|(_, t)| strip(t.node, source).node_kind() == "conditional_expression");
        let Some(at) = choice.filter(|_| split) else {
            return vec![self.extremes_replaced(forms_of(difference, comparison.relation))];
        };
        let (factor, term) = difference.terms[at].clone();
        let chosen = strip(term.node, source);
        let (Some(test), Some(yes), Some(no)) = (
            chosen.field("condition"),
            chosen.field("consequence"),
            chosen.field("alternative"),
        ) else {
            return Vec::new();
        };
        let mut rest = difference.clone();
        rest.terms.remove(at);
        let mut cases = Vec::new();
        for (value, holds) in [(yes, true), (no, false)] {
            let Some(arm) =
                Linear::of(value, source, context, 0).and_then(|arm| rest.plus(&arm, factor))
            else {
                return Vec::new();
            };
            let mut forms = forms_of(arm, comparison.relation);
            let mut tested = Vec::new();
            crate::model::guards::comparisons(
                crate::model::guards::Condition { node: test, holds },
                source,
                &crate::model::guards::NoFlags,
                &mut tested,
                &mut Vec::new(),
            );
            for fact in tested.iter().take(4) {
                forms.extend(self.cases_of(fact, false).into_iter().flatten());
            }
            cases.push(self.extremes_replaced(forms));
        }
        cases
    }

    /// `x < min(a, b)` is both `x < a` and `x < b`: a fact `f <= 0` holding `k * min(a, b)` with
    /// `k < 0` (or `k * max(a, b)` with `k > 0`) stays true with either value in the choice's
    /// place, which only makes `f` smaller. Those forms are added to `forms`.
    fn extremes_replaced(&self, forms: Vec<Linear<'t>>) -> Vec<Linear<'t>> {
        let source = self.source();
        let mut all = forms.clone();
        for form in &forms {
            for (at, (coefficient, term)) in form.terms.iter().enumerate() {
                let Some((smaller, arguments)) = extreme_of(term.node, source) else {
                    continue;
                };
                if (smaller && *coefficient >= 0) || (!smaller && *coefficient <= 0) {
                    continue;
                }
                let mut rest = form.clone();
                rest.terms.remove(at);
                for argument in arguments {
                    all.extend(
                        Linear::of(
                            argument,
                            source,
                            Some(self.context as &dyn RangeContext<'t>),
                            0,
                        )
                        .and_then(|value| rest.plus(&value, *coefficient)),
                    );
                }
            }
            if all.len() > 16 {
                break;
            }
        }
        all
    }

    /// The bounds on `target` that the facts `f <= 0` give, alone or added in pairs: `target +
    /// rest <= 0` bounds it by `-rest`, `rest - target <= 0` from below by `rest`.
    fn bound_by_sums(&self, target: &Linear<'t>, forms: &[Linear<'t>], depth: usize) -> Range {
        let mut result = Range::unknown();
        let forms = &forms[..forms.len().min(24)];
        // a pair of facts read costs as an expression does
        let pairs = forms.len() * (forms.len() + 1) / 2;
        let left = self.budget.get();
        if left < pairs {
            return result;
        }
        self.budget.set(left - pairs);
        let mut consider = |form: &Linear<'t>| {
            let Some((factor, rest)) = form.solve_for(target) else {
                return;
            };
            let rest = self.linear_range(&rest, depth);
            let found = match factor {
                1 => Range {
                    lo: None,
                    hi: rest.lo.and_then(|l| l.negate()),
                    ..Range::default()
                },
                -1 => Range {
                    lo: rest.lo,
                    hi: None,
                    ..Range::default()
                },
                _ => return,
            };
            result = std::mem::take(&mut result).meet(found);
        };
        for (i, first) in forms.iter().enumerate() {
            consider(first);
            for second in &forms[i + 1..] {
                if let Some(sum) = first.plus(second, 1) {
                    consider(&sum);
                }
            }
        }
        result
    }

    /// The range of a linear form's terms with no facts (they are the rest of a compared sum).
    fn linear_range(&self, form: &Linear<'t>, depth: usize) -> Range {
        let mut total = Range::exactly(Sym::constant(form.constant));
        for (coefficient, term) in &form.terms {
            let range = multiply(
                &self.plain_range(term.node, depth + 1),
                &Range::exactly(Sym::constant(*coefficient)),
            );
            total = Range {
                lo: both(&total.lo, &range.lo, Sym::add),
                hi: both(&total.hi, &range.hi, Sym::add),
                ..Range::default()
            };
        }
        total
    }
}

/// `min(a, b)` (true) or `max(a, b)` (false), with its two values.
fn extreme_of<'t>(node: Node<'t>, source: &str) -> Option<(bool, [Node<'t>; 2])> {
    let node = strip(node, source);
    if node.node_kind() != "call_expression" {
        return None;
    }
    let name = text(node.field("function")?, source);
    let short = name.rsplit("::").next().unwrap_or(name);
    let short = short.split('<').next().unwrap_or(short).trim();
    let smaller = match short {
        "min" | "umin" | "imin" | "llmin" | "ullmin" | "__min" | "MIN" => true,
        "max" | "umax" | "imax" | "llmax" | "ullmax" | "__max" | "MAX" => false,
        _ => return None,
    };
    let mut arguments =
        named_children(node.field("arguments")?).filter(|c| c.node_kind() != "comment");
    let values = [arguments.next()?, arguments.next()?];
    arguments.next().is_none().then_some((smaller, values))
}

/// `difference relation 0` as facts `f <= 0` on integers.
fn forms_of<'t>(difference: Linear<'t>, relation: Relation) -> Vec<Linear<'t>> {
    let negated = |mut form: Linear<'t>| {
        form.constant = -form.constant;
        for (coefficient, _) in &mut form.terms {
            *coefficient = -*coefficient;
        }
        form
    };
    let plus_one = |mut form: Linear<'t>| {
        form.constant += 1;
        form
    };
    match relation {
        Relation::Less => vec![plus_one(difference)],
        Relation::LessEqual => vec![difference],
        Relation::Greater => vec![plus_one(negated(difference))],
        Relation::GreaterEqual => vec![negated(difference)],
        Relation::Equal => vec![difference.clone(), negated(difference)],
        Relation::NotEqual => Vec::new(),
    }
}

/// The tests a definition of the local read at `use_` passed to get there: for each `if` with
/// no `else` between the two whose branch replaces the local (`if (i > m - 1) i = m - 1;`), the
/// path that kept `value` is the one where the test failed.
pub fn skipped_replacements<'t>(
    value: Node<'t>,
    use_: Node<'t>,
    source: &str,
) -> Vec<crate::model::guards::Condition<'t>> {
    let name = text(use_, source);
    let mut conditions = Vec::new();
    let defined_at = value.end_byte();
    let mut node = use_;
    for _ in 0..crate::syntax::MAX_DEPTH {
        let Some(parent) = node.up() else { break };
        if parent.node_kind() == "compound_statement" {
            for statement in named_children(parent) {
                if statement.start_byte() >= node.start_byte() {
                    break;
                }
                if statement.start_byte() < defined_at
                    || statement.node_kind() != "if_statement"
                    || statement.field("alternative").is_some()
                {
                    continue;
                }
                let replaces = statement
                    .field("consequence")
                    .is_some_and(|body| assigns_directly(body, name, source));
                if let (true, Some(condition)) = (replaces, statement.field("condition")) {
                    conditions.push(crate::model::guards::Condition {
                        node: condition,
                        holds: false,
                    });
                }
            }
        }
        if parent.node_kind() == "function_definition" {
            break;
        }
        node = parent;
    }
    conditions
}

/// Whether `body` (a statement or a block) always runs `name = ...` at its top level.
fn assigns_directly(body: Node, name: &str, source: &str) -> bool {
    let statements: Vec<Node> = if body.node_kind() == "compound_statement" {
        named_children(body).collect()
    } else {
        vec![body]
    };
    statements.into_iter().any(|statement| {
        statement.node_kind() == "expression_statement"
            && statement.named_child(0).is_some_and(|e| {
                e.node_kind() == "assignment_expression"
                    && operator(e, source) == "="
                    && e.field("left")
                        .is_some_and(|l| text(strip(l, source), source) == name)
            })
    })
}
