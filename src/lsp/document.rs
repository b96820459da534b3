//! An open document: the editor's unsaved text and version.

use super::position::{to_offset, Encoding};
use crate::source::LineIndex;
use lsp_types::{TextDocumentContentChangeEvent, Uri};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub struct Document {
    /// Where the file is (or would be): per-path settings and the configuration search use it.
    pub path: PathBuf,
    pub version: i32,
    pub text: String,
    pub lines: LineIndex,
}

impl Document {
    pub fn new(path: PathBuf, version: i32, text: String) -> Self {
        let lines = LineIndex::new(&text);
        Document {
            path,
            version,
            text,
            lines,
        }
    }

    /// Applies the edits in order; positions outside the text are clamped and reported.
    pub fn apply(
        &mut self,
        changes: Vec<TextDocumentContentChangeEvent>,
        encoding: Encoding,
    ) -> Vec<String> {
        let mut problems = Vec::new();
        for change in changes {
            match change.range {
                None => self.text = change.text,
                Some(range) => {
                    let (start, start_ok) =
                        to_offset(&self.text, &self.lines, range.start, encoding);
                    let (end, end_ok) = to_offset(&self.text, &self.lines, range.end, encoding);
                    if !start_ok || !end_ok {
                        problems.push(format!(
                            "change at {}:{}-{}:{} is outside the document ({} lines); clamped to its end",
                            range.start.line, range.start.character, range.end.line, range.end.character,
                            self.lines.line_count()
                        ));
                    }
                    self.text
                        .replace_range(start.min(end)..start.max(end), &change.text);
                }
            }
            self.lines = LineIndex::new(&self.text);
        }
        problems
    }

    pub fn snapshot(&self) -> Arc<str> {
        Arc::from(self.text.as_str())
    }
}

/// The file path of a `file:` URI; other schemes (untitled buffers) get a name under `root`.
pub fn path_of(uri: &Uri, root: &Path) -> PathBuf {
    let is_file = uri
        .scheme()
        .map(|s| s.as_str().eq_ignore_ascii_case("file"))
        .unwrap_or(false);
    let decoded = uri
        .path()
        .as_estr()
        .decode()
        .into_string_lossy()
        .into_owned();
    if is_file && !decoded.is_empty() {
        return PathBuf::from(decoded);
    }
    let name = decoded
        .rsplit('/')
        .find(|s| !s.is_empty())
        .unwrap_or("untitled.cu");
    root.join(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Range};
    use std::str::FromStr;

    fn uri(text: &str) -> Uri {
        Uri::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn change(
        range: Option<((u32, u32), (u32, u32))>,
        text: &str,
    ) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: range
                .map(|((a, b), (c, d))| Range::new(Position::new(a, b), Position::new(c, d))),
            range_length: None,
            text: text.into(),
        }
    }

    #[test]
    fn edits_apply_in_order_with_utf16_columns() {
        let mut document = Document::new(PathBuf::from("/k.cu"), 1, "a😀c\nxy\n".into());
        let problems = document.apply(
            vec![
                change(Some(((0, 3), (0, 4))), "b"),
                change(Some(((1, 0), (1, 1))), ""),
                change(Some(((0, 0), (0, 0))), ">"),
            ],
            Encoding::Utf16,
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(document.text, ">a😀b\ny\n");
    }

    #[test]
    fn out_of_range_change_is_clamped_and_reported() {
        let mut document = Document::new(PathBuf::from("/k.cu"), 1, "ab\n".into());
        let problems = document.apply(vec![change(Some(((40, 2), (7, 0))), "z")], Encoding::Utf16);
        assert_eq!(problems.len(), 1);
        assert_eq!(document.text, "ab\nz");
    }

    #[test]
    fn file_uris_are_decoded() {
        assert_eq!(
            path_of(&uri("file:///tmp/my%20dir/k.cu"), Path::new("/w")),
            PathBuf::from("/tmp/my dir/k.cu")
        );
        assert_eq!(
            path_of(&uri("untitled:Untitled-1"), Path::new("/w")),
            PathBuf::from("/w/Untitled-1")
        );
    }
}
