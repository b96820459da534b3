//! The verdict on each event: checked where it is, by every caller, or by none. Kept apart from
//! the flows they read, since a verdict depends on the callers and the flows do not.

use super::*;

impl<'t> ErrorFlow<'t> {
    pub(super) fn resolve_verdicts(&mut self, model: &Model<'t>) {
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
    pub(super) fn note_lookups(&self, model: &Model<'t>) {
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
}

impl<'t> ErrorFlow<'t> {
    /// The launches a local function leaves pending for its callers: its own, and those of the
    /// functions it calls last without checking.
    pub fn pending_origins(&self, function: usize, depth: usize, foreign: bool) -> Vec<Origin<'t>> {
        let mut found = Vec::new();
        // each function is expanded again only when reached nearer the root: a call graph of
        // many paths between the same functions (a header of dozens of layers calling one
        // another) would otherwise be walked once per path
        let mut nearest = vec![usize::MAX; self.functions.len()];
        self.collect_pending_origins(function, depth, foreign, &mut nearest, &mut found);
        let mut unique: Vec<Origin<'t>> = Vec::with_capacity(found.len());
        for origin in found {
            if !unique.contains(&origin) {
                unique.push(origin);
            }
        }
        unique
    }

    fn collect_pending_origins(
        &self,
        function: usize,
        depth: usize,
        foreign: bool,
        nearest: &mut [usize],
        found: &mut Vec<Origin<'t>>,
    ) {
        let Some(errors) = self.functions.get(function) else {
            return;
        };
        if depth > MAX_CALLEE_DEPTH || nearest.get(function).is_some_and(|&d| d <= depth) {
            return;
        }
        if let Some(slot) = nearest.get_mut(function) {
            *slot = depth;
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
                            Target::Local(callee) if callee != function => self
                                .collect_pending_origins(
                                    callee,
                                    depth + 1,
                                    foreign,
                                    nearest,
                                    found,
                                ),
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
    }
}
