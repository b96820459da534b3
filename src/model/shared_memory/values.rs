//! What a run holds for each thread: integers, pointers into the shared arrays, and what it cannot
//! know. A run holds one value per thread for every expression it reads, so the values are kept
//! small and pointer kinds are kept once per kernel.

use super::*;

#[derive(Debug, Clone)]
pub(super) struct Array {
    pub(super) name: String,
    /// Element size in bytes; 1 when the type's size is not known (then only pointers of the
    /// same type index it).
    pub(super) element: i64,
    pub(super) element_type: String,
    /// Extents, outermost first; None where not a known constant.
    pub(super) dims: Vec<Option<i64>>,
    /// A scalar `__shared__` variable rather than an array.
    pub(super) scalar: bool,
}

impl Array {
    pub(super) fn bytes(&self) -> Option<i64> {
        let mut total = self.element;
        for d in &self.dims {
            total = total.checked_mul((*d)?)?;
        }
        Some(total)
    }
}

/// The inner extents of a pointer into a multi-dimensional array (`tile[ty]` has `[17]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Shape {
    pub(super) dims: [i64; 4],
    pub(super) len: u8,
}

impl Shape {
    pub(super) const FLAT: Shape = Shape {
        dims: [0; 4],
        len: 0,
    };
    pub(super) fn row_bytes(&self, element: i64) -> Option<i64> {
        self.dims[..self.len as usize]
            .iter()
            .try_fold(element, |acc, d| acc.checked_mul(*d))
    }
    pub(super) fn inner(&self) -> Shape {
        let mut dims = [0; 4];
        let len = self.len.saturating_sub(1);
        let len_usize = len as usize;
        dims[..len_usize].copy_from_slice(&self.dims[1..len_usize + 1]);
        Shape { dims, len }
    }
}

/// What a pointer into shared memory points at, apart from the byte: the array, the size of an
/// element, the inner extents and the first subscript's extent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct PtrKind {
    pub(super) array: u32,
    /// Size of what it points at.
    pub(super) element: i64,
    pub(super) shape: Shape,
    /// The first subscript's extent, when known: `tile[ty]` must stay below it.
    pub(super) extent: Option<i64>,
}

/// A pointer into shared memory: its kind, kept once per kernel (`Kinds`), and the byte it
/// points at. A run holds a value per thread for every expression it reads, so values are kept
/// small (16 bytes; packed, so that `Val` needs no more).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C, packed(4))]
pub(super) struct Ptr {
    pub(super) kind: u32,
    pub(super) byte: i64,
}

/// The pointer kinds of one kernel's runs, each kept once and named by its position.
#[derive(Default)]
pub(super) struct Kinds {
    pub(super) all: RefCell<Vec<PtrKind>>,
    pub(super) ids: RefCell<HashMap<PtrKind, u32>>,
    /// Per kind, once asked: the kind of one of its rows (`tile[ty]` of `tile`), and the same
    /// kind with no first extent (`tile + 1`).
    pub(super) derived: RefCell<Vec<[Option<u32>; 2]>>,
    /// Per kind, once asked: what a subscript of it reads.
    pub(super) steps: RefCell<Vec<Option<Step>>>,
}

/// What a subscript of a pointer reads (`Kinds::step`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Step {
    /// The bytes one index moves; None on overflow.
    pub(super) bytes: Option<i64>,
    pub(super) extent: Option<i64>,
    /// The kind of what it lands on.
    pub(super) lands: u32,
    /// It lands on a row of a multi-dimensional array.
    pub(super) row: bool,
}

impl Kinds {
    pub(super) fn id(&self, kind: PtrKind) -> u32 {
        if let Some(id) = self.ids.borrow().get(&kind) {
            return *id;
        }
        let mut all = self.all.borrow_mut();
        let id = u32::try_from(all.len()).unwrap_or(u32::MAX);
        all.push(kind);
        self.derived.borrow_mut().push([None, None]);
        self.ids.borrow_mut().insert(kind, id);
        id
    }

    pub(super) fn get(&self, id: u32) -> Option<PtrKind> {
        self.all.borrow().get(id as usize).copied()
    }

    pub(super) fn derive(&self, id: u32, which: usize, make: impl Fn(PtrKind) -> PtrKind) -> u32 {
        if let Some(Some(known)) = self.derived.borrow().get(id as usize).map(|d| d[which]) {
            return known;
        }
        let Some(kind) = self.get(id) else {
            return id;
        };
        let derived = self.id(make(kind));
        if let Some(slot) = self.derived.borrow_mut().get_mut(id as usize) {
            slot[which] = Some(derived);
        }
        derived
    }

    /// The kind of a row of kind `id`: its inner extents, the first of them its extent.
    pub(super) fn row(&self, id: u32) -> u32 {
        self.derive(id, 0, |kind| PtrKind {
            shape: kind.shape.inner(),
            extent: (kind.shape.len > 0).then(|| kind.shape.dims[0]),
            ..kind
        })
    }

