//! What a function's findings depend on, so that the language server reuses them only while that
//! stays the same.

use super::*;

impl<'t> ErrorFlow<'t> {
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

    pub(super) fn hash_verdict(
        &self,
        model: &Model<'t>,
        verdict: &Verdict<'t>,
        hasher: &mut impl Hasher,
    ) {
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
    pub(super) fn hash_local(
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
