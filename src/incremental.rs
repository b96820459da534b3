//! Findings of unchanged functions, kept between lints of one document by the language server.
//!
//! `relint` is what the server does with a document's new text: a new view, an incremental
//! re-parse of it, and a lint that analyses only the functions that changed.
//!
//! A keystroke changes one function; the others' facts and findings are what they were. Every
//! finding lies inside the function whose facts produced it, and a function's facts depend only
//! on its own text and on a little context: file-wide (settings, `#define`s, check macros), where
//! it sits (its kind, which may come from a qualifier macro before it, and its template
//! parameters) and, for a host function, the functions it calls or launches (their heads and the
//! kernels' summaries); for a kernel, the summaries of the device functions it calls (a finding
//! there may point into one of them: that label moves with the device function). When all of
//! that is equal, the function's findings from the last lint,
//! moved to its new position, are exactly what analysing it again would give; only the other
//! functions are analysed (`Model::build_reusing`).

use crate::config::Settings;
use crate::diagnostic::Diagnostic;
use crate::engine::{self, FileOutcome};
use crate::model::helpers::{DeviceFunctions, HelperSummary, LookupState};
use crate::model::host::KernelSummary;
use crate::model::index::{Lookups, ProjectIndex};
use crate::model::{Function, FunctionKind, Model, Reuse, ReusedKernel};
use crate::source::{self, LineIndex, PreprocessedView};
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;
use tree_sitter::{InputEdit, Point, Tree};

/// What is kept of a document between lints: its view and tree, for an incremental re-parse,
/// and the findings of its functions.
pub struct Kept {
    view: PreprocessedView,
    tree: Tree,
    functions: FunctionCache,
    /// What the last lint looked up outside the document: the headers read for the next one.
    lookups: Lookups,
}

impl Kept {
    /// What the last lint did with the kept findings.
    pub fn last_lint(&self) -> Stats {
        self.functions.last_lint()
    }
}

/// Lints `text`, the new text of a document whose last lint left `previous` (None for the first),
/// exactly as `engine::lint_text` would; returns what to keep for the next edit (None when the
/// text could not be parsed).
pub fn relint(
    previous: Option<Kept>,
    path: &Path,
    text: &str,
    settings: &Settings,
) -> (Option<Kept>, FileOutcome) {
    // the same view as `engine::lint_text`: `defines` from the configuration choose branches
    let view = engine::view_of(path, text, settings);
    let (tree, mut functions, lookups) = match previous {
        Some(mut previous) => {
            if let Some(edit) = view_edit(&previous.view.text, &view.text) {
                previous.tree.edit(&edit);
            }
            // error recovery may take another path from the old tree than from none: where the
            // text does not parse cleanly, parse it afresh, so the findings are a fresh lint's
            let tree = engine::parse(&view.text, Some(&previous.tree))
                .filter(|tree| !tree.root_node().has_error())
                .or_else(|| engine::parse(&view.text, None));
            (tree, previous.functions, previous.lookups)
        }
        // the document's first lint: what it looks up decides which headers are read
        None => (
            engine::parse(&view.text, None),
            FunctionCache::default(),
            engine::lint_text_with(path, text, settings, ProjectIndex::empty()).lookups,
        ),
    };
    let Some(tree) = tree else {
        return (None, FileOutcome::default());
    };
    let index = engine::index_of_included(path, text, settings, &lookups);
    let outcome = lint_tree_incremental(path, text, &view, &tree, settings, &index, &mut functions);
    let kept = Kept {
        view,
        tree,
        functions,
        lookups: outcome.lookups.clone(),
    };
    (Some(kept), outcome)
}

/// Lints an already parsed view as `lint_tree` does, analysing only the functions that changed
/// since the lint that filled `cache` (the language server keeps one per document); the others'
/// findings are taken from it.
fn lint_tree_incremental(
    path: &Path,
    text: &str,
    view: &source::PreprocessedView,
    tree: &tree_sitter::Tree,
    settings: &Settings,
    index: &ProjectIndex,
    cache: &mut FunctionCache,
) -> FileOutcome {
    let lines = LineIndex::new(text);
    cache.begin(FileContext::new(path, text, settings, view, tree));
    let mut model = Model::build_reusing(
        path,
        text,
        view,
        tree,
        &lines,
        &settings.check_macros,
        settings.selects_error_handling(),
        index,
        cache,
    );
    model.max_allocation_bytes = settings.max_allocation_bytes;
    let found = engine::run_lints(&model, settings, path);
    match cache.finish(&model, found) {
        Some(diagnostics) => engine::outcome(&model, diagnostics, settings, path),
        // a finding outside the function that produced it cannot be reused: lint it all
        None => engine::lint_tree(path, text, view, tree, settings, index),
    }
}

