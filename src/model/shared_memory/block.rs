//! One block's threads running together: the state of the run (live threads, barrier intervals,
//! locals) and the steps every statement and expression pays from the budget. The statements,
//! expressions, accesses and calls it runs are in their own files.

use super::*;

/// The run stops: the block shape does not fit, or the run is past its budget.
pub(super) struct Invalid;

/// Threads that left the statement for the enclosing loop.
#[derive(Debug, Clone, Copy)]
pub(super) struct Jumps {
    pub(super) broke: Mask,
    pub(super) continued: Mask,
}

impl Jumps {
    pub(super) const NONE: Jumps = Jumps {
        broke: Mask::NONE,
        continued: Mask::NONE,
    };

    pub(super) fn or(self, other: Jumps) -> Jumps {
        Jumps {
            broke: self.broke.or(other.broke),
            continued: self.continued.or(other.continued),
        }
    }
}

/// The barriers each thread has passed, in order. The sequences are held as the paths of a tree
/// from an empty root, so that threads that pass the same barriers share one path, and passing
/// one is a step along it rather than a copy per thread.
#[derive(Default)]
pub(super) struct Passes<'t> {
    /// Per path end: the end it extends, its barrier, its length.
    pub(super) ends: Vec<(u32, Node<'t>, u32)>,
    /// The end each barrier leads to from an end (by the barrier's node id).
    pub(super) next: HashMap<(u32, usize), u32>,
    /// Per thread, its end.
    pub(super) lanes: Vec<u32>,
}

impl<'t> Passes<'t> {
    /// The empty sequence.
    pub(super) const NONE: u32 = u32::MAX;

    pub(super) fn new(lanes: usize) -> Self {
        Passes {
            lanes: vec![Self::NONE; lanes],
            ..Passes::default()
        }
    }

    /// The threads of `mask` pass barrier `node`.
    pub(super) fn pass(&mut self, mask: Mask, node: Node<'t>) {
        let mut last: Option<(u32, u32)> = None;
        for lane in mask.lanes() {
            let Some(from) = self.lanes.get(lane).copied() else {
                continue;
            };
            let to = match last {
                Some((seen, to)) if seen == from => to,
                _ => {
                    let to = self.step(from, node);
                    last = Some((from, to));
                    to
                }
            };
            if let Some(end) = self.lanes.get_mut(lane) {
                *end = to;
            }
        }
    }

    pub(super) fn step(&mut self, from: u32, node: Node<'t>) -> u32 {
        if let Some(to) = self.next.get(&(from, node.id())) {
            return *to;
        }
        let to = u32::try_from(self.ends.len()).unwrap_or(Self::NONE);
        let length = self.length(from) + 1;
        self.ends.push((from, node, length));
        self.next.insert((from, node.id()), to);
        to
    }

    pub(super) fn length(&self, end: u32) -> u32 {
        self.ends.get(end as usize).map_or(0, |e| e.2)
    }

    pub(super) fn parent(&self, end: u32) -> u32 {
        self.ends.get(end as usize).map_or(Self::NONE, |e| e.0)
    }

    /// Whether one of the two sequences begins the other.
    pub(super) fn one_begins_the_other(&self, a: u32, b: u32) -> bool {
        let (mut longer, shorter) = if self.length(a) >= self.length(b) {
            (a, b)
        } else {
            (b, a)
        };
        while self.length(longer) > self.length(shorter) {
            longer = self.parent(longer);
        }
        longer == shorter
    }

    /// The barriers of a sequence, in order.
    pub(super) fn sequence(&self, mut end: u32) -> Vec<Node<'t>> {
        let mut out = Vec::new();
        while let Some((from, node, _)) = self.ends.get(end as usize) {
            out.push(*node);
            end = *from;
        }
        out.reverse();
        out
    }
}

