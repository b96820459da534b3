//! `cudalint.toml` / `.cudalint.toml`: found by walking up from each linted file (nearest wins),
//! or given with `--config`. Unknown keys and unknown rule names are errors naming file and line.

use crate::diagnostic::Severity;
use globset::{Glob, GlobMatcher};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use toml::Spanned;

pub const CONFIG_FILE_NAMES: &[&str] = &["cudalint.toml", ".cudalint.toml"];
pub const DEFAULT_EXTENSIONS: &[&str] = &["cu", "cuh"];
/// Larger than the memory of any GPU sold today.
pub const DEFAULT_MAX_ALLOCATION_GIB: f64 = 300.0;

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct ConfigFile {
    select: Option<Vec<Spanned<String>>>,
    ignore: Option<Vec<Spanned<String>>>,
    extensions: Option<Vec<String>>,
    check_macros: Option<Vec<String>>,
    qualifier_macros: Option<Vec<String>>,
    defines: Option<Vec<String>>,
    severity: Option<BTreeMap<Spanned<String>, Spanned<String>>>,
    per_path_ignores: Option<BTreeMap<Spanned<String>, Vec<Spanned<String>>>>,
    max_allocation_gib: Option<f64>,
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

/// Settings in force for one file.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The file they came from, if any.
    pub origin: Option<PathBuf>,
    /// Directory that per-path globs are relative to.
    pub root: PathBuf,
    pub selected: Option<HashSet<String>>,
    pub ignored: HashSet<String>,
    pub severity: HashMap<String, Severity>,
    pub per_path_ignores: Vec<(GlobMatcher, Vec<String>)>,
    pub extensions: Vec<String>,
    pub check_macros: Vec<String>,
    pub qualifier_macros: Vec<String>,
    /// `NAME` or `NAME=VALUE`: chooses `#if` branches like the compiler's `-D`.
    pub defines: Vec<String>,
    pub max_allocation_bytes: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            origin: None,
            root: PathBuf::from("."),
            selected: None,
            ignored: HashSet::new(),
            severity: HashMap::new(),
            per_path_ignores: Vec::new(),
            extensions: DEFAULT_EXTENSIONS.iter().map(|s| s.to_string()).collect(),
            check_macros: Vec::new(),
            qualifier_macros: Vec::new(),
            defines: Vec::new(),
            max_allocation_bytes: DEFAULT_MAX_ALLOCATION_GIB * (1u64 << 30) as f64,
        }
    }
}

impl Settings {
    /// Whether `rule` runs on `path` (select/ignore lists and per-path ignores).
    pub fn rule_enabled(&self, rule: &str, path: &Path) -> bool {
        if self.ignored.contains(rule) {
            return false;
        }
        if let Some(selected) = &self.selected {
            if !selected.contains(rule) {
                return false;
            }
        }
        let relative = path.strip_prefix(&self.root).unwrap_or(path);
        !self.per_path_ignores.iter().any(|(glob, rules)| {
            glob.is_match(relative) && rules.iter().any(|r| r == rule || r == "*")
        })
    }

    pub fn severity_of(&self, rule: &str, default: Severity) -> Severity {
        self.severity.get(rule).copied().unwrap_or(default)
    }

    pub fn lints_extension(&self, path: &Path) -> bool {
        path.extension()
            .and_then(|e| e.to_str())
            .map(|e| {
                self.extensions
                    .iter()
                    .any(|x| x.trim_start_matches('.') == e)
            })
            .unwrap_or(false)
    }

    pub fn view_options(&self) -> crate::source::ViewOptions {
        crate::source::ViewOptions {
            qualifier_macros: self.qualifier_macros.clone(),
            defines: self.defines.clone(),
        }
    }

    /// Command-line `-D` definitions, after the configuration's (so they win).
    pub fn with_defines(mut self, defines: &[String]) -> Self {
        self.defines.extend(defines.iter().cloned());
        self
    }

