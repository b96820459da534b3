use super::support::{snippet, with_site_in_helper};
use crate::lint::LintContext;
use crate::model::Model;

crate::declare_lint!(
    DIVERGENT_BARRIER,
    "divergent-barrier",
    Kernel,
    Error,
    "block-wide barrier reachable only under a thread-dependent condition",
    check,
    verifiable = true
);

fn check(model: &Model, cx: &mut LintContext) {
    for (_, facts) in model.kernel_facts() {
        for (at, barrier) in facts.barriers.iter().enumerate() {
            let Some(condition) = barrier.divergent_condition else {
                continue;
            };
            // the barriers past one early exit are one finding, at the first of them
            let same_exit = |other: &&crate::model::kernel::Barrier| {
                barrier.after_early_exit
                    && other.after_early_exit
                    && other.divergent_condition == Some(condition)
            };
            if facts.barriers[..at].iter().any(|other| same_exit(&other)) {
                continue;
            }
            let later: Vec<_> = facts.barriers[at + 1..].iter().filter(same_exit).collect();
            let condition_text = snippet(model, condition);
            let outcome = if barrier.reached_where_condition_holds {
                "holds"
            } else {
                "fails"
            };
            let call = snippet(model, barrier.node);
            let reached = match &barrier.via {
                Some(via) => format!(
                    "`{call}` reaches a block-wide barrier in `{}`, and",
                    via.function
                ),
                None => format!("`{call}`"),
            };
            let (message, label) = if barrier.after_early_exit {
                let joined = if barrier.via.is_some() { " it" } else { "" };
                (
                    format!("{reached}{joined} is skipped by the threads where `{condition_text}` holds, which leave before it; a barrier that part of the block never reaches is undefined behaviour, which current GPUs happen to tolerate for exited threads (code after it may read shared memory those threads never wrote)"),
                    "threads for which this holds skip the barrier",
                )
            } else if facts.skippers_meet_no_other_barrier(barrier) {
                let joined = if barrier.via.is_some() { " it" } else { "" };
                (
                    format!("{reached}{joined} is reached only by the threads where `{condition_text}` {outcome}, and the others finish without it; a barrier that part of the block never reaches is undefined behaviour, which current GPUs happen to tolerate for exited threads (code after it may read shared memory those threads never wrote)"),
                    "this condition differs between threads of a block",
                )
            } else {
                let joined = if barrier.via.is_some() { " it" } else { "" };
                (
                    format!("{reached}{joined} is reached only by the threads where `{condition_text}` {outcome}; the block waits on threads that never arrive (a hang or undefined behaviour)"),
                    "this condition differs between threads of a block",
                )
            };
            let mut diagnostic = cx
                .diagnostic(barrier.node.byte_range(), message)
                .with_label(condition.byte_range(), label);
            for other in later.iter().take(3) {
                diagnostic = diagnostic.with_label(other.node.byte_range(), "skipped as well");
            }
            if let Some(via) = &barrier.via {
                diagnostic = with_site_in_helper(diagnostic, via, "barrier");
            }
            cx.report(diagnostic.with_help(
                "move the barrier out of the thread-dependent branch so that every thread of the block reaches it",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DIVERGENT_BARRIER;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &DIVERGENT_BARRIER,
            &[
                // a limit whose name says it is rounded to the step, with a step the launch fixes
                "#define SDIV(a, b) (((a) + (b) - 1) / (b))\n__global__ void k(float* o, int width) { __shared__ float s[256]; const int blockSize = 8 * 32; const int padded_width_blocks = SDIV(width, blockSize) * blockSize; for (int j = threadIdx.x; j < padded_width_blocks; j += blockSize) { s[threadIdx.x] = j < width ? o[j] : 0; __syncthreads(); } }",
                // a loop header's `i` is not the block-uniform `i` declared later in another scope
                "__global__ void k(int* removed, int n, int blocks) { int tid = threadIdx.x; for (int i = tid; i < blocks; i += blockDim.x) removed[i] = 0; __syncthreads(); for (int b = 0; b < blocks; ++b) { for (int in = 0; in < 64; ++in) { const int i = b * 64 + in; if (i >= n) break; __syncthreads(); } } }",
                "__global__ void k(float* o) { __shared__ float s[256]; int t = threadIdx.x; for (int w = blockDim.x / 2; w > 0; w >>= 1) { if (t < w) s[t] += s[t + w]; __syncthreads(); } if (t == 0) o[blockIdx.x] = s[0]; }",
                "__global__ void k(float* o, int n) { if (blockIdx.x >= n) return; __syncthreads(); }",
                "__global__ void k(float* o, int tiles) { for (int t = 0; t < tiles; ++t) { __syncthreads(); } }",
                // an early return no thread takes: the only launch is exact
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; __syncthreads(); o[i] = 0; }\nvoid f(float* o, int rows) { k<<<rows, 256>>>(o, rows * 256); }",
                // a helper with a barrier called by the whole block
                "__device__ float block_sum(float* s, float v) { s[threadIdx.x] = v; __syncthreads(); return s[0]; }\n__global__ void k(float* o) { __shared__ float s[256]; float t = block_sum(s, o[threadIdx.x]); if (threadIdx.x == 0) o[blockIdx.x] = t; }",
                // the same trip count for every thread: per-thread start and stop a fixed distance apart
                "__global__ void k(float* o, int num) { int start = blockIdx.x * 64 + threadIdx.y * 8; int stop = min(num, start + 8); for (int m = start; m < stop; m += 2) { __syncthreads(); } }",
                // a position rounded down to the block size is uniform across the block
                "__global__ void k(float* o, int len) { int localSize = blockDim.x; int pos = threadIdx.x; for (int r = 0; r < 8; ++r) { pos += localSize; if ((pos / localSize) * localSize >= len) continue; __syncthreads(); } }",
                "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(float* o) { cg::thread_block b = cg::this_thread_block(); b.sync(); }",
                // a limit rounded down to a multiple of the step: the same trip count for every thread
                "__device__ int roundDown(int a, int b) { return (a / b) * b; }\n__global__ void k(float* o, int n) { for (int i = threadIdx.x; i < roundDown(n, blockDim.x); i += blockDim.x) { __syncthreads(); } }",
                "__global__ void k(float* o, int n) { for (int i = threadIdx.x; i < n / blockDim.x * blockDim.x; i += blockDim.x) { __syncthreads(); } }",
                "__global__ void k(float* o, int n) { int limit = n - n % blockDim.x; int tid = threadIdx.x; int step = blockDim.x; for (int i = tid; i < limit; i = i + step) { __syncthreads(); } }",
                // rounded up, or padded by the host (a name with no visible definition is taken at its word)
                "__global__ void k(float* o, int n) { int padded = (n + blockDim.x - 1) / blockDim.x * blockDim.x; for (int j = threadIdx.x; j < padded; j += blockDim.x) { __syncthreads(); } }",
                "__global__ void k(float* o, int padded_width) { for (int j = threadIdx.x; j < padded_width; j += blockDim.x) { __syncthreads(); } }",
                // a constant step with every remaining thread below it
                "#define TILE 128\n__global__ void k(float* o, int n) { assert(threadIdx.x < TILE); for (int i = threadIdx.x; i < (n / TILE) * TILE; i += TILE) { __syncthreads(); } }",
                // a template step no narrower than the launch's block, over a count its caller
                // scales to a multiple of it
                "template <int T> __global__ void k(float* o, int n) { for (int i = threadIdx.x; i < n; i += T) { __syncthreads(); } }\nvoid run(float* o, int n) { k<256><<<1, 256>>>(o, n); }\nint main(int c, char** v) { int n = atoi(v[1]); n *= 1024; run(0, n); return 0; }",
                // an early return no thread takes: a grid rounded up over a count the block divides
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; __syncthreads(); o[i] = 0; }\nvoid f(float* o, int t) { int n = t * 1024; k<<<(n + 255) / 256, 256>>>(o, n); }",
                // the threads that leave pass as many barriers as those that stay
                "__global__ void k(int* o, int n) { __shared__ int s[64]; if (threadIdx.x < 64) { o[threadIdx.x] = 0; __syncthreads(); __syncthreads(); return; } int t = threadIdx.x - 64; for (int i = t; i < n; i += 64) { if (o[i] < 0) continue; o[i] = 1; } __syncthreads(); if (t == 0) s[0] = 1; __syncthreads(); }",
                // the block is exactly one group: `threadIdx.x / W` is 0
                "#define W 128\n__global__ void k(float* o, int n) { int g = threadIdx.x / W + blockIdx.x; if (g < n) { __syncthreads(); } }\nvoid f(float* o, int n) { k<<<n, W>>>(o, n); }",
                // a grid-stride loop up to a multiple of the grid's thread count
                "__global__ void k(float* o, int m) { unsigned tid = blockIdx.x * blockDim.x + threadIdx.x; unsigned all = blockDim.x * gridDim.x; unsigned up = (m + all - 1) / all * all; for (unsigned id = tid; id < up; id += all) { if (id < m) o[id] = 0; __syncthreads(); } }",
            ],
            &[
                // a grid-stride loop up to the count itself: the last trip leaves threads out
                "__global__ void k(float* o, int m) { unsigned tid = blockIdx.x * blockDim.x + threadIdx.x; unsigned all = blockDim.x * gridDim.x; for (unsigned id = tid; id < m; id += all) { o[id] = 0; __syncthreads(); } }",
                "__global__ void k(float* o) { if (threadIdx.x < 16) { __syncthreads(); } }",
                // an else-if arm runs its barrier only where its own test holds
                "__global__ void k(float* o, int a, int b) { int w = threadIdx.x / 32; if (w < a) { __syncthreads(); } else if (w < b) { __syncthreads(); } }",
                // the barriers of the rest are in a loop: no count to match
                "__global__ void k(int* o, int n) { if (threadIdx.x < 64) { __syncthreads(); return; } for (int r = 0; r < n; ++r) { __syncthreads(); } }",
                // the threads that leave pass fewer barriers than those that stay
                "__global__ void k(int* o, int n) { __shared__ int s[64]; if (threadIdx.x < 64) { o[threadIdx.x] = 0; __syncthreads(); return; } int t = threadIdx.x - 64; __syncthreads(); if (t == 0) s[0] = 1; __syncthreads(); }",
                // the tail threads of a rounded-up grid return before the barrier
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; __syncthreads(); o[i] = 0; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; __syncthreads(); o[i] = 0; }\nvoid f(float* o, int n) { k<<<(n + 255) / 256, 256>>>(o, n); }",
                // a helper with a barrier, called by some threads only
                "__device__ void stage(float* s) { s[threadIdx.x] = 0; __syncthreads(); }\n__global__ void k(float* o, int n) { __shared__ float s[256]; if (threadIdx.x < n) stage(s); }",
                "__global__ void k(float* o, int n) { for (int r = 0; r < n; ++r) { if (threadIdx.x == r) continue; __syncthreads(); } }",
                "__global__ void k(float* o, int n) { for (int i = threadIdx.x; i < n; i += blockDim.x) { __syncthreads(); } }",
                "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(float* o) { cg::thread_block b = cg::this_thread_block(); if (threadIdx.x == 0) b.sync(); }",
                // a thread-dependent test kept in a flag
                "__global__ void k(float* o) { const bool leader = threadIdx.x < 16; if (leader) { __syncthreads(); } }",
                // a padded name whose definition is not a multiple of the step
                "__global__ void k(float* o, int n) { int padded = n + 1; for (int j = threadIdx.x; j < padded; j += blockDim.x) { __syncthreads(); } }",
                // a rounded limit, but the loop variable also moves in the body
                "__global__ void k(float* o, int n) { for (int i = threadIdx.x; i < n / blockDim.x * blockDim.x; i += blockDim.x) { if (o[i] > 0) i++; __syncthreads(); } }",
                // a constant step the block may exceed
                "#define TILE 128\n__global__ void k(float* o, int n) { for (int i = threadIdx.x; i < (n / TILE) * TILE; i += TILE) { __syncthreads(); } }",
                // a template step over a count some caller passes as it came
                "template <int T> __global__ void k(float* o, int n) { for (int i = threadIdx.x; i < n; i += T) { __syncthreads(); } }\nvoid run(float* o, int n) { k<256><<<1, 256>>>(o, n); }\nint main(int c, char** v) { int n = atoi(v[1]); run(0, n * 1024); run(0, n); return 0; }",
                // a block wider than the step
                "template <int T> __global__ void k(float* o, int n) { for (int i = threadIdx.x; i < n; i += T) { __syncthreads(); } }\nvoid f(float* o, int t) { k<256><<<1, 512>>>(o, t * 1024); }",
                // a count the block does not divide
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; __syncthreads(); o[i] = 0; }\nvoid f(float* o, int t) { int n = t * 1000; k<<<(n + 255) / 256, 256>>>(o, n); }",
                // two groups in a block
                "#define W 128\n__global__ void k(float* o, int n) { int g = threadIdx.x / W + 2 * blockIdx.x; if (g < n) { __syncthreads(); } }\nvoid f(float* o, int n) { k<<<(n + 1) / 2, 2 * W>>>(o, n); }",
            ],
        );
    }

    #[test]
    fn a_barrier_in_the_else_arm_is_reached_where_the_test_fails() {
        let found = crate::testing::run_on_snippet(
            &DIVERGENT_BARRIER,
            "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) { o[0] = 1; } else { __syncthreads(); o[i] = 0; } }",
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].message.contains("`(i >= n)` fails"),
            "{}",
            found[0].message
        );
        let found = crate::testing::run_on_snippet(
            &DIVERGENT_BARRIER,
            "__global__ void k(float* o) { if (threadIdx.x < 16) { __syncthreads(); } }",
        );
        assert!(
            found[0].message.contains("`(threadIdx.x < 16)` holds"),
            "{}",
            found[0].message
        );
    }
}
