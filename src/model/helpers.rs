//! `__device__` helper summaries: what a kernel needs to know of the device functions it calls.
//!
//! For each `__device__` and `__host__ __device__` function, from the analysis of its body:
//! - what it returns as a function of its arguments (which parameters reach the result, what
//!   thread identity the body derives itself, whether the result is bounded by construction or a
//!   multiple of a parameter), so `int i = flat_index(row, col, w);` is a thread index bounded
//!   when `row` and `col` are, and `roundDown(n, blockDim.x)` a multiple of the block size;
//! - for a straight-line body, the value it returns and the values it leaves in its reference
//!   (`int& r`) and pointer (`*out`) out-parameters as arithmetic over its arguments
//!   (`helper_values`), so `div_mod(a, b, r)` is `a / b` and leaves `a - a / b * b` in `r`;
//! - the accesses it makes through its pointer parameters at indices it does not guard, so
//!   `store(out, i, v)` in a kernel is an access to `out` at `i`, guarded or not where it is made.
//!
//! A summary is owned data (no tree lifetimes), keyed by the function's name and arity: it can be
//! compared between lints (the language server's reuse keys) and kept in a project-wide index.
//! Spans in a summary are relative to the start of the definition they point into, so a helper
//! that moves keeps its summary.

use super::kernel::{self, AccessKind, Deps};
use super::{FunctionKind, Model, Reuse};
use rustc_hash::FxHashMap;
use std::ops::Range;

/// What a caller may rely on of one device function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelperSummary {
    pub name: String,
    pub arity: usize,
    /// What it returns, when it returns a value.
    pub returns: Option<ReturnSummary>,
    /// Accesses through its pointer parameters at indices it does not guard, in source order.
    pub accesses: Vec<ParameterAccess>,
    /// The first block-wide barrier (`__syncthreads()` and its variants) its body reaches,
    /// written in it or in a function it calls: a call of it is a barrier for the caller.
    pub barrier: Option<BarrierSite>,
    /// The first warp collective with a full mask (`__shfl_down_sync(0xffffffff, ...)`) its body
    /// reaches, written in it or in a function it calls: a call of it needs the whole warp.
    pub collective: Option<CollectiveSite>,
    /// What it returns and leaves in its reference and pointer out-parameters, as arithmetic
    /// over its arguments, when its body is straight-line: a call is then, in the caller, those
    /// assignments with the caller's arguments put in.
    pub straight_line: Option<super::helper_values::StraightLine>,
    /// The parameters (by position) a call may write the caller's variables through: non-const
    /// references and pointers. A local passed to any other parameter is only read.
    pub written_parameters: Vec<usize>,
    /// For a predicate whose body is one `return` of a test (`return i < n && (p[i].flags &
    /// mask);`), the comparisons between its parameters that hold when it returns true and when
    /// it returns false: a call in a condition is then a guard written in the caller's terms.
    pub predicate: Option<Predicate>,
}

/// A comparison between two parameters (by position): `(0, Less, 1)` is `param0 < param1`.
/// A side [`RECEIVER`] is a field of the object a method is called on (`tid >= nthreads` in a
/// method of the options struct).
pub type ParameterComparison = (usize, super::guards::Relation, usize);

/// The position that stands for a field of a method's receiver in a [`ParameterComparison`].
pub const RECEIVER: usize = usize::MAX;

/// The position that stands for a value every thread computes alike from the program's
/// constants (literals, file-scope constants, `__constant__` globals): `idy < (ny - 1) / 3 + 1`
/// with `ny` in constant memory bounds `idy` by a value the caller cannot name but every thread
/// shares.
pub const PROGRAM_CONSTANT: usize = usize::MAX - 1;

/// What a predicate helper's result says of its arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Predicate {
    pub when_true: Vec<ParameterComparison>,
    pub when_false: Vec<ParameterComparison>,
}

/// A warp collective with a full mask as written in some function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectiveSite {
    /// The function holding the call, by name and arity.
    pub function: String,
    pub arity: usize,
    /// The call, relative to the start of that function's definition.
    pub span: Range<usize>,
    /// The intrinsic called.
    pub intrinsic: String,
    /// The widest aligned group of lanes any full-mask collective the function reaches reads
    /// inside (`__shfl_down_sync(m, v, 4, 8)` reads inside groups of 8); None when one of them
    /// is not known to stay inside a group narrower than the warp.
    pub partner_span: Option<u32>,
}

