//! The semantic model: built once per file from the tree-sitter tree, read by every lint.

pub mod errors;
pub mod guards;
pub mod helpers;
pub mod host;
pub mod index;
pub mod kernel;
pub mod launch;
pub mod legacy_intrinsics;
pub mod ranges;
pub mod reaching;
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

pub use kernel::{Access, AccessKind, Barrier, IndexStatus, KernelFacts};
pub use suppression::Suppression;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FunctionKind {
    /// `__global__`
    Kernel,
    /// `__device__` only
    Device,
    /// `__host__ __device__`
    HostDevice,
    /// no execution-space qualifier
    Host,
}

#[derive(Debug, Clone)]
pub struct Parameter<'t> {
    pub name: String,
    pub type_text: String,
    pub is_pointer: bool,
    pub declaration: Node<'t>,
    pub name_node: Node<'t>,
}

impl Parameter<'_> {
    /// A PyTorch tensor accessor passed by value (`PackedTensorAccessor32<T, N, ...>`,
    /// `GenericPackedTensorAccessor`, `at::TensorAccessor`): subscripting it (`acc[n][c][h][w]`)
    /// reads or writes the tensor's global memory, one extent (`acc.size(d)`) per dimension.
    pub fn is_tensor_accessor(&self) -> bool {
        !self.is_pointer && is_tensor_accessor_type(&self.type_text)
    }
}

/// The number of dimensions a tensor accessor type spells (`PackedTensorAccessor32<float, 4,
/// RestrictPtrTraits>` → 4); None where it is a template parameter or absent.
pub fn tensor_accessor_rank(type_text: &str) -> Option<usize> {
    let (_, arguments) = type_text.split_once('<')?;
    let mut depth = 0usize;
    let mut start = 0;
    let mut position = 0;
    for (at, c) in arguments.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' if depth > 0 => depth -= 1,
            '>' | ',' if depth == 0 => {
                if position == 1 {
                    return arguments[start..at].trim().parse().ok();
                }
                position += 1;
                start = at + 1;
            }
            _ => {}
        }
    }
    None
}

/// Whether a type names a PyTorch tensor accessor.
pub fn is_tensor_accessor_type(type_text: &str) -> bool {
    let name = type_text.split('<').next().unwrap_or("");
    let name = name.rsplit("::").next().unwrap_or(name).trim();
    matches!(
        name,
        "PackedTensorAccessor"
            | "PackedTensorAccessor32"
            | "PackedTensorAccessor64"
            | "GenericPackedTensorAccessor"
            | "TensorAccessor"
    )
}

#[derive(Debug, Clone)]
pub struct Function<'t> {
    pub name: String,
    pub kind: FunctionKind,
    pub definition: Node<'t>,
    pub name_node: Node<'t>,
    pub parameters: Vec<Parameter<'t>>,
    pub body: Node<'t>,
    /// Template parameter names, when the function is a template.
    pub template_parameters: Vec<String>,
    /// Whether the parse of this function contains ERROR or MISSING nodes.
    pub has_parse_errors: bool,
    /// Whether its parameters end in a pack (`Args... args`).
    pub variadic: bool,
}

impl<'t> Function<'t> {
    pub fn parameter(&self, name: &str) -> Option<&Parameter<'t>> {
        self.parameters.iter().find(|p| p.name == name)
    }

    /// Whether a call with `count` arguments can be a call of this function: as many as it has
    /// parameters, fewer where the rest have default values, more after a parameter pack. Two
    /// overloads of one kernel name are told apart by it.
    pub fn accepts_arguments(&self, count: usize) -> bool {
        let required = self
            .parameters
            .iter()
            .take_while(|p| p.declaration.node_kind() != "optional_parameter_declaration")
            .count();
        count >= required && (count <= self.parameters.len() || self.variadic)
    }
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
    /// Function-like macros the file defines (`#define CLEANUP(s) ...`): name and body.
    pub function_macros: Vec<(&'t str, &'t str)>,
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

