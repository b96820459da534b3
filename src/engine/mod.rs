//! Files in, diagnostics out: discovery, parsing, the model, every enabled lint, suppressions.

use crate::config::{self, Settings};
use crate::diagnostic::{Diagnostic, Severity};
use crate::lint::LintContext;
use crate::model::index::{FileIndex, Lookups, ProjectIndex};
use crate::model::Model;
use crate::source::{self, LineIndex};
use rayon::prelude::*;

mod headers;
pub use headers::{
    included_defines, index_of_headers_outside, index_of_included, resolve_include_with, view_of,
    wanted_names, DEEPEST_INCLUDE,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Files larger than this are reported, not parsed.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// What linting one text produced.
#[derive(Debug, Default)]
pub struct FileOutcome {
    pub diagnostics: Vec<Diagnostic>,
    /// Regions nested deeper than the analyses follow.
    pub skipped_regions: usize,
    /// Functions whose parse has ERROR nodes.
    pub functions_with_parse_errors: usize,
    /// Findings not reported because they rest on code the parser could not read.
    pub findings_on_broken_code: usize,
    /// What the file offers the other files of the run: filled only by a project run's first
    /// phase, which moves it into the project index (building it is a tenth of an editor
    /// keystroke's lint).
    pub index: FileIndex,
    /// What the file looked up outside itself.
    pub lookups: Lookups,
}

/// One linted file with its text, for the renderers.
#[derive(Debug, Clone)]
pub struct FileReport {
    pub path: PathBuf,
    /// Relative to the working directory when under it.
    pub display_path: String,
    pub source: Arc<str>,
    pub diagnostics: Vec<Diagnostic>,
    pub skipped_regions: usize,
    /// Something the user should know although the file was linted (invalid UTF-8 bytes).
    pub warning: Option<String>,
    /// Findings not reported because they rest on code the parser could not read.
    pub findings_on_broken_code: usize,
}

/// A file that could not be linted, or a bad configuration.
#[derive(Debug, Clone)]
pub struct LintError {
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for LintError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

#[derive(Debug, Default)]
pub struct RunResult {
    pub reports: Vec<FileReport>,
    pub errors: Vec<LintError>,
    /// FIFOs, sockets and device files met in a walk: skipped without being opened.
    pub skipped_special: Vec<SkippedFile>,
}

/// A path a walk met but did not lint, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedFile {
    pub path: String,
    /// What it is (`FIFO`, `socket`, ...).
    pub kind: &'static str,
}

impl RunResult {
    pub fn count(&self, severity: Severity) -> usize {
        self.reports
            .iter()
            .flat_map(|r| &r.diagnostics)
            .filter(|d| d.severity == severity)
            .count()
    }
}

#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    pub config: Option<PathBuf>,
    pub select: Vec<String>,
    pub ignore: Vec<String>,
    /// Rules added to the selection (`--extend-select`).
    pub extend_select: Vec<String>,
    /// `-D NAME[=VALUE]` from the command line.
    pub defines: Vec<String>,
}

/// Parses with a parser kept per thread (creating one costs more than parsing a small file).
pub fn parse(text: &str, old_tree: Option<&tree_sitter::Tree>) -> Option<tree_sitter::Tree> {
    crate::syntax::parse_with(text, old_tree)
}

/// Lints one text as if it were the file `path`, on its own: the project index holds the headers
/// it includes that are found on disk (what an editor or a single file on the command line sees).
pub fn lint_text(path: &Path, text: &str, settings: &Settings) -> FileOutcome {
    let alone = lint_text_with(path, text, settings, ProjectIndex::empty());
    let index = headers::index_of_included(path, text, settings, &alone.lookups);
    if index.answers(
        path,
        &alone.lookups.for_rules(reads_error_flow(settings, path)),
    ) {
        lint_text_with(path, text, settings, &index)
    } else {
        alone
    }
}

