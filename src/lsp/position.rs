//! LSP positions (line, character in UTF-8 bytes or UTF-16 units) to byte offsets and back.

use crate::source::{floor_char_boundary, LineIndex};
use lsp_types::{Position, Range};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// A byte offset for `position`, clamped into the text; `false` when the position was outside it.
pub fn to_offset(
    text: &str,
    lines: &LineIndex,
    position: Position,
    encoding: Encoding,
) -> (usize, bool) {
    let line = position.line as usize;
    let wanted = position.character as usize;
    if line >= lines.line_count() {
        // one line past the last, at character 0, is the end of the document
        return (text.len(), line == lines.line_count() && wanted == 0);
    }
    let range = lines.line_range(text, line);
    let content = text.get(range.clone()).unwrap_or("");
    match encoding {
        Encoding::Utf8 => (
            range.start + floor_char_boundary(content, wanted.min(content.len())),
            wanted <= content.len(),
        ),
        Encoding::Utf16 => {
            let mut units = 0;
            for (index, character) in content.char_indices() {
                if units >= wanted {
                    return (range.start + index, true);
                }
                units += character.len_utf16();
            }
            (range.end, units >= wanted)
        }
    }
}

pub fn to_position(text: &str, lines: &LineIndex, offset: usize, encoding: Encoding) -> Position {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let line = lines.line_of(offset);
    let start = lines.line_start(line).min(offset);
    let prefix = text.get(start..offset).unwrap_or("");
    let character = match encoding {
        Encoding::Utf8 => prefix.len(),
        Encoding::Utf16 => prefix.encode_utf16().count(),
    };
    Position::new(line as u32, character as u32)
}

pub fn to_range(
    text: &str,
    lines: &LineIndex,
    span: &std::ops::Range<usize>,
    encoding: Encoding,
) -> Range {
    Range::new(
        to_position(text, lines, span.start, encoding),
        to_position(text, lines, span.end.max(span.start), encoding),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_counts_surrogate_pairs_and_utf8_counts_bytes() {
        let text = "a😀b\nxé\n";
        let lines = LineIndex::new(text);
        let b = text.find('b').unwrap_or(0);
        assert_eq!(
            to_position(text, &lines, b, Encoding::Utf16),
            Position::new(0, 3)
        );
        assert_eq!(
            to_position(text, &lines, b, Encoding::Utf8),
            Position::new(0, 5)
        );
        assert_eq!(
            to_offset(text, &lines, Position::new(0, 3), Encoding::Utf16),
            (b, true)
        );
        assert_eq!(
            to_offset(text, &lines, Position::new(0, 5), Encoding::Utf8),
            (b, true)
        );
    }

    #[test]
    fn out_of_range_positions_clamp() {
        let text = "ab\ncd";
        let lines = LineIndex::new(text);
        assert_eq!(
            to_offset(text, &lines, Position::new(0, 99), Encoding::Utf16),
            (2, false)
        );
        assert_eq!(
            to_offset(text, &lines, Position::new(99, 0), Encoding::Utf16),
            (5, false)
        );
        assert_eq!(
            to_offset(text, &lines, Position::new(1, 2), Encoding::Utf8),
            (5, true)
        );
        assert_eq!(
            to_offset(text, &lines, Position::new(2, 0), Encoding::Utf8),
            (5, true)
        );
    }

    #[test]
    fn crlf_line_ends_are_not_characters() {
        let text = "ab\r\ncd";
        let lines = LineIndex::new(text);
        assert_eq!(
            to_offset(text, &lines, Position::new(0, 3), Encoding::Utf16),
            (2, false)
        );
        assert_eq!(
            to_offset(text, &lines, Position::new(1, 1), Encoding::Utf16),
            (5, true)
        );
    }
}
