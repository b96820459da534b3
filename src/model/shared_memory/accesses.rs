//! Shared accesses as a block makes them: where each thread's access lands, and which accesses
//! are logged. Kept together because what lands inside an array decides what a run may conclude.

use super::*;

impl<'p, 'm, 't> Block<'p, 'm, 't> {
    /// Logs the accesses of the certain threads of `mask` to shared elements; a write stores
    /// `stored` (None: a value that may differ between threads).
    pub(super) fn access(
        &mut self,
        node: Node<'t>,
        locs: &Lanes<Loc>,
        mask: Mask,
        kind: AccessKind,
        stored: Option<&Lanes<Stored>>,
    ) {
        if kind.writes() {
            self.forget_uniform_stores(locs, mask);
            let back = match stored {
                Some(Lanes::Uni(stored)) => *stored == Stored::Back,
                Some(stored) => mask
                    .and(self.alive)
                    .lanes()
                    .all(|lane| stored.get(lane) == Stored::Back),
                None => false,
            };
            if !back {
                self.writes = self.writes.wrapping_add(1);
            }
        }
        let logged = self.certain(mask);
        if logged.is_empty() {
            return;
        }
        if let Lanes::Uni(Loc::Elsewhere(_) | Loc::Indexed(_) | Loc::Shared { row: true, .. })
        | Lanes::Linear(Linear {
            shape: Loc::Elsewhere(_) | Loc::Indexed(_) | Loc::Shared { row: true, .. },
            ..
        }) = locs
        {
            return;
        }
        let site = self.log.site(node);
        // the array and sizes of the last kind met: the threads of one access share it
        let mut last: Option<(u32, Pointee)> = None;
        if let Some(deferred) = self.defer_linear(locs, logged, site, kind, stored, &mut last) {
            self.log.deferred.push(deferred);
            return;
        }
        if kind == AccessKind::Read {
            // a read whose threads are all in one interval, on one kind of pointer, is put
            // aside while no write has touched that interval's array (`Log::defer`)
            let mut common: Option<(u32, u32, u32)> = None;
            let mut alike = true;
            for lane in logged.lanes() {
                let Loc::Shared { ptr, row: false } = locs.get(lane) else {
                    continue;
                };
                let here = (ptr.kind, self.epoch[lane], self.warp_syncs[lane]);
                match common {
                    None => common = Some(here),
                    Some(seen) if seen == here => {}
                    Some(_) => alike = false,
                }
                let Some(pointee) = self.pointee(ptr.kind, &mut last) else {
                    alike = false;
                    continue;
                };
                let byte = ptr.byte;
                if byte < 0
                    || pointee
                        .total
                        .is_some_and(|total| byte + pointee.size > total)
                {
                    self.log.outside = true;
                    return;
                }
            }
            let Some((kind_id, epoch, warp_syncs)) = common else {
                return;
            };
            if alike {
                if let Some((_, pointee)) = last.filter(|(k, _)| *k == kind_id) {
                    let key = (epoch, pointee.array);
                    if self.log.may_defer(key, false) {
                        self.log.deferred.push(Deferred {
                            key,
                            site,
                            kind,
                            locs: locs.clone(),
                            lanes: logged,
                            pointee,
                            warp_syncs,
                            stored: stored.cloned(),
                        });
                        return;
                    }
                }
            }
        }
        for lane in logged.lanes() {
            let Loc::Shared { ptr, row: false } = locs.get(lane) else {
                continue;
            };
            let Some(pointee) = self.pointee(ptr.kind, &mut last) else {
                continue;
            };
            let byte = ptr.byte;
            let outside = byte < 0
                || pointee
                    .total
                    .is_some_and(|total| byte + pointee.size > total);
            if outside {
                self.log.outside = true;
                return;
            }
            let record = Record {
                linear: lane as i64,
                warp: lane as i64 / self.program.scope.warp,
                start: byte,
                size: pointee.size,
                site,
                kind,
                warp_syncs: self.warp_syncs[lane],
                stored: stored.map_or(Stored::Varying, |s| s.get(lane)),
            };
            self.log
                .record(self.epoch[lane], pointee.array, pointee.unit, record);
        }
    }

