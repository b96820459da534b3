//! The text of one file: line/column mapping and the preprocessing view that tree-sitter parses.
//!
//! The view has exactly the same length as the original text, so every byte offset taken from the
//! parse of the view is valid in the original: diagnostics always point at what the user wrote.

use std::collections::HashMap;
use std::ops::Range;

/// Maps byte offsets to 1-based lines and columns (columns count characters).
#[derive(Debug, Clone)]
pub struct LineIndex {
    line_starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { line_starts }
    }

    /// 0-based line of a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts
            .get(line)
            .copied()
            .unwrap_or_else(|| *self.line_starts.last().unwrap_or(&0))
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// 1-based (line, column) of a byte offset; the column counts characters.
    pub fn position(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.line_of(offset);
        let start = self.line_start(line).min(offset);
        let column = text[start..offset].chars().count();
        (line + 1, column + 1)
    }

    /// Byte range of a 0-based line, without its line terminator.
    pub fn line_range(&self, text: &str, line: usize) -> Range<usize> {
        let start = self.line_start(line).min(text.len());
        let end = self
            .line_starts
            .get(line + 1)
            .map(|s| s - 1)
            .unwrap_or(text.len())
            .max(start);
        let end = if end > start && text.as_bytes().get(end - 1) == Some(&b'\r') {
            end - 1
        } else {
            end
        };
        start..end
    }
}

pub fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// A macro that the view replaced by blanks, with what it expands to (for function qualifiers).
#[derive(Debug, Clone)]
pub struct Neutralised {
    pub span: Range<usize>,
    pub expansion: String,
}

/// The text tree-sitter parses: inactive `#if` branches and conditional directives blanked,
/// attribute-like macros neutralised, `;` supplied after statement macros.
#[derive(Debug, Clone)]
pub struct PreprocessedView {
    pub text: String,
    pub neutralised: Vec<Neutralised>,
    /// Object-like `#define NAME <number>` constants, folded by the size and launch reasoning.
    pub defines: HashMap<String, String>,
}

/// Macros that behave like attributes or qualifiers in real CUDA code and confuse the grammar.
const ATTRIBUTE_MACROS_WITH_ARGS: &[&str] = &[
    "__align__",
    "__declspec",
    "C10_LAUNCH_BOUNDS_0",
    "C10_LAUNCH_BOUNDS_1",
    "C10_LAUNCH_BOUNDS_2",
    "alignas",
];
const QUALIFIER_MACROS: &[&str] = &[
    "__restrict",
    "__host__",
    "__device__",
    "__forceinline__",
    "__noinline__",
    "__inline__",
];

pub fn preprocess(text: &str, extra_qualifiers: &[String]) -> PreprocessedView {
    let mut bytes = text.as_bytes().to_vec();
    let mut defines = HashMap::new();
    let mut qualifier_macros: HashMap<String, String> = HashMap::new();
    blank_inactive_branches(text, &mut bytes, &mut defines, &mut qualifier_macros);
    for name in extra_qualifiers {
        qualifier_macros.entry(name.clone()).or_default();
    }
    let mut neutralised = Vec::new();
    neutralise_macros(text, &mut bytes, &qualifier_macros, &mut neutralised);
    // Only ASCII bytes were replaced by ASCII spaces or `;`, and only outside multi-byte sequences,
    // so the view is valid UTF-8; fall back to the original text if that ever fails.
    let text = String::from_utf8(bytes).unwrap_or_else(|_| text.to_string());
    PreprocessedView {
        text,
        neutralised,
        defines,
    }
}

fn blank(bytes: &mut [u8], range: Range<usize>) {
    for b in &mut bytes[range] {
        if *b != b'\n' && *b != b'\r' && b.is_ascii() {
            *b = b' ';
        } else if !b.is_ascii() {
            // keep multi-byte characters intact so the view stays UTF-8; the parser treats them as junk
        }
    }
}

struct Conditional {
    /// Whether the branch being read is the one kept.
    active: bool,
    /// Whether some earlier branch of this chain was kept.
    taken: bool,
    /// Whether every enclosing chain is active.
    parent_active: bool,
}

