//! Renderers: turn a run's diagnostics into text for people, tools and editors. They know files,
//! spans and rule metadata, never a lint's logic.

pub mod concise;
pub mod github;
pub mod gitlab;
pub mod json;
pub mod sarif;
pub mod statistics;
pub mod terminal;

use crate::engine::FileReport;
use crate::source::LineIndex;
use std::ops::Range;

/// 1-based start and exclusive end of a span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

/// Positions in one report's text, computed once per file.
pub struct Positions<'a> {
    text: &'a str,
    lines: LineIndex,
}

impl<'a> Positions<'a> {
    pub fn new(report: &'a FileReport) -> Self {
        Positions {
            text: &report.source,
            lines: LineIndex::new(&report.source),
        }
    }

    pub fn region(&self, span: &Range<usize>) -> Region {
        let (line, column) = self.lines.position(self.text, span.start);
        let (end_line, end_column) = self.lines.position(self.text, span.end.max(span.start));
        Region {
            line,
            column,
            end_line,
            end_column,
        }
    }

    /// The text of the 1-based line, without its terminator.
    pub fn line_text(&self, line: usize) -> &'a str {
        let range = self.lines.line_range(self.text, line.saturating_sub(1));
        self.text.get(range).unwrap_or("")
    }
}
