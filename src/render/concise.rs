//! `--output-format concise`: one line per finding, `path:line:col: rule message`, the form
//! editors, `grep` and compiler-error parsers read; then the summary line.

use super::Positions;
use crate::engine::RunResult;

pub fn render(run: &RunResult) -> String {
    let mut out = String::new();
    for report in &run.reports {
        let positions = Positions::new(report);
        let mut lines: Vec<(usize, usize, &str, String)> = report
            .diagnostics
            .iter()
            .map(|diagnostic| {
                let region = positions.region(&diagnostic.span);
                // a message is one line by convention; a stray newline must not break the form
                let message = diagnostic.message.replace(['\n', '\r'], " ");
                (region.line, region.column, diagnostic.rule, message)
            })
            .collect();
        lines.sort();
        for (line, column, rule, message) in lines {
            out.push_str(&format!(
                "{}:{line}:{column}: {rule} {message}\n",
                report.display_path
            ));
        }
    }
    out.push_str(&super::terminal::summary(run));
    out
}
