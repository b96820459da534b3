//! `textDocument/didChange`: apply the incremental edits to the buffer and re-lint it.

use crate::lsp::session::Session;
use crate::lsp::transport::log;
use lsp_types::DidChangeTextDocumentParams;

pub fn handle(session: &mut Session, params: DidChangeTextDocumentParams) {
    let uri = params.text_document.uri;
    let encoding = session.encoding;
    let Some(document) = session.documents.get_mut(&uri) else {
        log(format!(
            "didChange for {} which is not open; ignored",
            uri.as_str()
        ));
        return;
    };
    for problem in document.apply(params.content_changes, encoding) {
        log(format!("{}: {problem}", uri.as_str()));
    }
    document.version = params.text_document.version;
    session.lint(&uri);
}
