//! Expression → range under the facts in force, on small functions: the last `use(e)` is the
//! expression asked about, and the conditions of the `if`s, loops and early exits around it are
//! the facts.

use super::*;
use crate::model::guards::{self, Condition, NoFlags};
use crate::syntax::{self, text};
use rustc_hash::FxHashMap as HashMap;

struct Context<'t> {
    source: &'t str,
    root: Node<'t>,
    definitions: HashMap<String, Vec<Node<'t>>>,
    limit: Option<i128>,
    /// Each parameter's least and greatest constant over the launches.
    passed: &'t [(&'t str, i128, i128)],
}

impl<'t> RangeContext<'t> for Context<'t> {
    fn source(&self) -> &str {
        self.source
    }
    fn reaching(&self, use_: Node<'t>) -> Option<Reaching<'t>> {
        let name = text(use_, self.source);
        let all = self.definitions.get(name)?;
        let values = crate::model::reaching::reaching(all, use_, self.root, self.source);
        Some((format!("{name}@{}", use_.start_byte()), values))
    }
    fn is_uniform(&self, node: Node<'t>) -> bool {
        let mut uniform = true;
        syntax::walk_iterative(node, |n| {
            let t = text(n, self.source);
            if n.node_kind() == "identifier"
                && (self.definitions.contains_key(t) || t == "threadIdx" || t == "blockIdx")
            {
                uniform = false;
            }
            true
        });
        uniform
    }
    fn block_limit(&self, axis: usize) -> Option<i128> {
        (axis == 0).then_some(self.limit).flatten()
    }
    // the file's constants: `WARP_SIZE` only
    fn constant(&self, node: Node<'t>) -> Option<i128> {
        (text(node, self.source) == "WARP_SIZE").then_some(32)
    }
    fn least_passed_constant(&self, parameter: &str) -> Option<i128> {
        self.passed
            .iter()
            .find(|(name, _, _)| *name == parameter)
            .map(|(_, least, _)| *least)
    }
}

/// The range of the argument of the last `use(...)` in `code`, as `[lo, hi]` (`?` unbounded).
fn range_of(code: &str) -> String {
    range_with_limit(code, None)
}

fn range_with_limit(code: &str, limit: Option<i128>) -> String {
    range_of_code(code, limit, false, &[])
}

fn range_of_code<'t>(
    code: &'t str,
    limit: Option<i128>,
    every_bound: bool,
    passed: &'t [(&'t str, i128, i128)],
) -> String {
    with_last_use(code, limit, passed, |context, at, facts| {
        let range = Ranges::new(context).range(at, facts);
        let show = |s: &Option<Sym>| s.as_ref().map_or("?".to_string(), Sym::display);
        if !every_bound {
            return format!("[{}, {}]", show(&range.lo), show(&range.hi));
        }
        let list = |bounds: Vec<&Sym>| {
            let shown: Vec<String> = bounds.into_iter().map(Sym::display).collect();
            shown.join(" and ")
        };
        format!(
            "at least {}; at most {}",
            list(range.lower_bounds().collect()),
            list(range.upper_bounds().collect())
        )
    })
}

