//! Value ranges: the symbolic interval an integer expression of a kernel can take.
//!
//! Each bound is a polynomial over the values every thread of a launch shares (scalar
//! parameters, constants, `blockDim`, `gridDim`), so `blockIdx.x * blockDim.x + threadIdx.x` is
//! `[0, gridDim.x * blockDim.x - 1]`. Dominating comparisons refine a range wherever the
//! expression, or a sum it is a part of, is compared (`row < rows` and `ch < stride` bound
//! `row * stride + ch` by `rows * stride - 1`; `n - i >= 4` bounds `i` by `n - 4`); `min`, `%`,
//! `&`, shifts and division narrow it; locals are followed to the definitions that reach the use,
//! each under the tests that let it through (`if (i > n - 1) i = n - 1;` leaves `i <= n - 1` on
//! the path that skips it).
//!
//! An index is *bounded* when its upper bound is a polynomial in sizes the kernel is given and
//! the block's shape: no `gridDim` term, which would mean it spans every thread of the grid.
//! Variables are taken to be at least 1, as sizes are.

use super::guards::{Comparison, Relation};
use super::size::Sym;
use crate::syntax::{named_children, normalized, operator, strip, text, NodeExt};
use std::cell::RefCell;
use tree_sitter::Node;

/// How deep expressions and definitions are followed.
const MAX_RANGE_DEPTH: usize = 24;

/// A closed interval; a missing side is unbounded.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Range {
    pub lo: Option<Sym>,
    pub hi: Option<Sym>,
    /// Further bounds that hold but that the kept one is not provably tighter than (`k - 1` from
    /// a test beside the block's `127`): a launch's values may later make them the tighter.
    pub other_lo: Vec<Sym>,
    pub other_hi: Vec<Sym>,
}

/// How many bounds a side keeps besides the first.
const MAX_OTHER_BOUNDS: usize = 3;

impl Range {
    pub fn unknown() -> Range {
        Range::default()
    }

    pub fn exactly(value: Sym) -> Range {
        Range {
            lo: Some(value.clone()),
            hi: Some(value),
            ..Range::default()
        }
    }

    fn between(lo: Sym, hi: Sym) -> Range {
        Range {
            lo: Some(lo),
            hi: Some(hi),
            ..Range::default()
        }
    }

    fn is_nonnegative(&self) -> bool {
        self.lo.as_ref().is_some_and(Sym::is_nonnegative)
    }

    /// Whether the upper bound is known and names no grid dimension: the value stays inside the
    /// sizes the kernel is given and the block's shape.
    pub fn is_bounded(&self) -> bool {
        self.upper_bounds().any(is_bounded)
    }

    /// `-x` for `x` in the range.
    fn negated(&self) -> Range {
        let (lo, other_lo) = Range::map_side(&self.hi, &self.other_hi, Sym::negate);
        let (hi, other_hi) = Range::map_side(&self.lo, &self.other_lo, Sym::negate);
        Range {
            lo,
            hi,
            other_lo,
            other_hi,
        }
    }

    /// `x + y` (or `x - y`, with `subtract`) for `x` in this range and `y` in `other`.
    fn plus(&self, other: &Range, subtract: bool) -> Range {
        let other = if subtract {
            other.negated()
        } else {
            other.clone()
        };
        let (lo, other_lo) = combine(
            (&self.lo, &self.other_lo),
            (&other.lo, &other.other_lo),
            Sym::add,
        );
        let (hi, other_hi) = combine(
            (&self.hi, &self.other_hi),
            (&other.hi, &other.other_hi),
            Sym::add,
        );
        Range {
            lo,
            hi,
            other_lo,
            other_hi,
        }
    }

    /// Every upper bound known to hold, the kept one first.
    pub fn upper_bounds(&self) -> impl Iterator<Item = &Sym> {
        self.hi.iter().chain(&self.other_hi)
    }

    /// Every lower bound known to hold, the kept one first.
    pub fn lower_bounds(&self) -> impl Iterator<Item = &Sym> {
        self.lo.iter().chain(&self.other_lo)
    }

