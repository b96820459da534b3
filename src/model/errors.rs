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

use super::host::{
    is_check_name, is_last_error_query, is_returned_among, result_use_among, ResultUse,
};
use super::index::{CallSite, CheckHelper, ErrorSummary, Step, MAX_STEPS};
use super::{FunctionKind, Model};
use crate::syntax::{call_arguments, named_children, strip, text, walk_iterative, NodeExt};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::path::Path;
use tree_sitter::Node;

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

    fn resolve_targets(&mut self, model: &Model<'t>) {
        let defined: HashSet<&str> = model.functions.iter().map(|f| f.name.as_str()).collect();
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::default();
        for (position, function) in self.functions.iter().enumerate() {
            by_name
                .entry(function.name.as_str())
                .or_default()
                .push(position);
        }
        let mut targets = Vec::with_capacity(self.functions.len());
        for function in &self.functions {
            let mut per_event = Vec::with_capacity(function.events.len());
            for event in &function.events {
                if event.kind != EventKind::Call {
                    per_event.push(Vec::new());
                    continue;
                }
                // a call through a table or pointer reaches each function it holds
                if let Some(held) = self.aliases.get(&event.name) {
                    let found = held
                        .iter()
                        .filter_map(|name| by_name.get(name.as_str()))
                        .flatten()
                        .filter(|&&p| self.functions[p].arity == event.arity)
                        .map(|&p| Target::Local(p))
                        .collect();
                    per_event.push(found);
                    continue;
                }
                let local: Vec<usize> = by_name
                    .get(event.name.as_str())
                    .map(|positions| {
                        let exact: Vec<usize> = positions
                            .iter()
                            .copied()
                            .filter(|&p| self.functions[p].arity == event.arity)
                            .collect();
                        if exact.is_empty() {
                            positions
                                .iter()
                                .copied()
                                .filter(|&p| self.functions[p].arity > event.arity)
                                .collect()
                        } else {
                            exact
                        }
                    })
                    .unwrap_or_default();
                // a function the file defines hides any other file's
                let defined_here = defined.contains(event.name.as_str());
                let found: Vec<Target<'t>> = if defined_here {
                    local.into_iter().map(Target::Local).collect()
                } else if !offered_callee(&event.name) {
                    Vec::new()
                } else {
                    model
                        .index
                        .error_functions(&event.name, event.arity, model.path)
                        .into_iter()
                        .map(|(path, summary)| Target::Foreign(path, summary))
                        .collect()
                };
                per_event.push(found);
            }
            targets.push(per_event);
        }
        self.targets = targets;
    }

    fn targets_of(&self, function: usize, event: usize) -> &[Target<'t>] {
        self.targets
            .get(function)
            .and_then(|t| t.get(event))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// The targets of an event, those of other files left out unless `foreign`.
    fn targets_seen(
        &self,
        function: usize,
        event: usize,
        foreign: bool,
    ) -> impl Iterator<Item = Target<'t>> + '_ {
        self.targets_of(function, event)
            .iter()
            .copied()
            .filter(move |t| foreign || matches!(t, Target::Local(_)))
    }

    /// Whether whatever wraps an event may check what it leaves: a launch inside a macro or an
    /// expression, a call passed to a check when the callee returns nothing (a macro that runs
    /// its argument and then checks; a callee returning an error code hands the check that code,
    /// which says nothing of a launch it made).
    fn handled(&self, function: usize, event: usize, foreign: bool) -> bool {
        let Some(e) = self
            .functions
            .get(function)
            .and_then(|f| f.events.get(event))
        else {
            return false;
        };
        match e.kind {
            EventKind::Launch => e.wrapped,
            EventKind::Call => {
                e.wrapped
                    && self
                        .targets_seen(function, event, foreign)
                        .all(|t| match t {
                            Target::Local(p) => {
                                self.functions.get(p).is_some_and(|f| f.returns_void)
                            }
                            Target::Foreign(_, summary) => summary.returns_void,
                        })
            }
        }
    }

    /// Whether a call event checks the last error.
    fn is_check(&self, model: &Model<'t>, function: usize, event: usize, foreign: bool) -> bool {
        let Some(e) = self
            .functions
            .get(function)
            .and_then(|f| f.events.get(event))
        else {
            return false;
        };
        if e.kind != EventKind::Call {
            return false;
        }
        if model.check_macros.contains(&e.name) {
            return true;
        }
        let targets: Vec<Target<'t>> = self.targets_seen(function, event, foreign).collect();
        if targets.is_empty() {
            let macro_checks = model.view.last_error_macros.binary_search(&e.name).is_ok();
            return macro_checks || (e.check_named && e.literal_arguments);
        }
        let result_tested = e.result == ResultUse::Checked;
        targets.iter().any(|t| {
            let helper = match t {
                Target::Local(p) => self.functions.get(*p).and_then(|f| f.check_helper),
                Target::Foreign(_, summary) => summary.check_helper,
            };
            match helper {
                Some(CheckHelper::Reports) => true,
                Some(CheckHelper::Returns) => result_tested,
                None => false,
            }
        })
    }

    fn resolve_flows(&mut self, model: &Model<'t>) {
        let with_foreign = self.flows_seeing(model, true);
        let any_foreign = self
            .targets
            .iter()
            .flatten()
            .flatten()
            .any(|t| matches!(t, Target::Foreign(..)));
        // what the file offers others rests on its own functions only, as in a run that sees
        // no other file: the index is built from those offers
        let local = if any_foreign {
            self.flows_seeing(model, false)
        } else {
            with_foreign.clone()
        };
        for (errors, (flows, local)) in self
            .functions
            .iter_mut()
            .zip(with_foreign.into_iter().zip(local))
        {
            errors.flows = flows;
            errors.local_flows = local;
        }
    }

    /// Every function's flows, seeing other files' functions or not.
    fn flows_seeing(&self, model: &Model<'t>, foreign: bool) -> Vec<Vec<Flow>> {
        let count = self.functions.len();
        let is_check: Vec<Vec<bool>> = (0..count)
            .map(|function| {
                (0..self.functions[function].events.len())
                    .map(|e| self.is_check(model, function, e, foreign))
                    .collect()
            })
            .collect();
        let mut state = vec![State::Unvisited; count];
        (0..count)
            .map(|function| {
                self.flows_with(
                    function,
                    &is_check,
                    foreign,
                    &mut |this, target| match target {
                        Target::Local(p) => this.pending(p, &is_check, foreign, &mut state, 0),
                        Target::Foreign(_, summary) => !summary.pending.is_empty(),
                    },
                )
            })
            .collect()
    }

    /// Whether local function `function` leaves a launch pending for its callers.
    fn pending(
        &self,
        function: usize,
        is_check: &[Vec<bool>],
        foreign: bool,
        state: &mut [State],
        depth: usize,
    ) -> bool {
        match state.get(function) {
            Some(State::Done(pending)) => return *pending,
            Some(State::InProgress) | None => return false,
            Some(State::Unvisited) => {}
        }
        if depth > MAX_CALLEE_DEPTH {
            return false;
        }
        state[function] = State::InProgress;
        let flows = self.flows_with(
            function,
            is_check,
            foreign,
            &mut |this, target| match target {
                Target::Local(p) => this.pending(p, is_check, foreign, state, depth + 1),
                Target::Foreign(_, summary) => !summary.pending.is_empty(),
            },
        );
        let pending = flows
            .iter()
            .enumerate()
            .any(|(e, flow)| flow.active && !flow.checked && !self.handled(function, e, foreign));
        state[function] = State::Done(pending);
        pending
    }

    /// The flows of a function's events, given whether each target leaves a launch pending.
    fn flows_with(
        &self,
        function: usize,
        is_check: &[Vec<bool>],
        foreign: bool,
        target_pending: &mut dyn FnMut(&Self, Target<'t>) -> bool,
    ) -> Vec<Flow> {
        let errors = &self.functions[function];
        let checks_here = is_check.get(function);
        let mut flows: Vec<Flow> = errors
            .events
            .iter()
            .enumerate()
            .map(|(e, event)| {
                let is_check = checks_here.and_then(|c| c.get(e)).copied().unwrap_or(false);
                let active = match event.kind {
                    EventKind::Launch => true,
                    EventKind::Call => {
                        !is_check
                            && self
                                .targets_seen(function, e, foreign)
                                .any(|t| target_pending(self, t))
                    }
                };
                Flow {
                    active,
                    is_check,
                    ..Flow::default()
                }
            })
            .collect();
        // every check position: the static ones and the calls that check
        let mut checks: Vec<(usize, &Arms)> =
            errors.checks.iter().map(|c| (c.at, &c.arms)).collect();
        for (e, flow) in flows.iter().enumerate() {
            if flow.is_check {
                let event = &errors.events[e];
                checks.push((event.node.start_byte(), &event.arms));
            }
        }
        for e in 0..errors.events.len() {
            let event = &errors.events[e];
            let end = event.node.end_byte();
            let next = errors
                .events
                .iter()
                .enumerate()
                .skip(e + 1)
                .filter(|(other, _)| flows[*other].active)
                .map(|(_, other)| other)
                .find(|other| {
                    other.node.start_byte() >= end
                        && can_follow(event, other.node.start_byte(), &other.arms)
                })
                .map(|other| other.node.start_byte());
            let checked = checks
                .iter()
                .any(|(at, arms)| *at >= end && can_follow(event, *at, arms));
            flows[e].checked = checked;
            flows[e].last = next.is_none();
        }
        flows
    }

    fn resolve_verdicts(&mut self, model: &Model<'t>) {
        // callers of each local function, in this file
        let mut local_callers: Vec<Vec<(usize, usize)>> = vec![Vec::new(); self.functions.len()];
        for (function, per_event) in self.targets.iter().enumerate() {
            for (event, targets) in per_event.iter().enumerate() {
                for target in targets {
                    if let Target::Local(callee) = target {
                        if let Some(callers) = local_callers.get_mut(*callee) {
                            callers.push((function, event));
                        }
                    }
                }
            }
        }
        let resolver = Resolver {
            flow: self,
            model,
            local_callers: &local_callers,
        };
        let mut verdicts: Vec<Vec<Verdict<'t>>> = Vec::with_capacity(self.functions.len());
        let mut returned_verdicts: Vec<Vec<Verdict<'t>>> = Vec::with_capacity(self.functions.len());
        let mut misses: HashMap<(usize, usize), Vec<Origin<'t>>> = HashMap::default();
        let mut memo: HashMap<(usize, Mode), Resolution<'t>> = HashMap::default();
        for (function, errors) in self.functions.iter().enumerate() {
            let mut per_event = Vec::with_capacity(errors.events.len());
            for (e, event) in errors.events.iter().enumerate() {
                let flow = errors.flows.get(e).copied().unwrap_or_default();
                if event.kind != EventKind::Launch || flow.checked || event.wrapped {
                    per_event.push(Verdict::Fine);
                    continue;
                }
                let resolution = memo
                    .entry((function, Mode::Launch))
                    .or_insert_with(|| resolver.resolve(Callee::Local(function), Mode::Launch))
                    .clone();
                let origin = Origin::Local {
                    function,
                    item: e,
                    returned: false,
                };
                per_event.push(resolver.verdict(resolution, origin, &mut misses));
            }
            verdicts.push(per_event);
            let mut per_returned = Vec::with_capacity(errors.returned.len());
            for item in 0..errors.returned.len() {
                let resolution = memo
                    .entry((function, Mode::Returned))
                    .or_insert_with(|| resolver.resolve(Callee::Local(function), Mode::Returned))
                    .clone();
                let origin = Origin::Local {
                    function,
                    item,
                    returned: true,
                };
                let verdict = match resolver.verdict(resolution, origin, &mut misses) {
                    // a returned error code with no caller in sight is handled, as before
                    Verdict::NoCallerChecks { callers } if callers.is_empty() => Verdict::Fine,
                    other => other,
                };
                per_returned.push(verdict);
            }
            returned_verdicts.push(per_returned);
        }
        // launches and returned codes of other files' functions that this file's calls leave
        // unchecked while other callers check them
        let mut foreign_memo: HashMap<(&Path, &str, usize, Mode), Resolution<'t>> =
            HashMap::default();
        for (function, per_event) in self.targets.iter().enumerate() {
            for (event, targets) in per_event.iter().enumerate() {
                for target in targets {
                    let Target::Foreign(path, summary) = *target else {
                        continue;
                    };
                    let callee = Callee::Foreign {
                        path,
                        name: &summary.name,
                        arity: summary.arity,
                        returns_void: summary.returns_void,
                    };
                    for (items, mode) in [
                        (&summary.pending, Mode::Launch),
                        (&summary.returned, Mode::Returned),
                    ] {
                        if items.is_empty() {
                            continue;
                        }
                        let key = (path, summary.name.as_str(), summary.arity, mode);
                        let resolution = foreign_memo
                            .entry(key)
                            .or_insert_with(|| resolver.resolve(callee, mode));
                        if resolution.checked == 0 {
                            continue;
                        }
                        let site = Site::Local { function, event };
                        if !resolution.frontier.contains(&site) {
                            continue;
                        }
                        let entry = misses.entry((function, event)).or_default();
                        for (name, line) in items {
                            entry.push(Origin::Foreign {
                                path,
                                function: &summary.name,
                                name,
                                line: *line,
                                returned: mode == Mode::Returned,
                            });
                        }
                    }
                }
            }
        }
        for ((function, event), mut origins) in misses {
            origins.dedup();
            if let Some(slot) = verdicts.get_mut(function).and_then(|v| v.get_mut(event)) {
                *slot = Verdict::CallMisses { origins };
            }
        }
        for (errors, (verdicts, returned)) in self
            .functions
            .iter_mut()
            .zip(verdicts.into_iter().zip(returned_verdicts))
        {
            errors.verdicts = verdicts;
            errors.returned_verdicts = returned;
        }
    }

    /// What the file looks up in the index: host functions it calls but does not define, and
    /// its own functions whose verdicts depend on callers.
    fn note_lookups(&self, model: &Model<'t>) {
        let defined: HashSet<&str> = model.functions.iter().map(|f| f.name.as_str()).collect();
        let mut callees: HashSet<&str> = HashSet::default();
        let mut lookups = model.lookups.borrow_mut();
        for errors in &self.functions {
            for event in &errors.events {
                if event.kind == EventKind::Call
                    && offered_callee(&event.name)
                    && !defined.contains(event.name.as_str())
                    && callees.insert(event.name.as_str())
                {
                    lookups.callees.push(event.name.clone());
                }
            }
            let relevant = errors.pending_here(false) || !errors.returned.is_empty();
            if relevant && !lookups.called.contains(&errors.name) {
                lookups.called.push(errors.name.clone());
            }
        }
    }

    /// What the file offers other files: its relevant functions and its calls.
    pub fn offers(&self, model: &Model<'t>) -> (Vec<ErrorSummary>, Vec<CallSite>) {
        let line = |node: Node| model.lines.line_of(node.start_byte()) + 1;
        let mut summaries = Vec::new();
        for (position, errors) in self.functions.iter().enumerate() {
            let pending: Vec<(String, usize)> = self
                .pending_origins(position, 0, false)
                .into_iter()
                .filter_map(|origin| match origin {
                    Origin::Local { function, item, .. } => {
                        let event = self.functions.get(function)?.events.get(item)?;
                        Some((event.name.clone(), line(event.node)))
                    }
                    Origin::Foreign { name, line, .. } => Some((name.to_string(), line)),
                })
                .collect();
            let returned: Vec<(String, usize)> = errors
                .returned
                .iter()
                .map(|r| (r.name.clone(), line(r.node)))
                .collect();
            if pending.is_empty() && returned.is_empty() && errors.check_helper.is_none() {
                continue;
            }
            summaries.push(ErrorSummary {
                name: errors.name.clone(),
                arity: errors.arity,
                pending,
                check_helper: errors.check_helper,
                returned,
                returns_void: errors.returns_void,
            });
        }
        // calls out of the file, and calls of the file's functions that lead to them
        let defined: HashSet<&str> = model.functions.iter().map(|f| f.name.as_str()).collect();
        let mut leads_out = vec![false; self.functions.len()];
        loop {
            let mut changed = false;
            for (position, errors) in self.functions.iter().enumerate() {
                if leads_out[position] {
                    continue;
                }
                let out = errors.events.iter().enumerate().any(|(e, event)| {
                    event.kind == EventKind::Call
                        && ((!defined.contains(event.name.as_str()) && offered_callee(&event.name))
                            || self
                                .targets_of(position, e)
                                .iter()
                                .any(|t| matches!(t, Target::Local(p) if leads_out[*p])))
                });
                if out {
                    leads_out[position] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut calls = Vec::new();
        for (position, errors) in self.functions.iter().enumerate() {
            for (e, event) in errors.events.iter().enumerate() {
                if event.kind != EventKind::Call {
                    continue;
                }
                let outside = !defined.contains(event.name.as_str()) && offered_callee(&event.name);
                let relevant_local = self.targets_of(position, e).iter().any(|t| match t {
                    Target::Local(p) => {
                        leads_out[*p]
                            || self
                                .functions
                                .get(*p)
                                .is_some_and(|f| f.pending_here(false) || !f.returned.is_empty())
                    }
                    Target::Foreign(..) => false,
                });
                if !outside && !relevant_local {
                    continue;
                }
                let (following, launch_follows) =
                    self.following_steps(model, position, e, &defined);
                calls.push(CallSite {
                    callee: event.name.clone(),
                    arity: event.arity,
                    caller: errors.name.clone(),
                    caller_arity: errors.arity,
                    line: line(event.node),
                    following,
                    launch_follows,
                    wrapped: event.wrapped,
                    caller_returns_void: errors.returns_void,
                    result_checked: !event.returned
                        && matches!(
                            event.result,
                            ResultUse::Checked | ResultUse::DeliberatelyDiscarded
                        ),
                    returned: event.returned,
                });
            }
        }
        (summaries, calls)
    }

    /// What can run after event `e` of `functions[function]`, as the file alone knows it: checks,
    /// and calls of functions it does not define, up to its first launch (or call of its own
    /// functions that may launch). Whether a launch follows.
    fn following_steps(
        &self,
        model: &Model<'t>,
        function: usize,
        e: usize,
        defined: &HashSet<&str>,
    ) -> (Vec<Step>, bool) {
        let Some(errors) = self.functions.get(function) else {
            return (Vec::new(), false);
        };
        let Some(event) = errors.events.get(e) else {
            return (Vec::new(), false);
        };
        let end = event.node.end_byte();
        let mut items: Vec<(usize, Option<Step>)> = Vec::new();
        for check in &errors.checks {
            if check.at >= end && can_follow(event, check.at, &check.arms) {
                items.push((check.at, Some(Step::Check)));
            }
        }
        for (o, other) in errors.events.iter().enumerate().skip(e + 1) {
            let at = other.node.start_byte();
            if at < end || !can_follow(event, at, &other.arms) {
                continue;
            }
            let flow = errors.local_flows.get(o).copied().unwrap_or_default();
            let outside = other.kind == EventKind::Call
                && !defined.contains(other.name.as_str())
                && offered_callee(&other.name);
            if outside {
                items.push((
                    at,
                    Some(Step::Call {
                        callee: other.name.clone(),
                        arity: other.arity,
                        result_tested: other.result == ResultUse::Checked,
                        configured: model.check_macros.contains(&other.name),
                        checks_undefined: flow.is_check,
                    }),
                ));
            } else if flow.is_check {
                items.push((at, Some(Step::Check)));
            } else if flow.active {
                items.push((at, None));
            }
        }
        items.sort_by_key(|(at, _)| *at);
        let mut steps = Vec::new();
        // a later launch does not hide the error from a check after it: it is read on
        let mut launch_follows = false;
        for (_, item) in items {
            let Some(step) = item else {
                launch_follows = true;
                continue;
            };
            if steps.len() == MAX_STEPS {
                steps.push(Step::More);
                return (steps, launch_follows);
            }
            steps.push(step);
        }
        (steps, launch_follows)
    }

    /// The launches a local function leaves pending for its callers: its own, and those of the
    /// functions it calls last without checking.
    pub fn pending_origins(&self, function: usize, depth: usize, foreign: bool) -> Vec<Origin<'t>> {
        let mut found = Vec::new();
        let Some(errors) = self.functions.get(function) else {
            return found;
        };
        if depth > MAX_CALLEE_DEPTH {
            return found;
        }
        let flows = if foreign {
            &errors.flows
        } else {
            &errors.local_flows
        };
        for (e, event) in errors.events.iter().enumerate() {
            let flow = flows.get(e).copied().unwrap_or_default();
            let unchecked_to_the_end = flow.active && !flow.checked;
            if !unchecked_to_the_end || self.handled(function, e, foreign) {
                continue;
            }
            match event.kind {
                EventKind::Launch => found.push(Origin::Local {
                    function,
                    item: e,
                    returned: false,
                }),
                EventKind::Call => {
                    for target in self.targets_seen(function, e, foreign) {
                        match target {
                            Target::Local(callee) if callee != function => {
                                found.extend(self.pending_origins(callee, depth + 1, foreign))
                            }
                            Target::Local(_) => {}
                            Target::Foreign(path, summary) => {
                                found.extend(summary.pending.iter().map(|(name, line)| {
                                    Origin::Foreign {
                                        path,
                                        function: &summary.name,
                                        name,
                                        line: *line,
                                        returned: false,
                                    }
                                }))
                            }
                        }
                    }
                }
            }
        }
        found.dedup();
        found
    }

    /// A fingerprint of what the verdicts of `function_index`'s events read outside its text:
    /// the language server reuses the function's findings only while it is the same.
    pub fn fingerprint(&self, model: &Model<'t>, function_index: usize) -> u64 {
        let mut hasher = rustc_hash::FxHasher::default();
        let Some(errors) = self.of(function_index) else {
            return 0;
        };
        let start = model
            .functions
            .get(function_index)
            .map_or(0, |f| f.definition.start_byte());
        let relative = |node: Node| node.start_byte().saturating_sub(start);
        for (flow, verdict) in errors.flows.iter().zip(&errors.verdicts) {
            (flow.active, flow.checked, flow.last, flow.is_check).hash(&mut hasher);
            self.hash_verdict(model, verdict, &mut hasher);
        }
        for verdict in &errors.returned_verdicts {
            self.hash_verdict(model, verdict, &mut hasher);
        }
        for event in &errors.events {
            relative(event.node).hash(&mut hasher);
        }
        hasher.finish()
    }

    fn hash_verdict(&self, model: &Model<'t>, verdict: &Verdict<'t>, hasher: &mut impl Hasher) {
        std::mem::discriminant(verdict).hash(hasher);
        match verdict {
            Verdict::NoCallerChecks { callers } => {
                for site in callers {
                    match site {
                        Site::Local { function, event } => {
                            self.hash_local(model, *function, *event, false, hasher)
                        }
                        Site::Foreign { path, site } => {
                            path.hash(hasher);
                            site.hash(hasher);
                        }
                    }
                }
            }
            Verdict::CallMisses { origins } => {
                for origin in origins {
                    match origin {
                        Origin::Local {
                            function,
                            item,
                            returned,
                        } => self.hash_local(model, *function, *item, *returned, hasher),
                        Origin::Foreign {
                            path,
                            function,
                            name,
                            line,
                            returned,
                        } => (path, function, name, line, returned).hash(hasher),
                    }
                }
            }
            Verdict::Fine | Verdict::CallersMissing => {}
        }
    }

    /// A local event (or returned call) by its function's name and its place in that function.
    fn hash_local(
        &self,
        model: &Model<'t>,
        function: usize,
        item: usize,
        returned: bool,
        hasher: &mut impl Hasher,
    ) {
        let Some(errors) = self.functions.get(function) else {
            return;
        };
        let start = model
            .functions
            .get(errors.function_index)
            .map_or(0, |f| f.definition.start_byte());
        errors.name.hash(hasher);
        errors.arity.hash(hasher);
        let (node, name) = if returned {
            let r = errors.returned.get(item);
            (r.map(|r| r.node), r.map(|r| r.name.as_str()))
        } else {
            let e = errors.events.get(item);
            (e.map(|e| e.node), e.map(|e| e.name.as_str()))
        };
        (returned, name).hash(hasher);
        if let Some(node) = node {
            node.start_byte().saturating_sub(start).hash(hasher);
        }
    }

    /// The names of the file's functions that `function_index`'s verdicts point into.
    pub fn reads(&self, function_index: usize) -> Vec<String> {
        let mut names = Vec::new();
        let Some(errors) = self.of(function_index) else {
            return names;
        };
        for verdict in errors.verdicts.iter().chain(&errors.returned_verdicts) {
            match verdict {
                Verdict::NoCallerChecks { callers } => {
                    for site in callers {
                        if let Site::Local { function, .. } = site {
                            if let Some(f) = self.functions.get(*function) {
                                names.push(f.name.clone());
                            }
                        }
                    }
                }
                Verdict::CallMisses { origins } => {
                    for origin in origins {
                        if let Origin::Local { function, .. } = origin {
                            if let Some(f) = self.functions.get(*function) {
                                names.push(f.name.clone());
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        names.sort_unstable();
        names.dedup();
        names
    }
}

impl FunctionErrors<'_> {
    /// Whether one of its own launches, or a call of its file's functions, may leave a launch
    /// pending for its callers (seeing other files' functions when `foreign`).
    fn pending_here(&self, foreign: bool) -> bool {
        let flows = if foreign {
            &self.flows
        } else {
            &self.local_flows
        };
        flows.iter().zip(&self.events).any(|(flow, event)| {
            flow.active && !flow.checked && !(event.kind == EventKind::Launch && event.wrapped)
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Unvisited,
    InProgress,
    Done(bool),
}

/// Follows a function's callers up, in this file and through the index.
struct Resolver<'a, 't> {
    flow: &'a ErrorFlow<'t>,
    model: &'a Model<'t>,
    local_callers: &'a [Vec<(usize, usize)>],
}

impl<'t> Resolver<'_, 't> {
    fn resolve(&self, callee: Callee<'t>, mode: Mode) -> Resolution<'t> {
        let mut resolution = Resolution::default();
        let mut visited = Vec::new();
        self.climb(callee, mode, 1, &mut visited, &mut resolution, true);
        resolution
    }

    /// The visible calls of `callee`.
    fn callers(&self, callee: Callee<'t>) -> Vec<Site<'t>> {
        let mut sites = Vec::new();
        match callee {
            Callee::Local(function) => {
                for &(caller, event) in self.local_callers.get(function).into_iter().flatten() {
                    sites.push(Site::Local {
                        function: caller,
                        event,
                    });
                }
                if let Some(errors) = self.flow.functions.get(function) {
                    for (path, site) in
                        self.model
                            .index
                            .callers(&errors.name, errors.arity, self.model.path)
                    {
                        if path != self.model.path {
                            sites.push(Site::Foreign { path, site });
                        }
                    }
                }
            }
            Callee::Foreign {
                path, name, arity, ..
            } => {
                // this file's calls of it, from its own facts
                for (function, per_event) in self.flow.targets.iter().enumerate() {
                    for (event, targets) in per_event.iter().enumerate() {
                        let calls_it = targets.iter().any(|t| {
                            matches!(t, Target::Foreign(p, s) if *p == path && s.name == name && s.arity == arity)
                        });
                        if calls_it {
                            sites.push(Site::Local { function, event });
                        }
                    }
                }
                for (from, site) in self.model.index.callers(name, arity, path) {
                    if from != self.model.path {
                        sites.push(Site::Foreign { path: from, site });
                    }
                }
            }
        }
        sites
    }

    fn climb(
        &self,
        callee: Callee<'t>,
        mode: Mode,
        depth: usize,
        visited: &mut Vec<Callee<'t>>,
        resolution: &mut Resolution<'t>,
        direct: bool,
    ) {
        if visited.contains(&callee) {
            return;
        }
        visited.push(callee);
        for site in self.callers(callee) {
            if direct {
                resolution.any_caller = true;
            }
            let (checked, passes_up, up) = self.site_facts(&site, mode, self.returns_void(callee));
            if checked {
                resolution.checked += 1;
                continue;
            }
            if direct {
                resolution.unchecked_callers.push(site.clone());
            }
            let climbs = passes_up
                && depth < MAX_CALLER_DEPTH
                && up.is_some_and(|up| !self.callers(up).is_empty() && !visited.contains(&up));
            match (climbs, up) {
                (true, Some(up)) => self.climb(up, mode, depth + 1, visited, resolution, false),
                _ => resolution.frontier.push(site),
            }
        }
    }

    /// Whether a call checks, whether it passes what it is given on to its own caller (a
    /// launch: it is the caller's last event; a code: it is returned), and that caller.
    /// Whether a call of another file is checked (a check comes before anything that may
    /// launch) and last (nothing that may launch follows), its steps read with what the index
    /// says of the functions they call.
    fn follow_steps(&self, path: &Path, site: &CallSite) -> (bool, bool) {
        let mut checked = false;
        for step in &site.following {
            let checks = match step {
                Step::Check => true,
                // past the steps kept, anything may follow, a check included
                Step::More => true,
                Step::Call {
                    callee,
                    arity,
                    result_tested,
                    configured,
                    checks_undefined,
                } => {
                    let found = self.model.index.error_functions(callee, *arity, path);
                    if *configured {
                        true
                    } else if found.is_empty() {
                        *checks_undefined
                    } else {
                        found.iter().any(|(_, s)| match s.check_helper {
                            Some(CheckHelper::Reports) => true,
                            Some(CheckHelper::Returns) => *result_tested,
                            None => false,
                        })
                    }
                }
            };
            checked |= checks;
        }
        // unchecked, the error passes on to the caller's callers whatever follows
        (checked, true)
    }

    fn returns_void(&self, callee: Callee<'t>) -> bool {
        match callee {
            Callee::Local(function) => self
                .flow
                .functions
                .get(function)
                .is_some_and(|f| f.returns_void),
            Callee::Foreign { returns_void, .. } => returns_void,
        }
    }

    fn site_facts(
        &self,
        site: &Site<'t>,
        mode: Mode,
        callee_returns_void: bool,
    ) -> (bool, bool, Option<Callee<'t>>) {
        match site {
            Site::Local { function, event } => {
                let Some(errors) = self.flow.functions.get(*function) else {
                    return (false, false, None);
                };
                let flow = errors.flows.get(*event).copied().unwrap_or_default();
                let Some(e) = errors.events.get(*event) else {
                    return (false, false, None);
                };
                let (checked, passes) = match mode {
                    Mode::Launch => (flow.checked || (e.wrapped && callee_returns_void), true),
                    Mode::Returned => (
                        !e.returned
                            && matches!(
                                e.result,
                                ResultUse::Checked | ResultUse::DeliberatelyDiscarded
                            ),
                        e.returned,
                    ),
                };
                (checked, passes, Some(Callee::Local(*function)))
            }
            Site::Foreign { path, site } => {
                let (checked, passes) = match mode {
                    Mode::Launch => {
                        let (checked, last) = self.follow_steps(path, site);
                        (checked || (site.wrapped && callee_returns_void), last)
                    }
                    Mode::Returned => (site.result_checked, site.returned),
                };
                (
                    checked,
                    passes,
                    Some(Callee::Foreign {
                        path,
                        name: &site.caller,
                        arity: site.caller_arity,
                        returns_void: site.caller_returns_void,
                    }),
                )
            }
        }
    }

    /// The verdict of a launch or returned code left to the callers; records, per frontier call
    /// of this file, what it misses.
    fn verdict(
        &self,
        resolution: Resolution<'t>,
        origin: Origin<'t>,
        misses: &mut HashMap<(usize, usize), Vec<Origin<'t>>>,
    ) -> Verdict<'t> {
        if !resolution.any_caller {
            return Verdict::NoCallerChecks {
                callers: Vec::new(),
            };
        }
        if resolution.frontier.is_empty() {
            return Verdict::Fine;
        }
        if resolution.checked == 0 {
            return Verdict::NoCallerChecks {
                callers: resolution.unchecked_callers,
            };
        }
        for site in &resolution.frontier {
            if let Site::Local { function, event } = site {
                misses
                    .entry((*function, *event))
                    .or_default()
                    .push(origin.clone());
            }
        }
        Verdict::CallersMissing
    }
}

/// Whether what sits at `at` (in `arms`) can run after `event`: not in another arm of a branch
/// that holds the event, and inside the block a `return` after the event ends.
fn can_follow(event: &ErrorEvent, at: usize, arms: &Arms) -> bool {
    if event
        .exits_within
        .as_ref()
        .is_some_and(|block| !(block.start <= at && at < block.end))
    {
        return false;
    }
    !event
        .arms
        .iter()
        .any(|(branch, arm)| arms.iter().any(|(b, a)| b == branch && a != arm))
}

/// Calls worth offering other files: not the C and C++ libraries, CUDA's or common frameworks'.
fn offered_callee(name: &str) -> bool {
    const LIBRARY: &[&str] = &[
        "printf",
        "fprintf",
        "sprintf",
        "snprintf",
        "puts",
        "fputs",
        "malloc",
        "calloc",
        "realloc",
        "free",
        "memcpy",
        "memset",
        "memcmp",
        "exit",
        "abort",
        "assert",
        "rand",
        "srand",
        "fopen",
        "fclose",
        "fread",
        "fwrite",
        "fscanf",
        "fgets",
        "sscanf",
        "atoi",
        "atof",
        "atol",
        "strtol",
        "strtoul",
        "strtod",
        "strcmp",
        "strncmp",
        "strlen",
        "strcpy",
        "sqrt",
        "sqrtf",
        "exp",
        "expf",
        "log",
        "logf",
        "pow",
        "powf",
        "fabs",
        "fabsf",
        "abs",
        "min",
        "max",
        "floor",
        "ceil",
        "sin",
        "cos",
        "time",
        "clock",
        "gettimeofday",
        "swap",
        "make_pair",
        "move",
        "forward",
        "size",
        "data",
        "begin",
        "end",
        "push_back",
        "emplace_back",
        "resize",
        "reserve",
        "clear",
        "at",
        "get",
        "reset",
        "fill",
        "copy",
        "sort",
        "accumulate",
        "to_string",
        "c_str",
        "str",
        "getenv",
        "perror",
        "fflush",
        "srand48",
        "drand48",
        "numel",
        "size_t",
        "sizeof",
        "dim3",
    ];
    let bytes = name.as_bytes();
    let api = |prefix: &str| {
        name.starts_with(prefix)
            && bytes
                .get(prefix.len())
                .is_some_and(|b| b.is_ascii_uppercase())
    };
    !(LIBRARY.contains(&name)
        || crate::model::runtime::is_library_function(name)
        || ["cuda", "cu", "hip", "nvrtc", "sdk"].iter().any(|p| api(p)))
}

/// Variables that hold the file's host functions: a table (`const Launcher kTable[] = {fa,
/// fb};`) or a pointer (`auto fn = half ? fa : fb;`, `fn = &fa;`), by name, with the functions
/// each may hold.
fn dispatch_tables(model: &Model) -> HashMap<String, Vec<String>> {
    let source = model.source;
    let root = model.tree.root_node();
    let mut tables: HashMap<String, Vec<String>> = HashMap::default();
    let mut seen: HashSet<&str> = HashSet::default();
    for function in &model.functions {
        if function.kind != FunctionKind::Host || !seen.insert(function.name.as_str()) {
            continue;
        }
        let name = function.name.as_str();
        for (at, _) in source.match_indices(name) {
            let end = at + name.len();
            let bytes = source.as_bytes();
            let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
            if at > 0 && bytes.get(at - 1).copied().is_some_and(word)
                || bytes.get(end).copied().is_some_and(word)
            {
                continue;
            }
            let next = source[end..].trim_start().chars().next();
            if matches!(next, Some('(') | Some('<')) {
                continue; // a call, or a template's arguments
            }
            let Some(identifier) = root
                .descendant_for_byte_range(at, end)
                .filter(|n| n.node_kind() == "identifier")
            else {
                continue;
            };
            if let Some(holder) = holder_of(identifier, source) {
                let held = tables.entry(holder).or_default();
                if !held.iter().any(|h| h == name) {
                    held.push(name.to_string());
                }
            }
        }
    }
    tables
}

/// The variable a function's name is stored in: the declaration or assignment around it,
/// through an initializer list, `&`, `?:` and parentheses.
fn holder_of(identifier: Node, source: &str) -> Option<String> {
    let mut node = identifier;
    for _ in 0..8 {
        let parent = node.up()?;
        match parent.node_kind() {
            "initializer_list"
            | "pointer_expression"
            | "parenthesized_expression"
            | "conditional_expression"
            | "cast_expression"
            | "initializer_pair" => node = parent,
            "init_declarator" => {
                let declarator = parent.field("declarator")?;
                let name = crate::syntax::declarator_name(declarator)?;
                return Some(text(name, source).to_string());
            }
            "assignment_expression" => {
                let left = strip(parent.field("left")?, source);
                return (left.node_kind() == "identifier").then(|| text(left, source).to_string());
            }
            _ => return None,
        }
    }
    None
}

/// Namespaces of libraries, whose functions are no project's.
const LIBRARY_NAMESPACES: &[&str] = &[
    "std",
    "chrono",
    "thrust",
    "cub",
    "hipcub",
    "at",
    "torch",
    "c10",
    "cutlass",
    "cute",
    "Eigen",
    "cooperative_groups",
    "cg",
    "nvcuda",
    "wmma",
    "mma",
    "py",
    "pybind11",
    "boost",
    "fmt",
];

/// The name a call calls when it may be one of the project's functions: `f`, `ns::f`, `f<T>`,
/// `object.f` (a method, looked for in the file only); None for library namespaces.
fn project_call_name<'t>(call: Node<'t>, source: &'t str) -> Option<&'t str> {
    let function = call.field("function")?;
    if function.node_kind() == "qualified_identifier" {
        let scope = function
            .field("scope")
            .map(|s| text(s, source))
            .unwrap_or("");
        let outer = scope.split("::").next().unwrap_or("").trim();
        if LIBRARY_NAMESPACES.contains(&outer) {
            return None;
        }
    }
    call_name(call, source)
}

/// Whether a call is a method call (`object.f(...)`, `pointer->f(...)`).
fn is_method_call(call: Node) -> bool {
    call.field("function")
        .is_some_and(|f| f.node_kind() == "field_expression")
}

/// The name a call calls: `f`, `ns::f`, `f<T>`, `object.f`, `pointer->f`.
fn call_name<'t>(call: Node<'t>, source: &'t str) -> Option<&'t str> {
    let mut function = call.field("function")?;
    for _ in 0..4 {
        match function.node_kind() {
            "identifier" | "field_identifier" => return Some(text(function, source)),
            "qualified_identifier" | "template_function" => function = function.field("name")?,
            "field_expression" => function = function.field("field")?,
            // through a table or a pointer: `kTable[op](...)`, `(*fn)(...)`
            "subscript_expression" => function = function.field("argument")?,
            "parenthesized_expression" | "pointer_expression" => {
                function = strip(function, source);
                if function.node_kind() == "pointer_expression" {
                    function = function.field("argument")?;
                }
            }
            _ => return None,
        }
    }
    None
}

/// A project's check named like the runtime (`cudaCheckError()`, `cudaSafeCall(...)`), not one
/// of the runtime's own calls (`cudaGetErrorString`, `cudaStreamAddCallback`).
fn project_check(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    upper.contains("CHECK")
        || upper.contains("SAFE")
        || (upper.contains("ERR") && !upper.contains("GETERROR"))
}

fn is_cuda_or_hip_api(name: &str) -> bool {
    let bytes = name.as_bytes();
    let upper_after = |prefix: usize| bytes.get(prefix).is_some_and(|b| b.is_ascii_uppercase());
    (name.starts_with("cuda") && upper_after(4))
        || (name.starts_with("cu") && upper_after(2))
        || (name.starts_with("hip") && upper_after(3))
}

/// CUDA calls that return no error code, or whose return is not an error to check.
fn returns_no_error(name: &str) -> bool {
    is_last_error_query(name)
        || matches!(
            crate::model::runtime::cuda_name(name).as_ref(),
            "cudaGetErrorString" | "cudaGetErrorName" | "cudaCreateChannelDesc"
        )
}

fn is_literal(node: Node, source: &str) -> bool {
    match node.node_kind() {
        "string_literal"
        | "concatenated_string"
        | "raw_string_literal"
        | "number_literal"
        | "char_literal"
        | "true"
        | "false" => true,
        "identifier" => matches!(
            text(node, source),
            "__FILE__" | "__LINE__" | "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__"
        ),
        _ => false,
    }
}

/// One node of the walk's ancestry.
struct Frame<'t> {
    node: Node<'t>,
    /// For a branch: its arms' ranges (an arm index per `case`, cases that fall through share
    /// one).
    arms: Vec<(Range<usize>, usize)>,
}

fn branch_arms(node: Node) -> Vec<(Range<usize>, usize)> {
    match node.node_kind() {
        "if_statement" | "conditional_expression" => ["consequence", "alternative"]
            .iter()
            .enumerate()
            .filter_map(|(arm, field)| node.field(field).map(|n| (n.byte_range(), arm)))
            .collect(),
        "switch_statement" => {
            let Some(body) = node.field("body") else {
                return Vec::new();
            };
            let mut arms = Vec::new();
            let mut arm = 0;
            for case in named_children(body).filter(|c| c.node_kind() == "case_statement") {
                arms.push((case.byte_range(), arm));
                // a case that ends in `break`, `return` or `throw` does not fall into the next
                let ends = named_children(case).any(|s| {
                    matches!(
                        s.node_kind(),
                        "break_statement" | "return_statement" | "continue_statement"
                    ) || is_throw(s)
                });
                if ends {
                    arm += 1;
                }
            }
            arms
        }
        _ => Vec::new(),
    }
}

fn is_throw(statement: Node) -> bool {
    statement.node_kind() == "expression_statement"
        && statement
            .named_child(0)
            .is_some_and(|e| e.node_kind() == "throw_expression")
}

/// Where a node sits among the arms of its enclosing branches.
fn arms_of(stack: &[Frame], node: Node) -> Arms {
    stack
        .iter()
        .filter(|f| !f.arms.is_empty())
        .filter_map(|f| {
            f.arms
                .iter()
                .find(|(range, _)| range.start <= node.start_byte() && node.end_byte() <= range.end)
                .map(|(_, arm)| (f.node.id(), *arm))
        })
        .collect()
}

/// The innermost enclosing block that a `return` or `throw` after `node` ends. `exits` keeps,
/// per block (by node id), where its last `return` or `throw` starts.
fn exits_within(
    stack: &[Frame],
    node: Node,
    exits: &mut HashMap<usize, Option<usize>>,
) -> Option<Range<usize>> {
    for frame in stack.iter().rev() {
        match frame.node.node_kind() {
            // a `return` in a lambda leaves the lambda only
            "lambda_expression" => return None,
            "compound_statement" | "case_statement" => {
                let last_exit = *exits.entry(frame.node.id()).or_insert_with(|| {
                    named_children(frame.node)
                        .filter(|s| s.node_kind() == "return_statement" || is_throw(*s))
                        .map(|s| s.start_byte())
                        .last()
                });
                if last_exit.is_some_and(|at| at >= node.end_byte()) {
                    return Some(frame.node.byte_range());
                }
            }
            _ => {}
        }
    }
    None
}

/// A call result stored in a variable, waiting for a later read of it.
struct Stored {
    name: String,
    /// The end of the storing statement.
    after: usize,
    /// The event whose result it is, or the check site it becomes once read.
    waiting: Waiting,
}

enum Waiting {
    Event(usize),
    Check(CheckSite),
}

/// The events, checks and returned calls of one host function, in one walk of its body.
fn walk_function<'t>(model: &Model<'t>, names: &HashSet<&str>, index: usize) -> FunctionErrors<'t> {
    let function = &model.functions[index];
    let mut events = Vec::new();
    let mut checks = Vec::new();
    let mut returned = Vec::new();
    let mut synchronizations = Vec::new();
    let mut exits: HashMap<usize, Option<usize>> = HashMap::default();
    // results stored in variables: read later, they count as tested
    let stored: std::cell::RefCell<Vec<Stored>> = std::cell::RefCell::default();
    let note_store = std::cell::Cell::new(None::<(String, usize)>);
    let read_later = |name: &str, after: usize| {
        note_store.set(Some((name.to_string(), after)));
        false
    };
    let mut stack: Vec<Frame<'t>> = Vec::new();
    let mut cursor = function.body.walk();
    let mut depth = 0usize;
    loop {
        let node = cursor.node();
        stack.truncate(depth);
        let descend = visit_node(
            node,
            &stack,
            model,
            names,
            &read_later,
            &note_store,
            &stored,
            &mut exits,
            &mut events,
            &mut checks,
            &mut returned,
            &mut synchronizations,
        );
        // a call needs a `(`: code without one holds no event or check (unless a stored result
        // is waiting for a read); only what the walk goes into is an ancestor of later nodes
        let descend = descend
            && (!stored.borrow().is_empty()
                || model
                    .source
                    .get(node.byte_range())
                    .is_none_or(|t| t.contains('(')));
        if descend && cursor.goto_first_child() {
            let arms = branch_arms(node);
            stack.push(Frame { node, arms });
            depth += 1;
            continue;
        }
        loop {
            if depth == 0 {
                break;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            cursor.goto_parent();
            depth -= 1;
        }
        if depth == 0 {
            break;
        }
    }
    let has_launch = events.iter().any(|e| e.kind == EventKind::Launch);
    let check_helper = (!checks.is_empty() && !has_launch).then(|| {
        if returns_void(model, function) {
            CheckHelper::Reports
        } else {
            CheckHelper::Returns
        }
    });
    FunctionErrors {
        function_index: index,
        name: function.name.clone(),
        arity: function.parameters.len(),
        events,
        checks,
        returned,
        tested_synchronizations: synchronizations,
        check_helper,
        flows: Vec::new(),
        local_flows: Vec::new(),
        returns_void: returns_void(model, function),
        verdicts: Vec::new(),
        returned_verdicts: Vec::new(),
    }
}

/// A call that waits for work already queued and returns its errors.
fn is_synchronization(name: &str) -> bool {
    let name = name
        .strip_prefix("cuda")
        .or_else(|| name.strip_prefix("hip"))
        .unwrap_or("");
    matches!(
        name,
        "DeviceSynchronize" | "StreamSynchronize" | "ThreadSynchronize" | "EventSynchronize"
    )
}

/// One node of the walk: records what it is, and says whether to look inside.
#[allow(clippy::too_many_arguments)]
fn visit_node<'t>(
    node: Node<'t>,
    stack: &[Frame<'t>],
    model: &Model<'t>,
    names: &HashSet<&str>,
    read_later: &dyn Fn(&str, usize) -> bool,
    note_store: &std::cell::Cell<Option<(String, usize)>>,
    stored: &std::cell::RefCell<Vec<Stored>>,
    exits: &mut HashMap<usize, Option<usize>>,
    events: &mut Vec<ErrorEvent<'t>>,
    checks: &mut Vec<CheckSite>,
    returned: &mut Vec<ReturnedCall<'t>>,
    synchronizations: &mut Vec<Node<'t>>,
) -> bool {
    if !node.is_named() {
        return false;
    }
    let source = model.source;
    let kind = node.node_kind();
    match kind {
        "identifier" => {
            let mut waiting = stored.borrow_mut();
            if !waiting.is_empty() {
                let name = text(node, source);
                let start = node.start_byte();
                let mut index = 0;
                while index < waiting.len() {
                    if waiting[index].name == name && start >= waiting[index].after {
                        match waiting.swap_remove(index).waiting {
                            Waiting::Event(e) => {
                                if let Some(event) = events.get_mut(e) {
                                    event.result = ResultUse::Checked;
                                }
                            }
                            Waiting::Check(site) => checks.push(site),
                        }
                    } else {
                        index += 1;
                    }
                }
            }
            return false;
        }
        // run elsewhere, at some other time
        "function_definition" | "class_specifier" | "struct_specifier" => return false,
        // data, not calls (tables of constants can be long)
        "initializer_list" | "string_literal" | "concatenated_string" | "number_literal" => {
            return false
        }
        // a lambda passed to a call (`AT_DISPATCH_...(..., [&] { ... })`) runs there
        "lambda_expression" => {
            return stack.last().map(|f| f.node.node_kind()) == Some("argument_list")
        }
        "call_expression" => {}
        _ => return true,
    }
    let ancestors = || stack.iter().rev().map(|f| f.node);
    if let Some(form) = crate::model::runtime::launch_form(node, source) {
        let kernel = crate::model::launch::launched_kernel(form.kernel, source).to_string();
        let wrapped = !matches!(outer_kind(stack), Some("expression_statement"));
        events.push(ErrorEvent {
            node,
            kind: EventKind::Launch,
            arity: form.arguments.len(),
            name: kernel,
            wrapped,
            result: ResultUse::Discarded,
            returned: false,
            check_named: false,
            literal_arguments: false,
            arms: arms_of(stack, node),
            exits_within: exits_within(stack, node, exits),
        });
        return true;
    }
    let Some(name) = project_call_name(node, source) else {
        return true;
    };
    if crate::syntax::is_functional_cast(node, source) {
        return true;
    }
    if is_last_error_query(name) {
        note_store.set(None);
        let result = result_use_among(ancestors(), source, read_later);
        let site = CheckSite {
            at: node.start_byte(),
            arms: arms_of(stack, node),
        };
        match (result, note_store.take()) {
            (ResultUse::StoredUnread, Some((name, after))) => stored.borrow_mut().push(Stored {
                name,
                after,
                waiting: Waiting::Check(site),
            }),
            (ResultUse::Checked, _) => checks.push(site),
            _ => {}
        }
        return true;
    }
    if is_cuda_or_hip_api(name) && !project_check(name) {
        if is_synchronization(name) {
            note_store.set(None);
            // an error code kept in a variable is there to be tested
            let tested = match result_use_among(ancestors(), source, read_later) {
                ResultUse::Checked => true,
                ResultUse::StoredUnread => note_store.take().is_some(),
                _ => false,
            };
            if tested {
                synchronizations.push(node);
            }
        }
        if (name.starts_with("cu") || crate::model::runtime::is_hip_name(name))
            && !returns_no_error(name)
            && is_returned_among(ancestors())
        {
            returned.push(ReturnedCall {
                node,
                name: name.to_string(),
            });
        }
        return true;
    }
    let check_named = is_check_name(name, model.check_macros);
    let method = is_method_call(node);
    let may_matter = names.contains(name)
        || (!method && (check_named || offered_callee(name)))
        || model
            .view
            .last_error_macros
            .binary_search_by(|m| m.as_str().cmp(name))
            .is_ok();
    if !may_matter {
        return true;
    }
    let arguments = call_arguments(node);
    // a check around a call checks that call's result
    let wraps_call = check_named
        && arguments.iter().any(|a| {
            let mut found = false;
            walk_iterative(*a, |n| {
                if n.node_kind() == "call_expression" {
                    found = true;
                }
                !found
            });
            found
        });
    if wraps_call {
        return true;
    }
    note_store.set(None);
    let result = result_use_among(ancestors(), source, read_later);
    if let (ResultUse::StoredUnread, Some((name, after))) = (result, note_store.take()) {
        stored.borrow_mut().push(Stored {
            name,
            after,
            waiting: Waiting::Event(events.len()),
        });
    }
    events.push(ErrorEvent {
        node,
        kind: EventKind::Call,
        name: name.to_string(),
        arity: arguments.len(),
        wrapped: inside_check(stack, source, model),
        result,
        returned: is_returned_among(ancestors()),
        check_named,
        literal_arguments: arguments
            .iter()
            .all(|a| is_literal(strip(*a, source), source)),
        arms: arms_of(stack, node),
        exits_within: exits_within(stack, node, exits),
    });
    true
}

/// The kind of what holds a call, past parentheses: `expression_statement` for a call of its
/// own.
fn outer_kind(stack: &[Frame]) -> Option<&'static str> {
    stack
        .iter()
        .rev()
        .map(|f| f.node.node_kind())
        .find(|k| *k != "parenthesized_expression")
}

/// Whether a call is an argument of a call named like a check (`CHECK_CUDA(render(...), debug)`).
fn inside_check(stack: &[Frame], source: &str, model: &Model) -> bool {
    let mut frames = stack.iter().rev();
    let mut holder = frames.next();
    while holder.is_some_and(|f| f.node.node_kind() == "parenthesized_expression") {
        holder = frames.next();
    }
    if holder.is_none_or(|f| f.node.node_kind() != "argument_list") {
        return false;
    }
    frames
        .next()
        .filter(|f| f.node.node_kind() == "call_expression")
        .and_then(|f| call_name(f.node, source))
        .is_some_and(|name| is_check_name(name, model.check_macros))
}

/// Whether a function's declared result is `void`.
fn returns_void(model: &Model, function: &crate::model::Function) -> bool {
    let head = model
        .source
        .get(function.definition.start_byte()..function.name_node.start_byte())
        .unwrap_or("");
    !head.contains('*')
        && head
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|w| w == "void")
}

#[cfg(test)]
mod tests {
    use super::{EventKind, Verdict};
    use crate::model::index::{CheckHelper, FileIndex, ProjectIndex, Step};
    use crate::model::Model;
    use std::path::Path;

    const KERNEL: &str = "__global__ void k(float* p) { p[threadIdx.x] = 0; }\n";

    /// Per event: (kind, name, checked, last, verdict kind).
    type EventFlow = (EventKind, String, bool, bool, &'static str);

    #[test]
    fn tested_synchronizations_are_kept_apart_from_checks() {
        let text = format!(
            "{KERNEL}void f(float* p, cudaStream_t s) {{\n\
             k<<<1, 1>>>(p); CHECK(cudaDeviceSynchronize());\n\
             cudaError_t e = cudaStreamSynchronize(s); if (e) abort();\n\
             cudaDeviceSynchronize();\n\
             }}\n"
        );
        let found = crate::verify::with_model(Path::new("sync.cu"), &text, |model: &Model| {
            let f = &model.errors.functions[0];
            let names: Vec<String> = f
                .tested_synchronizations
                .iter()
                .map(|n| crate::model::host::called_name(*n, model.source).to_string())
                .collect();
            (names, f.flows.first().map(|flow| flow.checked))
        });
        assert_eq!(
            found,
            Some((
                vec![
                    "cudaDeviceSynchronize".to_string(),
                    "cudaStreamSynchronize".to_string()
                ],
                Some(false)
            ))
        );
    }

    /// Per host function (by name), its events' flows.
    fn flows(source: &str) -> Vec<(String, Vec<EventFlow>)> {
        let text = format!("{KERNEL}{source}");
        crate::verify::with_model(Path::new("flow.cu"), &text, |model: &Model| {
            model
                .errors
                .functions
                .iter()
                .map(|f| {
                    let events = f
                        .events
                        .iter()
                        .zip(&f.flows)
                        .zip(&f.verdicts)
                        .map(|((e, flow), verdict)| {
                            (
                                e.kind,
                                e.name.clone(),
                                flow.checked,
                                flow.last,
                                kind(verdict),
                            )
                        })
                        .collect();
                    (f.name.clone(), events)
                })
                .collect()
        })
        .unwrap_or_default()
    }

    fn kind(verdict: &Verdict) -> &'static str {
        match verdict {
            Verdict::Fine => "fine",
            Verdict::NoCallerChecks { callers } if callers.is_empty() => "alone",
            Verdict::NoCallerChecks { .. } => "no caller checks",
            Verdict::CallersMissing => "callers missing",
            Verdict::CallMisses { .. } => "call misses",
        }
    }

    fn launches_of(
        found: &[(String, Vec<EventFlow>)],
        function: &str,
    ) -> Vec<(bool, bool, &'static str)> {
        found
            .iter()
            .find(|(name, _)| name == function)
            .map(|(_, events)| {
                events
                    .iter()
                    .filter(|e| e.0 == EventKind::Launch)
                    .map(|e| (e.2, e.3, e.4))
                    .collect()
            })
            .unwrap_or_default()
    }

    #[test]
    fn a_check_after_the_branches_covers_each_arm_and_what_came_before() {
        let found = flows(
            "void f(float* p, bool a, int op) {\n\
               k<<<1, 1>>>(p);\n\
               if (a) { k<<<1, 1>>>(p); } else { k<<<2, 1>>>(p); }\n\
               CHECK(cudaGetLastError());\n\
               switch (op) { case 0: k<<<1, 1>>>(p); break; case 1: k<<<2, 1>>>(p); break; }\n\
               cudaError_t e = cudaPeekAtLastError(); if (e != cudaSuccess) abort();\n\
             }\n",
        );
        assert_eq!(
            launches_of(&found, "f"),
            [
                (true, false, "fine"),
                (true, false, "fine"),
                (true, false, "fine"),
                (true, true, "fine"),
                (true, true, "fine"),
            ]
        );
    }

    #[test]
    fn a_return_ends_what_can_follow() {
        let found = flows(
            "void f(float* p, bool a) {\n\
               if (a) { k<<<1, 1>>>(p); return; }\n\
               k<<<2, 1>>>(p);\n\
               CHECK(cudaGetLastError());\n\
             }\n",
        );
        // the first launch is left for the callers (none: judged alone), not followed by the second
        assert_eq!(
            launches_of(&found, "f"),
            [(false, true, "alone"), (true, true, "fine")]
        );
    }

    #[test]
    fn only_tests_of_the_last_error_are_checks() {
        let found = flows(
            "#define LAUNCH_CHECK(s) do { cudaError_t e = cudaGetLastError(); if (e) abort(); } while (0)\n\
             void report(const char* what) { cudaError_t e = cudaGetLastError(); if (e != cudaSuccess) puts(what); }\n\
             cudaError_t status() { return cudaPeekAtLastError(); }\n\
             bool check_values(const float* h, int n) { return n > 0 && h[0] == 0; }\n\
             void a(float* p, int n) { k<<<1, 1>>>(p); assert(n > 0); }\n\
             void b(float* p, int n) { k<<<1, 1>>>(p); CHECK(n > 0); }\n\
             void c(float* p, float* h, int n) { k<<<1, 1>>>(p); check_values(h, n); }\n\
             void d(float* p) { k<<<1, 1>>>(p); getLastCudaError(\"k failed\"); }\n\
             void e(float* p, cudaStream_t s) { k<<<1, 1, 0, s>>>(p); LAUNCH_CHECK(s); }\n\
             void f(float* p, const char* name) { k<<<1, 1>>>(p); report(name); }\n\
             void g(float* p) { k<<<1, 1>>>(p); CUDA_CHECK(status()); }\n\
             void h(float* p) { k<<<1, 1>>>(p); status(); }\n\
             void i(float* p) { k<<<1, 1>>>(p); cudaCheckError(); }\n\
             void j(float* p) { k<<<1, 1>>>(p); CHECK(cudaDeviceSynchronize()); }\n",
        );
        for (function, checked) in [
            ("a", false),
            ("b", false),
            ("c", false),
            ("d", true),
            ("e", true),
            ("f", true),
            ("g", true),
            ("h", false),
            ("i", true),
            ("j", false),
        ] {
            assert_eq!(
                launches_of(&found, function).first().map(|l| l.0),
                Some(checked),
                "{function}"
            );
        }
        let text = format!(
            "{KERNEL}void report(const char* w) {{ cudaError_t e = cudaGetLastError(); if (e) puts(w); }}\n\
             cudaError_t status() {{ return cudaPeekAtLastError(); }}\n"
        );
        let helpers = crate::verify::with_model(Path::new("h.cu"), &text, |model: &Model| {
            model
                .errors
                .functions
                .iter()
                .map(|f| (f.name.clone(), f.check_helper))
                .collect::<Vec<_>>()
        });
        assert_eq!(
            helpers,
            Some(vec![
                ("report".to_string(), Some(CheckHelper::Reports)),
                ("status".to_string(), Some(CheckHelper::Returns)),
            ])
        );
    }

    #[test]
    fn callers_decide_what_a_launcher_leaves() {
        let found = flows(
            "void launch(float* p) { k<<<1, 1>>>(p); }\n\
             void lone(float* p) { k<<<1, 1>>>(p); }\n\
             void entry(float* p) { k<<<1, 1>>>(p); }\n\
             void a(float* p) { launch(p); CHECK(cudaGetLastError()); }\n\
             void b(float* p) { launch(p); CHECK(cudaGetLastError()); }\n\
             void c(float* p) { launch(p); }\n\
             void d(float* p) { lone(p); cudaDeviceSynchronize(); }\n",
        );
        assert_eq!(
            launches_of(&found, "launch"),
            [(false, true, "callers missing")]
        );
        assert_eq!(
            launches_of(&found, "lone"),
            [(false, true, "no caller checks")]
        );
        assert_eq!(launches_of(&found, "entry"), [(false, true, "alone")]);
        let calls = |function: &str| -> Vec<&'static str> {
            found
                .iter()
                .find(|(name, _)| name == function)
                .map(|(_, events)| events.iter().map(|e| e.4).collect())
                .unwrap_or_default()
        };
        assert_eq!(calls("c"), ["call misses"]);
        assert_eq!(calls("a"), ["fine"]);
    }

    #[test]
    fn a_caller_that_calls_last_leaves_it_to_its_own_callers() {
        let found = flows(
            "void launch(float* p) { k<<<1, 1>>>(p); }\n\
             void middle(float* p) { launch(p); }\n\
             void top(float* p) { middle(p); CHECK(cudaGetLastError()); }\n",
        );
        assert_eq!(launches_of(&found, "launch"), [(false, true, "fine")]);
    }

    #[test]
    fn a_table_of_launchers_is_called_through() {
        let found = flows(
            "static void a(float* p) { k<<<1, 1>>>(p); }\n\
             static void b(float* p) { k<<<2, 1>>>(p); }\n\
             static void (*const table[])(float*) = {a, b};\n\
             void run(int op, float* p) { table[op](p); CHECK(cudaGetLastError()); }\n\
             void run_one(bool first, float* p) { auto fn = first ? a : b; fn(p); CHECK(cudaGetLastError()); }\n",
        );
        assert_eq!(launches_of(&found, "a"), [(false, true, "fine")]);
        assert_eq!(launches_of(&found, "b"), [(false, true, "fine")]);
    }

    /// What a file offers: its launchers, and each call out of it with the steps after it; the
    /// callee's file reads the steps with what the index says of the calls in them.
    #[test]
    fn calls_into_another_file_are_judged_there() {
        let offers = |path: &str, source: &str| -> FileIndex {
            crate::verify::with_model(Path::new(path), source, |model: &Model| model.file_index())
                .unwrap_or_default()
        };
        let kernels = offers(
            "split/kernels.cu",
            &format!("{KERNEL}void launch(float* p) {{ k<<<1, 1>>>(p); }}\nvoid other(float* p) {{ k<<<2, 1>>>(p); }}\n"),
        );
        assert_eq!(kernels.error_functions.len(), 2);
        assert_eq!(kernels.error_functions[0].pending, [("k".to_string(), 2)]);
        let main_text =
            "void main_loop(float* p) { launch(p); other(p); CHECK(cudaGetLastError()); }\n";
        let main = offers("split/main.cu", main_text);
        let first = &main.error_calls[0];
        assert_eq!(first.callee, "launch");
        assert_eq!(
            first.following,
            [
                Step::Call {
                    callee: "other".into(),
                    arity: 1,
                    result_tested: false,
                    configured: false,
                    checks_undefined: false
                },
                Step::Check
            ]
        );
        // with both files, `other` launches, and the check after it still reads what `launch`
        // left (a launch error stays the last error until something reads it)
        let index = ProjectIndex::new(vec![kernels, main]);
        let text = format!("{KERNEL}void launch(float* p) {{ k<<<1, 1>>>(p); }}\nvoid other(float* p) {{ k<<<2, 1>>>(p); }}\n");
        let view = crate::source::preprocess(&text, &[]);
        let tree = crate::engine::parse(&view.text, None).unwrap_or_else(|| panic!("parse"));
        let lines = crate::source::LineIndex::new(&text);
        let path = Path::new("split/kernels.cu");
        let model = Model::build_reusing(
            path,
            &text,
            &view,
            &tree,
            &lines,
            &[],
            true,
            &index,
            &mut crate::model::AnalyseAll,
        );
        let verdicts: Vec<&'static str> = model
            .errors
            .functions
            .iter()
            .map(|f| kind(&f.verdicts[0]))
            .collect();
        assert_eq!(verdicts, ["fine", "fine"]);
    }
}