/// What an earlier lint of the same text lets the model leave out. The language server keeps the
/// findings of each function between edits: a function whose text and context are unchanged needs
/// no facts, except what other functions' findings read of it (a kernel's summary).
pub trait Reuse<'t> {
    /// Whether kernel `index` (into `model.functions`) is covered, with what the model keeps of it.
    fn kernel(&mut self, model: &Model<'t>, index: usize) -> Option<ReusedKernel>;
    /// Whether host function `index` is covered; `model.host.kernels` is complete by then.
    fn host_function(&mut self, model: &Model<'t>, index: usize) -> bool;
    /// Host function `index` was analysed, reading the file's functions named `depends_on`.
    fn host_function_built(&mut self, index: usize, depends_on: &[String]);
    /// The file-wide facts host functions read beyond their own text and the functions they call
    /// (the file's type aliases, function-like macros and buffers kept in members), as a hash;
    /// told before any host function is asked for. When it changes, no host function is covered.
    fn host_context(&mut self, _digest: u64) {}
    /// The launch sites kept from an earlier lint, reused for the functions whose launches read
    /// nothing that changed (`launch::LaunchCache`); None: every function's are read.
    fn launches(&mut self) -> Option<&mut launch::LaunchCache> {
        None
    }
    /// Whether functions are kept from an earlier lint (then `kept` is asked).
    fn keeps_functions(&self) -> bool {
        false
    }
    /// Whether function `index` is kept from an earlier lint, so that it is likely covered:
    /// the model then builds the tree table of the other functions only.
    fn kept(&mut self, _model: &Model<'t>, _index: usize) -> bool {
        false
    }
    /// The summary of device function `index` from an earlier lint, when what it read of the
    /// summaries made before it (`known`, the names it calls) is as it was.
    fn device_function(
        &mut self,
        _model: &Model<'t>,
        _index: usize,
        _known: &helpers::DeviceFunctions,
    ) -> Option<helpers::HelperSummary> {
        None
    }
    /// Device function `index` was summarised, reading the names `calls` of `known`.
    fn device_function_built(
        &mut self,
        _model: &Model<'t>,
        _index: usize,
        _summary: &helpers::HelperSummary,
        _calls: &[String],
        _known: &helpers::DeviceFunctions,
    ) {
    }
}

/// What the model keeps of a kernel whose facts are not built.
pub struct ReusedKernel {
    pub summary: host::KernelSummary,
    /// Its skipped regions, at the kernel's current position.
    pub skipped: Vec<Range<usize>>,
}

/// What a file offers the others needs no kernel or host facts: a header read for the project
/// index analyses only its device functions.
pub struct OffersOnly;

impl<'t> Reuse<'t> for OffersOnly {
    fn kernel(&mut self, model: &Model<'t>, index: usize) -> Option<ReusedKernel> {
        Some(ReusedKernel {
            summary: host::KernelSummary {
                name: model.functions.get(index)?.name.clone(),
                parameters: Vec::new(),
            },
            skipped: Vec::new(),
        })
    }
    fn host_function(&mut self, _: &Model<'t>, _: usize) -> bool {
        true
    }
    fn host_function_built(&mut self, _: usize, _: &[String]) {}
}

/// Nothing to reuse: every function is analysed.
pub struct AnalyseAll;

impl<'t> Reuse<'t> for AnalyseAll {
    fn kernel(&mut self, _: &Model<'t>, _: usize) -> Option<ReusedKernel> {
        None
    }
    fn host_function(&mut self, _: &Model<'t>, _: usize) -> bool {
        false
    }
    fn host_function_built(&mut self, _: usize, _: &[String]) {}
}

impl<'t> Model<'t> {
    pub fn build(
        path: &'t std::path::Path,
        source: &'t str,
        view: &'t PreprocessedView,
        tree: &'t Tree,
        lines: &'t LineIndex,
        check_macros: &'t [String],
    ) -> Model<'t> {
        Self::build_reusing(
            path,
            source,
            view,
            tree,
            lines,
            check_macros,
            true,
            ProjectIndex::empty(),
            &mut AnalyseAll,
        )
    }

    /// The model without the facts of the functions `reuse` covers: `kernels` and
    /// `host.functions` hold only the analysed ones; `host.kernels` has every kernel's summary.
    /// `error_flow`: whether to build the error flow (`errors` stays empty otherwise, so the file
    /// offers other files nothing about its checks).
    // the file's parts are borrowed separately: the language server keeps the tree and view
    // between edits while the text and lines are new
    #[allow(clippy::too_many_arguments)]
    pub fn build_reusing(
        path: &'t std::path::Path,
        source: &'t str,
        view: &'t PreprocessedView,
        tree: &'t Tree,
        lines: &'t LineIndex,
        check_macros: &'t [String],
        error_flow: bool,
        index: &'t ProjectIndex,
        reuse: &mut dyn Reuse<'t>,
    ) -> Model<'t> {
        let mut model = Model {
            path,
            source,
            view,
            tree,
            lines,
            functions: Vec::new(),
            device_functions: helpers::DeviceFunctions::default(),
            kernels: Vec::new(),
            suppressions: Vec::new(),
            check_macros,
            skipped_regions: Vec::new(),
            broken_regions: Vec::new(),
            host: host::HostFacts::default(),
            errors: errors::ErrorFlow::default(),
            max_allocation_bytes: crate::config::DEFAULT_MAX_ALLOCATION_GIB * (1u64 << 30) as f64,
            index,
            launch_sites: Vec::new(),
            lookups: RefCell::default(),
            shared_scope: std::cell::OnceCell::new(),
            mentions_shared: std::cell::OnceCell::new(),
            function_macros: Vec::new(),
            type_aliases: HashMap::default(),
            runtime: runtime::Runtime::of(path, source),
            tables: Vec::new(),
            whole_table: false,
        };
        // a lint that keeps functions decides on the table once it knows which are new
        let partial = reuse.keeps_functions() && !error_flow;
        if !partial {
            model.tables.push(syntax::TreeTable::install(tree));
            model.whole_table = true;
        }
        let (mut broken, missing) = syntax::broken_regions(tree.root_node());
        broken.extend(missing);
        broken.sort_by_key(|r| (r.start, r.end));
        model.broken_regions = broken;
        model.collect_functions_and_comments();
        if partial {
            model.install_tables(reuse);
        }
        let file = launch::FileScope::new(model.tree.root_node(), source);
        model.launch_sites = match reuse.launches() {
            Some(cache) => {
                cache.begin();
                let sites = model
                    .functions
                    .iter()
                    .flat_map(|f| {
                        cache.launches_in(f, source, &view.text, path, lines, &model, &file)
                    })
                    .collect();
                cache.finish();
                sites
            }
            None => model
                .functions
                .iter()
                .flat_map(|f| launch::launches_in(f, source, path, lines, &model, &file))
                .collect(),
        };
        let in_macros = launch::launches_in_macros(
            tree.root_node(),
            &view.text,
            &view.included.launch_macros,
            &model.functions,
            path,
            lines,
            &model,
        );
        model.launch_sites.extend(in_macros);
        model.lookups.borrow_mut().launched_kernels = model
            .functions
            .iter()
            .filter(|f| f.kind == FunctionKind::Kernel)
            .map(|f| kernel_name(&f.name).to_string())
            .collect();
        model.device_functions = helpers::summarize(&model, reuse);
        model.add_device_functions_of_other_files();
        for index in 0..model.functions.len() {
            if model.functions[index].kind != FunctionKind::Kernel {
                continue;
            }
            if let Some(reused) = reuse.kernel(&model, index) {
                model.skipped_regions.extend(reused.skipped);
                model.host.kernels.push(reused.summary);
                continue;
            }
            model.cover(index);
            let function = &model.functions[index];
            let facts = kernel::analyze(&model, function);
            let summary = host::summarize_kernel(&model, function, &facts);
            model.skipped_regions.extend(facts.skipped.iter().cloned());
            model.host.kernels.push(summary);
            model.kernels.push((index, facts));
        }
        model.note_calls_outside_the_file();
        if error_flow {
            model.errors = errors::ErrorFlow::build(&model);
        }
        let (functions, analysed, stored) = host::build(&model, reuse);
        model.host.functions = functions;
        model.host.analysed = analysed;
        model.host.stored = stored;
        model
    }

    /// The tree tables of a lint that keeps functions: the whole tree's when many functions are
    /// new (a first lint, a changed `#define`), else those of the new functions only. A function
    /// analysed for another reason (a kernel whose launch changed) gets its own (`cover`).
    fn install_tables(&mut self, reuse: &mut dyn Reuse<'t>) {
        let new: Vec<Node<'t>> = (0..self.functions.len())
            .filter(|&index| !reuse.kept(self, index))
            .filter_map(|index| self.functions.get(index).map(|f| f.definition))
            .collect();
        if new.len() * 4 > self.functions.len() {
            self.tables.push(syntax::TreeTable::install(self.tree));
            self.whole_table = true;
        } else if !new.is_empty() {
            self.tables
                .push(syntax::TreeTable::install_within(self.tree, &new));
        }
    }

    /// Puts function `index` in a tree table when no installed one holds it (it is analysed).
    fn cover(&mut self, index: usize) {
        if self.whole_table {
            return;
        }
        let Some(definition) = self.functions.get(index).map(|f| f.definition) else {
            return;
        };
        if syntax::in_table(definition) {
            return;
        }
        self.tables
            .push(syntax::TreeTable::install_within(self.tree, &[definition]));
    }

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

    /// The body of a function-like macro the file defines.
    pub fn function_macro(&self, name: &str) -> Option<&'t str> {
        self.function_macros
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, body)| *body)
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
        self.launch_sites
            .iter()
            .filter(|l| l.kernel == name)
            .chain(self.index.launches_of(name, self.path))
            .filter(fits)
            .cloned()
            .collect()
    }

    /// Device functions the file's kernels and device functions call without defining them,
    /// looked up in the index (a header's helpers). With an index that offers none, nothing is
    /// looked for; the kernels' calls become lookups once they are analysed.
    fn add_device_functions_of_other_files(&mut self) {
        if !self.index.offers_device_functions() {
            return;
        }
        let mut names: Vec<String> = self
            .functions
            .iter()
            .filter(|f| f.kind != FunctionKind::Host)
            .flat_map(|f| kernel::called_names(f.body, self.source))
            .filter(|name| self.functions.iter().all(|f| &f.name != name))
            .collect();
        names.sort_unstable();
        names.dedup();
        for name in &names {
            for (file, summary) in self.index.device_functions_named(name, self.path) {
                self.device_functions.add_foreign(file, summary.clone());
            }
        }
    }

    /// Remembers the names the kernels called without the file defining them.
    fn note_calls_outside_the_file(&self) {
        let mut lookups = self.lookups.borrow_mut();
        for (_, facts) in &self.kernels {
            for name in &facts.calls {
                if self.functions.iter().all(|f| &f.name != name)
                    && !lookups.functions.contains(name)
                {
                    lookups.functions.push(name.clone());
                }
            }
        }
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
        FileIndex {
            path: self.path.to_path_buf(),
            error_functions,
            error_calls,
            launches: self.launch_sites.clone(),
            rounding_helpers,
            includes: index::quoted_includes(self.source),
            device_functions: self.device_functions.local().cloned().collect(),
            kernels: self.lookups.borrow().launched_kernels.clone(),
        }
    }

    pub fn function_named(&self, name: &str) -> Option<&Function<'t>> {
        self.functions.iter().find(|f| f.name == name)
    }

    fn collect_functions_and_comments(&mut self) {
        let root = self.tree.root_node();
        let source = self.source;
        let mut functions = Vec::new();
        // the template around each function, noted on the way down (`Node::parent` searches
        // from the root, which is quadratic over a file's top-level declarations)
        let mut templates: Vec<(usize, Node<'t>)> = Vec::new();
        let mut macros = Vec::new();
        let mut aliases: Vec<(usize, String, String)> = Vec::new();
        syntax::walk_iterative(root, |node| match node.node_kind() {
            "template_declaration" => {
                for child in syntax::named_children(node) {
                    if child.node_kind() == "function_definition" {
                        templates.push((child.id(), node));
                    }
                }
                true
            }
            "function_definition" => {
                let template = templates
                    .iter()
                    .rev()
                    .find(|(id, _)| *id == node.id())
                    .map(|(_, t)| *t);
                if let Some(function) =
                    function_from_definition(node, template, source, &self.view.neutralised)
                {
                    functions.push(function);
                }
                false
            }
            "type_definition" => {
                if let Some(aliased) = node.field("type") {
                    let aliased = syntax::text(aliased, source);
                    let mut cursor = node.walk();
                    for declarator in node.children_by_field_name("declarator", &mut cursor) {
                        // `typedef float* fptr;`: the stars belong to the type
                        let stars: String = syntax::text(declarator, source)
                            .chars()
                            .filter(|c| *c == '*')
                            .collect();
                        let name = if declarator.node_kind() == "type_identifier" {
                            Some(declarator)
                        } else {
                            syntax::declarator_name(declarator)
                        };
                        if let Some(name) = name {
                            aliases.push((
                                node.start_byte(),
                                syntax::text(name, source).to_string(),
                                format!("{aliased}{stars}"),
                            ));
                        }
                    }
                }
                false
            }
            "alias_declaration" => {
                if let (Some(name), Some(aliased)) = (node.field("name"), node.field("type")) {
                    aliases.push((
                        node.start_byte(),
                        syntax::text(name, source).to_string(),
                        syntax::text(aliased, source).to_string(),
                    ));
                }
                false
            }
            "preproc_def" => {
                if let (Some(name), Some(value)) = (node.field("name"), node.field("value")) {
                    let value = syntax::text(value, source).trim();
                    if size::builtin_size(value).is_some() {
                        aliases.push((
                            node.start_byte(),
                            syntax::text(name, source).to_string(),
                            value.to_string(),
                        ));
                    }
                }
                false
            }
            "preproc_function_def" => {
                if let (Some(name), Some(body)) = (node.field("name"), node.field("value")) {
                    macros.push((syntax::text(name, source), syntax::text(body, source)));
                }
                false
            }
            "comment" => false,
            _ => true,
        });
        self.function_macros = macros;
        let mut type_aliases: HashMap<String, String> = HashMap::default();
        let mut conflicting = Vec::new();
        let configured = configured_regions(source);
        for (at, name, aliased) in aliases {
            if configured.iter().any(|r| r.contains(&at)) {
                continue;
            }
            let aliased = size::normalize_type(&aliased);
            if aliased.is_empty() || aliased == name {
                continue;
            }
            match type_aliases.get(&name) {
                Some(known) if *known != aliased => conflicting.push(name),
                Some(_) => {}
                None => {
                    type_aliases.insert(name, aliased);
                }
            }
        }
        for name in conflicting {
            type_aliases.remove(&name);
        }
        self.type_aliases = type_aliases;
        // Suppression comments are rare: find the marker in the text and ask the tree for the
        // comment there, rather than visiting every node of every function body.
        let mut suppressions = Vec::new();
        for (offset, _) in source.match_indices("cudalint:") {
            let comment = root
                .descendant_for_byte_range(offset, offset)
                .filter(|n| n.node_kind() == "comment");
            if let Some(suppression) =
                comment.and_then(|c| suppression::parse(c, source, self.lines))
            {
                if !suppressions
                    .iter()
                    .any(|s: &Suppression| s.span == suppression.span)
                {
                    suppressions.push(suppression);
                }
            }
        }
        self.functions = functions;
        self.suppressions = suppression::pair_ranges(suppressions);
    }
}

