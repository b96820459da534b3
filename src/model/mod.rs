//! The semantic model: built once per file from the tree-sitter tree, read by every lint.

pub mod arithmetic;
mod build;
pub mod errors;
mod function;
pub mod guards;
pub mod helper_values;
pub mod helpers;
pub mod host;
pub mod index;
pub mod kernel;
pub mod launch;
pub mod legacy_intrinsics;
pub mod ranges;
pub mod reaching;
mod reuse;
pub mod runtime;
pub mod shared_memory;
pub mod size;
pub mod suppression;

use crate::source::{LineIndex, PreprocessedView};
use crate::syntax::{self, text, NodeExt};
use index::{FileIndex, Lookups, ProjectIndex};
use launch::{GridHelpers, LaunchSite, RoundingHelper};
use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;
use std::ops::Range;
use tree_sitter::{Node, Tree};

pub(crate) use function::function_from_definition;
use function::kernel_name;
pub use function::{
    is_tensor_accessor_type, tensor_accessor_rank, Function, FunctionKind, Parameter,
};
pub use kernel::{Access, AccessKind, Barrier, IndexStatus, KernelFacts};
pub use reuse::{AnalyseAll, OffersOnly, Reuse, ReusedKernel};
pub use suppression::Suppression;

/// A function-like macro of the file: `#define DIVIDE(x, size) (((x) + (size) - 1) / (size))`.
#[derive(Debug, Clone, Hash)]
pub struct FunctionMacro<'t> {
    pub name: &'t str,
    pub parameters: Vec<&'t str>,
    pub body: &'t str,
}

pub struct Model<'t> {
    pub path: &'t std::path::Path,
    /// The original text: every span refers to it.
    pub source: &'t str,
    pub view: &'t PreprocessedView,
    pub tree: &'t Tree,
    pub lines: &'t LineIndex,
    pub functions: Vec<Function<'t>>,
    /// Summaries of the `__device__` functions, computed before the kernels that call them.
    pub device_functions: helpers::DeviceFunctions,
    /// Kernel-side facts, one entry per `__global__` function (index into `functions`).
    pub kernels: Vec<(usize, KernelFacts<'t>)>,
    pub suppressions: Vec<Suppression>,
    /// Names of macros and functions the user configured as error checks.
    pub check_macros: &'t [String],
    /// Regions whose nesting exceeded the walk depth, skipped by the analyses.
    pub skipped_regions: Vec<Range<usize>>,
    /// Code the parser could not read: outermost ERROR nodes, and MISSING tokens as empty ranges.
    pub broken_regions: Vec<Range<usize>>,
    /// Host-side facts: allocations, copies, launches, error checks.
    pub host: host::HostFacts<'t>,
    /// Where launch errors arise and are checked, per host function and across functions.
    pub errors: errors::ErrorFlow<'t>,
    /// Allocations above this many bytes are larger than any GPU (configurable).
    pub max_allocation_bytes: f64,
    /// What the other files of the run offer (launches of this file's kernels, helpers).
    pub index: &'t ProjectIndex,
    /// This file's launch sites, with their geometry.
    pub launch_sites: Vec<LaunchSite>,
    /// Names looked up outside the file while building the model.
    pub lookups: RefCell<Lookups>,
    /// What the shared-memory runs of every kernel read of the file, built on first use.
    shared_scope: std::cell::OnceCell<shared_memory::FileScope<'t>>,
    /// Whether the file's text names `__shared__` at all, found once: asked for every kernel,
    /// a scan of the whole text each time is quadratic in a file of many kernels.
    mentions_shared: std::cell::OnceCell<bool>,
    /// What each member named as a block count holds where the file assigns it, read on first
    /// use (`launch::member_grids_of`).
    member_grids: std::cell::OnceCell<Vec<(String, launch::GridAxis)>>,
    /// Function-like macros the file defines (`#define CLEANUP(s) ...`).
    pub function_macros: Vec<FunctionMacro<'t>>,
    /// Kernels the file declares without a body (`__global__ void pw(...);`).
    pub kernel_declarations: Vec<String>,
    /// Names the file gives types (`typedef float real;`, `using T = double;`,
    /// `#define DTYPE float`), each with the normalized type it stands for; a name given two
    /// different types is left out.
    pub type_aliases: HashMap<String, String>,
    /// The runtime the file calls, whose words its findings speak.
    pub runtime: runtime::Runtime,
    /// The tree's nodes in tables that walks read while the model lives (`syntax::TreeTable`):
    /// the whole tree's, or, when most functions are reused, those of the analysed functions.
    tables: Vec<syntax::InstalledTable<'t>>,
    /// Whether `tables` holds the whole tree's.
    whole_table: bool,
}

