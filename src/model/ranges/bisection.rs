//! Binary search: the midpoint a bisection loop probes stays between the bounds it started
//! with. In `while (lo < hi) { mid = (lo + hi) / 2; ... lo = mid + 1; ... hi = mid; }` the
//! lower bound only rises and the upper only falls, so every `mid` lies in `[lo₀, hi₀ - 1]`
//! (`[lo₀, hi₀]` under `lo <= hi`). Read on its own because the bounds are defined in terms of
//! the midpoint and the midpoint in terms of them: followed as definitions, they are a cycle.

use super::*;

/// A loop that halves `[lo, hi]`: its test, and the names of its two bounds.
struct Bisection<'t> {
    loop_statement: Node<'t>,
    lower: Node<'t>,
    upper: Node<'t>,
    strict: bool,
}

impl<'c, 't, C: RangeContext<'t>> Ranges<'c, 't, C> {
    /// The range of `value`, the definition of a local, when it is the midpoint of the bounds
    /// of a bisection loop around it: from the lower bound's starting values to the upper's.
    pub(super) fn bisection_midpoint(&self, value: Node<'t>, depth: usize) -> Option<Range> {
        let source = self.source();
        let value = strip(value, source);
        let (a, b, floors) = midpoint_of(value, source)?;
        let midpoint = defined_name(value, source)?;
        let search = std::iter::successors(value.up(), |n| n.up())
            .take_while(|n| n.node_kind() != "function_definition")
            .filter(|n| matches!(n.node_kind(), "while_statement" | "for_statement"))
            .find_map(|candidate| bisection_around(candidate, a, b, source))?;
        if !moves_only_to(&search, &midpoint, value, source) {
            return None;
        }
        // the values the bounds enter the loop with; a `for` declares them in its header
        let inside = |v: &Node<'t>| {
            ["body", "update"].into_iter().any(|part| {
                search
                    .loop_statement
                    .field(part)
                    .is_some_and(|p| crate::syntax::encloses(p, *v))
            })
        };
        let starting = |bound: Node<'t>| -> Option<Range> {
            let (_, values) = self.context.reaching(bound)?;
            let mut joined: Option<Range> = None;
            for start in values.into_iter().filter(|v| !inside(v)) {
                let facts = self.context.facts_at_definition(start, &[]);
                let range = self.range_at(start, &facts, depth + 1);
                joined = Some(match joined {
                    None => range,
                    Some(so_far) => so_far.join(range),
                });
            }
            joined
        };
        let lower = starting(search.lower)?.lo;
        let upper = starting(search.upper)?.hi;
        // `(lo + hi) / 2` rounds toward zero, up for a negative sum; `>> 1` always rounds down
        let rounds_down = floors
            || lower
                .as_ref()
                .is_some_and(|lo| Sym::constant(0).at_most(lo));
        let hi = match upper {
            Some(hi) if search.strict && rounds_down => hi.sub(&Sym::constant(1)),
            other => other,
        };
        Some(Range {
            lo: lower,
            hi,
            ..Range::default()
        })
    }
}

/// `(a + b) / 2`, `(a + b) >> 1`, `a + (b - a) / 2` or `a + ((b - a) >> 1)` over two names: the
/// two, and whether the halving is a shift (which rounds down whatever the sign).
fn midpoint_of<'t>(value: Node<'t>, source: &str) -> Option<(Node<'t>, Node<'t>, bool)> {
    let halved = |node: Node<'t>| -> Option<(Node<'t>, bool)> {
        let node = strip(node, source);
        if node.node_kind() != "binary_expression" {
            return None;
        }
        let shift = match (
            operator(node, source),
            text(strip(node.field("right")?, source), source),
        ) {
            ("/", "2") => false,
            (">>", "1") => true,
            _ => return None,
        };
        Some((strip(node.field("left")?, source), shift))
    };
    let two_names = |node: Node<'t>, op: &str| -> Option<(Node<'t>, Node<'t>)> {
        if node.node_kind() != "binary_expression" || operator(node, source) != op {
            return None;
        }
        let left = strip(node.field("left")?, source);
        let right = strip(node.field("right")?, source);
        (left.node_kind() == "identifier" && right.node_kind() == "identifier")
            .then_some((left, right))
    };
    if let Some((sum, shift)) = halved(value) {
        let (a, b) = two_names(sum, "+")?;
        return Some((a, b, shift));
    }
    if value.node_kind() != "binary_expression" || operator(value, source) != "+" {
        return None;
    }
    let left = strip(value.field("left")?, source);
    let right = strip(value.field("right")?, source);
    [(left, right), (right, left)]
        .into_iter()
        .find_map(|(base, half)| {
            let (difference, shift) = halved(half)?;
            let (top, bottom) = two_names(difference, "-")?;
            (base.node_kind() == "identifier" && text(bottom, source) == text(base, source))
                .then_some((base, top, shift))
        })
}