/// `answer` of the argument of the last `use(...)` in `code`, with the context of `code` and the
/// facts in force there.
fn with_last_use<'t>(
    code: &'t str,
    limit: Option<i128>,
    passed: &'t [(&'t str, i128, i128)],
    answer: impl for<'n> FnOnce(&Context<'n>, Node<'n>, &[Comparison<'n>]) -> String,
) -> String {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_cuda::LANGUAGE.into())
        .expect("grammar loads");
    let tree = parser.parse(code, None).expect("parses");
    let mut definitions: HashMap<String, Vec<Node>> = HashMap::default();
    let mut uses = Vec::new();
    syntax::walk_iterative(tree.root_node(), |node| {
        match node.node_kind() {
            "init_declarator" => {
                if let (Some(d), Some(v)) = (node.field("declarator"), node.field("value")) {
                    definitions
                        .entry(text(d, code).to_string())
                        .or_default()
                        .push(v);
                }
            }
            "assignment_expression" => {
                if let (Some(l), Some(r)) = (node.field("left"), node.field("right")) {
                    let value = if operator(node, code) == "=" { r } else { l };
                    definitions
                        .entry(text(l, code).to_string())
                        .or_default()
                        .push(value);
                }
            }
            "update_expression" => {
                if let Some(a) = node.field("argument") {
                    definitions
                        .entry(text(a, code).to_string())
                        .or_default()
                        .push(a);
                }
            }
            "call_expression"
                if node
                    .field("function")
                    .is_some_and(|f| text(f, code) == "use") =>
            {
                uses.extend(node.field("arguments").and_then(|a| a.named_child(0)));
            }
            _ => {}
        }
        true
    });
    let at = *uses.last().expect("a use");
    let mut facts = Vec::new();
    let mut disjunctions = Vec::new();
    let mut node = at;
    while let Some(parent) = node.parent() {
        let holds = match parent.node_kind() {
            "if_statement" | "for_statement" | "while_statement" => {
                parent.field("condition") != Some(node)
            }
            _ => false,
        };
        if holds {
            if let Some(condition) = parent.field("condition") {
                let condition = Condition {
                    node: condition,
                    holds: parent.field("alternative") != Some(node),
                };
                guards::comparisons(condition, code, &NoFlags, &mut facts, &mut disjunctions);
            }
        }
        if parent.node_kind() == "compound_statement" {
            for sibling in named_children(parent) {
                if sibling.end_byte() > node.start_byte() {
                    break;
                }
                let exits = sibling.node_kind() == "if_statement"
                    && sibling.field("consequence").is_some_and(|c| {
                        let body = text(c, code);
                        body.contains("return") || body.contains("break")
                    });
                if let (true, Some(condition)) = (exits, sibling.field("condition")) {
                    let condition = Condition {
                        node: condition,
                        holds: false,
                    };
                    guards::comparisons(condition, code, &NoFlags, &mut facts, &mut disjunctions);
                }
            }
        }
        node = parent;
    }
    let context = Context {
        source: code,
        root: tree.root_node(),
        definitions,
        limit,
        passed,
    };
    answer(&context, at, &facts)
}

/// Whether the argument of the last `use(...)` is the thread index scaled (`n * tid`).
fn scaled(code: &str) -> bool {
    with_last_use(code, None, &[], |context, at, _| {
        linear::scales_thread_index(at, context).to_string()
    }) == "true"
}

#[test]
fn a_thread_index_times_a_size_or_a_constant_is_scaled() {
    let scaled_forms = [
        "__global__ void k(int v) { size_t o = v * 32 * blockIdx.x + v * threadIdx.x; use(o); }",
        "__global__ void k() { int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x); use(i); }",
        "__global__ void k(int n) { use(n * threadIdx.x); }",
    ];
    for code in scaled_forms {
        assert!(scaled(code), "{code}");
    }
    let unit_forms = [
        "__global__ void k() { int i = blockIdx.x * blockDim.x + threadIdx.x; use(i); }",
        "__global__ void k(int base) { use(base + threadIdx.x + 256 * blockIdx.x); }",
        // a grid-stride counter is read as itself: not known to be scaled
        "__global__ void k(int n) { for (int i = threadIdx.x; i < n; i += blockDim.x) use(i); }",
    ];
    for code in unit_forms {
        assert!(!scaled(code), "{code}");
    }
}

/// Every bound of the argument of the last `use(...)`, the kept one first.
fn bounds_with_limit(code: &str, limit: Option<i128>) -> String {
    range_of_code(code, limit, true, &[])
}

#[test]
fn a_thread_index_stays_below_the_largest_block() {
    // no launch says how wide the block is, the hardware does: 1024 on `x` and `y`, 64 on `z`
    let code = "__global__ void k(int n) { unsigned tid = threadIdx.x; use(tid); }";
    assert_eq!(
        bounds_with_limit(code, None),
        "at least 0; at most blockDim.x - 1 and 1023"
    );
    let deep = "__global__ void k(int n) { use(threadIdx.z); }";
    assert_eq!(
        bounds_with_limit(deep, None),
        "at least 0; at most blockDim.z - 1 and 63"
    );
    // a block the kernel declares a bound for is already a constant
    assert_eq!(
        bounds_with_limit(code, Some(256)),
        "at least 0; at most 255"
    );
}

