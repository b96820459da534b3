//! What the launches of a file read outside their own function (its allocations, its calls and
//! its constants), found once per file rather than once per launch.

use super::*;

/// What the launches of a file read outside their own function, each found once, on first use,
/// for every launch site that asks: the device allocations (`cudaMalloc`, `cudaMallocManaged`,
/// `cudaMallocAsync`; a member may be allocated in another function) and the file-scope
/// constants (`Locals::read_file_scope`).
pub struct FileScope<'t> {
    pub(super) root: Node<'t>,
    pub(super) source: &'t str,
    /// Whether the file's text names an allocation at all: most code allocates nothing, and a
    /// look at the text spares the walk.
    pub(super) allocates: std::cell::OnceCell<bool>,
    pub(super) constants: std::cell::OnceCell<Locals<'t>>,
    /// Whether a launch looked for a member's allocations anywhere in the file since the last
    /// `take_member_reads` (what the launches of a function read, for reusing them).
    pub(super) member_reads: std::cell::Cell<bool>,
    /// The file's calls, found in one walk when a launch first asks for its allocations or what
    /// the callers of its function pass.
    pub(super) calls: std::cell::OnceCell<FileCalls<'t>>,
    /// Whether a launch read what the callers of its function pass since the last
    /// `take_caller_reads`.
    pub(super) caller_reads: std::cell::Cell<bool>,
    /// Where each identifier of the text appears, read in one pass when `callers_hash` is
    /// first asked.
    pub(super) words: std::cell::OnceCell<rustc_hash::FxHashMap<&'t str, Vec<u32>>>,
}

/// The file's allocations as seen from one launching function.
pub(super) struct Allocations<'f, 't> {
    pub(super) function: Node<'t>,
    pub(super) file: &'f FileScope<'t>,
}

impl<'f, 't> Allocations<'f, 't> {
    /// The allocations of the buffer `argument` passes: in the launching function, or anywhere
    /// in the file for a member (an init function may allocate it, another launch).
    pub(super) fn of_argument(
        &self,
        argument: Node<'t>,
        source: &str,
    ) -> impl Iterator<Item = &'f Allocated<'t>> + use<'f, 't> {
        let argument = strip(argument, source);
        let anywhere_in_file = match argument.node_kind() {
            "identifier" => Some(false),
            "field_expression" => Some(true),
            _ => None,
        };
        let name = normalized(argument, source);
        let function = self.function.byte_range();
        let (all, positions): (&'f [Allocated<'t>], &'f [u32]) = match anywhere_in_file {
            Some(member) => {
                if member {
                    self.file.member_reads.set(true);
                }
                self.file.allocations_of(&name)
            }
            None => (&[], &[]),
        };
        let anywhere_in_file = anywhere_in_file.unwrap_or(false);
        positions
            .iter()
            .filter_map(move |at| all.get(*at as usize))
            .filter(move |a| anywhere_in_file || function.contains(&a.call.start_byte()))
    }
}

pub(super) struct Allocated<'t> {
    /// What the pointer written is, normalized (`d_states`, `plan->states`).
    pub(super) target: String,
    pub(super) call: Node<'t>,
    pub(super) size: Option<Node<'t>>,
}

/// The calls of a file, read in one walk: both questions a launch asks of the file's calls
/// (where its buffers are allocated, what its function's callers pass) cost a walk of the whole
/// file each when asked apart.
pub(super) struct FileCalls<'t> {
    /// Every call by callee name (`callee_name`).
    by_callee: rustc_hash::FxHashMap<&'t str, Vec<Node<'t>>>,
    /// The device allocations (`cudaMalloc`, `cudaMallocManaged`, `cudaMallocAsync`), in file
    /// order; empty when the file's text names no allocation.
    allocations: Vec<Allocated<'t>>,
    /// Positions in `allocations` by the pointer written: a launch asks for each argument's.
    allocations_by_target: rustc_hash::FxHashMap<String, Vec<u32>>,
}

