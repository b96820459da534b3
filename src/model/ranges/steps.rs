//! Locals stepped in place (`i++`, `off += k`): whether a step runs once, the range right
//! after it, the most a counted loop's steps add, and which way a step moves. Separate because
//! a step is read against the loops around it, not against the expression's shape.

use super::*;

impl<'c, 't, C: RangeContext<'t>> Ranges<'c, 't, C> {
    /// Whether the in-place update whose target is `value` (`y++`, `off += k`) runs at most once
    /// between the definitions that reach it and any later use: it sits in no loop, or each loop
    /// around it also holds every definition reaching the update (`int y = b; if (y >= x) y++;`
    /// in a loop body starts again from `b` on each trip).
    pub(super) fn single_step(&self, value: Node<'t>) -> bool {
        let Some((target, _)) = update_of(value) else {
            return false;
        };
        let Some((_, before)) = self.context.reaching(target) else {
            return false;
        };
        if before.is_empty() {
            return false;
        }
        let mut node = value;
        while let Some(parent) = node.up() {
            match parent.node_kind() {
                "function_definition" | "lambda_expression" => return true,
                "for_statement" | "while_statement" | "do_statement" | "for_range_loop" => {
                    // defined again in the body on every trip (a `for` header's initializer
                    // runs once, its update on every trip)
                    let Some(body) = parent.field("body") else {
                        return false;
                    };
                    let inside = |v: &Node<'t>| {
                        body.start_byte() <= v.start_byte() && v.end_byte() <= body.end_byte()
                    };
                    if !before.iter().all(inside) {
                        return false;
                    }
                }
                _ => {}
            }
            node = parent;
        }
        true
    }

    /// The range of a local right after the single update whose target is `value`: its range
    /// before the update plus (or minus) the step's.
    pub(super) fn after_step(
        &self,
        value: Node<'t>,
        facts: &[Comparison<'t>],
        depth: usize,
    ) -> Range {
        let source = self.source();
        let Some((target, update)) = update_of(value) else {
            return Range::unknown();
        };
        // the reaching definitions at the target are those before the update
        let before = self.range_at(target, facts, depth + 1);
        let step = match update.node_kind() {
            "update_expression" => {
                let op = text(update, source);
                if op.contains("++") {
                    Range::exactly(Sym::constant(1))
                } else if op.contains("--") {
                    Range::exactly(Sym::constant(-1))
                } else {
                    return Range::unknown();
                }
            }
            "assignment_expression" => {
                let Some(right) = update.field("right") else {
                    return Range::unknown();
                };
                let amount = self.range_at(right, facts, depth + 1);
                match operator(update, source) {
                    "+=" => amount,
                    "-=" => Range {
                        lo: amount.hi.and_then(|h| h.negate()),
                        hi: amount.lo.and_then(|l| l.negate()),
                        ..Range::default()
                    },
                    _ => return Range::unknown(),
                }
            }
            _ => return Range::unknown(),
        };
        Range {
            lo: both(&before.lo, &step.lo, Sym::add),
            hi: both(&before.hi, &step.hi, Sym::add),
            ..Range::default()
        }
    }

    /// For an in-place step that only increases the local (`++`, `+= s` with `s` at least 0)
    /// inside a counted loop (`for (int p = A; p < B; p++)`, the counter changed nowhere else,
    /// the step in no loop nested inside it), the most the steps add by the time of `use_`:
    /// `(B - A) * s`, one step fewer when `use_` sits in the loop's body before the step. Each
    /// loop further out must define the local again on every trip, as `single_step` asks.
    pub(super) fn counted_steps(
        &self,
        value: Node<'t>,
        use_: Node<'t>,
        facts: &[Comparison<'t>],
        depth: usize,
    ) -> Option<Sym> {
        let source = self.source();
        let (target, update) = update_of(value)?;
        let step = match update.node_kind() {
            "update_expression" if text(update, source).contains("++") => Sym::constant(1),
            "assignment_expression" if operator(update, source) == "+=" => {
                let amount = self.range_at(update.field("right")?, facts, depth + 1);
                if !amount.is_nonnegative() {
                    return None;
                }
                amount.hi?
            }
            _ => return None,
        };
        let (_, before) = self.context.reaching(target)?;
        let starts: Vec<Node<'t>> = before
            .into_iter()
            .filter(|v| !crate::model::reaching::updates_itself(*v, source))
            .collect();
        if starts.is_empty() {
            return None;
        }
        // the loop around the step, and the loops around that one
        let mut counted: Option<(Node<'t>, Sym)> = None;
        let mut node = update;
        while let Some(parent) = node.up() {
            match parent.node_kind() {
                "function_definition" | "lambda_expression" => break,
                "for_statement" | "while_statement" | "do_statement" | "for_range_loop" => {
                    let body = parent.field("body")?;
                    if counted.is_none() {
                        counted = Some((parent, self.trip_count(parent, depth)?));
                    } else if !starts.iter().all(|v| {
                        body.start_byte() <= v.start_byte() && v.end_byte() <= body.end_byte()
                    }) {
                        return None;
                    }
                }
                _ => {}
            }
            node = parent;
        }
        let (looped, trips) = counted?;
        let body = looped.field("body")?;
        let before_the_step =
            body.start_byte() <= use_.start_byte() && use_.end_byte() <= update.start_byte();
        let trips = if before_the_step {
            trips.sub(&Sym::constant(1))?
        } else {
            trips
        };
        trips.mul(&step)
    }

    /// The number of trips of `for (int p = A; p < B; p++)` (or `p <= B`, `++p`, `p += 1`) whose
    /// counter its body never assigns: `B - A` from the range of each; None for other loops.
    fn trip_count(&self, looped: Node<'t>, depth: usize) -> Option<Sym> {
        let source = self.source();
        let (counter, start) = counter_and_start(looped, source)?;
        let update = strip(looped.field("update")?, source);
        let steps_by_one = match update.node_kind() {
            "update_expression" => text(update, source).contains("++"),
            "assignment_expression" => {
                operator(update, source) == "+="
                    && update
                        .field("right")
                        .is_some_and(|r| text(r, source).trim() == "1")
            }
            _ => false,
        };
        let updated = update
            .field("argument")
            .or_else(|| update.field("left"))
            .map(|t| text(strip(t, source), source));
        if !steps_by_one || updated != Some(counter.as_str()) {
            return None;
        }
        let condition = strip(looped.field("condition")?, source);
        if condition.node_kind() != "binary_expression" {
            return None;
        }
        let (left, right) = (condition.field("left")?, condition.field("right")?);
        let names = |n: Node| text(strip(n, source), source) == counter;
        let (limit, inclusive) = match operator(condition, source) {
            "<" if names(left) => (right, false),
            "<=" if names(left) => (right, true),
            ">" if names(right) => (left, false),
            ">=" if names(right) => (left, true),
            _ => return None,
        };
        // the body never sets the counter itself
        if assigns_any(looped.field("body")?, &[counter.as_str()], source) {
            return None;
        }
        let lo = self.plain_range(start, depth + 1).lo?;
        let hi = self.plain_range(limit, depth + 1).hi?;
        let trips = hi.sub(&lo)?;
        let trips = if inclusive {
            trips.add(&Sym::constant(1))?
        } else {
            trips
        };
        trips.is_nonnegative().then_some(trips)
    }

    /// The last value a loop's counter takes in its body, as the fact `counter <= end - S`: for
    /// `use_`, a read of the counter in the body of `for (i = start; i < end; i += S)` whose
    /// span `end - start` is a multiple of the constant step `S` (`end = start + 32` with `S =
    /// 4`, or both multiples of `S`), the counter runs `start, start + S, ...` and stops at
    /// `end - S`, not at `end - 1`: what lets a guard on `end` cover a vector of `S` elements
    /// read at `i`. Returns `end` and `S`. None when the body or the update may move the
    /// counter or `end` (it must name the same value on every trip), when `end` reads memory or
    /// calls a function, or when the span is not known to be a multiple (`end = n`).
    pub(super) fn last_stepped_value(&self, use_: Node<'t>) -> Option<(Node<'t>, i128)> {
        let source = self.source();
        let use_ = strip(use_, source);
        if use_.node_kind() != "identifier" {
            return None;
        }
        let name = text(use_, source);
        // the nearest loop around the use whose counter this is, the use in its body
        let mut node = use_;
        let mut found = None;
        for _ in 0..crate::syntax::MAX_DEPTH {
            let Some(parent) = node.up() else { break };
            match parent.node_kind() {
                "function_definition" | "lambda_expression" => break,
                "for_statement"
                    if parent.field("body") == Some(node)
                        && counter_and_start(parent, source).is_some_and(|(c, _)| c == name) =>
                {
                    found = Some(parent);
                    break;
                }
                _ => {}
            }
            node = parent;
        }
        let looped = found?;
        let (_, start) = counter_and_start(looped, source)?;
        let update = strip(looped.field("update")?, source);
        if update.node_kind() != "assignment_expression"
            || operator(update, source) != "+="
            || update
                .field("left")
                .is_none_or(|l| text(strip(l, source), source) != name)
        {
            return None;
        }
        let step = strip(update.field("right")?, source);
        let step = match step.node_kind() {
            "number_literal" => crate::model::size::parse_number(text(step, source)),
            _ => self.context.constant(step),
        }
        .filter(|s| *s > 1)?;
        let condition = strip(looped.field("condition")?, source);
        if condition.node_kind() != "binary_expression" {
            return None;
        }
        let (left, right) = (condition.field("left")?, condition.field("right")?);
        let names = |n: Node| text(strip(n, source), source) == name;
        let end = match operator(condition, source) {
            "<" if names(left) => right,
            ">" if names(right) => left,
            _ => return None,
        };
        // `end` names the same value on every trip: plain arithmetic on names that neither the
        // body nor the update assigns, and none of them the counter
        let mut names_in_end: Vec<&str> = Vec::new();
        let mut plain = true;
        crate::syntax::walk_iterative(end, |n| {
            match n.node_kind() {
                "identifier" => names_in_end.push(text(n, source)),
                "call_expression"
                | "subscript_expression"
                | "pointer_expression"
                | "assignment_expression"
                | "update_expression" => plain = false,
                _ => {}
            }
            plain
        });
        if !plain || names_in_end.contains(&name) {
            return None;
        }
        let mut moved = names_in_end.clone();
        moved.push(name);
        if assigns_any(looped.field("body")?, &moved, source)
            || assigns_any(update.field("right")?, &moved, source)
            || assigns_any(condition, &moved, source)
        {
            return None;
        }
        // the use reads the loop's own counter: the start or the loop's step reach it, nothing
        // else (a local of the body by the same name does not)
        let (_, reaching) = self.context.reaching(use_)?;
        let initializer = looped.field("initializer")?;
        let own = |v: &Node<'t>| {
            crate::syntax::encloses(initializer, *v) || crate::syntax::encloses(update, *v)
        };
        if reaching.is_empty() || !reaching.iter().all(own) {
            return None;
        }
        let context = Some(self.context as &dyn RangeContext<'t>);
        let span = Linear::of(end, source, context, 0)?
            .plus(&Linear::of(start, source, context, 0)?, -1)?;
        // a named constant in the span (`start + kChunk`) counts by its value
        let mut constant = span.constant;
        let mut multiple = true;
        for (coefficient, term) in &span.terms {
            match self.context.constant(term.node) {
                Some(value) => constant = constant.checked_add(coefficient.checked_mul(value)?)?,
                None => multiple &= coefficient % step == 0,
            }
        }
        (multiple && constant % step == 0).then_some((end, step))
    }

    /// Whether the in-place update at `value` only increases the local (`++`, `+= s` with `s`
    /// at least 0): Some(true); only decreases it: Some(false).
    pub(super) fn step_direction(
        &self,
        value: Node<'t>,
        facts: &[Comparison<'t>],
        depth: usize,
    ) -> Option<bool> {
        let source = self.source();
        let parent = value.up()?;
        match parent.node_kind() {
            "update_expression" => {
                let op = text(parent, source);
                Some(op.contains("++")).filter(|_| op.contains("++") || op.contains("--"))
            }
            "assignment_expression" => {
                let step = self.range_at(parent.field("right")?, facts, depth + 1);
                match operator(parent, source) {
                    "+=" | "*=" | "<<=" if step.is_nonnegative() => Some(true),
                    "-=" if step.is_nonnegative() => Some(false),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// For the value recorded for an update in place (its target, or the right-hand side of a
/// compound assignment), the target read and the update: `(y, y++)`, `(off, off += k)`.
pub(crate) fn update_of(value: Node) -> Option<(Node, Node)> {
    let update = value.up()?;
    let target = match update.node_kind() {
        "update_expression" => update.field("argument")?,
        "assignment_expression" => update.field("left")?,
        _ => return None,
    };
    (target.node_kind() == "identifier").then_some((target, update))
}

/// The counter of `for (i = start; ...)` (a declaration or an assignment) and its start.
fn counter_and_start<'t>(looped: Node<'t>, source: &str) -> Option<(String, Node<'t>)> {
    if looped.node_kind() != "for_statement" {
        return None;
    }
    let initializer = looped.field("initializer")?;
    let (counter, start) = match initializer.node_kind() {
        "declaration" => {
            let declarator =
                named_children(initializer).find(|c| c.node_kind() == "init_declarator")?;
            (declarator.field("declarator")?, declarator.field("value")?)
        }
        "assignment_expression" if operator(initializer, source) == "=" => {
            (initializer.field("left")?, initializer.field("right")?)
        }
        _ => return None,
    };
    // `int p(0)`, `int p{0}`: initialised directly
    let start = match start.node_kind() {
        "argument_list" | "initializer_list" if start.named_child_count() == 1 => {
            start.named_child(0)?
        }
        _ => start,
    };
    Some((text(strip(counter, source), source).to_string(), start))
}

/// Whether anything in `node` assigns one of `names` (`x = ...`, `x += ...`, `x++`).
fn assigns_any(node: Node, names: &[&str], source: &str) -> bool {
    let mut assigned = false;
    crate::syntax::walk_iterative(node, |n| {
        assigned |= crate::syntax::assigned_target(n)
            .is_some_and(|t| names.contains(&text(strip(t, source), source)));
        !assigned
    });
    assigned
}
