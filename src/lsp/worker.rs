//! The lint thread: keeps each document's view, tree and per-function findings between edits
//! (`incremental::relint`: re-parse and re-analyse only what changed), lints, publishes.
//! It runs apart from the message loop so requests are answered while a large file is linted, and
//! on a large stack so deeply nested code cannot overflow it.

use super::convert;
use super::position::Encoding;
use super::transport::log;
use crate::config::Settings;
use crate::diagnostic::Diagnostic;
use crate::incremental::{self, Kept};
use crate::source::LineIndex;
use lsp_server::{Message, Notification};
use lsp_types::notification::{Notification as _, PublishDiagnostics};
use lsp_types::{PublishDiagnosticsParams, Uri};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};

/// Documents larger than this are not linted: the editor stays responsive and the log says why.
pub const MAX_LINT_BYTES: usize = 16 << 20;
const STACK_BYTES: usize = 64 << 20;

pub enum Job {
    Lint(LintJob),
    /// The document was closed: forget its tree and clear its diagnostics.
    Forget(Uri),
}

pub struct LintJob {
    pub uri: Uri,
    pub path: PathBuf,
    pub version: i32,
    pub text: Arc<str>,
    /// None when the configuration is broken: the file is not linted (as `cudalint check` does).
    pub settings: Option<Arc<Settings>>,
    pub encoding: Encoding,
}

/// The last lint of a document, for hover and code actions.
pub struct Snapshot {
    pub version: i32,
    pub text: Arc<str>,
    pub lines: LineIndex,
    pub diagnostics: Vec<(Diagnostic, lsp_types::Diagnostic)>,
}

/// Keyed by the URI's text (`Uri` itself makes a poor map key: clippy's mutable_key_type).
pub type Snapshots = Arc<Mutex<HashMap<String, Arc<Snapshot>>>>;

pub fn spawn(
    jobs: Receiver<Job>,
    outgoing: Sender<Message>,
    snapshots: Snapshots,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("lsp-lint".into())
        .stack_size(STACK_BYTES)
        .spawn(move || {
            let mut kept: HashMap<String, Kept> = HashMap::new();
            while let Ok(first) = jobs.recv() {
                let mut batch = vec![first];
                batch.extend(jobs.try_iter());
                for job in latest_per_document(batch) {
                    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        run(job, &mut kept, &outgoing, &snapshots)
                    }));
                    if outcome.is_err() {
                        log("internal error while linting; the document's parse state was reset");
                        kept.clear();
                    }
                }
            }
        })?;
    Ok(())
}

/// Edits that arrived while the previous lint ran are linted once, at their latest version.
fn latest_per_document(batch: Vec<Job>) -> Vec<Job> {
    let mut latest: Vec<Job> = Vec::new();
    for job in batch {
        let uri = match &job {
            Job::Lint(lint) => &lint.uri,
            Job::Forget(uri) => uri,
        };
        latest.retain(|earlier| match earlier {
            Job::Lint(lint) => &lint.uri != uri,
            Job::Forget(earlier) => earlier != uri,
        });
        latest.push(job);
    }
    latest
}

fn run(
    job: Job,
    kept: &mut HashMap<String, Kept>,
    outgoing: &Sender<Message>,
    snapshots: &Snapshots,
) {
    let job = match job {
        Job::Forget(uri) => {
            kept.remove(uri.as_str());
            lock(snapshots).remove(uri.as_str());
            publish(outgoing, uri, Vec::new(), None);
            return;
        }
        Job::Lint(job) => job,
    };
    let diagnostics = match &job.settings {
        Some(_) if job.text.len() > MAX_LINT_BYTES => {
            log(format!(
                "{}: {} MB is over the {} MB limit for linting in the editor; not linted",
                job.path.display(),
                job.text.len() >> 20,
                MAX_LINT_BYTES >> 20
            ));
            kept.remove(job.uri.as_str());
            Vec::new()
        }
        Some(settings) => lint(&job, settings, kept),
        None => Vec::new(),
    };
    let lines = LineIndex::new(&job.text);
    let diagnostics: Vec<_> = diagnostics
        .into_iter()
        .map(|d| {
            let lsp = convert::to_lsp(&d, &job.uri, &job.text, &lines, job.encoding);
            (d, lsp)
        })
        .collect();
    let published = diagnostics.iter().map(|(_, lsp)| lsp.clone()).collect();
    let snapshot = Snapshot {
        version: job.version,
        text: job.text.clone(),
        lines,
        diagnostics,
    };
    lock(snapshots).insert(job.uri.as_str().to_string(), Arc::new(snapshot));
    publish(outgoing, job.uri, published, Some(job.version));
}

/// Taken out of the map while linting, so a panic in the lint leaves nothing half-updated.
fn lint(job: &LintJob, settings: &Settings, kept: &mut HashMap<String, Kept>) -> Vec<Diagnostic> {
    let previous = kept.remove(job.uri.as_str());
    let (next, outcome) = incremental::relint(previous, &job.path, &job.text, settings);
    if let Some(next) = next {
        kept.insert(job.uri.as_str().to_string(), next);
    }
    outcome.diagnostics
}

fn publish(
    outgoing: &Sender<Message>,
    uri: Uri,
    diagnostics: Vec<lsp_types::Diagnostic>,
    version: Option<i32>,
) {
    let params = PublishDiagnosticsParams {
        uri,
        diagnostics,
        version,
    };
    let _ = outgoing.send(Notification::new(PublishDiagnostics::METHOD.to_string(), params).into());
}

pub fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
