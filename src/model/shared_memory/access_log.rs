//! The log of shared accesses and the judgement of which pairs race, kept apart from the run so
//! that what makes a conflict (one interval, a common byte, a write, not benign) is decided in
//! one place.

use super::*;

/// `tile[0][1]` for a byte offset into `tile`.
pub(super) fn element_text(array: &Array, byte: i64) -> String {
    if array.scalar {
        return array.name.clone();
    }
    let mut index = byte / array.element.max(1);
    let mut parts = Vec::new();
    for (position, _) in array.dims.iter().enumerate().rev() {
        if position == 0 {
            parts.push(index);
            break;
        }
        match array.dims[position] {
            Some(extent) if extent > 0 => {
                parts.push(index % extent);
                index /= extent;
            }
            _ => {
                parts.clear();
                parts.push(byte / array.element.max(1));
                break;
            }
        }
    }
    parts.reverse();
    let mut out = array.name.clone();
    for p in parts {
        out.push_str(&format!("[{p}]"));
    }
    out
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Record {
    /// The thread's linear index in the block.
    pub(super) linear: i64,
    /// The warp it belongs to.
    pub(super) warp: i64,
    /// The bytes it touches: `start..start + size`.
    pub(super) start: i64,
    pub(super) size: i64,
    pub(super) site: u32,
    pub(super) kind: AccessKind,
    /// `__syncwarp()` calls the thread had passed: lanes of one warp are ordered by them.
    pub(super) warp_syncs: u32,
    /// What a write stored, for telling two identical stores apart from a real conflict.
    pub(super) stored: Stored,
}

/// What a write stored; on a read, `Int`, `Uniform` or `Load` is the value the reader itself
/// stored there before (`UniformStore`), and anything else `Varying`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stored {
    Int(i64),
    /// A value every thread computes the same way at the same place.
    Uniform(u32),
    /// What the read at a site returned at an index (`Val::Load`).
    Load(u32, i64),
    /// The value the element held: read from it by the same thread, with no write since
    /// (`Val::Held`).
    Back,
    /// What another shared element held when it was read (`Val::Held` by its token and byte):
    /// threads that read the same element at the same point store the same value
    /// (`height = rows;` after thread 0 set `rows` and a barrier).
    Copy(u32, i64),
    /// An atomic update (`atomicAdd`, ...): no race with another atomic.
    Atomic,
    Varying,
}

/// Up to three accesses of one byte: the first accessor, a second thread, and the first from
/// another warp than the first's. Every later access that conflicts with some earlier one
/// conflicts with one of these. Held as positions in `Log::records`: a slot is made for every
/// element a block touches, and small slots keep that table in the cache.
#[derive(Clone, Copy)]
struct Kept {
    items: [u32; 3],
}

const NO_RECORD: u32 = u32::MAX;

impl Default for Kept {
    fn default() -> Self {
        Kept {
            items: [NO_RECORD; 3],
        }
    }
}

impl Kept {
    fn iter<'r>(&self, records: &'r [Record]) -> impl Iterator<Item = &'r Record> + 'r {
        let items = self.items;
        items
            .into_iter()
            .take_while(|item| *item != NO_RECORD)
            .filter_map(move |item| records.get(item as usize))
    }

    fn offer(&mut self, record: Record, records: &mut Vec<Record>) {
        if self.items[2] != NO_RECORD && (self.items[2] as usize) < records.len() {
            return; // three kept: nothing more is
        }
        let keep = {
            let mut kept: [Option<&Record>; 3] = [None; 3];
            for (place, kept_record) in kept.iter_mut().zip(self.iter(records)) {
                *place = Some(kept_record);
            }
            match kept {
                [None, ..] => true,
                [Some(first), None, _] => first.linear != record.linear,
                [Some(first), Some(second), None] => {
                    first.warp != record.warp && second.warp != record.warp
                }
                _ => false,
            }
        };
        if keep {
            if let Some(free) = self.items.iter_mut().find(|item| **item == NO_RECORD) {
                *free = records.len() as u32;
                records.push(record);
            }
        }
    }
}

#[derive(Default, Clone, Copy)]
struct Slot {
    writes: Kept,
    reads: Kept,
}

/// The slots of one array in one barrier interval, by element: the first elements in a table
/// (an array of shared memory is small, and a run touches most of it), the rest by hash.
#[derive(Default)]
pub(super) struct Slots {
    table: Vec<Slot>,
    rest: HashMap<i64, Slot>,
}

impl Slots {
    /// Elements below this are kept in the table.
    const TABLE: i64 = 1 << 12;

    fn get(&mut self, element: i64) -> &mut Slot {
        if (0..Self::TABLE).contains(&element) {
            let index = element as usize;
            if index >= self.table.len() {
                self.table.resize(index + 1, Slot::default());
            }
            &mut self.table[index]
        } else {
            self.rest.entry(element).or_default()
        }
    }
}