/// What every function's facts and findings read of the file and the settings.
#[derive(Debug, Default, PartialEq)]
pub struct FileContext {
    enabled_rules: Vec<&'static str>,
    max_allocation_bytes: u64,
    check_macros: Vec<String>,
    defines: Vec<(String, String)>,
    /// Function-like macros that check the last error: what the error flow counts as a check.
    last_error_macros: Vec<String>,
    lint_options: crate::lint::LintOptions,
    /// Whether legacy warp intrinsics are judged (the file shows it is CUDA, anywhere in it).
    judges_legacy_intrinsics: bool,
    /// The texts of the file-scope constants (`constexpr int kChunk = 30;`), which kernels read
    /// as numbers wherever their names appear.
    file_constants: u64,
}

impl FileContext {
    pub fn new(
        path: &Path,
        text: &str,
        settings: &Settings,
        view: &PreprocessedView,
        tree: &tree_sitter::Tree,
    ) -> Self {
        let mut constants = FxHasher::default();
        for declaration in crate::model::launch::file_scope_constants(tree.root_node(), &view.text)
        {
            view.text.get(declaration.byte_range()).hash(&mut constants);
        }
        let mut defines: Vec<(String, String)> = view
            .defines
            .iter()
            .chain(&view.included.values)
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        defines.extend(
            view.included
                .unknown
                .iter()
                .map(|name| (name.clone(), "?".into())),
        );
        defines.sort_unstable();
        FileContext {
            enabled_rules: crate::lints::ALL
                .iter()
                .filter(|lint| settings.rule_enabled(lint.name, path))
                .map(|lint| lint.name)
                .collect(),
            max_allocation_bytes: settings.max_allocation_bytes.to_bits(),
            check_macros: settings.check_macros.clone(),
            defines,
            last_error_macros: view.last_error_macros.clone(),
            lint_options: settings.lint_options(),
            judges_legacy_intrinsics: crate::model::legacy_intrinsics::judges(text),
            file_constants: constants.finish(),
        }
    }
}

/// What a host function read of the functions of one name: in file order, each one's kind,
/// parameter count, text before its name (the return type) and, for a kernel, its summary.
#[derive(Debug, PartialEq)]
struct Interface {
    kind: FunctionKind,
    arity: usize,
    head: String,
    summary: Option<KernelSummary>,
    /// For a host function that may allocate for its caller, a hash of its texts: callers read
    /// its summary, made from its body.
    helper: Option<u64>,
}

/// One function's findings from the lint that analysed it, with what they depend on.
#[derive(Debug)]
struct Entry {
    kind: FunctionKind,
    template_parameters: Vec<String>,
    template_defaults: Vec<Option<i128>>,
    /// The text of the definition.
    source: Box<str>,
    /// The view's text of the definition, where it differs from the source (a blanked `#if`).
    view: Option<Box<str>>,
    /// Spans relative to the definition's start, in the order the lints reported them.
    diagnostics: Vec<Diagnostic>,
    /// A kernel's summary, read by host functions' findings.
    summary: Option<KernelSummary>,
    /// A kernel's skipped regions, relative to the definition's start.
    skipped: Vec<Range<usize>>,
    /// A kernel's launches (its findings read their geometry and point at them).
    launches: Vec<crate::model::launch::LaunchSite>,
    /// Labels at those launches, outside the definition: (finding, label, launch), placed at the
    /// launch's current position when the finding is reused.
    launch_labels: Vec<(usize, usize, usize)>,
    /// A host function's lookups of other functions by name, with what it found.
    depends_on: Vec<(String, Vec<Interface>)>,
    /// Labels of its findings that point into another function it looked up (a launched
    /// kernel's access): where to put them when that function has moved.
    anchors: Vec<Anchor>,
    /// A kernel's lookups of device functions by name, with the summaries it found.
    helpers: Vec<(String, Vec<HelperSummary>)>,
    /// Labels of `diagnostics` that point into a device function (a helper's access): their
    /// spans are relative to that function's start, not this one's.
    anchored: Vec<Anchored>,
    /// A device function's summary, with what it read of the summaries made before it.
    device: Option<DeviceEntry>,
    /// A host function's error flow as its callers and callees make it
    /// (`ErrorFlow::fingerprint`): its error-handling findings stand while it is the same.
    errors: u64,
}

/// A label in another function than its finding's: that function by name, kind, arity and
/// ordinal among its namesakes, its texts (the label is reused only while they stay the same),
/// and the label's span relative to its start.
#[derive(Debug)]
struct Anchor {
    diagnostic: usize,
    label: usize,
    name: String,
    kind: FunctionKind,
    arity: usize,
    ordinal: usize,
    source: Box<str>,
    view: Option<Box<str>>,
    relative: Range<usize>,
}

