//! `--format json`: `{"version": 1, "diagnostics": [...], "notes": [...]}` (notes only when there
//! are any: files linted with stray non-UTF-8 bytes, special files skipped), sorted by path.

use super::{Positions, Region};
use crate::engine::RunResult;
use serde::Serialize;

#[derive(Serialize)]
struct Output<'a> {
    version: u32,
    diagnostics: Vec<JsonDiagnostic<'a>>,
    /// What the user may want to know about a file although nothing is wrong in it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<JsonNote>,
}

#[derive(Serialize)]
struct JsonNote {
    path: String,
    message: String,
}

#[derive(Serialize)]
struct JsonLabel<'a> {
    path: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    message: &'a str,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    rule: &'a str,
    severity: &'a str,
    path: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    message: &'a str,
    labels: Vec<JsonLabel<'a>>,
    help: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verification: Option<&'a crate::diagnostic::Verification>,
}

pub fn render(run: &RunResult) -> String {
    let mut diagnostics = Vec::new();
    for report in &run.reports {
        let positions = Positions::new(report);
        for diagnostic in &report.diagnostics {
            let Region {
                line,
                column,
                end_line,
                end_column,
            } = positions.region(&diagnostic.span);
            let labels = diagnostic
                .labels
                .iter()
                .map(|label| {
                    let r = positions.region(&label.span);
                    JsonLabel {
                        path: &report.display_path,
                        line: r.line,
                        column: r.column,
                        end_line: r.end_line,
                        end_column: r.end_column,
                        message: &label.message,
                    }
                })
                .collect();
            diagnostics.push(JsonDiagnostic {
                rule: diagnostic.rule,
                severity: diagnostic.severity.as_str(),
                path: &report.display_path,
                line,
                column,
                end_line,
                end_column,
                message: &diagnostic.message,
                labels,
                help: diagnostic.help.as_deref(),
                verification: diagnostic.verification.as_ref(),
            });
        }
    }
    diagnostics.sort_by(|a, b| {
        (a.path, a.line, a.column, a.rule).cmp(&(b.path, b.line, b.column, b.rule))
    });
    let mut notes: Vec<JsonNote> = run
        .reports
        .iter()
        .filter_map(|report| {
            Some(JsonNote {
                path: report.display_path.clone(),
                message: report.warning.clone()?,
            })
        })
        .chain(run.skipped_special.iter().map(|skipped| JsonNote {
            path: skipped.path.clone(),
            message: format!(
                "skipped: a {}, not a regular file, never opened",
                skipped.kind
            ),
        }))
        .collect();
    notes.sort_by(|a, b| a.path.cmp(&b.path));
    let output = Output {
        version: 1,
        diagnostics,
        notes,
    };
    let mut text = serde_json::to_string_pretty(&output)
        .unwrap_or_else(|_| "{\"version\": 1, \"diagnostics\": []}".into());
    text.push('\n');
    text
}
