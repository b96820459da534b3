//! `cudalint.toml` / `.cudalint.toml`: found by walking up from each linted file (nearest wins),
//! or given with `--config`; `extend` layers a file on another. Unknown keys and unknown rule
//! names are errors naming file and line, with the nearest valid name.

use crate::diagnostic::Severity;
use globset::{Glob, GlobMatcher};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use toml::Spanned;

pub const CONFIG_FILE_NAMES: &[&str] = &["cudalint.toml", ".cudalint.toml"];
pub const DEFAULT_EXTENSIONS: &[&str] = &["cu", "cuh", "hip"];
/// Header extensions of C and C++: a header of these that defines a `__global__` kernel is compiled
/// by nvcc (or hipcc) wherever it is included, so a walk lints it with the CUDA sources.
pub const HEADER_EXTENSIONS: &[&str] = &["h", "hpp", "hh", "hxx", "h++", "inl", "ipp", "tpp"];
/// Larger than the memory of any GPU sold today.
pub const DEFAULT_MAX_ALLOCATION_GIB: f64 = 300.0;
/// Every key a configuration file may hold (for "did you mean").
pub const KEYS: &[&str] = &[
    "extend",
    "select",
    "extend-select",
    "ignore",
    "extensions",
    "check-macros",
    "qualifier-macros",
    "defines",
    "severity",
    "per-path-ignores",
    "max-allocation-gib",
    "strict-error-checks",
    "kernel-headers",
];
/// A chain of `extend` longer than this is a mistake, not a layout.
const MAX_EXTEND_DEPTH: usize = 32;

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct ConfigFile {
    extend: Option<Spanned<String>>,
    select: Option<Vec<Spanned<String>>>,
    extend_select: Option<Vec<Spanned<String>>>,
    ignore: Option<Vec<Spanned<String>>>,
    extensions: Option<Vec<String>>,
    check_macros: Option<Vec<String>>,
    qualifier_macros: Option<Vec<String>>,
    defines: Option<Vec<String>>,
    severity: Option<BTreeMap<Spanned<String>, Spanned<String>>>,
    per_path_ignores: Option<BTreeMap<Spanned<String>, Vec<Spanned<String>>>>,
    max_allocation_gib: Option<f64>,
    strict_error_checks: Option<bool>,
    kernel_headers: Option<bool>,
}

/// A configuration problem, with the place it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub path: PathBuf,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.path.display(),
            self.line,
            self.column,
            self.message
        )
    }
}

/// Per-path ignores of one configuration file: globs relative to that file's directory, so a
/// file reached through `extend` keeps meaning what it says.
#[derive(Debug, Clone)]
pub struct PathIgnore {
    pub root: PathBuf,
    pub glob: GlobMatcher,
    /// Rule names, or `*` for every rule.
    pub rules: Vec<String>,
}

/// Settings in force for one file.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The file they came from, if any.
    pub origin: Option<PathBuf>,
    /// The directory of that file.
    pub root: PathBuf,
    /// Rules chosen by `select`; None runs the rules that are on by default.
    pub selected: Option<HashSet<String>>,
    /// Rules added to the selection (or to the default set) by `extend-select`.
    pub extend_selected: HashSet<String>,
    pub ignored: HashSet<String>,
    pub severity: HashMap<String, Severity>,
    pub per_path_ignores: Vec<PathIgnore>,
    pub extensions: Vec<String>,
    pub check_macros: Vec<String>,
    pub qualifier_macros: Vec<String>,
    /// `NAME` or `NAME=VALUE`: chooses `#if` branches like the compiler's `-D`.
    pub defines: Vec<String>,
    pub max_allocation_bytes: f64,
    pub strict_error_checks: bool,
    /// Whether a walk also lints the headers (`HEADER_EXTENSIONS`) that define a kernel.
    pub kernel_headers: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            origin: None,
            root: PathBuf::from("."),
            selected: None,
            extend_selected: HashSet::new(),
            ignored: HashSet::new(),
            severity: HashMap::new(),
            per_path_ignores: Vec::new(),
            extensions: DEFAULT_EXTENSIONS.iter().map(|s| s.to_string()).collect(),
            check_macros: Vec::new(),
            qualifier_macros: Vec::new(),
            defines: Vec::new(),
            max_allocation_bytes: DEFAULT_MAX_ALLOCATION_GIB * (1u64 << 30) as f64,
            strict_error_checks: false,
            kernel_headers: true,
        }
    }
}

