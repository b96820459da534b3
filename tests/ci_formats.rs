//! The CI-facing outputs, through the built binary: SARIF, GitHub workflow commands, GitLab code
//! quality, `--output` and baselines.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

/// Two kernels whose offending lines are identical: one line hash, two occurrences.
const KERNEL: &str = "__global__ void scale(float* out, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2.0f * in[i];
}

__global__ void scale_again(float* out, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2.0f * in[i];
}
";

const NEW_KERNEL: &str = "
__global__ void shift(float* out, int n) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    out[j + 1] = 0.0f;
}
";

fn cudalint(dir: &Path, args: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_cudalint"))
        .args(args)
        .current_dir(dir)
        .output();
    match output {
        Ok(output) => output,
        Err(e) => panic!("cannot run cudalint: {e}"),
    }
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}",
            String::from_utf8_lossy(&output.stdout)
        )
    })
}

fn fixtures_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn results(sarif: &Value) -> Vec<Value> {
    sarif["runs"][0]["results"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// (ruleId, fingerprint, startLine) of each result.
fn fingerprints(sarif: &Value) -> Vec<(String, String, u64)> {
    results(sarif)
        .iter()
        .map(|r| {
            let location = &r["locations"][0]["physicalLocation"];
            (
                r["ruleId"].as_str().unwrap_or_default().to_string(),
                r["partialFingerprints"]["primaryLocationLineHash"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                location["region"]["startLine"].as_u64().unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn sarif_fingerprints_do_not_change_when_lines_are_inserted_above() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.cu"), KERNEL).unwrap();
    let before = json(&cudalint(
        dir.path(),
        &["check", "k.cu", "--format", "sarif"],
    ));
    std::fs::write(
        dir.path().join("k.cu"),
        format!("// a header\n#include <cstdio>\n\n{KERNEL}"),
    )
    .unwrap();
    let after = json(&cudalint(
        dir.path(),
        &["check", "k.cu", "--format", "sarif"],
    ));

    let before = fingerprints(&before);
    let after = fingerprints(&after);
    assert_eq!(
        before.len(),
        2,
        "one unguarded access per kernel: {before:?}"
    );
    for ((rule_a, print_a, line_a), (rule_b, print_b, line_b)) in before.iter().zip(&after) {
        assert_eq!(rule_a, rule_b);
        assert_eq!(print_a, print_b, "the fingerprint moved with the line");
        assert_eq!(
            line_a + 3,
            *line_b,
            "the finding itself moved down three lines"
        );
    }
    // Two findings on identical lines: the same hash, numbered in source order.
    let (hash_a, n_a) = before[0].1.split_once(':').unwrap();
    let (hash_b, n_b) = before[1].1.split_once(':').unwrap();
    assert_eq!((hash_a, n_a, n_b), (hash_b, "1", "2"));

    // Editing the offending line itself gives a new fingerprint.
    std::fs::write(
        dir.path().join("k.cu"),
        KERNEL.replacen("2.0f * in[i]", "3.0f * in[i]", 1),
    )
    .unwrap();
    let edited = fingerprints(&json(&cudalint(
        dir.path(),
        &["check", "k.cu", "--format", "sarif"],
    )));
    assert_ne!(edited[0].1, before[0].1);
    assert_eq!(
        edited[1].1,
        format!("{hash_a}:1"),
        "the untouched line is now the only one with its hash"
    );
}

#[test]
fn sarif_describes_every_rule_and_locates_every_finding() {
    let output = cudalint(
        fixtures_dir(),
        &[
            "check", "testdata", "kernels", "--format", "sarif", "--select", "all",
        ],
    );
    let sarif = json(&output);
    let plain = json(&cudalint(
        fixtures_dir(),
        &[
            "check", "testdata", "kernels", "--format", "json", "--select", "all",
        ],
    ));
    assert_eq!(sarif["version"], "2.1.0");
    let driver = &sarif["runs"][0]["tool"]["driver"];
    assert_eq!(driver["name"], "cudalint");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    let rules = driver["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    let all: Vec<&str> = cudalint::lints::ALL.iter().map(|l| l.name).collect();
    assert_eq!(ids, all, "every rule, in catalogue order");
    for (rule, lint) in rules.iter().zip(cudalint::lints::ALL) {
        assert_eq!(rule["shortDescription"]["text"], lint.summary);
        assert_eq!(rule["help"]["markdown"], lint.docs);
        assert!(rule["help"]["text"]
            .as_str()
            .unwrap()
            .contains("Why is this bad:"));
        assert!(!rule["fullDescription"]["text"].as_str().unwrap().is_empty());
        let level = match lint.default_severity.as_str() {
            "error" => "error",
            "warning" => "warning",
            _ => "note",
        };
        assert_eq!(rule["defaultConfiguration"]["level"], level);
        assert_eq!(rule["properties"]["precision"], lint.precision.as_str());
        assert!(rule["properties"]["tags"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == lint.category.as_str()));
    }

    let findings = plain["diagnostics"].as_array().unwrap();
    let results = results(&sarif);
    assert!(results.len() > 10, "the fixture set has findings");
    assert_eq!(results.len(), findings.len());
    let key = |path: &str, line: u64, column: u64, rule: &str| {
        (path.to_string(), line, column, rule.to_string())
    };
    let expected: BTreeSet<_> = findings
        .iter()
        .map(|d| {
            let related = d["labels"].as_array().map(Vec::len).unwrap_or(0);
            (
                key(
                    d["path"].as_str().unwrap(),
                    d["line"].as_u64().unwrap(),
                    d["column"].as_u64().unwrap(),
                    d["rule"].as_str().unwrap(),
                ),
                related,
                d["end_line"].as_u64(),
                d["end_column"].as_u64(),
            )
        })
        .collect();
    let mut seen_prints = BTreeSet::new();
    let found: BTreeSet<_> = results
        .iter()
        .map(|r| {
            let rule = r["ruleId"].as_str().unwrap();
            let index = r["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(ids[index], rule, "ruleIndex points at the rule");
            let location = &r["locations"][0]["physicalLocation"];
            assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
            let uri = location["artifactLocation"]["uri"].as_str().unwrap();
            assert!(
                fixtures_dir().join(uri).is_file(),
                "{uri} is relative to the source root"
            );
            assert!(r["message"]["text"].as_str().unwrap().ends_with('.'));
            let print = r["partialFingerprints"]["primaryLocationLineHash"]
                .as_str()
                .unwrap();
            assert!(
                seen_prints.insert((uri.to_string(), print.to_string())),
                "fingerprint {print} repeats in {uri}"
            );
            let region = &location["region"];
            let related = r["relatedLocations"].as_array().map(Vec::len).unwrap_or(0);
            if let Some(related) = r["relatedLocations"].as_array() {
                for location in related {
                    assert!(location["message"]["text"]
                        .as_str()
                        .is_some_and(|t| !t.is_empty()));
                    assert!(location["physicalLocation"]["region"]["startLine"]
                        .as_u64()
                        .is_some());
                }
            }
            (
                key(
                    uri,
                    region["startLine"].as_u64().unwrap(),
                    region["startColumn"].as_u64().unwrap(),
                    rule,
                ),
                related,
                region["endLine"].as_u64(),
                region["endColumn"].as_u64(),
            )
        })
        .collect();
    assert_eq!(
        found, expected,
        "SARIF results match the JSON report, labels as related locations"
    );
    assert!(
        found.iter().any(|(_, related, _, _)| *related > 0),
        "some finding has labels"
    );
}

#[test]
fn sarif_levels_follow_severities() {
    let sarif = json(&cudalint(
        fixtures_dir(),
        &["check", "testdata", "kernels", "--format", "sarif"],
    ));
    let plain = json(&cudalint(
        fixtures_dir(),
        &["check", "testdata", "kernels", "--format", "json"],
    ));
    let mut levels: Vec<(String, u64, u64, String)> = results(&sarif)
        .iter()
        .map(|r| {
            let region = &r["locations"][0]["physicalLocation"]["region"];
            let path = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
                .to_string();
            (
                path,
                region["startLine"].as_u64().unwrap(),
                region["startColumn"].as_u64().unwrap(),
                r["level"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let mut expected: Vec<(String, u64, u64, String)> = plain["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let level = match d["severity"].as_str().unwrap() {
                "info" => "note",
                other => other,
            };
            (
                d["path"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
                level.to_string(),
            )
        })
        .collect();
    levels.sort();
    expected.sort();
    assert_eq!(levels, expected);
    assert!(levels.iter().any(|l| l.3 == "error") && levels.iter().any(|l| l.3 == "warning"));
}

#[test]
fn every_format_is_deterministic_and_honours_output() {
    let dir = tempfile::tempdir().unwrap();
    for format in ["terminal", "json", "sarif", "github", "gitlab"] {
        let file = dir.path().join(format!("report.{format}"));
        let file_arg = file.to_str().unwrap();
        let args = [
            "check", "testdata", "kernels", "--color", "never", "--format", format,
        ];
        let first = cudalint(fixtures_dir(), &args);
        let second = cudalint(fixtures_dir(), &args);
        assert_eq!(first.status.code(), Some(1), "{format}: findings exit 1");
        assert!(!first.stdout.is_empty(), "{format}: a report");
        assert_eq!(
            first.stdout, second.stdout,
            "{format}: the same input gives the same bytes"
        );
        let written = cudalint(
            fixtures_dir(),
            &[&args[..], &["--output", file_arg]].concat(),
        );
        assert_eq!(written.status.code(), Some(1));
        assert!(
            written.stdout.is_empty(),
            "{format}: nothing on stdout with --output"
        );
        assert_eq!(
            std::fs::read(&file).unwrap(),
            first.stdout,
            "{format}: --output writes the same report"
        );
    }
}

#[test]
fn github_workflow_commands_annotate_each_finding() {
    let output = cudalint(
        fixtures_dir(),
        &["check", "testdata", "kernels", "--format", "github"],
    );
    let plain = json(&cudalint(
        fixtures_dir(),
        &["check", "testdata", "kernels", "--format", "json"],
    ));
    let text = String::from_utf8(output.stdout).unwrap();
    let mut found = Vec::new();
    for line in text.lines() {
        let (command, rest) = line
            .strip_prefix("::")
            .and_then(|l| l.split_once(' '))
            .unwrap_or_else(|| panic!("not a workflow command: {line}"));
        let (properties, message) = rest.split_once("::").unwrap();
        assert!(!message.is_empty() && !message.contains('\n'));
        let property = |name: &str| {
            properties
                .split(',')
                .find_map(|p| p.strip_prefix(&format!("{name}=")))
                .unwrap_or_else(|| panic!("{name} missing in {line}"))
                .to_string()
        };
        let number = |name: &str| property(name).parse::<u64>().unwrap();
        assert!(number("endLine") >= number("line"));
        let severity = match command {
            "error" => "error",
            "warning" => "warning",
            "notice" => "info",
            other => panic!("unexpected command {other}"),
        };
        found.push((
            property("file"),
            number("line"),
            number("col"),
            number("endLine"),
            number("endColumn"),
            severity.to_string(),
            property("title"),
        ));
    }
    let mut expected: Vec<_> = plain["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let n = |key: &str| d[key].as_u64().unwrap();
            (
                d["path"].as_str().unwrap().to_string(),
                n("line"),
                n("column"),
                n("end_line"),
                n("end_column"),
                d["severity"].as_str().unwrap().to_string(),
                format!("cudalint({})", d["rule"].as_str().unwrap()),
            )
        })
        .collect();
    found.sort();
    expected.sort();
    assert_eq!(found, expected);
}

#[test]
fn gitlab_report_has_the_code_quality_fields() {
    let output = cudalint(
        fixtures_dir(),
        &["check", "testdata", "kernels", "--format", "gitlab"],
    );
    let plain = json(&cudalint(
        fixtures_dir(),
        &["check", "testdata", "kernels", "--format", "json"],
    ));
    let issues = json(&output);
    let issues = issues.as_array().expect("an array of issues");
    assert_eq!(issues.len(), plain["diagnostics"].as_array().unwrap().len());
    let rules: BTreeSet<&str> = cudalint::lints::ALL.iter().map(|l| l.name).collect();
    let mut prints = BTreeSet::new();
    for issue in issues {
        assert!(
            issue["description"].as_str().is_some_and(|d| !d.is_empty()),
            "description: {issue}"
        );
        assert!(
            issue["check_name"]
                .as_str()
                .is_some_and(|c| rules.contains(c)),
            "check_name: {issue}"
        );
        let print = issue["fingerprint"].as_str().expect("fingerprint");
        assert!(
            !print.is_empty() && prints.insert(print.to_string()),
            "fingerprints are unique: {print}"
        );
        assert!(
            ["info", "minor", "major", "critical", "blocker"]
                .contains(&issue["severity"].as_str().unwrap_or("")),
            "severity: {issue}"
        );
        let path = issue["location"]["path"].as_str().expect("location.path");
        assert!(
            !path.starts_with('/') && fixtures_dir().join(path).is_file(),
            "relative path {path}"
        );
        assert!(
            issue["location"]["lines"]["begin"]
                .as_u64()
                .is_some_and(|b| b >= 1),
            "location.lines.begin: {issue}"
        );
    }
}

#[test]
fn baseline_round_trip_hides_old_findings_and_shows_new_ones() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.cu"), KERNEL).unwrap();
    let recorded = cudalint(
        dir.path(),
        &["check", ".", "--write-baseline", "baseline.json"],
    );
    assert_eq!(
        recorded.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&recorded.stderr)
    );
    assert!(String::from_utf8_lossy(&recorded.stderr).contains("recorded 2 finding(s)"));
    let baseline = std::fs::read_to_string(dir.path().join("baseline.json")).unwrap();
    let parsed: Value = serde_json::from_str(&baseline).unwrap();
    assert_eq!(parsed["findings"][0]["path"], "k.cu");
    assert_eq!(parsed["findings"][0]["rule"], "unguarded-thread-index");
    assert_eq!(parsed["findings"][0]["count"], 2);

    let quiet = cudalint(
        dir.path(),
        &[
            "check",
            ".",
            "--baseline",
            "baseline.json",
            "--format",
            "json",
        ],
    );
    assert_eq!(quiet.status.code(), Some(0));
    assert_eq!(json(&quiet)["diagnostics"].as_array().unwrap().len(), 0);
    assert!(
        String::from_utf8_lossy(&quiet.stderr).contains("2 finding(s) recorded in the baseline")
    );

    // Code moves and a new kernel arrives: only its finding is reported.
    std::fs::write(
        dir.path().join("k.cu"),
        format!("#include <cstdio>\n{NEW_KERNEL}\n{KERNEL}"),
    )
    .unwrap();
    let new = cudalint(
        dir.path(),
        &[
            "check",
            ".",
            "--baseline",
            "baseline.json",
            "--format",
            "json",
        ],
    );
    assert_eq!(new.status.code(), Some(1));
    let reported = json(&new);
    let reported = reported["diagnostics"].as_array().unwrap();
    assert_eq!(reported.len(), 1, "{reported:?}");
    assert_eq!(reported[0]["line"], 5);
    assert!(reported[0]["message"].as_str().unwrap().contains('j'));

    // Without the baseline all three are there.
    let all = cudalint(dir.path(), &["check", ".", "--format", "json"]);
    assert_eq!(json(&all)["diagnostics"].as_array().unwrap().len(), 3);
}

#[test]
fn a_broken_baseline_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.cu"), KERNEL).unwrap();
    std::fs::write(
        dir.path().join("baseline.json"),
        "{\"version\": 1, \"findings\": [",
    )
    .unwrap();
    let output = cudalint(dir.path(), &["check", ".", "--baseline", "baseline.json"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("baseline baseline.json: line 1"));
    let missing = cudalint(dir.path(), &["check", ".", "--baseline", "nope.json"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no such file"));
}
