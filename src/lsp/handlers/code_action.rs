//! `textDocument/codeAction`: a lint's own fix where it has one, and "ignore on this line".

use crate::lsp::position::{to_range, Encoding};
use crate::lsp::session::Session;
use crate::lsp::worker::{lock, Snapshot};
use crate::source::LineIndex;
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse, Range,
    TextEdit, Uri, WorkspaceEdit,
};
use std::collections::HashMap;

pub fn handle(session: &mut Session, params: CodeActionParams) -> Option<CodeActionResponse> {
    if let Some(only) = &params.context.only {
        if !only
            .iter()
            .any(|kind| CodeActionKind::QUICKFIX.as_str().starts_with(kind.as_str()))
        {
            return Some(Vec::new());
        }
    }
    let uri = params.text_document.uri;
    let snapshot = lock(&session.snapshots).get(uri.as_str()).cloned()?;
    // Edits computed on an older text would land in the wrong place.
    if session.documents.get(&uri).map(|d| d.version) != Some(snapshot.version) {
        return Some(Vec::new());
    }
    Some(actions(&snapshot, &uri, params.range, session.encoding))
}

fn actions(
    snapshot: &Snapshot,
    uri: &Uri,
    requested: Range,
    encoding: Encoding,
) -> CodeActionResponse {
    let text = &*snapshot.text;
    let mut actions = Vec::new();
    let mut suppressed: Vec<(usize, &str)> = Vec::new();
    let mut fixes: Vec<&crate::diagnostic::Fix> = Vec::new();
    for (diagnostic, lsp) in &snapshot.diagnostics {
        if lsp.range.start > requested.end || requested.start > lsp.range.end {
            continue;
        }
        // Findings in one statement often share the same fix: offer it once.
        if let Some(fix) = diagnostic.fix.as_ref().filter(|fix| !fixes.contains(fix)) {
            fixes.push(fix);
            let edits = fix
                .edits
                .iter()
                .map(|edit| TextEdit {
                    range: to_range(text, &snapshot.lines, &edit.span, encoding),
                    new_text: edit.replacement.clone(),
                })
                .collect();
            actions.push(action(fix.title.clone(), uri, edits, lsp, true));
        }
        if diagnostic.rule == crate::lints::UNUSED_SUPPRESSION.name {
            continue;
        }
        let line = snapshot.lines.line_of(diagnostic.span.start);
        if suppressed.contains(&(line, diagnostic.rule)) {
            continue;
        }
        suppressed.push((line, diagnostic.rule));
        let (offset, insertion) =
            suppression_insertion(text, &snapshot.lines, line, diagnostic.rule);
        let edit = TextEdit {
            range: to_range(text, &snapshot.lines, &(offset..offset), encoding),
            new_text: insertion,
        };
        actions.push(action(
            format!("Ignore `{}` on this line", diagnostic.rule),
            uri,
            vec![edit],
            lsp,
            false,
        ));
    }
    actions
}

fn action(
    title: String,
    uri: &Uri,
    edits: Vec<TextEdit>,
    diagnostic: &lsp_types::Diagnostic,
    preferred: bool,
) -> CodeActionOrCommand {
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic.clone()]),
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), edits)])),
            ..WorkspaceEdit::default()
        }),
        is_preferred: Some(preferred),
        ..CodeAction::default()
    })
}

/// Where and what to insert so that `rule` is suppressed on the 0-based `line`: the rule is added
/// to a suppression comment already on the line, else a trailing comment is appended (a block
/// comment before a macro's line-continuation backslash, which must stay last).
pub fn suppression_insertion(
    text: &str,
    lines: &LineIndex,
    line: usize,
    rule: &str,
) -> (usize, String) {
    let range = lines.line_range(text, line);
    let content = text.get(range.clone()).unwrap_or("");
    if let Some(close) = existing_rule_list_end(content) {
        let before = content.get(..close).unwrap_or("");
        let separator = if before.trim_end().ends_with('[') {
            ""
        } else {
            ", "
        };
        return (range.start + close, format!("{separator}{rule}"));
    }
    let code = content.trim_end();
    if let Some(before_backslash) = code.strip_suffix('\\') {
        return (
            range.start + before_backslash.trim_end().len(),
            format!(" /* cudalint: ignore[{rule}] */"),
        );
    }
    (
        range.start + code.len(),
        format!(" // cudalint: ignore[{rule}]"),
    )
}

/// The offset of the `]` closing a `cudalint: ignore[...]` list on this line.
fn existing_rule_list_end(content: &str) -> Option<usize> {
    let marker = content.find("cudalint:")? + "cudalint:".len();
    let after = content.get(marker..)?;
    let directive = after.trim_start();
    let list = directive
        .strip_prefix("ignore")?
        .trim_start()
        .strip_prefix('[')?;
    let open = content.len() - list.len();
    Some(open + list.find(']')?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn insert(text: &str, line: usize) -> String {
        let lines = LineIndex::new(text);
        let (offset, insertion) = suppression_insertion(text, &lines, line, "r");
        let mut result = text.to_string();
        result.insert_str(offset, &insertion);
        result
    }

    #[test]
    fn appends_or_extends_a_suppression() {
        assert_eq!(
            insert("a;\n  o[i] = 1;  \nb;\n", 1),
            "a;\n  o[i] = 1; // cudalint: ignore[r]  \nb;\n"
        );
        assert_eq!(
            insert("o[i] = 1; // cudalint: ignore[x]\n", 0),
            "o[i] = 1; // cudalint: ignore[x, r]\n"
        );
        assert_eq!(
            insert("o[i] = 1; // cudalint: ignore[]\n", 0),
            "o[i] = 1; // cudalint: ignore[r]\n"
        );
        assert_eq!(
            insert("#define F(o) o[i] = 1; \\\n  x\n", 0),
            "#define F(o) o[i] = 1; /* cudalint: ignore[r] */ \\\n  x\n"
        );
        assert_eq!(insert("last", 0), "last // cudalint: ignore[r]");
    }
}
