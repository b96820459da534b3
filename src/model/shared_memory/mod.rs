//! Shared-memory conflicts between the threads of one block, found by running the kernel body for
//! every thread of a block with concrete thread coordinates.
//!
//! The threads run together: each statement and expression is read once for all the threads that
//! reach it, with one value per thread (or one for all, while they agree), and threads that take
//! different branches run them one after the other. A block-wide barrier moves a thread to the
//! next barrier interval (epoch); every `__shared__` access it certainly makes is logged with its
//! epoch, the bytes it touches and whether it writes. Two accesses of one epoch by different
//! threads that touch a common byte, one of them writing and neither atomic, conflict. What the
//! run cannot know (a value read from memory, a parameter that is not an integer, a call whose
//! body is not visible) is unknown: an access at an unknown place is not logged, a branch on an
//! unknown condition makes what it assigns unknown, and a thread whose barriers or exits hang on
//! one stops there. So every logged access happens in a real execution with these coordinates,
//! and every conflict found is a witness, not a guess.
//!
//! The block shape is a visible launch's, else a small one (two warps or more) that keeps every
//! shared access inside its array: a kernel written for one block size is not run with another
//! that its arrays cannot hold. The facts are computed only when a rule asks for them
//! (`KernelFacts::shared`), and only for kernels that can reach shared memory.

mod access_log;
mod accesses;
mod arithmetic;
mod block;
mod calls;
mod expressions;
mod file_scope;
mod intervals;
mod lanes;
mod names;
mod program;
mod shapes;
mod statements;
#[cfg(test)]
mod tests;
mod values;

use super::kernel::AccessKind;
use super::{Function, KernelFacts, Model};
use crate::syntax::{named_children, operator, text, walk_iterative, NodeExt};
use access_log::{element_text, Deferred, Log, Pointee, Record, Stored};
use accesses::{linear_offset, offset, within_extent};
use arithmetic::{arithmetic, binary_lanes, split_operators, subscript_index, Cast, Op};
use block::{Block, Invalid, Jumps, Passes, UniformStore};
pub use file_scope::FileScope;
use lanes::{coordinates, Lane, Lanes, Linear, Mask, MAX_LANES};
pub(crate) use names::is_integer_type;
use names::{
    is_barrier_free_builtin, is_block_barrier, is_pure_builtin, is_pure_method, is_shared,
    orders_lanes, pointee_size, same_type,
};
use program::{Callee, Helper, Part, Program, Run};
use rustc_hash::FxHashMap as HashMap;
use shapes::{candidate_blocks, probe_shape};
use std::cell::RefCell;
use std::rc::Rc;
use tree_sitter::Node;
use values::{Array, Kinds, Loc, Place, Ptr, PtrKind, Shape, Step, Val, Vals};

/// A pair of shared-memory accesses by two threads of a block in one barrier interval.
#[derive(Debug, Clone)]
pub struct Conflict<'t> {
    pub array: String,
    /// The element both touch, as written in C (`tile[0][1]`).
    pub element: String,
    /// The access reported: the later one in the source, or the write of the next iteration.
    pub first: SharedAccess<'t>,
    pub second: SharedAccess<'t>,
    /// Both threads are lanes of one warp.
    pub same_warp: bool,
    /// The accesses are separated by a barrier in the source, so they meet across a loop's back
    /// edge: the next iteration's access runs before the other threads leave this one.
    pub across_iterations: bool,
    /// The barrier that opens the interval (None: kernel entry) and the one that closes it
    /// (None: kernel exit).
    pub opened_by: Option<Node<'t>>,
    pub closed_by: Option<Node<'t>>,
    /// The block shape of the run that found it.
    pub block: [i64; 3],
    /// Whether that shape is a visible launch's; else no launch gives the kernel's shape and it
    /// is one of the small shapes tried, every one of which makes the pair.
    pub block_launched: bool,
}

#[derive(Debug, Clone, Copy)]
pub struct SharedAccess<'t> {
    pub node: Node<'t>,
    pub kind: AccessKind,
    pub thread: [i64; 3],
}

#[derive(Debug, Default)]
pub struct SharedFacts<'t> {
    pub conflicts: Vec<Conflict<'t>>,
}

