use super::support::{snippet, with_site_in_helper};
use crate::lint::LintContext;
use crate::model::Model;

crate::declare_lint!(
    PARTIAL_WARP_SHUFFLE,
    "partial-warp-shuffle",
    Kernel,
    Error,
    "warp shuffle or vote with a full mask under a condition that only some lanes of the warp take",
    check
);

fn check(model: &Model, cx: &mut LintContext) {
    for (_, facts) in model.kernel_facts() {
        let reported: Vec<_> = facts
            .collectives
            .iter()
            .filter(|c| c.full_mask && c.splitting_condition.is_some())
            .collect();
        for (at, collective) in reported.iter().enumerate() {
            let Some(condition) = collective.splitting_condition else {
                continue;
            };
            // the calls under one condition are one finding, at the first of them
            let same = |other: &&&crate::model::kernel::WarpCollective| {
                other.splitting_condition == Some(condition)
            };
            if reported[..at].iter().any(|other| same(&other)) {
                continue;
            }
            let later: Vec<_> = reported[at + 1..].iter().filter(same).collect();
            let call = snippet(model, collective.node);
            let condition_text = snippet(model, condition);
            let named = match &collective.via {
                Some(via) => format!(
                    "`{call}` reaches `{}` with a full mask in `{}`, and",
                    collective.intrinsic, via.function
                ),
                None => format!("`{call}` names all 32 lanes in its mask, and"),
            };
            let (message, label) = if collective.exited {
                (
                    format!("{named} the lanes where `{condition_text}` holds have returned before it: a lane that reads a value from one of them gets an undefined value"),
                    "lanes for which this holds return before the shuffle",
                )
            } else if collective.after_early_exit {
                (
                    format!("{named} the lanes where `{condition_text}` holds skip it: the lanes named in the mask never all arrive, which is undefined behaviour (a hang or wrong values)"),
                    "lanes for which this holds skip the call",
                )
            } else {
                (
                    format!("{named} it runs only in the lanes where `{condition_text}` holds, which need not be the whole warp: the lanes named in the mask never all arrive, which is undefined behaviour (a hang or wrong values)"),
                    "this condition differs between lanes of a warp",
                )
            };
            let mut diagnostic = cx
                .diagnostic(collective.node.byte_range(), message)
                .with_label(condition.byte_range(), label);
            for other in later.iter().take(3) {
                diagnostic =
                    diagnostic.with_label(other.node.byte_range(), "also under this condition");
            }
            if later.len() > 3 {
                diagnostic.message.push_str(&format!(
                    " ({} more calls under the same condition)",
                    later.len()
                ));
            }
            if let Some(via) = &collective.via {
                diagnostic = with_site_in_helper(diagnostic, via, "collective");
            }
            let help = if collective.via.is_none() && collective.mask.is_some() {
                // the lanes that reach the call are those where an exit's test fails
                let reaching = if collective.exited || collective.after_early_exit {
                    negated(&condition_text)
                } else {
                    condition_text.clone()
                };
                let place = if collective.exited || collective.after_early_exit {
                    "before the exit"
                } else {
                    "before the branch"
                };
                format!(
                    "compute the mask of the lanes that reach the call, `unsigned mask = __ballot_sync(0xffffffff, {reaching});` {place}, and pass it to `{}`; or move the call out of the branch so that the whole warp reaches it",
                    collective.intrinsic
                )
            } else {
                "move the call out of the branch so that the whole warp reaches it (give the lanes that do not take the branch a neutral value), or pass the mask of the lanes that do".to_string()
            };
            cx.report(diagnostic.with_help(help));
        }
    }
}