pub(crate) fn function_from_definition<'t>(
    node: Node<'t>,
    template: Option<Node<'t>>,
    source: &str,
    neutralised: &[crate::source::Neutralised],
) -> Option<Function<'t>> {
    let body = node.field("body")?;
    let declarator = node.field("declarator")?;
    let function_declarator = find_function_declarator(declarator)?;
    let name_node = function_declarator.field("declarator")?;
    let name_node = match name_node.node_kind() {
        "qualified_identifier" => name_node.field("name").unwrap_or(name_node),
        _ => name_node,
    };
    let name = text(name_node, source).to_string();

    let mut qualifiers = String::new();
    for child in syntax::children(node) {
        if child.byte_range().start >= declarator.start_byte() {
            break;
        }
        match child.node_kind() {
            "__global__" | "__device__" | "__host__" => {
                qualifiers.push_str(child.node_kind());
                qualifiers.push(' ');
            }
            _ => {}
        }
    }
    // qualifiers hidden in a macro (`#define HD __host__ __device__`) that the view neutralised
    let head = node.start_byte()..declarator.start_byte();
    let start = template
        .map(|t| t.start_byte())
        .unwrap_or(node.start_byte());
    for macro_use in neutralised {
        let before = macro_use.span.end <= head.end && macro_use.span.start + 200 >= start;
        if before
            && (macro_use.span.start >= start
                || source[macro_use.span.end..start].trim().is_empty())
        {
            qualifiers.push_str(&macro_use.expansion);
            qualifiers.push(' ');
        }
    }
    let kind = if qualifiers.contains("__global__") {
        FunctionKind::Kernel
    } else if qualifiers.contains("__device__") && qualifiers.contains("__host__") {
        FunctionKind::HostDevice
    } else if qualifiers.contains("__device__") {
        FunctionKind::Device
    } else {
        FunctionKind::Host
    };

    let mut parameters = Vec::new();
    let mut variadic = false;
    if let Some(list) = function_declarator.field("parameters") {
        for declaration in syntax::named_children(list) {
            variadic |= declaration.node_kind() == "variadic_parameter_declaration";
            if !matches!(
                declaration.node_kind(),
                "parameter_declaration" | "optional_parameter_declaration"
            ) {
                continue;
            }
            let Some(param_declarator) = declaration.field("declarator") else {
                continue;
            };
            let Some(name_node) = syntax::declarator_name(param_declarator) else {
                continue;
            };
            parameters.push(Parameter {
                name: text(name_node, source).to_string(),
                type_text: declaration
                    .field("type")
                    .map(|t| text(t, source).to_string())
                    .unwrap_or_default(),
                is_pointer: syntax::declarator_is_pointer(param_declarator),
                declaration,
                name_node,
            });
        }
    }
    let mut template_parameters = Vec::new();
    if let Some(parent) = template {
        if let Some(list) = parent.field("parameters") {
            syntax::walk_iterative(list, |n| {
                if n.node_kind() == "type_identifier"
                    || (n.node_kind() == "identifier"
                        && n.up().map(|p| p.node_kind()) != Some("template_parameter_list"))
                {
                    template_parameters.push(text(n, source).to_string());
                }
                true
            });
        }
    }
    Some(Function {
        name,
        kind,
        definition: node,
        name_node,
        parameters,
        body,
        template_parameters,
        has_parse_errors: node.has_error(),
        variadic,
    })
}

