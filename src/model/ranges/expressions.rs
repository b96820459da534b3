//! Reading an expression into a range by its shape: literals, the thread and block indices,
//! names followed to the definitions that reach them, operators, and `min`/`max` calls. The
//! facts in force and in-place steps are read in their own files.

use super::*;
use crate::model::helper_values::{HelperValue, Operation};

impl<'c, 't, C: RangeContext<'t>> Ranges<'c, 't, C> {
    /// The range from the expression's own shape.
    pub(super) fn structural(
        &self,
        node: Node<'t>,
        facts: &[Comparison<'t>],
        depth: usize,
    ) -> Range {
        let source = self.source();
        match node.node_kind() {
            "number_literal" => match crate::model::size::parse_number(text(node, source)) {
                Some(value) => Range::exactly(Sym::constant(value)),
                None => Range::unknown(),
            },
            "true" => Range::exactly(Sym::constant(1)),
            "false" => Range::exactly(Sym::constant(0)),
            "sizeof_expression" => Range::exactly(Sym::atom(&normalized(node, source))),
            "field_expression" => self.field(node),
            // a `type_identifier` is a name the grammar read as a type (`cols` in `tid < cols >> 1`)
            "identifier" | "qualified_identifier" | "type_identifier" => {
                self.name(node, facts, depth)
            }
            "binary_expression" => self.binary(node, facts, depth),
            "unary_expression" => {
                let Some(argument) = node.field("argument") else {
                    return Range::unknown();
                };
                match operator(node, source) {
                    "-" => {
                        let inner = self.range_at(argument, facts, depth + 1);
                        inner.negated()
                    }
                    "+" => self.range_at(argument, facts, depth + 1),
                    "!" => Range::between(Sym::constant(0), Sym::constant(1)),
                    _ => Range::unknown(),
                }
            }
            "conditional_expression" => {
                let (Some(condition), Some(yes), Some(no)) = (
                    node.field("condition"),
                    node.field("consequence"),
                    node.field("alternative"),
                ) else {
                    return Range::unknown();
                };
                let with = |holds: bool| {
                    let mut extended = facts.to_vec();
                    crate::model::guards::comparisons(
                        crate::model::guards::Condition {
                            node: condition,
                            holds,
                        },
                        source,
                        &crate::model::guards::NoFlags,
                        &mut extended,
                        &mut Vec::new(),
                    );
                    extended
                };
                self.range_at(yes, &with(true), depth + 1)
                    .join(self.range_at(no, &with(false), depth + 1))
            }
            "call_expression" => self.call(node, facts, depth),
            _ => self.opaque(node),
        }
    }

    /// A value whose shape says nothing of its size. A load from an address the whole block
    /// shares (`order[blockIdx.x / 2]`, `*count`) is a given of the launch, as a parameter is,
    /// and stands for itself. Anything else, an unknown function above all (`lane_id()` may
    /// read `threadIdx` in a body out of sight), is unknown.
    fn opaque(&self, node: Node<'t>) -> Range {
        let load = match node.node_kind() {
            "subscript_expression" => true,
            "pointer_expression" => operator(node, self.source()) == "*",
            _ => false,
        };
        if load
            && self.context.is_uniform(node)
            && !named_children(node).any(|part| self.context.varies_within_block(part))
        {
            Range::exactly(Sym::atom(&normalized(node, self.source())))
        } else {
            Range::unknown()
        }
    }

    /// `threadIdx.x`, `blockIdx.x`, `blockDim.x`, `gridDim.x`, or a field of a uniform value.
    fn field(&self, node: Node<'t>) -> Range {
        let source = self.source();
        let argument = node
            .field("argument")
            .map(|a| text(a, source))
            .unwrap_or("");
        let field = node.field("field").map(|f| text(f, source)).unwrap_or("");
        if matches!(argument, "threadIdx" | "blockIdx" | "gridDim" | "blockDim")
            && matches!(field, "x" | "y" | "z")
        {
            return self.launch_value(argument, field);
        }
        if self.context.is_uniform(node) {
            Range::exactly(Sym::atom(&normalized(node, source)))
        } else {
            Range::unknown()
        }
    }

    /// The range of a launch coordinate or dimension (`threadIdx.x`, `gridDim.y`).
    fn launch_value(&self, argument: &str, field: &str) -> Range {
        let axis = match field {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ => 3,
        };
        match argument {
            "threadIdx" if axis < 3 => {
                let block = self
                    .context
                    .block_dim(axis)
                    .unwrap_or_else(|| Sym::atom(&format!("blockDim.{field}")));
                let hi = match self.context.block_limit(axis) {
                    Some(limit) => Sym::constant(limit - 1),
                    None => block.sub(&Sym::constant(1)).unwrap_or(block),
                };
                let mut range = Range::between(Sym::constant(0), hi);
                // whatever the launch, a block is at most 1024 threads wide on `x` and `y` and
                // 64 deep on `z`: `threadIdx.x >= n` is taken by none where `n` is 1 << 24
                if range
                    .hi
                    .as_ref()
                    .is_none_or(|hi| hi.as_constant().is_none())
                {
                    range.other_hi.push(Sym::constant(MAX_BLOCK[axis] - 1));
                }
                range
            }
            "blockIdx" if axis < 3 => {
                let grid = self
                    .context
                    .grid_dim(axis)
                    .unwrap_or_else(|| Sym::atom(&format!("gridDim.{field}")));
                Range::between(
                    Sym::constant(0),
                    grid.sub(&Sym::constant(1)).unwrap_or(grid),
                )
            }
            "gridDim" if axis < 3 => Range::exactly(
                self.context
                    .grid_dim(axis)
                    .unwrap_or_else(|| Sym::atom(&format!("gridDim.{field}"))),
            ),
            "blockDim" if axis < 3 => {
                let block = self
                    .context
                    .block_dim(axis)
                    .unwrap_or_else(|| Sym::atom(&format!("blockDim.{field}")));
                match self.context.block_limit(axis) {
                    Some(limit) => Range::between(Sym::constant(1), Sym::constant(limit)),
                    None => Range::exactly(block),
                }
            }
            _ => Range::unknown(),
        }
    }

    /// A name: a uniform value stands for itself; a local is what its reaching definitions give.
    fn name(&self, node: Node<'t>, facts: &[Comparison<'t>], depth: usize) -> Range {
        let source = self.source();
        let Some((key, values)) = self.context.reaching(node) else {
            if !self.context.is_uniform(node) {
                return Range::unknown();
            }
            let mut range = Range::exactly(Sym::atom(&normalized(node, source)));
            // a parameter every launch passes a constant for is at least the least of them; the
            // name stays the kept bound, for the tests written in it. Not bounded above by the
            // greatest: a constant upper bound would be kept over `n - 1` under `i < n`, and a
            // tail past `n` would be measured against one launch's value instead of the size
            if let Some(least) = self.context.least_passed_constant(text(node, source)) {
                range.other_lo.push(Sym::constant(least));
            }
            return range;
        };
        if self.context.is_uniform(node) && values.len() == 1 {
            if let Some(value) =
                crate::model::size::parse_number(text(strip(values[0], source), source))
            {
                return Range::exactly(Sym::constant(value));
            }
        }
        if values.is_empty() || self.following.borrow().contains(&key) {
            return Range::unknown();
        }
        self.following.borrow_mut().push(key);
        let mut joined: Option<Range> = None;
        for value in values {
            let at_definition = if self.plain.get() {
                Vec::new()
            } else {
                self.context.facts_at_definition(value, facts)
            };
            let mut range = if crate::model::reaching::updates_itself(value, source) {
                match self.context.companion(value) {
                    Some(equal) => self.range_at(equal.expression, &at_definition, depth + 1),
                    None if self.single_step(value) => {
                        self.after_step(value, &at_definition, depth)
                    }
                    // a step keeps the side it moves away from: `i += 4` never goes below
                    // where `i` started; in `for (int p = 0; p < P; p++)` it goes at most `P`
                    // steps above it
                    None => match self.step_direction(value, facts, depth) {
                        Some(true) => Range {
                            lo: Some(Sym::atom(STARTING_VALUE)),
                            hi: self
                                .counted_steps(value, node, &at_definition, depth)
                                .and_then(|most| Sym::atom(STARTING_VALUE).add(&most)),
                            ..Range::default()
                        },
                        Some(false) => Range {
                            lo: None,
                            hi: Some(Sym::atom(STARTING_VALUE)),
                            ..Range::default()
                        },
                        None => Range::unknown(),
                    },
                }
            } else if let Some(midpoint) = self.bisection_midpoint(value, depth) {
                midpoint
            } else {
                self.range_at(value, &at_definition, depth + 1)
            };
            // kept in a plain reading too: a clamp (`if (m > mx) m = mx;`) is part of what the
            // name holds wherever it is read, the side of a fact (`k < m`) included
            let passed = self.context.facts_between(value, node);
            if !passed.is_empty() {
                range = range.meet(self.range_from_facts(node, &passed, depth));
            }
            joined = Some(match joined {
                None => range,
                Some(so_far) => so_far.join(range),
            });
            if joined
                .as_ref()
                .is_some_and(|r| r.hi.is_none() && r.lo.is_none())
            {
                break;
            }
        }
        self.following.borrow_mut().pop();
        joined
            .map(Range::without_starting_value)
            .unwrap_or_default()
    }

    fn binary(&self, node: Node<'t>, facts: &[Comparison<'t>], depth: usize) -> Range {
        let source = self.source();
        let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
            return Range::unknown();
        };
        let op = operator(node, source);
        if matches!(op, "<" | "<=" | ">" | ">=" | "==" | "!=" | "&&" | "||") {
            return Range::between(Sym::constant(0), Sym::constant(1));
        }
        // `x - N * (x / N)`: the remainder, written out
        let single_value = |quotient: Node<'t>| match self.context.reaching(quotient) {
            Some((_, values)) if values.len() == 1 => values.first().copied(),
            _ => None,
        };
        if let Some((dividend, divisor)) =
            crate::syntax::written_out_remainder(node, source, &single_value)
        {
            let a = self.range_at(dividend, facts, depth + 1);
            let b = self.range_at(divisor, facts, depth + 1);
            return remainder(a, b);
        }
        let a = self.range_at(left, facts, depth + 1);
        let mut b = self.range_at(right, facts, depth + 1);
        // a divisor, modulus or shift named by a constant of the file (`id / WARP_SIZE`,
        // `slot % (K * D + 1)`) is its value: a quotient by a name is bounded only where the
        // name cancels, and a remainder by one is below its value whatever the dividend
        if matches!(op, "/" | ">>" | "<<" | "%") && constant(&b).is_none() {
            if let Some(value) = self.context.constant(right) {
                b = Range::exactly(Sym::constant(value));
            }
        }
        match op {
            "+" => a.plus(&b, false),
            "-" => a.plus(&b, true),
            "*" => multiply(&a, &b),
            "/" => divide(&a, &b, right, source),
            ">>" => match constant(&b) {
                Some(shift) if (0..63).contains(&shift) && a.is_nonnegative() => Range {
                    lo: Some(Sym::constant(0)),
                    hi: a.hi.and_then(|h| h.divided_by(1 << shift)),
                    ..Range::default()
                },
                _ => Range::unknown(),
            },
            "<<" => match constant(&b) {
                Some(shift) if (0..32).contains(&shift) => {
                    multiply(&a, &Range::exactly(Sym::constant(1 << shift)))
                }
                _ => Range::unknown(),
            },
            "%" => remainder(a, b),
            "&" => {
                let nonnegative = a.is_nonnegative() || b.is_nonnegative();
                let hi = match (a.is_nonnegative(), b.is_nonnegative()) {
                    (true, true) => tighter(a.hi, b.hi, true),
                    (true, false) => a.hi,
                    (false, true) => b.hi,
                    (false, false) => None,
                };
                Range {
                    lo: nonnegative.then(|| Sym::constant(0)),
                    hi,
                    ..Range::default()
                }
            }
            "|" | "^" if a.is_nonnegative() && b.is_nonnegative() => Range {
                lo: Some(Sym::constant(0)),
                hi: both(&a.hi, &b.hi, Sym::add),
                ..Range::default()
            },
            _ => Range::unknown(),
        }
    }

    fn call(&self, node: Node<'t>, facts: &[Comparison<'t>], depth: usize) -> Range {
        let source = self.source();
        let name = node
            .field("function")
            .map(|f| text(f, source))
            .unwrap_or("");
        let short = name.rsplit("::").next().unwrap_or(name);
        let short = short.split('<').next().unwrap_or(short).trim();
        let arguments: Vec<Node<'t>> = node
            .field("arguments")
            .map(|a| {
                named_children(a)
                    .filter(|c| c.node_kind() != "comment")
                    .collect()
            })
            .unwrap_or_default();
        let ranges = || -> Vec<Range> {
            arguments
                .iter()
                .map(|a| self.range_at(*a, facts, depth + 1))
                .collect()
        };
        match (short, arguments.len()) {
            ("min" | "umin" | "imin" | "llmin" | "ullmin" | "__min" | "MIN", 2) => {
                let r = ranges();
                let lo = match (&r[0].lo, &r[1].lo) {
                    (Some(a), Some(b)) => lower_of(a, b),
                    _ => None,
                };
                // every bound of either argument bounds the smaller
                let (hi, other_hi) = keep_with_others(
                    tighter(r[0].hi.clone(), r[1].hi.clone(), true),
                    r[0].upper_bounds().chain(r[1].upper_bounds()).collect(),
                    true,
                );
                Range {
                    lo,
                    hi,
                    other_hi,
                    ..Range::default()
                }
            }
            ("max" | "umax" | "imax" | "llmax" | "ullmax" | "__max" | "MAX", 2) => {
                let r = ranges();
                let (lo, other_lo) = keep_with_others(
                    tighter(r[0].lo.clone(), r[1].lo.clone(), false),
                    r[0].lower_bounds().chain(r[1].lower_bounds()).collect(),
                    false,
                );
                Range {
                    lo,
                    other_lo,
                    hi: match (&r[0].hi, &r[1].hi) {
                        (Some(a), Some(b)) => upper_of(a, b),
                        _ => None,
                    },
                    ..Range::default()
                }
            }
            ("__mul24" | "__umul24", 2) => {
                let r = ranges();
                multiply(&r[0], &r[1])
            }
            _ if self.context.shared_helper_result(node) => {
                Range::exactly(Sym::atom(&normalized(node, source)))
            }
            _ => {
                if let Some((value, arguments)) = self.context.helper_result(node) {
                    let range = self.value_range(&value, &arguments, facts, depth + 1);
                    if range.hi.is_some() || range.lo.is_some() {
                        return range;
                    }
                }
                match self.context.call_result_range(node) {
                    Some((lo, hi)) => Range::between(Sym::constant(lo), Sym::constant(hi)),
                    None => Range::unknown(),
                }
            }
        }
    }

    /// The range of what a straight-line helper returns, its parameters read as the call's
    /// `arguments` (`get_global_index()` is `blockIdx.x * blockDim.x + threadIdx.x`).
    fn value_range(
        &self,
        value: &HelperValue,
        arguments: &[Node<'t>],
        facts: &[Comparison<'t>],
        depth: usize,
    ) -> Range {
        if depth > MAX_RANGE_DEPTH {
            return Range::unknown();
        }
        match value {
            HelperValue::Constant(k) => Range::exactly(Sym::constant(*k)),
            HelperValue::Parameter(p) => match arguments.get(*p) {
                Some(argument) => self.range_at(*argument, facts, depth + 1),
                None => Range::unknown(),
            },
            HelperValue::Launch(name) => match name.split_once('.') {
                Some((object, axis)) => self.launch_value(object, axis),
                None => Range::unknown(),
            },
            HelperValue::Negate(inner) => self
                .value_range(inner, arguments, facts, depth + 1)
                .negated(),
            HelperValue::Binary(operation, left, right) => {
                let a = self.value_range(left, arguments, facts, depth + 1);
                let b = self.value_range(right, arguments, facts, depth + 1);
                match operation {
                    Operation::Add => a.plus(&b, false),
                    Operation::Subtract => a.plus(&b, true),
                    Operation::Multiply => multiply(&a, &b),
                    Operation::Remainder => remainder(a, b),
                    Operation::Divide => Range::unknown(),
                }
            }
        }
    }
}

/// The range of `a % b`. C's remainder keeps the dividend's sign: only a value at least 0 lands
/// in [0, m); any other lands in (-m, m) (`make_uniform(x) % 4`, a helper's result).
fn remainder(a: Range, b: Range) -> Range {
    if !b.is_nonnegative() {
        return Range::unknown();
    }
    let by_divisor = b.hi.and_then(|m| m.sub(&Sym::constant(1)));
    if !a.is_nonnegative() {
        return Range {
            lo: by_divisor.as_ref().and_then(Sym::negate),
            hi: by_divisor,
            ..Range::default()
        };
    }
    Range {
        lo: Some(Sym::constant(0)),
        hi: tighter(by_divisor, a.hi, true),
        ..Range::default()
    }
}