/// A block-wide barrier as written in some function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BarrierSite {
    /// The function holding the barrier, by name and arity.
    pub function: String,
    pub arity: usize,
    /// The barrier call, relative to the start of that function's definition.
    pub span: Range<usize>,
}

/// The returned value as a function of the arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReturnSummary {
    /// Parameters (by position) whose values reach the returned value.
    pub flowing: Vec<usize>,
    /// Thread identity the body derives itself, whatever the arguments (`blockIdx.x * blockDim.x
    /// + threadIdx.x` in `global_id()`).
    pub intrinsic: Deps,
    /// Whether that identity is bounded by construction (`global_id() % n`); true when it does
    /// not span the grid.
    pub intrinsic_bounded: bool,
    /// Flowing parameters that leave the result bounded when they alone are a global index:
    /// `i % n`, `min(i, n - 1)`, `i & mask` absorb `i`.
    pub absorbs: Vec<usize>,
    /// The parameter every returned value is a multiple of: `(a / b) * b`, `a - a % b` and
    /// `(a + b - 1) / b * b` are multiples of `b`.
    pub multiple_of: Option<usize>,
    /// The least and greatest value it can return, when its declared type is narrower than
    /// `int` (`unsigned char byte_at(...)` returns 0 to 255, whatever it computes).
    pub range: Option<(i128, i128)>,
}

/// An access through a pointer parameter at an index the function does not bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParameterAccess {
    /// The pointer parameter (by position).
    pub pointer: usize,
    /// The scalar parameters (by position) that leave the index unbounded when they alone are a
    /// global thread index.
    pub indices: Vec<usize>,
    pub kind: AccessKind,
    /// Where the access is written: in this function, or in one it calls.
    pub site: Site,
}

/// An access as written in some function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// The function holding the access, by name and arity.
    pub function: String,
    pub arity: usize,
    /// The pointer as that function names it.
    pub pointer: String,
    /// The access, relative to the start of that function's definition.
    pub span: Range<usize>,
}

/// What a lookup of one name sees: the arities of its definitions, and the summaries made so far
/// (in file order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LookupState {
    pub arities: Vec<usize>,
    pub summaries: Vec<HelperSummary>,
}

/// The summarised device functions of a file, by name.
#[derive(Debug, Clone, Default)]
pub struct DeviceFunctions {
    by_name: FxHashMap<String, Vec<Summarised>>,
    /// The arity of every definition of each name: a call to one of several definitions of one
    /// arity is not resolved.
    defined: FxHashMap<String, Vec<usize>>,
    /// Functions the file calls but does not define, summarised in another file of the run (a
    /// header): by name and arity, with that file.
    foreign: FxHashMap<(String, usize), (std::path::PathBuf, HelperSummary)>,
}

#[derive(Debug, Clone)]
struct Summarised {
    /// Where the definition starts in the file.
    start: usize,
    summary: HelperSummary,
}

impl DeviceFunctions {
    /// The summary of the one function called `name` with `arity` parameters: None when there is
    /// none, or several (overloads the model cannot tell apart).
    pub fn get(&self, name: &str, arity: usize) -> Option<&HelperSummary> {
        if self.defined.contains_key(name) {
            return self.unique(name, arity).map(|s| &s.summary);
        }
        self.foreign
            .get(&(name.to_string(), arity))
            .map(|(_, summary)| summary)
    }

    /// The file of a function summarised elsewhere; None for the file's own.
    pub fn foreign_file(&self, name: &str, arity: usize) -> Option<&std::path::Path> {
        if self.defined.contains_key(name) {
            return None;
        }
        self.foreign
            .get(&(name.to_string(), arity))
            .map(|(path, _)| path.as_path())
    }

    /// The file's own summaries, for the project index.
    pub fn local(&self) -> impl Iterator<Item = &HelperSummary> {
        self.by_name.values().flatten().map(|s| &s.summary)
    }

    /// Adds a summary made in `file` for a name the file does not define.
    pub fn add_foreign(&mut self, file: &std::path::Path, summary: HelperSummary) {
        if !self.defined.contains_key(&summary.name) {
            self.foreign.insert(
                (summary.name.clone(), summary.arity),
                (file.to_path_buf(), summary),
            );
        }
    }

    /// Where that function's definition starts in the file.
    pub fn start(&self, name: &str, arity: usize) -> Option<usize> {
        self.unique(name, arity).map(|s| s.start)
    }

