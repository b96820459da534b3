//! Calls in a run: builtins that neither touch memory nor synchronise, barriers, and the
//! functions of the file a run follows, so that a shared pointer handed to a helper is not lost.

use super::*;

impl<'p, 'm, 't> Block<'p, 'm, 't> {
    pub(super) fn call(
        &mut self,
        node: Node<'t>,
        mask: Mask,
        depth: usize,
    ) -> Result<Vals, Invalid> {
        let source = self.source();
        let Some(function) = self.part(node, Part::Function) else {
            return Ok(Lanes::Uni(Val::Unknown(true)));
        };
        if crate::syntax::is_functional_cast(node, source) {
            let inner = self
                .part(node, Part::Arguments)
                .and_then(|a| named_children(a).next());
            let value = match inner {
                Some(inner) => self.eval(inner, mask, depth + 1)?,
                None => Lanes::Uni(Val::Unknown(true)),
            };
            let type_text = match function.node_kind() {
                "template_function" => self
                    .part(function, Part::Arguments)
                    .map(|a| self.text(a).trim_matches(['<', '>']))
                    .unwrap_or(""),
                _ => self.text(function),
            };
            let cast = Cast::new(type_text, &self.program.arrays);
            return Ok(cast.apply_lanes(&value, &self.program.kinds));
        }
        if is_block_barrier(node, source) {
            if let Some(arguments) = self.part(node, Part::Arguments) {
                for argument in named_children(arguments) {
                    self.eval(argument, mask, depth + 1)?;
                }
            }
            // a barrier reached speculatively: those threads stop there
            self.stop(mask.and(self.speculative));
            let passing = mask.and(self.alive);
            self.passed.pass(passing, node);
            for lane in passing.lanes() {
                self.epoch[lane] += 1;
            }
            self.common.set(None);
            self.close_intervals();
            // `__syncthreads_count` and the like return the same value to every thread
            return Ok(Lanes::Uni(Val::Unknown(false)));
        }
        let name = self.text(function);
        let short = name.rsplit("::").next().unwrap_or(name);
        let short = short.split('<').next().unwrap_or(short).trim();
        let arguments: Vec<Node<'t>> = self
            .part(node, Part::Arguments)
            .map(|a| {
                named_children(a)
                    .filter(|c| c.node_kind() != "comment")
                    .collect()
            })
            .unwrap_or_default();
        if short.starts_with("atomic")
            || short.starts_with("__atomic")
            || short.starts_with("cuda::atomic")
        {
            // an atomic updates the element its address names: atomics do not race with each
            // other (`benign`), a plain access of another thread does
            self.unfollowed_write();
            let mut target: Option<Lanes<Loc>> = None;
            for (position, argument) in arguments.iter().enumerate() {
                if position == 0 {
                    let stripped = crate::syntax::strip(*argument, source);
                    if stripped.node_kind() == "pointer_expression"
                        && self.program.operator(stripped) == "&"
                    {
                        if let Some(inner) = self.part(stripped, Part::Argument) {
                            if let Place::Memory(_, locs) = self.place(inner, mask, depth + 1)? {
                                target = Some(locs);
                            }
                        }
                        continue;
                    }
                    let address = self.eval(*argument, mask, depth + 1)?;
                    let kinds = &self.program.kinds;
                    target = Some(address.map(|v| match v {
                        // a pointer to an element, not to a row
                        Val::Ptr(ptr) if kinds.get(ptr.kind).is_some_and(|k| k.shape.len == 0) => {
                            Loc::Shared { ptr, row: false }
                        }
                        _ => Loc::Elsewhere(true),
                    }));
                    continue;
                }
                self.eval(*argument, mask, depth + 1)?;
            }
            if let Some(locs) = target {
                let atomic = Lanes::Uni(Stored::Atomic);
                self.access(node, &locs, mask, AccessKind::ReadWrite, Some(&atomic));
            }
            return Ok(Lanes::Uni(Val::Unknown(true)));
        }
        if function.node_kind() == "field_expression" {
            // a method: its object and arguments are evaluated for their reads
            if let Some(object) = self.part(function, Part::Argument) {
                self.eval(object, mask, depth + 1)?;
            }
        }
        let mut values = Vec::with_capacity(arguments.len());
        for argument in &arguments {
            values.push(self.eval(*argument, mask, depth + 1)?);
        }
        if orders_lanes(short) {
            // after its operands are read: no lane leaves it before every lane of the mask has
            // reached it
            self.stop(mask.and(self.speculative));
            for lane in mask.and(self.alive).lanes() {
                self.warp_syncs[lane] += 1;
            }
            self.common.set(None);
        }
        if self.program.call_may_sync(node) {
            self.unfollowed_write();
            self.poison(mask);
            return Ok(Lanes::Uni(Val::Unknown(true)));
        }
        if let Some(helper) = self.followed(short, &values) {
            self.follow(&helper, &values, mask, depth)?;
            return Ok(Lanes::Uni(Val::Unknown(true)));
        }
        let mut varies: Lanes<bool> = Lanes::Uni(false);
        for value in &values {
            varies = varies.zip(value, |a, v| a || v.varies());
        }
        let fold = |f: fn(i64, i64) -> Option<i64>| -> Vals {
            let both = values[0].zip(&values[1], |a, b| match (a, b) {
                (Val::Int(a, _), Val::Int(b, _)) => f(a, b),
                _ => None,
            });
            both.zip(&varies, |v, varies| match v {
                Some(v) => Val::Int(v, varies),
                None => Val::Unknown(varies),
            })
        };
        Ok(match (short, values.len()) {
            ("min" | "umin" | "imin" | "llmin" | "MIN", 2) => fold(|a, b| Some(a.min(b))),
            ("max" | "umax" | "imax" | "llmax" | "MAX", 2) => fold(|a, b| Some(a.max(b))),
            ("__mul24" | "__umul24", 2) => fold(|a, b| a.checked_mul(b)),
            ("abs", 1) => values[0].zip(&varies, |a, varies| match a {
                Val::Int(a, _) => Val::Int(a.abs(), varies),
                _ => Val::Unknown(varies),
            }),
            ("thread_rank", 0) => self.linear.clone(),
            ("__lane_id" | "laneid", 0) => self.lane_id.clone(),
            _ if is_pure_builtin(short) => varies.map(Val::Unknown),
            // a helper of this file with no barrier: its result is followed no further, and what
            // it may write through its arguments is not known
            _ => {
                self.unfollowed_write();
                Lanes::Uni(Val::Unknown(true))
            }
        })
    }
}

