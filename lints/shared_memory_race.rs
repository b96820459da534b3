use super::support::snippet;
use crate::lint::LintContext;
use crate::model::shared_memory::{Conflict, SharedAccess};
use crate::model::{AccessKind, Model};

crate::declare_lint!(
    SHARED_MEMORY_RACE,
    "shared-memory-race",
    Kernel,
    Error,
    "two threads of a block access one `__shared__` element in the same barrier interval, one of them writing",
    check
);

fn check(model: &Model, cx: &mut LintContext) {
    for (kernel, facts) in model.kernel_facts() {
        let shared = facts.shared(model, kernel);
        // a pair inside one warp is the warp-synchronous rule's
        for (conflict, others) in grouped(shared.conflicts.iter().filter(|c| !c.same_warp)) {
            report(model, cx, conflict, &others);
        }
    }
}

/// One finding per array and barrier interval (one barrier fixes them together): the pair that
/// comes first in the source, with the others' accesses.
pub(super) fn grouped<'c, 't: 'c>(
    conflicts: impl Iterator<Item = &'c Conflict<'t>>,
) -> Vec<(&'c Conflict<'t>, Vec<&'c Conflict<'t>>)> {
    let mut sorted: Vec<&Conflict> = conflicts.collect();
    sorted.sort_by_key(|c| (c.first.node.start_byte(), c.second.node.start_byte()));
    let key = |c: &Conflict| {
        (
            c.array.clone(),
            c.opened_by.map(|n| n.id()),
            c.closed_by.map(|n| n.id()),
        )
    };
    let mut groups: Vec<(&Conflict, Vec<&Conflict>)> = Vec::new();
    for conflict in sorted {
        match groups
            .iter_mut()
            .find(|(head, _)| key(head) == key(conflict))
        {
            Some((_, others)) => others.push(conflict),
            None => groups.push((conflict, Vec::new())),
        }
    }
    groups
}

/// Labels at the other accesses of a group that the main pair does not show.
pub(super) fn other_sites(
    conflict: &Conflict,
    others: &[&Conflict],
) -> Vec<std::ops::Range<usize>> {
    let mut shown = vec![conflict.first.node.id(), conflict.second.node.id()];
    let mut spans = Vec::new();
    for other in others {
        for access in [&other.first, &other.second] {
            if !shown.contains(&access.node.id()) && spans.len() < 3 {
                shown.push(access.node.id());
                spans.push(access.node.byte_range());
            }
        }
    }
    spans
}

fn verb(kind: AccessKind) -> &'static str {
    match kind {
        AccessKind::Read => "reads",
        AccessKind::Write => "writes",
        AccessKind::ReadWrite => "updates",
    }
}

pub(super) fn thread_name(access: &SharedAccess, block: [i64; 3]) -> String {
    let [x, y, z] = access.thread;
    if block[2] > 1 {
        format!("thread ({x}, {y}, {z})")
    } else if block[1] > 1 {
        format!("thread ({x}, {y})")
    } else {
        format!("thread {x}")
    }
}

/// The block the pair was found in: a launch's, or the shapes tried when no launch is in sight.
fn block_text(conflict: &Conflict) -> String {
    let shape = match conflict.block {
        [x, 1, 1] => format!("{x} threads"),
        [x, y, 1] => format!("{x}×{y} threads"),
        [x, y, z] => format!("{x}×{y}×{z} threads"),
    };
    if conflict.block_launched {
        shape
    } else {
        format!("in a block of {shape}, as in every shape tried: no launch of this kernel gives its block a constant shape")
    }
}

fn report(model: &Model, cx: &mut LintContext, conflict: &Conflict, others: &[&Conflict]) {
    let (first, second) = (&conflict.first, &conflict.second);
    let element = &conflict.element;
    let first_thread = thread_name(first, conflict.block);
    let second_thread = thread_name(second, conflict.block);
    let first_text = snippet(model, first.node);
    let second_text = snippet(model, second.node);
    let outcome = match (first.kind.writes(), second.kind.writes()) {
        (true, true) => "which value remains depends on which warp runs last".to_string(),
        (true, false) => format!(
            "{second_thread} reads the old or the new value depending on which warp runs first"
        ),
        _ => format!(
            "{first_thread} reads the old or the new value depending on which warp runs first"
        ),
    };
    let message = if conflict.across_iterations {
        format!(
            "`{first_text}` {} `{element}` in {first_thread} at the start of the next iteration while {second_thread} may still be at `{second_text}` of this one, which {} it; no barrier separates the two ({}): {outcome}",
            verb(first.kind),
            verb(second.kind),
            block_text(conflict),
        )
    } else {
        format!(
            "`{first_text}` {} `{element}` in {first_thread} while `{second_text}` {} it in {second_thread} with no barrier between them ({}): {outcome}",
            verb(first.kind),
            verb(second.kind),
            block_text(conflict),
        )
    };
    let mut diagnostic = cx.diagnostic(first.node.byte_range(), message);
    if second.node != first.node {
        diagnostic = diagnostic.with_label(
            second.node.byte_range(),
            format!("{second_thread} {} `{element}` here", verb(second.kind)),
        );
    }
    for span in other_sites(conflict, others) {
        diagnostic = diagnostic.with_label(
            span,
            format!("also races on `{}` in this interval", conflict.array),
        );
    }
    match (conflict.opened_by, conflict.closed_by) {
        (Some(open), Some(close)) if open == close => {
            diagnostic = diagnostic.with_label(
                open.byte_range(),
                "the only barrier between the two: the loop comes back to it without another",
            );
        }
        (opened, closed) => {
            if let Some(open) = opened {
                diagnostic =
                    diagnostic.with_label(open.byte_range(), "the barrier interval starts here");
            }
            if let Some(close) = closed {
                diagnostic = diagnostic.with_label(close.byte_range(), "and ends here");
            }
        }
    }
    let help = if conflict.across_iterations {
        format!("add `__syncthreads()` at the end of the loop body, after the last use of `{}`, so the next iteration's writes wait for this iteration's reads", conflict.array)
    } else if first.kind.writes() && second.kind.writes() && first.node == second.node {
        format!(
            "give each thread its own element of `{}`, or let one thread write it",
            conflict.array
        )
    } else {
        format!("put `__syncthreads()` between `{second_text}` and `{first_text}` (outside any thread-dependent branch)")
    };
    cx.report(diagnostic.with_help(help));
}

