//! `--format sarif`: SARIF 2.1.0 as GitHub code scanning reads it. One run; `rules[]` describes the
//! rules from their declarations and documentation pages; each result has a primary location
//! relative to `%SRCROOT%`, its labels as related locations and a line-hash fingerprint that
//! survives unrelated edits. No timestamps or absolute paths: the same input gives the same bytes.

use super::Positions;
use crate::diagnostic::{Severity, Verification};
use crate::engine::{FileReport, RunResult};
use crate::fingerprint;
use crate::lint::Lint;
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde::Serialize;
use std::ops::Range;

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
pub const SRCROOT: &str = "%SRCROOT%";

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool<'a>,
    column_kind: &'static str,
    results: Vec<SarifResult<'a>>,
}

#[derive(Serialize)]
struct Tool<'a> {
    driver: Driver<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver<'a> {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    information_uri: &'static str,
    rules: Vec<Rule<'a>>,
}

#[derive(Serialize)]
struct Text<T> {
    text: T,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule<'a> {
    id: &'a str,
    name: String,
    short_description: Text<&'a str>,
    full_description: Text<String>,
    help_uri: String,
    help: Help<'a>,
    default_configuration: Configuration,
    properties: RuleProperties<'a>,
}

#[derive(Serialize)]
struct Help<'a> {
    text: String,
    markdown: &'a str,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct RuleProperties<'a> {
    tags: Vec<&'a str>,
    precision: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_index: Option<usize>,
    level: &'static str,
    message: Text<String>,
    locations: [Location<'a>; 1],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Location<'a>>,
    partial_fingerprints: PartialFingerprints,
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<ResultProperties<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PartialFingerprints {
    primary_location_line_hash: String,
}

#[derive(Serialize)]
struct ResultProperties<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verification: Option<&'a Verification>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Text<&'a str>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: SarifRegion,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRegion {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

pub fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// `rules` are the rules that ran, in the order `rules[]` lists them.
pub fn render(run: &RunResult, rules: &[&Lint]) -> String {
    let sarif_rules = rules.iter().map(|lint| rule(lint)).collect();
    let mut results = Vec::new();
    for report in &run.reports {
        results.extend(file_results(report, rules));
    }
    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "cudalint",
                    version: env!("CARGO_PKG_VERSION"),
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    information_uri: env!("CARGO_PKG_HOMEPAGE"),
                    rules: sarif_rules,
                },
            },
            column_kind: "unicodeCodePoints",
            results,
        }],
    };
    let mut text = serde_json::to_string_pretty(&log).unwrap_or_default();
    text.push('\n');
    text
}

fn rule<'a>(lint: &'a Lint) -> Rule<'a> {
    let what = section(lint.docs, "What it finds").unwrap_or_else(|| lint.summary.to_string());
    Rule {
        id: lint.name,
        name: pascal_case(lint.name),
        short_description: Text { text: lint.summary },
        full_description: Text { text: what },
        help_uri: format!(
            "{}/blob/main/lints/{}.md",
            env!("CARGO_PKG_REPOSITORY"),
            lint.name
        ),
        help: Help {
            text: plain_text(lint.docs),
            markdown: lint.docs,
        },
        default_configuration: Configuration {
            level: level(lint.default_severity),
        },
        properties: RuleProperties {
            tags: vec!["cuda", lint.category.as_str()],
            precision: lint.precision.as_str(),
        },
    }
}

fn file_results<'a>(report: &'a FileReport, rules: &[&Lint]) -> Vec<SarifResult<'a>> {
    let positions = Positions::new(report);
    let prints = fingerprint::fingerprints(report, &positions);
    let mut results: Vec<(Range<usize>, SarifResult<'a>)> = report
        .diagnostics
        .iter()
        .zip(prints)
        .map(|(diagnostic, print)| {
            let related_locations = diagnostic
                .labels
                .iter()
                .enumerate()
                .map(|(index, label)| Location {
                    id: Some(index + 1),
                    physical_location: physical_location(
                        &report.display_path,
                        &positions,
                        &label.span,
                    ),
                    message: Some(Text {
                        text: &label.message,
                    }),
                })
                .collect();
            let properties = (diagnostic.help.is_some() || diagnostic.verification.is_some())
                .then_some(ResultProperties {
                    help: diagnostic.help.as_deref(),
                    verification: diagnostic.verification.as_ref(),
                });
            let result = SarifResult {
                rule_id: diagnostic.rule,
                rule_index: rules.iter().position(|lint| lint.name == diagnostic.rule),
                level: level(diagnostic.severity),
                message: Text {
                    text: sentence(&diagnostic.message),
                },
                locations: [Location {
                    id: None,
                    physical_location: physical_location(
                        &report.display_path,
                        &positions,
                        &diagnostic.span,
                    ),
                    message: None,
                }],
                related_locations,
                partial_fingerprints: PartialFingerprints {
                    primary_location_line_hash: print.primary_location_line_hash(),
                },
                properties,
            };
            (diagnostic.span.clone(), result)
        })
        .collect();
    results.sort_by(|(a, x), (b, y)| (a.start, a.end, x.rule_id).cmp(&(b.start, b.end, y.rule_id)));
    results.into_iter().map(|(_, result)| result).collect()
}

