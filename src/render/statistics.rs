//! `--statistics`: how many findings each rule reported and how many of them `--fix` can fix
//! (a safe fix), most frequent first.

use crate::engine::RunResult;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct RuleCount {
    pub rule: &'static str,
    pub count: usize,
    pub fixable: usize,
}

/// Counts per rule, by count (highest first), then name.
pub fn counts(run: &RunResult) -> Vec<RuleCount> {
    let mut by_rule: BTreeMap<&'static str, (usize, usize)> = BTreeMap::new();
    for diagnostic in run.reports.iter().flat_map(|r| &r.diagnostics) {
        let entry = by_rule.entry(diagnostic.rule).or_default();
        entry.0 += 1;
        entry.1 += usize::from(diagnostic.fix.as_ref().is_some_and(|f| f.safe));
    }
    let mut counts: Vec<RuleCount> = by_rule
        .into_iter()
        .map(|(rule, (count, fixable))| RuleCount {
            rule,
            count,
            fixable,
        })
        .collect();
    counts.sort_by(|a, b| b.count.cmp(&a.count).then(a.rule.cmp(b.rule)));
    counts
}

/// A table (`json` false) or a JSON array.
pub fn render(run: &RunResult, json: bool) -> String {
    let counts = counts(run);
    if json {
        let mut text = serde_json::to_string_pretty(&counts).unwrap_or_else(|_| "[]".into());
        text.push('\n');
        return text;
    }
    let width = counts
        .iter()
        .map(|c| c.count.to_string().len())
        .max()
        .unwrap_or(1);
    let name_width = counts.iter().map(|c| c.rule.len()).max().unwrap_or(0);
    let mut out = String::new();
    for count in &counts {
        let fixable = if count.fixable > 0 {
            format!("  [{} fixable]", count.fixable)
        } else {
            String::new()
        };
        let line = format!(
            "{:>width$}  {:<name_width$}{fixable}",
            count.count, count.rule
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let total: usize = counts.iter().map(|c| c.count).sum();
    let fixable: usize = counts.iter().map(|c| c.fixable).sum();
    out.push_str(&format!(
        "{total} finding{} in {} rule{}, {fixable} fixable with --fix\n",
        if total == 1 { "" } else { "s" },
        counts.len(),
        if counts.len() == 1 { "" } else { "s" },
    ));
    out
}