/// A shared element that the threads of `lanes` stored `value` into, a value the same in every
/// thread of the block, with no other write to its array since. Each of those threads has stored
/// before it reads, and the element holds the last store, so whatever order the warps ran in a
/// read by one of them returns `value`; a write of anything else there in the interval pairs with
/// the stores and is reported there.
#[derive(Debug, Clone, Copy)]
pub(super) struct UniformStore {
    pub(super) kind: u32,
    pub(super) array: u32,
    pub(super) byte: i64,
    pub(super) value: Val,
    pub(super) stored: Stored,
    pub(super) lanes: Mask,
}

/// The threads of one block run together: each statement and expression is read once for all
/// the threads that reach it, with a value per thread. Threads that take different branches run
/// them one after the other, as each thread would on its own; nothing a thread logs depends on
/// the others.
pub(super) struct Block<'p, 'm, 't> {
    pub(super) program: &'p Program<'m, 't>,
    pub(super) block: [i64; 3],
    pub(super) lanes: usize,
    /// Threads that have neither returned nor stopped.
    pub(super) alive: Mask,
    /// Threads evaluating a part whose execution is not certain: their accesses are not logged.
    pub(super) speculative: Mask,
    /// Per thread: barriers passed, and `__syncwarp()` calls.
    pub(super) epoch: Vec<u32>,
    /// The barrier interval and `__syncwarp()` count every alive thread is at, when they agree:
    /// found again after either changes, or a thread stops (`common_interval`).
    pub(super) common: std::cell::Cell<Option<Option<(u32, u32)>>>,
    pub(super) passed: Passes<'t>,
    pub(super) warp_syncs: Vec<u32>,
    /// `threadIdx` per axis, the linear thread index and the lane within the warp.
    pub(super) coordinates: [Vals; 3],
    pub(super) linear: Vals,
    pub(super) lane_id: Vals,
    /// Locals, innermost last, with their declared types.
    pub(super) scopes: Vec<(&'t str, Vals, &'t str)>,
    pub(super) frames: Vec<usize>,
    /// Per `Val::Held` token: the pointer kind the element was read through, and `writes` then.
    pub(super) held: Vec<(u32, u32)>,
    /// Inside a followed call: where its locals begin (below, only the file-scope arrays are
    /// seen), how many calls deep, and the threads that have returned from it.
    pub(super) floor: usize,
    pub(super) calls: usize,
    pub(super) returned: Mask,
    /// Writes the run has made (or may have made: a call, a region not followed), but stores
    /// back of what an element held.
    pub(super) writes: u32,
    /// Shared elements that threads stored one block-uniform value into (`UniformStore`).
    pub(super) uniform_stores: Vec<UniformStore>,
    pub(super) budget: &'p mut u64,
    pub(super) log: &'p mut Log<'t>,
}

impl<'p, 'm, 't> Block<'p, 'm, 't> {
    pub(super) fn new(
        program: &'p Program<'m, 't>,
        block: [i64; 3],
        budget: &'p mut u64,
        log: &'p mut Log<'t>,
    ) -> Self {
        let lanes = (block[0] * block[1] * block[2]).clamp(1, MAX_LANES as i64) as usize;
        // threads are numbered x first, then y, then z
        let whole = block.iter().product::<i64>() == lanes as i64;
        let linear = |coef: [i128; 3], per: &dyn Fn(usize) -> Val| {
            whole
                .then(|| Linear::form(Val::Int(0, true), 0, coef, block))
                .flatten()
                .unwrap_or_else(|| Lanes::from_fn(lanes, per))
        };
        let axis = |a: usize| {
            let mut coef = [0; 3];
            coef[a] = 1;
            linear(coef, &|lane| {
                Val::Int(coordinates(lane as i64, block)[a], true)
            })
        };
        let mut state = Block {
            program,
            block,
            lanes,
            alive: Mask::first(lanes),
            speculative: Mask::NONE,
            epoch: vec![0; lanes],
            common: std::cell::Cell::new(None),
            passed: Passes::new(lanes),
            warp_syncs: vec![0; lanes],
            coordinates: [axis(0), axis(1), axis(2)],
            linear: linear(
                [1, i128::from(block[0]), i128::from(block[0] * block[1])],
                &|lane| Val::Int(lane as i64, true),
            ),
            lane_id: Lanes::from_fn(lanes, |lane| {
                Val::Int(lane as i64 % program.scope.warp, true)
            }),
            scopes: Vec::new(),
            frames: Vec::new(),
            held: Vec::new(),
            floor: 0,
            calls: 0,
            returned: Mask::NONE,
            writes: 0,
            uniform_stores: Vec::new(),
            budget,
            log,
        };
        state.bind_entry();
        state
    }