impl<'t> Model<'t> {
    pub fn text(&self, node: Node) -> &'t str {
        text(node, self.source)
    }

    /// The value of an object-like `#define`, if the file has one.
    /// The type a name stands for after the file's typedefs, `using` aliases and type macros
    /// (`real` is `float` after `typedef float real;`), normalized; the name itself otherwise.
    pub fn resolve_type(&self, type_text: &str) -> String {
        let mut current = size::normalize_type(type_text);
        for _ in 0..8 {
            // `real*` resolves its element
            let stars = current.len() - current.trim_end_matches('*').len();
            let element = &current[..current.len() - stars];
            match self.type_aliases.get(element) {
                Some(aliased) => current = format!("{aliased}{}", "*".repeat(stars)),
                None => break,
            }
        }
        current
    }

    /// A function-like macro the file defines.
    pub fn function_macro_definition(&self, name: &str) -> Option<&FunctionMacro<'t>> {
        self.function_macros.iter().find(|m| m.name == name)
    }

    /// A function-like macro of an included header that allocates or frees device memory:
    /// its parameters and body.
    pub fn included_memory_macro(&self, name: &str) -> Option<(Vec<&'t str>, &'t str)> {
        let included: &'t crate::source::IncludedDefines = &self.view.included;
        included
            .memory_macros
            .iter()
            .find(|m| m.name == name)
            .map(|m| {
                (
                    m.parameters.iter().map(String::as_str).collect(),
                    m.body.as_str(),
                )
            })
    }

    /// Whether `name` is a macro, the file's own or an included header's, that writes a
    /// launch's grid and block together (`k<<<DIM(n, 256), 0, stream>>>`).
    pub fn writes_launch_shape(&self, name: &str) -> bool {
        let included = &self.view.included.launch_shape_macros;
        match self.function_macro(name) {
            // the file's own, possibly one use of a header's (`DIM2(...)` as `DIM3(...)`)
            Some(_) => {
                let own: Vec<(&str, &str)> = self
                    .function_macros
                    .iter()
                    .map(|m| (m.name, m.body))
                    .collect();
                crate::source::launch_shape_names(&own, included)
                    .iter()
                    .any(|n| n == name)
            }
            None => included.iter().any(|m| m == name),
        }
    }

    /// The body of a function-like macro the file defines.
    pub fn function_macro(&self, name: &str) -> Option<&'t str> {
        self.function_macros
            .iter()
            .find(|m| m.name == name)
            .map(|m| m.body)
    }

    /// The body of an object-like macro: the file's own or an included project header's.
    pub fn define(&self, name: &str) -> Option<&'t str> {
        self.view.define(name)
    }

    /// The file-level facts the shared-memory runs read (see `shared_memory::FileScope`).
    pub fn mentions_shared(&self) -> bool {
        *self
            .mentions_shared
            .get_or_init(|| self.source.contains("__shared__"))
    }

    pub fn shared_scope(&self) -> &shared_memory::FileScope<'t> {
        self.shared_scope
            .get_or_init(|| shared_memory::FileScope::new(self))
    }

    pub fn kernel_facts(&self) -> impl Iterator<Item = (&Function<'t>, &KernelFacts<'t>)> {
        self.kernels
            .iter()
            .map(move |(index, facts)| (&self.functions[*index], facts))
    }

    /// Whether a fact at `span` may rest on code the parser could not read: in a function, any
    /// broken region from the function's start to the span's end (conditions, definitions and
    /// early exits before it), or to the end of the outermost loop around it (a later iteration
    /// sees what follows); outside functions, a broken region overlapping the span.
    pub fn depends_on_broken_code(&self, span: &Range<usize>) -> bool {
        if self.broken_regions.is_empty() {
            return false;
        }
        let enclosing = self
            .functions
            .iter()
            .filter(|f| f.definition.byte_range().contains(&span.start))
            .min_by_key(|f| f.definition.byte_range().len());
        let Some(function) = enclosing else {
            return self
                .broken_regions
                .iter()
                .any(|r| r.start <= span.end && span.start <= r.end);
        };
        let definition = function.definition.byte_range();
        let mut extent_end = span.end.max(span.start);
        let mut node = self
            .tree
            .root_node()
            .descendant_for_byte_range(span.start, span.start);
        for _ in 0..syntax::MAX_DEPTH {
            let Some(current) = node else { break };
            if current.id() == function.definition.id() {
                break;
            }
            if matches!(
                current.kind(),
                "for_statement" | "while_statement" | "do_statement" | "for_range_loop"
            ) {
                extent_end = extent_end.max(current.end_byte());
            }
            node = current.up();
        }
        self.broken_regions.iter().any(|r| {
            r.start >= definition.start && r.start < definition.end && r.start <= extent_end
        })
    }

    /// Every visible launch of `kernel`: in this file and, through the index, in the others.
    pub fn launches_of(&self, kernel: &Function) -> Vec<LaunchSite> {
        // `template <> __global__ void k<float>(...)` is launched as `k<float><<<...>>>`
        let name = kernel_name(&kernel.name);
        let fits = |launch: &&LaunchSite| launch.arity.is_none_or(|a| kernel.accepts_arguments(a));
        let launches: Vec<LaunchSite> = self
            .launch_sites
            .iter()
            .filter(|l| l.kernel == name)
            .chain(self.index.launches_of(name, self.path))
            .filter(fits)
            .cloned()
            .collect();
        if !launches.is_empty() {
            return launches;
        }
        self.index
            .launches_of_copies(name, self.path)
            .into_iter()
            .filter(fits)
            .cloned()
            .collect()
    }

    /// What this file offers the other files of the run.
    pub fn file_index(&self) -> FileIndex {
        let rounding_helpers = self
            .functions
            .iter()
            .filter(|f| f.kind != FunctionKind::Kernel)
            .filter_map(|f| match launch::rounding_helper(f, self.source) {
                RoundingHelper::RoundsUp { total } => Some((
                    f.name.clone(),
                    f.parameters.len(),
                    RoundingHelper::RoundsUp { total },
                )),
                RoundingHelper::Other => None,
            })
            .collect();
        let (error_functions, error_calls) = self.errors.offers(self);
        // read before `lookups` is borrowed below: reading may note lookups
        let member_grids = self.member_grids().to_vec();
        FileIndex {
            path: self.path.to_path_buf(),
            error_functions,
            error_calls,
            launches: self.launch_sites.clone(),
            rounding_helpers,
            includes: index::quoted_includes(self.source),
            angle_includes: index::angle_includes(self.source),
            device_functions: self.device_functions.local().cloned().collect(),
            kernels: self.lookups.borrow().launched_kernels.clone(),
            declared_kernels: self.kernel_declarations.clone(),
            member_grids,
        }
    }

    /// What each member named as a block count holds where this file assigns it.
    fn member_grids(&self) -> &[(String, launch::GridAxis)] {
        self.member_grids.get_or_init(|| {
            launch::member_grids_of(&self.functions, self.source, &HelpersAlone(self))
        })
    }

    pub fn function_named(&self, name: &str) -> Option<&Function<'t>> {
        self.functions.iter().find(|f| f.name == name)
    }
}

