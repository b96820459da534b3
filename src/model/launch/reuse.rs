//! Launch sites kept between lints of one document (the language server's), so that a keystroke
//! finds the launches of the functions it did not change without reading them again.
//!
//! The launches in a function read its own text and, outside it, only what `launches_in` is
//! given: the file-scope constants (`FileScope::constants_hash`), the allocations of members
//! anywhere in the file (`FileScope::allocations_hash`, only when a launch passes a member), and
//! the answers of the model's helpers (rounding helpers, grid helpers, `#define`s), each recorded
//! as it is asked. A function's sites are reused while its texts and all of that are what they
//! were; they are moved to where the function now is. Asking the helpers again in the recorded
//! order also repeats what the model notes of the names it looked up.

use super::{
    launches_in, may_launch, FileScope, GridAxis, GridHelpers, LaunchSite, RoundingHelper,
};
use crate::model::Function;
use crate::source::LineIndex;
use rustc_hash::{FxHashMap, FxHasher};
use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use std::path::Path;

/// The launch sites of the functions of the last lint, by the hash of their texts.
#[derive(Debug, Default)]
pub struct LaunchCache {
    kept: FxHashMap<u64, Vec<Kept>>,
    next: FxHashMap<u64, Vec<Kept>>,
    last: LaunchStats,
}

/// What the last lint did with the kept launch sites.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct LaunchStats {
    /// Launching functions whose sites were read again.
    pub read: usize,
    /// Launching functions whose sites were reused.
    pub reused: usize,
}

/// One launching function's sites, with what they were read from.
#[derive(Debug)]
struct Kept {
    /// The function's text, and the view's where it differs (a blanked `#if`).
    source: Box<str>,
    view: Option<Box<str>>,
    /// Spans relative to the definition's start.
    sites: Vec<LaunchSite>,
    /// The helpers' answers, in the order they were asked.
    queries: Vec<Query>,
    /// `FileScope::constants_hash` for the function.
    constants: u64,
    /// `FileScope::allocations_hash`, when a launch passed a member.
    allocations: Option<u64>,
}

#[derive(Debug, PartialEq)]
enum Query {
    RoundsUp(String, usize, Option<RoundingHelper>),
    Define(String, Option<String>),
    ReturnedGrid(String, usize, Option<[GridAxis; 3]>),
}

impl Query {
    /// Whether `helpers` answers as it did (asking again, as reading the launches would).
    fn holds(&self, helpers: &dyn GridHelpers) -> bool {
        match self {
            Query::RoundsUp(name, arity, answer) => helpers.rounds_up(name, *arity) == *answer,
            Query::Define(name, answer) => helpers.define(name) == answer.as_deref(),
            Query::ReturnedGrid(name, arity, answer) => {
                helpers.returned_grid(name, *arity) == *answer
            }
        }
    }
}

/// The model's helpers, with each question and answer written down.
struct Recorder<'h> {
    helpers: &'h dyn GridHelpers,
    queries: RefCell<Vec<Query>>,
}

impl GridHelpers for Recorder<'_> {
    fn rounds_up(&self, name: &str, arity: usize) -> Option<RoundingHelper> {
        let answer = self.helpers.rounds_up(name, arity);
        self.queries
            .borrow_mut()
            .push(Query::RoundsUp(name.to_string(), arity, answer));
        answer
    }

    fn define(&self, name: &str) -> Option<&str> {
        let answer = self.helpers.define(name);
        self.queries
            .borrow_mut()
            .push(Query::Define(name.to_string(), answer.map(str::to_string)));
        answer
    }

    fn returned_grid(&self, name: &str, arity: usize) -> Option<[GridAxis; 3]> {
        let answer = self.helpers.returned_grid(name, arity);
        self.queries.borrow_mut().push(Query::ReturnedGrid(
            name.to_string(),
            arity,
            answer.clone(),
        ));
        answer
    }
}

/// The texts of `function`'s definition: the source's, and the view's where it differs.
fn texts<'a>(
    function: &Function,
    source: &'a str,
    view: &'a str,
) -> Option<(&'a str, Option<&'a str>)> {
    let range = function.definition.byte_range();
    let source = source.get(range.clone())?;
    let view = view.get(range)?;
    Some((source, (view != source).then_some(view)))
}

fn key(source: &str, view: Option<&str>) -> u64 {
    let mut hasher = FxHasher::default();
    source.hash(&mut hasher);
    view.hash(&mut hasher);
    hasher.finish()
}

fn moved(site: &LaunchSite, by: isize, path: &Path, lines: &LineIndex) -> LaunchSite {
    let start = site.span.start.saturating_add_signed(by);
    let end = site.span.end.saturating_add_signed(by);
    LaunchSite {
        path: path.to_path_buf(),
        span: start..end,
        line: lines.line_of(start) + 1,
        ..site.clone()
    }
}

impl LaunchCache {
    /// The launches in `function`, as `launches_in` reads them: reused from the last lint when
    /// nothing they read has changed. `view`: the text the tree was parsed from.
    #[allow(clippy::too_many_arguments)]
    pub fn launches_in<'t>(
        &mut self,
        function: &Function<'t>,
        source: &'t str,
        view: &str,
        path: &Path,
        lines: &LineIndex,
        helpers: &dyn GridHelpers,
        file: &FileScope<'t>,
    ) -> Vec<LaunchSite> {
        if !may_launch(function, source) {
            return Vec::new();
        }
        let Some((text, view_text)) = texts(function, source, view) else {
            return launches_in(function, source, path, lines, helpers, file);
        };
        let hash = key(text, view_text);
        let definition = function.definition;
        let start = definition.start_byte() as isize;
        let constants = file.constants_hash(definition);
        let found = self.kept.get_mut(&hash).and_then(|candidates| {
            let at = candidates.iter().position(|kept| {
                *kept.source == *text
                    && kept.view.as_deref() == view_text
                    && kept.constants == constants
                    && kept
                        .allocations
                        .is_none_or(|hash| file.allocations_hash(definition) == hash)
                    && kept.queries.iter().all(|query| query.holds(helpers))
            })?;
            Some(candidates.swap_remove(at))
        });
        let kept = match found {
            Some(kept) => {
                self.last.reused += 1;
                kept
            }
            None => {
                self.last.read += 1;
                file.take_member_reads();
                let recorder = Recorder {
                    helpers,
                    queries: RefCell::default(),
                };
                let sites = launches_in(function, source, path, lines, &recorder, file);
                let allocations = file
                    .take_member_reads()
                    .then(|| file.allocations_hash(definition));
                Kept {
                    source: text.into(),
                    view: view_text.map(Into::into),
                    sites: sites
                        .iter()
                        .map(|s| moved(s, -start, path, lines))
                        .collect(),
                    queries: recorder.queries.into_inner(),
                    constants,
                    allocations,
                }
            }
        };
        let sites = kept
            .sites
            .iter()
            .map(|site| moved(site, start, path, lines))
            .collect();
        self.next.entry(hash).or_default().push(kept);
        sites
    }

    /// Ends a lint: what it read is kept for the next one, the rest is forgotten.
    pub fn finish(&mut self) {
        self.kept = std::mem::take(&mut self.next);
    }

    /// Starts a lint.
    pub fn begin(&mut self) {
        self.next.clear();
        self.last = LaunchStats::default();
    }

    pub fn last_lint(&self) -> LaunchStats {
        self.last
    }
}