impl Anchor {
    /// For a label at `span` in a function that `names` (what the finding's function looked up)
    /// includes; None for any other label.
    fn new(
        model: &Model,
        diagnostic: usize,
        label: usize,
        span: &Range<usize>,
        names: &[String],
    ) -> Option<Anchor> {
        let (index, function) = model
            .functions
            .iter()
            .enumerate()
            .filter(|(_, f)| {
                f.definition.start_byte() <= span.start && span.end <= f.definition.end_byte()
            })
            .min_by_key(|(_, f)| f.definition.byte_range().len())?;
        if !names.contains(&function.name) {
            return None;
        }
        let ordinal = model
            .functions
            .get(..index)?
            .iter()
            .filter(|f| same_identity(f, function))
            .count();
        let (source, view) = texts(model, function)?;
        Some(Anchor {
            diagnostic,
            label,
            name: function.name.clone(),
            kind: function.kind,
            arity: function.parameters.len(),
            ordinal,
            source: source.into(),
            view: view.map(Into::into),
            relative: shifted(span, -(function.definition.start_byte() as isize)),
        })
    }

    /// The function the label points into, while its texts are the same.
    fn function<'m, 't>(&self, model: &'m Model<'t>) -> Option<&'m Function<'t>> {
        let function = model
            .functions
            .iter()
            .filter(|f| {
                f.name == self.name && f.kind == self.kind && f.parameters.len() == self.arity
            })
            .nth(self.ordinal)?;
        let (source, view) = texts(model, function)?;
        (source == &*self.source && view == self.view.as_deref()).then_some(function)
    }
}

fn same_identity(a: &Function, b: &Function) -> bool {
    a.name == b.name && a.kind == b.kind && a.parameters.len() == b.parameters.len()
}

#[derive(Debug)]
struct DeviceEntry {
    summary: HelperSummary,
    /// Per name it calls: the arities defined and the summaries made when it was summarised.
    reads: Vec<(String, LookupState)>,
}

/// A label in another function: (diagnostic, label) positions and that function.
#[derive(Debug)]
struct Anchored {
    diagnostic: usize,
    label: usize,
    function: String,
    arity: usize,
}

impl Entry {
    /// The diagnostics at their place in `model`, the function starting at `start`; None when a
    /// device function a label points into is no longer there.
    fn placed(&self, model: &Model, start: isize) -> Option<Vec<Diagnostic>> {
        let mut placed: Vec<Diagnostic> =
            self.diagnostics.iter().map(|d| shift(d, start)).collect();
        for anchor in &self.anchored {
            let at = model
                .device_functions
                .start(&anchor.function, anchor.arity)?;
            let stored = self
                .diagnostics
                .get(anchor.diagnostic)?
                .labels
                .get(anchor.label)?;
            let label = placed
                .get_mut(anchor.diagnostic)?
                .labels
                .get_mut(anchor.label)?;
            label.span = shifted(&stored.span, at as isize);
        }
        Some(placed)
    }
}

/// The device function whose definition holds `span`, by name and arity, with its start: the
/// one the file's summaries know by that name and arity.
fn device_function_around(model: &Model, span: &Range<usize>) -> Option<(String, usize, usize)> {
    let function = model.functions.iter().find(|f| {
        matches!(f.kind, FunctionKind::Device | FunctionKind::HostDevice)
            && f.definition.start_byte() <= span.start
            && span.end <= f.definition.end_byte()
    })?;
    let arity = function.parameters.len();
    let start = model.device_functions.start(&function.name, arity)?;
    (start == function.definition.start_byte()).then(|| (function.name.clone(), arity, start))
}

/// What the last lint did with the cache (tests check that reuse happens and covers everything).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    /// Kernels and host functions analysed.
    pub analysed: usize,
    /// Kernels and host functions whose findings were reused.
    pub reused: usize,
    /// A finding lay outside the analysed functions: nothing was kept, the file was linted afresh.
    pub fell_back: bool,
    /// Launching functions whose launch sites were read, and those whose sites were reused.
    pub launches: crate::model::launch::LaunchStats,
}