impl GridHelpers for Model<'_> {
    fn resolve_type(&self, type_text: &str) -> String {
        Model::resolve_type(self, type_text)
    }

    fn writes_launch_shape(&self, name: &str) -> bool {
        Model::writes_launch_shape(self, name)
    }

    fn enumerator(&self, name: &str) -> Option<i64> {
        self.shared_scope().named_constant(name)
    }

    fn rounds_up(&self, name: &str, arity: usize) -> Option<RoundingHelper> {
        if let Some(function) = self
            .functions
            .iter()
            .find(|f| f.name == name && f.parameters.len() == arity)
        {
            return Some(launch::rounding_helper(function, self.source));
        }
        // a macro rounds up as a function does: its name may not say so (`DIVIDE(x, size)`)
        if let Some(function_macro) = self
            .function_macros
            .iter()
            .find(|m| m.name == name && m.parameters.len() == arity)
        {
            return Some(launch::macro_rounding_helper(
                &function_macro.parameters,
                function_macro.body,
            ));
        }
        let mut lookups = self.lookups.borrow_mut();
        if !lookups.functions.iter().any(|n| n == name) {
            lookups.functions.push(name.to_string());
        }
        self.index.rounding_helper(name, arity, self.path)
    }

    fn define(&self, name: &str) -> Option<&str> {
        self.view.define(name)
    }

    fn returned_grid(&self, name: &str, arity: usize) -> Option<[launch::GridAxis; 3]> {
        let function = self
            .functions
            .iter()
            .find(|f| f.name == name && f.parameters.len() == arity)?;
        launch::returned_grid_of(function, self.source, &HelpersAlone(self))
    }

    fn returned_multiple(&self, name: &str, arity: usize) -> Option<launch::ReturnedMultiple> {
        let function = self
            .functions
            .iter()
            .find(|f| f.name == name && f.parameters.len() == arity)?;
        launch::returned_multiple_of(function, self.source)
    }

    fn assigned_dim3(
        &self,
        name: &str,
        arity: usize,
        position: usize,
    ) -> Option<launch::AssignedDim3> {
        // `template <> void grid_for<float>(dim3& g, ...)`: each specialisation may be the one
        // a call runs
        let mut all: Option<launch::AssignedDim3> = None;
        for function in self
            .functions
            .iter()
            .filter(|f| kernel_name(&f.name) == name && f.parameters.len() == arity)
        {
            let assigned =
                launch::assigned_dim3_of(function, position, self.source, &HelpersAlone(self))?;
            all = Some(match all {
                None => assigned,
                Some(known) => known.join(assigned),
            });
        }
        all
    }

    fn member_grid(&self, member: &str) -> Option<launch::GridAxis> {
        let here = self
            .member_grids()
            .iter()
            .find(|(name, _)| name == member)
            .map(|(_, axis)| axis.clone());
        let mut lookups = self.lookups.borrow_mut();
        if !lookups.functions.iter().any(|n| n == member) {
            lookups.functions.push(member.to_string());
        }
        let elsewhere = self.index.member_grid(member, self.path);
        match (here, elsewhere) {
            (Some(here), Some(elsewhere)) => Some(launch::join_grids(here, elsewhere)),
            (here, elsewhere) => here.or(elsewhere),
        }
    }
}

/// The model's rounding helpers and defines, and no other summaries: a grid helper, or one that
/// assigns a `dim3`, is read alone (a summary does not read another's).
struct HelpersAlone<'m, 't>(&'m Model<'t>);

impl GridHelpers for HelpersAlone<'_, '_> {
    fn rounds_up(&self, name: &str, arity: usize) -> Option<RoundingHelper> {
        self.0.rounds_up(name, arity)
    }
    fn resolve_type(&self, type_text: &str) -> String {
        self.0.resolve_type(type_text)
    }
    fn enumerator(&self, name: &str) -> Option<i64> {
        GridHelpers::enumerator(self.0, name)
    }
    fn define(&self, name: &str) -> Option<&str> {
        self.0.define(name)
    }
    fn writes_launch_shape(&self, name: &str) -> bool {
        self.0.writes_launch_shape(name)
    }
}
