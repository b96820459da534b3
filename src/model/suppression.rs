//! `// cudalint: ignore[...]` comments: one line, a range (`ignore-start[...]` … `ignore-end`) or
//! the whole file. A comment that looks like a suppression but cannot work (no rule list, a
//! range never closed) is kept with the reason, so the engine reports it instead of letting it
//! silently suppress nothing.

use crate::source::LineIndex;
use crate::syntax::text;
use std::ops::Range;
use tree_sitter::Node;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Its own line when trailing code, else the next line.
    Line,
    File,
    /// From an `ignore-start` to its `ignore-end` (`until_line`).
    Range,
    /// An `ignore-end`; matched ones are folded into their start.
    End,
}

#[derive(Debug, Clone)]
pub struct Suppression {
    pub span: Range<usize>,
    /// 0-based line of the comment.
    pub line: usize,
    /// Whether code precedes the comment on its line (then it applies to that line only).
    pub trailing: bool,
    pub whole_file: bool,
    pub scope: Scope,
    /// The last line a range covers.
    pub until_line: Option<usize>,
    pub rules: Vec<(String, Range<usize>)>,
    /// Why the comment suppresses nothing whatever the findings (reported as unused).
    pub problem: Option<String>,
}

impl Suppression {
    /// Whether the comment covers findings starting on `line` (0-based).
    pub fn covers(&self, line: usize) -> bool {
        if self.problem.is_some() {
            return false;
        }
        match self.scope {
            Scope::File => true,
            Scope::Line => self.line == line || (!self.trailing && self.line + 1 == line),
            Scope::Range => self.line <= line && self.until_line.is_some_and(|end| line <= end),
            Scope::End => false,
        }
    }
}

const MARKER: &str = "cudalint:";

/// The suppression a comment holds, if it is one (`cudalint:` followed by an `ignore` word).
pub fn parse(node: Node, source: &str, lines: &LineIndex) -> Option<Suppression> {
    let comment = text(node, source);
    let marker = comment.find(MARKER)?;
    let after = &comment[marker + MARKER.len()..];
    let directive = after.trim_start();
    if !directive.starts_with("ignore") {
        return None;
    }
    let word_len = directive
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(directive.len());
    let word = &directive[..word_len];
    let rest = &directive[word_len..];
    let rest_start =
        node.start_byte() + marker + MARKER.len() + (after.len() - directive.len()) + word_len;
    let line = lines.line_of(node.start_byte());
    let line_start = lines.line_start(line);
    let trailing = !source
        .get(line_start..node.start_byte())
        .unwrap_or("")
        .trim()
        .is_empty();
    let mut suppression = Suppression {
        span: node.byte_range(),
        line,
        trailing,
        whole_file: false,
        scope: Scope::Line,
        until_line: None,
        rules: Vec::new(),
        problem: None,
    };
    suppression.scope = match word {
        "ignore" => Scope::Line,
        "ignore-file" => Scope::File,
        "ignore-start" => Scope::Range,
        "ignore-end" => Scope::End,
        other => {
            suppression.problem = Some(format!(
                "`cudalint: {other}` is not a suppression; use `ignore[rule]`, `ignore-file[rule]` or `ignore-start[rule]` … `ignore-end`"
            ));
            return Some(suppression);
        }
    };
    suppression.whole_file = suppression.scope == Scope::File;
    let bracketed = rest.trim_start();
    let open = rest.len() - bracketed.len();
    let close = bracketed.find(']');
    match (bracketed.starts_with('['), close) {
        (true, Some(close)) => {
            let mut offset = rest_start + open + 1;
            for piece in bracketed[1..close].split(',') {
                let trimmed = piece.trim();
                let lead = piece.len() - piece.trim_start().len();
                if !trimmed.is_empty() {
                    suppression.rules.push((
                        trimmed.to_string(),
                        offset + lead..offset + lead + trimmed.len(),
                    ));
                }
                offset += piece.len() + 1;
            }
            if suppression.rules.is_empty() && suppression.scope != Scope::End {
                suppression.problem = Some(format!(
                    "`cudalint: {word}[]` names no rule, so it suppresses nothing; name the rules, or `all`"
                ));
            }
        }
        // an `ignore-end` closes whatever range is open
        _ if suppression.scope == Scope::End => {}
        _ => {
            suppression.problem = Some(format!(
                "`cudalint: {word}` without a rule list suppresses nothing; write `cudalint: {word}[rule]` (or `{word}[all]`)"
            ));
        }
    }
    Some(suppression)
}

/// Closes each `ignore-start` with the next `ignore-end` (innermost first). An end without a
/// start, or a start never closed, is kept with its problem; matched ends are dropped.
pub fn pair_ranges(mut suppressions: Vec<Suppression>) -> Vec<Suppression> {
    suppressions.sort_by_key(|s| s.span.start);
    let mut open: Vec<usize> = Vec::new();
    let mut matched_ends: Vec<usize> = Vec::new();
    for index in 0..suppressions.len() {
        if suppressions[index].problem.is_some() {
            continue;
        }
        match suppressions[index].scope {
            Scope::Range => open.push(index),
            Scope::End => match open.pop() {
                Some(start) => {
                    let end_line = suppressions[index].line;
                    suppressions[start].until_line = Some(end_line);
                    matched_ends.push(index);
                }
                None => {
                    suppressions[index].problem = Some(
                        "`cudalint: ignore-end` without an `ignore-start` before it".to_string(),
                    );
                }
            },
            Scope::Line | Scope::File => {}
        }
    }
    for start in open {
        suppressions[start].problem = Some(
            "`cudalint: ignore-start` is never closed by `cudalint: ignore-end`, so it suppresses nothing".to_string(),
        );
    }
    let mut index = 0;
    suppressions.retain(|_| {
        let keep = !matched_ends.contains(&index);
        index += 1;
        keep
    });
    suppressions
}