    /// Applies command-line `--select`/`--ignore` on top of the file's settings.
    pub fn with_overrides(mut self, select: &[String], ignore: &[String]) -> Self {
        if !select.is_empty() {
            self.selected = Some(select.iter().cloned().collect());
        }
        self.ignored.extend(ignore.iter().cloned());
        self
    }

    pub fn load(path: &Path) -> Result<Settings, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            path: path.to_path_buf(),
            line: 0,
            column: 0,
            message: format!("cannot read configuration: {e}"),
        })?;
        Settings::parse(path, &text)
    }

    pub fn parse(path: &Path, text: &str) -> Result<Settings, ConfigError> {
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
            error_at(offset, e.message().trim().to_string())
        })?;
        let check_rule = |rule: &Spanned<String>| -> Result<String, ConfigError> {
            let name = rule.get_ref();
            if crate::lints::find(name).is_some() {
                Ok(name.clone())
            } else {
                Err(error_at(
                    rule.span().start,
                    format!("unknown rule `{name}` (see `cudalint rule` for the list)"),
                ))
            }
        };
        // select and ignore also take categories, which stand for every rule in them
        let check_selector = |selector: &Spanned<String>| -> Result<Vec<String>, ConfigError> {
            crate::selection::expand(selector.get_ref())
                .map(|rules| rules.into_iter().map(str::to_string).collect())
                .ok_or_else(|| {
                    error_at(
                        selector.span().start,
                        format!(
                            "unknown rule or category `{}` (see `cudalint rule` for the list)",
                            selector.get_ref()
                        ),
                    )
                })
        };
        let mut settings = Settings {
            origin: Some(path.to_path_buf()),
            root: path
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| PathBuf::from(".")),
            ..Settings::default()
        };
        if let Some(select) = &file.select {
            let mut selected = HashSet::new();
            for selector in select {
                selected.extend(check_selector(selector)?);
            }
            settings.selected = Some(selected);
        }
        if let Some(ignore) = &file.ignore {
            for selector in ignore {
                settings.ignored.extend(check_selector(selector)?);
            }
        }
        for (rule, level) in file.severity.iter().flatten() {
            let name = check_rule(rule)?;
            let severity = Severity::parse(level.get_ref()).ok_or_else(|| {
                error_at(
                    level.span().start,
                    format!(
                        "unknown severity `{}` for `{name}` (use error, warning or info)",
                        level.get_ref()
                    ),
                )
            })?;
            settings.severity.insert(name, severity);
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
                    names.push(check_rule(rule)?);
                }
            }
            settings
                .per_path_ignores
                .push((glob.compile_matcher(), names));
        }
        if let Some(extensions) = file.extensions {
            for extension in extensions {
                let extension = extension.trim_start_matches('.').to_string();
                if !settings.extensions.contains(&extension) {
                    settings.extensions.push(extension);
                }
            }
        }
        settings.check_macros = file.check_macros.unwrap_or_default();
        settings.qualifier_macros = file.qualifier_macros.unwrap_or_default();
        settings.defines = file.defines.unwrap_or_default();
        if let Some(gib) = file.max_allocation_gib {
            settings.max_allocation_bytes = gib * (1u64 << 30) as f64;
        }
        Ok(settings)
    }
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
    fn categories_select_and_ignore_their_rules() {
        let text = "select = [\"kernel\", \"double-free\"]\nignore = [\"divergent-barrier\"]\n";
        let settings = Settings::parse(Path::new("c.toml"), text).unwrap();
        let file = Path::new("k.cu");
        assert!(settings.rule_enabled("unguarded-thread-index", file));
        assert!(settings.rule_enabled("double-free", file));
        assert!(!settings.rule_enabled("divergent-barrier", file));
        assert!(!settings.rule_enabled("unchecked-cuda-call", file));
        let err = Settings::parse(Path::new("c.toml"), "ignore = [\"kernels\"]\n").unwrap_err();
        assert!(
            err.message.contains("unknown rule or category `kernels`"),
            "{}",
            err.message
        );
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
        assert!(settings.rule_enabled("divergent-barrier", Path::new("/repo/src/k.cu")));
    }
}