fn physical_location(path: &str, positions: &Positions, span: &Range<usize>) -> PhysicalLocation {
    let region = positions.region(span);
    PhysicalLocation {
        artifact_location: artifact_location(path),
        region: SarifRegion {
            start_line: region.line,
            start_column: region.column,
            end_line: region.end_line,
            end_column: region.end_column,
        },
    }
}

/// Characters kept as they are in a URI path: the unreserved ones and `/`.
const PATH_ESCAPES: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'/');

/// A path under the working directory becomes a relative URI against `%SRCROOT%`; any other is a
/// `file:` URI.
fn artifact_location(path: &str) -> ArtifactLocation {
    let encoded = utf8_percent_encode(path, PATH_ESCAPES).to_string();
    if path.starts_with('/') {
        ArtifactLocation {
            uri: format!("file://{encoded}"),
            uri_base_id: None,
        }
    } else {
        ArtifactLocation {
            uri: encoded,
            uri_base_id: Some(SRCROOT),
        }
    }
}

/// SARIF messages are sentences; the project's messages carry no final period.
fn sentence(message: &str) -> String {
    let trimmed = message.trim_end();
    if trimmed.ends_with(['.', '!', '?']) {
        trimmed.to_string()
    } else {
        format!("{trimmed}.")
    }
}

/// `unguarded-thread-index` → `UnguardedThreadIndex`, SARIF's "friendly name".
fn pascal_case(name: &str) -> String {
    name.split(['-', '_'])
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// The body of a `## heading` section of a documentation page, trimmed.
fn section(docs: &str, heading: &str) -> Option<String> {
    let marker = format!("## {heading}");
    let start = docs.lines().position(|line| line.trim_end() == marker)?;
    let body: Vec<&str> = docs
        .lines()
        .skip(start + 1)
        .take_while(|line| !line.starts_with("## "))
        .collect();
    let text = body.join("\n").trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// The documentation page without markdown markup, for viewers that show plain text.
fn plain_text(docs: &str) -> String {
    let mut lines = Vec::new();
    for line in docs.lines() {
        if line.trim_start().starts_with("```") {
            continue;
        }
        match line.strip_prefix("## ") {
            Some(heading) => lines.push(format!("{heading}:")),
            None => lines.push(line.to_string()),
        }
    }
    let mut text = lines.join("\n").trim().to_string();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verify_outcomes_are_result_properties() {
        use crate::diagnostic::Diagnostic;
        let source = "out[i] = 1;\nout[j] = 2;\n";
        let mut verified = Diagnostic::new("unguarded-thread-index", 0..6, "first");
        verified.verification = Some(Verification {
            compiler: None,
            status: "confirmed".into(),
            detail: "thread 1000 wrote past 4000 bytes".into(),
        });
        let plain = Diagnostic::new("unguarded-thread-index", 12..18, "second");
        let report = FileReport {
            path: "k.cu".into(),
            display_path: "k.cu".into(),
            source: std::sync::Arc::from(source),
            diagnostics: vec![verified, plain],
            skipped_regions: 0,
            findings_on_broken_code: 0,
            warning: None,
        };
        let run = RunResult {
            reports: vec![report],
            errors: Vec::new(),
            ..Default::default()
        };
        let log: serde_json::Value =
            serde_json::from_str(&render(&run, crate::lints::ALL)).unwrap();
        let results = &log["runs"][0]["results"];
        assert_eq!(
            results[0]["properties"]["verification"]["status"],
            "confirmed"
        );
        assert_eq!(
            results[0]["properties"]["verification"]["detail"],
            "thread 1000 wrote past 4000 bytes"
        );
        assert!(results[1].get("properties").is_none());
        assert_eq!(
            results[1]["locations"][0]["physicalLocation"]["region"]["startLine"],
            2
        );
    }

    #[test]
    fn names_and_sentences() {
        assert_eq!(
            pascal_case("unguarded-thread-index"),
            "UnguardedThreadIndex"
        );
        assert_eq!(
            sentence("index `i` is unguarded"),
            "index `i` is unguarded."
        );
        assert_eq!(sentence("done."), "done.");
    }

    #[test]
    fn uris_are_relative_and_escaped() {
        let relative = artifact_location("dir with space/k#1.cu");
        assert_eq!(relative.uri, "dir%20with%20space/k%231.cu");
        assert_eq!(relative.uri_base_id, Some(SRCROOT));
        let absolute = artifact_location("/tmp/k.cu");
        assert_eq!(
            (absolute.uri.as_str(), absolute.uri_base_id),
            ("file:///tmp/k.cu", None)
        );
    }

    #[test]
    fn sections_come_from_the_docs_page() {
        let docs = "## What it finds\nA thing.\n\n## Why is this bad\nBad.\n```cuda\nx();\n```\n";
        assert_eq!(section(docs, "What it finds").as_deref(), Some("A thing."));
        assert_eq!(section(docs, "Fix"), None);
        assert_eq!(
            plain_text(docs),
            "What it finds:\nA thing.\n\nWhy is this bad:\nBad.\nx();\n"
        );
    }
}
