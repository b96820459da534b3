//! Launch geometry: for each launch site, how each grid axis relates to the problem it covers,
//! the block shape, and the expression passed for each kernel parameter.
//!
//! A grid axis is *rounded up* when it is `ceil(E / B)` blocks (`(E + B - 1) / B`, `E / B + 1`,
//! `(E - 1) / B + 1`, `ceil(E / (float)B)`, a helper such as `ceil_div(E, B)` recognised by the
//! shape of its body or, when its body is not visible, by its name): threads past `E` exist, so
//! an index on that axis needs `< E`, and `E` is the bound a fix should name. It is *exact* when
//! nothing rounds it up: a constant, a problem dimension (`rows`, `B * H`), or a floor division;
//! then the threads of that axis are the problem's, and a thread index on it needs no guard.
//! Anything else (a block count computed where the analysis cannot see, a `max`, a conditional)
//! is *unknown*, and the kernel is judged as if the launch were not visible.
//!
//! A `dim3` the launching function hands to a host helper by reference or pointer
//! (`shape(grid, block, rows)`) holds what the helper assigns to it (`assigned_dim3_of`). A check
//! on the launch's path that equates the grid's blocks, times any count per block, with an exact
//! size (`FT_CHECK(grid.x * per_block == rows)`, `if (blocks != rows) return;`) makes that axis
//! exact however its count was computed (`checked_exact`).

use super::size::{self, Evaluator, Scope, Sym};
use crate::syntax::{self, named_children, normalized, strip, text, NodeExt};
use std::ops::Range;
use std::path::PathBuf;
use tree_sitter::Node;

mod grid;
pub mod limits;
mod macros;
mod reuse;
#[cfg(test)]
mod tests;

use grid::{Classifier, Held, Locals};
pub use macros::launches_in_macros;
pub use reuse::{LaunchCache, LaunchStats};

/// The three launch axes, as a bit set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Axes(u8);

impl Axes {
    pub const NONE: Axes = Axes(0);
    pub const ALL: Axes = Axes(0b111);

    pub fn of(axis: usize) -> Axes {
        Axes(1 << axis.min(2))
    }
    /// The axis named by a field: `x`, `y` or `z`.
    pub fn from_field(field: &str) -> Axes {
        match field {
            "x" => Axes(1),
            "y" => Axes(2),
            "z" => Axes(4),
            _ => Axes::NONE,
        }
    }
    pub fn union(self, other: Axes) -> Axes {
        Axes(self.0 | other.0)
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..3).filter(move |axis| self.0 & (1 << axis) != 0)
    }
}

pub const AXIS_NAMES: [&str; 3] = ["x", "y", "z"];

/// The axis a field names: `x` is 0, `y` 1, `z` 2.
pub fn axis_index(field: &str) -> Option<usize> {
    AXIS_NAMES.iter().position(|a| *a == field)
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum GridAxis {
    /// Not rounded up: a constant, a problem dimension, or a floor division.
    Exact,
    /// `ceil(E / B)` blocks; holds `E` as written at the launch (normalized).
    RoundedUp(String),
    /// Computed where the analysis cannot see, or in a way that may leave threads over.
    Unknown,
}

/// One launch of a kernel, owned so the project index can hold it across files.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LaunchSite {
    pub kernel: String,
    /// The number of arguments; None for `cudaLaunchKernel`, whose arguments are an array.
    pub arity: Option<usize>,
    pub path: PathBuf,
    pub span: Range<usize>,
    /// 1-based.
    pub line: usize,
    pub grid: [GridAxis; 3],
    /// The most blocks the grid has on each axis, when the launch bounds it (see
    /// `most_blocks`): `<<<64, 256>>>`, `min(blocks, 1024)`, the occupancy API's grid.
    pub grid_blocks: [Option<i128>; 3],
    /// Constant block dimensions.
    pub block: [Option<i128>; 3],
    /// Each argument's text, normalized, with a local defined once replaced by its definition's
    /// text where that is how the grid names it.
    pub arguments: Vec<String>,
    /// Per argument: when the buffer it passes was allocated, in the launching function (or,
    /// for a member such as `plan->states`, anywhere in the file), with `k` elements of
    /// `sizeof(T)` or more per thread of the grid's `x` axis (`k * grid.x * block.x *
    /// sizeof(T)`), that `T` and the largest such `k` up to 8.
    pub per_thread_elements: Vec<Option<(String, u32)>>,
    /// Per argument: the buffer it passes is allocated where the launch can see it.
    pub allocated_in_sight: Vec<bool>,
    /// Per grid axis, its block count as a polynomial in the kernel's arguments (by position)
    /// with integer coefficients, when it is one: `dim3 grid(b, s * h)` passing `s` and `h` as
    /// arguments 1 and 3 gives `y = 1·[1, 3]`.
    pub grid_in_arguments: [Option<ArgumentPolynomial>; 3],
    /// The dynamic shared memory each block is given (`<<<g, b, bytes>>>`, `cudaLaunchKernel`'s
    /// `sharedMem`).
    pub shared_bytes: SharedBytes,
    /// The launch's sizes as the host computes them (see `LaunchSizes`): once with the
    /// launching function's locals as names, once with each local defined once replaced by its
    /// value; none when the launch gives no buffer allocated in sight.
    pub sizes: Vec<LaunchSizes>,
    /// Per argument: the largest constant known to divide its value (1 when none is known):
    /// `n` after `n *= 1024` is a multiple of 1024, as is `k * 1024`.
    pub argument_factors: Vec<i128>,
    /// The launched kernel's template arguments (`k<256, float>`), each with its value when it
    /// is an integer constant.
    pub template_arguments: Vec<Option<i128>>,
    /// Per argument: the constant it is known to hold at the launch, from the `case` of a
    /// `switch` on it that the launch sits in (`switch (beam_width) { case 4: k<<<...>>>(...,
    /// beam_width); break; }`).
    pub argument_values: Vec<Option<i128>>,
}

/// A launch's grid, block, scalar arguments and buffers as symbolic values over the host's
/// names, so that an index the kernel computes from `gridDim`, `blockDim` and its parameters
/// can be set against the elements of the buffer it indexes (`grid * 450` floats for a grid of
/// `grid` blocks that each write 450 of them).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LaunchSizes {
    pub grid: [Option<Sym>; 3],
    pub block: [Option<Sym>; 3],
    /// Per argument: its value.
    pub arguments: Vec<Option<Sym>>,
    /// Per argument: the bytes of the buffer it passes, when every allocation of it in sight
    /// gives the same count.
    pub buffers: Vec<Option<Sym>>,
}

impl LaunchSizes {
    /// `value` (over the kernel's `gridDim`, `blockDim` and parameters, `parameters` naming them
    /// by position) with this launch's sizes put in; other names are kept. None when a size it
    /// names is not known.
    pub fn bind(&self, value: &Sym, parameters: &[&str]) -> Option<Sym> {
        value.substitute(&|atom| {
            if let Some(field) = atom.strip_prefix("gridDim.") {
                return self.grid.get(axis_index(field)?)?.clone();
            }
            if let Some(field) = atom.strip_prefix("blockDim.") {
                return self.block.get(axis_index(field)?)?.clone();
            }
            match parameters.iter().position(|p| *p == atom) {
                Some(position) => self.arguments.get(position)?.clone(),
                None => Some(Sym::atom(atom)),
            }
        })
    }
}

/// A name a launch's dynamic shared-memory byte count is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SharedAtom {
    /// The block's dimension on an axis (`x`, `y`, `z` as 0, 1, 2).
    Block(usize),
    /// The kernel argument at a position.
    Argument(usize),
}

/// The dynamic shared memory a launch gives each block, in bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SharedBytes {
    /// The triple-chevron launch leaves the byte count out: none.
    Omitted,
    /// An integer polynomial over the block's dimensions and the kernel's arguments: each term
    /// a coefficient and the atoms it multiplies (none for the constant term).
    Known(Vec<(i128, Vec<SharedAtom>)>),
    /// Computed in a way the analysis does not follow.
    Unknown,
}

impl SharedBytes {
    /// The byte count with each atom replaced by `bind`'s value for it; None when unknown.
    pub fn value(&self, bind: &dyn Fn(SharedAtom) -> Option<Sym>) -> Option<Sym> {
        match self {
            SharedBytes::Omitted => Some(Sym::constant(0)),
            SharedBytes::Known(terms) => {
                let mut total = Sym::constant(0);
                for (coefficient, atoms) in terms {
                    let mut term = Sym::constant(*coefficient);
                    for atom in atoms {
                        term = term.mul(&bind(*atom)?)?;
                    }
                    total = total.add(&term)?;
                }
                Some(total)
            }
            SharedBytes::Unknown => None,
        }
    }
}

/// An integer polynomial over a kernel's arguments: each term a coefficient and the positions
/// of the arguments it multiplies.
pub type ArgumentPolynomial = Vec<(i128, Vec<usize>)>;

impl LaunchSite {
    /// Whether every axis in `axes` is exact: a thread index on those axes stays inside the
    /// problem the launch covers.
    pub fn exact_on(&self, axes: Axes) -> bool {
        !axes.is_empty() && axes.iter().all(|axis| self.grid[axis] == GridAxis::Exact)
    }

    /// The most threads the launch gives the `x` axis (`gridDim.x * blockDim.x`), when its grid
    /// is bounded there (a block has at most 1,024 threads on `x`): no thread index on that
    /// axis reaches it.
    pub fn threads_x(&self) -> Option<i128> {
        self.grid_blocks[0]?.checked_mul(self.block[0].unwrap_or(MAX_BLOCK_X))
    }

    /// The position of the argument that carries the rounded-up extent `E` of `axis`.
    pub fn bound_argument(&self, axis: usize) -> Option<usize> {
        let GridAxis::RoundedUp(total) = &self.grid[axis] else {
            return None;
        };
        self.arguments.iter().position(|a| a == total)
    }

    /// The same launch for the kernel's facts, wherever it now sits in its file.
    pub fn same_geometry(&self, other: &LaunchSite) -> bool {
        self.kernel == other.kernel
            && self.arity == other.arity
            && self.path == other.path
            && self.grid == other.grid
            && self.grid_blocks == other.grid_blocks
            && self.block == other.block
            && self.arguments == other.arguments
            && self.per_thread_elements == other.per_thread_elements
            && self.allocated_in_sight == other.allocated_in_sight
            && self.grid_in_arguments == other.grid_in_arguments
            && self.shared_bytes == other.shared_bytes
            && self.sizes == other.sizes
            && self.argument_factors == other.argument_factors
            && self.template_arguments == other.template_arguments
            && self.argument_values == other.argument_values
    }

    /// The value the kernel parameter at `position` has at this launch, when the launch shows
    /// it is a constant.
    pub fn argument_value(&self, position: usize) -> Option<i128> {
        self.argument_values.get(position).copied().flatten()
    }

    /// The value a kernel's `template_parameters` (as the model lists them: each parameter's
    /// name, in order) give `name` at this launch, when it is an integer constant.
    pub fn template_value(&self, template_parameters: &[String], name: &str) -> Option<i128> {
        let position = template_parameters.iter().position(|p| p == name)?;
        *self.template_arguments.get(position)?
    }

    /// How many elements of type `element` (any, for a template parameter) the buffer passed at
    /// `argument` holds for each thread of the `x` axis: 0 when that is not known.
    pub fn elements_per_thread(&self, argument: usize, element: Option<&str>) -> u32 {
        match self.per_thread_elements.get(argument) {
            Some(Some((unit, count)))
                if element.is_none_or(|e| *unit == size::normalize_type(e)) =>
            {
                *count
            }
            _ => 0,
        }
    }

    pub fn location(&self) -> String {
        format!("{}:{}", self.path.display(), self.line)
    }
}

/// What the file says of the helpers a grid may be computed with.
pub trait GridHelpers {
    /// For a function `name` with `arity` arguments: Some(k) when it returns its argument `k`
    /// divided by another and rounded up; None when it is not such a helper or is not visible.
    fn rounds_up(&self, name: &str, arity: usize) -> Option<RoundingHelper>;
    /// The value of an object-like `#define`.
    fn define(&self, name: &str) -> Option<&str>;
    /// For a host function `name` with `arity` arguments that returns a `dim3`, each axis of the
    /// grid it returns (see `returned_grid_of`); None when it is not one or is not visible.
    fn returned_grid(&self, _name: &str, _arity: usize) -> Option<[GridAxis; 3]> {
        None
    }
    /// For a host function `name` with `arity` arguments whose parameter at `position` is a
    /// `dim3` taken by reference or pointer, what it assigns to that parameter's components
    /// (see `assigned_dim3_of`), over every definition of the name (a template and its
    /// specialisations); None when it is not one or is not visible.
    fn assigned_dim3(&self, _name: &str, _arity: usize, _position: usize) -> Option<AssignedDim3> {
        None
    }
    /// For a function `name` with `arity` arguments, what its value is always a multiple of
    /// (see `returned_multiple_of`); None when nothing is known or it is not visible.
    fn returned_multiple(&self, _name: &str, _arity: usize) -> Option<ReturnedMultiple> {
        None
    }
}