/// Lints one text with what the other files of the run offer.
pub fn lint_text_with(
    path: &Path,
    text: &str,
    settings: &Settings,
    index: &ProjectIndex,
) -> FileOutcome {
    lint_text_offering_if(path, text, settings, index, false)
}

/// Lints one text on its own, with what it offers the other files of the run (the first phase).
pub fn lint_text_offering(path: &Path, text: &str, settings: &Settings) -> FileOutcome {
    lint_text_offering_if(path, text, settings, ProjectIndex::empty(), true)
}

fn lint_text_offering_if(
    path: &Path,
    text: &str,
    settings: &Settings,
    index: &ProjectIndex,
    offers: bool,
) -> FileOutcome {
    let view = headers::view_of(path, text, settings);
    let Some(tree) = parse(&view.text, None) else {
        return FileOutcome::default();
    };
    lint_tree_with(path, text, &view, &tree, settings, index, offers)
}

/// Lints an already parsed view.
pub fn lint_tree(
    path: &Path,
    text: &str,
    view: &source::PreprocessedView,
    tree: &tree_sitter::Tree,
    settings: &Settings,
    index: &ProjectIndex,
) -> FileOutcome {
    lint_tree_with(path, text, view, tree, settings, index, false)
}

fn lint_tree_with(
    path: &Path,
    text: &str,
    view: &source::PreprocessedView,
    tree: &tree_sitter::Tree,
    settings: &Settings,
    index: &ProjectIndex,
    offers: bool,
) -> FileOutcome {
    let lines = LineIndex::new(text);
    let mut model = Model::build_reusing(
        path,
        text,
        view,
        tree,
        &lines,
        &settings.check_macros,
        settings.selects_error_handling(),
        index,
        &mut crate::model::AnalyseAll,
    );
    model.max_allocation_bytes = settings.max_allocation_bytes;
    let found = run_lints(&model, settings, path);
    let mut outcome = outcome(&model, found, settings, path);
    if offers {
        outcome.index = model.file_index();
    }
    outcome
}

/// Whether a rule that reads the error flow across files runs on `path`: without one, what other
/// files say of their callers and callees changes no finding.
fn reads_error_flow(settings: &Settings, path: &Path) -> bool {
    crate::lints::ALL.iter().any(|lint| {
        lint.category == crate::lint::Category::ErrorHandling
            && settings.rule_enabled(lint.name, path)
    })
}

/// Every enabled lint's findings on the model, before suppressions.
pub(crate) fn run_lints(model: &Model, settings: &Settings, path: &Path) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for lint in crate::lints::ALL {
        if !settings.rule_enabled(lint.name, path) {
            continue;
        }
        let mut cx = LintContext::new(lint).with_options(settings.lint_options());
        (lint.check)(model, &mut cx);
        diagnostics.extend(
            cx.into_diagnostics()
                .into_iter()
                .map(|d| in_runtime(d, model.runtime)),
        );
    }
    diagnostics
}

/// A finding worded in CUDA's terms, in the terms of the runtime its file calls (`hipFree` for
/// `cudaFree`, "HIP calls"): its message, labels, help and the code its fix writes.
fn in_runtime(mut d: Diagnostic, runtime: crate::model::runtime::Runtime) -> Diagnostic {
    if runtime == crate::model::runtime::Runtime::Cuda {
        return d;
    }
    d.message = runtime.translate(&d.message);
    d.help = d.help.map(|h| runtime.translate(&h));
    for label in &mut d.labels {
        label.message = runtime.translate(&label.message);
    }
    if let Some(fix) = &mut d.fix {
        fix.title = runtime.translate(&fix.title);
        for edit in &mut fix.edits {
            edit.replacement = runtime.translate(&edit.replacement);
        }
    }
    d
}