fn find_function_declarator(mut node: Node) -> Option<Node> {
    for _ in 0..syntax::MAX_DEPTH {
        if node.node_kind() == "function_declarator" {
            return Some(node);
        }
        node = node.field("declarator")?;
    }
    None
}

/// A kernel's name as launches write it: an explicit specialisation's template arguments dropped.
/// The byte ranges of the original text inside `#if`/`#ifdef`/`#ifndef` blocks, a header's
/// include guard (`#ifndef X_H` then `#define X_H`) aside: what is defined there depends on
/// the build's configuration (the view keeps one branch, another build sees another).
fn configured_regions(source: &str) -> Vec<Range<usize>> {
    let mut regions = Vec::new();
    // per open block: where it starts, and whether it is an include guard
    let mut open: Vec<(usize, bool)> = Vec::new();
    let mut pending_guard: Option<(String, usize)> = None;
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        let Some(directive) = trimmed.strip_prefix('#') else {
            if !trimmed.is_empty() && !trimmed.starts_with("//") {
                pending_guard = None;
            }
            continue;
        };
        let mut words = directive.split_whitespace();
        let keyword = words.next().unwrap_or("");
        let argument = words.next().unwrap_or("");
        if let Some((name, depth)) = pending_guard.take() {
            if keyword == "define" && argument == name && depth == open.len() {
                if let Some(last) = open.last_mut() {
                    last.1 = true;
                }
            }
        }
        match keyword {
            "if" | "ifdef" | "ifndef" => {
                open.push((start, false));
                if keyword == "ifndef" {
                    pending_guard = Some((argument.to_string(), open.len()));
                }
            }
            "endif" => {
                if let Some((block_start, guard)) = open.pop() {
                    if !guard {
                        regions.push(block_start..offset);
                    }
                }
            }
            _ => {}
        }
    }
    // a block never closed runs to the end
    for (block_start, guard) in open {
        if !guard {
            regions.push(block_start..source.len());
        }
    }
    regions
}