/// The per-document cache. `begin`, then `Model::build_reusing` with it, then `finish` with the
/// lints' findings on that model.
#[derive(Debug, Default)]
pub struct FunctionCache {
    context: FileContext,
    /// By a hash of the key (kind, template parameters, texts); entries compare the key itself.
    entries: FxHashMap<u64, Vec<Arc<Entry>>>,
    /// This lint: functions (index into `Model::functions`) whose findings are reused.
    reused: Vec<(usize, Arc<Entry>)>,
    /// This lint: host functions analysed, with the names they looked up.
    analysed_hosts: Vec<(usize, Vec<String>)>,
    /// This lint: device functions with their summaries, reused or made.
    devices: Vec<(usize, Arc<Entry>)>,
    /// This lint: functions by name and each kernel's summary, made when first needed.
    lookup: Option<Lookup>,
    last: Stats,
    /// The host-wide facts of the last lint (`Reuse::host_context`).
    host_context: Option<u64>,
    /// The launch sites of the last lint, reused for functions whose launches read nothing that
    /// changed. They do not depend on the file-wide context: what they read of it (`#define`s)
    /// is checked for each function.
    launches: crate::model::launch::LaunchCache,
}

#[derive(Debug)]
struct Lookup {
    by_name: FxHashMap<String, Vec<usize>>,
    /// Per function, the index of its summary in `host.kernels`.
    summary_of: Vec<Option<usize>>,
}

impl Lookup {
    fn new(model: &Model) -> Self {
        let mut by_name: FxHashMap<String, Vec<usize>> = FxHashMap::default();
        let mut summary_of = vec![None; model.functions.len()];
        let mut kernels = 0;
        for (index, function) in model.functions.iter().enumerate() {
            by_name
                .entry(function.name.clone())
                .or_default()
                .push(index);
            // as the model summarises them: a template kernel no launch instantiates has none
            if function.kind == FunctionKind::Kernel && !model.never_instantiated(index) {
                summary_of[index] = Some(kernels);
                kernels += 1;
            }
        }
        Lookup {
            by_name,
            summary_of,
        }
    }

    fn functions_named(&self, name: &str) -> &[usize] {
        self.by_name.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    fn interface(&self, model: &Model, index: usize) -> Option<Interface> {
        let function = model.functions.get(index)?;
        let summary = match self.summary_of.get(index).copied().flatten() {
            Some(slot) => Some(model.host.kernels.get(slot)?.clone()),
            None => None,
        };
        Some(Interface {
            kind: function.kind,
            arity: function.parameters.len(),
            head: head(model, function)?.to_string(),
            summary,
            helper: helper_hash(model, function),
        })
    }

    /// Whether the functions named `name` still look as `expected` says.
    fn unchanged(&self, model: &Model, name: &str, expected: &[Interface]) -> bool {
        let current = self.functions_named(name);
        current.len() == expected.len()
            && current.iter().zip(expected).all(|(&index, expected)| {
                let Some(function) = model.functions.get(index) else {
                    return false;
                };
                let summary = self
                    .summary_of
                    .get(index)
                    .copied()
                    .flatten()
                    .and_then(|slot| model.host.kernels.get(slot));
                function.kind == expected.kind
                    && function.parameters.len() == expected.arity
                    && head(model, function) == Some(expected.head.as_str())
                    && summary == expected.summary.as_ref()
                    && helper_hash(model, function) == expected.helper
            })
    }
}

/// A hash of the texts of a host function whose summary callers may read.
fn helper_hash(model: &Model, function: &Function) -> Option<u64> {
    if !crate::model::host::summarized_for_callers(model, function) {
        return None;
    }
    let (source, view) = texts(model, function)?;
    Some(key_hash(function, source, view))
}

/// The text of a definition before the function's name, as host code reads it (`cudaError_t`).
fn head<'t>(model: &Model<'t>, function: &Function) -> Option<&'t str> {
    model
        .source
        .get(function.definition.start_byte()..function.name_node.start_byte())
}

/// The key's texts: the definition's source, and its view where that differs.
fn texts<'t>(model: &Model<'t>, function: &Function) -> Option<(&'t str, Option<&'t str>)> {
    let range = function.definition.byte_range();
    let source = model.source.get(range.clone())?;
    let view = model.view.text.get(range)?;
    Some((source, (view != source).then_some(view)))
}

fn key_hash(function: &Function, source: &str, view: Option<&str>) -> u64 {
    let mut hasher = FxHasher::default();
    (function.kind as u8).hash(&mut hasher);
    function.template_parameters.hash(&mut hasher);
    function.template_defaults.hash(&mut hasher);
    source.hash(&mut hasher);
    view.hash(&mut hasher);
    hasher.finish()
}

impl Entry {
    fn matches(&self, function: &Function, source: &str, view: Option<&str>) -> bool {
        self.kind == function.kind
            && self.template_parameters == function.template_parameters
            && self.template_defaults == function.template_defaults
            && &*self.source == source
            && self.view.as_deref() == view
    }
}