/// `!(condition)`, written without doubled parentheses when the condition has its own.
fn negated(condition: &str) -> String {
    let wrapped = condition.starts_with('(')
        && condition.ends_with(')')
        && condition
            .char_indices()
            .scan(0i32, |depth, (at, c)| {
                match c {
                    '(' => *depth += 1,
                    ')' => *depth -= 1,
                    _ => {}
                }
                Some((at, *depth))
            })
            // the first parenthesis closes only at the end
            .all(|(at, depth)| depth > 0 || at + 1 == condition.len());
    if wrapped {
        format!("!{condition}")
    } else {
        format!("!({condition})")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_lanes_that_stay_are_those_where_the_exit_test_fails() {
        assert_eq!(super::negated("(idx >= n)"), "!(idx >= n)");
        assert_eq!(super::negated("idx >= n"), "!(idx >= n)");
        assert_eq!(super::negated("(a) || (b)"), "!((a) || (b))");
    }

    use super::PARTIAL_WARP_SHUFFLE;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &PARTIAL_WARP_SHUFFLE,
            &[
                // a warp width left at its default by the launch: a warp number is warp-uniform
                "template <int TN, int WARP_SIZE = 32>\n__global__ void g(const float* w, float* y) { int warp = threadIdx.x / WARP_SIZE; if (warp >= 2) { float s = w[threadIdx.x]; for (int o = WARP_SIZE / 2; o > 0; o /= 2) s += __shfl_down_sync(0xffffffff, s, o); y[warp] = s; } }\nvoid run(const float* w, float* y) { g<256><<<1, 256>>>(w, y); }",
                // the whole warp reaches the shuffle
                "__global__ void k(float* o) { float v = o[threadIdx.x]; for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffff, v, d); if (threadIdx.x % 32 == 0) o[threadIdx.x / 32] = v; }",
                // the first warp as a whole, and whole warps by number
                "__global__ void k(float* o) { float v = o[threadIdx.x]; if (threadIdx.x < 32) v = __shfl_xor_sync(0xffffffff, v, 1); o[threadIdx.x] = v; }",
                "#define WARP 32\n__global__ void k(float* o) { int tid = threadIdx.x; float v = o[tid]; if (tid < 2 * WARP) v = __shfl_xor_sync(0xffffffff, v, 1); if (tid >= warpSize) v += __shfl_down_sync(0xffffffff, v, 1); o[tid] = v; }",
                "__global__ void k(float* o) { int warp = threadIdx.x / 32; int lane = threadIdx.x & 31; float v = o[threadIdx.x]; if (warp == 0) v = __shfl_sync(0xffffffff, v, lane ^ 1); o[threadIdx.x] = v; }",
                "__global__ void k(float* o, int rows) { int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; if (row >= rows) return; float v = o[row]; v += __shfl_xor_sync(0xffffffff, v, 16); o[row] = v; }",
                // conditions on the block, a parameter, or threadIdx.y
                "__global__ void k(float* o, int n) { if (blockIdx.x < n) { float v = __shfl_sync(0xffffffff, o[0], 0); o[blockIdx.x] = v; } }",
                "__global__ void k(float* o, int n) { if (threadIdx.y < n) { float v = __shfl_sync(0xffffffff, o[0], 0); o[threadIdx.y] = v; } }",
                // a mask of the lanes that take the branch
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; unsigned mask = __ballot_sync(0xffffffff, i < n); if (i < n) { float v = o[i]; v += __shfl_down_sync(mask, v, 1); o[i] = v; } }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { unsigned mask = __activemask(); float v = __shfl_down_sync(mask, o[i], 1); o[i] = v; } }",
                // a vote after an early return counts the lanes still running
                "__global__ void k(int* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; unsigned b = __ballot_sync(0xffffffff, o[i] > 0); o[i] = __popc(b); }",
                // lanes return in groups of four and the shuffles read inside the group
                "__global__ void k(float* o, int n) { int col = blockIdx.x * 32 + threadIdx.x / 4; if (col >= n) return; float v = o[col]; for (int d = 2; d >= 1; d /= 2) v += __shfl_xor_sync(0xffffffff, v, d); v = __shfl_down_sync(0xffffffff, v, 1, 4); o[col] = v; }",
                // a lane loop over whole warps: every lane runs as many iterations
                "__global__ void k(float* o, int n) { int lane = threadIdx.x % 32; float v = 0; for (int j = lane; j < 32 * n; j += 32) { v += __shfl_xor_sync(0xffffffff, o[j], 1); } o[lane] = v; }",
            ],
            &[
                // the default is no warp: lanes of one warp take both sides of the test
                "template <int TN, int WARP_SIZE = 16>\n__global__ void g(const float* w, float* y) { int warp = threadIdx.x / WARP_SIZE; if (warp >= 2) { float s = w[threadIdx.x]; for (int o = 8; o > 0; o /= 2) s += __shfl_down_sync(0xffffffff, s, o); y[warp] = s; } }\nvoid run(const float* w, float* y) { g<256><<<1, 256>>>(w, y); }",
                "__global__ void k(float* o) { int lane = threadIdx.x % 32; float v = o[threadIdx.x]; if (lane < 16) v = __shfl_down_sync(0xffffffff, v, 8); o[threadIdx.x] = v; }",
                "#define FULL_MASK 0xffffffff\n__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { float v = o[i]; for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(FULL_MASK, v, d); o[i] = v; } }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; float v = o[i]; v += __shfl_down_sync(0xffffffff, v, 1); o[i] = v; }",
                "__global__ void k(float* o, int n) { int col = blockIdx.x * 32 + threadIdx.x / 4; if (col >= n) return; float v = o[col]; v += __shfl_xor_sync(0xffffffff, v, 4); o[col] = v; }",
                "__global__ void k(int* o, int n) { for (int r = 0; r < n; ++r) { if (threadIdx.x == r) continue; unsigned b = __ballot_sync(-1, o[r] > 0); o[threadIdx.x] = b; } }",
                "__global__ void k(float* o) { if (threadIdx.x == 0) { o[0] = __shfl_sync(0xffffffff, o[1], 0); } }",
                // a warp reduction helper called by some lanes only
                "__device__ float warp_sum(float v) { for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffff, v, d); return v; }\n__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { o[i] = warp_sum(o[i]); } }",
                // a block-stride loop whose last round leaves part of a warp out
                "__global__ void k(float* o, int n) { float v = 0; for (int j = threadIdx.x; j < n; j += blockDim.x) { v += __shfl_xor_sync(0xffffffff, o[j], 1); } o[threadIdx.x] = v; }",
            ],
        );
    }
}