/// What a helper's value is a multiple of: `pad(n, p)` returning `((n + p - 1) / p) * p` is a
/// multiple of its argument `p`; `tiles(n)` returning `n / 64 * 64` a multiple of 64.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReturnedMultiple {
    Constant(i128),
    Argument(usize),
}

/// What `function`'s single `return` is a product with: one of its parameters, or a constant
/// (a literal, or a shift by one).
pub fn returned_multiple_of(function: &super::Function, source: &str) -> Option<ReturnedMultiple> {
    let returned: Vec<Node> = syntax::return_values(function.body)
        .into_iter()
        .flatten()
        .collect();
    // `if (padding == 0) return size;` guards a division by the multiple: a call that passes a
    // multiple other than zero never takes it
    let (guarded, rest): (Vec<Node>, Vec<Node>) = returned
        .into_iter()
        .partition(|value| returns_when_a_parameter_is_zero(*value, function, source));
    let [value] = rest.as_slice() else {
        return None;
    };
    let answer = multiple_in_return(*value, function, source)?;
    match answer {
        ReturnedMultiple::Argument(position) => {
            let zero_tested =
                |value: &Node| zero_tested_parameter(*value, function, source) == Some(position);
            guarded.iter().all(zero_tested).then_some(answer)
        }
        ReturnedMultiple::Constant(_) => guarded.is_empty().then_some(answer),
    }
}

/// The parameter an `if (p == 0)` (or `!p`) around a `return` tests.
fn zero_tested_parameter(value: Node, function: &super::Function, source: &str) -> Option<usize> {
    let statement = value.up()?;
    let branch = match statement.up()? {
        block if block.node_kind() == "compound_statement" => block.up()?,
        other => other,
    };
    if branch.node_kind() != "if_statement" {
        return None;
    }
    let condition = strip(syntax::condition_value(branch.field("condition")?), source);
    let tested = match condition.node_kind() {
        "binary_expression" if syntax::operator(condition, source) == "==" => {
            let (left, right) = (condition.field("left")?, condition.field("right")?);
            if text(strip(right, source), source) == "0" {
                left
            } else if text(strip(left, source), source) == "0" {
                right
            } else {
                return None;
            }
        }
        "unary_expression" if syntax::operator(condition, source) == "!" => {
            condition.field("argument")?
        }
        _ => return None,
    };
    let name = text(strip(tested, source), source);
    function.parameters.iter().position(|p| p.name == name)
}

fn returns_when_a_parameter_is_zero(value: Node, function: &super::Function, source: &str) -> bool {
    zero_tested_parameter(value, function, source).is_some()
}

/// What the returned `value` is a product with.
fn multiple_in_return(
    value: Node,
    function: &super::Function,
    source: &str,
) -> Option<ReturnedMultiple> {
    let value = strip(value, source);
    if value.node_kind() != "binary_expression" {
        return None;
    }
    let (left, right) = (value.field("left")?, value.field("right")?);
    match syntax::operator(value, source) {
        "*" => [left, right].into_iter().find_map(|side| {
            let side = strip(side, source);
            match side.node_kind() {
                "identifier" => function
                    .parameters
                    .iter()
                    .position(|p| p.name == text(side, source))
                    .map(ReturnedMultiple::Argument),
                "number_literal" => size::parse_number(text(side, source))
                    .filter(|v| *v > 1)
                    .map(ReturnedMultiple::Constant),
                _ => None,
            }
        }),
        "<<" => size::parse_number(text(strip(right, source), source))
            .filter(|shift| (1..=30).contains(shift))
            .map(|shift| ReturnedMultiple::Constant(1 << shift)),
        _ => None,
    }
}

/// What a host helper leaves in a `dim3` its caller hands it by reference (`void
/// grid_for(dim3& grid, dim3& block, int rows) { grid.x = rows; block.x = 256; }`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AssignedDim3 {
    /// Per axis, what it is as a grid; None where the helper does not assign it (the caller's
    /// value stays).
    pub grid: [Option<GridAxis>; 3],
    /// Per axis, its constant value where the helper assigns one on every path.
    pub constant: [Option<i128>; 3],
}

impl AssignedDim3 {
    /// What either of two helpers of one name leaves (the one a call runs is not known): an
    /// axis one assigns and the other does not is unknown.
    pub fn join(self, other: AssignedDim3) -> AssignedDim3 {
        let mut joined = self;
        for axis in 0..3 {
            joined.grid[axis] = match (joined.grid[axis].take(), other.grid[axis].clone()) {
                (None, None) => None,
                (Some(a), Some(b)) => Some(grid::join(a, b)),
                _ => Some(GridAxis::Unknown),
            };
            if joined.constant[axis] != other.constant[axis] {
                joined.constant[axis] = None;
            }
        }
        joined
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundingHelper {
    /// Returns `ceil(args[k] / ...)`.
    RoundsUp { total: usize },
    /// Its body is visible and does not round up.
    Other,
}

/// What a function returns, when it is a rounding division of its parameters: the shape of its
/// single `return` (after locals defined once are substituted).
pub fn rounding_helper(function: &super::Function, source: &str) -> RoundingHelper {
    // a rounding division is a line or two; longer bodies are not read for one
    if function.body.byte_range().len() > 400 || function.parameters.len() < 2 {
        return RoundingHelper::Other;
    }
    let returns: Vec<Node> = syntax::return_values(function.body)
        .into_iter()
        .flatten()
        .collect();
    let [value] = returns.as_slice() else {
        return RoundingHelper::Other;
    };
    struct NoHelpers;
    impl GridHelpers for NoHelpers {
        fn rounds_up(&self, _: &str, _: usize) -> Option<RoundingHelper> {
            None
        }
        fn define(&self, _: &str) -> Option<&str> {
            None
        }
    }
    let locals = Locals::of(function.body, source);
    let classifier = Classifier {
        source,
        locals: &locals,
        helpers: &NoHelpers,
        constants_divide: true,
    };
    match classifier.axis(*value, 0) {
        GridAxis::RoundedUp(total) => function
            .parameters
            .iter()
            .position(|p| p.name == total)
            .map(|total| RoundingHelper::RoundsUp { total })
            .unwrap_or(RoundingHelper::Other),
        _ => RoundingHelper::Other,
    }
}

/// Whether `function`'s text has anything `launches_in` would read as a launch: most functions
/// launch nothing, and a look at the text spares the walk.
pub fn may_launch(function: &super::Function, source: &str) -> bool {
    let body = source.get(function.body.byte_range()).unwrap_or("");
    body.contains("<<<") || body.contains("cudaLaunch") || body.contains("hipLaunchKernel")
}

/// Every launch in `function` (`k<<<g, b>>>(...)`, `cudaLaunchKernel`, `cudaLaunchCooperativeKernel`,
/// and HIP's `hipLaunchKernelGGL(k, g, b, shared, stream, ...)`).
pub fn launches_in<'t>(
    function: &super::Function<'t>,
    source: &'t str,
    path: &std::path::Path,
    lines: &crate::source::LineIndex,
    helpers: &dyn GridHelpers,
    file: &FileScope<'t>,
) -> Vec<LaunchSite> {
    if !may_launch(function, source) {
        return Vec::new();
    }
    let mut calls = Vec::new();
    syntax::walk_iterative(function.body, |node| {
        if node.node_kind() == "call_expression" {
            let is_triple_chevron =
                named_children(node).any(|c| c.node_kind() == "kernel_call_syntax");
            let api = node
                .field("function")
                .map(|f| text(f, source))
                .filter(|name| {
                    matches!(
                        *name,
                        "cudaLaunchKernel"
                            | "cudaLaunchCooperativeKernel"
                            | "hipLaunchKernel"
                            | "hipLaunchCooperativeKernel"
                            | "hipLaunchKernelGGL"
                    )
                });
            if is_triple_chevron || api.is_some() {
                calls.push((node, is_triple_chevron));
            }
        }
        true
    });
    if calls.is_empty() {
        return Vec::new();
    }
    let allocations = Allocations {
        function: function.definition,
        file,
    };
    // the locals a launch sees: the function's, and those of the lambda it sits in
    let mut by_lambda: Vec<(Option<Node<'t>>, Locals<'t>)> = Vec::new();
    let mut sites = Vec::new();
    let mut passed_factors: Option<Vec<i128>> = None;
    for (call, chevron) in calls {
        let lambda = enclosing_lambda(call, function.body);
        let at = match by_lambda
            .iter()
            .position(|(l, _)| l.map(|n| n.id()) == lambda.map(|n| n.id()))
        {
            Some(at) => at,
            None => {
                let constants = file.constants();
                by_lambda.push((
                    lambda,
                    Locals::entering(function.body, source, lambda, constants),
                ));
                by_lambda.len() - 1
            }
        };
        let locals = &by_lambda[at].1;
        let classifier = Classifier {
            source,
            locals,
            helpers,
            constants_divide: true,
        };
        if let Some(mut site) = launch_site(&classifier, &allocations, call, chevron, path, lines) {
            // a parameter of the launching function passed on as it came: what its callers pass
            for (at, argument) in site.arguments.iter().enumerate() {
                let Some(position) = function.parameters.iter().position(|p| p.name == *argument)
                else {
                    continue;
                };
                if locals.values.contains_key(argument.as_str()) {
                    continue;
                }
                let passed = passed_factors
                    .get_or_insert_with(|| parameter_factors(function, source, helpers, file));
                if let (Some(factor), Some(slot)) =
                    (passed.get(position), site.argument_factors.get_mut(at))
                {
                    *slot = (*slot).max(*factor);
                }
            }
            sites.extend(through_pointer(site, locals, source));
        }
    }
    sites
}

/// The most calls of a launching function read for what they pass.
const MAX_CALLERS_READ: usize = 64;

/// Per parameter of `function`: the largest constant known to divide what every call of it in
/// its file passes there (`run(paths)` after `paths *= 1024`), 1 when that is not known or no
/// call is seen.
fn parameter_factors<'t>(
    function: &super::Function<'t>,
    source: &'t str,
    helpers: &dyn GridHelpers,
    file: &FileScope<'t>,
) -> Vec<i128> {
    let arity = function.parameters.len();
    file.caller_reads.set(true);
    let calls: Vec<Node<'t>> = file
        .calls_of(&function.name)
        .iter()
        .copied()
        .filter(|call| syntax::call_arguments(*call).len() == arity)
        .take(MAX_CALLERS_READ)
        .collect();
    let mut factors: Option<Vec<i128>> = None;
    for call in calls {
        let Some(body) = enclosing_function(call).and_then(|f| f.field("body")) else {
            return vec![1; arity];
        };
        let locals = Locals::of(body, source);
        let classifier = Classifier {
            source,
            locals: &locals,
            helpers,
            constants_divide: true,
        };
        let passed: Vec<i128> = syntax::call_arguments(call)
            .into_iter()
            .map(|a| classifier.known_factor(a, 0).max(1))
            .collect();
        factors = Some(match factors {
            None => passed,
            Some(all) => all
                .into_iter()
                .zip(passed)
                .map(|(a, b)| grid::gcd(a, b))
                .collect(),
        });
    }
    factors.unwrap_or_else(|| vec![1; arity])
}

/// The function definition `node` is in.
fn enclosing_function(node: Node) -> Option<Node> {
    std::iter::successors(node.up(), |n| n.up()).find(|n| n.node_kind() == "function_definition")
}

/// Where each identifier of `text` appears (any word of letters, digits and `_` that does not
/// start with a digit; comments and strings included).
fn word_positions(text: &str) -> rustc_hash::FxHashMap<&str, Vec<u32>> {
    let is_identifier = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let bytes = text.as_bytes();
    let mut words: rustc_hash::FxHashMap<&str, Vec<u32>> = Default::default();
    let mut at = 0;
    while at < bytes.len() {
        if !is_identifier(bytes[at]) {
            at += 1;
            continue;
        }
        let start = at;
        while at < bytes.len() && is_identifier(bytes[at]) {
            at += 1;
        }
        if !bytes[start].is_ascii_digit() {
            if let (Some(word), Ok(position)) = (text.get(start..at), u32::try_from(start)) {
                words.entry(word).or_default().push(position);
            }
        }
    }
    words
}

