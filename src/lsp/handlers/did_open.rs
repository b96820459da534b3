//! `textDocument/didOpen`: start tracking the buffer and lint it.

use crate::lsp::document::{path_of, Document};
use crate::lsp::session::Session;
use lsp_types::DidOpenTextDocumentParams;

pub fn handle(session: &mut Session, params: DidOpenTextDocumentParams) {
    let item = params.text_document;
    let path = path_of(&item.uri, &session.root);
    session.documents.insert(
        item.uri.clone(),
        Document::new(path, item.version, item.text),
    );
    session.lint(&item.uri);
}