fn kernel_name(name: &str) -> &str {
    name.split('<').next().unwrap_or(name).trim()
}

impl GridHelpers for Model<'_> {
    fn rounds_up(&self, name: &str, arity: usize) -> Option<RoundingHelper> {
        if let Some(function) = self
            .functions
            .iter()
            .find(|f| f.name == name && f.parameters.len() == arity)
        {
            return Some(launch::rounding_helper(function, self.source));
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
}

/// The model's rounding helpers and defines, and no other summaries: a grid helper, or one that
/// assigns a `dim3`, is read alone (a summary does not read another's).
struct HelpersAlone<'m, 't>(&'m Model<'t>);

impl GridHelpers for HelpersAlone<'_, '_> {
    fn rounds_up(&self, name: &str, arity: usize) -> Option<RoundingHelper> {
        self.0.rounds_up(name, arity)
    }
    fn define(&self, name: &str) -> Option<&str> {
        self.0.define(name)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_rank_of_a_tensor_accessor_is_its_second_template_argument() {
        let rank = super::tensor_accessor_rank;
        assert_eq!(
            rank("torch::PackedTensorAccessor32<scalar_t, 4, torch::RestrictPtrTraits>"),
            Some(4)
        );
        assert_eq!(rank("const at::PackedTensorAccessor64<float, 2>"), Some(2));
        assert_eq!(rank("at::GenericPackedTensorAccessor<std::pair<int, int>, 3, at::DefaultPtrTraits, int64_t>"), Some(3));
        assert_eq!(
            rank("PackedTensorAccessor32<T, N, RestrictPtrTraits>"),
            None
        );
        assert_eq!(rank("TensorAccessor"), None);
    }
}