#[test]
fn a_parameter_is_at_least_the_least_constant_launches_pass() {
    let code = "__global__ void k(unsigned n) { use(n); }";
    assert_eq!(
        range_of_code(code, None, true, &[("n", 4096, 1 << 24)]),
        "at least n and 4096; at most n"
    );
    // a parameter no launch passes a constant for is only itself
    assert_eq!(
        range_of_code(code, None, true, &[("m", 4096, 4096)]),
        "at least n; at most n"
    );
}

#[test]
fn the_global_index_spans_the_grid() {
    let code =
        "__global__ void k(int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; use(i); }";
    assert_eq!(range_of(code), "[0, blockDim.x * gridDim.x - 1]");
}

#[test]
fn a_guard_bounds_the_index() {
    let code = "__global__ void k(int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) use(i); }";
    assert_eq!(range_of(code), "[0, n - 1]");
}

#[test]
fn an_early_exit_bounds_what_follows() {
    let code = "__global__ void k(int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; use(i); }";
    assert_eq!(range_of(code), "[0, n - 1]");
}

#[test]
fn separate_tests_bound_a_flat_index() {
    let code = "__global__ void k(int rows, int stride) {
        int ch = blockIdx.y * blockDim.x + threadIdx.x;
        for (int row = blockIdx.x; row < rows; row += gridDim.x) {
            if (ch < stride) { int idx = row * stride + ch; use(idx); }
        }
    }";
    assert_eq!(range_of(code), "[0, rows * stride - 1]");
}

#[test]
fn a_clamped_span_bounds_its_loop() {
    let code = "__global__ void k(int total, int span) {
        int start = (blockIdx.x * blockDim.x + threadIdx.x) * span;
        int end = min(start + span, total);
        for (int j = start; j < end; ++j) use(j);
    }";
    assert_eq!(range_of(code), "[0, total - 1]");
}

#[test]
fn a_remainder_test_bounds_the_index() {
    let code = "__global__ void k(int n) {
        int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
        int left = n - i;
        if (left >= 4) use(i + 3);
    }";
    // `n - i >= 4` leaves `i <= n - 4`
    assert_eq!(range_of(code), "[3, n - 1]");
}

#[test]
fn a_quotient_test_bounds_the_dividend() {
    let code = "__global__ void k(int w, int h) {
        int idx = blockIdx.x * blockDim.x + threadIdx.x;
        if (idx / w < h) use(idx);
    }";
    assert_eq!(range_of(code), "[0, h * w - 1]");
}

#[test]
fn a_test_of_a_local_holding_a_quotient_bounds_the_dividend() {
    let code = "__global__ void k(int w, int h) {
        int tid = blockIdx.x * blockDim.x + threadIdx.x;
        int first = tid;
        tid = tid / w;
        int y = tid;
        if (y < h) use(first);
    }";
    assert_eq!(range_of(code), "[0, h * w - 1]");
    // divided on one path only: the test may be of the index itself
    let sometimes = code.replace("tid = tid / w;", "if (w > 1) tid = tid / w;");
    assert_ne!(range_of(&sometimes), "[0, h * w - 1]");
}

#[test]
fn remainder_and_mask_bound_by_construction() {
    let by_remainder =
        "__global__ void k(int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; use(i % n); }";
    assert_eq!(range_of(by_remainder), "[0, n - 1]");
    let by_mask = "__global__ void k(int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; use(i & 1023); }";
    assert_eq!(range_of(by_mask), "[0, 1023]");
    let by_min = "__global__ void k(int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; use(min(i, n - 1)); }";
    assert_eq!(range_of(by_min), "[0, n - 1]");
    // a modulus named by a constant of the file, whatever bounds the dividend
    let by_named =
        "__global__ void k(int n) { int v = 0; while (v < n) { use(v % WARP_SIZE); ++v; } }";
    assert_eq!(range_of(by_named), "[0, 31]");
}

#[test]
fn a_clamp_in_a_branch_bounds_the_paths_that_skip_it() {
    // the path through the branch is clamped by the assignment, the other one failed the test
    let code = "__global__ void k(int m) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i > m - 1) { i = m - 1; }
        use(i);
    }";
    assert_eq!(range_of(code), "[0, m - 1]");
}

#[test]
fn launch_bounds_cap_the_thread_index() {
    let code = "__global__ void k(int n) { use(threadIdx.x); }";
    assert_eq!(range_with_limit(code, Some(256)), "[0, 255]");
    assert_eq!(range_of(code), "[0, blockDim.x - 1]");
}