fn shifted(range: &Range<usize>, by: isize) -> Range<usize> {
    range.start.saturating_add_signed(by)..range.end.saturating_add_signed(by)
}

/// The diagnostic with every span moved by `by` bytes.
fn shift(diagnostic: &Diagnostic, by: isize) -> Diagnostic {
    let mut moved = diagnostic.clone();
    moved.span = shifted(&moved.span, by);
    for label in &mut moved.labels {
        label.span = shifted(&label.span, by);
    }
    if let Some(fix) = &mut moved.fix {
        for edit in &mut fix.edits {
            edit.span = shifted(&edit.span, by);
        }
    }
    moved
}

impl FunctionCache {
    /// Starts a lint: a changed file-wide context makes every kept finding stale.
    pub fn begin(&mut self, context: FileContext) {
        if context != self.context {
            self.entries.clear();
            self.context = context;
        }
        self.reused.clear();
        self.analysed_hosts.clear();
        self.devices.clear();
        self.lookup = None;
    }

    /// Forgets everything (the next lint analyses every function).
    pub fn clear(&mut self) {
        self.entries.clear();
        self.reused.clear();
        self.analysed_hosts.clear();
        self.devices.clear();
        self.lookup = None;
    }

    fn find(&self, model: &Model, function: &Function) -> Option<Arc<Entry>> {
        let (source, view) = texts(model, function)?;
        self.entries
            .get(&key_hash(function, source, view))?
            .iter()
            .find(|entry| entry.matches(function, source, view))
            .cloned()
    }

    /// Ends a lint: keeps the findings of the functions analysed this time (`found`, what the
    /// lints reported on `model`) and returns them with the reused ones at their new positions.
    /// None when a finding lies outside the analysed functions, which reuse cannot account for:
    /// then nothing is kept and the caller lints the file afresh.
    pub fn finish(&mut self, model: &Model, found: Vec<Diagnostic>) -> Option<Vec<Diagnostic>> {
        self.last = Stats {
            analysed: model.kernels.len() + self.analysed_hosts.len(),
            reused: self.reused.len(),
            fell_back: false,
            launches: self.launches.last_lint(),
        };
        let outcome = self.keep(model, found);
        if outcome.is_none() {
            self.clear();
            self.last.fell_back = true;
        }
        outcome
    }

    pub fn last_lint(&self) -> Stats {
        self.last
    }

