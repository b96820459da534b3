//! `initialized`: asks the client to report changes to configuration files, where it can.

use crate::lsp::session::Session;
use lsp_types::request::{RegisterCapability, Request as _};
use lsp_types::{
    DidChangeWatchedFilesRegistrationOptions, FileSystemWatcher, GlobPattern, InitializedParams,
    Registration, RegistrationParams,
};

pub fn handle(session: &mut Session, _params: InitializedParams) {
    if !session.watch_files_dynamically {
        return;
    }
    let watchers = crate::config::CONFIG_FILE_NAMES
        .iter()
        .map(|name| FileSystemWatcher {
            glob_pattern: GlobPattern::String(format!("**/{name}")),
            kind: None,
        })
        .collect();
    let options = DidChangeWatchedFilesRegistrationOptions { watchers };
    let registration = Registration {
        id: "cudalint-config-watcher".into(),
        method: "workspace/didChangeWatchedFiles".into(),
        register_options: serde_json::to_value(options).ok(),
    };
    session.request(
        RegisterCapability::METHOD,
        RegistrationParams {
            registrations: vec![registration],
        },
    );
}