    /// An access through a linear form of places to put aside (`Log::may_defer`): every logged
    /// thread inside the array (its least and greatest byte are), in one interval, with one
    /// `__syncwarp()` count, and for a write, no two threads on a common byte. None where it is
    /// logged thread by thread.
    pub(super) fn defer_linear(
        &self,
        locs: &Lanes<Loc>,
        logged: Mask,
        site: u32,
        kind: AccessKind,
        stored: Option<&Lanes<Stored>>,
        last: &mut Option<(u32, Pointee)>,
    ) -> Option<Deferred> {
        let Lanes::Linear(linear) = locs else {
            return None;
        };
        let Loc::Shared { ptr, row: false } = linear.shape else {
            return None;
        };
        let pointee = self.pointee(ptr.kind, last)?;
        let (low, high) = linear.range();
        let inside = low >= 0
            && pointee
                .total
                .is_none_or(|total| high + i128::from(pointee.size) <= i128::from(total));
        if !inside {
            return None;
        }
        // the logged threads are alive: where every alive thread is at one interval, so are they
        let (epoch, warp_syncs) = match self.common_interval() {
            Some(at) => at,
            None => {
                let mut lanes = logged.lanes();
                let first = lanes.next()?;
                let at = (*self.epoch.get(first)?, *self.warp_syncs.get(first)?);
                if !lanes.all(|lane| {
                    self.epoch.get(lane) == Some(&at.0) && self.warp_syncs.get(lane) == Some(&at.1)
                }) {
                    return None;
                }
                at
            }
        };
        let key = (epoch, pointee.array);
        if kind.writes() && !linear.apart(pointee.size) {
            return None;
        }
        if !self.log.may_defer(key, kind.writes()) {
            return None;
        }
        Some(Deferred {
            key,
            site,
            kind,
            locs: locs.clone(),
            lanes: logged,
            pointee,
            warp_syncs,
            stored: stored.cloned(),
        })
    }

    /// The array a pointer of kind `kind` points into, and the sizes an access through it
    /// reads; `last` keeps the last answer.
    pub(super) fn pointee(&self, kind: u32, last: &mut Option<(u32, Pointee)>) -> Option<Pointee> {
        if let Some((known, pointee)) = last {
            if *known == kind {
                return Some(*pointee);
            }
        }
        let target = self.program.kinds.get(kind)?;
        let array = self.program.arrays.get(target.array as usize)?;
        let pointee = Pointee {
            array: target.array,
            size: target.element.max(1),
            unit: array.element,
            total: array.bytes(),
        };
        *last = Some((kind, pointee));
        Some(pointee)
    }