/// Suppressions, findings on broken code, configured severities, and the order renderers expect.
pub(crate) fn outcome(
    model: &Model,
    diagnostics: Vec<Diagnostic>,
    settings: &Settings,
    path: &Path,
) -> FileOutcome {
    let diagnostics = apply_suppressions(model, diagnostics, settings, path);
    // after suppressions, so a comment that silences a dropped finding does not look unused
    let before = diagnostics.len();
    let diagnostics: Vec<Diagnostic> = diagnostics
        .into_iter()
        .filter(|d| {
            d.rule == crate::lints::UNUSED_SUPPRESSION.name
                || !(model.depends_on_broken_code(&d.span)
                    || d.labels
                        .iter()
                        .any(|l| model.depends_on_broken_code(&l.span)))
        })
        .collect();
    let findings_on_broken_code = before - diagnostics.len();
    let mut diagnostics = merge(model, diagnostics);
    for diagnostic in &mut diagnostics {
        let default = crate::lints::find(diagnostic.rule)
            .map(|l| l.default_severity)
            .unwrap_or(diagnostic.severity);
        diagnostic.severity = settings.severity_of(diagnostic.rule, default);
    }
    diagnostics.sort_by(|a, b| (a.span.start, a.rule).cmp(&(b.span.start, b.rule)));
    diagnostics.dedup_by(|a, b| a.span == b.span && a.rule == b.rule);
    FileOutcome {
        diagnostics,
        skipped_regions: model.skipped_regions.len(),
        functions_with_parse_errors: model
            .functions
            .iter()
            .filter(|f| f.has_parse_errors)
            .count(),
        findings_on_broken_code,
        index: FileIndex::default(),
        lookups: model.lookups.borrow().clone(),
    }
}

/// Lets each lint that merges its findings (one per function) do so.
fn merge(model: &Model, mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    for lint in crate::lints::ALL {
        let Some(merge) = lint.merge else {
            continue;
        };
        let (own, rest): (Vec<Diagnostic>, Vec<Diagnostic>) =
            diagnostics.into_iter().partition(|d| d.rule == lint.name);
        diagnostics = rest;
        if !own.is_empty() {
            diagnostics.extend(merge(model, own));
        }
    }
    diagnostics
}

fn apply_suppressions(
    model: &Model,
    diagnostics: Vec<Diagnostic>,
    settings: &Settings,
    path: &Path,
) -> Vec<Diagnostic> {
    let mut used = vec![Vec::<bool>::new(); model.suppressions.len()];
    for (slot, suppression) in used.iter_mut().zip(&model.suppressions) {
        *slot = vec![false; suppression.rules.len()];
    }
    let mut kept = Vec::new();
    for diagnostic in diagnostics {
        let line = model.lines.line_of(diagnostic.span.start);
        let mut suppressed = false;
        for (index, suppression) in model.suppressions.iter().enumerate() {
            if !suppression.covers(line) {
                continue;
            }
            for (rule_index, (rule, _)) in suppression.rules.iter().enumerate() {
                if rule == diagnostic.rule || rule == "all" {
                    used[index][rule_index] = true;
                    suppressed = true;
                }
            }
        }
        if !suppressed {
            kept.push(diagnostic);
        }
    }
    let unused_rule = &crate::lints::UNUSED_SUPPRESSION;
    if settings.rule_enabled(unused_rule.name, path) {
        for (index, suppression) in model.suppressions.iter().enumerate() {
            if let Some(problem) = &suppression.problem {
                let diagnostic =
                    Diagnostic::new(unused_rule.name, suppression.span.clone(), problem.clone())
                        .with_help(
                            "give the comment the rules it is meant to suppress, or remove it",
                        );
                kept.push(Diagnostic {
                    severity: unused_rule.default_severity,
                    ..diagnostic
                });
                continue;
            }
            for (rule_index, (rule, span)) in suppression.rules.iter().enumerate() {
                if used[index][rule_index] {
                    continue;
                }
                let known = crate::lints::find(rule).is_some() || rule == "all";
                if known && !settings.rule_enabled(rule, path) {
                    continue; // the rule did not run, so the comment may well be needed
                }
                let message = if known {
                    format!("`{rule}` is suppressed here but reports nothing; the comment hides future findings for no reason")
                } else {
                    format!(
                        "unknown rule `{rule}` in a suppression comment, so it suppresses nothing"
                    )
                };
                let diagnostic = Diagnostic::new(unused_rule.name, span.clone(), message)
                    .with_label(suppression.span.clone(), "this suppression")
                    .with_help("remove the rule from the comment, or the comment itself");
                kept.push(Diagnostic {
                    severity: unused_rule.default_severity,
                    ..diagnostic
                });
            }
        }
    }
    kept
}