    fn keep(&mut self, model: &Model, found: Vec<Diagnostic>) -> Option<Vec<Diagnostic>> {
        let lookup = self.lookup.take().unwrap_or_else(|| Lookup::new(model));
        let reused: FxHashMap<usize, Arc<Entry>> = self.reused.drain(..).collect();
        let devices: FxHashMap<usize, Arc<Entry>> = self.devices.drain(..).collect();
        let mut analysed: Vec<usize> = model.kernels.iter().map(|(index, _)| *index).collect();
        analysed.extend(self.analysed_hosts.iter().map(|(index, _)| *index));
        analysed.sort_by_key(|&index| {
            model
                .functions
                .get(index)
                .map(|f| f.definition.start_byte())
        });
        let ranges: Vec<Range<usize>> = analysed
            .iter()
            .map(|&index| {
                model
                    .functions
                    .get(index)
                    .map(|f| f.definition.byte_range())
                    .unwrap_or(0..0)
            })
            .collect();
        let calls: FxHashMap<usize, &Vec<String>> = model
            .kernels
            .iter()
            .map(|(index, facts)| (*index, &facts.calls))
            .collect();
        let dependencies: FxHashMap<usize, &Vec<String>> = self
            .analysed_hosts
            .iter()
            .map(|(index, names)| (*index, names))
            .collect();
        let launches: FxHashMap<usize, &Vec<crate::model::launch::LaunchSite>> = model
            .kernels
            .iter()
            .map(|(index, facts)| (*index, &facts.launches))
            .collect();
        // each finding to the analysed function that holds its span, relative to its start; a
        // label elsewhere is tied to what it points at: a kernel's launch, a device function the
        // kernel calls, a function a host function looked up
        let mut findings: FxHashMap<usize, Vec<Diagnostic>> = FxHashMap::default();
        let mut anchors: FxHashMap<usize, Vec<Anchor>> = FxHashMap::default();
        let mut anchored: FxHashMap<usize, Vec<Anchored>> = FxHashMap::default();
        let mut launch_labels: FxHashMap<usize, Vec<(usize, usize, usize)>> = FxHashMap::default();
        for diagnostic in &found {
            // a finding the outcome drops for resting on code the parser could not read (in a
            // function whose body a broken string swallowed) is no function's to keep: it stays
            // in this lint's findings only
            // so is one in a host function the parser left errors in, which no lint analyses
            // and none keeps (a rule that reads its expressions alone still reports there)
            let in_unparsed_function = || {
                model.functions.iter().any(|f| {
                    f.has_parse_errors
                        && f.definition.start_byte() <= diagnostic.span.start
                        && diagnostic.span.end <= f.definition.end_byte()
                })
            };
            let on_broken_code =
                || model.depends_on_broken_code(&diagnostic.span) || in_unparsed_function();
            let slot = match ranges
                .partition_point(|r| r.start <= diagnostic.span.start)
                .checked_sub(1)
            {
                Some(slot) => slot,
                None if on_broken_code() => continue,
                None => return None,
            };
            let range = ranges.get(slot)?;
            let owner = *analysed.get(slot)?;
            let inside = |s: &Range<usize>| range.start <= s.start && s.end <= range.end;
            let fixed = diagnostic
                .fix
                .iter()
                .flat_map(|f| f.edits.iter().map(|e| &e.span))
                .all(inside);
            if !inside(&diagnostic.span) && on_broken_code() {
                continue;
            }
            if !inside(&diagnostic.span) || !fixed {
                return None;
            }
            let by = -(range.start as isize);
            let mut relative = shift(diagnostic, by);
            let kept = findings.entry(owner).or_default();
            for (label_index, label) in diagnostic.labels.iter().enumerate() {
                if inside(&label.span) {
                    continue;
                }
                let launch = launches.get(&owner).and_then(|l| {
                    l.iter()
                        .position(|l| l.path == model.path && l.span == label.span)
                });
                if let Some(launch) = launch {
                    launch_labels
                        .entry(owner)
                        .or_default()
                        .push((kept.len(), label_index, launch));
                    continue;
                }
                // only a kernel's reuse key holds the device functions it read
                if calls.contains_key(&owner) {
                    let (function, arity, start) = device_function_around(model, &label.span)?;
                    if let Some(moved) = relative.labels.get_mut(label_index) {
                        moved.span = shifted(&label.span, -(start as isize));
                    }
                    anchored.entry(owner).or_default().push(Anchored {
                        diagnostic: kept.len(),
                        label: label_index,
                        function,
                        arity,
                    });
                    continue;
                }
                let names = dependencies.get(&owner)?;
                let anchor = Anchor::new(model, kept.len(), label_index, &label.span, names)?;
                anchors.entry(owner).or_default().push(anchor);
            }
            kept.push(relative);
        }
        let skipped: FxHashMap<usize, &Vec<Range<usize>>> = model
            .kernels
            .iter()
            .map(|(index, facts)| (*index, &facts.skipped))
            .collect();

        let mut all = found;
        let mut entries: FxHashMap<u64, Vec<Arc<Entry>>> = FxHashMap::default();
        for (index, function) in model.functions.iter().enumerate() {
            let start = function.definition.start_byte() as isize;
            if let Some(entry) = reused.get(&index) {
                let mut moved = entry.placed(model, start)?;
                for anchor in &entry.anchors {
                    let there = anchor.function(model)?.definition.start_byte() as isize;
                    let label = moved
                        .get_mut(anchor.diagnostic)?
                        .labels
                        .get_mut(anchor.label)?;
                    label.span = shifted(&anchor.relative, there);
                }
                if !entry.launch_labels.is_empty() {
                    let current = model.launches_of(function);
                    for (finding, label, launch) in &entry.launch_labels {
                        let label = moved.get_mut(*finding)?.labels.get_mut(*label)?;
                        label.span = current.get(*launch)?.span.clone();
                    }
                }
                all.extend(moved);
                let Some((source, view)) = texts(model, function) else {
                    continue;
                };
                entries
                    .entry(key_hash(function, source, view))
                    .or_default()
                    .push(entry.clone());
                continue;
            }
            if let Some(entry) = devices.get(&index) {
                let Some((source, view)) = texts(model, function) else {
                    continue;
                };
                entries
                    .entry(key_hash(function, source, view))
                    .or_default()
                    .push(entry.clone());
                continue;
            }
            let is_kernel = skipped.contains_key(&index);
            let names = dependencies.get(&index);
            if !is_kernel && names.is_none() {
                continue; // not analysed: a device function, or host code that does not parse
            }
            let Some((source, view)) = texts(model, function) else {
                continue;
            };
            let summary = if is_kernel {
                let slot = lookup.summary_of.get(index).copied().flatten()?;
                Some(model.host.kernels.get(slot)?.clone())
            } else {
                None
            };
            let depends_on = names
                .map(|names| {
                    names
                        .iter()
                        .map(|name| {
                            let interfaces = lookup
                                .functions_named(name)
                                .iter()
                                .filter_map(|&other| lookup.interface(model, other))
                                .collect();
                            (name.clone(), interfaces)
                        })
                        .collect()
                })
                .unwrap_or_default();
            let helpers = calls
                .get(&index)
                .map(|names| {
                    names
                        .iter()
                        .map(|name| (name.clone(), model.device_functions.named(name)))
                        .collect()
                })
                .unwrap_or_default();
            let entry = Entry {
                kind: function.kind,
                template_parameters: function.template_parameters.clone(),
                template_defaults: function.template_defaults.clone(),
                source: source.into(),
                view: view.map(Into::into),
                diagnostics: findings.remove(&index).unwrap_or_default(),
                anchors: anchors.remove(&index).unwrap_or_default(),
                summary,
                skipped: skipped
                    .get(&index)
                    .map(|regions| regions.iter().map(|r| shifted(r, -start)).collect())
                    .unwrap_or_default(),
                launches: launches
                    .get(&index)
                    .map(|l| (*l).clone())
                    .unwrap_or_default(),
                launch_labels: launch_labels.remove(&index).unwrap_or_default(),
                depends_on,
                helpers,
                anchored: anchored.remove(&index).unwrap_or_default(),
                device: None,
                errors: model.errors.fingerprint(model, index),
            };
            entries
                .entry(key_hash(function, source, view))
                .or_default()
                .push(Arc::new(entry));
        }
        self.entries = entries;
        self.analysed_hosts.clear();
        Some(all)
    }
}

