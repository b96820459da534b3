//! The lint thread: keeps each document's view and tree, re-parses incrementally, lints, publishes.
//! It runs apart from the message loop so requests are answered while a large file is linted, and
//! on a large stack so deeply nested code cannot overflow it.

use super::convert;
use super::position::Encoding;
use super::transport::log;
use crate::config::Settings;
use crate::diagnostic::Diagnostic;
use crate::source::{self, LineIndex, PreprocessedView};
use lsp_server::{Message, Notification};
use lsp_types::notification::{Notification as _, PublishDiagnostics};
use lsp_types::{PublishDiagnosticsParams, Uri};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use tree_sitter::{InputEdit, Point, Tree};

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

struct Parsed {
    view: PreprocessedView,
    tree: Tree,
}

pub fn spawn(
    jobs: Receiver<Job>,
    outgoing: Sender<Message>,
    snapshots: Snapshots,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("lsp-lint".into())
        .stack_size(STACK_BYTES)
        .spawn(move || {
            let mut parsed: HashMap<String, Parsed> = HashMap::new();
            while let Ok(first) = jobs.recv() {
                let mut batch = vec![first];
                batch.extend(jobs.try_iter());
                for job in latest_per_document(batch) {
                    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        run(job, &mut parsed, &outgoing, &snapshots)
                    }));
                    if outcome.is_err() {
                        log("internal error while linting; the document's parse state was reset");
                        parsed.clear();
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
    parsed: &mut HashMap<String, Parsed>,
    outgoing: &Sender<Message>,
    snapshots: &Snapshots,
) {
    let job = match job {
        Job::Forget(uri) => {
            parsed.remove(uri.as_str());
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
            parsed.remove(job.uri.as_str());
            Vec::new()
        }
        Some(settings) => lint(&job, settings, parsed),
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

fn lint(
    job: &LintJob,
    settings: &Settings,
    parsed: &mut HashMap<String, Parsed>,
) -> Vec<Diagnostic> {
    let view = source::preprocess(&job.text, &settings.qualifier_macros);
    let tree = match parsed.get_mut(job.uri.as_str()) {
        Some(previous) => {
            if let Some(edit) = view_edit(&previous.view.text, &view.text) {
                previous.tree.edit(&edit);
            }
            crate::engine::parse(&view.text, Some(&previous.tree))
        }
        None => crate::engine::parse(&view.text, None),
    };
    let Some(tree) = tree else {
        parsed.remove(job.uri.as_str());
        return Vec::new();
    };
    let outcome = crate::engine::lint_tree(&job.path, &job.text, &view, &tree, settings);
    parsed.insert(job.uri.as_str().to_string(), Parsed { view, tree });
    outcome.diagnostics
}

/// The single edit that turns the old view into the new one: everything between their common
/// prefix and common suffix. Diffing the views (not replaying the text edits) stays right when an
/// edit flips an `#if` branch and the view changes far from where the user typed.
pub fn view_edit(old: &str, new: &str) -> Option<InputEdit> {
    if old == new {
        return None;
    }
    let prefix = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let prefix = source::floor_char_boundary(old, prefix);
    let room = old.len().min(new.len()) - prefix;
    let mut suffix = old
        .bytes()
        .rev()
        .zip(new.bytes().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    while suffix > 0 && !old.is_char_boundary(old.len() - suffix) {
        suffix -= 1;
    }
    let old_end = old.len() - suffix;
    let new_end = new.len() - suffix;
    Some(InputEdit {
        start_byte: prefix,
        old_end_byte: old_end,
        new_end_byte: new_end,
        start_position: point(old, prefix),
        old_end_position: point(old, old_end),
        new_end_position: point(new, new_end),
    })
}

/// Tree-sitter's point: 0-based row and byte column.
fn point(text: &str, offset: usize) -> Point {
    let before = text.as_bytes().get(..offset).unwrap_or(text.as_bytes());
    let row = before.iter().filter(|b| **b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|b| *b == b'\n')
        .map(|i| i + 1)
        .unwrap_or(0);
    Point {
        row,
        column: before.len() - line_start,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn reparse_matches_fresh(old: &str, new: &str) {
        let mut tree = crate::engine::parse(old, None).unwrap_or_else(|| panic!("parse"));
        if let Some(edit) = view_edit(old, new) {
            tree.edit(&edit);
        }
        let incremental = crate::engine::parse(new, Some(&tree)).unwrap_or_else(|| panic!("parse"));
        let fresh = crate::engine::parse(new, None).unwrap_or_else(|| panic!("parse"));
        assert_eq!(
            incremental.root_node().to_sexp(),
            fresh.root_node().to_sexp()
        );
    }

    #[test]
    fn view_edit_covers_the_changed_middle() {
        let edit =
            view_edit("ab\ncdXef\ngh", "ab\ncdYYef\ngh").unwrap_or_else(|| panic!("an edit"));
        assert_eq!(
            (edit.start_byte, edit.old_end_byte, edit.new_end_byte),
            (5, 6, 7)
        );
        assert_eq!(
            (edit.start_position.row, edit.start_position.column),
            (1, 2)
        );
        assert_eq!(
            (edit.new_end_position.row, edit.new_end_position.column),
            (1, 4)
        );
        assert!(view_edit("same", "same").is_none());
    }

    #[test]
    fn view_edit_handles_repeats_and_multibyte_text() {
        let edit = view_edit("aaaa", "aa").unwrap_or_else(|| panic!("an edit"));
        assert_eq!(
            (edit.start_byte, edit.old_end_byte, edit.new_end_byte),
            (2, 4, 2)
        );
        let edit = view_edit("xé", "xè").unwrap_or_else(|| panic!("an edit"));
        assert_eq!(
            (edit.start_byte, edit.old_end_byte, edit.new_end_byte),
            (1, 3, 3)
        );
    }

    #[test]
    fn incremental_reparse_equals_fresh_parse() {
        let old = "__global__ void k(float* o, int n) {\n  int i = threadIdx.x;\n  o[i] = 1;\n}\n";
        reparse_matches_fresh(old, &old.replace("o[i] = 1;", "if (i < n) { o[i] = 1; }"));
        reparse_matches_fresh(old, &old.replace("{\n", "{ {\n"));
        reparse_matches_fresh(old, "");
    }
}