/// The rule names a list of selectors (rules, categories, `all`) stands for; the caller has
/// checked each selector.
fn expand_all(selectors: &[String]) -> HashSet<String> {
    selectors
        .iter()
        .flat_map(|s| crate::lints::expand_selector(s).unwrap_or_default())
        .map(str::to_string)
        .collect()
}

impl Settings {
    /// Every rule selected: what the per-rule tests and fixtures run with.
    pub fn every_rule() -> Settings {
        Settings {
            selected: Some(expand_all(&["all".to_string()])),
            ..Settings::default()
        }
    }

    /// Whether `rule` is chosen by select/extend-select/ignore (or by default), whatever the path.
    pub fn rule_selected(&self, rule: &str) -> bool {
        if self.ignored.contains(rule) {
            return false;
        }
        if self.extend_selected.contains(rule) {
            return true;
        }
        match &self.selected {
            Some(selected) => selected.contains(rule),
            None => crate::lints::find(rule).is_some_and(|l| l.on_by_default()),
        }
    }

    /// Whether a rule that reads the error flow is selected for some path: without one, the
    /// model does not build the flow (it is most of an edit's cost in the language server).
    pub fn selects_error_handling(&self) -> bool {
        crate::lints::ALL.iter().any(|lint| {
            lint.category == crate::lint::Category::ErrorHandling && self.rule_selected(lint.name)
        })
    }

    /// Whether `rule` runs on `path` (selection and per-path ignores).
    pub fn rule_enabled(&self, rule: &str, path: &Path) -> bool {
        if !self.rule_selected(rule) {
            return false;
        }
        if self.per_path_ignores.is_empty() {
            return true;
        }
        // `check .` walks `./vendor/k.cu` while the configuration's folder is absolute: the
        // pattern is matched against the path from that folder, however each was spelled
        let path = lexically_absolute(path);
        !self.per_path_ignores.iter().any(|ignore| {
            let root = lexically_absolute(&ignore.root);
            let relative = path.strip_prefix(&root).unwrap_or(&path);
            ignore.glob.is_match(relative) && ignore.rules.iter().any(|r| r == rule || r == "*")
        })
    }

    pub fn severity_of(&self, rule: &str, default: Severity) -> Severity {
        self.severity.get(rule).copied().unwrap_or(default)
    }

    pub fn lint_options(&self) -> crate::lint::LintOptions {
        crate::lint::LintOptions {
            strict_error_checks: self.strict_error_checks,
        }
    }

    /// Whether the file's name ends with one of the configured extensions; an extension may
    /// have several parts (`cu.cc` for TensorFlow's `kernel.cu.cc`, which `cc` alone would widen
    /// to every `.cc` file).
    pub fn lints_extension(&self, path: &Path) -> bool {
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            return false;
        };
        self.extensions.iter().any(|extension| {
            let extension = extension.trim_start_matches('.');
            !extension.is_empty()
                && name.len() > extension.len() + 1
                && name.ends_with(extension)
                && name[..name.len() - extension.len()].ends_with('.')
        })
    }

    /// A header a walk lints when it defines a kernel: one of `HEADER_EXTENSIONS` that no
    /// configured extension already covers.
    pub fn may_be_kernel_header(&self, path: &Path) -> bool {
        self.kernel_headers
            && !self.lints_extension(path)
            && path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| HEADER_EXTENSIONS.contains(&e))
    }

    pub fn view_options(&self) -> crate::source::ViewOptions {
        crate::source::ViewOptions {
            qualifier_macros: self.qualifier_macros.clone(),
            defines: self.defines.clone(),
            as_compiled: false,
            compiled_everywhere: false,
            known_qualifiers: Vec::new(),
        }
    }

    /// Command-line `-D` definitions, after the configuration's (so they win).
    pub fn with_defines(mut self, defines: &[String]) -> Self {
        self.defines.extend(defines.iter().cloned());
        self
    }

    /// Applies command-line `--select`/`--ignore` (rules, categories or `all`) on top of the
    /// file's settings: `--select` replaces the file's selection, `--ignore` adds to its ignores.
    pub fn with_overrides(mut self, select: &[String], ignore: &[String]) -> Self {
        if !select.is_empty() {
            self.selected = Some(expand_all(select));
            self.extend_selected.clear();
        }
        self.ignored.extend(expand_all(ignore));
        self
    }

    /// Applies command-line `--extend-select`: rules added to whatever is selected.
    pub fn with_extend_select(mut self, extend: &[String]) -> Self {
        self.extend_selected.extend(expand_all(extend));
        self
    }

    pub fn load(path: &Path) -> Result<Settings, ConfigError> {
        load_chain(path, &mut Vec::new())
    }

    pub fn parse(path: &Path, text: &str) -> Result<Settings, ConfigError> {
        parse_chain(path, text, &mut Vec::new())
    }
}

