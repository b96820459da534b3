//! Human output through codespan-reporting: rule, severity, message, the primary span, labels,
//! `help:` and `verified:` notes, then a summary line.

use crate::diagnostic::Severity;
use crate::engine::RunResult;
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor::Buffer};

pub fn render(run: &RunResult, color: bool) -> Vec<u8> {
    let mut buffer = if color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    };
    let config = term::Config::default();
    for report in &run.reports {
        let mut files = SimpleFiles::new();
        let file = files.add(report.display_path.clone(), report.source.clone());
        for diagnostic in &report.diagnostics {
            let severity = match diagnostic.severity {
                Severity::Error => CsSeverity::Error,
                Severity::Warning => CsSeverity::Warning,
                Severity::Info => CsSeverity::Note,
            };
            let mut labels = vec![Label::primary(
                file,
                clamp(&diagnostic.span, report.source.len()),
            )];
            for label in &diagnostic.labels {
                labels.push(
                    Label::secondary(file, clamp(&label.span, report.source.len()))
                        .with_message(label.message.clone()),
                );
            }
            let mut notes = Vec::new();
            if let Some(help) = &diagnostic.help {
                notes.push(format!("help: {help}"));
            }
            if let Some(verification) = &diagnostic.verification {
                notes.push(format!(
                    "verified: {}: {}",
                    verification.status, verification.detail
                ));
            }
            let rendered = CsDiagnostic::new(severity)
                .with_message(diagnostic.message.clone())
                .with_code(diagnostic.rule)
                .with_labels(labels)
                .with_notes(notes);
            if diagnostic.severity == Severity::Info {
                // codespan knows no "info" level: render as a note, then name it as configured
                let mut own = if color {
                    Buffer::ansi()
                } else {
                    Buffer::no_color()
                };
                let _ = term::emit_to_write_style(&mut own, &config, &files, &rendered);
                let bytes = own.into_inner();
                let shown = match find(&bytes, b"note[") {
                    Some(at) => [&bytes[..at], b"info[", &bytes[at + 5..]].concat(),
                    None => bytes,
                };
                let _ = std::io::Write::write_all(&mut buffer, &shown);
                continue;
            }
            let _ = term::emit_to_write_style(&mut buffer, &config, &files, &rendered);
        }
    }
    let mut out = buffer.into_inner();
    out.extend_from_slice(summary(run).as_bytes());
    out
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn clamp(span: &std::ops::Range<usize>, len: usize) -> std::ops::Range<usize> {
    span.start.min(len)..span.end.min(len).max(span.start.min(len))
}

pub fn summary(run: &RunResult) -> String {
    let files = run.reports.len();
    let errors = run.count(Severity::Error);
    let warnings = run.count(Severity::Warning);
    let infos = run.count(Severity::Info);
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    let mut line = format!(
        "{} checked: {}, {}",
        plural(files, "file"),
        plural(errors, "error"),
        plural(warnings, "warning")
    );
    if infos > 0 {
        line.push_str(&format!(", {}", plural(infos, "info")));
    }
    if !run.errors.is_empty() {
        line.push_str(&format!(
            "; {} could not be linted",
            plural(run.errors.len(), "path")
        ));
    }
    line.push('\n');
    line
}