impl<'t> FileScope<'t> {
    pub fn new(root: Node<'t>, source: &'t str) -> FileScope<'t> {
        FileScope {
            root,
            source,
            allocates: std::cell::OnceCell::new(),
            constants: std::cell::OnceCell::new(),
            member_reads: std::cell::Cell::new(false),
            calls: std::cell::OnceCell::new(),
            caller_reads: std::cell::Cell::new(false),
            words: std::cell::OnceCell::new(),
        }
    }

    /// The calls of the function named `name` anywhere in the file.
    pub(super) fn calls_of(&self, name: &str) -> &[Node<'t>] {
        self.file_calls()
            .by_callee
            .get(name)
            .map_or(&[], Vec::as_slice)
    }

    /// Whether the file's text names an allocation (`cudaMalloc...`, `hipMalloc...`).
    pub(super) fn allocates(&self) -> bool {
        *self
            .allocates
            .get_or_init(|| self.source.contains("cudaMalloc") || self.source.contains("hipMalloc"))
    }

    /// The file's calls (`FileCalls`), found in one walk on first use.
    pub(super) fn file_calls(&self) -> &FileCalls<'t> {
        self.calls.get_or_init(|| {
            let source = self.source;
            let allocates = self.allocates();
            let mut calls = FileCalls {
                by_callee: Default::default(),
                allocations: Vec::new(),
                allocations_by_target: Default::default(),
            };
            syntax::walk_iterative(self.root, |node| {
                if node.node_kind() != "call_expression" {
                    return true;
                }
                let Some(function) = node.field("function") else {
                    return true;
                };
                calls
                    .by_callee
                    .entry(grid::callee_name(function, source))
                    .or_default()
                    .push(node);
                if allocates {
                    if let Some(allocated) = allocation(node, function, source) {
                        let position = u32::try_from(calls.allocations.len()).unwrap_or(u32::MAX);
                        calls
                            .allocations_by_target
                            .entry(allocated.target.clone())
                            .or_default()
                            .push(position);
                        calls.allocations.push(allocated);
                    }
                }
                true
            });
            calls
        })
    }

    /// Whether a launch read what the callers of its function pass since the last call; clears
    /// it.
    pub fn take_caller_reads(&self) -> bool {
        self.caller_reads.replace(false)
    }

    /// A hash of the functions that call `name` (their whole text): what a launch that passes
    /// on a parameter of `name` read.
    ///
    /// Found from the mentions of `name` in the text rather than from `calls_of`, whose walk of
    /// the whole tree would cost a keystroke more than the launches it saves reading: every call
    /// of `name` mentions it, so the functions mentioning it hold every caller.
    pub fn callers_hash(&self, name: &str) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = rustc_hash::FxHasher::default();
        let words = self.words.get_or_init(|| word_positions(self.source));
        for &at in words.get(name).map_or(&[][..], Vec::as_slice) {
            let at = at as usize;
            let Some(mention) = self.root.descendant_for_byte_range(at, at + name.len()) else {
                continue;
            };
            enclosing_function(mention)
                .map(|caller| text(caller, self.source))
                .hash(&mut hasher);
        }
        hasher.finish()
    }

    /// The file's device allocations, in file order.
    pub(super) fn all(&self) -> &[Allocated<'t>] {
        if !self.allocates() {
            return &[];
        }
        &self.file_calls().allocations
    }

    /// The file's device allocations and the positions among them of those that write `target`.
    pub(super) fn allocations_of(&self, target: &str) -> (&[Allocated<'t>], &[u32]) {
        if !self.allocates() {
            return (&[], &[]);
        }
        let calls = self.file_calls();
        let positions = calls
            .allocations_by_target
            .get(target)
            .map_or(&[][..], Vec::as_slice);
        (&calls.allocations, positions)
    }

    /// The file-scope constants, read once for every launching function of the file.
    pub(super) fn constants(&self) -> &Locals<'t> {
        self.constants.get_or_init(|| {
            let mut locals = Locals::default();
            locals.read_file_scope(self.root, self.source);
            locals
        })
    }

    /// Whether a launch looked for a member's allocations anywhere in the file since the last
    /// call; clears it.
    pub fn take_member_reads(&self) -> bool {
        self.member_reads.replace(false)
    }

    /// A hash of what the launches in `function` read of the file-scope constants: each
    /// constant's name and value, and for a `dim3` one whether it is declared before the
    /// function (a launch sees only those).
    pub fn constants_hash(&self, function: Node<'t>) -> u64 {
        use std::hash::{Hash, Hasher};
        let constants = self.constants();
        let mut hasher = rustc_hash::FxHasher::default();
        let mut values: Vec<(&str, &str)> = constants
            .file_constants
            .iter()
            .map(|(name, value)| (*name, text(*value, self.source)))
            .collect();
        values.sort_unstable();
        values.hash(&mut hasher);
        let mut lists: Vec<(&str, &str, bool)> = constants
            .dim3
            .iter()
            .flat_map(|(name, lists)| {
                lists.iter().map(|list| {
                    let before = list.start_byte() <= function.start_byte();
                    (*name, text(*list, self.source), before)
                })
            })
            .collect();
        lists.sort_unstable();
        lists.hash(&mut hasher);
        hasher.finish()
    }

    /// A hash of the file's allocations outside `function` (what a member passed to a launch
    /// in it may read), in file order.
    pub fn allocations_hash(&self, function: Node<'t>) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = rustc_hash::FxHasher::default();
        let range = function.byte_range();
        for allocated in self.all() {
            if range.contains(&allocated.call.start_byte()) {
                continue;
            }
            allocated.target.hash(&mut hasher);
            allocated
                .size
                .map(|size| text(size, self.source))
                .hash(&mut hasher);
        }
        hasher.finish()
    }
}

/// The device allocation `call` (whose callee is `function`) makes: `cudaMalloc(&target, size)`,
/// `cudaMallocManaged`, `cudaMallocAsync` (or HIP's), with the pointer it writes.
fn allocation<'t>(call: Node<'t>, function: Node<'t>, source: &str) -> Option<Allocated<'t>> {
    if !matches!(
        crate::model::runtime::cuda_name(text(function, source)).as_ref(),
        "cudaMalloc" | "cudaMallocManaged" | "cudaMallocAsync"
    ) {
        return None;
    }
    let arguments = syntax::call_arguments(call);
    let target = syntax::address_operand(*arguments.first()?, source)?;
    Some(Allocated {
        target: normalized(target, source),
        call,
        size: arguments.get(1).copied(),
    })
}

/// Where each identifier of `text` appears (any word of letters, digits and `_` that does not
/// start with a digit; comments and strings included).
fn word_positions(text: &str) -> rustc_hash::FxHashMap<&str, Vec<u32>> {
    let is_identifier = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let bytes = text.as_bytes();
    let mut words: rustc_hash::FxHashMap<&str, Vec<u32>> = Default::default();
    let mut at = 0;
    while at < bytes.len() {
        if !is_identifier(bytes[at]) {
            at += 1;
            continue;
        }
        let start = at;
        while at < bytes.len() && is_identifier(bytes[at]) {
            at += 1;
        }
        if !bytes[start].is_ascii_digit() {
            if let (Some(word), Ok(position)) = (text.get(start..at), u32::try_from(start)) {
                words.entry(word).or_default().push(position);
            }
        }
    }
    words
}
