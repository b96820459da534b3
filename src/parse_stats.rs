//! Parse coverage: how much of a set of files tree-sitter could not parse, over the preprocessing
//! view (what the model sees) and over the raw text (the baseline the view improves on).

use crate::config::Settings;
use crate::engine;
use crate::source;
use crate::syntax;
use rayon::prelude::*;
use serde::Serialize;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Coverage of one parse (of the view or of the raw text).
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct Coverage {
    /// Files whose tree has at least one ERROR node.
    pub files_with_error: usize,
    /// Files whose tree has at least one MISSING node.
    pub files_with_missing: usize,
    /// Files with either.
    pub files_with_error_or_missing: usize,
    /// Bytes covered by outermost ERROR nodes.
    pub error_bytes: usize,
    pub error_nodes: usize,
    pub missing_nodes: usize,
}

impl Coverage {
    fn add(&mut self, other: &Coverage) {
        self.files_with_error += other.files_with_error;
        self.files_with_missing += other.files_with_missing;
        self.files_with_error_or_missing += other.files_with_error_or_missing;
        self.error_bytes += other.error_bytes;
        self.error_nodes += other.error_nodes;
        self.missing_nodes += other.missing_nodes;
    }
}

fn coverage_of(tree: &tree_sitter::Tree) -> (Coverage, Vec<Range<usize>>) {
    let (mut errors, missing) = syntax::broken_regions(tree.root_node());
    let coverage = Coverage {
        files_with_error: usize::from(!errors.is_empty()),
        files_with_missing: usize::from(!missing.is_empty()),
        files_with_error_or_missing: usize::from(!errors.is_empty() || !missing.is_empty()),
        error_bytes: errors.iter().map(|r| r.len()).sum(),
        error_nodes: errors.len(),
        missing_nodes: missing.len(),
    };
    errors.extend(missing);
    errors.sort_by_key(|r| r.start);
    (coverage, errors)
}

/// One file's numbers; `error_regions` are those of the view (MISSING nodes as empty ranges), for sampling causes.
#[derive(Debug, Clone, Serialize)]
pub struct FileStats {
    pub path: String,
    pub bytes: usize,
    pub view: Coverage,
    pub raw: Coverage,
    #[serde(skip)]
    pub error_regions: Vec<Range<usize>>,
    #[serde(skip)]
    pub source: Arc<str>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Totals {
    pub files: usize,
    pub bytes: usize,
    pub view: Coverage,
    pub raw: Coverage,
    /// Files that could not be read (binary, not UTF-8, too large).
    pub unreadable: usize,
}

/// Measures one text as the engine would parse it for `settings`.
pub fn measure_text(path: &Path, text: &str, settings: &Settings) -> Option<FileStats> {
    let view = source::preprocess_with(text, &settings.view_options());
    let view_tree = engine::parse(&view.text, None)?;
    let raw_tree = engine::parse(text, None)?;
    let (view_coverage, error_regions) = coverage_of(&view_tree);
    let (raw_coverage, _) = coverage_of(&raw_tree);
    Some(FileStats {
        path: engine::display_path(path),
        bytes: text.len(),
        view: view_coverage,
        raw: raw_coverage,
        error_regions,
        source: Arc::from(text),
    })
}

/// Discovers the files under `paths` like `check` does and measures each.
pub fn measure(
    paths: &[PathBuf],
    options: engine::CheckOptions,
) -> (Totals, Vec<FileStats>, Vec<engine::LintError>) {
    let mut resolver = engine::SettingsResolver::new(options);
    let (files, mut errors) = engine::discover(paths, &mut resolver);
    errors.append(&mut resolver.errors);
    let results: Vec<Result<FileStats, engine::LintError>> = files
        .par_iter()
        .map(|(path, settings)| {
            let text = engine::read_source(path).map_err(|message| engine::LintError {
                path: engine::display_path(path),
                message,
            })?;
            measure_text(path, &text, settings).ok_or_else(|| engine::LintError {
                path: engine::display_path(path),
                message: "the parser gave up".into(),
            })
        })
        .collect();
    let mut totals = Totals::default();
    let mut stats = Vec::new();
    for result in results {
        match result {
            Ok(file) => {
                totals.files += 1;
                totals.bytes += file.bytes;
                totals.view.add(&file.view);
                totals.raw.add(&file.raw);
                stats.push(file);
            }
            Err(error) => {
                totals.unreadable += 1;
                errors.push(error);
            }
        }
    }
    stats.sort_by(|a, b| a.path.cmp(&b.path));
    (totals, stats, errors)
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "0.00%".into()
    } else {
        format!("{:.2}%", part as f64 * 100.0 / whole as f64)
    }
}

