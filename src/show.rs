//! `--show-files` and `--show-settings`: what a run would lint, and with which settings, without
//! linting anything.

use crate::config::Settings;
use crate::engine::{self, CheckOptions, LintError, SettingsResolver, SkippedFile};
use std::fmt::Write;
use std::path::{Path, PathBuf};

pub struct Shown {
    pub text: String,
    pub errors: Vec<LintError>,
    pub skipped: Vec<SkippedFile>,
}

/// The files the paths resolve to, one per line, or with `settings` each file followed by the
/// settings that apply to it.
pub fn files_or_settings(paths: &[PathBuf], options: CheckOptions, settings: bool) -> Shown {
    let mut resolver = SettingsResolver::new(options);
    let (files, mut errors, skipped) = engine::discover_with_skips(paths, &mut resolver);
    let mut text = String::new();
    for (path, file_settings) in &files {
        let shown = engine::display_path(path);
        if settings {
            text.push_str(&describe(&shown, path, file_settings));
        } else {
            text.push_str(&shown);
            text.push('\n');
        }
    }
    let mut all = resolver.errors;
    all.append(&mut errors);
    Shown {
        text,
        errors: all,
        skipped,
    }
}

/// One file's settings, resolved: the rules that run on it with their severities, and every
/// other key.
pub fn describe(shown: &str, path: &Path, settings: &Settings) -> String {
    let mut out = format!("{shown}\n");
    let origin = settings
        .origin
        .as_deref()
        .map(engine::display_path)
        .unwrap_or_else(|| "none (defaults)".into());
    let _ = writeln!(out, "  configuration: {origin}");
    let _ = writeln!(out, "  rules:");
    for lint in crate::lints::ALL {
        if settings.rule_enabled(lint.name, path) {
            let severity = settings.severity_of(lint.name, lint.default_severity);
            let _ = writeln!(
                out,
                "    {:<30} {:<15} {severity}",
                lint.name,
                lint.category.as_str()
            );
        }
    }
    let off: Vec<&str> = crate::lints::ALL
        .iter()
        .filter(|lint| !settings.rule_enabled(lint.name, path))
        .map(|lint| lint.name)
        .collect();
    let list = |items: &[String]| {
        if items.is_empty() {
            "(none)".to_string()
        } else {
            items.join(", ")
        }
    };
    let off: Vec<String> = off.iter().map(|s| s.to_string()).collect();
    let _ = writeln!(out, "  rules off: {}", list(&off));
    let _ = writeln!(out, "  extensions: {}", list(&settings.extensions));
    let _ = writeln!(out, "  check-macros: {}", list(&settings.check_macros));
    let _ = writeln!(
        out,
        "  qualifier-macros: {}",
        list(&settings.qualifier_macros)
    );
    let _ = writeln!(out, "  defines: {}", list(&settings.defines));
    let _ = writeln!(
        out,
        "  max-allocation-gib: {}",
        settings.max_allocation_bytes / (1u64 << 30) as f64
    );
    out
}