    /// The summaries of every function called `name`, in file order: what a caller that looked
    /// the name up may have read.
    pub fn named(&self, name: &str) -> Vec<HelperSummary> {
        let mut found: Vec<&Summarised> = self.by_name.get(name).into_iter().flatten().collect();
        found.sort_by_key(|s| s.start);
        let mut summaries: Vec<HelperSummary> =
            found.into_iter().map(|s| s.summary.clone()).collect();
        let mut foreign: Vec<&HelperSummary> = self
            .foreign
            .iter()
            .filter(|((n, _), _)| n == name)
            .map(|(_, (_, summary))| summary)
            .collect();
        foreign.sort_by_key(|s| s.arity);
        summaries.extend(foreign.into_iter().cloned());
        summaries
    }

    /// What a lookup of `name` sees now.
    pub fn lookup_state(&self, name: &str) -> LookupState {
        LookupState {
            arities: self.defined.get(name).cloned().unwrap_or_default(),
            summaries: self.named(name),
        }
    }

    pub fn len(&self) -> usize {
        self.by_name.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    fn unique(&self, name: &str, arity: usize) -> Option<&Summarised> {
        let arities = self.defined.get(name)?;
        if arities.iter().filter(|a| **a == arity).count() != 1 {
            return None;
        }
        self.by_name
            .get(name)?
            .iter()
            .find(|s| s.summary.arity == arity)
    }

    fn insert(&mut self, start: usize, summary: HelperSummary) {
        self.by_name
            .entry(summary.name.clone())
            .or_default()
            .push(Summarised { start, summary });
    }
}

/// Summarises every device function of the model, callees before callers (a function in a cycle
/// of calls sees the others of the cycle as unknown), taking from `reuse` the summaries of those
/// unchanged since an earlier lint.
pub fn summarize<'t>(model: &Model<'t>, reuse: &mut dyn Reuse<'t>) -> DeviceFunctions {
    let helpers: Vec<usize> = model
        .functions
        .iter()
        .enumerate()
        .filter(|(_, f)| matches!(f.kind, FunctionKind::Device | FunctionKind::HostDevice))
        .map(|(index, _)| index)
        .collect();
    let mut done = DeviceFunctions::default();
    if helpers.is_empty() {
        return done;
    }
    let mut by_name: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    for (position, &index) in helpers.iter().enumerate() {
        let function = &model.functions[index];
        by_name.entry(&function.name).or_default().push(position);
        done.defined
            .entry(function.name.clone())
            .or_default()
            .push(function.parameters.len());
    }
    let calls: Vec<Vec<String>> = helpers
        .iter()
        .map(|&index| kernel::called_names(model.functions[index].body, model.source))
        .collect();
    let callees: Vec<Vec<usize>> = calls
        .iter()
        .map(|names| {
            names
                .iter()
                .filter_map(|name| by_name.get(name.as_str()))
                .flatten()
                .copied()
                .collect()
        })
        .collect();
    for position in post_order(&callees) {
        let Some((&index, calls)) = helpers.get(position).zip(calls.get(position)) else {
            continue;
        };
        let Some(function) = model.functions.get(index) else {
            continue;
        };
        let summary = match reuse.device_function(model, index, &done) {
            Some(summary) => summary,
            None => {
                let summary = kernel::summarize_helper(model, function, &done);
                reuse.device_function_built(model, index, &summary, calls, &done);
                summary
            }
        };
        done.insert(function.definition.start_byte(), summary);
    }
    done
}