/// The innermost lambda around `node` inside `body`, if any.
fn enclosing_lambda<'t>(node: Node<'t>, body: Node<'t>) -> Option<Node<'t>> {
    let mut current = node.up();
    while let Some(parent) = current {
        if parent.id() == body.id() {
            return None;
        }
        if parent.node_kind() == "lambda_expression" {
            return Some(parent);
        }
        current = parent.up();
    }
    None
}

/// `kernel = &copy; ... kernel<<<g, b>>>(...)`: a launch through a function pointer is a launch
/// of each kernel the pointer is assigned (all of them, or none when one is not a name).
fn through_pointer(site: LaunchSite, locals: &Locals, source: &str) -> Vec<LaunchSite> {
    let Some(values) = locals.values.get(site.kernel.as_str()) else {
        return vec![site];
    };
    let mut kernels: Vec<&str> = Vec::new();
    for value in values {
        let mut value = strip(*value, source);
        if value.node_kind() == "pointer_expression" && syntax::operator(value, source) == "&" {
            match value.field("argument") {
                Some(target) => value = strip(target, source),
                None => return Vec::new(),
            }
        }
        if !matches!(
            value.node_kind(),
            "identifier" | "qualified_identifier" | "template_function"
        ) {
            return Vec::new();
        }
        let name = launched_kernel(value, source);
        if !kernels.contains(&name) {
            kernels.push(name);
        }
    }
    kernels
        .into_iter()
        .map(|kernel| LaunchSite {
            kernel: kernel.to_string(),
            ..site.clone()
        })
        .collect()
}

/// The three components of a `dim3` (a local declared with arguments, `dim3(...)`, `{...}`), or
/// the expression itself as `x`.
fn components<'t>(
    classifier: &Classifier<'_, 't>,
    node: Option<Node<'t>>,
) -> Vec<Option<Node<'t>>> {
    let source = classifier.source;
    let Some(mut node) = node.map(|n| strip(n, source)) else {
        return vec![None, None, None];
    };
    // `dim3(grid)` of a local `dim3 grid`: the same shape (hipified launches wrap theirs so)
    for _ in 0..4 {
        let copied = dim3_arguments(node, source)
            .map(|list| {
                named_children(list)
                    .filter(|c| c.node_kind() != "comment")
                    .collect::<Vec<_>>()
            })
            .and_then(|parts| match parts.as_slice() {
                [only] => Some(strip(*only, source)),
                _ => None,
            })
            .filter(|inner| {
                inner.node_kind() == "identifier"
                    && classifier.locals.dim3.contains_key(text(*inner, source))
            });
        match copied {
            Some(inner) => node = inner,
            None => break,
        }
    }
    let list = match node.node_kind() {
        "identifier" => {
            let name = text(node, source);
            let declared = classifier.locals.dim3_at(name, node);
            match (declared, classifier.locals.value_at(name, node, source)) {
                (Some(list), Held::NotLocal) => Some(list),
                // `dim3 grid; grid = dim3(w / 16, h / 16);`, the assignment this launch sees
                // (a scalar grid is classified as an expression)
                (None, Held::One(value)) => dim3_arguments(strip(value, source), source),
                (Some(_), Held::One(value)) => dim3_arguments(strip(value, source), source),
                // declared with a shape and assigned again: which one a launch sees is not known
                (Some(_), Held::Several | Held::Alternatives(_)) => return vec![None, None, None],
                _ => None,
            }
        }
        _ => dim3_arguments(node, source),
    };
    let mut parts = match list {
        Some(list) => {
            let parts: Vec<Node> = named_children(list)
                .filter(|c| c.node_kind() != "comment")
                .map(|c| match c.node_kind() {
                    "parameter_declaration" => c.field("type").unwrap_or(c),
                    _ => c,
                })
                .collect();
            (0..3).map(|i| parts.get(i).copied()).collect()
        }
        None => vec![Some(node), None, None],
    };
    if node.node_kind() == "identifier" {
        // `dim3 block; block.x = 32; block.y = rows_per_block;` or `dim3 grid(1); grid.x = n /
        // 128;`: a component assigned before the launch is that component; one never assigned
        // keeps the declaration's (1 for a `dim3` declared bare)
        let name = text(node, source);
        let mut assigned = [false; 3];
        for (axis, field) in AXIS_NAMES.into_iter().enumerate() {
            match classifier
                .locals
                .dim3_component_at(name, field, node, source)
            {
                Held::NotLocal => {}
                Held::One(value) => {
                    assigned[axis] = true;
                    parts[axis] = Some(value);
                }
                Held::Several | Held::Alternatives(_) => return vec![None, None, None],
            }
        }
        if assigned.contains(&true) && list.is_none() && !assigned[0] {
            // the name itself is no scalar grid; the parts left out are the declaration's 1
            parts[0] = None;
        }
    }
    parts
}

/// The components of `dim3(a, b)`, `make_uint3(a, b, c)` or `{a, b}`.
fn dim3_arguments<'t>(node: Node<'t>, source: &str) -> Option<Node<'t>> {
    match node.node_kind() {
        "call_expression"
            if node.field("function").is_some_and(|f| {
                matches!(
                    text(f, source),
                    "dim3" | "make_uint3" | "make_int3" | "uint3" | "int3"
                )
            }) =>
        {
            node.field("arguments")
        }
        "initializer_list" => Some(node),
        _ => None,
    }
}

/// The kernel a launch names: `k`, `k<T>`, `ns::k`, `outer::inner::k<T>`.
pub fn launched_kernel<'t>(function: Node<'t>, source: &'t str) -> &'t str {
    let mut name = function;
    // each `::` level nests one qualified_identifier; a name is at most a few levels deep
    for _ in 0..16 {
        match name.node_kind() {
            "template_function" | "qualified_identifier" => match name.field("name") {
                Some(inner) => name = inner,
                None => return "",
            },
            _ => return text(name, source),
        }
    }
    ""
}

/// The kernel a local launched as `k<<<...>>>` holds: one kernel name, or a choice between
/// specialisations of one kernel (`auto k = c ? f<true> : f<false>;`), as the first of them.
fn kernel_held_by_local<'t>(
    classifier: &Classifier<'_, 't>,
    function: Node<'t>,
) -> Option<Node<'t>> {
    let source = classifier.source;
    if function.node_kind() != "identifier" {
        return None;
    }
    let Held::One(value) = classifier
        .locals
        .value_at(text(function, source), function, source)
    else {
        return None;
    };
    let named = |node: Node<'t>| -> Option<Node<'t>> {
        let mut node = strip(node, source);
        if node.node_kind() == "pointer_expression" {
            node = strip(node.field("argument")?, source);
        }
        matches!(
            node.node_kind(),
            "identifier" | "template_function" | "qualified_identifier"
        )
        .then_some(node)
    };
    let value = strip(value, source);
    if value.node_kind() != "conditional_expression" {
        return named(value);
    }
    let first = named(value.field("consequence")?)?;
    let second = named(value.field("alternative")?)?;
    (launched_kernel(first, source) == launched_kernel(second, source)).then_some(first)
}

/// The kernel a launch through a table names: `kernels[i]<<<...>>>` where the local array is
/// initialised with specialisations of one kernel (`{keep<1>, keep<2>}`), written directly or
/// through a function-like macro of the file (`#define P(n) keep<T, (n)>` and `{P(1), P(2)}`).
fn kernel_of_table<'t>(classifier: &Classifier<'_, 't>, function: Node<'t>) -> Option<String> {
    let source = classifier.source;
    if function.node_kind() != "subscript_expression" {
        return None;
    }
    let table = strip(function.field("argument")?, source);
    if table.node_kind() != "identifier" {
        return None;
    }
    let lists = classifier.locals.dim3.get(text(table, source))?;
    let [list] = lists.as_slice() else {
        return None;
    };
    if list.node_kind() != "initializer_list" {
        return None;
    }
    let mut kernel: Option<String> = None;
    for element in named_children(*list) {
        let element = strip(element, source);
        let name = match element.node_kind() {
            "identifier" | "template_function" | "qualified_identifier" => {
                launched_kernel(element, source).to_string()
            }
            "pointer_expression" => {
                launched_kernel(strip(element.field("argument")?, source), source).to_string()
            }
            "call_expression" => macro_kernel(source, text(element.field("function")?, source))?,
            _ => return None,
        };
        if name.is_empty() || kernel.as_ref().is_some_and(|k| *k != name) {
            return None;
        }
        kernel = Some(name);
    }
    kernel
}

/// The name a function-like macro of the text expands to at its start (`#define P(n)
/// keep<T, (n)>` gives `keep`).
fn macro_kernel(source: &str, name: &str) -> Option<String> {
    let definition = crate::source::function_macro_definitions(source)
        .into_iter()
        .rfind(|m| m.name == name)?;
    let body = definition.body.as_str();
    let end = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(body.len());
    let short = body[..end].rsplit("::").next().unwrap_or("");
    (!short.is_empty()).then(|| short.to_string())
}