    /// The narrower of two ranges both known to hold.
    fn meet(self, other: Range) -> Range {
        // the kept bounds are chosen between as before; the rest stay beside them
        let lo = tighter(self.lo.clone(), other.lo.clone(), false);
        let hi = tighter(self.hi.clone(), other.hi.clone(), true);
        let (lo, other_lo) = keep_with_others(
            lo,
            self.lower_bounds().chain(other.lower_bounds()).collect(),
            false,
        );
        let (hi, other_hi) = keep_with_others(
            hi,
            self.upper_bounds().chain(other.upper_bounds()).collect(),
            true,
        );
        Range {
            lo,
            hi,
            other_lo,
            other_hi,
        }
    }

    /// The range with `op` applied to each of its bounds on one side, the kept one first; a
    /// bound `op` cannot express is dropped.
    fn map_side(
        kept: &Option<Sym>,
        others: &[Sym],
        op: impl Fn(&Sym) -> Option<Sym>,
    ) -> (Option<Sym>, Vec<Sym>) {
        let kept = kept.as_ref().and_then(&op);
        let others = others.iter().filter_map(&op);
        match kept {
            Some(kept) => (Some(kept), others.collect()),
            None => {
                let mut all: Vec<Sym> = others.collect();
                let first = (!all.is_empty()).then(|| all.remove(0));
                (first, all)
            }
        }
    }

    /// A range holding every value of either.
    fn join(self, other: Range) -> Range {
        let start = Sym::atom(STARTING_VALUE);
        // `start + k` (a counted number of steps, `k` at least 0) after a definition `b`: `b + k`,
        // the larger of the two
        let from = |stepped: &Sym, other: &Sym| -> Option<Sym> {
            if other.atoms().any(|a| a == STARTING_VALUE) {
                return None;
            }
            stepped.substitute(&|atom| {
                Some(if atom == STARTING_VALUE {
                    other.clone()
                } else {
                    Sym::atom(atom)
                })
            })
        };
        let mentions = |s: &Sym| s.atoms().any(|a| a == STARTING_VALUE);
        let side =
            |a: Option<Sym>, b: Option<Sym>, combine: fn(&Sym, &Sym) -> Option<Sym>| match (a, b) {
                (Some(a), Some(b)) if a == start => Some(b),
                (Some(a), Some(b)) if b == start => Some(a),
                (Some(a), Some(b)) if mentions(&a) => from(&a, &b),
                (Some(a), Some(b)) if mentions(&b) => from(&b, &a),
                (Some(a), Some(b)) => combine(&a, &b),
                _ => None,
            };
        // besides the kept bounds' join, each pair of bounds where one is provably the looser
        // bounds both: `[0, 127]` or `[0, k - 1]` joined with `[0, 63]`
        let pairs = |a: Vec<&Sym>, b: Vec<&Sym>, upper: bool| -> Vec<Sym> {
            let mut found = Vec::new();
            for x in &a {
                for y in &b {
                    if mentions(x) || mentions(y) {
                        continue;
                    }
                    let (low, high) = if x.at_most(y) {
                        (x, y)
                    } else if y.at_most(x) {
                        (y, x)
                    } else {
                        continue;
                    };
                    found.push(if upper {
                        (*high).clone()
                    } else {
                        (*low).clone()
                    });
                }
            }
            found
        };
        let lows = pairs(
            self.lower_bounds().collect(),
            other.lower_bounds().collect(),
            false,
        );
        let highs = pairs(
            self.upper_bounds().collect(),
            other.upper_bounds().collect(),
            true,
        );
        let lo = side(self.lo, other.lo, lower_of);
        let hi = side(self.hi, other.hi, upper_of);
        let (lo, other_lo) = keep_with_others(lo, lows.iter().collect(), false);
        let (hi, other_hi) = keep_with_others(hi, highs.iter().collect(), true);
        Range {
            lo,
            hi,
            other_lo,
            other_hi,
        }
    }
}

/// Stands for "where the other definitions start" in the range of an in-place step, until the
/// join with those definitions replaces it.
const STARTING_VALUE: &str = "\u{0}start";