    /// What subscripting a pointer of kind `id` reads: the bytes of one step, the first
    /// extent, and the kind of what it lands on (a row, or an element).
    pub(super) fn step(&self, id: u32) -> Option<Step> {
        if let Some(Some(known)) = self.steps.borrow().get(id as usize) {
            return Some(*known);
        }
        let kind = self.get(id)?;
        let step = Step {
            bytes: kind.shape.row_bytes(kind.element),
            extent: kind.extent,
            lands: self.row(id),
            row: kind.shape.len > 0,
        };
        let mut steps = self.steps.borrow_mut();
        if steps.len() <= id as usize {
            steps.resize(id as usize + 1, None);
        }
        if let Some(slot) = steps.get_mut(id as usize) {
            *slot = Some(step);
        }
        Some(step)
    }

    /// Kind `id` with no first extent: a pointer moved off the start of its row.
    pub(super) fn unbounded(&self, id: u32) -> u32 {
        self.derive(id, 1, |kind| PtrKind {
            extent: None,
            ..kind
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Val {
    /// A known integer, and whether it may differ between the threads of the block.
    Int(i64, bool),
    Ptr(Ptr),
    /// Not known; whether it may differ between threads.
    Unknown(bool),
    /// An integer that follows from the value taken for a kernel parameter: good for sizes and
    /// trip counts (`i < n`), not for choosing a path (`mode == 3`) or an element (`s[n]`), where
    /// the launch's real value decides.
    Chosen(i64),
    /// What the read at a site (`bias[c]`, memory the run does not follow, through a pointer
    /// every thread holds alike) returned at an index: not known, but the same for every thread
    /// that read that element there.
    Load(u32, i64),
    /// What a read of a shared element returned, by the element's byte: `Block::held` names the
    /// pointer kind it was read through and how many writes the run had made then. Stored back
    /// through the same kind at the same byte with no write since, it changes nothing.
    Held(u32, i64),
}

impl Lane for Val {
    fn numbered(self, number: i64) -> Self {
        match self {
            Val::Int(_, varies) => Val::Int(number, varies),
            Val::Ptr(ptr) => Val::Ptr(Ptr {
                kind: ptr.kind,
                byte: number,
            }),
            Val::Load(site, _) => Val::Load(site, number),
            Val::Held(token, _) => Val::Held(token, number),
            other => other,
        }
    }
}

impl Lanes<Val> {
    /// Every thread's value through `f`, which keeps a value's number or ignores it, choosing
    /// which by everything but the number (its variant, its kind, whether it varies): a linear
    /// form is converted once.
    pub(super) fn convert(&self, f: impl Fn(Val) -> Val) -> Vals {
        if let Lanes::Linear(linear) = self {
            let (zero, one) = (f(linear.shape.numbered(0)), f(linear.shape.numbered(1)));
            if zero == one {
                return Lanes::Uni(zero);
            }
            if one == zero.numbered(1) {
                return Lanes::Linear(Linear {
                    shape: zero,
                    ..*linear
                });
            }
        }
        self.map(f)
    }
}

impl Lane for Loc {
    fn numbered(self, number: i64) -> Self {
        match self {
            Loc::Shared { ptr, row } => Loc::Shared {
                ptr: Ptr {
                    kind: ptr.kind,
                    byte: number,
                },
                row,
            },
            Loc::Indexed(_) => Loc::Indexed(number),
            other => other,
        }
    }
}

impl Lane for Stored {
    fn numbered(self, _: i64) -> Self {
        self
    }
}

impl Lane for Option<i64> {
    fn numbered(self, _: i64) -> Self {
        self
    }
}

impl Val {
    pub(super) fn varies(self) -> bool {
        match self {
            Val::Int(_, v) | Val::Unknown(v) => v,
            Val::Ptr(_) | Val::Load(..) | Val::Held(..) => true,
            Val::Chosen(_) => false,
        }
    }
    pub(super) fn truth(self) -> Option<bool> {
        match self {
            Val::Int(v, _) => Some(v != 0),
            Val::Ptr(_) => Some(true),
            Val::Unknown(_) | Val::Chosen(_) | Val::Load(..) | Val::Held(..) => None,
        }
    }
}

pub(super) type Vals = Lanes<Val>;

/// Where one thread's access lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Loc {
    /// An element, or with `row` a row of a multi-dimensional array (which decays to a pointer
    /// to its first element, `ptr`).
    Shared { ptr: Ptr, row: bool },
    /// Memory the run does not follow (global, local arrays, fields), and whether what it holds
    /// there may differ between threads (it does not at a uniform place).
    Elsewhere(bool),
    /// An element of memory the run does not follow, through a pointer every thread holds alike:
    /// threads at the same index read the same value.
    Indexed(i64),
}

/// Where an assignment or a read lands.
#[derive(Debug, Clone)]
pub(super) enum Place<'t> {
    Local(&'t str),
    /// Memory, per thread, written as `node`.
    Memory(Node<'t>, Lanes<Loc>),
}