fn launch_site<'t>(
    classifier: &Classifier<'_, 't>,
    allocations: &Allocations<'_, 't>,
    call: Node<'t>,
    chevron: bool,
    path: &std::path::Path,
    lines: &crate::source::LineIndex,
) -> Option<LaunchSite> {
    let source = classifier.source;
    let arguments = syntax::call_arguments(call);
    let kernel_name_node;
    let (kernel, grid, block, kernel_arguments, shared) = if chevron {
        // `(kernel)<<<...>>>`, as a launch macro's body writes its parameter
        let function = strip(call.field("function")?, source);
        // `auto k = binary ? scale<true> : scale<false>; k<<<...>>>(...)` launches `scale`
        let function = kernel_held_by_local(classifier, function).unwrap_or(function);
        kernel_name_node = Some(function);
        // `kernels[t - 1]<<<...>>>` over a table of one kernel's specialisations
        let kernel: std::borrow::Cow<'t, str> = match kernel_of_table(classifier, function) {
            Some(name) => name.into(),
            None => launched_kernel(function, source).into(),
        };
        let config = syntax::launch_configuration(call);
        (
            kernel,
            config.first().copied(),
            config.get(1).copied(),
            Some(arguments),
            match config.get(2) {
                Some(bytes) => Shared::At(*bytes),
                None => Shared::Omitted,
            },
        )
    } else {
        let kernel_node = strip(*arguments.first()?, source);
        let mut kernel_node = kernel_node;
        // `(void*)k`, `reinterpret_cast<void*>(&k)`, `&k`
        for _ in 0..4 {
            kernel_node = strip(kernel_node, source);
            match kernel_node.node_kind() {
                "pointer_expression" | "cast_expression" => {
                    kernel_node = kernel_node
                        .field("argument")
                        .or_else(|| kernel_node.field("value"))?
                }
                "call_expression" => {
                    kernel_node = kernel_node.field("arguments")?.named_child(0)?
                }
                _ => break,
            }
        }
        kernel_name_node = Some(kernel_node);
        let kernel: std::borrow::Cow<'t, str> = launched_kernel(kernel_node, source).into();
        // `hipLaunchKernelGGL` passes the kernel's arguments after the shared bytes and stream,
        // the CUDA APIs as an array of pointers
        let is_hip = call
            .field("function")
            .is_some_and(|f| text(f, source) == "hipLaunchKernelGGL");
        // `hipLaunchKernelGGL(k, g, b, bytes, stream, ...)`, `cudaLaunchKernel(k, g, b, args,
        // bytes, stream)`
        let bytes = arguments.get(if is_hip { 3 } else { 4 }).copied();
        (
            kernel,
            arguments.get(1).copied(),
            arguments.get(2).copied(),
            is_hip.then(|| arguments.get(5..).unwrap_or_default().to_vec()),
            bytes.map_or(Shared::Unknown, Shared::At),
        )
    };
    if kernel.is_empty() {
        return None;
    }
    let grid_parts = components(classifier, grid);
    let block_parts = components(classifier, block);
    let grid_name = grid
        .map(|g| strip(g, source))
        .filter(|g| g.node_kind() == "identifier");
    let mut grid_axes = [GridAxis::Unknown, GridAxis::Unknown, GridAxis::Unknown];
    let mut grid_values: [Option<Node<'t>>; 3] = [None, None, None];
    let mut grid_blocks = [None, None, None];
    for (axis, slot) in grid_axes.iter_mut().enumerate() {
        // `grid.y = ...` after the declaration: the assignment the launch sees is what counts
        let assigned = match grid_name {
            Some(g) => classifier
                .locals
                .component_at(text(g, source), AXIS_NAMES[axis], g, source),
            None => Held::NotLocal,
        };
        grid_values[axis] = match (&assigned, grid_parts.get(axis).copied().flatten()) {
            (Held::One(value), _) => Some(*value),
            (Held::NotLocal, part) => part,
            _ => None,
        };
        let default_one = grid.is_some() && grid_parts.iter().any(Option::is_some);
        grid_blocks[axis] = match (&assigned, grid_values[axis]) {
            (Held::Several | Held::Alternatives(_), _) => None,
            (_, Some(value)) => most_blocks(classifier, value, 0),
            (Held::NotLocal, None) if default_one => Some(1), // dim3 default 1
            _ => None,
        };
        *slot = match (assigned, grid_parts.get(axis).copied().flatten()) {
            (Held::One(value), _) => classifier.axis(value, 0),
            // `grid.x` assigned in each branch of an `if`: the grid of every path
            (Held::Alternatives(values), _) => classifier.alternatives(&values, 0),
            (Held::Several, _) => GridAxis::Unknown,
            (Held::NotLocal, Some(part)) => classifier.axis(part, 0),
            (Held::NotLocal, None) if default_one => GridAxis::Exact, // dim3 default 1
            (Held::NotLocal, None) => GridAxis::Unknown,
        };
        if *slot != GridAxis::Exact {
            if let Some(g) = grid_name {
                if checked_exact(classifier, call, text(g, source), axis) {
                    *slot = GridAxis::Exact;
                }
            }
        }
    }
    // `dim3 grid; grid_for(grid, rows);`: the components a host helper assigns through a
    // reference, read in the helper
    if let Some((assigned, helper_call)) =
        grid_name.and_then(|g| set_by_helper(classifier, g, call))
    {
        let name = grid_name.map(|g| text(g, source)).unwrap_or("");
        let arguments = syntax::call_arguments(helper_call);
        for axis in 0..3 {
            let Some(set) = assigned.grid[axis].clone() else {
                continue;
            };
            // assigned here too: only assignments after the helper's are the launch's
            let here = classifier.locals.components.get(&(name, AXIS_NAMES[axis]));
            if let Some(values) = here {
                if values
                    .iter()
                    .any(|v| v.start_byte() < helper_call.end_byte())
                {
                    grid_axes[axis] = GridAxis::Unknown;
                }
                continue;
            }
            grid_axes[axis] = in_caller(set, &arguments, source);
            grid_values[axis] = None;
            grid_blocks[axis] = None;
        }
    }
    // `dim3 grid = grid_for(rows, cols);`: the grid a host helper returns, read in the helper
    if let Some(returned) = grid.and_then(|g| returned_grid(classifier, g)) {
        grid_axes = returned;
        grid_values = [None, None, None];
        grid_blocks = [None, None, None];
    }
    let mut block_dims = [None, None, None];
    for (axis, slot) in block_dims.iter_mut().enumerate() {
        *slot = match block_parts.get(axis).copied().flatten() {
            Some(part) => constant(part, classifier),
            None if block.is_some() && block_parts.iter().any(Option::is_some) => Some(1),
            None => None,
        };
    }
    // `block_for(block, n)` assigning `block.x = 256`: the helper's constants
    let block_name = block
        .map(|b| strip(b, source))
        .filter(|b| b.node_kind() == "identifier");
    if let Some((assigned, helper_call)) =
        block_name.and_then(|b| set_by_helper(classifier, b, call))
    {
        let name = block_name.map(|b| text(b, source)).unwrap_or("");
        for axis in 0..3 {
            if assigned.grid[axis].is_none() {
                continue;
            }
            let assigned_here = classifier
                .locals
                .components
                .get(&(name, AXIS_NAMES[axis]))
                .is_some_and(|values| {
                    values
                        .iter()
                        .any(|v| v.start_byte() > helper_call.end_byte())
                });
            if !assigned_here {
                block_dims[axis] = assigned.constant[axis];
            }
        }
    }
    let arity = kernel_arguments.as_ref().map(Vec::len);
    let kernel_arguments = kernel_arguments.unwrap_or_default();
    let threads = threads_on_x(classifier, grid, &grid_parts, block, &block_parts);
    let per_thread_elements = kernel_arguments
        .iter()
        .map(|a| per_thread_unit(classifier, allocations, *a, &threads))
        .collect();
    let allocated_in_sight: Vec<bool> = kernel_arguments
        .iter()
        .map(|a| is_allocated_in_sight(allocations, *a, source))
        .collect();
    let kernel_argument_nodes = kernel_arguments.clone();
    let argument_values = kernel_arguments
        .iter()
        .map(|a| switched_value(classifier, call, *a))
        .collect();
    let argument_factors = kernel_arguments
        .iter()
        .map(|a| classifier.known_factor(*a, 0).max(1))
        .collect();
    let template_arguments = kernel_name_node
        .map(|name| template_argument_values(classifier, name))
        .unwrap_or_default();
    let arguments: Vec<String> = kernel_arguments
        .into_iter()
        .map(|a| normalized(a, source))
        .collect();
    let mut grid_in_arguments = grid_values.map(|value| {
        // as written, or through the locals it is assigned from (`global_work = blk;
        // k<<<global_work, 16>>>(..., blk)`)
        let mut value = value?;
        for _ in 0..4 {
            if let Some(found) = in_arguments(value, &arguments, classifier) {
                return Some(found);
            }
            let name = strip(value, source);
            if name.node_kind() != "identifier" {
                return None;
            }
            match classifier.locals.value_at(text(name, source), name, source) {
                Held::One(assigned) => value = assigned,
                _ => return None,
            }
        }
        None
    });
    // a constant grid rounded up over a constant problem size is no count of the kernel's own:
    // `(1000 + 255) / 256` is 4 blocks exactly, but 1000 is the size they cover
    for (polynomial, axis) in grid_in_arguments.iter_mut().zip(&grid_axes) {
        let constant = polynomial
            .as_ref()
            .is_some_and(|terms| terms.iter().all(|(_, positions)| positions.is_empty()));
        if constant && matches!(axis, GridAxis::RoundedUp(_)) {
            *polynomial = None;
        }
    }
    let shared_bytes = match shared {
        Shared::Omitted => SharedBytes::Omitted,
        Shared::Unknown => SharedBytes::Unknown,
        Shared::At(bytes) => shared_bytes(classifier, bytes, block, &block_parts, &arguments),
    };
    let sizes = if allocated_in_sight.iter().any(|a| *a) {
        let block_values = configuration_values(classifier, block, &block_parts);
        let grid_values = grid_values.to_vec();
        let defaults = [
            grid.is_some() && grid_parts.iter().any(Option::is_some),
            block.is_some() && block_parts.iter().any(Option::is_some),
        ];
        [false, true]
            .into_iter()
            .filter_map(|resolve| {
                launch_sizes(
                    classifier,
                    allocations,
                    [&grid_values, &block_values],
                    defaults,
                    &kernel_argument_nodes,
                    resolve,
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    Some(LaunchSite {
        kernel: kernel.to_string(),
        arity,
        path: path.to_path_buf(),
        span: call.byte_range(),
        line: lines.line_of(call.start_byte()) + 1,
        grid: grid_axes,
        grid_blocks,
        block: block_dims,
        arguments,
        per_thread_elements,
        allocated_in_sight,
        grid_in_arguments,
        shared_bytes,
        sizes,
        argument_factors,
        template_arguments,
        argument_values,
    })
}

/// The constant `argument` holds where `call` sits: `call` is among the statements of `case C:`
/// of a `switch` on that very name, and no case falls through into it.
fn switched_value<'t>(
    classifier: &Classifier<'_, 't>,
    call: Node<'t>,
    argument: Node<'t>,
) -> Option<i128> {
    let source = classifier.source;
    let argument = strip(argument, source);
    if argument.node_kind() != "identifier" {
        return None;
    }
    let name = text(argument, source);
    let mut node = call;
    while let Some(parent) = node.up() {
        match parent.node_kind() {
            "function_definition" | "lambda_expression" => return None,
            "case_statement" => {
                let switch = parent
                    .up()
                    .and_then(|body| body.up())
                    .filter(|s| s.node_kind() == "switch_statement")?;
                let condition = syntax::condition_value(switch.field("condition")?);
                if text(strip(condition, source), source) != name {
                    node = parent;
                    continue;
                }
                // `case 1: case 2: launch`: the launch is reached with either value
                let falls_into = parent.prev_named_sibling().is_some_and(|previous| {
                    previous.node_kind() == "case_statement"
                        && !syntax::named_children(previous).last().is_some_and(|last| {
                            matches!(
                                last.node_kind(),
                                "break_statement" | "return_statement" | "continue_statement"
                            )
                        })
                });
                if falls_into || classifier.locals.values.contains_key(name) {
                    return None;
                }
                return constant(parent.field("value")?, classifier);
            }
            _ => node = parent,
        }
    }
    None
}

/// `k<256, float>`, `HIP_KERNEL_NAME(k<256>)`, `ns::k<B>`: each template argument's value when
/// it is an integer constant (a literal, a define, a constant local).
fn template_argument_values<'t>(
    classifier: &Classifier<'_, 't>,
    name: Node<'t>,
) -> Vec<Option<i128>> {
    let source = classifier.source;
    let mut name = strip(name, source);
    for _ in 0..4 {
        match name.node_kind() {
            "template_function" => break,
            "qualified_identifier" => match name.field("name") {
                Some(inner) => name = inner,
                None => return Vec::new(),
            },
            "call_expression" => match name.field("arguments").and_then(|a| a.named_child(0)) {
                Some(inner) => name = strip(inner, source),
                None => return Vec::new(),
            },
            _ => return Vec::new(),
        }
    }
    let Some(list) = name.field("arguments") else {
        return Vec::new();
    };
    named_children(list)
        .filter(|c| c.node_kind() != "comment")
        .map(|argument| match argument.node_kind() {
            "type_descriptor" => {
                // `k<BLOCK>` parses the name as a type: a define or constant of that name
                let written = text(argument, source).trim();
                constant_named(classifier, written)
            }
            _ => constant(argument, classifier),
        })
        .collect()
}

/// The value of a constant named `name` where a launch is: a define or a local or file-scope
/// constant.
fn constant_named(classifier: &Classifier<'_, '_>, name: &str) -> Option<i128> {
    let scope = LaunchScope(classifier);
    match scope.definition(name) {
        Some(value) => constant(value, classifier),
        None => size::parse_number(scope.define(name)?.trim()),
    }
}

/// The value of each component of a launch's block (or grid) argument: `dim3(a, b)`, a local
/// `dim3` with its components assigned later (the assignment the launch sees), or a scalar as
/// `x`; None for a component left out (1) or not known.
fn configuration_values<'t>(
    classifier: &Classifier<'_, 't>,
    whole: Option<Node<'t>>,
    parts: &[Option<Node<'t>>],
) -> Vec<Option<Node<'t>>> {
    let source = classifier.source;
    let name = whole
        .map(|w| strip(w, source))
        .filter(|w| w.node_kind() == "identifier");
    (0..3)
        .map(|axis| {
            let assigned = match name {
                Some(n) => {
                    classifier
                        .locals
                        .component_at(text(n, source), AXIS_NAMES[axis], n, source)
                }
                None => Held::NotLocal,
            };
            match assigned {
                Held::One(value) => Some(value),
                Held::NotLocal => parts.get(axis).copied().flatten(),
                _ => None,
            }
        })
        .collect()
}

/// The launch's sizes over the launching function's names (`resolve` false: a local is its own
/// name) or with each local defined once replaced by its value; None when the grid's `x` or the
/// block's `x` cannot be written so.
fn launch_sizes<'t>(
    classifier: &Classifier<'_, 't>,
    allocations: &Allocations<'_, 't>,
    [grid, block]: [&[Option<Node<'t>>]; 2],
    defaults: [bool; 2],
    arguments: &[Node<'t>],
    resolve: bool,
) -> Option<LaunchSizes> {
    let source = classifier.source;
    let scope = SizeScope::new(classifier, resolve);
    let evaluator = Evaluator {
        source,
        scope: &scope,
        fold_sizeof: true,
    };
    let axes = |values: &[Option<Node<'t>>], default_one: bool| -> [Option<Sym>; 3] {
        let mut axes = [None, None, None];
        for (axis, slot) in axes.iter_mut().enumerate() {
            *slot = match values.get(axis).copied().flatten() {
                Some(value) => evaluator.eval(value),
                None if default_one && axis > 0 => Some(Sym::constant(1)),
                None => None,
            };
        }
        axes
    };
    let grid = axes(grid, defaults[0]);
    let block = axes(block, defaults[1]);
    grid[0].as_ref()?;
    block[0].as_ref()?;
    // an allocation outside the launching function sees none of its locals; the scopes keep
    // what they learn of each name, so one of each kind serves every allocation
    let no_locals = Locals::default();
    let outside_classifier = Classifier {
        locals: &no_locals,
        ..*classifier
    };
    let outside_scope = SizeScope::new(&outside_classifier, resolve);
    let outside = Evaluator {
        source,
        scope: &outside_scope,
        fold_sizeof: true,
    };
    let function = allocations.function.byte_range();
    let buffers = arguments
        .iter()
        .map(|argument| {
            let mut bytes: Option<Sym> = None;
            for allocated in allocations.of_argument(*argument, source) {
                let in_function = function.contains(&allocated.call.start_byte());
                let evaluator = if in_function { &evaluator } else { &outside };
                let size = evaluator.eval(allocated.size?)?;
                match &bytes {
                    Some(known) if *known != size => return None,
                    _ => bytes = Some(size),
                }
            }
            bytes
        })
        .collect();
    Some(LaunchSizes {
        grid,
        block,
        arguments: arguments.iter().map(|a| evaluator.eval(*a)).collect(),
        buffers,
    })
}

/// The launching function's names for the size evaluator: file-scope constants and defines
/// are their values; a local is its own name, or with `resolve` its value where it has one; a
/// local that holds a multiple of `M` wherever it is read (see `multiple_of`) is `M · q`.
struct SizeScope<'c, 'a, 't> {
    classifier: &'c Classifier<'a, 't>,
    resolve: bool,
    /// Per local asked about: the multiple it holds (None: not known to hold one).
    multiples: std::cell::RefCell<std::collections::HashMap<String, Option<Sym>>>,
    /// Per local asked about: whether it holds one value wherever it is read.
    one_value: std::cell::RefCell<std::collections::HashMap<String, bool>>,
}

impl<'c, 'a, 't> SizeScope<'c, 'a, 't> {
    fn new(classifier: &'c Classifier<'a, 't>, resolve: bool) -> Self {
        SizeScope {
            classifier,
            resolve,
            multiples: Default::default(),
            one_value: Default::default(),
        }
    }

    fn holds_one_value(&self, name: &str) -> bool {
        if let Some(known) = self.one_value.borrow().get(name) {
            return *known;
        }
        let one = holds_one_value(self.classifier.locals, name, self.classifier.source);
        self.one_value.borrow_mut().insert(name.to_string(), one);
        one
    }

    /// The value `M` that the local `name` is a multiple of wherever the function reads it, as
    /// a size (`items * 4` for `n = (n + items * 4 - 1) / (items * 4) * (items * 4)`, `192` for
    /// `nr = 192 * (n / 192 + min(1, n % 192))`): see `multiple_of_local`.
    fn multiple_of(&self, name: &str) -> Option<Sym> {
        if let Some(known) = self.multiples.borrow().get(name) {
            return known.clone();
        }
        // asked again while its own values are read: not known
        self.multiples.borrow_mut().insert(name.to_string(), None);
        let evaluator = Evaluator {
            source: self.classifier.source,
            scope: self,
            fold_sizeof: true,
        };
        let multiple =
            multiple_of_local(self.classifier.locals, name, self.classifier.source, &|n| {
                evaluator.eval(n)
            });
        self.multiples
            .borrow_mut()
            .insert(name.to_string(), multiple.clone());
        multiple
    }
}

/// What every value assigned to the local `name` is a multiple of, when the function reads it
/// only after the first of them: each value is a product `E * M` (either order) whose one
/// factor `M` evaluates without rounding (`eval`) and whose other factor is an integer
/// expression that does not (a rounded quotient, a `%`, a call: `(n + M - 1) / M * M`; a
/// product of two sizes is read as it is); every
/// value names the same `M`, and every name `M` is written in keeps one value. The local is a
/// parameter or declared in the function, and no read of it comes before the first value (a
/// parameter's value on entry is the caller's).
fn multiple_of_local<'t>(
    locals: &Locals<'t>,
    name: &str,
    source: &'t str,
    eval: &dyn Fn(Node<'t>) -> Option<Sym>,
) -> Option<Sym> {
    let body = locals.scope?;
    let values = locals.values.get(name)?;
    let mut multiple: Option<Sym> = None;
    for value in values {
        let value = strip(*value, source);
        if value.node_kind() != "binary_expression" || syntax::operator(value, source) != "*" {
            return None;
        }
        let (left, right) = (value.field("left")?, value.field("right")?);
        let factor =
            |side: Node<'t>| eval(side).filter(|s| !s.floored && s.integer_terms().is_some());
        let (m, factor_node, other) = match (factor(left), factor(right)) {
            (Some(m), None) => (m, left, right),
            (None, Some(m)) => (m, right, left),
            // a product of two sizes is read whole
            _ => return None,
        };
        if m.as_constant().is_some_and(|c| c <= 1)
            || has_float_literal(other, source)
            || !names_keep_one_value(locals, factor_node, source)
        {
            return None;
        }
        match &multiple {
            Some(known) if *known != m => return None,
            _ => multiple = Some(m),
        }
    }
    let first = values.iter().min_by_key(|v| v.start_byte())?;
    reads_follow(locals, body, name, *first, source)
        .then_some(multiple)
        .flatten()
}

/// Whether every name written in `node` that is a local of the function keeps the one value
/// its declaration gives it.
fn names_keep_one_value(locals: &Locals, node: Node, source: &str) -> bool {
    let mut keeps = true;
    syntax::walk_iterative(node, |n| {
        if n.node_kind() == "identifier" {
            keeps &= match locals.values.get(text(n, source)).map(Vec::as_slice) {
                None | Some([]) => true,
                Some([value]) => value.up().is_some_and(|p| {
                    matches!(p.node_kind(), "init_declarator" | "argument_list")
                        || p.node_kind() == "initializer_list"
                }),
                Some(_) => false,
            };
        }
        keeps
    });
    keeps
}

/// Whether `node` holds a floating-point literal (`n * 0.5`: not a multiple of `n`).
fn has_float_literal(node: Node, source: &str) -> bool {
    let mut found = false;
    syntax::walk_iterative(node, |n| {
        if n.node_kind() == "number_literal" {
            let literal = text(n, source).to_ascii_lowercase();
            found |= !literal.starts_with("0x")
                && (literal.contains('.') || literal.contains('e') || literal.ends_with('f'));
        }
        !found
    });
    found
}

/// Whether the function whose body is `body` (the scope of `locals`) has `name` as a parameter
/// or declares it, and reads or writes it nowhere before the statement that assigns `first`
/// (other than declaring it there without a value) nor outside the block holding that statement.
fn reads_follow<'t>(
    locals: &Locals<'t>,
    body: Node<'t>,
    name: &str,
    first: Node<'t>,
    source: &'t str,
) -> bool {
    let mut statement = first;
    while let Some(parent) = statement.up() {
        if parent.node_kind() == "compound_statement" {
            break;
        }
        if statement == body {
            return false;
        }
        statement = parent;
    }
    let Some(block) = statement.up() else {
        return false;
    };
    let mut declared = false;
    if let Some(declarator) = body.up().and_then(|f| f.field("declarator")) {
        syntax::walk_iterative(declarator, |n| {
            declared |= n.node_kind() == "identifier" && text(n, source) == name;
            !declared
        });
    }
    // every identifier of the body spelled `name`, as a walk of the body meets them
    for n in locals.occurrences(name, source) {
        let kind = n.up().map(|p| p.node_kind());
        let declaration = matches!(kind, Some("declaration" | "init_declarator"));
        declared |= declaration;
        let follows = if n.start_byte() < statement.start_byte() {
            kind == Some("declaration")
        } else {
            block.start_byte() <= n.start_byte() && n.end_byte() <= block.end_byte()
        };
        if !follows {
            return false;
        }
    }
    declared
}

/// Whether the local `name` has one value wherever the function reads it: nothing writes it
/// after its declaration (an assignment, `+=`, `++`, its address taken) after a read of it. A
/// count padded after the buffer was allocated with it is two values; a count read back from
/// the device at the top of a loop, then allocated with and launched over, is one in each trip.
fn holds_one_value<'t>(locals: &Locals<'t>, name: &str, source: &'t str) -> bool {
    let (Some(_), Some(values)) = (locals.scope, locals.values.get(name)) else {
        return true;
    };
    let writes: Vec<Node> = values
        .iter()
        .copied()
        .filter(|v| v.up().is_none_or(|p| p.node_kind() != "init_declarator"))
        .collect();
    if writes.is_empty() {
        return true;
    }
    let Some(last) = writes.iter().map(|w| w.start_byte()).max() else {
        return true;
    };
    locals
        .occurrences(name, source)
        .iter()
        .filter(|n| n.start_byte() < last)
        .all(|n| is_written_name(*n, source))
}