/// A read put aside (`Log::deferred`): its threads, all in one interval, through pointers of
/// one kind, with the same `__syncwarp()` count.
pub(super) struct Deferred {
    pub(super) key: (u32, u32),
    pub(super) site: u32,
    pub(super) kind: AccessKind,
    pub(super) locs: Lanes<Loc>,
    pub(super) lanes: Mask,
    pub(super) pointee: Pointee,
    pub(super) warp_syncs: u32,
    /// What a write stores, per thread.
    pub(super) stored: Option<Lanes<Stored>>,
}

/// What an access through a pointer reads: the array, the bytes it touches, the array's
/// element size, and the array's size when known.
#[derive(Debug, Clone, Copy)]
pub(super) struct Pointee {
    pub(super) array: u32,
    pub(super) size: i64,
    pub(super) unit: i64,
    pub(super) total: Option<i64>,
}

pub(super) struct Found {
    pub(super) epoch: u32,
    pub(super) array: u32,
    pub(super) byte: i64,
    pub(super) later: Record,
    pub(super) earlier: Record,
    pub(super) same_warp: bool,
}

#[derive(Default)]
pub(super) struct Log<'t> {
    pub(super) sites: Vec<Node<'t>>,
    pub(super) site_ids: HashMap<usize, u32>,
    /// Per barrier interval still open to some thread and array: per element, what touched it.
    pub(super) slots: Vec<(u32, u32, Slots)>,
    /// Reads put aside, in order: a read conflicts only with a write, so the reads of an
    /// interval and array that no write has touched yet make no pair. The first write there
    /// logs them first, in order, as if each had been logged when it was made; the reads of an
    /// interval that never sees a write to the array (a loop over a tile after its barrier)
    /// are never logged one by one.
    pub(super) deferred: Vec<Deferred>,
    /// The intervals and arrays some write has touched: their reads are logged at once.
    pub(super) written: Vec<(u32, u32)>,
    /// The lanes of a warp.
    pub(super) warp: i64,
    /// The accesses the slots keep.
    pub(super) records: Vec<Record>,
    pub(super) conflicts: Vec<Found>,
    /// Epochs in which some thread called what may hide a barrier: nothing is concluded there.
    pub(super) poisoned: Vec<u32>,
    /// An access left its array: the block shape does not fit the kernel, and the run stops.
    pub(super) outside: bool,
}

impl<'t> Log<'t> {
    pub(super) fn site(&mut self, node: Node<'t>) -> u32 {
        if let Some(id) = self.site_ids.get(&node.id()) {
            return *id;
        }
        let id = self.sites.len() as u32;
        self.sites.push(node);
        self.site_ids.insert(node.id(), id);
        id
    }

    /// Forgets the intervals before `open`: every running thread has left them.
    pub(super) fn close_before(&mut self, open: u32) {
        self.slots.retain(|(epoch, _, _)| *epoch >= open);
        self.deferred.retain(|d| d.key.0 >= open);
        self.written.retain(|(epoch, _)| *epoch >= open);
        if self.slots.is_empty() {
            self.records.clear();
        }
    }

    /// Logs an access to the elements (of `unit` bytes) it touches, and the first conflict it
    /// makes with an earlier access of the same interval; the reads put aside there first.
    pub(super) fn record(&mut self, epoch: u32, array: u32, unit: i64, record: Record) {
        let key = (epoch, array);
        self.replay(key);
        if record.kind.writes() && !self.written.contains(&key) {
            self.written.push(key);
        }
        self.put(epoch, array, unit, record);
    }

    /// Logs the accesses put aside for an interval and array, in order.
    pub(super) fn replay(&mut self, key: (u32, u32)) {
        if !self.deferred.iter().any(|d| d.key == key) {
            return;
        }
        let (due, rest): (Vec<Deferred>, Vec<Deferred>) = std::mem::take(&mut self.deferred)
            .into_iter()
            .partition(|d| d.key == key);
        self.deferred = rest;
        let (epoch, array) = key;
        for access in due {
            if access.kind.writes() && !self.written.contains(&key) {
                self.written.push(key);
            }
            for lane in access.lanes.lanes() {
                let Loc::Shared { ptr, row: false } = access.locs.get(lane) else {
                    continue;
                };
                let earlier = Record {
                    linear: lane as i64,
                    warp: lane as i64 / self.warp,
                    start: ptr.byte,
                    size: access.pointee.size,
                    site: access.site,
                    kind: access.kind,
                    warp_syncs: access.warp_syncs,
                    stored: access
                        .stored
                        .as_ref()
                        .map_or(Stored::Varying, |s| s.get(lane)),
                };
                self.put(epoch, array, access.pointee.unit, earlier);
            }
        }
    }