#[test]
fn a_shift_and_a_division_narrow_the_range() {
    let code =
        "__global__ void k(int n) { int i = threadIdx.x; if (i < 256) use((i >> 5) + i / 8); }";
    // 255 >> 5 is 7 and 255 / 8 is 31, each rounded down exactly
    assert_eq!(range_of(code), "[0, 38]");
}

#[test]
fn a_ternary_joins_its_branches_under_their_conditions() {
    let code = "__global__ void k(int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; use(i < n ? i : 0); }";
    assert_eq!(range_of(code), "[0, n - 1]");
}

#[test]
fn a_step_leaves_open_the_side_it_moves_to() {
    // sizes are at least 1, so `i += s` only climbs
    let climbing =
        "__global__ void k(int n, int s) { int i = threadIdx.x; while (n) { i += s; use(i); } }";
    assert_eq!(range_of(climbing), "[0, ?]");
    let falling = "__global__ void k(int n) { int i = threadIdx.x; while (n) { i--; use(i); } }";
    assert_eq!(range_of(falling), "[?, blockDim.x - 1]");
    let unknown =
        "__global__ void k(int n, int s) { int i = threadIdx.x; while (n) { i ^= s; use(i); } }";
    assert_eq!(range_of(unknown), "[?, ?]");
}

#[test]
fn a_step_taken_once_adds_its_amount() {
    // outside any loop: the value before it plus one
    let once = "__global__ void k(int n, int x) { int y = threadIdx.x; if (y >= x) y++; use(y); }";
    assert_eq!(range_of(once), "[0, blockDim.x]");
    // in a loop that defines the local again on every trip
    let per_trip = "__global__ void k(int n, int c) { while (n) { int o = threadIdx.x; if (c) o += 8; use(o); } }";
    assert_eq!(range_of(per_trip), "[0, blockDim.x + 7]");
    let down =
        "__global__ void k(int n, int m) { int y = threadIdx.x + m; if (n) y -= m; use(y); }";
    assert_eq!(range_of(down), "[0, blockDim.x + m - 1]");
    // a local carried across the trips of a loop is not stepped once
    let carried = "__global__ void k(int n, int c) { int o = threadIdx.x; while (n) { if (c) o += 8; use(o); } }";
    assert_eq!(range_of(carried), "[0, ?]");
    // a `for` header's initializer runs once, its update on every trip
    let header = "__global__ void k(int n, int s) { for (int a = 0, b = threadIdx.x; a < n; a += s, b += s) use(b); }";
    assert_eq!(range_of(header), "[0, ?]");
}

#[test]
fn a_product_with_a_factor_of_unknown_sign_keeps_its_top() {
    // `w - t - 1` may be below 0 (the test knows nothing of `t`), but not above `w - 1`
    let code =
        "__global__ void k(int w, int c) { int t = threadIdx.x; int r = w - t - 1; use(c * r); }";
    assert_eq!(range_of(code), "[?, c * w - c]");
}

#[test]
fn a_step_in_a_counted_loop_adds_at_most_its_trips() {
    let after = "__global__ void k(int n) {
        int idx = threadIdx.x;
        for (int p = 0; p < 8; p++) { idx += 32; use(idx); }
    }";
    assert_eq!(range_of(after), "[0, blockDim.x + 255]");
    // read before the step: one step fewer
    let before = "__global__ void k(int n) {
        int idx = threadIdx.x;
        for (int p = 0; p < 8; ++p) { use(idx); idx += 32; }
    }";
    assert_eq!(range_of(before), "[0, blockDim.x + 223]");
    // a counter the body moves, or a loop around the loop that keeps the sum: no count
    let moved = "__global__ void k(int n) {
        int idx = threadIdx.x;
        for (int p = 0; p < 8; p++) { idx += 32; p += 1; use(idx); }
    }";
    assert_eq!(range_of(moved), "[0, ?]");
    let nested = "__global__ void k(int n) {
        int idx = threadIdx.x;
        for (int q = 0; q < n; q++) { for (int p = 0; p < 8; p++) { idx += 32; use(idx); } }
    }";
    assert_eq!(range_of(nested), "[0, ?]");
    let restarted = "__global__ void k(int n) {
        for (int q = 0; q < n; q++) { int idx = threadIdx.x; for (int p = 0; p < 8; p++) { idx += 32; use(idx); } }
    }";
    assert_eq!(range_of(restarted), "[0, blockDim.x + 255]");
}