fn read_config(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|e| ConfigError {
        path: path.to_path_buf(),
        line: 0,
        column: 0,
        message: format!(
            "cannot read configuration: {}",
            crate::engine::io_message(&e)
        ),
    })
}

fn load_chain(path: &Path, chain: &mut Vec<PathBuf>) -> Result<Settings, ConfigError> {
    let text = read_config(path)?;
    parse_chain(path, &text, chain)
}

/// ` (did you mean `x`?)` for the candidate nearest to `word` by edit distance (or of which it is
/// a prefix), or nothing when none is close.
pub fn suggestion<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    let limit = (word.chars().count() / 3).max(1);
    let best = candidates
        .into_iter()
        .map(|c| {
            let distance = if word.len() >= 3 && c.starts_with(word) {
                1
            } else {
                edit_distance(word, c)
            };
            (distance, c)
        })
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d);
    match best {
        Some((_, candidate)) => format!(" (did you mean `{candidate}`?)"),
        None => String::new(),
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous.last().copied().unwrap_or(0)
}

/// Reworded serde errors: an unknown key gets a suggestion instead of the list of every key.
fn toml_message(message: &str) -> String {
    let message = message.trim();
    if let Some(rest) = message.strip_prefix("unknown field `") {
        if let Some(key) = rest.split('`').next() {
            return format!(
                "unknown key `{key}`{} (the keys are {})",
                suggestion(key, KEYS.iter().copied()),
                KEYS.join(", ")
            );
        }
    }
    message.to_string()
}