    /// Whether an access to an interval and array may be put aside: a read, while no write
    /// there is logged or put aside; a write whose threads touch bytes apart, while nothing
    /// else there is.
    pub(super) fn may_defer(&self, key: (u32, u32), writes: bool) -> bool {
        if self.written.contains(&key) {
            return false;
        }
        if writes {
            !self.deferred.iter().any(|d| d.key == key)
                && !self.slots.iter().any(|(e, a, _)| (*e, *a) == key)
        } else {
            !self
                .deferred
                .iter()
                .any(|d| d.key == key && d.kind.writes())
        }
    }

    pub(super) fn put(&mut self, epoch: u32, array: u32, unit: i64, record: Record) {
        let warp = |r: &Record| r.warp;
        let unit = unit.max(1);
        let (first, last) = (
            record.start.div_euclid(unit),
            (record.start + record.size.max(1) - 1).div_euclid(unit),
        );
        let overlap = |o: &Record| {
            o.start < record.start + record.size.max(1) && record.start < o.start + o.size.max(1)
        };
        let position = match self
            .slots
            .iter()
            .rposition(|(e, a, _)| *e == epoch && *a == array)
        {
            Some(position) => position,
            None => {
                self.slots.push((epoch, array, Slots::default()));
                self.slots.len() - 1
            }
        };
        let slots = &mut self.slots[position].2;
        let records = &mut self.records;
        for element in first..=last.min(first + 31) {
            let byte = record.start.max(element * unit);
            let slot = slots.get(element);
            let reads = if record.kind.writes() {
                slot.reads
            } else {
                Kept::default()
            };
            let found = {
                let against = || slot.writes.iter(records).chain(reads.iter(records));
                let other_warp = against().find(|o| {
                    o.linear != record.linear
                        && warp(o) != warp(&record)
                        && overlap(o)
                        && !benign(o, &record)
                });
                let same_warp = against().find(|o| {
                    o.linear != record.linear
                        && overlap(o)
                        && warp(o) == warp(&record)
                        && o.warp_syncs == record.warp_syncs
                        && !benign(o, &record)
                });
                other_warp
                    .map(|o| (*o, false))
                    .or(same_warp.map(|o| (*o, true)))
            };
            if record.kind.writes() {
                slot.writes.offer(record, records);
            } else {
                slot.reads.offer(record, records);
            }
            if let Some((earlier, same_warp)) = found {
                // a pair is kept in a few intervals (one may turn out to hide a barrier), not in
                // every iteration of a loop, so that the other pairs find room
                let same_pair = |c: &&Found| {
                    c.same_warp == same_warp
                        && ((c.later.site == record.site && c.earlier.site == earlier.site)
                            || (c.later.site == earlier.site && c.earlier.site == record.site))
                };
                let kept = self.conflicts.iter().filter(same_pair).count();
                let here = self
                    .conflicts
                    .iter()
                    .filter(same_pair)
                    .any(|c| c.epoch == epoch);
                if !here && kept < 4 && self.conflicts.len() < 512 {
                    self.conflicts.push(Found {
                        epoch,
                        array,
                        byte,
                        later: record,
                        earlier,
                        same_warp,
                    });
                }
                // one element is enough to show a pair of accesses
                return;
            }
        }
    }
}

/// Two threads storing the same value: no outcome depends on their order. A write that stores
/// back what its element held changes nothing, so no read or other such write depends on its
/// order; any other write to the element in the interval conflicts with the read that store
/// began with, and is found there.
fn benign(a: &Record, b: &Record) -> bool {
    if a.stored == Stored::Atomic && b.stored == Stored::Atomic {
        return true;
    }
    let back = |r: &Record| r.kind == AccessKind::Write && r.stored == Stored::Back;
    if (back(a) && (back(b) || b.kind == AccessKind::Read))
        || (back(b) && a.kind == AccessKind::Read)
    {
        return true;
    }
    let alike = match (a.stored, b.stored) {
        (Stored::Int(x), Stored::Int(y)) => x == y,
        (Stored::Uniform(x), Stored::Uniform(y)) => x == y,
        (Stored::Load(x, i), Stored::Load(y, j)) => x == y && i == j,
        (Stored::Copy(x, i), Stored::Copy(y, j)) => x == y && i == j,
        _ => false,
    };
    // a read carries a value only when the reader stored it there itself before (`UniformStore`):
    // the element holds that value whichever store of it came last
    let written = |r: &Record| r.kind == AccessKind::Write;
    let read = |r: &Record| r.kind == AccessKind::Read;
    alike && ((written(a) && written(b)) || (written(a) && read(b)) || (read(a) && written(b)))
}
