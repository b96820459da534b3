//! Which functions each event may call, and which launches each function leaves pending: what
//! the verdicts are built from, resolved first for the file's own functions and then with other
//! files' summaries, so that a caller in sight is never judged by a summary alone.

use super::*;

impl<'t> ErrorFlow<'t> {
    pub(super) fn resolve_targets(&mut self, model: &Model<'t>) {
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

    pub(super) fn targets_of(&self, function: usize, event: usize) -> &[Target<'t>] {
        self.targets
            .get(function)
            .and_then(|t| t.get(event))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// The targets of an event, those of other files left out unless `foreign`.
    pub(super) fn targets_seen(
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
    pub(super) fn handled(&self, function: usize, event: usize, foreign: bool) -> bool {
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
    pub(super) fn is_check(
        &self,
        model: &Model<'t>,
        function: usize,
        event: usize,
        foreign: bool,
    ) -> bool {
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

    pub(super) fn resolve_flows(&mut self, model: &Model<'t>) {
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
    pub(super) fn flows_seeing(&self, model: &Model<'t>, foreign: bool) -> Vec<Vec<Flow>> {
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
    pub(super) fn pending(
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
    pub(super) fn flows_with(
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
}

impl FunctionErrors<'_> {
    /// Whether one of its own launches, or a call of its file's functions, may leave a launch
    /// pending for its callers (seeing other files' functions when `foreign`).
    pub(super) fn pending_here(&self, foreign: bool) -> bool {
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

/// Whether what sits at `at` (in `arms`) can run after `event`: not in another arm of a branch
/// that holds the event, and inside the block a `return` after the event ends.
pub(super) fn can_follow(event: &ErrorEvent, at: usize, arms: &Arms) -> bool {
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