fn parse_chain(path: &Path, text: &str, chain: &mut Vec<PathBuf>) -> Result<Settings, ConfigError> {
    let error_at = |offset: usize, message: String| {
        let index = crate::source::LineIndex::new(text);
        let (line, column) = index.position(text, offset);
        ConfigError {
            path: path.to_path_buf(),
            line,
            column,
            message,
        }
    };
    let file: ConfigFile = toml::from_str(text).map_err(|e| {
        let offset = e.span().map(|s| s.start).unwrap_or(0);
        error_at(offset, toml_message(e.message()))
    })?;
    let root = path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let mut settings = match &file.extend {
        None => Settings::default(),
        Some(extend) => {
            let here = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            let base = root.join(extend.get_ref());
            let canonical = std::fs::canonicalize(&base).map_err(|e| {
                error_at(
                    extend.span().start,
                    format!(
                        "`extend` names `{}`, which cannot be read: {}",
                        base.display(),
                        crate::engine::io_message(&e)
                    ),
                )
            })?;
            if chain.len() > MAX_EXTEND_DEPTH {
                return Err(error_at(
                    extend.span().start,
                    format!("`extend` chain deeper than {MAX_EXTEND_DEPTH} files"),
                ));
            }
            if canonical == here || chain.contains(&canonical) {
                let mut cycle: Vec<String> =
                    chain.iter().map(|p| p.display().to_string()).collect();
                cycle.push(here.display().to_string());
                cycle.push(canonical.display().to_string());
                return Err(error_at(
                    extend.span().start,
                    format!("`extend` makes a cycle: {}", cycle.join(" → ")),
                ));
            }
            chain.push(here);
            let base = load_chain(&canonical, chain);
            chain.pop();
            base?
        }
    };
    let check_selector = |selector: &Spanned<String>| -> Result<String, ConfigError> {
        let name = selector.get_ref();
        if crate::lints::expand_selector(name).is_some() {
            Ok(name.clone())
        } else {
            Err(error_at(
                selector.span().start,
                format!(
                    "unknown rule `{name}`{} (see `cudalint rule` for the list)",
                    crate::lints::did_you_mean(name)
                ),
            ))
        }
    };
    let selectors = |list: &[Spanned<String>]| -> Result<Vec<String>, ConfigError> {
        list.iter().map(check_selector).collect()
    };
    settings.origin = Some(path.to_path_buf());
    settings.root = root.clone();
    if let Some(select) = &file.select {
        settings.selected = Some(expand_all(&selectors(select)?));
        settings.extend_selected.clear();
    }
    if let Some(extend_select) = &file.extend_select {
        settings
            .extend_selected
            .extend(expand_all(&selectors(extend_select)?));
    }
    if let Some(ignore) = &file.ignore {
        settings.ignored = expand_all(&selectors(ignore)?);
    }
    for (rule, level) in file.severity.iter().flatten() {
        let name = check_selector(rule)?;
        let severity = Severity::parse(level.get_ref()).ok_or_else(|| {
            error_at(
                level.span().start,
                format!(
                    "unknown severity `{}` for `{name}`{} (use error, warning or info)",
                    level.get_ref(),
                    suggestion(level.get_ref(), ["error", "warning", "info"])
                ),
            )
        })?;
        for rule in expand_all(&[name]) {
            settings.severity.insert(rule, severity);
        }
    }
    for (pattern, rules) in file.per_path_ignores.iter().flatten() {
        let glob = Glob::new(pattern.get_ref()).map_err(|e| {
            error_at(
                pattern.span().start,
                format!("invalid glob `{}`: {e}", pattern.get_ref()),
            )
        })?;
        let mut names = Vec::new();
        for rule in rules {
            if rule.get_ref() == "*" {
                names.push("*".to_string());
            } else {
                names.extend(expand_all(&[check_selector(rule)?]));
            }
        }
        settings.per_path_ignores.push(PathIgnore {
            root: root.clone(),
            glob: glob.compile_matcher(),
            rules: names,
        });
    }
    if let Some(extensions) = file.extensions {
        for extension in extensions {
            let extension = extension.trim_start_matches('.').to_string();
            if !settings.extensions.contains(&extension) {
                settings.extensions.push(extension);
            }
        }
    }
    if let Some(check_macros) = file.check_macros {
        settings.check_macros = check_macros;
    }
    if let Some(qualifier_macros) = file.qualifier_macros {
        settings.qualifier_macros = qualifier_macros;
    }
    if let Some(defines) = file.defines {
        settings.defines = defines;
    }
    if let Some(gib) = file.max_allocation_gib {
        settings.max_allocation_bytes = gib * (1u64 << 30) as f64;
    }
    if let Some(strict) = file.strict_error_checks {
        settings.strict_error_checks = strict;
    }
    if let Some(kernel_headers) = file.kernel_headers {
        settings.kernel_headers = kernel_headers;
    }
    Ok(settings)
}

/// `path` from the root, with `.` and `..` resolved by their spelling (the working directory is
/// read once, as the walk's paths are relative to it).
fn lexically_absolute(path: &Path) -> PathBuf {
    static WORKING_DIRECTORY: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        match WORKING_DIRECTORY.get_or_init(|| std::env::current_dir().ok()) {
            Some(directory) => directory.join(path),
            None => return path.to_path_buf(),
        }
    };
    let mut resolved = PathBuf::new();
    for component in joined.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                resolved.pop();
            }
            other => resolved.push(other),
        }
    }
    resolved
}