/// Whether the identifier `n` is what an assignment, update or `&` writes, or a declarator.
fn is_written_name(n: Node, source: &str) -> bool {
    let Some(parent) = n.up() else {
        return false;
    };
    match parent.node_kind() {
        "assignment_expression" => parent.field("left") == Some(n),
        "update_expression" => true,
        "pointer_expression" => syntax::operator(parent, source) == "&",
        "declaration" | "init_declarator" => parent.field("value") != Some(n),
        _ => false,
    }
}

impl<'t> Scope<'t> for SizeScope<'_, '_, 't> {
    fn atom(&self, name: &str) -> Option<Sym> {
        match self.multiple_of(name) {
            Some(multiple) => multiple.mul(&Sym::atom(&format!("{name}/({})", multiple.display()))),
            None if !self.holds_one_value(name) => None,
            None => Some(Sym::atom(name)),
        }
    }
    fn definition(&self, name: &str) -> Option<Node<'t>> {
        let locals = self.classifier.locals;
        if self.multiple_of(name).is_some() || !self.holds_one_value(name) {
            return None;
        }
        match locals.values.get(name) {
            Some(_) if self.resolve => locals.single(name),
            Some(_) => None,
            None => locals.file_constants.get(name).copied(),
        }
    }
    fn pointee(&self, _: &str) -> Option<String> {
        None
    }
    fn scalar_type(&self, _: &str) -> Option<String> {
        None
    }
    fn define(&self, name: &str) -> Option<&str> {
        self.classifier.helpers.define(name)
    }
    fn is_type(&self, name: &str) -> bool {
        LaunchScope(self.classifier).is_type(name)
    }
}

/// The file-scope constants a kernel's file declares, for reading the names a kernel's index
/// is written in (`voxels * blockIdx.x` with `constexpr unsigned voxels(225);`) as numbers.
pub struct FileConstants<'t> {
    locals: Locals<'t>,
    source: &'t str,
}

impl<'t> FileConstants<'t> {
    /// The constants of the file holding `body`.
    pub fn of(body: Node<'t>, source: &'t str) -> FileConstants<'t> {
        let mut locals = Locals::default();
        locals.read_file_scope(body, source);
        FileConstants { locals, source }
    }

    /// The value of a file-scope constant or object-like `#define` named `name`.
    pub fn value(&self, name: &str, helpers: &dyn GridHelpers) -> Option<i128> {
        let classifier = Classifier {
            source: self.source,
            locals: &self.locals,
            helpers,
            constants_divide: true,
        };
        let scope = LaunchScope(&classifier);
        match scope.definition(name) {
            Some(value) => constant(value, &classifier),
            None => size::parse_number(helpers.define(name)?.trim()),
        }
    }
}

/// The grid a launch's configuration argument holds when it is the value of a host helper that
/// returns one (`dim3 grid = grid_for(b, h, s);` or the call itself): each axis as the helper
/// computes it.
fn returned_grid<'t>(classifier: &Classifier<'_, 't>, grid: Node<'t>) -> Option<[GridAxis; 3]> {
    let source = classifier.source;
    let mut node = strip(grid, source);
    if node.node_kind() == "identifier" {
        node = match classifier.locals.value_at(text(node, source), node, source) {
            Held::One(value) => strip(value, source),
            _ => return None,
        };
    }
    if node.node_kind() != "call_expression" {
        return None;
    }
    let function = node.field("function")?;
    let name = text(function, source);
    if matches!(name, "dim3" | "make_uint3" | "make_int3") {
        return None;
    }
    let arguments = syntax::call_arguments(node);
    let mut axes = classifier.helpers.returned_grid(name, arguments.len())?;
    // an extent the helper was given is the argument the call passes for it
    for axis in &mut axes {
        if let GridAxis::RoundedUp(total) = axis {
            if let Some(position) = total
                .strip_prefix(HELPER_PARAMETER)
                .and_then(|p| p.parse::<usize>().ok())
            {
                *axis = match arguments.get(position) {
                    Some(argument) => GridAxis::RoundedUp(normalized(*argument, source)),
                    None => GridAxis::Unknown,
                };
            }
        }
    }
    Some(axes)
}

