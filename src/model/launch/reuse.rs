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
    launches_in, may_launch, AssignedDim3, FileScope, GridAxis, GridHelpers, LaunchSite,
    ReturnedMultiple, RoundingHelper,
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
    /// `FileScope::callers_hash`, when a launch passed on a parameter of the function.
    callers: Option<u64>,
}

#[derive(Debug, PartialEq)]
enum Query {
    RoundsUp(String, usize, Option<RoundingHelper>),
    Define(String, Option<String>),
    ReturnedGrid(String, usize, Option<[GridAxis; 3]>),
    AssignedDim3(String, usize, usize, Option<AssignedDim3>),
    ReturnedMultiple(String, usize, Option<ReturnedMultiple>),
    MemberGrid(String, Option<GridAxis>),
    ResolveType(String, String),
    Enumerator(String, Option<i64>),
    WritesLaunchShape(String, bool),
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
            Query::AssignedDim3(name, arity, position, answer) => {
                helpers.assigned_dim3(name, *arity, *position) == *answer
            }
            Query::ReturnedMultiple(name, arity, answer) => {
                helpers.returned_multiple(name, *arity) == *answer
            }
            Query::MemberGrid(member, answer) => helpers.member_grid(member) == *answer,
            Query::ResolveType(type_text, answer) => helpers.resolve_type(type_text) == *answer,
            Query::Enumerator(name, answer) => helpers.enumerator(name) == *answer,
            Query::WritesLaunchShape(name, answer) => helpers.writes_launch_shape(name) == *answer,
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

    fn writes_launch_shape(&self, name: &str) -> bool {
        let answer = self.helpers.writes_launch_shape(name);
        self.queries
            .borrow_mut()
            .push(Query::WritesLaunchShape(name.to_string(), answer));
        answer
    }

    fn enumerator(&self, name: &str) -> Option<i64> {
        let answer = self.helpers.enumerator(name);
        self.queries
            .borrow_mut()
            .push(Query::Enumerator(name.to_string(), answer));
        answer
    }

