//! Following a pending launch or a returned error code up a function's callers, in this file
//! and through the project index, up to `MAX_CALLER_DEPTH` calls.

use super::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
    Unvisited,
    InProgress,
    Done(bool),
}

/// Follows a function's callers up, in this file and through the index.
pub(super) struct Resolver<'a, 't> {
    pub(super) flow: &'a ErrorFlow<'t>,
    pub(super) model: &'a Model<'t>,
    pub(super) local_callers: &'a [Vec<(usize, usize)>],
}

impl<'t> Resolver<'_, 't> {
    pub(super) fn resolve(&self, callee: Callee<'t>, mode: Mode) -> Resolution<'t> {
        let mut resolution = Resolution::default();
        let mut visited = Vec::new();
        self.climb(callee, mode, 1, &mut visited, &mut resolution, true);
        resolution
    }

    /// The visible calls of `callee`.
    pub(super) fn callers(&self, callee: Callee<'t>) -> Vec<Site<'t>> {
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

    pub(super) fn climb(
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
    pub(super) fn follow_steps(&self, path: &Path, site: &CallSite) -> (bool, bool) {
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

    pub(super) fn returns_void(&self, callee: Callee<'t>) -> bool {
        match callee {
            Callee::Local(function) => self
                .flow
                .functions
                .get(function)
                .is_some_and(|f| f.returns_void),
            Callee::Foreign { returns_void, .. } => returns_void,
        }
    }

    pub(super) fn site_facts(
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
    pub(super) fn verdict(
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