/// Whether a check on the launch's path states the grid local `name`'s `axis` exact:
/// `FT_CHECK(grid.x * per_block == batch * heads * seq_len)`, `assert(blocks == rows)`, or `if
/// (grid.x * k != n) return;` before the launch, with the grid's blocks (times any count per
/// block) equal to an exact size, and no assignment of that component between the check and the
/// launch. The code stops where the equality fails, so where the launch runs the blocks are the
/// problem's, however the count was computed (halved in a loop while even).
fn checked_exact<'t>(
    classifier: &Classifier<'_, 't>,
    call: Node<'t>,
    name: &str,
    axis: usize,
) -> bool {
    let source = classifier.source;
    let Some(body) = classifier.locals.scope else {
        return false;
    };
    let field = AXIS_NAMES[axis];
    let component = format!("{name}.{field}");
    let locals = classifier.locals;
    let as_dim3 = locals.dim3.contains_key(name)
        || AXIS_NAMES
            .iter()
            .any(|f| locals.components.contains_key(&(name, *f)));
    // `blocks == n` for a scalar grid, only on `x`
    let whole = (!as_dim3 && axis == 0).then_some(name);
    let assignments: Vec<Node<'t>> = locals
        .components
        .get(&(name, field))
        .into_iter()
        .chain(whole.and_then(|w| locals.values.get(w)))
        .flatten()
        .copied()
        .collect();
    let names_grid = |node: Node<'t>| {
        let written = normalized(node, source);
        written == component || whole.is_some_and(|w| written == w)
    };
    // the grid, or a product with the grid as a factor
    let holds_grid = |side: Node<'t>| {
        let mut stack = vec![strip(side, source)];
        let mut found = false;
        while let Some(node) = stack.pop() {
            if names_grid(node) {
                found = true;
            } else if node.node_kind() == "binary_expression"
                && syntax::operator(node, source) == "*"
            {
                stack.extend(node.field("left").map(|l| strip(l, source)));
                stack.extend(node.field("right").map(|r| strip(r, source)));
            }
        }
        found
    };
    limits::facts_at(call, body, source).iter().any(|fact| {
        fact.relation == crate::model::guards::Relation::Equal
            && [true, false].into_iter().any(|left_side| {
                let fact = fact.oriented(left_side);
                holds_grid(fact.left)
                    && !holds_grid(fact.right)
                    && classifier.axis(fact.right, 0) == GridAxis::Exact
            })
            && !assignments.iter().any(|a| {
                a.start_byte() > fact.origin.start_byte() && a.start_byte() < call.start_byte()
            })
    })
}

/// A grid axis a helper gives, with an extent that is one of its parameters replaced by the
/// argument the call passes there.
fn in_caller(axis: GridAxis, arguments: &[Node], source: &str) -> GridAxis {
    match &axis {
        GridAxis::RoundedUp(total) => match total
            .strip_prefix(HELPER_PARAMETER)
            .and_then(|p| p.parse::<usize>().ok())
        {
            Some(position) => match arguments.get(position) {
                Some(argument) => GridAxis::RoundedUp(normalized(*argument, source)),
                None => GridAxis::Unknown,
            },
            None => axis,
        },
        _ => axis,
    }
}

/// Marks an extent that is a grid helper's parameter, by position, in what the helper returns.
const HELPER_PARAMETER: &str = "\u{1}parameter ";

/// What a host function that returns a `dim3` gives on each axis: its single `return` of
/// `{x, y}`, `dim3(x, y)` or a local `dim3` built so, each component classified with the
/// function's own locals (its parameters are the caller's sizes). None for any other function.
pub fn returned_grid_of(
    function: &super::Function,
    source: &str,
    helpers: &dyn GridHelpers,
) -> Option<[GridAxis; 3]> {
    // a grid helper is a few lines; longer bodies are not read for one
    if function.body.byte_range().len() > 2000 || function.kind != super::FunctionKind::Host {
        return None;
    }
    let returns_dim3 = function
        .definition
        .field("type")
        .is_some_and(|t| text(t, source) == "dim3");
    if !returns_dim3 {
        return None;
    }
    let returns = syntax::return_values(function.body);
    let [Some(value)] = returns.as_slice() else {
        return None;
    };
    let locals = Locals::of(function.body, source);
    let classifier = Classifier {
        source,
        locals: &locals,
        helpers,
        constants_divide: true,
    };
    let parts = components(&classifier, Some(*value));
    let grid_name = strip(*value, source);
    let grid_name = (grid_name.node_kind() == "identifier").then_some(grid_name);
    let mut axes = [GridAxis::Unknown, GridAxis::Unknown, GridAxis::Unknown];
    for (axis, slot) in axes.iter_mut().enumerate() {
        let assigned = match grid_name {
            Some(g) => locals.component_at(text(g, source), AXIS_NAMES[axis], g, source),
            None => Held::NotLocal,
        };
        *slot = match (assigned, parts.get(axis).copied().flatten()) {
            (Held::One(value), _) => classifier.axis(value, 0),
            (Held::Alternatives(values), _) => classifier.alternatives(&values, 0),
            (Held::Several, _) => GridAxis::Unknown,
            (Held::NotLocal, Some(part)) => classifier.axis(part, 0),
            // a component left out of the list is 1
            (Held::NotLocal, None) if parts.iter().any(Option::is_some) => GridAxis::Exact,
            (Held::NotLocal, None) => GridAxis::Unknown,
        };
        if let GridAxis::RoundedUp(total) = slot {
            if let Some(position) = function.parameters.iter().position(|p| p.name == *total) {
                *slot = GridAxis::RoundedUp(format!("{HELPER_PARAMETER}{position}"));
            }
        }
    }
    Some(axes)
}

/// What a host function assigns to the components of its parameter at `position` when that is
/// a `dim3` taken by reference or pointer (`grid.x = rows;`, `block->x = 256;`): each axis
/// classified as a grid with the function's own locals (its parameters are the caller's sizes;
/// an extent that is one is marked by its position), and its constant where a single
/// assignment in the function's outermost block gives one. None for any other function or
/// parameter, or when the function assigns none of its components.
pub fn assigned_dim3_of(
    function: &super::Function,
    position: usize,
    source: &str,
    helpers: &dyn GridHelpers,
) -> Option<AssignedDim3> {
    // a grid helper is a few lines; longer bodies are not read for one
    if function.body.byte_range().len() > 2000 || function.kind != super::FunctionKind::Host {
        return None;
    }
    let parameter = function.parameters.get(position)?;
    let declared = text(parameter.declaration, source);
    let by_reference = declared.contains('&') || parameter.is_pointer;
    if parameter.type_text.trim() != "dim3" || !by_reference {
        return None;
    }
    let locals = Locals::of(function.body, source);
    let classifier = Classifier {
        source,
        locals: &locals,
        helpers,
        constants_divide: true,
    };
    let mut assigned = AssignedDim3 {
        grid: [None, None, None],
        constant: [None, None, None],
    };
    for (axis, field) in AXIS_NAMES.iter().enumerate() {
        let Some(values) = locals.components.get(&(parameter.name.as_str(), *field)) else {
            continue;
        };
        // every value assigned is one the caller may see (a later one hides an earlier one
        // only on its own path)
        let mut grid = if values
            .iter()
            .any(|v| super::reaching::updates_itself(*v, source))
        {
            GridAxis::Unknown
        } else {
            classifier.alternatives(values, 0)
        };
        if let GridAxis::RoundedUp(total) = &grid {
            if let Some(at) = function.parameters.iter().position(|p| p.name == *total) {
                grid = GridAxis::RoundedUp(format!("{HELPER_PARAMETER}{at}"));
            }
        }
        assigned.grid[axis] = Some(grid);
        if let [value] = values.as_slice() {
            let outermost = value
                .up()
                .filter(|a| a.node_kind() == "assignment_expression")
                .and_then(|a| a.up())
                .and_then(|s| s.up())
                .is_some_and(|block| block.id() == function.body.id());
            if outermost {
                assigned.constant[axis] = constant(*value, &classifier);
            }
        }
    }
    assigned
        .grid
        .iter()
        .any(Option::is_some)
        .then_some(assigned)
}

/// The helper call that sets the `dim3` local `name` before the launch `at`: the last call
/// before it that passes the local (or its address) as an argument, in a block around the
/// launch; with the callee's summary (`assigned_dim3`) when the file defines it, and where the
/// call is.
fn set_by_helper<'t>(
    classifier: &Classifier<'_, 't>,
    name: Node<'t>,
    at: Node<'t>,
) -> Option<(AssignedDim3, Node<'t>)> {
    let source = classifier.source;
    let local = text(name, source);
    let mut last: Option<(Node<'t>, usize)> = None;
    for occurrence in classifier.locals.occurrences(local, source) {
        if occurrence.start_byte() >= at.start_byte() {
            break;
        }
        let mut argument = *occurrence;
        if let Some(address) = argument.up().filter(|p| {
            p.node_kind() == "pointer_expression" && syntax::operator(*p, source) == "&"
        }) {
            argument = address;
        }
        let Some(list) = argument.up().filter(|l| l.node_kind() == "argument_list") else {
            continue;
        };
        let Some(call) = list.up().filter(|c| c.node_kind() == "call_expression") else {
            continue;
        };
        if call.byte_range().contains(&at.start_byte()) {
            continue;
        }
        let position = syntax::call_arguments(call)
            .iter()
            .position(|a| a.id() == argument.id());
        if let Some(position) = position {
            last = Some((call, position));
        }
    }
    let (call, position) = last?;
    // the call runs on every path to the launch: its statement sits in a block around it
    let statement = call
        .up()
        .filter(|s| s.node_kind() == "expression_statement")?;
    let block = statement
        .up()
        .filter(|b| b.node_kind() == "compound_statement")?;
    if !block.byte_range().contains(&at.start_byte()) {
        return None;
    }
    let function = call.field("function")?;
    let callee = grid::callee_name(function, source);
    let short = callee.rsplit("::").next().unwrap_or(callee);
    let arity = syntax::call_arguments(call).len();
    let assigned = classifier.helpers.assigned_dim3(short, arity, position)?;
    Some((assigned, call))
}

/// Where a launch's dynamic shared-memory byte count is, if anywhere.
enum Shared<'t> {
    At(Node<'t>),
    Omitted,
    Unknown,
}

/// The byte count `bytes` as a polynomial over the block's dimensions (a name the block is
/// given as, `threads.x` for a `dim3 threads`) and the kernel's arguments, `sizeof` of the
/// built-in and vector types folded: `block * sizeof(float)` with `<<<g, block, ...>>>` is
/// `4 · blockDim.x`.
fn shared_bytes<'t>(
    classifier: &Classifier<'_, 't>,
    bytes: Node<'t>,
    block: Option<Node<'t>>,
    block_parts: &[Option<Node<'t>>],
    arguments: &[String],
) -> SharedBytes {
    let source = classifier.source;
    let scope = LaunchScope(classifier);
    let evaluator = Evaluator {
        source,
        scope: &scope,
        fold_sizeof: true,
    };
    let Some(terms) = evaluator.eval(bytes).and_then(|b| b.integer_terms()) else {
        return SharedBytes::Unknown;
    };
    // the names each block dimension goes by
    let mut block_names: Vec<(String, usize)> = Vec::new();
    for (axis, part) in block_parts.iter().enumerate().take(3) {
        let Some(part) = part else { continue };
        if let Some([(1, atoms)]) = evaluator
            .eval(*part)
            .and_then(|p| p.integer_terms())
            .as_deref()
        {
            if let [atom] = atoms.as_slice() {
                block_names.push((atom.clone(), axis));
            }
        }
    }
    if let Some(name) = block
        .map(|b| strip(b, source))
        .filter(|b| b.node_kind() == "identifier")
    {
        for (axis, field) in AXIS_NAMES.iter().enumerate() {
            block_names.push((format!("{}.{field}", text(name, source)), axis));
        }
    }
    let atom = |name: &String| -> Option<SharedAtom> {
        if let Some((_, axis)) = block_names.iter().find(|(n, _)| n == name) {
            return Some(SharedAtom::Block(*axis));
        }
        arguments
            .iter()
            .position(|a| a == name)
            .map(SharedAtom::Argument)
    };
    let known: Option<Vec<(i128, Vec<SharedAtom>)>> = terms
        .iter()
        .map(|(coefficient, atoms)| {
            let atoms = atoms.iter().map(atom).collect::<Option<Vec<_>>>()?;
            Some((*coefficient, atoms))
        })
        .collect();
    known.map_or(SharedBytes::Unknown, SharedBytes::Known)
}

/// Whether the buffer passed as `argument` is allocated in the launching function (or, for a
/// member, anywhere in the file).
fn is_allocated_in_sight<'t>(
    allocations: &Allocations<'_, 't>,
    argument: Node<'t>,
    source: &str,
) -> bool {
    allocations.of_argument(argument, source).next().is_some()
}