    pub(super) fn assignment(
        &mut self,
        node: Node<'t>,
        mask: Mask,
        depth: usize,
    ) -> Result<Vals, Invalid> {
        let (Some(left), Some(right)) = (self.part(node, Part::Left), self.part(node, Part::Right))
        else {
            return Ok(Lanes::Uni(Val::Unknown(true)));
        };
        let op = self.program.operator(node);
        let value = self.eval(right, mask, depth + 1)?;
        match self.place(left, mask, depth)? {
            Place::Local(name) => {
                let new = if op == "=" {
                    value
                } else {
                    let old = self.identifier_value(name);
                    let op = Op::parse(op.trim_end_matches('='));
                    binary_lanes(op, &old, &value, &self.program.kinds)
                };
                let was_pointer = self.lookup(name).map(|v| match v {
                    Lanes::Linear(old) => Lanes::Uni(matches!(old.shape, Val::Ptr(_))),
                    _ => v.map(|v| matches!(v, Val::Ptr(_))),
                });
                // an integer local keeps integers; a pointer keeps pointers
                let keep = |new: Val, was: bool| match (was, new) {
                    (true, Val::Ptr(_)) | (_, Val::Int(..)) => new,
                    (_, Val::Ptr(_)) => Val::Unknown(true),
                    _ => new,
                };
                let new = match was_pointer {
                    Some(Lanes::Uni(was)) => new.convert(|new| keep(new, was)),
                    Some(was) => new.zip(&was, keep),
                    None => new.convert(|new| keep(new, false)),
                };
                self.assign_local(name, &new, mask);
                Ok(new)
            }
            Place::Memory(target, locs) => {
                if op == "=" {
                    // a value every thread computes the same way here is told apart by its site
                    let site_of_value = match &value {
                        Lanes::Uni(Val::Unknown(false)) => self.log.site(right),
                        Lanes::Per(values) if values.contains(&Val::Unknown(false)) => {
                            self.log.site(right)
                        }
                        Lanes::Linear(linear) if linear.shape == Val::Unknown(false) => {
                            self.log.site(right)
                        }
                        _ => 0,
                    };
                    // a value read from the element it goes back to, through the same kind of
                    // pointer, with no write since: the element keeps its value
                    let (held, writes) = (&self.held, self.writes);
                    let store = |v: Val, loc: Loc| match (v, loc) {
                        (Val::Held(token, byte), Loc::Shared { ptr, row: false })
                            if ptr.byte == byte
                                && held.get(token as usize) == Some(&(ptr.kind, writes)) =>
                        {
                            Stored::Back
                        }
                        (Val::Int(v, _) | Val::Chosen(v), _) => Stored::Int(v),
                        (Val::Unknown(false), _) => Stored::Uniform(site_of_value),
                        (Val::Load(site, index), _) => Stored::Load(site, index),
                        (Val::Held(token, byte), _) => Stored::Copy(token, byte),
                        _ => Stored::Varying,
                    };
                    let stored = match &value {
                        // only a value an element held is stored by where it goes: any other
                        // every thread shares is stored alike at every place
                        Lanes::Uni(v) if !matches!(v, Val::Held(..)) => {
                            Lanes::Uni(store(*v, Loc::Elsewhere(true)))
                        }
                        _ => value.zip(&locs, store),
                    };
                    let uniform = self.uniform_store(right, &value, &locs, &stored);
                    // the threads that stored the same value here before, with no other write since
                    let before = uniform.and_then(|(ptr, _, stored)| {
                        self.uniform_stores
                            .iter()
                            .find(|u| {
                                u.kind == ptr.kind && u.byte == ptr.byte && u.stored == stored
                            })
                            .map(|u| u.lanes)
                    });
                    self.access(target, &locs, mask, AccessKind::Write, Some(&stored));
                    if let Some((ptr, value, stored)) = uniform {
                        if let Some(target) = self.program.kinds.get(ptr.kind) {
                            self.uniform_stores.push(UniformStore {
                                kind: ptr.kind,
                                array: target.array,
                                byte: ptr.byte,
                                value,
                                stored,
                                lanes: self.certain(mask).or(before.unwrap_or(Mask::NONE)),
                            });
                        }
                    }
                } else {
                    self.access(target, &locs, mask, AccessKind::ReadWrite, None);
                }
                Ok(Lanes::Uni(Val::Unknown(true)))
            }
        }
    }
}