/// Steps one block run may take: a statement or expression read for the threads that reach it
/// is a step, and one more per warp's worth of them.
const STEP_BUDGET: u64 = 150_000;
/// Steps all the block shapes tried for one kernel may take together.
const KERNEL_BUDGET: u64 = 250_000;
/// Steps all the kernels of one file may take together: a file of thousands of kernels that
/// use shared memory runs the first ones, and the others conclude nothing.
const FILE_BUDGET: u64 = 2_000_000;
/// What preparing one kernel for runs costs in steps, before any run: a few for every
/// kilobyte of its body (reading its declarations and indices walks all of it).
fn preparation_cost(function: &Function) -> u64 {
    let bytes = function
        .body
        .end_byte()
        .saturating_sub(function.body.start_byte());
    64 + (bytes / 256) as u64
}
/// Iterations of one loop a thread runs before it stops there (a loop with barriers that only
/// some of the running threads are in).
const MAX_ITERATIONS: u32 = 96;
/// Iterations of a loop with no barrier in it that a thread runs before it takes the rest as
/// unknown (what the loop assigns) and goes on after the loop: the pairs a loop makes show in
/// its first iterations.
const FOLLOWED_ITERATIONS: u32 = 8;
/// Iterations of a loop with barriers, that every running thread is in, followed before the
/// rest is taken as unknown and as barriers (so nothing before it pairs with anything after).
const FOLLOWED_SYNCHRONISED_ITERATIONS: u32 = 4;
/// What an integer kernel parameter is taken to hold: large enough that a bounds guard or a
/// trip count is not what hides a conflict, and spreads an index it scales past any small array.
const PARAMETER_VALUE: i64 = 256;
const MAX_NESTING: usize = 200;
/// Calls a run follows one inside another (`Block::followed`).
const MAX_CALLS: usize = 4;

/// The conflicts of one kernel. Run only when a rule asks (through `KernelFacts::shared`), and
/// only for a kernel that can touch shared memory.
pub fn analyze<'t>(
    model: &Model<'t>,
    function: &Function<'t>,
    facts: &KernelFacts<'t>,
) -> SharedFacts<'t> {
    let out = SharedFacts::default();
    // what `reaches_shared` answers for a file that declares nothing `__shared__`, without the
    // file-wide scope (built on the first kernel, so on every edit of an editor's kernel)
    if !model.mentions_shared() {
        return out;
    }
    let scope = model.shared_scope();
    if !scope.reaches_shared(function) {
        return out;
    }
    // the file's budget pays for the preparation, then lends the kernel its share
    let file_left = scope.left.get();
    let preparation = preparation_cost(function);
    if file_left <= preparation {
        scope.left.set(0);
        return out;
    }
    let mut left = KERNEL_BUDGET.min(file_left - preparation);
    let lent = left;
    let Some(program) = Program::new(scope, function) else {
        scope.left.set(file_left - preparation);
        return out;
    };
    let out = analyze_shapes(&program, model, function, facts, out, &mut left);
    scope.left.set(file_left - preparation - (lent - left));
    out
}

fn analyze_shapes<'t>(
    program: &Program<'_, 't>,
    model: &Model<'t>,
    function: &Function<'t>,
    facts: &KernelFacts<'t>,
    mut out: SharedFacts<'t>,
    left: &mut u64,
) -> SharedFacts<'t> {
    let (launched, shapes) = candidate_blocks(program, model.source, function, facts);
    if launched {
        // every launch's shape free of pairs by the intervals alone: no run can make one
        if intervals::no_pair_possible(program, &shapes) {
            return out;
        }
        // real launches: the first whose shape fits the kernel
        for block in shapes {
            if let Run::Valid(conflicts) = program.run(block, left) {
                out.conflicts = conflicts
                    .into_iter()
                    .map(|c| Conflict {
                        block_launched: true,
                        ..c
                    })
                    .collect();
                break;
            }
        }
        return out;
    }
    // no launch says the shape: a pair is reported only when every shape of two warps or more
    // that fits the kernel makes it (so a pair that needs rows the real launch may not have, or a
    // block wider than the kernel was written for, is not); one warp is the last resort
    //
    // the shapes tried are the same in HIP, whose warps hold 64 lanes: the width of the warp
    // decides which pairs share one, not which blocks a kernel may be launched with
    let lanes = |block: &[i64; 3]| block[0] * block[1] * block[2];
    let probe = probe_shape(&shapes);
    let mut probed = None;
    if let Some(block) = probe {
        // the probe's run shown free of pairs without being made
        if intervals::no_pair_possible(program, &[block]) {
            return out;
        }
        match program.run(block, left) {
            Run::Valid(conflicts) if conflicts.is_empty() => return out,
            run => probed = Some((block, run)),
        }
    }
    let mut runs: Vec<Vec<Conflict<'t>>> = Vec::new();
    for block in shapes {
        let one_warp = lanes(&block) <= 32;
        if one_warp && !runs.is_empty() {
            break;
        }
        let run = match probed.take() {
            Some((probe, run)) if probe == block => run,
            other => {
                probed = other;
                program.run(block, left)
            }
        };
        if let Run::Valid(conflicts) = run {
            // the pairs kept are the first run's that every other run makes too
            let nothing = conflicts.is_empty();
            runs.push(conflicts);
            if nothing {
                break;
            }
        }
    }
    let mut runs = runs.into_iter();
    let Some(first) = runs.next() else {
        return out;
    };
    let others: Vec<Vec<Conflict<'t>>> = runs.collect();
    let pair = |c: &Conflict| {
        let (a, b) = (c.first.node.id(), c.second.node.id());
        (a.min(b), a.max(b))
    };
    out.conflicts = first
        .into_iter()
        .filter(|c| {
            others
                .iter()
                .all(|run| run.iter().any(|o| pair(o) == pair(c)))
        })
        .collect();
    out
}