/// The table printed by `cudalint parse-stats`.
pub fn render_table(totals: &Totals) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "files: {}   bytes: {}\n",
        totals.files, totals.bytes
    ));
    out.push_str(&format!(
        "{:<34} {:>18} {:>18}\n",
        "", "view (analysed)", "raw text"
    ));
    let rows: [(&str, usize, usize, usize); 4] = [
        (
            "files with ERROR nodes",
            totals.view.files_with_error,
            totals.raw.files_with_error,
            totals.files,
        ),
        (
            "files with MISSING nodes",
            totals.view.files_with_missing,
            totals.raw.files_with_missing,
            totals.files,
        ),
        (
            "files with ERROR or MISSING",
            totals.view.files_with_error_or_missing,
            totals.raw.files_with_error_or_missing,
            totals.files,
        ),
        (
            "bytes inside ERROR nodes",
            totals.view.error_bytes,
            totals.raw.error_bytes,
            totals.bytes,
        ),
    ];
    for (name, view, raw, whole) in rows {
        out.push_str(&format!(
            "{:<34} {:>18} {:>18}\n",
            name,
            format!("{view} ({})", percent(view, whole)),
            format!("{raw} ({})", percent(raw, whole))
        ));
    }
    out.push_str(&format!(
        "{:<34} {:>18} {:>18}\n",
        "ERROR nodes", totals.view.error_nodes, totals.raw.error_nodes
    ));
    out.push_str(&format!(
        "{:<34} {:>18} {:>18}\n",
        "MISSING nodes", totals.view.missing_nodes, totals.raw.missing_nodes
    ));
    if totals.unreadable > 0 {
        out.push_str(&format!("files not read: {}\n", totals.unreadable));
    }
    out
}

/// `path:line: text` of the first line of every ERROR region of the view, to sample causes.
pub fn render_regions(stats: &[FileStats]) -> String {
    let mut out = String::new();
    for file in stats {
        let lines = source::LineIndex::new(&file.source);
        for region in &file.error_regions {
            let (line, _) = lines.position(&file.source, region.start);
            let line_range = lines.line_range(&file.source, line - 1);
            let snippet = file.source.get(line_range).unwrap_or("").trim();
            let snippet: String = snippet.chars().take(120).collect();
            let what = if region.is_empty() {
                "missing".to_string()
            } else {
                format!("{} bytes", region.len())
            };
            out.push_str(&format!("{}:{}: [{what}] {}\n", file.path, line, snippet));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_outermost_error_bytes_and_both_parses() {
        let settings = Settings::default();
        let clean = measure_text(Path::new("a.cu"), "int f() { return 1; }\n", &settings).unwrap();
        assert_eq!(clean.view, Coverage::default());
        assert_eq!(clean.raw, Coverage::default());

        // the raw parse chokes on the directive inside the argument list; the view drops it
        let text = "void g() {\n  f(a,\n#if X\n    b\n#else\n    c\n#endif\n  );\n}\n";
        let stats = measure_text(Path::new("b.cu"), text, &settings).unwrap();
        assert_eq!(stats.raw.files_with_error_or_missing, 1, "{:?}", stats.raw);
        assert!(stats.raw.error_bytes > 0 || stats.raw.missing_nodes > 0);
        assert_eq!(stats.view, Coverage::default());

        let broken = measure_text(Path::new("c.cu"), "int x = ;;; )))) {\n", &settings).unwrap();
        assert_eq!(broken.view.files_with_error, 1);
        assert!(broken.view.error_bytes > 0 && broken.view.error_bytes <= 20);
    }
}
