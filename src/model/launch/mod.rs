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
use super::Function;
use crate::syntax::{self, named_children, normalized, strip, text, NodeExt};
use std::ops::Range;
use std::path::PathBuf;
use tree_sitter::Node;

mod apis;
mod arguments;
mod file_scope;
mod finding;
mod grid;
mod grid_bounds;
mod host_helpers;
mod kernels;
pub mod limits;
mod locals;
mod macros;
mod members;
pub(crate) use members::declares;
mod reading;
mod reuse;
mod rounding;
mod set_once;
mod sizes;
#[cfg(test)]
mod tests;
mod wrappers;

use arguments::{
    in_arguments, is_allocated_in_sight, per_thread_unit, shared_bytes, threads_on_x, Shared,
};
use file_scope::Allocations;
pub use file_scope::{is_data_macro, FileScope};
use finding::{components, components_of, enclosing_function};
pub use finding::{launches_in, may_launch};
pub use grid::join as join_grids;
pub use grid::names_a_macro;
pub use grid::names_a_macro as names_a_constant;
use grid::Classifier;
use grid_bounds::{checked_exact, constant, most_blocks};
pub use grid_bounds::{MAX_BLOCK_X, RESIDENT_BLOCKS};
pub use host_helpers::{
    assigned_dim3_of, macro_rounding_helper, returned_grid_of, returned_multiple_of,
    rounding_helper, AssignedDim3, ReturnedMultiple, RoundingHelper,
};
use host_helpers::{in_caller, returned_grid, set_by_helper};
pub use kernels::launched_kernel;
use kernels::{kernel_held_by_local, kernel_of_table};
pub use locals::file_scope_constants;
use locals::{Held, Locals};
pub use macros::launches_in_macros;
pub use members::member_grids_of;
use reading::launch_site;
pub use reuse::{LaunchCache, LaunchStats};
pub use rounding::names_a_rounding_division;
pub use sizes::FileConstants;
use sizes::{launch_sizes, LaunchScope};

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
    /// Per block axis, its thread count as such a polynomial: `<<<1, n>>>(..., n)` passing `n`
    /// as argument 2 gives `x = 1·[2]`.
    pub block_in_arguments: [Option<ArgumentPolynomial>; 3],
    /// The dynamic shared memory each block is given (`<<<g, b, bytes>>>`, `cudaLaunchKernel`'s
    /// `sharedMem`).
    pub shared_bytes: SharedBytes,
    /// The launch's sizes as the host computes them (see `LaunchSizes`): once with the
    /// launching function's locals as names, once with each local defined once replaced by its
    /// value; none when the grid's or the block's `x` cannot be written so.
    pub sizes: Vec<LaunchSizes>,
    /// Per argument: the largest constant known to divide its value (1 when none is known):
    /// `n` after `n *= 1024` is a multiple of 1024, as is `k * 1024`.
    pub argument_factors: Vec<i128>,
    /// The launched kernel's template arguments (`k<256, float>`), each with its value when it
    /// is an integer constant.
    pub template_arguments: Vec<Option<i128>>,
    /// Per argument: the constant it is known to hold at the launch: a constant expression
    /// (`MAX_DEG`), or the `case` of a `switch` on it that the launch sits in (`switch
    /// (beam_width) { case 4: k<<<...>>>(..., beam_width); break; }`).
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
    /// Locals of the launching function with a largest value where the launch runs, as the
    /// names the sizes above are written in: the counter of an enclosing `for (...; i < n;
    /// ...)` that its body never writes is at most `n - 1`, and a local only ever made smaller
    /// after its declaration (`int level = n; ... level--`) is at most what it was declared with.
    pub ceilings: Vec<(String, Sym)>,
}

impl LaunchSizes {
    /// Whether `value` (over the launching function's names) is at most `limit` wherever the
    /// launch runs: as the sizes say, or with each local that has a ceiling put at it, where
    /// `value` only grows with that local and `limit` does not name it.
    pub fn at_most(&self, value: &Sym, limit: &Sym) -> bool {
        if value.at_most(limit) {
            return true;
        }
        let mut raised = value.clone();
        let mut changed = false;
        for (name, ceiling) in &self.ceilings {
            if limit.atoms().any(|atom| atom == name) || !grows_with(&raised, name) {
                continue;
            }
            let put = raised.substitute(&|atom| {
                Some(if atom == name {
                    ceiling.clone()
                } else {
                    Sym::atom(atom)
                })
            });
            if let Some(put) = put {
                raised = put;
                changed = true;
            }
        }
        changed && raised.at_most(limit)
    }

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

/// Whether every term of `value` that names `atom` adds to it: the value grows with the atom
/// (every name standing for a value of at least 1).
fn grows_with(value: &Sym, atom: &str) -> bool {
    value.integer_terms().is_some_and(|terms| {
        terms
            .iter()
            .filter(|(_, monomial)| monomial.iter().any(|a| a == atom))
            .all(|(coefficient, _)| *coefficient > 0)
    })
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
            && self.block_in_arguments == other.block_in_arguments
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

    /// The value a kernel's template parameters give `name` at this launch, when it is an
    /// integer constant: the argument the launch names, or the parameter's default where the
    /// launch names fewer (`split<64, 256>` of `template <int M, int N, int W = 32>`).
    pub fn template_value(&self, kernel: &Function, name: &str) -> Option<i128> {
        let position = kernel.template_parameters.iter().position(|p| p == name)?;
        match self.template_arguments.get(position) {
            Some(given) => *given,
            None => kernel.template_defaults.get(position).copied().flatten(),
        }
    }

    /// Each of the kernel's template parameters this launch gives an integer value, with that
    /// value: the bindings of the instantiation it launches (a parameter given a type, or a value
    /// out of sight, is left out).
    pub fn template_bindings(&self, kernel: &Function) -> Vec<(String, i64)> {
        kernel
            .template_parameters
            .iter()
            .filter_map(|name| {
                let value = self.template_value(kernel, name)?;
                Some((name.clone(), i64::try_from(value).ok()?))
            })
            .collect()
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
    /// Whether `name` is a macro that writes a launch's grid and block together.
    fn writes_launch_shape(&self, _name: &str) -> bool {
        false
    }
    /// The type a type name stands for after the file's typedefs (`real` is `float`).
    fn resolve_type(&self, type_text: &str) -> String {
        type_text.to_string()
    }
    /// The value of an enumerator (or a constant) of the file named `name`.
    fn enumerator(&self, _name: &str) -> Option<i64> {
        None
    }
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
    /// What a member named as a block count holds wherever the file, or a header it includes,
    /// assigns it (see `member_grids_of`); None when nothing visible assigns it.
    fn member_grid(&self, _member: &str) -> Option<GridAxis> {
        None
    }
}
