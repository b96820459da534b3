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

mod bisection;
mod expressions;
mod facts;
mod interval;
mod linear;
mod meet_join;
mod steps;
#[cfg(test)]
mod tests;

pub use facts::skipped_replacements;
pub(crate) use interval::multiply;
use interval::{both, constant, divide, MAX_OTHER_BOUNDS};
pub use interval::{is_bounded, Range};
pub use linear::scales_thread_index;
use linear::Linear;
use meet_join::{keep_with_others, lower_of, tighter, upper_of, STARTING_VALUE};
pub(crate) use steps::update_of;

/// How deep expressions and definitions are followed.
const MAX_RANGE_DEPTH: usize = 24;

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
    /// Whether `node` may differ between the threads of one block (a value that differs only
    /// between blocks does not).
    fn varies_within_block(&self, node: Node<'t>) -> bool {
        !self.is_uniform(node)
    }
    /// Whether `call` calls a function in sight whose result, made from its arguments, every
    /// thread of the launch shares (`div_ceil(kv_len, 128)`): a given of the launch, as a
    /// parameter is. A function out of sight may read the thread's identity, and one whose result
    /// no argument reaches makes it some other way (an assembly `%laneid`), so theirs are not.
    fn shared_helper_result(&self, call: Node<'t>) -> bool {
        let _ = call;
        false
    }
    /// The values a call of a function in sight can return, from its declared result type
    /// (`unsigned char byte_at(...)`: 0 to 255).
    fn call_result_range(&self, call: Node<'t>) -> Option<(i128, i128)> {
        let _ = call;
        None
    }
    /// What a straight-line helper in sight returns, as arithmetic over its parameters and the
    /// launch's coordinates, with the call's arguments for the parameters.
    fn helper_result(
        &self,
        call: Node<'t>,
    ) -> Option<(crate::model::helper_values::HelperValue, Vec<Node<'t>>)> {
        let _ = call;
        None
    }
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
    /// The block's thread count on `axis` when every launch gives it as the same parameters'
    /// values (`<<<1, n>>>(..., n)`: `n`).
    fn block_dim(&self, axis: usize) -> Option<Sym> {
        let _ = axis;
        None
    }
    /// The largest block size on `axis` the kernel declares (`__launch_bounds__`).
    fn block_limit(&self, axis: usize) -> Option<i128> {
        let _ = axis;
        None
    }
    /// For a scalar parameter the kernel never assigns: the least constant that every visible
    /// launch passes for it (`k<<<g, b>>>(in, out, 1 << 24)`), None when a launch passes
    /// something else or none is in sight.
    fn least_passed_constant(&self, parameter: &str) -> Option<i128> {
        let _ = parameter;
        None
    }
}

/// The hardware's largest block on each axis: 1024 threads on `x` and `y`, 64 on `z`.
pub const MAX_BLOCK: [i128; 3] = [1024, 1024, 64];

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
        Self::with_budget(context, BUDGET)
    }

    /// A query that may look at `budget` expressions (see `BUDGET`).
    pub fn with_budget(context: &'c C, budget: usize) -> Self {
        Ranges {
            context,
            following: RefCell::new(Vec::new()),
            budget: std::cell::Cell::new(budget),
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
}