/// The nodes of a call graph, each after the nodes it reaches (depth first, without recursion;
/// an edge back into the path is ignored).
fn post_order(edges: &[Vec<usize>]) -> Vec<usize> {
    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; edges.len()];
    let mut order = Vec::with_capacity(edges.len());
    for root in 0..edges.len() {
        if state[root] != NEW {
            continue;
        }
        state[root] = ON_PATH;
        let mut path: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some(&(node, next)) = path.last() {
            let callee = edges.get(node).and_then(|e| e.get(next)).copied();
            if let Some(top) = path.last_mut() {
                top.1 += 1;
            }
            match callee {
                Some(callee) if state.get(callee) == Some(&NEW) => {
                    state[callee] = ON_PATH;
                    path.push((callee, 0));
                }
                Some(_) => {}
                None => {
                    state[node] = DONE;
                    order.push(node);
                    path.pop();
                }
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{self, LineIndex};
    use std::path::Path;

    /// The summaries of `text`'s device functions.
    fn summaries(text: &str) -> DeviceFunctions {
        let view = source::preprocess(text, &[]);
        let tree = crate::engine::parse(&view.text, None).unwrap_or_else(|| panic!("parse"));
        let lines = LineIndex::new(text);
        let model = Model::build(Path::new("t.cu"), text, &view, &tree, &lines, &[]);
        model.device_functions.clone()
    }

    fn summary(text: &str, name: &str, arity: usize) -> HelperSummary {
        summaries(text)
            .get(name, arity)
            .cloned()
            .unwrap_or_else(|| panic!("no summary of {name}/{arity}"))
    }

    fn returns(text: &str, name: &str, arity: usize) -> ReturnSummary {
        summary(text, name, arity)
            .returns
            .unwrap_or_else(|| panic!("{name} returns nothing"))
    }

    #[test]
    fn arguments_that_reach_the_result() {
        let r = returns(
            "__device__ int flat_index(int row, int col, int w) { return row * w + col; }",
            "flat_index",
            3,
        );
        assert_eq!(r.flowing, vec![0, 1, 2]);
        assert!(r.intrinsic.is_uniform());
        assert!(r.absorbs.is_empty());
        // a local in between, and a parameter that only selects
        let r = returns(
            "__device__ __host__ int pick(int a, int b, const int* table) { int t = a + 1; return t + table[b]; }",
            "pick",
            3,
        );
        assert_eq!(r.flowing, vec![0]);
    }

    #[test]
    fn a_result_type_narrower_than_int_holds_the_result_to_its_values() {
        let text = "typedef unsigned char byte_t;\n\
                    __device__ unsigned char byte_at(const unsigned* w, unsigned i) { return (w[i >> 2] >> ((i & 3U) << 3)) & 0xFFU; }\n\
                    __device__ byte_t aliased(const byte_t* p, int i) { return p[i]; }\n\
                    __device__ short signed_half(const short* p, int i) { return p[i]; }\n\
                    __device__ int wide(const int* p, int i) { return p[i]; }\n\
                    __device__ const unsigned char* address(const unsigned char* p, int i) { return p + i; }";
        assert_eq!(returns(text, "byte_at", 2).range, Some((0, 255)));
        assert_eq!(returns(text, "aliased", 2).range, Some((0, 255)));
        assert_eq!(
            returns(text, "signed_half", 2).range,
            Some((-32_768, 32_767))
        );
        assert_eq!(returns(text, "wide", 2).range, None);
        // a pointer to bytes is an address, not a byte
        assert_eq!(returns(text, "address", 2).range, None);
    }

    #[test]
    fn what_a_predicate_says_of_its_arguments() {
        use crate::model::guards::Relation::{GreaterEqual, Less};
        let text = "struct P { int flags; };\n\
                    __device__ bool active(int i, int n, const P* p, int m) { return i < n && (p[i].flags & m); }\n\
                    __device__ bool outside(int i, int n) { return i >= n; }\n\
                    __device__ bool two(int x, int y, int w, int h) { return !(x >= w || y >= h); }\n\
                    __device__ bool checked(int i, int n) { if (n < 0) return false; return i < n; }\n\
                    __device__ bool moved(int i, int n) { return ++i < n; }\n\
                    __device__ bool branching(int i, int n) { if (i < n) return true; return false; }\n\
                    __device__ bool flipped(int i, int n) { if (i < n) { return false; } return true; }";
        let all = summaries(text);
        let predicate = |name: &str, arity: usize| {
            all.get(name, arity)
                .and_then(|s| s.predicate.clone())
                .map(|p| (p.when_true, p.when_false))
        };
        // a conjunction holds each part when true, and says nothing of either when false
        assert_eq!(predicate("active", 4), Some((vec![(0, Less, 1)], vec![])));
        assert_eq!(
            predicate("outside", 2),
            Some((vec![(0, GreaterEqual, 1)], vec![(0, Less, 1)]))
        );
        assert_eq!(
            predicate("two", 4),
            Some((vec![(0, Less, 2), (1, Less, 3)], vec![]))
        );
        // a body of more than one statement, and a test of a value the body changes first
        assert_eq!(predicate("checked", 2), None);
        assert_eq!(predicate("moved", 2), None);
        // a body that branches to its answer says what the test it branches on says
        assert_eq!(
            predicate("branching", 2),
            Some((vec![(0, Less, 1)], vec![(0, GreaterEqual, 1)]))
        );
        assert_eq!(
            predicate("flipped", 2),
            Some((vec![(0, GreaterEqual, 1)], vec![(0, Less, 1)]))
        );
        // a test against the program's constants, after a local of the predicate's own, and
        // with `else`; a bound held in a local is not one
        let text = "__constant__ int nx, ny;\n\
                    __device__ bool kept(int x, int y) { int k = x - 1; if (x < nx && y < (ny - 1) / 3 + 1 && k < nx) return true; else return false; }\n\
                    __device__ bool local_bound(int x) { int m = 4; if (x < m) { return true; } else { return false; } }\n\
                    __device__ bool stepped(int x) { x++; if (x < nx) return true; else return false; }";
        let all = summaries(text);
        let predicate = |name: &str, arity: usize| {
            all.get(name, arity)
                .and_then(|s| s.predicate.clone())
                .map(|p| (p.when_true, p.when_false))
        };
        assert_eq!(
            predicate("kept", 2),
            Some((
                vec![(0, Less, PROGRAM_CONSTANT), (1, Less, PROGRAM_CONSTANT)],
                vec![]
            ))
        );
        assert_eq!(predicate("local_bound", 1), None);
        assert_eq!(predicate("stepped", 1), None);
        // a method of an options struct compares its parameter with the object's fields
        let text = "struct Opts { unsigned nthreads, mask;\n\
                    __host__ __device__ bool inactive(unsigned t) const { return t >= nthreads || (t & mask); }\n\
                    __device__ bool past(unsigned t) const { return t >= this->nthreads; }\n\
                    __device__ bool fields() const { return mask >= nthreads; } };";
        let all = summaries(text);
        let predicate = |name: &str, arity: usize| {
            all.get(name, arity)
                .and_then(|s| s.predicate.clone())
                .map(|p| (p.when_true, p.when_false))
        };
        assert_eq!(
            predicate("inactive", 1),
            Some((vec![], vec![(0, Less, RECEIVER)]))
        );
        assert_eq!(
            predicate("past", 1),
            Some((vec![(0, GreaterEqual, RECEIVER)], vec![(0, Less, RECEIVER)]))
        );
        assert_eq!(predicate("fields", 0), None);
    }

    #[test]
    fn a_body_that_derives_the_global_index_itself() {
        let r = returns(
            "__device__ int global_id() { return blockIdx.x * blockDim.x + threadIdx.x; }",
            "global_id",
            0,
        );
        assert!(r.intrinsic.is_global_index());
        assert!(!r.intrinsic_bounded);
        let r = returns(
            "__device__ int lane() { return threadIdx.x % 32; }",
            "lane",
            0,
        );
        assert!(!r.intrinsic.is_global_index() && !r.intrinsic.is_uniform());
        let r = returns(
            "__device__ int slot(int n) { return (blockIdx.x * blockDim.x + threadIdx.x) % n; }",
            "slot",
            1,
        );
        assert!(r.intrinsic.is_global_index() && r.intrinsic_bounded);
    }

    #[test]
    fn results_bounded_by_construction() {
        let text = "__device__ int wrap(int i, int n) { return i % n; }\n\
                    __device__ int clamp_to(int i, int n) { return min(i, n - 1); }\n\
                    __device__ int guarded(int i, int n) { if (i >= n) return n - 1; return i; }\n\
                    __device__ int plain(int i, int n) { return i + n; }";
        assert_eq!(returns(text, "wrap", 2).absorbs, vec![0]);
        // either argument alone may be a global index: the other bounds the minimum
        assert_eq!(returns(text, "clamp_to", 2).absorbs, vec![0, 1]);
        assert_eq!(returns(text, "guarded", 2).absorbs, vec![0, 1]);
        assert!(returns(text, "plain", 2).absorbs.is_empty());
    }

    #[test]
    fn multiples_of_a_parameter() {
        let text = "__device__ int roundDown(int a, int b) { return (a / b) * b; }\n\
                    __device__ int floorTo(int a, int b) { return a - a % b; }\n\
                    __device__ int roundUp(int a, int b) { int q = (a + b - 1) / b; return q * b; }\n\
                    __device__ int notOne(int a, int b) { return a / b; }";
        assert_eq!(returns(text, "roundDown", 2).multiple_of, Some(1));
        assert_eq!(returns(text, "floorTo", 2).multiple_of, Some(1));
        assert_eq!(returns(text, "roundUp", 2).multiple_of, Some(1));
        assert_eq!(returns(text, "notOne", 2).multiple_of, None);
    }

    #[test]
    fn unguarded_accesses_through_pointer_parameters() {
        let text = "__device__ void store(float* p, int i, float v) { p[i] = v; }\n\
                    __device__ void safe(float* p, int i, int n, float v) { if (i < n) p[i] = v; }\n\
                    __device__ float at(const float* m, int r, int c, int w) { return m[r * w + c]; }\n\
                    __device__ void wrapped(float* p, int i, int n) { p[i % n] = 0; }";
        let store = summary(text, "store", 3);
        assert_eq!(store.accesses.len(), 1);
        let access = &store.accesses[0];
        assert_eq!((access.pointer, access.indices.clone()), (0, vec![1]));
        assert_eq!(access.kind, AccessKind::Write);
        assert_eq!(access.site.function, "store");
        assert_eq!(access.site.pointer, "p");
        let start = text.find("p[i] = v").unwrap_or_default();
        assert_eq!(access.site.span, start..start + "p[i]".len());
        // guarded inside: left to the caller's advance of the pointer, at no index of its own
        let safe = summary(text, "safe", 4);
        assert_eq!(safe.accesses.len(), 1);
        assert!(safe.accesses[0].indices.is_empty());
        let deref = summary(
            "__device__ void put(float* p, float v) { *p = v; }",
            "put",
            2,
        );
        assert_eq!(deref.accesses.len(), 1);
        assert!(deref.accesses[0].indices.is_empty());
        assert_eq!(deref.accesses[0].kind, AccessKind::Write);
        // an access the helper makes only out of range is not bounded by the helper either
        let tail = "__device__ void tail(float* p, int i, int n) { if (i >= n) p[i] = 0; }";
        assert_eq!(summary(tail, "tail", 3).accesses[0].indices, vec![1]);
        // `p[i % n]` is unbounded only when `n` is
        let wrapped = summary(text, "wrapped", 3);
        assert_eq!(wrapped.accesses.len(), 1);
        assert_eq!(wrapped.accesses[0].indices, vec![2]);
        let at = summary(text, "at", 4);
        assert_eq!(at.accesses.len(), 1);
        assert_eq!(at.accesses[0].indices, vec![1, 2, 3]);
        assert_eq!(at.accesses[0].kind, AccessKind::Read);
    }

    #[test]
    fn helpers_calling_helpers_in_any_order() {
        // the caller comes first in the file; its summary still sees the callee's
        let text = "__device__ void put(float* q, int k, float v) { store(q, k + 1, v); }\n\
                    __device__ int idx(int r, int c, int w) { return flat(r, c, w); }\n\
                    __device__ void store(float* p, int i, float v) { p[i] = v; }\n\
                    __device__ int flat(int r, int c, int w) { return r * w + c; }";
        let put = summary(text, "put", 3);
        assert_eq!(put.accesses.len(), 1);
        assert_eq!(put.accesses[0].indices, vec![1]);
        assert_eq!(put.accesses[0].site.function, "store");
        let start = text.find("__device__ void store").unwrap_or_default();
        let at = text.find("p[i] = v").unwrap_or_default() - start;
        assert_eq!(put.accesses[0].site.span, at..at + 4);
        assert_eq!(returns(text, "idx", 3).flowing, vec![0, 1, 2]);
    }

    #[test]
    fn recursion_and_overloads_are_safe() {
        let text = "__device__ int f(int a) { return a <= 0 ? 0 : f(a - 1) + g(a); }\n\
                    __device__ int g(int b) { return f(b); }\n\
                    __device__ int h(int a) { return a; }\n\
                    __device__ float h(float a) { return a; }\n\
                    __device__ int h(int a, int b) { return a + b; }";
        let all = summaries(text);
        assert!(all.get("f", 1).is_some() && all.get("g", 1).is_some());
        assert!(all.get("h", 1).is_none(), "two overloads of one arity");
        assert!(all.get("h", 2).is_some());
        assert_eq!(all.named("h").len(), 3);
    }

    #[test]
    fn post_order_visits_callees_first_and_survives_cycles() {
        let order = post_order(&[vec![1], vec![2], vec![0, 3], vec![]]);
        assert_eq!(order, vec![3, 2, 1, 0]);
        let order = post_order(&[vec![0], vec![5]]);
        assert_eq!(order, vec![0, 1]);
    }
}
