//! `--format gitlab`: the Code Climate JSON that GitLab's code-quality report reads: an array of
//! issues with description, check_name, fingerprint, severity and location (path, lines.begin).

use super::Positions;
use crate::diagnostic::Severity;
use crate::engine::RunResult;
use crate::fingerprint;
use serde::Serialize;
use sha2::{Digest, Sha256};

#[derive(Serialize)]
struct Issue<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    description: String,
    check_name: &'a str,
    fingerprint: String,
    severity: &'static str,
    location: Location<'a>,
}

#[derive(Serialize)]
struct Location<'a> {
    path: &'a str,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
    end: usize,
}

/// GitLab's scale is info, minor, major, critical, blocker.
pub fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "critical",
        Severity::Warning => "major",
        Severity::Info => "info",
    }
}

pub fn render(run: &RunResult) -> String {
    let mut issues = Vec::new();
    for report in &run.reports {
        let positions = Positions::new(report);
        let prints = fingerprint::fingerprints(report, &positions);
        let mut found: Vec<_> = report.diagnostics.iter().zip(prints).collect();
        found.sort_by_key(|(d, _)| (d.span.start, d.span.end, d.rule));
        for (diagnostic, print) in found {
            let region = positions.region(&diagnostic.span);
            // Unique per finding and stable across unrelated edits: the file, the rule, the line's
            // hash and its rank among identical lines.
            let mut hasher = Sha256::new();
            for part in [
                report.display_path.as_str(),
                diagnostic.rule,
                &print.primary_location_line_hash(),
            ] {
                hasher.update(part.as_bytes());
                hasher.update([0u8]);
            }
            let description = match &diagnostic.help {
                Some(help) => format!("{} (help: {help})", diagnostic.message),
                None => diagnostic.message.clone(),
            };
            issues.push(Issue {
                kind: "issue",
                description,
                check_name: diagnostic.rule,
                fingerprint: fingerprint::hex_prefix(&hasher.finalize(), 16),
                severity: severity(diagnostic.severity),
                location: Location {
                    path: &report.display_path,
                    lines: Lines {
                        begin: region.line,
                        end: region.end_line,
                    },
                },
            });
        }
    }
    let mut text = serde_json::to_string_pretty(&issues).unwrap_or_else(|_| "[]".into());
    text.push('\n');
    text
}