/// The nearest configuration file at or above `directory`.
pub fn find_config(directory: &Path) -> Option<PathBuf> {
    let mut current = Some(directory);
    while let Some(dir) = current {
        for name in CONFIG_FILE_NAMES {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
        current = dir.parent();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_extension_of_several_parts_matches_only_names_ending_with_all_of_them() {
        let settings = Settings::parse(Path::new("c.toml"), "extensions = [\"cu.cc\"]\n").unwrap();
        for (name, linted) in [
            ("ops/kernel.cu.cc", true),
            ("ops/kernel.cc", false),
            ("ops/kernel.cu", true),
            ("ops/.cu.cc", false),
            ("ops/kernelcu.cc", false),
        ] {
            assert_eq!(settings.lints_extension(Path::new(name)), linted, "{name}");
        }
    }

    #[test]
    fn unknown_key_names_line_and_key() {
        let err =
            Settings::parse(Path::new("cudalint.toml"), "select = []\nbogus = 1\n").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("bogus"), "{}", err.message);
    }

    #[test]
    fn unknown_rule_names_line() {
        let err = Settings::parse(Path::new("c.toml"), "ignore = [\n  \"no-such-rule\",\n]\n")
            .unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("no-such-rule"));
    }

    #[test]
    fn malformed_file_is_an_error_with_position() {
        let err = Settings::parse(Path::new("c.toml"), "select = [\"a\"\n").unwrap_err();
        assert!(err.line >= 1);
    }

    #[test]
    fn severity_and_per_path_ignores_apply() {
        let text = "[severity]\nunguarded-thread-index = \"error\"\n[per-path-ignores]\n\"third_party/**\" = [\"*\"]\n";
        let settings = Settings::parse(Path::new("/repo/cudalint.toml"), text).unwrap();
        assert_eq!(
            settings.severity_of("unguarded-thread-index", Severity::Warning),
            Severity::Error
        );
        assert!(!settings.rule_enabled("divergent-barrier", Path::new("/repo/third_party/x/k.cu")));
        assert!(!settings.rule_enabled(
            "divergent-barrier",
            Path::new("/repo/src/../third_party/./x/k.cu")
        ));
        assert!(settings.rule_enabled("divergent-barrier", Path::new("/repo/src/k.cu")));
    }

    #[test]
    fn suggestions_are_near_misses_or_prefixes_only() {
        assert_eq!(
            suggestion("selet", KEYS.iter().copied()),
            " (did you mean `select`?)"
        );
        assert_eq!(
            suggestion("max-alloc", KEYS.iter().copied()),
            " (did you mean `max-allocation-gib`?)"
        );
        assert_eq!(suggestion("colour", KEYS.iter().copied()), "");
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn categories_and_all_select_rules_and_error_handling_is_off_by_default() {
        let default = Settings::default();
        assert!(default.rule_selected("unguarded-thread-index"));
        assert!(!default.rule_selected("unchecked-cuda-call"));
        assert!(!default.selects_error_handling());
        let text = "select = [\"error-handling\"]\n";
        let settings = Settings::parse(Path::new("c.toml"), text).unwrap();
        assert!(settings.rule_selected("unchecked-kernel-launch"));
        assert!(settings.selects_error_handling());
        assert!(!settings.rule_selected("unguarded-thread-index"));
        let all = Settings::default().with_overrides(&["all".into()], &["memory".into()]);
        assert!(all.rule_selected("unchecked-cuda-call"));
        assert!(!all.rule_selected("double-free"));
    }

    #[test]
    fn extend_layers_the_file_on_its_base_with_globs_relative_to_each_file() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join("sub")).unwrap();
        std::fs::write(
            root.join("cudalint.toml"),
            "check-macros = [\"BASE\"]\nstrict-error-checks = true\nextend-select = [\"unchecked-cuda-call\"]\n[per-path-ignores]\n\"vendor/**\" = [\"*\"]\n",
        )
        .unwrap();
        let child = root.join("sub/cudalint.toml");
        std::fs::write(
            &child,
            "extend = \"../cudalint.toml\"\ncheck-macros = [\"CHILD\"]\n[per-path-ignores]\n\"gen/**\" = [\"kernel\"]\n",
        )
        .unwrap();
        let settings = Settings::load(&child).unwrap();
        assert_eq!(settings.check_macros, ["CHILD"]);
        assert!(settings.strict_error_checks);
        assert!(settings.rule_selected("unchecked-cuda-call"));
        assert!(!settings.rule_enabled("double-free", &root.join("vendor/x/k.cu")));
        assert!(settings.rule_enabled("double-free", &root.join("sub/vendor/k.cu")));
        assert!(!settings.rule_enabled("unguarded-thread-index", &root.join("sub/gen/k.cu")));
        assert!(settings.rule_enabled("double-free", &root.join("sub/gen/k.cu")));
    }

    #[test]
    fn an_error_in_the_base_names_the_base() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("base.toml"), "\nignore = 3\n").unwrap();
        let child = dir.path().join("cudalint.toml");
        std::fs::write(&child, "extend = \"base.toml\"\n").unwrap();
        let err = Settings::load(&child).unwrap_err();
        assert!(err.path.ends_with("base.toml"), "{err}");
        assert_eq!(err.line, 2);
    }
}