/// Relative to the working directory when under it.
pub fn display_path(path: &Path) -> String {
    let cwd = std::env::current_dir().ok();
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.as_ref()
            .map(|c| c.join(path))
            .unwrap_or_else(|| path.to_path_buf())
    };
    let shown = cwd
        .as_ref()
        .and_then(|c| absolute.strip_prefix(c).ok())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| path.to_path_buf());
    let text = shown.to_string_lossy().replace('\\', "/");
    text.strip_prefix("./").map(str::to_string).unwrap_or(text)
}

/// Resolves and caches the settings for each directory.
pub struct SettingsResolver {
    options: CheckOptions,
    explicit: Option<Arc<Settings>>,
    by_directory: HashMap<PathBuf, Arc<Settings>>,
    pub errors: Vec<LintError>,
    failed: Vec<PathBuf>,
    /// Per entry of `failed`: files under it that were not linted.
    not_linted: Vec<usize>,
    last_failed: Option<usize>,
}

impl SettingsResolver {
    pub fn new(options: CheckOptions) -> Self {
        let mut resolver = SettingsResolver {
            options,
            explicit: None,
            by_directory: HashMap::new(),
            errors: Vec::new(),
            failed: Vec::new(),
            not_linted: Vec::new(),
            last_failed: None,
        };
        if let Some(path) = resolver.options.config.clone() {
            match Settings::load(&path) {
                Ok(settings) => {
                    resolver.explicit = Some(Arc::new(resolver.apply_overrides(settings)))
                }
                Err(e) => {
                    resolver.errors.push(LintError {
                        path: display_path(&path),
                        message: config_message(&e),
                    });
                    resolver.explicit =
                        Some(Arc::new(resolver.apply_overrides(Settings::default())));
                }
            }
        }
        resolver
    }

    fn apply_overrides(&self, settings: Settings) -> Settings {
        settings
            .with_overrides(&self.options.select, &self.options.ignore)
            .with_extend_select(&self.options.extend_select)
            .with_defines(&self.options.defines)
    }

    /// The settings for a file in `directory`, or None when its configuration is broken.
    pub fn for_directory(&mut self, directory: &Path) -> Option<Arc<Settings>> {
        if let Some(explicit) = &self.explicit {
            return Some(explicit.clone());
        }
        if let Some(found) = self.by_directory.get(directory) {
            return Some(found.clone());
        }
        let absolute = std::fs::canonicalize(directory).unwrap_or_else(|_| directory.to_path_buf());
        let settings = match config::find_config(&absolute) {
            Some(path) if self.failed.contains(&path) => {
                self.last_failed = self.failed.iter().position(|p| *p == path);
                return None;
            }
            Some(path) => match Settings::load(&path) {
                Ok(settings) => self.apply_overrides(settings),
                Err(e) => {
                    // the error names the file that is wrong, which `extend` may have reached
                    self.errors.push(LintError {
                        path: display_path(&e.path),
                        message: config_message(&e),
                    });
                    self.last_failed = Some(self.failed.len());
                    self.failed.push(path);
                    self.not_linted.push(0);
                    return None;
                }
            },
            None => self.apply_overrides(Settings::default()),
        };
        let settings = Arc::new(settings);
        self.by_directory
            .insert(directory.to_path_buf(), settings.clone());
        Some(settings)
    }
}