#[test]
fn two_facts_added_together_bound_a_position_inside_its_valid_range() {
    // the last valid lane of a tile that may hang over the end of the row
    let code = "__global__ void k(int n) {
        int start = blockIdx.x * 14 - 1;
        int x = start + threadIdx.x;
        int last = (start + 15 > n - 1) ? 15 - (start + 15 - n + 1) : 15;
        if (threadIdx.x <= last) use(x);
    }";
    assert_eq!(range_of(code), "[-1, n - 1]");
    // and its first valid lane, from below
    let code = "__global__ void k(int n) {
        int start = blockIdx.x * 14 - 1;
        int x = start + threadIdx.x;
        int first = (start < 0) ? -start : 0;
        if (threadIdx.x >= first) use(x);
    }";
    assert_eq!(range_of(code), "[0, blockDim.x + 14 * gridDim.x - 16]");
    // a range that does not end at the row's end bounds nothing more
    let code = "__global__ void k(int n) {
        int start = blockIdx.x * 14 - 1;
        int x = start + threadIdx.x;
        int last = (start + 15 > n - 1) ? 15 : 15 - start;
        if (threadIdx.x <= last) use(x);
    }";
    assert!(range_of(code).contains("gridDim"), "{}", range_of(code));
}

#[test]
fn an_offset_taken_back_from_a_loop_index_bounds_the_difference() {
    let code = "__global__ void k(int hidden) {
        int block_start = blockIdx.x * hidden;
        int start = block_start + threadIdx.x;
        int end = block_start + hidden;
        for (int i = start; i < end; i += blockDim.x) use(i - block_start);
    }";
    assert_eq!(range_of(code), "[0, hidden - 1]");
}

#[test]
fn a_loop_under_a_min_stays_under_both_of_its_values() {
    let code = "__global__ void k(int count, int span) {
        int first = (blockIdx.x * blockDim.x + threadIdx.x) * span;
        int len = min(span, count - first);
        for (int j = 0; j < len; ++j) { int at = first + j; use(at); }
    }";
    assert_eq!(range_of(code), "[0, count - 1]");
    // `max` keeps the larger: nothing bounds the position but the grid
    let wider = code.replace("min(", "max(");
    assert!(range_of(&wider).contains("gridDim"), "{}", range_of(&wider));
}

#[test]
fn a_test_against_a_parameter_keeps_the_block_bound_beside_it() {
    // neither `255` nor `k - 1` is provably the smaller: both hold, and a launch passing `k = 4`
    // makes the second the tight one
    let code = "void f(int k) { int tid = threadIdx.x; if (tid < k) { use(tid); } }";
    assert_eq!(
        bounds_with_limit(code, Some(256)),
        "at least 0; at most 255 and k - 1"
    );
}

#[test]
fn bounds_that_both_hold_pass_through_sums_and_negation() {
    // the test's lower bound `d` survives beside the definition's `0`, so the reflection
    // `2 * d - r - 2` stays below `d - 1`
    let code = "void f(int d, int off) { int r = threadIdx.x + off; \
                if (r >= d) { use(2 * d - r - 2); } }";
    let shown = bounds_with_limit(code, Some(256));
    assert!(
        shown.contains("at most") && shown.contains("d - 2"),
        "{shown}"
    );
}

#[test]
fn a_minimum_is_below_each_of_its_arguments() {
    let code = "void f(int n, int span) { int i = threadIdx.x; use(min(i + span, n)); }";
    assert_eq!(
        bounds_with_limit(code, Some(128)),
        "at least 0; at most span + 127 and n"
    );
}

#[test]
fn a_constant_factor_scales_every_bound() {
    let code = "__global__ void k(int degrees) { int angle = threadIdx.x; if (angle > degrees) return; use(2 * angle + 1); }";
    assert_eq!(
        bounds_with_limit(code, Some(256)),
        "at least 1; at most 511 and 2 * degrees + 1"
    );
    let negated = "__global__ void k(int degrees) { int angle = threadIdx.x; if (angle > degrees) return; use(-2 * angle); }";
    assert_eq!(
        bounds_with_limit(negated, Some(256)),
        "at least -510 and -2 * degrees; at most 0"
    );
}