impl Range {
    /// A side still holding [`STARTING_VALUE`] came from steps alone: unknown.
    fn without_starting_value(self) -> Range {
        let known = |s: &Sym| !s.atoms().any(|a| a == STARTING_VALUE);
        Range {
            lo: self.lo.filter(known),
            hi: self.hi.filter(known),
            other_lo: self.other_lo.into_iter().filter(known).collect(),
            other_hi: self.other_hi.into_iter().filter(known).collect(),
        }
    }
}

/// Whether an upper bound names no grid dimension.
pub fn is_bounded(hi: &Sym) -> bool {
    !hi.atoms().any(|atom| atom.starts_with("gridDim"))
}

/// Of bounds that all hold, the one to keep (as [`tighter`] chooses) and those that are not
/// provably looser than another kept one.
fn tightest<'a>(bounds: impl Iterator<Item = &'a Sym>, upper: bool) -> (Option<Sym>, Vec<Sym>) {
    let all: Vec<&Sym> = bounds.collect();
    let kept = all
        .iter()
        .fold(None, |kept, b| tighter(kept, Some((*b).clone()), upper));
    keep_with_others(kept, all, upper)
}

/// `kept` with the `candidates` that are not provably looser than it or another kept one; a
/// candidate provably tighter than `kept` takes its place.
fn keep_with_others(
    kept: Option<Sym>,
    candidates: Vec<&Sym>,
    upper: bool,
) -> (Option<Sym>, Vec<Sym>) {
    let Some(mut kept) = kept else {
        return match candidates.first() {
            Some(_) => tightest(candidates.into_iter(), upper),
            None => (None, Vec::new()),
        };
    };
    let looser = |a: &Sym, b: &Sym| if upper { b.at_most(a) } else { a.at_most(b) };
    let mut others: Vec<Sym> = Vec::new();
    for candidate in candidates {
        if candidate == &kept || looser(candidate, &kept) {
            continue;
        }
        if looser(&kept, candidate) {
            kept = candidate.clone();
            others.retain(|o| !looser(o, candidate));
            continue;
        }
        if others
            .iter()
            .any(|o| o == candidate || looser(candidate, o))
        {
            continue;
        }
        others.retain(|o| !looser(o, candidate));
        if others.len() < MAX_OTHER_BOUNDS {
            others.push(candidate.clone());
        }
    }
    others.retain(|o| !looser(o, &kept));
    (Some(kept), others)
}

/// `op` of every pair of bounds of `a` and `b` where one is the kept bound: the kept bounds
/// give the kept result.
fn combine(
    a: (&Option<Sym>, &[Sym]),
    b: (&Option<Sym>, &[Sym]),
    op: fn(&Sym, &Sym) -> Option<Sym>,
) -> (Option<Sym>, Vec<Sym>) {
    let kept = both(a.0, b.0, op);
    let mut others = Vec::new();
    if let Some(b_kept) = b.0 {
        others.extend(a.1.iter().filter_map(|x| op(x, b_kept)));
    }
    if let Some(a_kept) = a.0 {
        others.extend(b.1.iter().filter_map(|y| op(a_kept, y)));
    }
    others.truncate(MAX_OTHER_BOUNDS);
    match kept {
        Some(kept) => (Some(kept), others),
        None => {
            let first = (!others.is_empty()).then(|| others.remove(0));
            (first, others)
        }
    }
}

/// Of two bounds that both hold, the one to keep: a bounded one over one that spans the grid,
/// the provably smaller (or larger, for `lo`), else the first.
fn tighter(a: Option<Sym>, b: Option<Sym>, upper: bool) -> Option<Sym> {
    match (a, b) {
        (Some(a), Some(b)) => {
            if upper && is_bounded(&a) != is_bounded(&b) {
                return Some(if is_bounded(&a) { a } else { b });
            }
            // a bound in fewer of the launch's and the caller's values says more
            let (atoms_a, atoms_b) = (a.atoms().count(), b.atoms().count());
            if atoms_a != atoms_b && !(a.at_most(&b) || b.at_most(&a)) {
                return Some(if atoms_a < atoms_b { a } else { b });
            }
            let b_better = if upper {
                b.at_most(&a) && !b.floored
            } else {
                a.at_most(&b) && !b.floored
            };
            Some(if b_better { b } else { a })
        }
        (a, b) => a.or(b),
    }
}