impl SettingsResolver {
    /// Counts a file left unlinted by the configuration `for_directory` last found broken.
    fn not_linted_here(&mut self) {
        if let Some(count) = self.last_failed.and_then(|i| self.not_linted.get_mut(i)) {
            *count += 1;
        }
    }

    /// The configuration errors, each once, with how many files it kept from being linted.
    pub fn take_errors(&mut self) -> Vec<LintError> {
        let mut errors = std::mem::take(&mut self.errors);
        let explicit = usize::from(self.options.config.is_some() && !errors.is_empty());
        for (error, count) in errors.iter_mut().skip(explicit).zip(&self.not_linted) {
            if *count > 0 {
                error.message.push_str(&format!(
                    " ({count} file{} under it not linted)",
                    if *count == 1 { "" } else { "s" }
                ));
            }
        }
        errors
    }
}

fn config_message(error: &config::ConfigError) -> String {
    if error.line > 0 {
        format!(
            "line {}, column {}: {}",
            error.line, error.column, error.message
        )
    } else {
        error.message.clone()
    }
}

/// Whether the header at `path` defines a `__global__` kernel (or names the qualifier at all): a
/// header that no CUDA compiler reads holds none. A header that cannot be read is left to the
/// files that include it.
fn defines_a_kernel(path: &Path) -> bool {
    const QUALIFIER: &[u8] = b"__global__";
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut bytes = Vec::new();
    if std::io::Read::read_to_end(&mut std::io::Read::take(file, MAX_FILE_BYTES), &mut bytes)
        .is_err()
    {
        return false;
    }
    bytes.windows(QUALIFIER.len()).any(|w| w == QUALIFIER)
}

/// Walks the paths (honouring .gitignore and .cudalintignore) and returns the files to lint with
/// their settings. A file named explicitly is always linted.
pub fn discover(
    paths: &[PathBuf],
    resolver: &mut SettingsResolver,
) -> (Vec<(PathBuf, Arc<Settings>)>, Vec<LintError>) {
    let (files, errors, _) = discover_with_skips(paths, resolver);
    (files, errors)
}

/// The files to lint, each with its settings.
pub type Discovered = Vec<(PathBuf, Arc<Settings>)>;

/// `discover`, also returning the special files (FIFOs, sockets, devices) the walks skipped
/// that would otherwise have been linted.
pub fn discover_with_skips(
    paths: &[PathBuf],
    resolver: &mut SettingsResolver,
) -> (Discovered, Vec<LintError>, Vec<SkippedFile>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    let mut skipped = Vec::new();
    let mut headers = Vec::new();
    for root in paths {
        let metadata = std::fs::symlink_metadata(root);
        match metadata {
            Err(e) => {
                errors.push(LintError {
                    path: display_path(root),
                    message: io_message(&e),
                });
                continue;
            }
            Ok(meta)
                if !meta.is_dir()
                    && !std::fs::metadata(root).map(|m| m.is_dir()).unwrap_or(false) =>
            {
                // opening a FIFO blocks until a writer comes, so a special file is refused unread
                if let Some(kind) = crate::walk::special_kind(root) {
                    errors.push(LintError {
                        path: display_path(root),
                        message: format!("is a {kind}, not a regular file; not linted"),
                    });
                    continue;
                }
                let directory = root
                    .parent()
                    .filter(|p| !p.as_os_str().is_empty())
                    .unwrap_or(Path::new("."));
                if let Some(settings) = resolver.for_directory(directory) {
                    files.push((root.clone(), settings));
                } else {
                    resolver.not_linted_here();
                }
                continue;
            }
            Ok(_) => {}
        }
        let walker = ignore::WalkBuilder::new(root)
            .add_custom_ignore_filename(".cudalintignore")
            .require_git(false)
            .build();
        for entry in walker {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    errors.push(LintError {
                        path: walk_error_path(&e).unwrap_or_else(|| display_path(root)),
                        message: walk_error_message(&e),
                    });
                    continue;
                }
            };
            let Some(file_type) = entry.file_type() else {
                continue;
            };
            if file_type.is_dir() {
                continue;
            }
            let path = entry.path();
            let special = if file_type.is_file() {
                None
            } else {
                crate::walk::special_kind(path)
            };
            let directory = path.parent().unwrap_or(Path::new("."));
            let Some(settings) = resolver.for_directory(directory) else {
                if Settings::default().lints_extension(path) {
                    resolver.not_linted_here();
                }
                continue;
            };
            if !settings.lints_extension(path) {
                if special.is_none() && settings.may_be_kernel_header(path) {
                    headers.push((path.to_path_buf(), settings));
                }
                continue;
            }
            match special {
                Some(kind) => skipped.push(SkippedFile {
                    path: display_path(path),
                    kind,
                }),
                None => files.push((path.to_path_buf(), settings)),
            }
        }
    }
    files.par_extend(
        headers
            .into_par_iter()
            .filter(|(path, _)| defines_a_kernel(path)),
    );
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files.dedup_by(|a, b| a.0 == b.0);
    skipped.sort_by(|a, b| a.path.cmp(&b.path));
    skipped.dedup();
    (files, errors, skipped)
}

