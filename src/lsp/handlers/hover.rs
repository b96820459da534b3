//! `textDocument/hover`: on a finding, the rule's documentation.

use crate::lsp::session::Session;
use crate::lsp::worker::lock;
use lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind, Position, Range};

pub fn handle(session: &mut Session, params: HoverParams) -> Option<Hover> {
    let uri = params.text_document_position_params.text_document.uri;
    let position = params.text_document_position_params.position;
    let snapshot = lock(&session.snapshots).get(uri.as_str()).cloned()?;
    let hits: Vec<_> = snapshot
        .diagnostics
        .iter()
        .filter(|(_, lsp)| contains(&lsp.range, position))
        .collect();
    let range = hits.first().map(|(_, lsp)| lsp.range)?;
    let mut sections: Vec<String> = Vec::new();
    for (diagnostic, _) in &hits {
        let docs = crate::lints::find(diagnostic.rule)
            .map(|lint| lint.docs)
            .unwrap_or("");
        let section = format!(
            "**cudalint: `{}`** ({})\n\n{}\n\n{}",
            diagnostic.rule,
            diagnostic.severity,
            diagnostic.message,
            docs.trim_end()
        );
        if !sections.contains(&section) {
            sections.push(section);
        }
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: sections.join("\n\n---\n\n"),
        }),
        range: Some(range),
    })
}

fn contains(range: &Range, position: Position) -> bool {
    range.start <= position && position <= range.end
}
