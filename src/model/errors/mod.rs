//! Error flow: where launch errors arise and where they are read, per host function and across
//! functions.
//!
//! A kernel launch returns no status: its error (a bad configuration, a missing kernel image) is
//! read with `cudaGetLastError`/`cudaPeekAtLastError`, in the launching function or by its
//! callers. Each host function's walk records, in source order, its *events* (launches, and
//! calls of other functions, which may launch) and its *checks* (last-error queries that are
//! tested, check macros that query the last error, calls of check helpers), with where each sits
//! among the arms of `if`/`else`, `switch` and `?:` and which `return` ends its block.
//!
//! An event is *checked* when a check that can run after it comes before the next event that can
//! (an event in the other arm of an `if`, or another `case`, cannot); it is *last* when no event
//! can run after it. A function *leaves a launch pending* when one of its launches, or a call of a
//! function that leaves one pending, is last and not checked. Such a launch is checked when every
//! visible caller checks right after the call, followed up to `MAX_CALLER_DEPTH` calls up (a
//! caller that does not check but calls last leaves it to its own callers).
//!
//! The same reasoning applies to CUDA calls whose error code a function returns: they are checked
//! when every visible caller tests the returned value. Other files' functions and calls come
//! from the project index (`index::ErrorSummary`, `index::CallSite`).

mod callers;
mod calls;
mod fingerprint;
mod flows;
mod offers;
#[cfg(test)]
mod tests;
mod verdicts;
mod walk;

use super::host::{
    is_check_name, is_last_error_query, is_returned_among, result_use_among, ResultUse,
};
use super::index::{CallSite, CheckHelper, ErrorSummary, Step, MAX_STEPS};
use super::{FunctionKind, Model};
use crate::syntax::{call_arguments, named_children, strip, text, walk_iterative, NodeExt};
use callers::{Resolver, State};
use calls::{
    call_name, dispatch_tables, is_cuda_or_hip_api, is_literal, is_method_call, offered_callee,
    project_call_name, project_check, returns_no_error,
};
use flows::can_follow;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::path::Path;
use tree_sitter::Node;
use walk::walk_function;

/// How many calls up a launch error or a returned error code is followed to the callers that
/// check it.
pub const MAX_CALLER_DEPTH: usize = 3;

/// How deep calls are followed down to find what a callee leaves pending.
const MAX_CALLEE_DEPTH: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// `kernel<<<...>>>(...)`.
    Launch,
    /// A call of a named function that is not a CUDA API call or a check wrapping one.
    Call,
}

/// Per enclosing `if`, `switch` or `?:` (by node id), which of its arms holds a node.
type Arms = Vec<(usize, usize)>;

#[derive(Debug, Clone)]
pub struct ErrorEvent<'t> {
    /// The launch or call expression.
    pub node: Node<'t>,
    pub kind: EventKind,
    /// The kernel launched or the function called.
    pub name: String,
    pub arity: usize,
    /// Not a statement of its own: a launch inside a macro or expression that may check it
    /// (`CHECK(k<<<g, b>>>(...))`), a call passed to a check.
    pub wrapped: bool,
    /// How a call's result is used.
    pub result: ResultUse,
    /// A call's result is the function's return value.
    pub returned: bool,
    /// A call named like a check (`CHECK`, `ERR`, `ASSERT`...) with no call inside.
    check_named: bool,
    /// Every argument is a literal (`"kernel failed"`, `__LINE__`) or there is none: a check
    /// given nothing to test tests the last error.
    literal_arguments: bool,
    arms: Arms,
    /// The innermost block that a `return` or `throw` after the node ends: nothing outside it
    /// runs after the node.
    exits_within: Option<Range<usize>>,
}

#[derive(Debug, Clone)]
struct CheckSite {
    at: usize,
    arms: Arms,
}

/// A CUDA call whose error code the function returns (`return cudaMemcpy(...);`).
#[derive(Debug, Clone)]
pub struct ReturnedCall<'t> {
    pub node: Node<'t>,
    pub name: String,
}

/// What the flow concluded about an event.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Flow {
    /// It may leave a launch error: a launch, or a call of a function that leaves one pending.
    pub active: bool,
    /// A check that can run after it follows it. Later launches do not hide it: a launch error
    /// stays the last error until something reads it (measured: after a failed launch and two
    /// that started, `cudaGetLastError()` still returns the failure).
    pub checked: bool,
    /// No active event can run after it.
    pub last: bool,
    /// A call that checks the last error (a check helper, a check macro, a configured check).
    pub is_check: bool,
}