/// Keeps the first branch of each `#if` chain (or the `#else` of `#if 0`), blanks the others and the
/// directives themselves, and collects `#define`s.
fn blank_inactive_branches(
    text: &str,
    bytes: &mut [u8],
    defines: &mut HashMap<String, String>,
    qualifier_macros: &mut HashMap<String, String>,
) {
    let mut stack: Vec<Conditional> = Vec::new();
    let mut offset = 0;
    let mut in_block_comment = false;
    while offset < text.len() {
        // a logical line: physical lines joined by trailing backslashes
        let mut end = offset;
        loop {
            let line_end = text[end..]
                .find('\n')
                .map(|i| end + i)
                .unwrap_or(text.len());
            let content = text[end..line_end].trim_end_matches('\r');
            if content.ends_with('\\') && line_end < text.len() {
                end = line_end + 1;
                continue;
            }
            end = line_end;
            break;
        }
        let line = &text[offset..end];
        let active = stack
            .last()
            .map(|c| c.active && c.parent_active)
            .unwrap_or(true);
        let trimmed = line.trim_start();
        if !in_block_comment && trimmed.starts_with('#') {
            let directive = trimmed[1..].trim_start();
            let word: String = directive
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let rest = directive[word.len()..].trim();
            match word.as_str() {
                "if" | "ifdef" | "ifndef" => {
                    let keep_first = !(word == "if" && is_false_condition(rest));
                    stack.push(Conditional {
                        active: keep_first,
                        taken: keep_first,
                        parent_active: active,
                    });
                    blank(bytes, offset..end);
                }
                "elif" | "elifdef" | "elifndef" => {
                    if let Some(top) = stack.last_mut() {
                        let keep = !top.taken && !(word == "elif" && is_false_condition(rest));
                        top.active = keep;
                        top.taken |= keep;
                    }
                    blank(bytes, offset..end);
                }
                "else" => {
                    if let Some(top) = stack.last_mut() {
                        top.active = !top.taken;
                        top.taken = true;
                    }
                    blank(bytes, offset..end);
                }
                "endif" => {
                    stack.pop();
                    blank(bytes, offset..end);
                }
                "define" if active => {
                    record_define(rest, defines, qualifier_macros);
                }
                _ if !active => blank(bytes, offset..end),
                _ => {}
            }
        } else if !active {
            blank(bytes, offset..end);
        }
        in_block_comment = block_comment_state(line, in_block_comment);
        offset = end + 1;
    }
}

fn block_comment_state(line: &str, mut inside: bool) -> bool {
    let mut rest = line;
    loop {
        if inside {
            match rest.find("*/") {
                Some(i) => {
                    inside = false;
                    rest = &rest[i + 2..];
                }
                None => return true,
            }
        } else {
            let open = rest.find("/*");
            let line_comment = rest.find("//");
            match (open, line_comment) {
                (Some(o), Some(l)) if l < o => return false,
                (Some(o), _) => {
                    inside = true;
                    rest = &rest[o + 2..];
                }
                _ => return false,
            }
        }
    }
}

fn is_false_condition(condition: &str) -> bool {
    let condition = condition.split("//").next().unwrap_or("").trim();
    condition == "0" || condition == "(0)" || condition == "false"
}

fn record_define(
    rest: &str,
    defines: &mut HashMap<String, String>,
    qualifier_macros: &mut HashMap<String, String>,
) {
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() || rest[name.len()..].starts_with('(') {
        return;
    }
    let body = rest[name.len()..]
        .split("//")
        .next()
        .unwrap_or("")
        .trim()
        .to_string();
    if !body.is_empty()
        && body
            .split_whitespace()
            .all(|word| QUALIFIER_MACROS.contains(&word) || is_cuda_qualifier(word))
    {
        qualifier_macros.insert(name.clone(), body.clone());
    }
    defines.insert(name, body);
}

fn is_cuda_qualifier(word: &str) -> bool {
    matches!(
        word,
        "__host__"
            | "__device__"
            | "__global__"
            | "__forceinline__"
            | "__noinline__"
            | "inline"
            | "static"
            | "__inline__"
            | "constexpr"
    )
}