impl<'p, 'm, 't> Block<'p, 'm, 't> {
    /// The function of the file a call to `name` with these arguments runs, when the run follows
    /// it: a shared pointer is among the arguments or it names a file-scope shared array, it
    /// declares no shared array of its own, and the calls followed are not deeper than
    /// `MAX_CALLS`. A call that touches no shared memory is not followed.
    pub(super) fn followed(&self, name: &str, values: &[Vals]) -> Option<Rc<Helper<'t>>> {
        if self.calls >= MAX_CALLS {
            return None;
        }
        let helper = self.program.scope.helpers.get(name)?.as_ref()?;
        if !helper.complete || helper.parameters.len() != values.len() {
            return None;
        }
        let pointer = |v: &Val| matches!(v, Val::Ptr(_));
        let passes_shared = values.iter().any(|value| match value {
            Lanes::Uni(v) => pointer(v),
            Lanes::Linear(linear) => pointer(&linear.shape),
            Lanes::Per(values) => values.iter().any(pointer),
        });
        let scope = self.program.scope;
        let (names_global, declares) = *helper.shared.get_or_init(|| {
            let body = text(helper.body, scope.source);
            (
                scope.globals.iter().any(|(name, _)| body.contains(name)),
                body.contains("__shared__"),
            )
        });
        ((passes_shared || names_global) && !declares).then(|| Rc::clone(helper))
    }

    /// Runs a function's body for the threads of `mask`, its parameters bound to the
    /// arguments' values; threads that return from it go on after the call.
    pub(super) fn follow(
        &mut self,
        helper: &Helper<'t>,
        values: &[Vals],
        mask: Mask,
        depth: usize,
    ) -> Result<(), Invalid> {
        let mask = mask.and(self.alive);
        if mask.is_empty() {
            return Ok(());
        }
        let mark = self.scopes.len();
        for ((name, type_text, pointer, reference), value) in helper.parameters.iter().zip(values) {
            let integral = is_integer_type(type_text);
            let bound = value.convert(|v| match v {
                _ if *reference => Val::Unknown(true),
                Val::Ptr(_) if *pointer => v,
                Val::Ptr(_) => Val::Unknown(true),
                _ if *pointer => Val::Unknown(v.varies()),
                Val::Int(..) | Val::Chosen(_) if integral => v,
                Val::Load(..) | Val::Held(..) => v,
                other => Val::Unknown(other.varies()),
            });
            let bound = self.held_as(&bound, type_text);
            self.scopes.push((name, bound, type_text));
        }
        let (floor, returned) = (self.floor, self.returned);
        self.floor = mark;
        self.returned = Mask::NONE;
        self.calls += 1;
        let result = self.statement(helper.body, mask, depth + 1);
        self.calls -= 1;
        self.floor = floor;
        self.scopes.truncate(mark);
        self.alive = self.alive.or(self.returned.and(mask));
        self.returned = returned;
        self.common.set(None);
        result.map(|_| ())
    }
}