/// `value` as a polynomial with integer coefficients over the positions of the arguments its
/// names are passed as; None when it rounds, or names something not passed.
fn in_arguments(
    value: Node,
    arguments: &[String],
    classifier: &Classifier,
) -> Option<ArgumentPolynomial> {
    struct Names;
    impl<'t> size::Scope<'t> for Names {
        fn definition(&self, _: &str) -> Option<Node<'t>> {
            None
        }
        fn pointee(&self, _: &str) -> Option<String> {
            None
        }
        fn scalar_type(&self, _: &str) -> Option<String> {
            None
        }
        fn define(&self, _: &str) -> Option<&str> {
            None
        }
    }
    let evaluator = Evaluator {
        source: classifier.source,
        scope: &Names,
        fold_sizeof: true,
    };
    let terms = evaluator.eval(value)?.integer_terms()?;
    terms
        .into_iter()
        .map(|(coefficient, monomial)| {
            let positions = monomial
                .iter()
                .map(|atom| arguments.iter().position(|a| a == atom))
                .collect::<Option<Vec<usize>>>()?;
            Some((coefficient, positions))
        })
        .collect()
}

/// The number of threads along `x`, the grid's `x` times the block's, as sizes: each
/// configuration argument by its value and, when it names a `dim3`, as `name.x`, the way an
/// allocation sized for it is written.
fn threads_on_x<'t>(
    classifier: &Classifier<'_, 't>,
    grid: Option<Node<'t>>,
    grid_parts: &[Option<Node<'t>>],
    block: Option<Node<'t>>,
    block_parts: &[Option<Node<'t>>],
) -> Vec<Sym> {
    let source = classifier.source;
    let scope = LaunchScope(classifier);
    let evaluator = Evaluator {
        source,
        scope: &scope,
        fold_sizeof: false,
    };
    let ways = |whole: Option<Node<'t>>, parts: &[Option<Node<'t>>]| -> Vec<Sym> {
        let mut ways: Vec<Sym> = parts
            .first()
            .copied()
            .flatten()
            .and_then(|part| evaluator.eval(part))
            .into_iter()
            .collect();
        if let Some(name) = whole
            .map(|w| strip(w, source))
            .filter(|w| w.node_kind() == "identifier")
        {
            ways.push(Sym::atom(&format!("{}.x", text(name, source))));
        }
        ways
    };
    let blocks = ways(grid, grid_parts);
    let threads = ways(block, block_parts);
    blocks
        .iter()
        .flat_map(|b| threads.iter().filter_map(move |t| b.mul(t)))
        .collect()
}

/// For a launch argument naming a buffer, the element type `T` of its allocation and how many
/// times `threads` elements of `T` it holds (1 to 8), when it holds them at least once.
fn per_thread_unit<'t>(
    classifier: &Classifier<'_, 't>,
    allocations: &Allocations<'_, 't>,
    argument: Node<'t>,
    threads: &[Sym],
) -> Option<(String, u32)> {
    if threads.is_empty() {
        return None;
    }
    let source = classifier.source;
    let function = allocations.function;
    let sizes: Vec<(Node<'t>, Option<Node<'t>>)> = allocations
        .of_argument(argument, source)
        .map(|a| (a.call, a.size))
        .collect();
    if sizes.is_empty() {
        return None;
    }
    let mut unit: Option<(String, u32)> = None;
    for (call, size) in sizes {
        let size = strip(size?, source);
        let in_function = function.byte_range().contains(&call.start_byte());
        let mut sizeofs = Vec::new();
        syntax::walk_iterative(size, |n| {
            if n.node_kind() == "sizeof_expression" {
                sizeofs.push(n);
                return false;
            }
            true
        });
        let [sizeof] = sizeofs.as_slice() else {
            return None;
        };
        let element = size::normalize_type(
            sizeof
                .field("type")
                .or_else(|| sizeof.field("value").map(|v| strip(v, source)))
                .map(|t| text(t, source))?,
        );
        let no_locals = Locals::default();
        let scope_classifier = Classifier {
            source,
            locals: if in_function {
                classifier.locals
            } else {
                &no_locals
            },
            helpers: classifier.helpers,
            constants_divide: classifier.constants_divide,
        };
        let scope = LaunchScope(&scope_classifier);
        let evaluator = Evaluator {
            source,
            scope: &scope,
            fold_sizeof: false,
        };
        let bytes = evaluator.eval(size)?;
        let unit_size = Sym::atom(&format!("sizeof({element})"));
        let copies = [8, 4, 2, 1].into_iter().find(|k| {
            threads.iter().any(|t| {
                t.mul(&unit_size)
                    .and_then(|needed| needed.mul(&Sym::constant(i128::from(*k))))
                    .is_some_and(|needed| needed.at_most(&bytes))
            })
        })?;
        unit = match unit {
            None => Some((element, copies)),
            Some((u, c)) if u == element => Some((u, c.min(copies))),
            Some(_) => return None,
        };
    }
    unit
}

/// What the launches of a file read outside their own function, each found once, on first use,
/// for every launch site that asks: the device allocations (`cudaMalloc`, `cudaMallocManaged`,
/// `cudaMallocAsync`; a member may be allocated in another function) and the file-scope
/// constants (`Locals::read_file_scope`).
pub struct FileScope<'t> {
    root: Node<'t>,
    source: &'t str,
    /// Whether the file's text names an allocation at all: most code allocates nothing, and a
    /// look at the text spares the walk.
    allocates: std::cell::OnceCell<bool>,
    constants: std::cell::OnceCell<Locals<'t>>,
    /// Whether a launch looked for a member's allocations anywhere in the file since the last
    /// `take_member_reads` (what the launches of a function read, for reusing them).
    member_reads: std::cell::Cell<bool>,
    /// The file's calls, found in one walk when a launch first asks for its allocations or what
    /// the callers of its function pass.
    calls: std::cell::OnceCell<FileCalls<'t>>,
    /// Whether a launch read what the callers of its function pass since the last
    /// `take_caller_reads`.
    caller_reads: std::cell::Cell<bool>,
    /// Where each identifier of the text appears, read in one pass when `callers_hash` is
    /// first asked.
    words: std::cell::OnceCell<rustc_hash::FxHashMap<&'t str, Vec<u32>>>,
}

/// The file's allocations as seen from one launching function.
struct Allocations<'f, 't> {
    function: Node<'t>,
    file: &'f FileScope<'t>,
}

impl<'f, 't> Allocations<'f, 't> {
    /// The allocations of the buffer `argument` passes: in the launching function, or anywhere
    /// in the file for a member (an init function may allocate it, another launch).
    fn of_argument(
        &self,
        argument: Node<'t>,
        source: &str,
    ) -> impl Iterator<Item = &'f Allocated<'t>> + use<'f, 't> {
        let argument = strip(argument, source);
        let anywhere_in_file = match argument.node_kind() {
            "identifier" => Some(false),
            "field_expression" => Some(true),
            _ => None,
        };
        let name = normalized(argument, source);
        let function = self.function.byte_range();
        let (all, positions): (&'f [Allocated<'t>], &'f [u32]) = match anywhere_in_file {
            Some(member) => {
                if member {
                    self.file.member_reads.set(true);
                }
                self.file.allocations_of(&name)
            }
            None => (&[], &[]),
        };
        let anywhere_in_file = anywhere_in_file.unwrap_or(false);
        positions
            .iter()
            .filter_map(move |at| all.get(*at as usize))
            .filter(move |a| anywhere_in_file || function.contains(&a.call.start_byte()))
    }
}

struct Allocated<'t> {
    /// What the pointer written is, normalized (`d_states`, `plan->states`).
    target: String,
    call: Node<'t>,
    size: Option<Node<'t>>,
}

/// The calls of a file, read in one walk: both questions a launch asks of the file's calls
/// (where its buffers are allocated, what its function's callers pass) cost a walk of the whole
/// file each when asked apart.
struct FileCalls<'t> {
    /// Every call by callee name (`callee_name`).
    by_callee: rustc_hash::FxHashMap<&'t str, Vec<Node<'t>>>,
    /// The device allocations (`cudaMalloc`, `cudaMallocManaged`, `cudaMallocAsync`), in file
    /// order; empty when the file's text names no allocation.
    allocations: Vec<Allocated<'t>>,
    /// Positions in `allocations` by the pointer written: a launch asks for each argument's.
    allocations_by_target: rustc_hash::FxHashMap<String, Vec<u32>>,
}

impl<'t> FileScope<'t> {
    pub fn new(root: Node<'t>, source: &'t str) -> FileScope<'t> {
        FileScope {
            root,
            source,
            allocates: std::cell::OnceCell::new(),
            constants: std::cell::OnceCell::new(),
            member_reads: std::cell::Cell::new(false),
            calls: std::cell::OnceCell::new(),
            caller_reads: std::cell::Cell::new(false),
            words: std::cell::OnceCell::new(),
        }
    }

    /// The calls of the function named `name` anywhere in the file.
    fn calls_of(&self, name: &str) -> &[Node<'t>] {
        self.file_calls()
            .by_callee
            .get(name)
            .map_or(&[], Vec::as_slice)
    }

    /// Whether the file's text names an allocation (`cudaMalloc...`, `hipMalloc...`).
    fn allocates(&self) -> bool {
        *self
            .allocates
            .get_or_init(|| self.source.contains("cudaMalloc") || self.source.contains("hipMalloc"))
    }

    /// The file's calls (`FileCalls`), found in one walk on first use.
    fn file_calls(&self) -> &FileCalls<'t> {
        self.calls.get_or_init(|| {
            let source = self.source;
            let allocates = self.allocates();
            let mut calls = FileCalls {
                by_callee: Default::default(),
                allocations: Vec::new(),
                allocations_by_target: Default::default(),
            };
            syntax::walk_iterative(self.root, |node| {
                if node.node_kind() != "call_expression" {
                    return true;
                }
                let Some(function) = node.field("function") else {
                    return true;
                };
                calls
                    .by_callee
                    .entry(grid::callee_name(function, source))
                    .or_default()
                    .push(node);
                if allocates {
                    if let Some(allocated) = allocation(node, function, source) {
                        let position = u32::try_from(calls.allocations.len()).unwrap_or(u32::MAX);
                        calls
                            .allocations_by_target
                            .entry(allocated.target.clone())
                            .or_default()
                            .push(position);
                        calls.allocations.push(allocated);
                    }
                }
                true
            });
            calls
        })
    }

    /// Whether a launch read what the callers of its function pass since the last call; clears
    /// it.
    pub fn take_caller_reads(&self) -> bool {
        self.caller_reads.replace(false)
    }

    /// A hash of the functions that call `name` (their whole text): what a launch that passes
    /// on a parameter of `name` read.
    ///
    /// Found from the mentions of `name` in the text rather than from `calls_of`, whose walk of
    /// the whole tree would cost a keystroke more than the launches it saves reading: every call
    /// of `name` mentions it, so the functions mentioning it hold every caller.
    pub fn callers_hash(&self, name: &str) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = rustc_hash::FxHasher::default();
        let words = self.words.get_or_init(|| word_positions(self.source));
        for &at in words.get(name).map_or(&[][..], Vec::as_slice) {
            let at = at as usize;
            let Some(mention) = self.root.descendant_for_byte_range(at, at + name.len()) else {
                continue;
            };
            enclosing_function(mention)
                .map(|caller| text(caller, self.source))
                .hash(&mut hasher);
        }
        hasher.finish()
    }

    /// The file's device allocations, in file order.
    fn all(&self) -> &[Allocated<'t>] {
        if !self.allocates() {
            return &[];
        }
        &self.file_calls().allocations
    }

    /// The file's device allocations and the positions among them of those that write `target`.
    fn allocations_of(&self, target: &str) -> (&[Allocated<'t>], &[u32]) {
        if !self.allocates() {
            return (&[], &[]);
        }
        let calls = self.file_calls();
        let positions = calls
            .allocations_by_target
            .get(target)
            .map_or(&[][..], Vec::as_slice);
        (&calls.allocations, positions)
    }

    /// The file-scope constants, read once for every launching function of the file.
    fn constants(&self) -> &Locals<'t> {
        self.constants.get_or_init(|| {
            let mut locals = Locals::default();
            locals.read_file_scope(self.root, self.source);
            locals
        })
    }

    /// Whether a launch looked for a member's allocations anywhere in the file since the last
    /// call; clears it.
    pub fn take_member_reads(&self) -> bool {
        self.member_reads.replace(false)
    }

    /// A hash of what the launches in `function` read of the file-scope constants: each
    /// constant's name and value, and for a `dim3` one whether it is declared before the
    /// function (a launch sees only those).
    pub fn constants_hash(&self, function: Node<'t>) -> u64 {
        use std::hash::{Hash, Hasher};
        let constants = self.constants();
        let mut hasher = rustc_hash::FxHasher::default();
        let mut values: Vec<(&str, &str)> = constants
            .file_constants
            .iter()
            .map(|(name, value)| (*name, text(*value, self.source)))
            .collect();
        values.sort_unstable();
        values.hash(&mut hasher);
        let mut lists: Vec<(&str, &str, bool)> = constants
            .dim3
            .iter()
            .flat_map(|(name, lists)| {
                lists.iter().map(|list| {
                    let before = list.start_byte() <= function.start_byte();
                    (*name, text(*list, self.source), before)
                })
            })
            .collect();
        lists.sort_unstable();
        lists.hash(&mut hasher);
        hasher.finish()
    }

    /// A hash of the file's allocations outside `function` (what a member passed to a launch
    /// in it may read), in file order.
    pub fn allocations_hash(&self, function: Node<'t>) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = rustc_hash::FxHasher::default();
        let range = function.byte_range();
        for allocated in self.all() {
            if range.contains(&allocated.call.start_byte()) {
                continue;
            }
            allocated.target.hash(&mut hasher);
            allocated
                .size
                .map(|size| text(size, self.source))
                .hash(&mut hasher);
        }
        hasher.finish()
    }
}

