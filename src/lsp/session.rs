//! The server's state between messages: open documents, settings, the channel to the lint thread.

use super::document::Document;
use super::position::Encoding;
use super::transport::log;
use super::worker::{Job, LintJob, Snapshots};
use crate::config::Settings;
use crate::engine::{CheckOptions, SettingsResolver};
use lsp_server::{Message, Notification};
use lsp_types::notification::{Notification as _, ShowMessage};
use lsp_types::{MessageType, ShowMessageParams, Uri};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::sync::Arc;

pub struct Session {
    pub outgoing: Sender<Message>,
    pub encoding: Encoding,
    /// The workspace folder (or the working directory): where untitled buffers are placed.
    pub root: PathBuf,
    pub documents: HashMap<Uri, Document>,
    pub snapshots: Snapshots,
    pub watch_files_dynamically: bool,
    pub shutdown_requested: bool,
    jobs: Sender<Job>,
    resolver: SettingsResolver,
    next_request_id: i32,
}

impl Session {
    pub fn new(
        outgoing: Sender<Message>,
        jobs: Sender<Job>,
        snapshots: Snapshots,
        encoding: Encoding,
        root: PathBuf,
    ) -> Self {
        Session {
            outgoing,
            encoding,
            root,
            documents: HashMap::new(),
            snapshots,
            watch_files_dynamically: false,
            shutdown_requested: false,
            jobs,
            resolver: SettingsResolver::new(CheckOptions::default()),
            next_request_id: 0,
        }
    }

    pub fn send(&self, message: impl Into<Message>) {
        let _ = self.outgoing.send(message.into());
    }

    /// A request to the client; its response is not needed.
    pub fn request(&mut self, method: &str, params: impl serde::Serialize) {
        self.next_request_id += 1;
        let id = format!("cudalint-{}", self.next_request_id);
        self.send(lsp_server::Request::new(
            id.into(),
            method.to_string(),
            params,
        ));
    }

    pub fn show_message(&self, kind: MessageType, message: String) {
        log(&message);
        self.send(Notification::new(
            ShowMessage::METHOD.to_string(),
            ShowMessageParams { typ: kind, message },
        ));
    }

    fn settings_for(&mut self, path: &Path) -> Option<Arc<Settings>> {
        let directory = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(&self.root)
            .to_path_buf();
        let settings = self.resolver.for_directory(&directory);
        for error in std::mem::take(&mut self.resolver.errors) {
            self.show_message(
                MessageType::ERROR,
                format!("cudalint: {error}; files under it are not linted until it is fixed"),
            );
        }
        settings
    }

    /// Queues a lint of the document's current text.
    pub fn lint(&mut self, uri: &Uri) {
        let Some(path) = self.documents.get(uri).map(|d| d.path.clone()) else {
            return;
        };
        let settings = self.settings_for(&path);
        let Some(document) = self.documents.get(uri) else {
            return;
        };
        let job = LintJob {
            uri: uri.clone(),
            path,
            version: document.version,
            text: document.snapshot(),
            settings,
            encoding: self.encoding,
        };
        let _ = self.jobs.send(Job::Lint(job));
    }

    pub fn forget(&mut self, uri: &Uri) {
        self.documents.remove(uri);
        let _ = self.jobs.send(Job::Forget(uri.clone()));
    }

    /// Reads every configuration again and re-lints the open documents.
    pub fn reload_settings(&mut self) {
        log("configuration changed; re-linting open documents");
        self.resolver = SettingsResolver::new(CheckOptions::default());
        let uris: Vec<Uri> = self.documents.keys().cloned().collect();
        for uri in uris {
            self.lint(&uri);
        }
    }
}

/// Whether a path is a cudalint configuration file.
pub fn is_config_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .map(|n| crate::config::CONFIG_FILE_NAMES.contains(&n))
        .unwrap_or(false)
}