/// An upper bound of both: either when one is at most the other, their sum when both are at
/// least 0.
fn upper_of(a: &Sym, b: &Sym) -> Option<Sym> {
    if a.at_most(b) {
        return Some(b.clone());
    }
    if b.at_most(a) {
        return Some(a.clone());
    }
    if a.is_nonnegative() && b.is_nonnegative() {
        return a.add(b);
    }
    None
}

/// A lower bound of both.
fn lower_of(a: &Sym, b: &Sym) -> Option<Sym> {
    if a.at_most(b) {
        return Some(a.clone());
    }
    if b.at_most(a) {
        return Some(b.clone());
    }
    (a.is_nonnegative() && b.is_nonnegative()).then(|| Sym::constant(0))
}

/// The values that may reach a use of a local, with a key naming that set.
pub type Reaching<'t> = (String, Vec<Node<'t>>);

/// What a local stepped in place always equals: `expression` (its starting value), in which the
/// local `stepped` takes the same steps, so that the equality holds wherever both are read.
#[derive(Debug, Clone)]
pub struct Companion<'t> {
    pub expression: Node<'t>,
    pub stepped: String,
}

/// What the range analysis asks of the function around an expression.
pub trait RangeContext<'t> {
    fn source(&self) -> &str;
    /// The values of the local read at `use_` that may reach it (initialisers, right-hand sides,
    /// or the target itself for `+=`/`++`), with a key naming that set; None when `use_` is not
    /// a local the function defines.
    fn reaching(&self, use_: Node<'t>) -> Option<Reaching<'t>>;
    /// Whether every thread of the launch sees the same value.
    fn is_uniform(&self, node: Node<'t>) -> bool;
    /// The comparisons in force where `value` was assigned, added to `facts`.
    fn facts_at_definition(
        &self,
        value: Node<'t>,
        facts: &[Comparison<'t>],
    ) -> Vec<Comparison<'t>> {
        let _ = value;
        facts.to_vec()
    }
    /// Comparisons a definition passes on the way to a use: the failed tests of the branches in
    /// between that would have replaced it (`if (i > m) i = m;`).
    fn facts_between(&self, value: Node<'t>, use_: Node<'t>) -> Vec<Comparison<'t>> {
        let mut facts = Vec::new();
        for condition in skipped_replacements(value, use_, self.source()) {
            super::guards::comparisons(
                condition,
                self.source(),
                &super::guards::NoFlags,
                &mut facts,
                &mut Vec::new(),
            );
        }
        facts
    }
    /// For a local stepped in place (`g += s`), an expression it always equals in terms of
    /// another local stepped alongside it (`bid * size + id` for `g = bid * size + id` when `id`
    /// takes the same steps).
    fn companion(&self, value: Node<'t>) -> Option<Companion<'t>> {
        let _ = value;
        None
    }
    /// The value of an integer constant expression (`kTileDim`, `kVecOut / kVecSmem`, `128`),
    /// for the coefficients of linear forms.
    fn constant(&self, node: Node<'t>) -> Option<i128> {
        let _ = node;
        None
    }
    /// The number of blocks on `axis` in terms of the kernel's own values, when every launch in
    /// sight gives it so (`dim3 grid(b, s * h)` passing `s` and `h`); None leaves `gridDim`.
    fn grid_dim(&self, axis: usize) -> Option<Sym> {
        let _ = axis;
        None
    }
    /// The largest block size on `axis` the kernel declares (`__launch_bounds__`).
    fn block_limit(&self, axis: usize) -> Option<i128> {
        let _ = axis;
        None
    }
}

/// The analysis over one function; keeps the locals being followed to stop at cycles.
pub struct Ranges<'c, 't, C: RangeContext<'t>> {
    context: &'c C,
    following: RefCell<Vec<String>>,
    /// Expressions left to look at: a query that needs more is unknown (so a kernel of deeply
    /// chained locals costs no more than this).
    budget: std::cell::Cell<usize>,
    /// Inside a fact, the other side and the rest of a sum are read by their shape alone, with
    /// no facts of their own; those ranges are kept by node.
    plain: std::cell::Cell<bool>,
    plain_ranges: RefCell<rustc_hash::FxHashMap<usize, Range>>,
    _source: std::marker::PhantomData<&'t ()>,
}