#[derive(Debug)]
pub struct FunctionErrors<'t> {
    pub function_index: usize,
    pub name: String,
    pub arity: usize,
    pub events: Vec<ErrorEvent<'t>>,
    checks: Vec<CheckSite>,
    pub returned: Vec<ReturnedCall<'t>>,
    /// Synchronizations whose error code is tested (`CHECK(cudaDeviceSynchronize())`): they
    /// report errors of a kernel's execution, never a launch that did not start.
    pub tested_synchronizations: Vec<Node<'t>>,
    /// It queries the last error and launches nothing: calling it checks.
    pub check_helper: Option<CheckHelper>,
    /// Per event.
    pub flows: Vec<Flow>,
    /// Per event, seeing only the file's own functions (what the file offers the others).
    local_flows: Vec<Flow>,
    /// Its declared result is `void`.
    pub returns_void: bool,
    /// Per event: what its function's callers make of it.
    pub verdicts: Vec<Verdict<'t>>,
    /// Per returned call: what the callers make of the error code.
    pub returned_verdicts: Vec<Verdict<'t>>,
}

/// A call of a function, where the flow found it.
#[derive(Debug, Clone, PartialEq)]
pub enum Site<'t> {
    /// Event `event` of `functions[function]`.
    Local { function: usize, event: usize },
    /// A call in another file of the run.
    Foreign { path: &'t Path, site: &'t CallSite },
}

/// A launch (or a returned CUDA call) that a caller's finding points at.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin<'t> {
    /// Event `item` of `functions[function]`, or its `returned` entry `item` when `returned`.
    Local {
        function: usize,
        item: usize,
        returned: bool,
    },
    Foreign {
        path: &'t Path,
        function: &'t str,
        /// The kernel launched or the CUDA call made.
        name: &'t str,
        line: usize,
        /// A returned error code rather than a launch.
        returned: bool,
    },
}

impl Origin<'_> {
    /// Whether it is a returned error code rather than a launch.
    pub fn is_returned(&self) -> bool {
        match self {
            Origin::Local { returned, .. } | Origin::Foreign { returned, .. } => *returned,
        }
    }
}

/// What an event's function and its callers make of it.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Verdict<'t> {
    /// Nothing to report here: checked in its function, checked by every caller, or a call
    /// that leaves nothing unchecked.
    #[default]
    Fine,
    /// Left to the callers, and none of them checks (`callers` is empty when none is visible).
    NoCallerChecks { callers: Vec<Site<'t>> },
    /// Left to the callers; some check, so the ones that do not carry the finding.
    CallersMissing,
    /// A call that leaves these launches (or returned error codes) unchecked while other callers
    /// check them: the finding is here.
    CallMisses { origins: Vec<Origin<'t>> },
}

/// The error flow of a file's host functions.
#[derive(Debug, Default)]
pub struct ErrorFlow<'t> {
    pub functions: Vec<FunctionErrors<'t>>,
    by_function: HashMap<usize, usize>,
    /// Per event of each function, the local functions and foreign summaries it may call.
    targets: Vec<Vec<Vec<Target<'t>>>>,
    /// Tables and pointers of the file's host functions (`kTable[op](...)`, `fn(...)`): the
    /// functions a call through each may reach.
    aliases: HashMap<String, Vec<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Target<'t> {
    Local(usize),
    Foreign(&'t Path, &'t ErrorSummary),
}

/// A function whose callers are looked for.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Callee<'t> {
    Local(usize),
    Foreign {
        path: &'t Path,
        name: &'t str,
        arity: usize,
        returns_void: bool,
    },
}

/// What is followed up the callers: a pending launch, or a returned error code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Mode {
    Launch,
    Returned,
}

#[derive(Debug, Default, Clone)]
struct Resolution<'t> {
    /// Calls that check (directly or through their own callers).
    checked: usize,
    /// The calls that leave it unchecked, where the finding goes when others check.
    frontier: Vec<Site<'t>>,
    /// The direct callers that do not check themselves.
    unchecked_callers: Vec<Site<'t>>,
    /// Whether any caller is visible.
    any_caller: bool,
}

impl<'t> ErrorFlow<'t> {
    /// The flow of every host function of the model (analysed or not: a function's verdicts
    /// depend on its callers and callees), with the index's functions and calls of other files.
    pub fn build(model: &Model<'t>) -> ErrorFlow<'t> {
        let mut flow = ErrorFlow {
            aliases: dispatch_tables(model),
            ..ErrorFlow::default()
        };
        let mut names: HashSet<&str> = model.functions.iter().map(|f| f.name.as_str()).collect();
        names.extend(flow.aliases.keys().map(String::as_str));
        for (index, function) in model.functions.iter().enumerate() {
            if function.kind != FunctionKind::Host || function.has_parse_errors {
                continue;
            }
            flow.by_function.insert(index, flow.functions.len());
            flow.functions.push(walk_function(model, &names, index));
        }
        flow.resolve_targets(model);
        flow.resolve_flows(model);
        flow.resolve_verdicts(model);
        flow.note_lookups(model);
        flow
    }

    /// The error flow of `model.functions[index]`, when it is a host function.
    pub fn of(&self, function_index: usize) -> Option<&FunctionErrors<'t>> {
        self.functions.get(*self.by_function.get(&function_index)?)
    }
}
