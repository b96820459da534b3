//! `--fix`, `--diff` and `--add-ignore`: new contents for the linted files, computed from a run's
//! findings. Only fixes marked safe are applied; edits are applied to the bytes as read, so a
//! file with stray non-UTF-8 bytes keeps them.

use crate::engine::{FileReport, RunResult};
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;

/// One file's new contents.
#[derive(Debug)]
pub struct Change {
    pub path: PathBuf,
    pub display_path: String,
    pub before: Vec<u8>,
    pub after: Vec<u8>,
    /// Findings the change resolves or suppresses.
    pub findings: usize,
}

/// What a pass over the run would change.
#[derive(Debug, Default)]
pub struct Changes {
    pub files: Vec<Change>,
    /// Findings with a safe fix left out because an earlier fix's edits overlap them.
    pub overlapping: usize,
    /// Findings that cannot take a comment (inside a macro continued over lines), as
    /// `path:line` for the message.
    pub unsuppressible: Vec<String>,
    /// Files that changed on disk since they were linted, left alone.
    pub changed_since: Vec<String>,
}

/// The safe fixes of every finding, applied.
pub fn safe_fixes(run: &RunResult) -> Changes {
    let mut changes = Changes::default();
    for report in &run.reports {
        let mut edits: Vec<(Range<usize>, &str)> = Vec::new();
        let mut findings = 0;
        let mut fixes: Vec<&crate::diagnostic::Fix> = report
            .diagnostics
            .iter()
            .filter_map(|d| d.fix.as_ref())
            .filter(|f| f.safe && !f.edits.is_empty())
            .collect();
        fixes.sort_by_key(|f| f.edits.iter().map(|e| e.span.start).min());
        for fix in fixes {
            let clashes = fix.edits.iter().any(|edit| {
                edit.span.end > report.source.len()
                    || edits.iter().any(|(taken, _)| overlaps(taken, &edit.span))
            });
            if clashes {
                changes.overlapping += 1;
                continue;
            }
            edits.extend(
                fix.edits
                    .iter()
                    .map(|e| (e.span.clone(), e.replacement.as_str())),
            );
            findings += 1;
        }
        if findings > 0 {
            push_change(&mut changes, report, edits, findings);
        }
    }
    changes
}

/// A `// cudalint: ignore[rule, ...]` comment at the end of every line with a finding, or the
/// rules added to the one already there.
pub fn ignore_comments(run: &RunResult) -> Changes {
    let mut changes = Changes::default();
    for report in &run.reports {
        let positions = crate::source::LineIndex::new(&report.source);
        let mut by_line: BTreeMap<usize, Vec<&'static str>> = BTreeMap::new();
        for diagnostic in &report.diagnostics {
            let rules = by_line
                .entry(positions.line_of(diagnostic.span.start))
                .or_default();
            if !rules.contains(&diagnostic.rule) {
                rules.push(diagnostic.rule);
            }
        }
        let mut edits: Vec<(Range<usize>, String)> = Vec::new();
        let mut findings = 0;
        for (line, mut rules) in by_line {
            rules.sort_unstable();
            let range = positions.line_range(&report.source, line);
            let text = report.source.get(range.clone()).unwrap_or("");
            let content = text.trim_end_matches(['\r', '\n']);
            let end = range.start + content.len();
            if content.trim_end().ends_with('\\') {
                // a comment would end the macro's continuation
                changes
                    .unsuppressible
                    .push(format!("{}:{}", report.display_path, line + 1));
                continue;
            }
            let count = report
                .diagnostics
                .iter()
                .filter(|d| positions.line_of(d.span.start) == line)
                .count();
            const MARK: &str = "cudalint: ignore[";
            match content
                .find(MARK)
                .filter(|_| !content.contains("ignore-file"))
            {
                Some(at) => {
                    let insert = range.start + at + MARK.len();
                    let listed = &content[at + MARK.len()..];
                    let listed = &listed[..listed.find(']').unwrap_or(listed.len())];
                    let new: Vec<&str> = rules
                        .into_iter()
                        .filter(|r| !listed.split(',').any(|l| l.trim() == *r))
                        .collect();
                    if new.is_empty() {
                        continue;
                    }
                    edits.push((insert..insert, format!("{}, ", new.join(", "))));
                }
                None => {
                    edits.push((
                        end..end,
                        format!(" // cudalint: ignore[{}]", rules.join(", ")),
                    ));
                }
            }
            findings += count;
        }
        if findings > 0 {
            let borrowed = edits.iter().map(|(r, s)| (r.clone(), s.as_str())).collect();
            push_change(&mut changes, report, borrowed, findings);
        }
    }
    changes
}

fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    (a.start < b.end && b.start < a.end) || (a.start == b.start && (a.is_empty() || b.is_empty()))
}

fn push_change(
    changes: &mut Changes,
    report: &FileReport,
    mut edits: Vec<(Range<usize>, &str)>,
    findings: usize,
) {
    let before = match std::fs::read(&report.path) {
        Ok(bytes) if same_text(&bytes, &report.source) => bytes,
        _ => {
            changes.changed_since.push(report.display_path.clone());
            return;
        }
    };
    edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
    let mut after = before.clone();
    for (range, replacement) in edits {
        after.splice(range, replacement.bytes());
    }
    changes.files.push(Change {
        path: report.path.clone(),
        display_path: report.display_path.clone(),
        before,
        after,
        findings,
    });
}

/// Whether the bytes on disk are the text that was linted (stray bytes read as `?`, one each).
fn same_text(bytes: &[u8], text: &str) -> bool {
    bytes.len() == text.len()
        && bytes
            .iter()
            .zip(text.as_bytes())
            .all(|(b, t)| b == t || (*t == b'?' && !b.is_ascii()))
}

/// A unified diff of one change, as `diff -u` writes it.
pub fn unified_diff(change: &Change) -> String {
    let before = String::from_utf8_lossy(&change.before);
    let after = String::from_utf8_lossy(&change.after);
    similar::TextDiff::from_lines(before.as_ref(), after.as_ref())
        .unified_diff()
        .context_radius(3)
        .header(
            &format!("a/{}", change.display_path),
            &format!("b/{}", change.display_path),
        )
        .to_string()
}

/// Writes every change through a temporary file renamed into place.
pub fn write(changes: &Changes) -> Vec<String> {
    let mut errors = Vec::new();
    for change in &changes.files {
        let temporary = change.path.with_file_name(format!(
            ".{}.cudalint-fix-{}",
            change
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            std::process::id()
        ));
        let permissions = std::fs::metadata(&change.path).map(|m| m.permissions());
        let written = std::fs::write(&temporary, &change.after)
            .and_then(|()| match permissions {
                Ok(permissions) => std::fs::set_permissions(&temporary, permissions),
                Err(_) => Ok(()),
            })
            .and_then(|()| std::fs::rename(&temporary, &change.path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temporary);
            errors.push(format!(
                "{}: {}",
                change.display_path,
                crate::engine::io_message(&e)
            ));
        }
    }
    errors
}