/// Blanks attribute-like macros (`__align__(8)`, `HD` defined as `__host__ __device__`) so the
/// declaration after them parses; records what each stood for.
fn neutralise_macros(
    text: &str,
    bytes: &mut [u8],
    qualifier_macros: &HashMap<String, String>,
    neutralised: &mut Vec<Neutralised>,
) {
    let src = text.as_bytes();
    let mut i = 0;
    while i < src.len() {
        let b = src[i];
        if b == b'/' && src.get(i + 1) == Some(&b'/') {
            i = text[i..].find('\n').map(|n| i + n).unwrap_or(src.len());
            continue;
        }
        if b == b'/' && src.get(i + 1) == Some(&b'*') {
            i = text[i + 2..]
                .find("*/")
                .map(|n| i + 2 + n + 2)
                .unwrap_or(src.len());
            continue;
        }
        if b == b'"' {
            i = skip_string(src, i);
            continue;
        }
        if (b.is_ascii_alphabetic() || b == b'_') && (i == 0 || !is_ident_byte(src[i - 1])) {
            let start = i;
            while i < src.len() && is_ident_byte(src[i]) {
                i += 1;
            }
            let word = &text[start..i];
            if bytes[start] == b' ' {
                continue; // already blanked as part of an inactive branch
            }
            if ATTRIBUTE_MACROS_WITH_ARGS.contains(&word) {
                let mut j = i;
                while j < src.len() && (src[j] == b' ' || src[j] == b'\t') {
                    j += 1;
                }
                if src.get(j) == Some(&b'(') {
                    if let Some(close) = matching_paren(src, j) {
                        blank(bytes, start..close + 1);
                        neutralised.push(Neutralised {
                            span: start..close + 1,
                            expansion: String::new(),
                        });
                        i = close + 1;
                    }
                }
            } else if word == "__restrict" {
                blank(bytes, start..i);
            } else if let Some(expansion) = qualifier_macros.get(word) {
                if !is_inside_directive(text, start) {
                    blank(bytes, start..i);
                    neutralised.push(Neutralised {
                        span: start..i,
                        expansion: expansion.clone(),
                    });
                }
            }
            continue;
        }
        i += 1;
    }
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn skip_string(src: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < src.len() {
        match src[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            b'\n' => return i,
            _ => i += 1,
        }
    }
    src.len()
}

fn matching_paren(src: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, &b) in src.iter().enumerate().skip(open) {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            b'\n' if k > open + 200 => return None,
            _ => {}
        }
    }
    None
}

fn is_inside_directive(text: &str, offset: usize) -> bool {
    let line_start = text[..offset].rfind('\n').map(|i| i + 1).unwrap_or(0);
    text[line_start..offset].trim_start().starts_with('#')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn view_keeps_length_and_blanks_inactive_branch() {
        let text = "#if USE_A\nint a;\n#else\nint a = {;\n#endif\nint b;\n";
        let view = preprocess(text, &[]);
        assert_eq!(view.text.len(), text.len());
        assert!(view.text.contains("int a;"));
        assert!(!view.text.contains("{;"));
        assert!(!view.text.contains("#if"));
        assert!(view.text.contains("int b;"));
    }

    #[test]
    fn if_zero_keeps_else_branch() {
        let view = preprocess("#if 0\nbroken(\n#else\nint ok;\n#endif\n", &[]);
        assert!(view.text.contains("int ok;"));
        assert!(!view.text.contains("broken"));
    }

    #[test]
    fn qualifier_macro_is_neutralised_and_remembered() {
        let text = "#define HD __host__ __device__\nHD float sq(float x) { return x * x; }\n";
        let view = preprocess(text, &[]);
        assert!(view.text.contains("   float sq"));
        assert_eq!(view.neutralised.len(), 1);
        assert_eq!(view.neutralised[0].expansion, "__host__ __device__");
    }

    #[test]
    fn numeric_defines_are_collected() {
        let view = preprocess("#define N 1024\n#define BLOCK (256)\n", &[]);
        assert_eq!(view.defines.get("N").map(String::as_str), Some("1024"));
        assert_eq!(view.defines.get("BLOCK").map(String::as_str), Some("(256)"));
    }

    #[test]
    fn positions_are_one_based_characters() {
        let text = "ab\ncdé f\n";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text, 0), (1, 1));
        assert_eq!(index.position(text, 3), (2, 1));
        let f = text.find('f').unwrap();
        assert_eq!(index.position(text, f), (2, 5));
    }
}