impl<'t> Reuse<'t> for FunctionCache {
    fn kernel(&mut self, model: &Model<'t>, index: usize) -> Option<ReusedKernel> {
        let function = model.functions.get(index)?;
        let entry = self.find(model, function)?;
        // its facts read its launches; a changed launch means analysing it again
        let current = model.launches_of(function);
        if entry.launches.len() != current.len()
            || !entry.launches.iter().zip(&current).all(|(a, b)| {
                // a launch in another file is named by its line in the message
                a.same_geometry(b) && (a.path == model.path || a.line == b.line)
            })
            // the device functions it calls summarise as they did
            || !entry
            .helpers
            .iter()
            .all(|(name, expected)| model.device_functions.named(name) == *expected)
        {
            return None;
        }
        let summary = entry.summary.clone()?;
        let start = function.definition.start_byte() as isize;
        let skipped = entry.skipped.iter().map(|r| shifted(r, start)).collect();
        self.reused.push((index, entry));
        Some(ReusedKernel { summary, skipped })
    }

    fn host_function(&mut self, model: &Model<'t>, index: usize) -> bool {
        let Some(function) = model.functions.get(index) else {
            return false;
        };
        let Some(entry) = self.find(model, function) else {
            return false;
        };
        let lookup = self.lookup.get_or_insert_with(|| Lookup::new(model));
        if !entry
            .depends_on
            .iter()
            .all(|(name, expected)| lookup.unchanged(model, name, expected))
            || !entry.anchors.iter().all(|a| a.function(model).is_some())
            || entry.errors != model.errors.fingerprint(model, index)
        {
            return false;
        }
        self.reused.push((index, entry));
        true
    }

    fn host_function_built(&mut self, index: usize, depends_on: &[String]) {
        self.analysed_hosts.push((index, depends_on.to_vec()));
    }

    fn launches(&mut self) -> Option<&mut crate::model::launch::LaunchCache> {
        Some(&mut self.launches)
    }

    fn keeps_functions(&self) -> bool {
        true
    }

    fn kept(&mut self, model: &Model<'t>, index: usize) -> bool {
        model
            .functions
            .get(index)
            .is_some_and(|function| self.find(model, function).is_some())
    }

    fn host_context(&mut self, digest: u64) {
        if self.host_context != Some(digest) {
            // kernels and device functions already taken this lint keep their entries
            self.entries.clear();
            self.host_context = Some(digest);
        }
    }

    fn device_function(
        &mut self,
        model: &Model<'t>,
        index: usize,
        known: &DeviceFunctions,
    ) -> Option<HelperSummary> {
        let function = model.functions.get(index)?;
        let entry = self.find(model, function)?;
        let device = entry.device.as_ref()?;
        if !device
            .reads
            .iter()
            .all(|(name, seen)| known.lookup_state(name) == *seen)
        {
            return None;
        }
        let summary = device.summary.clone();
        self.devices.push((index, entry));
        Some(summary)
    }

