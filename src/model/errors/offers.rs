//! What a file offers the project index: its functions that leave a launch pending or return an
//! error code, and its calls that other files' verdicts read.

use super::*;

impl<'t> ErrorFlow<'t> {
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
    pub(super) fn following_steps(
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
        // the events are in source order: once more steps than are kept have been found among
        // them, no later event can come before the cut (a long generated function has
        // thousands of calls, and reading past the cut made this quadratic)
        let mut event_steps = 0;
        for (o, other) in errors.events.iter().enumerate().skip(e + 1) {
            if event_steps > MAX_STEPS {
                break;
            }
            let at = other.node.start_byte();
            if at < end || !can_follow(event, at, &other.arms) {
                continue;
            }
            let flow = errors.local_flows.get(o).copied().unwrap_or_default();
            let outside = other.kind == EventKind::Call
                && !defined.contains(other.name.as_str())
                && offered_callee(&other.name);
            if outside {
                event_steps += 1;
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
                event_steps += 1;
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
}