#[test]
fn a_remainder_of_a_value_of_either_sign_lies_within_the_divisor() {
    let code = "__device__ int opaque(int x);
__global__ void k(int n) { int w = opaque(threadIdx.x / 32); int r = w % 4; use(r); }";
    assert_eq!(range_of(code), "[-3, 3]");
    let code = "__global__ void k(int n) { int r = threadIdx.x % 4; use(r); }";
    assert_eq!(range_of(code), "[0, 3]");
}

#[test]
fn a_left_shift_by_a_constant_scales_the_tested_value() {
    let code = "__global__ void k(int cols) { int e = blockIdx.x * blockDim.x + threadIdx.x; int x = e << 2; if (x + 3 < cols) use(e); }";
    assert_eq!(range_of(code), "[0, cols / 4 - 1]");
}

#[test]
fn a_uniform_load_stands_for_itself() {
    // a value read from memory at a uniform index is a given of the launch, as a parameter is:
    // the row it picks scales a part bounded by construction, and nothing grows with the grid
    let code = "__global__ void k(const int* order, int n, int task) {
        int seq = order[task / n];
        use(seq * n + (blockIdx.x / 2) % n);
    }";
    assert_eq!(
        range_of(code),
        "[n * order[task/n], n * order[task/n] + n - 1]"
    );
    // a load at the thread's own index is not uniform: nothing is known of it
    let per_thread = "__global__ void k(const int* order, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        use(order[i] + 1);
    }";
    assert_eq!(range_of(per_thread), "[?, ?]");
}

#[test]
fn a_remainder_written_out_lies_below_its_divisor() {
    for scale in [
        "blockIdx.x - 5 * block",
        "blockIdx.x - block * 5",
        "blockIdx.x - 5 * (blockIdx.x / 5)",
    ] {
        let code = format!(
            "__global__ void k(int n) {{ int block = blockIdx.x / 5; int scale = {scale}; use(scale); }}"
        );
        assert_eq!(range_of(&code), "[0, 4]", "{scale}");
    }
    // a quotient of another value is no remainder of this one
    let code = "__global__ void k(int n) { int block = threadIdx.x / 5; int scale = blockIdx.x - 5 * block; use(scale); }";
    assert_ne!(range_of(code), "[0, 4]");
}

#[test]
fn a_counter_stepped_over_a_whole_number_of_steps_stops_one_step_before_the_end() {
    // `end - start` is 32, eight steps of 4: the last value is `end - 4`, so `end < n` leaves
    // `i + 3` inside `n`
    let code = "__global__ void k(const float* in, int n) {
        int start = (blockIdx.x * blockDim.x + threadIdx.x) * 32;
        int end = start + 32;
        if (end < n) { for (int i = start; i < end; i += 4) use(i); }
    }";
    assert_eq!(range_of(code), "[0, n - 5]");
    // a constant span from a constant start
    let code = "__global__ void k() { for (int i = 0; i < 32; i += 4) use(i); }";
    assert_eq!(range_of(code), "[0, 28]");
    // both ends multiples of the step
    let code = "__global__ void k(int m) {
        for (int i = blockIdx.x * 8; i < m * 8; i += 4) use(i);
    }";
    assert_eq!(range_of(code), "[0, 8 * m - 4]");
}

#[test]
fn a_span_not_known_to_be_a_multiple_of_the_step_keeps_the_last_value_below_the_end() {
    // 30 is not a multiple of 4: `start + 28` is taken, and it is `end - 2`
    let code = "__global__ void k(int n) {
        int start = (blockIdx.x * blockDim.x + threadIdx.x) * 32;
        int end = start + 30;
        if (end < n) { for (int i = start; i < end; i += 4) use(i); }
    }";
    assert_eq!(range_of(code), "[0, n - 2]");
    // an end the kernel is given may be any value
    let code = "__global__ void k(int n) { for (int i = 0; i < n; i += 4) use(i); }";
    assert_eq!(range_of(code), "[0, n - 1]");
    // a body that moves the end, or the counter, leaves the loop's own test alone
    let code = "__global__ void k(int n) {
        int end = 32;
        for (int i = 0; i < end; i += 4) { end += 2; use(i); }
    }";
    assert!(!range_of(code).ends_with(", 28]"), "{}", range_of(code));
    let code = "__global__ void k() { for (int i = 0; i < 32; i += 4) { i -= 1; use(i); } }";
    assert!(!range_of(code).ends_with(", 28]"), "{}", range_of(code));
}

