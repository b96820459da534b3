//! `textDocument/didClose`: stop tracking the buffer and clear its diagnostics.

use crate::lsp::session::Session;
use lsp_types::DidCloseTextDocumentParams;

pub fn handle(session: &mut Session, params: DidCloseTextDocumentParams) {
    session.forget(&params.text_document.uri);
}
