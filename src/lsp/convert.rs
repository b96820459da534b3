//! cudalint diagnostics as LSP diagnostics.

use super::position::{to_range, Encoding};
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::LineIndex;
use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Uri,
};
use std::str::FromStr;

pub const SOURCE: &str = "cudalint";

/// Where a rule's documentation page is published.
pub fn docs_url(rule: &str) -> Option<Uri> {
    Uri::from_str(&format!(
        "{}/blob/main/lints/{rule}.md",
        env!("CARGO_PKG_REPOSITORY")
    ))
    .ok()
}

pub fn severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    }
}

pub fn to_lsp(
    diagnostic: &Diagnostic,
    uri: &Uri,
    text: &str,
    lines: &LineIndex,
    encoding: Encoding,
) -> lsp_types::Diagnostic {
    let related: Vec<DiagnosticRelatedInformation> = diagnostic
        .labels
        .iter()
        .map(|label| DiagnosticRelatedInformation {
            location: Location {
                uri: uri.clone(),
                range: to_range(text, lines, &label.span, encoding),
            },
            message: label.message.clone(),
        })
        .collect();
    let message = match &diagnostic.help {
        Some(help) => format!("{}\nhelp: {help}", diagnostic.message),
        None => diagnostic.message.clone(),
    };
    lsp_types::Diagnostic {
        range: to_range(text, lines, &diagnostic.span, encoding),
        severity: Some(severity(diagnostic.severity)),
        code: Some(NumberOrString::String(diagnostic.rule.to_string())),
        code_description: docs_url(diagnostic.rule).map(|href| CodeDescription { href }),
        source: Some(SOURCE.to_string()),
        message,
        related_information: if related.is_empty() {
            None
        } else {
            Some(related)
        },
        tags: None,
        data: None,
    }
}