fn walk_error_path(error: &ignore::Error) -> Option<String> {
    match error {
        ignore::Error::WithPath { path, .. } => Some(display_path(path)),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            walk_error_path(err)
        }
        ignore::Error::Loop { child, .. } => Some(display_path(child)),
        _ => None,
    }
}

fn walk_error_message(error: &ignore::Error) -> String {
    match error {
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => walk_error_message(err),
        ignore::Error::Loop { ancestor, .. } => {
            format!("symbolic link loop back to {}", display_path(ancestor))
        }
        ignore::Error::Io(e) => io_message(e),
        other => other.to_string(),
    }
}

pub fn io_message(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => match error.raw_os_error() {
            Some(40) => "too many levels of symbolic links (a symlink loop)".into(),
            _ => error.to_string(),
        },
    }
}

/// Reads a file for linting; every way it can fail gives a message for the user.
pub fn read_source(path: &Path) -> Result<String, String> {
    let metadata = std::fs::metadata(path).map_err(|e| io_message(&e))?;
    if metadata.is_dir() {
        return Err("is a directory".into());
    }
    if let Some(kind) = crate::walk::special_kind_of(&metadata) {
        return Err(format!("is a {kind}, not a regular file; not linted"));
    }
    if metadata.len() > MAX_FILE_BYTES {
        return Err(format!(
            "file is {} MB, over the {} MB limit; not linted",
            metadata.len() >> 20,
            MAX_FILE_BYTES >> 20
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| io_message(&e))?;
    if bytes.iter().take(8192).any(|b| *b == 0) {
        return Err("binary file (contains NUL bytes); not linted".into());
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(e) => Err(format!(
            "not valid UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )),
    }
}

/// Reads a file for linting; text with stray non-UTF-8 bytes (a Latin-1 comment, say) is linted
/// with each such byte read as `?`, which keeps every offset, and comes back with a warning.
pub fn read_source_lossy(path: &Path) -> Result<(String, Option<String>), String> {
    match read_source(path) {
        Ok(text) => Ok((text, None)),
        Err(message) if message.starts_with("not valid UTF-8") => {
            let bytes = std::fs::read(path).map_err(|e| io_message(&e))?;
            let mut text = String::with_capacity(bytes.len());
            let mut rest = bytes.as_slice();
            loop {
                match std::str::from_utf8(rest) {
                    Ok(valid) => {
                        text.push_str(valid);
                        break;
                    }
                    Err(error) => {
                        let (valid, after) = rest.split_at(error.valid_up_to());
                        text.push_str(std::str::from_utf8(valid).unwrap_or_default());
                        let invalid = error
                            .error_len()
                            .unwrap_or(after.len())
                            .max(1)
                            .min(after.len());
                        text.extend(std::iter::repeat_n('?', invalid));
                        rest = &after[invalid..];
                    }
                }
            }
            Ok((
                text,
                Some(format!("{message}; linted with invalid bytes read as `?`")),
            ))
        }
        Err(message) => Err(message),
    }
}

/// One file's text for `lint_project`.
pub struct SourceFile<'a> {
    pub path: &'a Path,
    pub text: &'a str,
    pub settings: &'a Settings,
}

/// What `lint_project` did.
#[derive(Debug, Default)]
pub struct ProjectOutcome {
    pub files: Vec<FileOutcome>,
    /// Files linted again with the project index in the second phase.
    pub relinted: usize,
}

/// Lints the files of one run in two phases. The first lints each file on its own and collects
/// what it offers the others (its launches, kernels, helpers) and what it looked up outside
/// itself; the second lints again, with the project index, only the files whose lookups another
/// file (or a header they include that is not among the paths) answers. The result is what
/// linting every file with the whole index would give.
pub fn lint_project(files: &[SourceFile]) -> ProjectOutcome {
    lint_project_with_progress(files, &NoProgress)
}

/// Told how a run advances (a progress bar); every method may be called from any thread.
pub trait Progress: Sync {
    /// The run will lint `files` files.
    fn start(&self, _files: usize) {}
    /// One file of the first phase is linted.
    fn file_done(&self) {}
    /// The first phase is over; files are linted again with the project index.
    fn second_phase(&self) {}
    /// Nothing more to lint.
    fn finish(&self) {}
}

/// A run nobody watches.
pub struct NoProgress;

impl Progress for NoProgress {}

/// `lint_project`, telling `progress` as files are linted.
pub fn lint_project_with_progress(files: &[SourceFile], progress: &dyn Progress) -> ProjectOutcome {
    progress.start(files.len());
    let mut first: Vec<FileOutcome> = files
        .par_iter()
        .map(|file| {
            let outcome = lint_text_offering(file.path, file.text, file.settings);
            progress.file_done();
            outcome
        })
        .collect();
    progress.second_phase();
    let settings = files
        .first()
        .map(|f| f.settings.clone())
        .unwrap_or_default();
    let paths: Vec<&Path> = files.iter().map(|f| f.path).collect();
    let wanted = headers::wanted_names(first.iter().map(|outcome| &outcome.lookups));
    let offered: Vec<&FileIndex> = first.iter().map(|outcome| &outcome.index).collect();
    let headers = headers::index_of_headers_outside(&offered, &paths, &settings, &wanted);
    // each file's index moves into the project's (nothing reads it after this run; a copy of
    // every index was a fifth of the run's peak memory)
    let mut index_files: Vec<FileIndex> = first
        .iter_mut()
        .map(|outcome| std::mem::take(&mut outcome.index))
        .collect();
    index_files.extend(headers);
    let mut index = ProjectIndex::new(index_files);
    // a launch whose grid another file's helper rounds up was read in the first phase with the
    // helper unknown: its file is read again with the index, so that the file defining the
    // kernel sees the grid rounded up
    let regridded: Vec<usize> = first
        .iter()
        .zip(files)
        .enumerate()
        .filter(|(_, (outcome, file))| index.rounds_grids_of(file.path, &outcome.lookups))
        .map(|(at, _)| at)
        .collect();
    if !regridded.is_empty() {
        let again: Vec<(usize, FileOutcome)> = regridded
            .par_iter()
            .filter_map(|&at| {
                let file = files.get(at)?;
                let view = headers::view_of(file.path, file.text, file.settings);
                let tree = parse(&view.text, None)?;
                let outcome = lint_tree_with(
                    file.path,
                    file.text,
                    &view,
                    &tree,
                    file.settings,
                    &index,
                    true,
                );
                Some((at, outcome))
            })
            .collect();
        let mut index_files = index.into_files();
        for (at, mut outcome) in again {
            if let Some(slot) = index_files.get_mut(at) {
                *slot = std::mem::take(&mut outcome.index);
            }
        }
        index = ProjectIndex::new(index_files);
    }
    let relinted = std::sync::atomic::AtomicUsize::new(0);
    let files = first
        .into_par_iter()
        .zip(files.par_iter())
        .map(|(outcome, file)| {
            let lookups = outcome
                .lookups
                .for_rules(reads_error_flow(file.settings, file.path));
            if index.answers(file.path, &lookups) {
                relinted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                lint_text_with(file.path, file.text, file.settings, &index)
            } else {
                outcome
            }
        })
        .collect();
    progress.finish();
    ProjectOutcome {
        files,
        relinted: relinted.into_inner(),
    }
}

/// Reads and lints every file in parallel (`lint_project`). Stack space is generous so deeply
/// nested code cannot overflow it.
pub fn check_files(files: Vec<(PathBuf, Arc<Settings>)>) -> RunResult {
    check_files_cached(files, None, &NoProgress)
}

/// `check_files`, reading the findings from `cache` when an earlier run over the same inputs
/// stored them, and storing them otherwise.
pub fn check_files_cached(
    files: Vec<(PathBuf, Arc<Settings>)>,
    cache: Option<&crate::cache::RunCache>,
    progress: &dyn Progress,
) -> RunResult {
    let pool = rayon::ThreadPoolBuilder::new().stack_size(64 << 20).build();
    let work = || {
        let read: Vec<Result<(String, Option<String>), String>> = files
            .par_iter()
            .map(|(path, _)| read_source_lossy(path))
            .collect();
        let sources: Vec<SourceFile> = files
            .iter()
            .zip(&read)
            .filter_map(|((path, settings), text)| {
                let (text, _) = text.as_ref().ok()?;
                Some(SourceFile {
                    path,
                    text,
                    settings,
                })
            })
            .collect();
        let outcomes = match cache {
            Some(cache) => {
                let key = cache.key(&sources);
                match cache.load(&key, sources.len()) {
                    Some(outcomes) => outcomes,
                    None => {
                        let outcomes = lint_project_with_progress(&sources, progress).files;
                        // an unwritable cache only costs the next run its speed
                        let _ = cache.store(&key, &outcomes);
                        outcomes
                    }
                }
            }
            None => lint_project_with_progress(&sources, progress).files,
        };
        let mut outcomes = outcomes.into_iter();
        let mut run = RunResult::default();
        for ((path, _), text) in files.iter().zip(read) {
            match text {
                Ok((text, warning)) => {
                    let outcome = outcomes.next().unwrap_or_default();
                    run.reports.push(FileReport {
                        path: path.clone(),
                        display_path: display_path(path),
                        source: Arc::from(text),
                        diagnostics: outcome.diagnostics,
                        skipped_regions: outcome.skipped_regions,
                        warning,
                        findings_on_broken_code: outcome.findings_on_broken_code,
                    });
                }
                Err(message) => run.errors.push(LintError {
                    path: display_path(path),
                    message,
                }),
            }
        }
        run
    };
    let mut run = match pool {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    };
    run.reports
        .sort_by(|a, b| a.display_path.cmp(&b.display_path));
    run
}

/// Discovers, lints and collects everything for `cudalint check`.
pub fn check(paths: &[PathBuf], options: CheckOptions) -> RunResult {
    check_cached(paths, options, None, &NoProgress)
}

/// `check` with the persistent cache.
pub fn check_cached(
    paths: &[PathBuf],
    options: CheckOptions,
    cache: Option<&crate::cache::RunCache>,
    progress: &dyn Progress,
) -> RunResult {
    let mut resolver = SettingsResolver::new(options);
    let (files, mut walk_errors, skipped) = discover_with_skips(paths, &mut resolver);
    let mut run = check_files_cached(files, cache, progress);
    // a broken configuration first: it explains whatever else went missing
    let mut errors = resolver.take_errors();
    errors.append(&mut walk_errors);
    errors.append(&mut run.errors);
    run.errors = errors;
    run.skipped_special = skipped;
    run
}
