//! The guarded twin of a kernel: the kernel with the guards its findings suggest, run first to
//! learn the footprint a correct launch needs (one past the largest byte each buffer is accessed
//! at), so that the kernel as written can then be run against buffers of exactly that size.
//!
//! The guards are the findings' own: the condition of an `unguarded-thread-index` help
//! (`guard the access with `if (row < M && col < N)``), the `<` an `out-of-range-access` help asks
//! for in place of the labelled `<=`, and no access at all for an access reached only out of
//! range. Nothing is derived again here.

use crate::diagnostic::Diagnostic;
use crate::model::{IndexStatus, Model};
use std::ops::Range;

/// The label `out-of-range-access` puts on a guard that admits the bound.
pub const ADMITS_BOUND_LABEL: &str = "`<=` admits the bound";

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Guards {
    /// Per access span: the condition under which the twin makes the access.
    pub sites: Vec<(Range<usize>, String)>,
    /// Plain replacements in the kernel's text (`i <= n` compared as `i < n`).
    pub edits: Vec<(Range<usize>, String)>,
    /// The guards as the findings suggest them, for the report (`if (row < M && col < N)`).
    pub described: Vec<String>,
}

impl Guards {
    pub fn is_empty(&self) -> bool {
        self.sites.is_empty() && self.edits.is_empty()
    }

    pub fn description(&self) -> String {
        self.described
            .iter()
            .map(|d| format!("`{d}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The condition of a help of the form ``guard the access with `if (COND)` ...``; `None` when a
/// bound is not known (`<its extent>`).
pub fn suggested_condition(help: &str) -> Option<&str> {
    let start = help.find("`if (")? + "`if (".len();
    let end = start + help.get(start..)?.find(")`")?;
    let condition = help.get(start..end)?.trim();
    (!condition.is_empty() && !condition.contains("<its extent>")).then_some(condition)
}

/// `row < M` → (`row`, `M`).
fn comparisons(condition: &str) -> Vec<(String, String)> {
    condition
        .split("&&")
        .filter_map(|part| {
            let (variable, bound) = part.trim().split_once(" < ")?;
            Some((variable.trim().to_string(), bound.trim().to_string()))
        })
        .collect()
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// The guards of `diagnostics` (findings of kernel `kernel`, an index into `model.functions`).
pub fn guards(model: &Model, kernel: usize, diagnostics: &[&Diagnostic]) -> Guards {
    let mut out = Guards::default();
    let Some(facts) = model
        .kernels
        .iter()
        .find(|(index, _)| *index == kernel)
        .map(|(_, facts)| facts)
    else {
        return out;
    };
    let mut tests: Vec<(String, String)> = Vec::new();
    for diagnostic in diagnostics {
        match diagnostic.rule {
            "unguarded-thread-index" => {
                let Some(condition) = diagnostic.help.as_deref().and_then(suggested_condition)
                else {
                    continue;
                };
                let found = comparisons(condition);
                if found.is_empty() {
                    continue;
                }
                let described = format!("if ({condition})");
                if !out.described.contains(&described) {
                    out.described.push(described);
                }
                for test in found {
                    if !tests.contains(&test) {
                        tests.push(test);
                    }
                }
            }
            "out-of-range-access" => {
                if let Some(label) = diagnostic
                    .labels
                    .iter()
                    .find(|l| l.message == ADMITS_BOUND_LABEL)
                {
                    let Some(guard) = model.source.get(label.span.clone()) else {
                        continue;
                    };
                    if !guard.contains("<=") || out.edits.iter().any(|(s, _)| *s == label.span) {
                        continue;
                    }
                    let replaced = guard.replacen("<=", "<", 1);
                    out.described
                        .push(format!("{replaced}` in place of `{guard}"));
                    out.edits.push((label.span.clone(), replaced));
                } else if !out.sites.iter().any(|(s, _)| *s == diagnostic.span) {
                    out.sites.push((diagnostic.span.clone(), "false".into()));
                    out.described.push(format!(
                        "{}` left out of the out-of-range path",
                        model.source.get(diagnostic.span.clone()).unwrap_or("")
                    ));
                }
            }
            _ => {}
        }
    }
    if tests.is_empty() {
        return out;
    }
    // Each unguarded access runs under the tests of the variables its index names.
    for access in &facts.accesses {
        if !matches!(access.status, IndexStatus::Unguarded { .. }) || access.via.is_some() {
            continue;
        }
        let span = access.node.byte_range();
        let mut named: Vec<&str> = words(model.text(access.index)).collect();
        if let Some(offset) = access.pointer_offset {
            named.extend(words(model.text(offset)));
        }
        let applied: Vec<String> = tests
            .iter()
            .filter(|(variable, _)| {
                let mut variable_words = words(variable);
                variable_words.all(|w| named.contains(&w))
            })
            .map(|(variable, bound)| format!("{variable} < {bound}"))
            .collect();
        if applied.is_empty() || out.sites.iter().any(|(s, _)| *s == span) {
            continue;
        }
        out.sites.push((span, applied.join(" && ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_condition_is_read_from_the_help() {
        assert_eq!(
            suggested_condition("guard the access with `if (row < M && col < N)`"),
            Some("row < M && col < N")
        );
        assert_eq!(
            suggested_condition(
                "guard the access with `if (i < n)` (the kernel is launched at a.cu:3 with threads past it)"
            ),
            Some("i < n")
        );
        assert_eq!(
            suggested_condition("guard the access with `if (i < <its extent>)`, testing each index against the extent it covers"),
            None
        );
        assert_eq!(suggested_condition("compare with `<`"), None);
        assert_eq!(
            comparisons("row < M && col < N"),
            vec![("row".into(), "M".into()), ("col".into(), "N".into())]
        );
    }
}
