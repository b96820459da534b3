//! `--format github`: GitHub Actions workflow commands, one per finding, which the runner turns
//! into annotations on the pull request's diff:
//! `::error file=k.cu,line=3,col=5,endLine=3,endColumn=11,title=rule::message`.

use super::Positions;
use crate::diagnostic::Severity;
use crate::engine::RunResult;

pub fn render(run: &RunResult) -> String {
    let mut out = String::new();
    for report in &run.reports {
        let positions = Positions::new(report);
        let mut diagnostics: Vec<_> = report.diagnostics.iter().collect();
        diagnostics.sort_by_key(|d| (d.span.start, d.span.end, d.rule));
        for diagnostic in diagnostics {
            let region = positions.region(&diagnostic.span);
            let command = match diagnostic.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "notice",
            };
            let mut message = diagnostic.message.clone();
            for label in &diagnostic.labels {
                let at = positions.region(&label.span);
                message.push_str(&format!(
                    "\n{}:{}:{}: {}",
                    report.display_path, at.line, at.column, label.message
                ));
            }
            if let Some(help) = &diagnostic.help {
                message.push_str(&format!("\nhelp: {help}"));
            }
            if let Some(verification) = &diagnostic.verification {
                message.push_str(&format!(
                    "\nverified: {}: {}",
                    verification.status, verification.detail
                ));
            }
            out.push_str(&format!(
                "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
                escape_property(&report.display_path),
                region.line,
                region.column,
                region.end_line,
                region.end_column,
                escape_property(&format!("cudalint({})", diagnostic.rule)),
                escape_data(&message),
            ));
        }
    }
    out
}

/// The runner's escaping of a command's message.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// The runner's escaping of a property value, where `:` and `,` are separators.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_the_runner_reads() {
        assert_eq!(escape_data("50% of\nrows"), "50%25 of%0Arows");
        assert_eq!(escape_property("a,b:c%"), "a%2Cb%3Ac%25");
    }
}