/// The device allocation `call` (whose callee is `function`) makes: `cudaMalloc(&target, size)`,
/// `cudaMallocManaged`, `cudaMallocAsync` (or HIP's), with the pointer it writes.
fn allocation<'t>(call: Node<'t>, function: Node<'t>, source: &str) -> Option<Allocated<'t>> {
    if !matches!(
        super::runtime::cuda_name(text(function, source)).as_ref(),
        "cudaMalloc" | "cudaMallocManaged" | "cudaMallocAsync"
    ) {
        return None;
    }
    let arguments = syntax::call_arguments(call);
    let target = syntax::address_operand(*arguments.first()?, source)?;
    Some(Allocated {
        target: normalized(target, source),
        call,
        size: arguments.get(1).copied(),
    })
}

/// What the launch's function says of its names, for the model's size evaluator.
struct LaunchScope<'c, 'a, 't>(&'c Classifier<'a, 't>);

impl<'t> Scope<'t> for LaunchScope<'_, '_, 't> {
    fn definition(&self, name: &str) -> Option<Node<'t>> {
        match self.0.locals.values.get(name) {
            Some(_) => self.0.locals.single(name),
            None => self.0.locals.file_constants.get(name).copied(),
        }
    }
    fn pointee(&self, _: &str) -> Option<String> {
        None
    }
    fn scalar_type(&self, _: &str) -> Option<String> {
        None
    }
    fn define(&self, name: &str) -> Option<&str> {
        self.0.helpers.define(name)
    }
    /// `sizeof(curandState)` parses as an expression; a name no local holds is a type there.
    fn is_type(&self, name: &str) -> bool {
        !self.0.locals.values.contains_key(name)
            && !self.0.locals.dim3.contains_key(name)
            && !self.0.locals.file_constants.contains_key(name)
    }
}

/// The most threads a block has on `x`, on every device.
pub const MAX_BLOCK_X: i128 = 1024;

/// More blocks than any device holds resident at once (at most 32 per multiprocessor, and no
/// device has 512 multiprocessors): the bound of a grid sized by the occupancy API.
pub const RESIDENT_BLOCKS: i128 = 1 << 14;

/// The most blocks a grid component `node` can be, when the launch shows a bound that does not
/// grow with the problem: a constant (not one rounded up from a count),
/// the smaller of two values of which one is bounded (`min(blocks, 1024)`, `b < 1024 ? b :
/// 1024`), a local clamped before the launch (`if (blocks > 192) blocks = 192;`), or the grid the
/// occupancy API chose for the device (`cudaOccupancyMaxPotentialBlockSize(&blocks, &threads,
/// k)`, at most `RESIDENT_BLOCKS`).
fn most_blocks<'t>(classifier: &Classifier<'_, 't>, node: Node<'t>, depth: usize) -> Option<i128> {
    if depth > 8 {
        return None;
    }
    // a grid rounded up from a count grows with it, whatever that count is where it is launched
    // (`(n + 255) / 256` with `const size_t n = 1 << 20` is meant for any `n`)
    let grows = classifier.rounds_up_by_shape(node);
    if let Some(value) = constant(node, classifier).filter(|_| !grows) {
        return Some(value);
    }
    let source = classifier.source;
    let node = strip(node, source);
    let bound = |side: Node<'t>| most_blocks(classifier, side, depth + 1);
    match node.node_kind() {
        "call_expression" => {
            let function = node.field("function")?;
            let name = text(function, source)
                .trim_start_matches("::")
                .trim_start_matches("std::");
            if !matches!(name, "min" | "umin" | "imin" | "llmin" | "ullmin") {
                return None;
            }
            // the smaller of the two is no larger than the bounded one
            syntax::call_arguments(node)
                .into_iter()
                .filter_map(bound)
                .min()
        }
        "conditional_expression" => {
            let yes = node.field("consequence")?;
            let no = node.field("alternative")?;
            let condition = strip(node.field("condition")?, source);
            if condition.node_kind() == "binary_expression" {
                let (left, right) = (condition.field("left")?, condition.field("right")?);
                let same = |a: Node, b: Node| normalized(a, source) == normalized(b, source);
                let smaller = match syntax::operator(condition, source) {
                    "<" | "<=" => same(yes, left) && same(no, right),
                    ">" | ">=" => same(yes, right) && same(no, left),
                    _ => false,
                };
                if smaller {
                    return [left, right].into_iter().filter_map(bound).min();
                }
            }
            Some(bound(yes)?.max(bound(no)?))
        }
        "identifier" => {
            let name = text(node, source);
            let values = classifier.locals.values.get(name)?;
            let scope = classifier.locals.scope?;
            let mut most: Option<i128> = None;
            // written through its address: known only when the occupancy API writes it
            for value in values.iter().filter(|v| is_address_taken(**v, source)) {
                if !is_occupancy_grid(*value, source) {
                    return None;
                }
                most = Some(RESIDENT_BLOCKS);
            }
            for value in super::reaching::reaching(values, node, scope, source) {
                if super::reaching::updates_itself(value, source) {
                    return None;
                }
                let value_bound = match bound(value) {
                    Some(b) => b,
                    None => clamped(classifier, name, value, node, depth)?,
                };
                most = Some(most.map_or(value_bound, |m| m.max(value_bound)));
            }
            most
        }
        _ => None,
    }
}

/// `&name` passed to a call.
fn is_address_taken(value: Node, source: &str) -> bool {
    value.node_kind() == "identifier"
        && value.up().is_some_and(|p| {
            p.node_kind() == "pointer_expression" && syntax::operator(p, source) == "&"
        })
}

/// `&name` as the grid a `cudaOccupancyMaxPotentialBlockSize` call (or HIP's, or their
/// variable shared-memory forms) writes: its first argument.
fn is_occupancy_grid(value: Node, source: &str) -> bool {
    let Some(address) = value.up() else {
        return false;
    };
    let Some(call) = address
        .up()
        .filter(|list| list.node_kind() == "argument_list")
        .and_then(|list| list.up())
        .filter(|call| call.node_kind() == "call_expression")
    else {
        return false;
    };
    let name = call
        .field("function")
        .map(|f| launched_kernel(f, source))
        .unwrap_or("");
    let api = name
        .strip_prefix("cuda")
        .or_else(|| name.strip_prefix("hip"))
        .unwrap_or("");
    matches!(
        api,
        "OccupancyMaxPotentialBlockSize" | "OccupancyMaxPotentialBlockSizeVariableSMem"
    ) && syntax::call_arguments(call).first() == Some(&address)
}

/// The bound a clamp puts on `value` of local `name` before `at`: `if (name > B) name = C;` run
/// on every path from `value` to `at` leaves `name` no larger than `B` when it was not taken
/// (`C`, when it was, is a value of its own).
fn clamped<'t>(
    classifier: &Classifier<'_, 't>,
    name: &str,
    value: Node<'t>,
    at: Node<'t>,
    depth: usize,
) -> Option<i128> {
    let source = classifier.source;
    let values = classifier.locals.values.get(name)?;
    values.iter().find_map(|assigned| {
        let assignment = assigned
            .up()
            .filter(|a| a.node_kind() == "assignment_expression")?;
        let mut statement = assignment
            .up()
            .filter(|s| s.node_kind() == "expression_statement")?;
        let mut branch = statement.up()?;
        if branch.node_kind() == "compound_statement" && branch.named_child_count() == 1 {
            statement = branch;
            branch = statement.up()?;
        }
        if branch.node_kind() != "if_statement"
            || branch.field("consequence") != Some(statement)
            || branch.field("alternative").is_some()
            || value.end_byte() > branch.start_byte()
            || branch.end_byte() > at.start_byte()
            || !branch.up().is_some_and(|block| {
                block.node_kind() == "compound_statement"
                    && block.start_byte() <= at.start_byte()
                    && at.end_byte() <= block.end_byte()
            })
        {
            return None;
        }
        let condition = strip(branch.field("condition")?, source);
        let condition = match condition.node_kind() {
            "condition_clause" => strip(condition.field("value")?, source),
            _ => condition,
        };
        if condition.node_kind() != "binary_expression" {
            return None;
        }
        let (left, right) = (condition.field("left")?, condition.field("right")?);
        let names = |side: Node| {
            let side = strip(side, source);
            side.node_kind() == "identifier" && text(side, source) == name
        };
        let limit = match syntax::operator(condition, source) {
            ">" | ">=" if names(left) => right,
            "<" | "<=" if names(right) => left,
            _ => return None,
        };
        most_blocks(classifier, limit, depth + 1)
    })
}

/// The value of an entry of a local table of sizes (`size_t block[2]; block[0] = BLOCK_X;
/// block[1] = BLOCK_Y / 8;`) read at a constant index (`block[1]`, or in `dim3 b(block[0],
/// block[1])`, which parses as a declaration whose parameters are `block` with `[1]`): the one
/// constant assigned to that entry, when every assignment to the table is a plain one at a
/// constant index and that entry gets one value.
fn table_entry<'t>(node: Node<'t>, classifier: &Classifier<'_, 't>) -> Option<i128> {
    let source = classifier.source;
    let (table, index) = match node.node_kind() {
        "subscript_expression" => {
            let table = strip(node.field("argument")?, source);
            let index = node.field("indices").and_then(|i| i.named_child(0))?;
            (table, index)
        }
        // the declaration's parameter stands for its type
        "type_identifier" => {
            let parameter = node.parent()?;
            if parameter.node_kind() != "parameter_declaration" {
                return None;
            }
            let declarator = parameter.field("declarator")?;
            if declarator.node_kind() != "abstract_array_declarator" {
                return None;
            }
            (node, declarator.field("size")?)
        }
        _ => return None,
    };
    if !matches!(table.node_kind(), "identifier" | "type_identifier")
        || index.node_kind() != "number_literal"
    {
        return None;
    }
    let wanted = size::parse_number(text(index, source))?;
    let values = classifier.locals.elements.get(text(table, source))?;
    let mut entry = None;
    for value in values {
        let assignment = value.parent()?;
        if assignment.node_kind() != "assignment_expression"
            || syntax::operator(assignment, source) != "="
            || assignment.field("right") != Some(*value)
        {
            return None;
        }
        let left = strip(assignment.field("left")?, source);
        let at = left.field("indices").and_then(|i| i.named_child(0))?;
        if at.node_kind() != "number_literal" {
            return None;
        }
        if size::parse_number(text(at, source))? == wanted {
            if entry.is_some() {
                return None;
            }
            entry = Some(*value);
        }
    }
    constant(entry?, classifier)
}

/// A block dimension's value, when it is a constant.
fn constant<'t>(node: Node<'t>, classifier: &Classifier<'_, 't>) -> Option<i128> {
    let scope = LaunchScope(classifier);
    let evaluator = Evaluator {
        source: classifier.source,
        scope: &scope,
        fold_sizeof: true,
    };
    let node = strip(node, classifier.source);
    if let Some(value) = table_entry(node, classifier) {
        return Some(value);
    }
    // `dim3 threads(TILE, TILE)` parses as a declaration: its components are type names
    if node.node_kind() == "type_identifier" {
        let name = text(node, classifier.source);
        return match scope.definition(name) {
            Some(value) => evaluator.eval(value)?.as_constant(),
            None => size::parse_number(scope.define(name)?.trim()),
        };
    }
    evaluator.eval(node)?.as_constant()
}