#[cfg(test)]
mod tests {
    use super::SHARED_MEMORY_RACE;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &SHARED_MEMORY_RACE,
            &[
                // the tile is loaded, then read after a barrier
                "#define T 16\n__global__ void k(const float* a, float* c, int n) { __shared__ float t[T][T]; float s = 0; for (int b = 0; b < n; b += T) { t[threadIdx.y][threadIdx.x] = a[b + threadIdx.x]; __syncthreads(); for (int k = 0; k < T; ++k) s += t[threadIdx.y][k]; __syncthreads(); } c[0] = s; }",
                // each thread reads back only what it wrote
                "__global__ void k(const float* a, float* c) { __shared__ float s[256]; s[threadIdx.x] = a[threadIdx.x]; c[threadIdx.x] = s[threadIdx.x] * 2; }",
                // the tree reduction with its barrier
                "__global__ void k(const float* a, float* c) { __shared__ float s[256]; int t = threadIdx.x; s[t] = a[t]; __syncthreads(); for (int w = blockDim.x / 2; w > 0; w >>= 1) { if (t < w) s[t] += s[t + w]; __syncthreads(); } if (t == 0) c[blockIdx.x] = s[0]; }",
                // atomics on a shared counter
                "__global__ void k(int* c) { __shared__ int n; if (threadIdx.x == 0) n = 0; __syncthreads(); atomicAdd(&n, 1); __syncthreads(); if (threadIdx.x == 0) c[0] = n; }",
                // an index read from memory proves nothing
                "__global__ void k(const int* p, float* c) { __shared__ float s[64]; s[p[threadIdx.x]] = 1; c[threadIdx.x] = s[threadIdx.x]; }",
                // the last warp's unrolled reduction is the warp-synchronous rule's
                "__global__ void k(float* c) { volatile __shared__ float s[64]; int t = threadIdx.x; s[t] = t; __syncthreads(); if (t < 32) { s[t] += s[t + 32]; s[t] += s[t + 16]; } if (t == 0) c[0] = s[0]; }",
                // every thread stores back the value it just read: the slot keeps its value
                "__global__ void k(int* c) { __shared__ int a[64]; int v; v = a[0]; a[0] = v; c[threadIdx.x] = v; }",
                // a helper reads the thread's own element
                "__device__ float at(const float* s, int i) { return s[i]; }\n__global__ void k(float* c) { __shared__ float s[64]; s[threadIdx.x] = c[threadIdx.x]; c[threadIdx.x] = at(s, threadIdx.x); }",
            ],
            &[
                // the tile is read before every thread has written its element
                "#define T 16\n__global__ void k(const float* a, float* c) { __shared__ float t[T][T]; t[threadIdx.y][threadIdx.x] = a[threadIdx.x]; float s = 0; for (int k = 0; k < T; ++k) s += t[threadIdx.y][k] * t[k][threadIdx.x]; c[0] = s; }",
                // a reduction step with no barrier in the loop
                "__global__ void k(const float* a, float* c) { __shared__ float s[256]; int t = threadIdx.x; s[t] = a[t]; __syncthreads(); for (int w = blockDim.x / 2; w > 0; w >>= 1) { if (t < w) s[t] += s[t + w]; } if (t == 0) c[blockIdx.x] = s[0]; }",
                // the next iteration's load overwrites what this iteration reads
                "__global__ void k(const float* a, float* c, int n) { __shared__ float s[64]; float acc = 0; for (int b = 0; b < n; b += 64) { s[threadIdx.x] = a[b + threadIdx.x]; __syncthreads(); for (int j = 0; j < 64; ++j) acc += s[j]; } c[threadIdx.x] = acc; }",
                // every thread writes its own value into one slot
                "__global__ void k(float* c) { __shared__ float best; best = c[threadIdx.x]; __syncthreads(); c[threadIdx.x] = best; }",
                // a butterfly partner read before the partner wrote
                "__global__ void k(float* c) { __shared__ float s[64]; int t = threadIdx.x; s[t] = c[t]; c[t] = s[t ^ 32]; }",
                // the value written back is not the one read
                "__global__ void k(int* c) { __shared__ int a[64]; int v; v = a[0]; a[0] = v + 1; c[threadIdx.x] = v; }",
                // read into a narrower type, the value written back may differ
                "__global__ void k(int* c) { __shared__ float a[64]; int v = a[0]; a[0] = v; c[threadIdx.x] = v; }",
                // a helper reads another warp's element before the barrier
                "__device__ float at(const float* s, int i) { return s[i]; }\n__global__ void k(float* c) { __shared__ float s[64]; s[threadIdx.x] = c[threadIdx.x]; c[threadIdx.x] = at(s, 63 - threadIdx.x); }",
                // two calls deep, through a pointer moved by the caller
                "__device__ float at(const float* s, int i) { return s[i]; }\n__device__ float next(const float* s, int i) { return at(s + 1, i); }\n__global__ void k(float* c) { __shared__ float s[65]; s[threadIdx.x] = c[threadIdx.x]; c[threadIdx.x] = next(s, threadIdx.x); }",
            ],
        );
    }
}