    pub(super) fn source(&self) -> &'t str {
        self.program.scope.source
    }

    pub(super) fn text(&self, node: Node<'t>) -> &'t str {
        text(node, self.program.scope.source)
    }

    pub(super) fn part(&self, node: Node<'t>, part: Part) -> Option<Node<'t>> {
        self.program.part(node, part)
    }

    pub(super) fn bind_entry(&mut self) {
        for (id, (name, _)) in self.program.scope.globals.iter().enumerate() {
            let value = self.array_value(id as u32);
            self.scopes.push((name, Lanes::Uni(value), ""));
        }
        for parameter in &self.program.function.parameters {
            let value = if parameter.is_pointer {
                Val::Unknown(false)
            } else if is_integer_type(&parameter.type_text) && !parameter.type_text.contains('&') {
                Val::Chosen(PARAMETER_VALUE)
            } else {
                Val::Unknown(false)
            };
            let name = text(parameter.name_node, self.source());
            let type_text = parameter
                .declaration
                .field("type")
                .map_or("", |t| text(t, self.source()));
            self.scopes.push((name, Lanes::Uni(value), type_text));
        }
    }

    pub(super) fn array_value(&self, id: u32) -> Val {
        let Some(array) = self.program.arrays.get(id as usize) else {
            return Val::Unknown(true);
        };
        let mut shape = Shape::FLAT;
        let inner: Vec<Option<i64>> = array.dims.iter().skip(1).copied().collect();
        if inner.len() <= 4 && inner.iter().all(Option::is_some) {
            for (i, d) in inner.iter().enumerate() {
                shape.dims[i] = d.unwrap_or(0);
            }
            shape.len = inner.len() as u8;
        } else {
            // inner extents unknown: the array's rows cannot be told apart
            return Val::Unknown(true);
        }
        let kind = self.program.kinds.id(PtrKind {
            array: id,
            element: array.element,
            shape,
            extent: array.dims.first().copied().flatten(),
        });
        Val::Ptr(Ptr { kind, byte: 0 })
    }

    pub(super) fn lookup(&self, name: &str) -> Option<&Vals> {
        self.position(name).map(|position| &self.scopes[position].1)
    }

    /// Where local `name` is: among the current function's locals, else (in a followed call)
    /// among the file-scope arrays.
    pub(super) fn position(&self, name: &str) -> Option<usize> {
        let floor = self.floor.min(self.scopes.len());
        let outer = self.program.scope.globals.len().min(floor);
        self.scopes[floor..]
            .iter()
            .rposition(|(n, ..)| *n == name)
            .map(|p| p + floor)
            .or_else(|| self.scopes[..outer].iter().rposition(|(n, ..)| *n == name))
    }

    /// `value` kept in a variable of type `type_text`: a value read from an element stays what
    /// the element held only in a variable of the element's own type (a conversion may change it).
    pub(super) fn held_as(&self, value: &Vals, type_text: &str) -> Vals {
        let holds = |v: &Val| matches!(v, Val::Held(..));
        let any = match value {
            Lanes::Uni(v) => holds(v),
            Lanes::Linear(linear) => holds(&linear.shape),
            Lanes::Per(values) => values.iter().any(holds),
        };
        if !any {
            return value.clone();
        }
        let kinds = &self.program.kinds;
        let arrays = &self.program.arrays;
        let held = &self.held;
        value.convert(|v| match v {
            Val::Held(token, _) => {
                let kind = held
                    .get(token as usize)
                    .and_then(|(kind, _)| kinds.get(*kind));
                let array = kind.and_then(|k| arrays.get(k.array as usize));
                let fits = match (kind, array) {
                    (Some(kind), Some(array)) => {
                        kind.element == array.element
                            && (type_text.trim() == "auto"
                                || same_type(type_text, &array.element_type))
                    }
                    _ => false,
                };
                if fits {
                    v
                } else {
                    Val::Unknown(true)
                }
            }
            other => other,
        })
    }

    /// The token of a value read now through pointers of kind `kind` (`Val::Held`).
    pub(super) fn held_token(&mut self, kind: u32) -> u32 {
        let now = (kind, self.writes);
        let start = self.held.len().saturating_sub(4);
        if let Some(found) = self.held[start..].iter().position(|h| *h == now) {
            return (start + found) as u32;
        }
        self.held.push(now);
        (self.held.len() - 1) as u32
    }

    /// Gives the threads of `mask` a new value of local `name`.
    pub(super) fn assign_local(&mut self, name: &str, value: &Vals, mask: Mask) {
        let (alive, lanes) = (self.alive, self.lanes);
        let Some(position) = self.position(name) else {
            return;
        };
        // a value read from an element stays what the element held only in a local of its type
        let type_text = self.scopes[position].2;
        let value = self.held_as(value, type_text);
        let slot = &mut self.scopes[position];
        slot.1 = if alive.without(mask).is_empty() {
            value
        } else {
            slot.1.blend(&value, mask, lanes)
        };
    }

    /// The barrier interval and `__syncwarp()` count every alive thread is at, when they agree.
    pub(super) fn common_interval(&self) -> Option<(u32, u32)> {
        if let Some(known) = self.common.get() {
            return known;
        }
        let mut lanes = self.alive.lanes();
        let found = lanes.next().and_then(|first| {
            let at = (*self.epoch.get(first)?, *self.warp_syncs.get(first)?);
            lanes
                .all(|lane| {
                    self.epoch.get(lane) == Some(&at.0) && self.warp_syncs.get(lane) == Some(&at.1)
                })
                .then_some(at)
        });
        self.common.set(Some(found));
        found
    }

    /// Threads of `mask` whose accesses are logged: alive and not speculative.
    /// A write the run does not follow (a call, a region skipped): it may have stored anything
    /// anywhere.
    pub(super) fn unfollowed_write(&mut self) {
        self.writes = self.writes.wrapping_add(1);
        self.uniform_stores.clear();
    }

    /// A write by the threads of `mask` to `locs`: what any uniform store in the arrays it
    /// touches held is no longer known.
    pub(super) fn forget_uniform_stores(&mut self, locs: &Lanes<Loc>, mask: Mask) {
        if self.uniform_stores.is_empty() {
            return;
        }
        let kinds: Vec<u32> = match locs {
            Lanes::Uni(Loc::Shared { ptr, .. }) => vec![ptr.kind],
            Lanes::Uni(_) => Vec::new(),
            Lanes::Linear(linear) => match linear.shape {
                Loc::Shared { ptr, .. } => vec![ptr.kind],
                _ => Vec::new(),
            },
            Lanes::Per(_) => {
                let mut kinds = Vec::new();
                for lane in mask.lanes() {
                    if let Loc::Shared { ptr, .. } = locs.get(lane) {
                        if !kinds.contains(&ptr.kind) {
                            kinds.push(ptr.kind);
                        }
                    }
                }
                kinds
            }
        };
        let mut arrays = Vec::new();
        for kind in kinds {
            match self.program.kinds.get(kind) {
                Some(target) => arrays.push(target.array),
                // an array it cannot name: any of them
                None => {
                    self.uniform_stores.clear();
                    return;
                }
            }
        }
        self.uniform_stores.retain(|u| !arrays.contains(&u.array));
    }

    /// The value a store of `value` at `locs` leaves for every thread that made it, when it is
    /// one block-uniform value at one element: an integer (`BLOCK_DIM * blockIdx.y`, a
    /// parameter's product), or, outside loops and followed calls, a value every thread
    /// computes alike (`gridDim.x * 4`, `p[0]`, a copy of one shared element), which the log
    /// tells apart only by its site.
    pub(super) fn uniform_store(
        &self,
        node: Node<'t>,
        value: &Vals,
        locs: &Lanes<Loc>,
        stored: &Lanes<Stored>,
    ) -> Option<(Ptr, Val, Stored)> {
        let (Lanes::Uni(value), Lanes::Uni(Loc::Shared { ptr, row: false }), Lanes::Uni(stored)) =
            (value, locs, stored)
        else {
            return None;
        };
        let exact = match value {
            Val::Int(_, false) | Val::Chosen(_) => true,
            Val::Unknown(false) | Val::Load(..) | Val::Held(..) => false,
            _ => return None,
        };
        // the same site in another trip of a loop may store another value
        if !exact && (self.calls > 0 || self.in_loop(node)) {
            return None;
        }
        Some((*ptr, *value, *stored))
    }

    fn in_loop(&self, node: Node<'t>) -> bool {
        let mut current = node;
        for _ in 0..crate::syntax::MAX_DEPTH {
            let Some(parent) = current.up() else {
                return false;
            };
            match parent.node_kind() {
                "for_statement" | "while_statement" | "do_statement" | "for_range_loop" => {
                    return true
                }
                "function_definition" | "lambda_expression" => return false,
                _ => current = parent,
            }
        }
        true
    }

    /// What the threads of `mask` read at `locs` when each of them stored it itself
    /// (`UniformStore`): the value, and how the log names it.
    pub(super) fn own_uniform_store(&self, locs: &Lanes<Loc>, mask: Mask) -> Option<(Val, Stored)> {
        let Lanes::Uni(Loc::Shared { ptr, row: false }) = locs else {
            return None;
        };
        let readers = mask.and(self.alive);
        let store = self
            .uniform_stores
            .iter()
            .find(|u| u.kind == ptr.kind && u.byte == ptr.byte)?;
        (!readers.is_empty() && readers.without(store.lanes).is_empty())
            .then_some((store.value, store.stored))
    }

    pub(super) fn certain(&self, mask: Mask) -> Mask {
        mask.and(self.alive).without(self.speculative)
    }

    /// The threads of `mask` stop where they are, keeping what they logged.
    pub(super) fn stop(&mut self, mask: Mask) {
        self.alive = self.alive.without(mask);
        self.common.set(None);
    }

    /// One statement or expression read for the threads of `mask`: a step, and one more for
    /// every warp's worth of threads.
    pub(super) fn step(&mut self, mask: Mask) -> Result<(), Invalid> {
        let threads = mask.count();
        let cost = 1 + u64::from(threads / 32);
        if *self.budget < cost || self.log.outside {
            return Err(Invalid);
        }
        *self.budget -= cost;
        Ok(())
    }

    /// Splits the threads of `mask` by a condition's value: true, false, unknown.
    pub(super) fn split(&self, value: &Vals, mask: Mask) -> (Mask, Mask, Mask) {
        let (mut yes, mut no, mut unknown) = (Mask::NONE, Mask::NONE, Mask::NONE);
        if let Lanes::Uni(v) = value {
            return match v.truth() {
                Some(true) => (mask, Mask::NONE, Mask::NONE),
                Some(false) => (Mask::NONE, mask, Mask::NONE),
                None => (Mask::NONE, Mask::NONE, mask),
            };
        }
        for lane in mask.lanes() {
            match value.get(lane).truth() {
                Some(true) => yes.set(lane),
                Some(false) => no.set(lane),
                None => unknown.set(lane),
            }
        }
        (yes, no, unknown)
    }
}