/// `base[index]` (or `*base`) for every thread, where a base or an index is a linear form and
/// the other one value: a linear form of places, or one place for all; None where the threads'
/// places are neither (some leave the first extent, some do not; a byte that overflows).
pub(super) fn linear_offset(
    base: &Vals,
    index: &Vals,
    subscript: bool,
    step_of: &mut impl FnMut(u32) -> Option<Step>,
) -> Option<Lanes<Loc>> {
    let form = |values: &Vals| match values {
        Lanes::Uni(v) => Some((*v, None)),
        Lanes::Linear(linear) => Some((linear.shape, Some(*linear))),
        Lanes::Per(_) => None,
    };
    let (base_value, base_form) = form(base)?;
    let (index_value, index_form) = form(index)?;
    let block = match (base_form, index_form) {
        (Some(b), Some(i)) if b.block != i.block => return None,
        (Some(linear), _) | (None, Some(linear)) => linear.block,
        (None, None) => return None,
    };
    let number = |value: Val, linear: Option<Linear<Val>>| -> (i128, [i128; 3]) {
        match linear {
            Some(linear) => (i128::from(linear.base), linear.coef.map(i128::from)),
            None => match value {
                Val::Int(v, _) => (i128::from(v), [0; 3]),
                Val::Ptr(p) => (i128::from(p.byte), [0; 3]),
                _ => (0, [0; 3]),
            },
        }
    };
    // what varies and which variants meet is the same for every thread
    let varies = base_value.varies() || index_value.varies();
    let (Val::Ptr(ptr), Val::Int(..)) = (base_value, index_value) else {
        return Some(match (base_value, index_value, index_form) {
            (Val::Unknown(false), Val::Int(_, true), Some(linear)) if subscript => {
                Lanes::Linear(Linear {
                    shape: Loc::Indexed(0),
                    base: linear.base,
                    coef: linear.coef,
                    block: linear.block,
                })
            }
            (Val::Unknown(false), Val::Int(_, true), None) if subscript => return None,
            _ => Lanes::Uni(Loc::Elsewhere(varies)),
        });
    };
    let elsewhere = Some(Lanes::Uni(Loc::Elsewhere(varies)));
    let Some(step) = step_of(ptr.kind) else {
        return elsewhere;
    };
    let Some(row) = step.bytes else {
        return elsewhere;
    };
    let (index_base, index_coef) = number(index_value, index_form);
    let (low, high) = match index_form {
        Some(linear) => linear.range(),
        None => (index_base, index_base),
    };
    if let (true, Some(extent)) = (subscript, step.extent) {
        let extent = i128::from(extent);
        if high < 0 || low >= extent {
            return elsewhere;
        }
        if low < 0 || high >= extent {
            return None;
        }
    }
    // each thread computes `index * row` first
    let row = i128::from(row);
    let fits = |v: i128| i64::try_from(v).is_ok();
    if !(fits(low * row) && fits(high * row)) {
        return None;
    }
    let (byte_base, byte_coef) = number(base_value, base_form);
    let mut coef = [0i128; 3];
    for (axis, slot) in coef.iter_mut().enumerate() {
        *slot = index_coef[axis] * row + byte_coef[axis];
    }
    Linear::form(
        Loc::Shared {
            ptr: Ptr {
                kind: step.lands,
                byte: 0,
            },
            row: step.row,
        },
        index_base * row + byte_base,
        coef,
        block,
    )
}

/// Whether no thread's index leaves the first extent of its pointer, where that is known for
/// every thread at once (the base is one kind of value for all, the index one integer or a
/// linear form inside the extent); false where it must be read thread by thread.
pub(super) fn within_extent(
    base: &Vals,
    index: &Vals,
    step_of: &mut impl FnMut(u32) -> Option<Step>,
) -> bool {
    let base_value = match base {
        Lanes::Uni(value) => *value,
        Lanes::Linear(linear) => linear.shape,
        Lanes::Per(_) => return false,
    };
    let Val::Ptr(ptr) = base_value else {
        return true; // no thread subscripts a pointer
    };
    let (low, high) = match index {
        Lanes::Uni(Val::Int(i, _)) => (i128::from(*i), i128::from(*i)),
        Lanes::Linear(linear) if matches!(linear.shape, Val::Int(..)) => linear.range(),
        Lanes::Uni(_) | Lanes::Linear(_) => return true, // no thread's index is an integer
        Lanes::Per(_) => return false,
    };
    match step_of(ptr.kind).and_then(|step| step.extent) {
        Some(extent) => low >= 0 && high < i128::from(extent),
        None => true,
    }
}

/// One thread's `base[index]`.
pub(super) fn offset(
    base: Val,
    index: Val,
    subscript: bool,
    step_of: &mut impl FnMut(u32) -> Option<Step>,
) -> Loc {
    let varies = base.varies() || index.varies();
    let (Val::Ptr(ptr), Val::Int(index, _)) = (base, index) else {
        return match (base, index) {
            (Val::Unknown(false), Val::Int(index, true)) if subscript => Loc::Indexed(index),
            _ => Loc::Elsewhere(varies),
        };
    };
    let Some(step) = step_of(ptr.kind) else {
        return Loc::Elsewhere(varies);
    };
    let Some(row) = step.bytes else {
        return Loc::Elsewhere(varies);
    };
    if subscript
        && step
            .extent
            .is_some_and(|extent| index < 0 || index >= extent)
    {
        return Loc::Elsewhere(varies);
    }
    let Some(byte) = index.checked_mul(row).and_then(|b| b.checked_add(ptr.byte)) else {
        return Loc::Elsewhere(varies);
    };
    Loc::Shared {
        ptr: Ptr {
            kind: step.lands,
            byte,
        },
        row: step.row,
    }
}