    fn device_function_built(
        &mut self,
        model: &Model<'t>,
        index: usize,
        summary: &HelperSummary,
        calls: &[String],
        known: &DeviceFunctions,
    ) {
        let Some(function) = model.functions.get(index) else {
            return;
        };
        let Some((source, view)) = texts(model, function) else {
            return;
        };
        let reads = calls
            .iter()
            .map(|name| (name.clone(), known.lookup_state(name)))
            .collect();
        let entry = Entry {
            kind: function.kind,
            template_parameters: function.template_parameters.clone(),
            template_defaults: function.template_defaults.clone(),
            source: source.into(),
            view: view.map(Into::into),
            diagnostics: Vec::new(),
            summary: None,
            skipped: Vec::new(),
            depends_on: Vec::new(),
            anchors: Vec::new(),
            launches: Vec::new(),
            launch_labels: Vec::new(),
            helpers: Vec::new(),
            anchored: Vec::new(),
            device: Some(DeviceEntry {
                summary: summary.clone(),
                reads,
            }),
            errors: 0,
        };
        self.devices.push((index, Arc::new(entry)));
    }
}

/// The single edit that turns the old view into the new one: everything between their common
/// prefix and common suffix. Diffing the views (not replaying the text edits) stays right when an
/// edit flips an `#if` branch and the view changes far from where the user typed.
pub fn view_edit(old: &str, new: &str) -> Option<InputEdit> {
    if old == new {
        return None;
    }
    let prefix = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let prefix = source::floor_char_boundary(old, prefix);
    let room = old.len().min(new.len()) - prefix;
    let mut suffix = old
        .bytes()
        .rev()
        .zip(new.bytes().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    while suffix > 0 && !old.is_char_boundary(old.len() - suffix) {
        suffix -= 1;
    }
    let old_end = old.len() - suffix;
    let new_end = new.len() - suffix;
    Some(InputEdit {
        start_byte: prefix,
        old_end_byte: old_end,
        new_end_byte: new_end,
        start_position: point(old, prefix),
        old_end_position: point(old, old_end),
        new_end_position: point(new, new_end),
    })
}

/// Tree-sitter's point: 0-based row and byte column.
fn point(text: &str, offset: usize) -> Point {
    let before = text.as_bytes().get(..offset).unwrap_or(text.as_bytes());
    let row = before.iter().filter(|b| **b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|b| *b == b'\n')
        .map(|i| i + 1)
        .unwrap_or(0);
    Point {
        row,
        column: before.len() - line_start,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reparse_matches_fresh(old: &str, new: &str) {
        let mut tree = crate::engine::parse(old, None).unwrap_or_else(|| panic!("parse"));
        if let Some(edit) = view_edit(old, new) {
            tree.edit(&edit);
        }
        let incremental = crate::engine::parse(new, Some(&tree)).unwrap_or_else(|| panic!("parse"));
        let fresh = crate::engine::parse(new, None).unwrap_or_else(|| panic!("parse"));
        assert_eq!(
            incremental.root_node().to_sexp(),
            fresh.root_node().to_sexp()
        );
    }

    #[test]
    fn view_edit_covers_the_changed_middle() {
        let edit =
            view_edit("ab\ncdXef\ngh", "ab\ncdYYef\ngh").unwrap_or_else(|| panic!("an edit"));
        assert_eq!(
            (edit.start_byte, edit.old_end_byte, edit.new_end_byte),
            (5, 6, 7)
        );
        assert_eq!(
            (edit.start_position.row, edit.start_position.column),
            (1, 2)
        );
        assert_eq!(
            (edit.new_end_position.row, edit.new_end_position.column),
            (1, 4)
        );
        assert!(view_edit("same", "same").is_none());
    }

    #[test]
    fn view_edit_handles_repeats_and_multibyte_text() {
        let edit = view_edit("aaaa", "aa").unwrap_or_else(|| panic!("an edit"));
        assert_eq!(
            (edit.start_byte, edit.old_end_byte, edit.new_end_byte),
            (2, 4, 2)
        );
        let edit = view_edit("xé", "xè").unwrap_or_else(|| panic!("an edit"));
        assert_eq!(
            (edit.start_byte, edit.old_end_byte, edit.new_end_byte),
            (1, 3, 3)
        );
    }

    #[test]
    fn incremental_reparse_equals_fresh_parse() {
        let old = "__global__ void k(float* o, int n) {\n  int i = threadIdx.x;\n  o[i] = 1;\n}\n";
        reparse_matches_fresh(old, &old.replace("o[i] = 1;", "if (i < n) { o[i] = 1; }"));
        reparse_matches_fresh(old, &old.replace("{\n", "{ {\n"));
        reparse_matches_fresh(old, "");
    }
}