/// How many expressions one query may look at.
const BUDGET: usize = 3000;

impl<'c, 't, C: RangeContext<'t>> Ranges<'c, 't, C> {
    pub fn new(context: &'c C) -> Self {
        Ranges {
            context,
            following: RefCell::new(Vec::new()),
            budget: std::cell::Cell::new(BUDGET),
            plain: std::cell::Cell::new(false),
            plain_ranges: RefCell::new(Default::default()),
            _source: std::marker::PhantomData,
        }
    }

    fn source(&self) -> &str {
        self.context.source()
    }

    /// The range of `node` where `facts` hold.
    pub fn range(&self, node: Node<'t>, facts: &[Comparison<'t>]) -> Range {
        self.range_at(node, facts, 0)
    }

    fn range_at(&self, node: Node<'t>, facts: &[Comparison<'t>], depth: usize) -> Range {
        let node = strip(node, self.source());
        let left = self.budget.get();
        if depth > MAX_RANGE_DEPTH || left == 0 {
            return Range::unknown();
        }
        self.budget.set(left - 1);
        if self.plain.get() {
            if let Some(known) = self.plain_ranges.borrow().get(&node.id()) {
                return known.clone();
            }
            let range = self.structural(node, &[], depth);
            self.plain_ranges
                .borrow_mut()
                .insert(node.id(), range.clone());
            return range;
        }
        let structural = self.structural(node, facts, depth);
        if facts.is_empty() {
            return structural;
        }
        structural.meet(self.range_from_facts(node, facts, depth))
    }

    /// The range of `node` by its shape alone, as the side of a fact is read.
    fn plain_range(&self, node: Node<'t>, depth: usize) -> Range {
        let was = self.plain.replace(true);
        let range = self.range_at(node, &[], depth);
        self.plain.set(was);
        range
    }

    /// The range from the expression's own shape.
    fn structural(&self, node: Node<'t>, facts: &[Comparison<'t>], depth: usize) -> Range {
        let source = self.source();
        match node.node_kind() {
            "number_literal" => match super::size::parse_number(text(node, source)) {
                Some(value) => Range::exactly(Sym::constant(value)),
                None => Range::unknown(),
            },
            "true" => Range::exactly(Sym::constant(1)),
            "false" => Range::exactly(Sym::constant(0)),
            "sizeof_expression" => Range::exactly(Sym::atom(&normalized(node, source))),
            "field_expression" => self.field(node),
            "identifier" | "qualified_identifier" => self.name(node, facts, depth),
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
                    super::guards::comparisons(
                        super::guards::Condition {
                            node: condition,
                            holds,
                        },
                        source,
                        &super::guards::NoFlags,
                        &mut extended,
                        &mut Vec::new(),
                    );
                    extended
                };
                self.range_at(yes, &with(true), depth + 1)
                    .join(self.range_at(no, &with(false), depth + 1))
            }
            "call_expression" => self.call(node, facts, depth),
            _ => Range::unknown(),
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
        let axis = match field {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ => 3,
        };
        match argument {
            "threadIdx" if axis < 3 => {
                let block = Sym::atom(&format!("blockDim.{field}"));
                let hi = match self.context.block_limit(axis) {
                    Some(limit) => Sym::constant(limit - 1),
                    None => block.sub(&Sym::constant(1)).unwrap_or(block),
                };
                Range::between(Sym::constant(0), hi)
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
                let block = Sym::atom(&format!("blockDim.{field}"));
                match self.context.block_limit(axis) {
                    Some(limit) => Range::between(Sym::constant(1), Sym::constant(limit)),
                    None => Range::exactly(block),
                }
            }
            _ if self.context.is_uniform(node) => {
                Range::exactly(Sym::atom(&normalized(node, source)))
            }
            _ => Range::unknown(),
        }
    }

    /// A name: a uniform value stands for itself; a local is what its reaching definitions give.
    fn name(&self, node: Node<'t>, facts: &[Comparison<'t>], depth: usize) -> Range {
        let source = self.source();
        let Some((key, values)) = self.context.reaching(node) else {
            return if self.context.is_uniform(node) {
                Range::exactly(Sym::atom(&normalized(node, source)))
            } else {
                Range::unknown()
            };
        };
        if self.context.is_uniform(node) && values.len() == 1 {
            if let Some(value) = super::size::parse_number(text(strip(values[0], source), source)) {
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
            } else {
                self.range_at(value, &at_definition, depth + 1)
            };
            let passed = if self.plain.get() {
                Vec::new()
            } else {
                self.context.facts_between(value, node)
            };
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

    /// Whether the in-place update whose target is `value` (`y++`, `off += k`) runs at most once
    /// between the definitions that reach it and any later use: it sits in no loop, or each loop
    /// around it also holds every definition reaching the update (`int y = b; if (y >= x) y++;`
    /// in a loop body starts again from `b` on each trip).
    fn single_step(&self, value: Node<'t>) -> bool {
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
    fn after_step(&self, value: Node<'t>, facts: &[Comparison<'t>], depth: usize) -> Range {
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
    fn counted_steps(
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
        let counter = text(strip(counter, source), source);
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
        if !steps_by_one || updated != Some(counter) {
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
        let body = looped.field("body")?;
        let mut assigned = false;
        crate::syntax::walk_iterative(body, |n| {
            let target = match n.node_kind() {
                "assignment_expression" => n.field("left"),
                "update_expression" => n.field("argument"),
                _ => None,
            };
            assigned |= target.is_some_and(|t| text(strip(t, source), source) == counter);
            !assigned
        });
        if assigned {
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

    /// Whether the in-place update at `value` only increases the local (`++`, `+= s` with `s`
    /// at least 0): Some(true); only decreases it: Some(false).
    fn step_direction(
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

    fn binary(&self, node: Node<'t>, facts: &[Comparison<'t>], depth: usize) -> Range {
        let source = self.source();
        let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
            return Range::unknown();
        };
        let op = operator(node, source);
        if matches!(op, "<" | "<=" | ">" | ">=" | "==" | "!=" | "&&" | "||") {
            return Range::between(Sym::constant(0), Sym::constant(1));
        }
        let a = self.range_at(left, facts, depth + 1);
        let b = self.range_at(right, facts, depth + 1);
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
            "%" => {
                // C's remainder keeps the dividend's sign: only a value at least 0 lands in [0, m)
                if !a.is_nonnegative() || !b.is_nonnegative() {
                    return Range::unknown();
                }
                let by_divisor = b.hi.and_then(|m| m.sub(&Sym::constant(1)));
                Range {
                    lo: Some(Sym::constant(0)),
                    hi: tighter(by_divisor, a.hi, true),
                    ..Range::default()
                }
            }
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
            _ => Range::unknown(),
        }
    }

    /// What the comparisons in force say of `node`: each is read as a bound on a linear form
    /// (`L rel R`), and `node` is solved out of it when `L` is `k * node` plus other terms.
    fn range_from_facts(&self, node: Node<'t>, facts: &[Comparison<'t>], depth: usize) -> Range {
        let source = self.source();
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
            super::guards::comparisons(
                super::guards::Condition { node: test, holds },
                source,
                &super::guards::NoFlags,
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

fn both(a: &Option<Sym>, b: &Option<Sym>, op: fn(&Sym, &Sym) -> Option<Sym>) -> Option<Sym> {
    op(a.as_ref()?, b.as_ref()?)
}

fn constant(range: &Range) -> Option<i128> {
    let lo = range.lo.as_ref()?.as_constant()?;
    let hi = range.hi.as_ref()?.as_constant()?;
    (lo == hi).then_some(lo)
}

fn multiply(a: &Range, b: &Range) -> Range {
    if a.is_nonnegative() && b.is_nonnegative() {
        return Range {
            lo: both(&a.lo, &b.lo, Sym::mul),
            hi: both(&a.hi, &b.hi, Sym::mul),
            ..Range::default()
        };
    }
    for (x, y) in [(a, b), (b, a)] {
        if let Some(k) = constant(y) {
            if k >= 0 {
                return Range {
                    lo: x.lo.as_ref().and_then(|l| l.times(k)),
                    hi: x.hi.as_ref().and_then(|h| h.times(k)),
                    ..Range::default()
                };
            }
            return Range {
                lo: x.hi.as_ref().and_then(|h| h.times(k)),
                hi: x.lo.as_ref().and_then(|l| l.times(k)),
                ..Range::default()
            };
        }
    }
    // a factor at least 0 times one of unknown sign whose top is at least 0: `x * y <= x.hi *
    // y.hi` (`cols * (width - bx - 1)` with `bx` below a grid passed as `width`)
    for (x, y) in [(a, b), (b, a)] {
        if let (true, Some(x_hi), Some(y_hi)) = (x.is_nonnegative(), &x.hi, &y.hi) {
            if y_hi.is_nonnegative() {
                return Range {
                    lo: None,
                    hi: x_hi.mul(y_hi),
                    ..Range::default()
                };
            }
        }
    }
    Range::unknown()
}

fn divide(a: &Range, b: &Range, divisor: Node, source: &str) -> Range {
    if !a.is_nonnegative() || !b.is_nonnegative() {
        return Range::unknown();
    }
    let lo = Some(Sym::constant(0));
    if let Some(k) = constant(b) {
        if k > 0 {
            return Range {
                lo,
                hi: a.hi.as_ref().and_then(|h| h.divided_by(k)),
                ..Range::default()
            };
        }
        return Range::unknown();
    }
    let divisor_atom = normalized(divisor, source);
    let hi = a.hi.as_ref().and_then(|h| {
        // by a uniform value at least 1: cancel it where it is a factor, else no larger
        h.over_atom(&divisor_atom).or_else(|| Some(h.clone()))
    });
    Range {
        lo,
        hi,
        ..Range::default()
    }
}

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
    fn companion(&self, value: Node<'t>) -> Option<Companion<'t>> {
        self.context.companion(value)
    }
    fn constant(&self, node: Node<'t>) -> Option<i128> {
        self.context.constant(node)
    }
}

/// A sum `constant + Σ coefficient × term`, terms keyed by their normalized text.
#[derive(Debug, Clone)]
struct Linear<'t> {
    constant: i128,
    terms: Vec<(i128, Term<'t>)>,
}

#[derive(Debug, Clone)]
struct Term<'t> {
    key: String,
    node: Node<'t>,
}

impl<'t> Linear<'t> {
    /// The form of `node`; with a context, locals with one reaching definition are expanded.
    fn of(
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
                self.constant = self.constant.checked_add(
                    factor.checked_mul(super::size::parse_number(text(node, source))?)?,
                )?;
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
                                "number_literal" => super::size::parse_number(text(k, source)),
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
    fn plus(&self, other: &Linear<'t>, k: i128) -> Option<Linear<'t>> {
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
    fn solve_for(&self, target: &Linear<'t>) -> Option<(i128, Linear<'t>)> {
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

/// The tests a definition of the local read at `use_` passed to get there: for each `if` with
/// no `else` between the two whose branch replaces the local (`if (i > m - 1) i = m - 1;`), the
/// path that kept `value` is the one where the test failed.
pub fn skipped_replacements<'t>(
    value: Node<'t>,
    use_: Node<'t>,
    source: &str,
) -> Vec<super::guards::Condition<'t>> {
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
                    conditions.push(super::guards::Condition {
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

#[cfg(test)]
mod tests;