    fn resolve_type(&self, type_text: &str) -> String {
        let answer = self.helpers.resolve_type(type_text);
        self.queries
            .borrow_mut()
            .push(Query::ResolveType(type_text.to_string(), answer.clone()));
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

    fn assigned_dim3(&self, name: &str, arity: usize, position: usize) -> Option<AssignedDim3> {
        let answer = self.helpers.assigned_dim3(name, arity, position);
        self.queries.borrow_mut().push(Query::AssignedDim3(
            name.to_string(),
            arity,
            position,
            answer.clone(),
        ));
        answer
    }

    fn returned_multiple(&self, name: &str, arity: usize) -> Option<ReturnedMultiple> {
        let answer = self.helpers.returned_multiple(name, arity);
        self.queries
            .borrow_mut()
            .push(Query::ReturnedMultiple(name.to_string(), arity, answer));
        answer
    }

    fn member_grid(&self, member: &str) -> Option<GridAxis> {
        let answer = self.helpers.member_grid(member);
        self.queries
            .borrow_mut()
            .push(Query::MemberGrid(member.to_string(), answer.clone()));
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
                    && kept
                        .callers
                        .is_none_or(|hash| file.callers_hash(&function.name) == hash)
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
                file.take_caller_reads();
                file.take_kernel_member_reads();
                let recorder = Recorder {
                    helpers,
                    queries: RefCell::default(),
                };
                let sites = launches_in(function, source, path, lines, &recorder, file);
                // a wrapper's launches sit at its calls, which move apart from it, and the
                // kernels a member table holds are assigned anywhere in the file: read afresh
                let range = definition.byte_range();
                if file.take_kernel_member_reads()
                    || sites
                        .iter()
                        .any(|s| s.span.start < range.start || s.span.end > range.end)
                {
                    file.take_member_reads();
                    file.take_caller_reads();
                    return sites;
                }
                let allocations = file
                    .take_member_reads()
                    .then(|| file.allocations_hash(definition));
                let callers = file
                    .take_caller_reads()
                    .then(|| file.callers_hash(&function.name));
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
                    callers,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::index::{Lookups, ProjectIndex};
    use crate::model::{Model, Reuse, ReusedKernel};

    /// Every function analysed, the launch sites reused.
    struct Launches(LaunchCache);

    impl<'t> Reuse<'t> for Launches {
        fn kernel(&mut self, _: &Model<'t>, _: usize) -> Option<ReusedKernel> {
            None
        }
        fn host_function(&mut self, _: &Model<'t>, _: usize) -> bool {
            false
        }
        fn host_function_built(&mut self, _: usize, _: &[String]) {}
        fn launches(&mut self) -> Option<&mut LaunchCache> {
            Some(&mut self.0)
        }
    }

    /// The launch sites of `text` and what the model looked up: with the cache when one is
    /// given, else afresh.
    fn sites(text: &str, cache: Option<&mut Launches>) -> (Vec<LaunchSite>, Lookups) {
        let view = crate::source::preprocess(text, &[]);
        let tree = crate::engine::parse(&view.text, None).expect("parse");
        let lines = LineIndex::new(text);
        let path = Path::new("t.cu");
        let model = match cache {
            Some(cache) => Model::build_reusing(
                path,
                text,
                &view,
                &tree,
                &lines,
                &[],
                // as `Model::build`: the error flow notes the functions it looks up
                true,
                ProjectIndex::empty(),
                cache,
            ),
            None => Model::build(path, text, &view, &tree, &lines, &[]),
        };
        let lookups = model.lookups.borrow().clone();
        (model.launch_sites.clone(), lookups)
    }

    /// Lints `texts` in turn with one cache; each time, the sites and lookups are those of a
    /// fresh model, and the cache read (then reused) the launches of as many functions as given.
    fn check(texts: &[(&str, Option<LaunchStats>)]) {
        let mut cache = Launches(LaunchCache::default());
        for (text, expected) in texts {
            let (kept, kept_lookups) = sites(text, Some(&mut cache));
            let (fresh, fresh_lookups) = sites(text, None);
            assert_eq!(kept, fresh, "{text}");
            assert_eq!(kept_lookups, fresh_lookups, "{text}");
            assert!(!fresh.is_empty(), "{text}");
            if let Some(expected) = expected {
                assert_eq!(cache.0.last_lint(), *expected, "{text}");
            }
        }
    }

    fn stats(read: usize, reused: usize) -> Option<LaunchStats> {
        Some(LaunchStats { read, reused })
    }

    const KERNEL: &str =
        "__global__ void k(float* p, int n) { int i = threadIdx.x; if (i < n) p[i] = 0; }\n";

    #[test]
    fn sites_of_unchanged_functions_move_with_them() {
        let f = "void f(float* p, int n) { k<<<(n + 255) / 256, 256>>>(p, n); }\n";
        let g = "void g(float* p, int n) {\n  int b = n / 128;\n  k<<<b, 128>>>(p, n);\n}\n";
        let text = format!("{KERNEL}{f}{g}");
        let typed = format!("{KERNEL}\n// above f\n{f}{g}");
        let edited = typed.replace("n / 128", "(n + 127) / 128");
        check(&[
            (&text, stats(2, 0)),
            (&typed, stats(0, 2)),
            (&edited, stats(1, 1)),
        ]);
    }

    #[test]
    fn a_changed_file_scope_constant_reads_the_launches_again() {
        let f = "void f(float* p) { k<<<BLOCKS, 256>>>(p, BLOCKS * 256); }\n";
        let g = "void g(float* p) { dim3 block(64); k<<<GRID, block>>>(p, 64); }\n";
        let text = format!("const int BLOCKS = 4;\n{KERNEL}{f}{g}const dim3 GRID(8);\n");
        let changed = text.replace("BLOCKS = 4", "BLOCKS = 8");
        // a `dim3` constant is seen by the launches after it only: moved above them, every
        // launching function's constants are read again
        let moved = format!(
            "const dim3 GRID(8);\n{}",
            changed.replace("const dim3 GRID(8);\n", "")
        );
        check(&[
            (&text, stats(2, 0)),
            (&changed, stats(2, 0)),
            (&moved, stats(2, 0)),
        ]);
    }

    #[test]
    fn a_changed_helper_or_define_reads_the_launches_again() {
        let helper = "int ceil_div(int a, int b) { return (a + b - 1) / b; }\n";
        let f = "void f(float* p, int n) { k<<<ceil_div(n, THREADS), THREADS>>>(p, n); }\n";
        let g = "void g(float* p, int n) { k<<<n, 1>>>(p, n); }\n";
        let text = format!("#define THREADS 256\n{helper}{KERNEL}{f}{g}");
        let floor = text.replace("(a + b - 1) / b", "a / b");
        // a changed `#define`: the sites stay a fresh model's (whether `f`'s are read again
        // depends on whether its launch asked for the value)
        let defined = floor.replace("THREADS 256", "THREADS 128");
        check(&[
            (&text, stats(2, 0)),
            (&floor, stats(1, 1)),
            (&defined, None),
        ]);
    }

    #[test]
    fn a_member_allocated_elsewhere_is_read_again_when_its_allocation_changes() {
        let init = "void init(Plan* plan, int n) { cudaMalloc(&plan->buf, n * sizeof(float)); }\n";
        let f = "void f(Plan* plan, int n) { k<<<(n + 255) / 256, 256>>>(plan->buf, n); }\n";
        let g =
            "void g(float* p, int n) { cudaMalloc(&p, n * sizeof(float)); k<<<n, 1>>>(p, n); }\n";
        let text = format!("{KERNEL}{init}{f}{g}");
        let halved = text.replace("n * sizeof(float)); }", "n / 2 * sizeof(float)); }");
        check(&[(&text, stats(2, 0)), (&halved, stats(1, 1))]);
    }
}
