//! `workspace/didChangeWatchedFiles`: a changed, created or deleted cudalint.toml re-lints open files.

use crate::lsp::document::path_of;
use crate::lsp::session::{is_config_file, Session};
use lsp_types::DidChangeWatchedFilesParams;

pub fn handle(session: &mut Session, params: DidChangeWatchedFilesParams) {
    if params
        .changes
        .iter()
        .any(|change| is_config_file(&path_of(&change.uri, &session.root)))
    {
        session.reload_settings();
    }
}