#[test]
fn a_divisor_or_shift_named_by_a_constant_is_its_value() {
    let code = "void k() { int t = threadIdx.x; use(t / WARP_SIZE); }";
    assert_eq!(range_with_limit(code, Some(256)), "[0, 7]");
    let code = "void k() { int t = threadIdx.x; use(t >> LOG); }";
    assert_eq!(
        range_with_limit(code, Some(256)),
        "[?, ?]",
        "a shift by a name no constant gives"
    );
    let code = "void k() { int t = threadIdx.x; use(t / n); }";
    assert_eq!(range_with_limit(code, Some(256)), "[0, 255]");
}

#[test]
fn a_binary_search_probes_between_the_bounds_it_started_with() {
    let strict = "__global__ void k(const int* keys, int n, int key) {
        int lo = 0, hi = n;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (keys[mid] < key) lo = mid + 1; else hi = mid;
            use(mid);
        }
    }";
    assert_eq!(range_of(strict), "[0, n - 1]");
    let inclusive = "__global__ void k(const int* keys, int n, int key) {
        int lo = 0;
        int hi = n - 1;
        while (lo <= hi) {
            int mid = lo + ((hi - lo) >> 1);
            if (keys[mid] <= key) lo = mid + 1; else hi = mid - 1;
            use(mid);
        }
    }";
    assert_eq!(range_of(inclusive), "[0, n - 1]");
}

#[test]
fn a_search_whose_bound_moves_past_the_midpoint_is_not_a_bisection() {
    let widened = "__global__ void k(const int* keys, int n, int key) {
        int lo = 0, hi = n;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (keys[mid] < key) lo = mid + 1; else hi = mid + 2;
            use(mid);
        }
    }";
    assert_eq!(range_of(widened), "[?, ?]");
    let reset = "__global__ void k(const int* keys, int n, int key, int m) {
        int lo = 0, hi = n;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (keys[mid] < key) lo = mid + 1; else hi = mid;
            if (key == 0) lo = m;
            use(mid);
        }
    }";
    assert_eq!(range_of(reset), "[?, ?]");
}

#[test]
fn a_test_against_a_shifted_size_read_as_a_template_still_bounds_the_index() {
    // `tid < cols >> 1` parses as `tid<cols> > 1`; it still keeps `tid` below `cols`
    let code = "__global__ void k(int cols) {
        int tid = blockIdx.x * blockDim.x + threadIdx.x;
        if (tid < cols >> 1) use(tid);
    }";
    assert_eq!(range_of(code), "[0, cols - 1]");
}

#[test]
fn a_loop_stepping_down_from_below_a_size_stays_below_it() {
    // `threadIdx.x` is below `blockDim.x`: the start is at most `L - 1`, and the steps only lower it
    let down = |start: &str| {
        range_of(&format!(
            "__global__ void k(int L) {{ int tx = threadIdx.x; for (int j = {start}; j >= 0; j -= blockDim.x) use(j); }}"
        ))
    };
    assert_eq!(down("L - blockDim.x + tx"), "[0, L - 1]");
    assert_eq!(down("L - blockDim.x + tx + 1"), "[0, L]");
}

#[test]
fn a_count_clamped_by_a_test_bounds_a_loop_counter_compared_with_it() {
    let clamped = "__global__ void k(const float* s, int nx) {
        int mx = blockDim.x;
        int joff = mx * blockIdx.x;
        int mxm = nx - joff;
        if (mxm > mx) mxm = mx;
        for (int j = 0; j < mxm; j++) use(j);
    }";
    assert_eq!(range_of(clamped), "[0, blockDim.x - 1]");
    // a clamp to another value bounds the counter by that one
    let wider = clamped.replace("if (mxm > mx) mxm = mx;", "if (mxm > 2 * mx) mxm = 2 * mx;");
    assert_eq!(range_of(&wider), "[0, 2 * blockDim.x - 1]");
}
