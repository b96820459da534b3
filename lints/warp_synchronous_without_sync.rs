use super::shared_memory_race::{grouped, other_sites, thread_name};
use super::support::snippet;
use crate::lint::LintContext;
use crate::model::runtime::Runtime;
use crate::model::{AccessKind, Model};

crate::declare_lint!(
    WARP_SYNCHRONOUS_WITHOUT_SYNC,
    "warp-synchronous-without-sync",
    Kernel,
    Warning,
    "lanes of one warp exchange values through shared memory with no barrier and no `__syncwarp()`",
    check
);

fn verb(kind: AccessKind) -> &'static str {
    match kind {
        AccessKind::Read => "reads",
        AccessKind::Write => "writes",
        AccessKind::ReadWrite => "updates",
    }
}

fn check(model: &Model, cx: &mut LintContext) {
    for (kernel, facts) in model.kernel_facts() {
        let conflicts = &facts.shared(model, kernel).conflicts;
        // the same pair between warps is a plain race, reported as one
        let between_warps = |conflict: &&crate::model::shared_memory::Conflict| {
            conflicts.iter().any(|other| {
                !other.same_warp
                    && ((other.first.node == conflict.first.node
                        && other.second.node == conflict.second.node)
                        || (other.first.node == conflict.second.node
                            && other.second.node == conflict.first.node))
            })
        };
        let lane_pairs = conflicts
            .iter()
            .filter(|c| c.same_warp)
            .filter(|c| !between_warps(c));
        for (conflict, others) in grouped(lane_pairs) {
            // the interval already has a race between warps on this array: one barrier fixes both
            let raced = conflicts.iter().any(|other| {
                !other.same_warp
                    && other.array == conflict.array
                    && other.opened_by == conflict.opened_by
                    && other.closed_by == conflict.closed_by
            });
            if raced {
                continue;
            }
            let (first, second) = (&conflict.first, &conflict.second);
            let lane = |name: String| name.replacen("thread", "lane", 1);
            let first_lane = lane(thread_name(first, conflict.block));
            let second_lane = lane(thread_name(second, conflict.block));
            let why = match model.runtime {
                Runtime::Cuda => "this relies on the lanes running in lockstep, which GPUs since Volta do not guarantee",
                Runtime::Hip => "this relies on the 64 lanes of the wavefront running in lockstep and on the compiler keeping the shared-memory accesses in that order, which HIP does not guarantee",
            };
            let message = format!(
                "`{}` {} `{}` in {first_lane} while `{}` {} it in {second_lane} of the same warp, with no `__syncwarp()` or barrier between them: {why}",
                snippet(model, first.node),
                verb(first.kind),
                conflict.element,
                snippet(model, second.node),
                verb(second.kind),
            );
            let mut diagnostic = cx.diagnostic(first.node.byte_range(), message);
            if second.node != first.node {
                diagnostic = diagnostic.with_label(
                    second.node.byte_range(),
                    format!(
                        "{second_lane} {} `{}` here",
                        verb(second.kind),
                        conflict.element
                    ),
                );
            }
            for span in other_sites(conflict, &others) {
                diagnostic = diagnostic.with_label(span, "also exchanged between lanes here");
            }
            if let Some(open) = conflict.opened_by {
                diagnostic =
                    diagnostic.with_label(open.byte_range(), "the last barrier before both");
            }
            cx.report(diagnostic.with_help(format!(
                "put `__syncwarp()` between the accesses (after each step of an unrolled warp reduction), or exchange the values with `__shfl_down_sync`; `volatile` on `{}` does not order the lanes",
                conflict.array
            )));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::WARP_SYNCHRONOUS_WITHOUT_SYNC;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &WARP_SYNCHRONOUS_WITHOUT_SYNC,
            &[
                // each step of the last warp's reduction ordered by __syncwarp
                "__global__ void k(float* c) { __shared__ float s[64]; int t = threadIdx.x; s[t] = t; __syncthreads(); if (t < 32) { float v = s[t] + s[t + 32]; __syncwarp(); s[t] = v; __syncwarp(); v += s[t + 16]; __syncwarp(); s[t] = v; __syncwarp(); } if (t == 0) c[0] = s[0]; }",
                // a block barrier between the write and the read
                "__global__ void k(float* c) { __shared__ float s[32]; s[threadIdx.x] = 1; __syncthreads(); c[threadIdx.x] = s[31 - threadIdx.x]; }",
                // lanes touch only their own slot
                "__global__ void k(float* c) { __shared__ float s[32]; s[threadIdx.x] = 1; c[threadIdx.x] = s[threadIdx.x]; }",
            ],
            &[
                // the unrolled last-warp reduction over a volatile array
                "__global__ void k(float* c) { volatile __shared__ float s[64]; int t = threadIdx.x; s[t] = t; __syncthreads(); if (t < 32) { s[t] += s[t + 32]; s[t] += s[t + 16]; s[t] += s[t + 8]; } if (t == 0) c[0] = s[0]; }",
                // one warp per block: a write read back by another lane without __syncwarp
                "__global__ void k(float* c) { __shared__ float s[32]; s[threadIdx.x] = c[threadIdx.x]; c[threadIdx.x] = s[31 - threadIdx.x]; }",
            ],
        );
    }
}