/// The name a definition is stored in: `int mid = value` or `mid = value`.
fn defined_name<'t>(value: Node<'t>, source: &str) -> Option<String> {
    let mut holder = value.up()?;
    while holder.node_kind() == "parenthesized_expression" {
        holder = holder.up()?;
    }
    let name = match holder.node_kind() {
        "init_declarator" => holder.field("declarator")?,
        "assignment_expression" if operator(holder, source) == "=" => holder.field("left")?,
        _ => return None,
    };
    (name.node_kind() == "identifier").then(|| text(name, source).to_string())
}

/// `loop_statement` as a bisection over `a` and `b`: its test compares the two (alone or as
/// one side of `&&`), the smaller side first.
fn bisection_around<'t>(
    loop_statement: Node<'t>,
    a: Node<'t>,
    b: Node<'t>,
    source: &str,
) -> Option<Bisection<'t>> {
    let condition = crate::syntax::condition_value(loop_statement.field("condition")?);
    let names = [text(a, source), text(b, source)];
    let mut pending = vec![strip(condition, source)];
    while let Some(test) = pending.pop() {
        if test.node_kind() != "binary_expression" {
            continue;
        }
        let op = operator(test, source);
        let (Some(left), Some(right)) = (test.field("left"), test.field("right")) else {
            continue;
        };
        let (left, right) = (strip(left, source), strip(right, source));
        if op == "&&" {
            pending.extend([left, right]);
            continue;
        }
        let (lower, upper, strict) = match op {
            "<" => (left, right, true),
            "<=" => (left, right, false),
            ">" => (right, left, true),
            ">=" => (right, left, false),
            _ => continue,
        };
        let (low, high) = (text(lower, source), text(upper, source));
        if lower.node_kind() == "identifier"
            && upper.node_kind() == "identifier"
            && low != high
            && names.contains(&low)
            && names.contains(&high)
        {
            return Some(Bisection {
                loop_statement,
                lower,
                upper,
                strict,
            });
        }
    }
    None
}

/// Whether, inside the loop, the lower bound is only ever set to the midpoint or one past it and
/// the upper bound to the midpoint or one before it, and the midpoint is set only by
/// `definition`: the lower never falls, the upper never rises, and neither is declared anew.
fn moves_only_to(search: &Bisection, midpoint: &str, definition: Node, source: &str) -> bool {
    let lower = text(search.lower, source);
    let upper = text(search.upper, source);
    let mut allowed = true;
    crate::syntax::walk_iterative(search.loop_statement, |node| {
        if !allowed {
            return false;
        }
        match node.node_kind() {
            "update_expression" | "assignment_expression" => {
                let Some(target) = crate::syntax::assigned_target(node) else {
                    return true;
                };
                let target = text(strip(target, source), source);
                if target == midpoint {
                    allowed = node.field("right").map(|r| strip(r, source)) == Some(definition);
                    return true;
                }
                if target != lower && target != upper {
                    return true;
                }
                let moved = node.node_kind() == "assignment_expression"
                    && operator(node, source) == "="
                    && crate::syntax::stored_value(node, source)
                        .is_some_and(|v| steps_from(v, midpoint, target == lower, source));
                allowed = moved;
            }
            "init_declarator" | "declaration" => {
                if let Some(name) = node
                    .field("declarator")
                    .and_then(crate::syntax::declarator_name)
                {
                    let name = text(name, source);
                    allowed = (name != lower && name != upper)
                        && (name != midpoint
                            || node.field("value").map(|v| strip(v, source)) == Some(definition)
                            || node.node_kind() == "declaration");
                }
            }
            "pointer_expression" if operator(node, source) == "&" => {
                if let Some(argument) = node.field("argument") {
                    let name = text(strip(argument, source), source);
                    allowed = name != lower && name != upper && name != midpoint;
                }
            }
            _ => {}
        }
        true
    });
    allowed
}

/// `mid`, or `mid + 1` for the lower bound, `mid - 1` for the upper.
fn steps_from(value: Node, midpoint: &str, lower: bool, source: &str) -> bool {
    let value = strip(value, source);
    if value.node_kind() == "identifier" {
        return text(value, source) == midpoint;
    }
    if value.node_kind() != "binary_expression" {
        return false;
    }
    let (Some(left), Some(right)) = (value.field("left"), value.field("right")) else {
        return false;
    };
    let step = if lower { "+" } else { "-" };
    operator(value, source) == step
        && text(strip(left, source), source) == midpoint
        && text(strip(right, source), source) == "1"
}
