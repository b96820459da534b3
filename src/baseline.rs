//! Baselines: today's findings recorded so that only new ones are reported, letting a code base
//! adopt cudalint at once and fix its backlog later. A finding is keyed on its rule, its file and a
//! hash of the offending line's trimmed text, with a count, so it stays recognised when code above
//! it moves; editing the offending line itself makes it new.

use crate::engine::RunResult;
use crate::fingerprint;
use crate::render::Positions;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

pub const FORMAT_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    path: String,
    rule: String,
    line_hash: String,
    count: usize,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    version: u32,
    findings: Vec<Entry>,
}

type Key = (String, String, String);

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Baseline {
    counts: BTreeMap<Key, usize>,
}

impl Baseline {
    /// Every finding of the run.
    pub fn from_run(run: &RunResult) -> Baseline {
        let mut counts = BTreeMap::new();
        for report in &run.reports {
            let positions = Positions::new(report);
            for (diagnostic, print) in report
                .diagnostics
                .iter()
                .zip(fingerprint::fingerprints(report, &positions))
            {
                *counts
                    .entry((
                        report.display_path.clone(),
                        diagnostic.rule.to_string(),
                        print.line_hash,
                    ))
                    .or_insert(0) += 1;
            }
        }
        Baseline { counts }
    }

    /// How many findings it records.
    pub fn len(&self) -> usize {
        self.counts.values().sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Pretty JSON, sorted by path, rule and hash, so a re-recorded baseline diffs cleanly.
    pub fn to_json(&self) -> String {
        let findings = self
            .counts
            .iter()
            .map(|((path, rule, line_hash), count)| Entry {
                path: path.clone(),
                rule: rule.clone(),
                line_hash: line_hash.clone(),
                count: *count,
            })
            .collect();
        let file = File {
            version: FORMAT_VERSION,
            findings,
        };
        let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
        text.push('\n');
        text
    }

    pub fn parse(text: &str) -> Result<Baseline, String> {
        let file: File = serde_json::from_str(text)
            .map_err(|e| format!("line {}, column {}: {}", e.line(), e.column(), e))?;
        if file.version != FORMAT_VERSION {
            return Err(format!("baseline version {} is not supported (this cudalint writes version {FORMAT_VERSION})", file.version));
        }
        let mut counts = BTreeMap::new();
        for entry in file.findings {
            let slot = counts
                .entry((entry.path, entry.rule, entry.line_hash))
                .or_insert(0usize);
            *slot = slot.saturating_add(entry.count);
        }
        Ok(Baseline { counts })
    }

    pub fn load(path: &Path) -> Result<Baseline, String> {
        let text = std::fs::read_to_string(path).map_err(|e| crate::engine::io_message(&e))?;
        Baseline::parse(&text)
    }

    /// Removes the findings the baseline records (up to its count for each key, the first ones in
    /// source order) and returns how many it removed.
    pub fn apply(&self, run: &mut RunResult) -> usize {
        let mut remaining = self.counts.clone();
        let mut hidden = 0;
        for report in &mut run.reports {
            let prints = {
                let positions = Positions::new(report);
                fingerprint::fingerprints(report, &positions)
            };
            let mut order: Vec<usize> = (0..report.diagnostics.len()).collect();
            order.sort_by_key(|&index| prints.get(index).map(|p| p.occurrence));
            let mut keep = vec![true; report.diagnostics.len()];
            for index in order {
                let (Some(diagnostic), Some(print)) =
                    (report.diagnostics.get(index), prints.get(index))
                else {
                    continue;
                };
                let key = (
                    report.display_path.clone(),
                    diagnostic.rule.to_string(),
                    print.line_hash.clone(),
                );
                if let Some(count) = remaining.get_mut(&key).filter(|count| **count > 0) {
                    *count -= 1;
                    if let Some(slot) = keep.get_mut(index) {
                        *slot = false;
                    }
                    hidden += 1;
                }
            }
            let mut flags = keep.into_iter();
            report.diagnostics.retain(|_| flags.next().unwrap_or(true));
        }
        hidden
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Diagnostic;
    use crate::engine::FileReport;
    use std::sync::Arc;

    fn run(source: &str, needles: &[&str]) -> RunResult {
        let diagnostics = needles
            .iter()
            .map(|needle| {
                let start = source.find(needle).unwrap_or(0);
                Diagnostic::new("unguarded-thread-index", start..start + needle.len(), "m")
            })
            .collect();
        let report = FileReport {
            path: "k.cu".into(),
            display_path: "k.cu".into(),
            source: Arc::from(source),
            diagnostics,
            skipped_regions: 0,
            findings_on_broken_code: 0,
            warning: None,
        };
        RunResult {
            reports: vec![report],
            errors: Vec::new(),
            ..Default::default()
        }
    }

    #[test]
    fn round_trip_hides_recorded_findings_and_keeps_new_ones() {
        let old = run("a[i] = 1;\nb[i] = 2;\n", &["a[i]", "b[i]"]);
        let baseline = Baseline::parse(&Baseline::from_run(&old).to_json()).unwrap();
        assert_eq!(baseline.len(), 2);
        let mut new = run(
            "// moved\nb[i] = 2;\na[i] = 1;\nc[i] = 3;\n",
            &["a[i]", "b[i]", "c[i]"],
        );
        assert_eq!(baseline.apply(&mut new), 2);
        let left: Vec<_> = new.reports[0]
            .diagnostics
            .iter()
            .map(|d| d.span.clone())
            .collect();
        let c = new.reports[0].source.find("c[i]").unwrap();
        assert_eq!(left, vec![c..c + 4]);
    }

    #[test]
    fn counts_limit_how_many_identical_lines_are_hidden() {
        let old = run("a[i] = 1;\n", &["a[i]"]);
        let baseline = Baseline::from_run(&old);
        let mut new = run("a[i] = 1;\na[i] = 1;\n", &[]);
        new.reports[0].diagnostics = vec![
            Diagnostic::new("unguarded-thread-index", 0..4, "m"),
            Diagnostic::new("unguarded-thread-index", 10..14, "m"),
        ];
        assert_eq!(baseline.apply(&mut new), 1);
        assert_eq!(new.reports[0].diagnostics.len(), 1);
    }

    #[test]
    fn rejects_malformed_and_future_baselines() {
        assert!(Baseline::parse("{").unwrap_err().starts_with("line 1"));
        assert!(Baseline::parse(r#"{"version": 9, "findings": []}"#)
            .unwrap_err()
            .contains("version 9"));
        assert!(Baseline::parse(r#"{"version": 1, "findings": [{"path": "a", "rule": "r", "line_hash": "h", "count": 1, "x": 0}]}"#).is_err());
        assert!(Baseline::parse(r#"{"version": 1, "findings": [{"path": "a", "rule": "r", "line_hash": "h", "count": -1}]}"#).is_err());
    }
}
