//! `textDocument/didSave`: a saved configuration re-lints everything; a saved source is re-linted.

use crate::lsp::document::path_of;
use crate::lsp::session::{is_config_file, Session};
use lsp_types::DidSaveTextDocumentParams;

pub fn handle(session: &mut Session, params: DidSaveTextDocumentParams) {
    let uri = params.text_document.uri;
    if is_config_file(&path_of(&uri, &session.root)) {
        session.reload_settings();
    } else {
        session.lint(&uri);
    }
}
