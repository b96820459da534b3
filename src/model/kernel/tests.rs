//! The status of each access in small kernels: what reaches an index, and what flags hold.

use crate::model::IndexStatus;

/// For each access of the kernels in `source`, its 1-based line and status, in order.
fn statuses(source: &str) -> Vec<(usize, &'static str)> {
    crate::verify::with_model(std::path::Path::new("k.cu"), source, |model| {
        let mut found = Vec::new();
        for (_, facts) in model.kernel_facts() {
            for access in &facts.accesses {
                let line = model.lines.line_of(access.node.start_byte()) + 1;
                let status = match access.status {
                    IndexStatus::NotThreadIndexed => "not a thread index",
                    IndexStatus::Bounded { .. } => "bounded",
                    IndexStatus::Unguarded { .. } => "unguarded",
                    IndexStatus::OutOfRange { .. } => "out of range",
                };
                found.push((line, status));
            }
        }
        found.sort_unstable();
        found
    })
    .unwrap_or_default()
}

#[test]
fn a_position_read_back_from_shared_memory_is_no_thread_index() {
    let source =
        "__global__ void gather(const float* in, float* out, const int* starts, int width) {
    __shared__ int order[256];
    int k = blockIdx.x * 512 + starts[0];
    int v = threadIdx.x;
    order[threadIdx.x] = v;
    __syncthreads();
    int other = (threadIdx.x < 128) ? order[255 - threadIdx.x] : order[threadIdx.x];
    v = threadIdx.x % 2 ? other : order[threadIdx.x];
    out[k + threadIdx.x] = in[k + v];
}
";
    assert_eq!(
        statuses(source),
        [
            (3, "not a thread index"),
            (9, "not a thread index"),
            (9, "unguarded")
        ]
    );
    // where the thread's own position still reaches, it is one
    let mixed = source.replace(": order[threadIdx.x];", ": threadIdx.x;");
    assert_eq!(
        statuses(&mixed),
        [
            (3, "not a thread index"),
            (9, "unguarded"),
            (9, "unguarded")
        ]
    );
}

#[test]
fn a_flag_set_under_a_test_keeps_the_parts_that_do_not_change() {
    let source = "__global__ void relax(float* out, const float* in, int n, int steps) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    bool done;
    for (int it = 0; it < steps; ++it) {
        done = false;
        if (x < n && it + 1 < steps) {
            done = true;
        }
    }
    if (done) out[x] = in[0];
}
";
    assert_eq!(
        statuses(source),
        [(10, "bounded"), (10, "not a thread index")]
    );
    // a test of a value that changes afterwards says nothing of it there
    let moved = source.replace("if (done) out[x]", "x += n; if (done) out[x]");
    assert_eq!(
        statuses(&moved),
        [(10, "not a thread index"), (10, "unguarded")]
    );
    // set on a second path too: either test may have held
    let twice = source.replace(
        "    if (done) out[x]",
        "    if (steps > 4) done = true;\n    if (done) out[x]",
    );
    assert_eq!(
        statuses(&twice),
        [(11, "not a thread index"), (11, "unguarded")]
    );
}

#[test]
fn a_copy_taken_before_the_tested_value_changes_carries_the_test() {
    let source = "__global__ void rows(float* out, const float* in, int rows, int stride) {
    int row = (blockDim.x / 32) * blockIdx.x + threadIdx.x / 32;
    bool ok = row < rows;
    int out_row = row;
    row = row * stride + threadIdx.x % 32;
    float sum = 0.0f;
    if (ok) sum = in[row];
    if (ok) out[out_row] = sum;
}
";
    assert_eq!(statuses(source), [(7, "unguarded"), (8, "bounded")]);
    // a copy taken after the change is of another value
    let late = source
        .replace("    int out_row = row;\n", "")
        .replace("    float sum", "    int out_row = row;\n    float sum");
    assert_eq!(statuses(&late), [(7, "unguarded"), (8, "unguarded")]);
}

#[test]
fn an_index_inside_the_buffer_every_launch_sizes_from_its_grid() {
    let source = "constexpr unsigned kRows(5);
constexpr unsigned kCols(5);
constexpr unsigned kPlanes(9);
__global__ void plane_ranges(const float* volume, float* ranges, int width) {
    unsigned at(2 * (threadIdx.y + kRows * kCols * kPlanes * blockIdx.x));
    for (int p(0); p < kPlanes; ++p) {
        if (threadIdx.x == 0) {
            ranges[at] = volume[0];
            ranges[at + 1] = volume[1];
            at += 2 * kRows * kCols;
        }
    }
}
void run(const float* d_volume, unsigned* d_count, int width) {
    unsigned blocks;
    cudaMemcpy(&blocks, d_count, sizeof(unsigned), cudaMemcpyDeviceToHost);
    float* d_ranges;
    cudaMalloc(&d_ranges, blocks * kRows * kCols * kPlanes * 2 * sizeof(float));
    const dim3 shape{16, kRows * kCols, 1};
    plane_ranges<<<blocks, shape>>>(d_volume, d_ranges, width);
}
";
    let at = |found: Vec<(usize, &'static str)>| -> Vec<&'static str> {
        found
            .into_iter()
            .filter(|(line, _)| *line == 8 || *line == 9)
            .filter(|(_, s)| *s != "not a thread index")
            .map(|(_, s)| s)
            .collect()
    };
    assert_eq!(at(statuses(source)), ["bounded", "bounded"]);
    // one plane fewer allocated than the blocks write
    let short = source.replace("kPlanes * 2 * sizeof", "(kPlanes - 1) * 2 * sizeof");
    assert_eq!(at(statuses(&short)), ["unguarded", "unguarded"]);
    // a block of more rows than each block's share holds
    let tall = source.replace("{16, kRows * kCols, 1}", "{16, kRows * kCols + 1, 1}");
    assert_eq!(at(statuses(&tall)), ["unguarded", "unguarded"]);
    // a launch whose buffer is not in sight proves nothing
    let elsewhere = source.replace(
        "    cudaMalloc(&d_ranges, blocks * kRows * kCols * kPlanes * 2 * sizeof(float));\n",
        "",
    );
    assert_eq!(at(statuses(&elsewhere)), ["unguarded", "unguarded"]);
}

#[test]
fn thread_identity_reaches_a_local_through_locals_defined_after_it() {
    // `a` takes `b`'s value, `b` takes `c`'s, and only `c` is the thread's position: the identity
    // reaches `a` over passes of the fixpoint, whatever order the locals are evaluated in
    let source = "__global__ void carry(float* out, int n) {
    int a = 0, b = 0, c = 0;
    for (int s = 0; s < n; ++s) {
        a = b;
        b = c;
        c = blockIdx.x * blockDim.x + threadIdx.x;
    }
    out[a] = 1.0f;
    out[0] = 2.0f;
}
";
    assert_eq!(
        statuses(source),
        [(8, "unguarded"), (9, "not a thread index")]
    );
    let guarded = source.replace("out[a] = 1.0f;", "if (a < n) out[a] = 1.0f;");
    assert_eq!(
        statuses(&guarded),
        [(8, "bounded"), (9, "not a thread index")]
    );
}

#[test]
fn normalized_text_is_the_normalized_text() {
    // spaces, tabs, a vertical tab, line breaks and a no-break space: every node reads the same
    // as `syntax::normalized` has it
    let source = "void f() { int x = a +\t b * ( c\u{0B}+ d ) - (int) e; y = g( h ,\n k\u{A0}); }";
    let tree = crate::engine::parse(source, None).unwrap_or_else(|| panic!("parse"));
    let mut compared = 0;
    crate::syntax::walk_iterative(tree.root_node(), |node| {
        assert_eq!(
            super::normalized_text(node, source),
            crate::syntax::normalized(node, source)
        );
        compared += 1;
        true
    });
    assert!(compared > 20);
}

#[test]
fn a_remainder_carried_around_a_loop_keeps_the_bound_of_the_position_it_came_from() {
    let source = "__global__ void reverse(const float* in, float* out, const int* pitch, const int* flip, int rank, int n) {
    int flat = blockIdx.x * blockDim.x + threadIdx.x;
    if (flat >= n) return;
    int left = flat;
    int from = 0;
    for (int d = 0; d < rank; d++) {
        int carried = left;
        int q = left / pitch[d];
        left = carried - q * pitch[d];
        if (flip[d]) q = pitch[d] - 1 - q;
        from += q * pitch[d];
    }
    out[flat] = in[from];
}
";
    let on = |source: &str, line: usize| -> Vec<&'static str> {
        statuses(source)
            .into_iter()
            .filter(|(l, _)| *l == line)
            .map(|(_, status)| status)
            .collect()
    };
    // each trip divides or subtracts from what the position left: nothing above it
    assert_eq!(on(source, 13), ["bounded", "bounded"]);
    // without the test of the position, what is rebuilt from it is not bounded either
    let untested = source.replace("if (flat >= n) return;", "");
    assert_eq!(on(&untested, 13), ["unguarded", "unguarded"]);
    // a remainder that grows on the way around the loop keeps nothing of the test
    let growing = source.replace("left = carried - q * pitch[d];", "left = carried * 2 + q;");
    assert_eq!(on(&growing, 13), ["bounded", "unguarded"]);
    // divided in place, the remainder handed back at the end of the trip: the use at the top of
    // the loop is reached by more definitions than the one being divided
    let in_place = source
        .replace(
            "int q = left / pitch[d];",
            "left = left / pitch[d]; int q = left;",
        )
        .replace(
            "left = carried - q * pitch[d];",
            "int rest = carried - q * pitch[d];",
        )
        .replace(
            "from += q * pitch[d];",
            "from += q * pitch[d]; left = rest;",
        );
    assert_eq!(on(&in_place, 13), ["bounded", "bounded"]);
}

#[test]
fn a_local_stepped_from_a_tested_column_keeps_its_test() {
    let source = "__global__ void pairs(const float* a, int wa, const float* b, int wb, int rows, float* out) {
    int a0 = 16 * blockIdx.y;
    int b0 = 16 * blockIdx.x;
    bool b_col = b0 + threadIdx.x < wb;
    float s = 0.0f;
    for (int ai = a0, bi = b0; ai <= a0 + (rows - 1) * wa; ai += 16 * wa, bi += 16 * wb) {
        if (ai / wa + threadIdx.y < rows) {
            s += b_col ? b[bi + wb * threadIdx.y + threadIdx.x] : 0.0f;
        }
    }
    out[0] = s;
}
";
    let on = |source: &str, line: usize| -> Vec<&'static str> {
        statuses(source)
            .into_iter()
            .filter(|(l, _)| *l == line)
            .map(|(_, status)| status)
            .collect()
    };
    // `bi` is `b0` plus whole tiles of rows, and `b0 + threadIdx.x` is tested against the width
    assert_eq!(on(source, 8), ["bounded"]);
    // rows of another width than the tested one carry the column past it
    let narrow = source.replace("b[bi + wb * threadIdx.y", "b[bi + 16 * threadIdx.y");
    assert_eq!(on(&narrow, 8), ["unguarded"]);
    // without the column test, nothing bounds the column
    let untested = source
        .replace("s += b_col ? b[", "s += b[")
        .replace("] : 0.0f;", "];");
    assert_eq!(on(&untested, 8), ["unguarded"]);
}

#[test]
fn a_flag_only_cleared_after_its_declaration_keeps_its_starting_tests() {
    let source = "__global__ void cull(const float* w, float* out, int views, int n, float cut) {
    const int view = blockIdx.y;
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    bool keep = (view < views) && (p < n);
    float v = 0.0f;
    if (keep) {
        v = w[view * n + p];
        if (v < cut) { keep = false; } else { v *= 2.0f; }
    }
    keep &= v != 0.0f;
    keep = keep && v < 8.0f;
    if (keep) out[view * n + p] = v;
}
";
    assert_eq!(statuses(source), [(7, "bounded"), (12, "bounded")]);
    // a value that may set the flag again says nothing of the bounds where it reaches; the
    // first test sees only the declared value
    let set_again = source.replace("keep = keep && v < 8.0f;", "keep = v < 8.0f;");
    assert_eq!(statuses(&set_again), [(7, "bounded"), (12, "unguarded")]);
}

#[test]
fn a_flag_keeps_its_tests_of_the_values_it_saw_before_they_change() {
    let source = "__global__ void quads(const float* in, float* out, int rows, int cols, int h) {
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    const int part = c / h;
    const bool ok = (r < rows) && (c < cols);
    if (ok) {
        float s = in[r * cols + c];
        c += 1;
        s += in[r * cols + c];
        out[(r * cols + part * h) >> 2] = s;
    }
}
";
    // the slot is built from the column the flag tested; the column after its step is another
    // value, which the flag says nothing of
    assert_eq!(
        statuses(source),
        [(7, "bounded"), (9, "unguarded"), (10, "bounded")]
    );
    // where two values of the column reach the flag, it speaks of whichever the flag saw, up
    // to the step; the slot reads the column's earlier values through `part`, of which the
    // flag says nothing
    let two = source.replace(
        "    const bool ok",
        "    if (rows > 8) c = c * 2;\n    const bool ok",
    );
    assert_eq!(
        statuses(&two),
        [(8, "bounded"), (10, "unguarded"), (11, "unguarded")]
    );
}

#[test]
fn an_equality_that_returns_makes_an_inclusive_bound_strict() {
    let source = "__global__ void starts(const int* len, int* start, int n, int total) {
    unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s > n) return;
    if (s == n) { start[s] = total; return; }
    start[s] = len[s];
}
";
    assert_eq!(
        statuses(source),
        [(4, "bounded"), (5, "bounded"), (5, "bounded")]
    );
    // an equality with another bound leaves the inclusive one as it is
    let other = source.replace("if (s == n)", "if (s == total)");
    assert_eq!(
        statuses(&other),
        [(4, "bounded"), (5, "out of range"), (5, "out of range")]
    );
}

#[test]
fn a_test_outcome_and_what_is_added_to_it_are_no_thread_index() {
    let source =
        "__global__ void compact(const float* in, float* out, const int* block_base, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool keep = i < n && in[i] > 0.f;
    int slot = static_cast<int>(keep);
    if (blockIdx.x > 0) {
        slot += block_base[blockIdx.x - 1];
    }
    out[slot] = 1.f;
    int k = i;
    if (keep) {
        k += block_base[0];
    }
    out[k] = 2.f;
}
";
    assert_eq!(
        statuses(source),
        [
            (3, "bounded"),
            (6, "not a thread index"),
            // a test outcome (0 or 1) plus a value loaded at a uniform index: the range is
            // bounded before the thread identity is asked
            (8, "bounded"),
            (11, "not a thread index"),
            (13, "unguarded")
        ]
    );
}

#[test]
fn an_address_kept_in_a_local_pointer_is_no_access_but_its_uses_are() {
    let source = "__global__ void rows(const float* in, float* out, int rows, int w) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    const float* src = &in[r * w];
    if (r < rows) {
        out[r] = src[1];
    }
    atomicAdd(&out[r], 1.f);
    float v = src[0];
    out[0] = v;
}
";
    assert_eq!(
        statuses(source),
        [
            (5, "bounded"),
            (5, "bounded"),
            (7, "unguarded"),
            (8, "unguarded"),
            (9, "not a thread index")
        ]
    );
}

#[test]
fn a_pointer_declared_empty_and_pointed_once_is_read_through_its_element() {
    let source = "__global__ void rows(const int* a, int* c, int m, int ld) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int* dst = nullptr;
    dst = &c[row * ld];
    if (row < m)
        *dst = a[0];
    *dst = 1;
    int* moved = &c[row];
    moved += ld;
    *moved = 2;
}
";
    // the address computations (lines 4 and 8) touch nothing; the stores through `dst` are
    // `c[row * ld]`, guarded or not where they stand; `moved` no longer points at its element
    assert_eq!(
        statuses(source),
        [(6, "bounded"), (6, "not a thread index"), (7, "unguarded")]
    );
}

#[test]
fn an_inclusive_bound_holds_on_a_buffer_every_launch_allocates_one_longer() {
    let source = |elements: &str| {
        format!(
            "__global__ void offsets(int* out, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        out[i] = i;
}}
void run(int n) {{
    int* d;
    cudaMalloc(&d, ({elements}) * sizeof(int));
    offsets<<<(n + 255) / 256, 256>>>(d, n);
}}
"
        )
    };
    assert_eq!(statuses(&source("n + 1")), [(4, "bounded")]);
    assert_eq!(statuses(&source("n")), [(4, "out of range")]);
}

#[test]
fn a_test_conjoined_to_a_flag_on_every_path_holds_where_the_flag_does() {
    let source = "__global__ void scales(const float* amax, float* out, int cols, int mode) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    bool write = threadIdx.y == 0;
    write &= (col < cols);
    if (write) out[col] = amax[0];
}
";
    assert_eq!(
        statuses(source),
        [(5, "bounded"), (5, "not a thread index")]
    );
    let and = source.replace("write &= (col < cols);", "write = write && col < cols;");
    assert_eq!(statuses(&and), [(5, "bounded"), (5, "not a thread index")]);
    // conjoined on one path only: where the flag holds, the test may not have run
    let some_paths = source.replace("write &= (col < cols);", "if (mode) write &= (col < cols);");
    assert_eq!(
        statuses(&some_paths),
        [(5, "not a thread index"), (5, "unguarded")]
    );
}

#[test]
fn an_index_equal_to_a_tested_local_stepped_in_lockstep_is_bounded_by_its_test() {
    let source = "__global__ void rows(float* out, int rows) {
    int in_tile = threadIdx.x / 8;
    int row = blockIdx.x * 128 + in_tile;
    for (int it = 0; it < 4; ++it) {
        if (row < rows) {
            int at = blockIdx.x * 128 + in_tile;
            out[at] = 1.0f;
        }
        in_tile += 32;
        row += 32;
    }
}
";
    assert_eq!(statuses(source), [(7, "bounded")]);
    // stepped by different amounts: the row written runs ahead of the row tested
    let apart = source.replace("in_tile += 32;", "in_tile += 64;");
    assert_eq!(statuses(&apart), [(7, "unguarded")]);
}

#[test]
fn a_for_header_update_steps_alongside_the_end_of_its_body() {
    // the loop tests `t`, the access reads `at`, which starts at `t * stride` and steps by
    // `step * stride` at the end of the body while the header steps `t` by a grid stride
    let source = "__global__ void transpose(float* dst, int stride, int count) {
    int t = blockIdx.z * blockDim.y + threadIdx.y;
    int at = t * stride + threadIdx.x;
    int step = blockDim.y * gridDim.z;
    for (; t < count; t += step) {
        dst[at] = 1.f;
        at += step * stride;
    }
}
";
    assert_eq!(statuses(source), [(6, "bounded")]);
    // a `continue` skips the body's step while the header's still runs
    let skipped = source.replace(
        "dst[at] = 1.f;",
        "if (dst[at] > 0.f) continue;\n        dst[at] = 1.f;",
    );
    assert!(
        statuses(&skipped).contains(&(7, "unguarded")),
        "{:?}",
        statuses(&skipped)
    );
    // read after its own step, before the header's: one row ahead of the row tested
    let ahead = source.replace(
        "at += step * stride;",
        "at += step * stride;\n        dst[at] = 2.f;",
    );
    assert!(
        statuses(&ahead).contains(&(8, "unguarded")),
        "{:?}",
        statuses(&ahead)
    );
}

#[test]
fn a_flag_is_read_through_the_declaration_in_scope_and_the_values_it_saw() {
    // two flags of one name in sibling blocks, each declared in a loop whose row steps after
    // the flag's `if`
    let source = "__global__ void scales(float* p, float* q, int rows, int cols) {
    int r = blockIdx.y * 128 + threadIdx.x / 8;
    for (int it = 0; it < 4; ++it) {
        bool write = threadIdx.x % 8 == 0;
        write &= (r < rows);
        if (write) p[r] = 1.0f;
        r += 32;
    }
    {
        int c = blockIdx.x * blockDim.x + threadIdx.x;
        bool write = threadIdx.y == 0;
        write &= (c < cols);
        if (write) q[c] = 1.0f;
    }
}
";
    assert_eq!(statuses(source), [(6, "bounded"), (13, "bounded")]);
    // stepped inside the branch the flag guards: the access sees another row
    let inside = source.replace(
        "if (write) p[r] = 1.0f;\n        r += 32;",
        "if (write) { r += 32; p[r] = 1.0f; }",
    );
    assert_eq!(statuses(&inside), [(6, "unguarded"), (12, "bounded")]);
    // declared before the loop: a later trip reads the flag after the row moved on
    let outside = "__global__ void scales(float* p, int rows) {
    int r = blockIdx.y * 128 + threadIdx.x / 8;
    bool write = threadIdx.x % 8 == 0;
    write &= (r < rows);
    for (int it = 0; it < 4; ++it) {
        if (write) p[r] = 1.0f;
        r += 32;
    }
}
";
    assert_eq!(statuses(outside), [(6, "unguarded")]);
}

#[test]
fn a_guard_in_a_kept_constexpr_branch_and_steps_of_sibling_blocks_hold() {
    // each pass declares its own `row` and `tile_row`, stepped together; the unaligned
    // instantiation conjoins the row test to the flag in an `if constexpr` branch
    let pass = "    {
        int tile_row = threadIdx.x / 8;
        int row = blockIdx.x * 128 + tile_row;
        for (int it = 0; it < 4; ++it) {
            bool write = threadIdx.x % 8 == 0;
            if constexpr (!kAligned) {
                write &= (row < rows);
            }
            if (write) {
                int at = blockIdx.x * 128 + tile_row;
                out[at] = 1.0f;
            }
            tile_row += 32;
            if constexpr (!kAligned) {
                row += 32;
            }
        }
    }
";
    let source = format!(
        "template <bool kAligned>\n__global__ void scales(float* out, int rows) {{\n{pass}{pass}}}\n"
    );
    assert_eq!(statuses(&source), [(13, "bounded"), (31, "bounded")]);
    // with an `else`, the instantiations that take it run no test
    let with_else = source.replace(
        "                write &= (row < rows);\n            }\n            if (write)",
        "                write &= (row < rows);\n            } else {\n                write = true;\n            }\n            if (write)",
    );
    assert_eq!(statuses(&with_else), [(15, "unguarded"), (35, "unguarded")]);
}

#[test]
fn named_constants_are_coefficients_of_the_forms_a_test_is_solved_in() {
    // the tested column is 16 times the scale's column: `c_g < cols` bounds `col`
    let source = "constexpr int kTile = 128;
constexpr int kVec = 16;
constexpr int kOne = 1;
__global__ void scales(float* out, int cols) {
    const int lane = threadIdx.x % 8;
    const int c_g = blockIdx.x * kTile + lane * kVec;
    if (c_g < cols) {
        const int col = blockIdx.x * (kTile / kVec) + lane / kOne;
        out[col] = 1.0f;
    }
}
";
    assert_eq!(statuses(source), [(9, "bounded")]);
    // a column of another block coordinate: the test says nothing of it
    let apart = source.replace("blockIdx.x * (kTile / kVec)", "blockIdx.y * (kTile / kVec)");
    assert_eq!(statuses(&apart), [(9, "unguarded")]);
}

/// For each barrier of the kernels in `source`, in order: whether the model finds a condition
/// that splits the block before it.
fn barriers_divergent(source: &str) -> Vec<bool> {
    crate::verify::with_model(std::path::Path::new("k.cu"), source, |model| {
        model
            .kernel_facts()
            .flat_map(|(_, facts)| {
                facts
                    .barriers
                    .iter()
                    .map(|barrier| barrier.divergent_condition.is_some())
            })
            .collect::<Vec<_>>()
    })
    .unwrap_or_default()
}

#[test]
fn threads_that_skip_a_last_branch_meet_no_other_barrier() {
    let source = "__global__ void last(float* v, int n) {
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { s[threadIdx.x] = v[i]; __syncthreads(); v[i] = s[255 - threadIdx.x]; }
}
__global__ void followed(float* v, int n) {
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { s[threadIdx.x] = v[i]; __syncthreads(); v[i] = s[255 - threadIdx.x]; }
    __syncthreads();
}
__global__ void looped(float* v, int n, int m) {
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int j = 0; j < m; ++j) {
        if (i < n) { s[threadIdx.x] = v[i]; __syncthreads(); v[i] = s[255 - threadIdx.x]; }
    }
}
";
    let skippers_finish =
        crate::verify::with_model(std::path::Path::new("k.cu"), source, |model| {
            model
                .kernel_facts()
                .map(|(_, facts)| {
                    let first = &facts.barriers[0];
                    first.divergent_condition.is_some()
                        && facts.skippers_meet_no_other_barrier(first)
                })
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    assert_eq!(skippers_finish, [true, false, false]);
}

#[test]
fn a_thread_axis_every_launch_makes_one_thread_deep_does_not_split_the_block() {
    let divergent = |rows_per_block: usize| {
        barriers_divergent(&format!(
            "__global__ void wide(int size_m, const float* a, float* c) {{
    __shared__ float s[{rows_per_block}][32];
    int m = blockIdx.y * {rows_per_block} + threadIdx.y;
    if (m >= size_m) return;
    s[threadIdx.y][threadIdx.x] = a[m * 32 + threadIdx.x];
    __syncthreads();
    c[m * 32 + threadIdx.x] = s[threadIdx.y][31 - threadIdx.x];
}}
void launch(int size_m, const float* a, float* c) {{
    dim3 block(32, {rows_per_block});
    dim3 grid(1, (size_m + {rows_per_block} - 1) / {rows_per_block});
    wide<<<grid, block>>>(size_m, a, c);
}}
"
        ))
    };
    assert_eq!(divergent(1), [false]);
    assert_eq!(divergent(4), [true]);
}

#[test]
fn loops_that_cross_their_limit_in_whole_strides_keep_the_block_together() {
    // the limit rounded up from the block's row: the same within a block, a multiple of the step
    let rounded_per_block = |launch_block: usize| {
        barriers_divergent(&format!(
            "template <int B> __global__ void k(int* out, const int* in) {{
    int end = (blockIdx.x + B - 1) / B * B;
    int s = 0;
    for (int i = threadIdx.x; i < end; i += B) {{ s += in[i]; __syncthreads(); }}
    out[blockIdx.x] = s;
}}
void run(int* out, const int* in, int rows) {{ k<128><<<rows, {launch_block}>>>(out, in); }}
"
        ))
    };
    assert_eq!(rounded_per_block(128), [false]);
    // a block wider than the step: its second half starts a step in and leaves a trip early
    assert_eq!(rounded_per_block(256), [true]);
    // a test of the loop variable against a multiple of the step, or against half of it
    let tested = |bound: &str| {
        barriers_divergent(&format!(
            "template <int B> __global__ void k(int* out, const int* in, int n) {{
    for (int i = threadIdx.x; i < (n + B - 1) / B * B; i += B) {{
        if (i >= {bound}) {{ __syncthreads(); }}
        out[i] = in[i];
    }}
}}
void run(int* out, const int* in, int n) {{ k<256><<<1, 256>>>(out, in, n); }}
"
        ))
    };
    assert_eq!(tested("B"), [false]);
    assert_eq!(tested("2 * B"), [false]);
    assert_eq!(tested("B / 2"), [true]);
}

#[test]
fn a_grid_stride_loop_to_a_count_rounded_to_the_block_keeps_the_block_together() {
    // no launch in sight: the start, the step and the end are whole blocks apart whatever the
    // block size, so each trip is taken by the whole block or by none of it
    let rounded_to = |multiple: &str, start: &str| {
        barriers_divergent(&format!(
            "__device__ int round_up(int x, int m) {{ return (x + m - 1) / m * m; }}
__global__ void k(const int* in, int n, int* out) {{
    __shared__ int s;
    int end = round_up(n, {multiple});
    for (int i = {start}; i < end; i += gridDim.x * blockDim.x) {{
        int v = i < n ? in[i] : 0;
        s = 0;
        __syncthreads();
        out[blockIdx.x] += v + s;
    }}
}}
"
        ))
    };
    let global = "blockIdx.x * blockDim.x + threadIdx.x";
    assert_eq!(rounded_to("blockDim.x", global), [false]);
    assert_eq!(rounded_to("32", global), [true]);
    assert_eq!(
        rounded_to("blockDim.x", "blockIdx.x * blockDim.x + 2 * threadIdx.x"),
        [true]
    );
    assert_eq!(
        rounded_to("blockDim.x", "blockIdx.x * 32 + threadIdx.x"),
        [true]
    );
}

#[test]
fn a_thread_offset_whose_range_stays_below_a_size_bounds_a_row_of_that_size() {
    let kernel = |start: &str| {
        statuses(&format!(
            "__global__ void back(float* beta, int L) {{
    for (int j = {start}; j >= 0; j -= blockDim.x) beta[blockIdx.x * L + j] = 0.0f;
}}
"
        ))
    };
    assert_eq!(kernel("L - blockDim.x + threadIdx.x"), [(2, "bounded")]);
    assert_eq!(
        kernel("L - blockDim.x + threadIdx.x + 1"),
        [(2, "unguarded")]
    );
    // a bound the launch gives (blocks of `L` threads) is no bound the code states
    let launched =
        "__global__ void rows(float* out, int L) { out[blockIdx.x * L + threadIdx.x] = 0.0f; }
void run(float* out, int rows_count, int L) { rows<<<(rows_count + 1) / 2, L>>>(out, L); }
";
    assert_eq!(statuses(launched), [(1, "unguarded")]);
}

#[test]
fn the_thread_part_taken_back_out_of_a_stepped_index_leaves_the_blocks_base() {
    // `i - threadIdx.x` is the block's base: an index of it is no thread index; `i` itself is
    let source = "__global__ void bases(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (true) {
        out[i - threadIdx.x] = 0.0f;
        if (i < n) out[i] = in[i];
        i += blockDim.x * gridDim.x;
    }
}
";
    assert_eq!(
        statuses(source),
        [(4, "not a thread index"), (5, "bounded"), (5, "bounded")]
    );
}

#[test]
fn a_subscript_stepped_after_it_reads_reads_the_value_before_the_step() {
    let source = "__global__ void lengths(const int* len, int* out, int n) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int total = 0;
    for (int k = 0; k < 4 && g < n; k++) total += len[g++];
    for (int k = 0; k < 4 && g < n; k++) total += len[++g];
    out[0] = total;
}
";
    assert_eq!(
        statuses(source),
        [(4, "bounded"), (5, "unguarded"), (6, "not a thread index")]
    );
}

#[test]
fn a_shared_scalar_one_thread_stores_is_the_same_in_the_whole_block() {
    let kernel = |store: &str| {
        barriers_divergent(&format!(
            "__global__ void k(int* out, int n) {{ __shared__ int top; int local = 0; {store} __syncthreads(); while (top < n) {{ out[top] = 0; __syncthreads(); }} if (local < n) __syncthreads(); }}"
        ))
    };
    // one thread of the block stores, whatever it derives the value from
    assert_eq!(
        kernel("if (threadIdx.x == 0) top = threadIdx.x + 4;"),
        [false, false, false]
    );
    let tid = "const int tid = threadIdx.x; if (tid == blockDim.x - 1 && n > 0) top = tid + 1;";
    assert_eq!(kernel(tid), [false, false, false]);
    // several threads store, or every thread does: the barrier publishes one of the values,
    // and every thread reads that one
    assert_eq!(
        kernel("if (threadIdx.x < 4) top = threadIdx.x;"),
        [false, false, false]
    );
    assert_eq!(kernel("top = threadIdx.x;"), [false, false, false]);
    // a store after the barrier, or in the loop that reads it, is read by some threads before
    // others store theirs
    let stored_after = "__global__ void k(int* out, int n) { __shared__ int top; __syncthreads(); top = threadIdx.x; if (top < n) __syncthreads(); }";
    assert_eq!(barriers_divergent(stored_after), [false, true]);
    let stored_in_loop = "__global__ void k(int* out, int n) { __shared__ int top; top = 0; __syncthreads(); while (top < n) { __syncthreads(); top = threadIdx.x; } }";
    assert_eq!(barriers_divergent(stored_in_loop), [false, true]);
    // a local is each thread's own, whoever assigns it
    assert_eq!(
        kernel("if (threadIdx.x == 0) local = threadIdx.x + 4; top = 0;"),
        [false, false, true]
    );
    // until it is given a published value: its earlier values reach no later test
    let reassigned = "__global__ void k(int n) { __shared__ int best[1]; int id = threadIdx.x; if (id == 0) best[0] = id; __syncthreads(); id = best[0]; if (id != n) __syncthreads(); }";
    assert_eq!(barriers_divergent(reassigned), [false, false]);
}

#[test]
fn a_branch_on_the_size_every_launch_covers_exactly_is_taken_by_every_thread() {
    let kernel = |test: &str, launch: &str| {
        barriers_divergent(&format!(
            "__global__ void k(int* out, int n) {{ int i = blockIdx.x * blockDim.x + threadIdx.x; if ({test}) {{ out[i] = 0; __syncthreads(); }} }}\nvoid run(int* out, int n) {{ {launch} }}"
        ))
    };
    assert_eq!(kernel("i < n", "k<<<1, n>>>(out, n);"), [false]);
    assert_eq!(kernel("n > i", "k<<<n, 1>>>(out, n);"), [false]);
    // a rounded-up grid leaves threads past `n`; a constant bound is no size the launch passes
    assert_eq!(
        kernel("i < n", "k<<<(n + 255) / 256, 256>>>(out, n);"),
        [true]
    );
    assert_eq!(kernel("i < 128", "k<<<1, n>>>(out, n);"), [true]);
    // a loop tests again on every trip
    let looped = barriers_divergent(
        "__global__ void k(int* out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; for (int j = i; j < n; j += 32) { out[j] = 0; __syncthreads(); } }\nvoid run(int* out, int n) { k<<<1, n>>>(out, n); }",
    );
    assert_eq!(looped, [true]);
}

#[test]
fn a_flag_set_under_one_test_says_where_it_is_unset_that_the_test_failed() {
    let found = statuses(
        "__global__ void k(float* out, int n, int m) {\n\
         int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
         bool outside = false;\n\
         if (i >= n || m < 0) outside = true;\n\
         if (!outside) out[i] = 1.f;\n\
         bool partial = false;\n\
         if (i >= n && m > 2) partial = true;\n\
         if (!partial) out[i] = 2.f;\n\
         bool nested = false;\n\
         if (m > 2) { if (i >= n) nested = true; }\n\
         if (!nested) out[i] = 3.f;\n\
         }",
    );
    assert_eq!(found, [(5, "bounded"), (8, "unguarded"), (11, "unguarded")]);
}

#[test]
fn a_step_of_the_loop_variable_just_before_leaving_the_loop_keeps_its_trips_uniform() {
    let kernel = |last_trip: &str| {
        barriers_divergent(&format!(
            "template <int B> __global__ void k(int* out, int* kept, int n) {{ int end = (n + B - 1) / B * B; for (int i = threadIdx.x; i < end; i += B) {{ int count = __syncthreads_count(out[i] > 0); if (count != 0) {{ {last_trip} }} }} }}\nvoid run(int* out, int* kept, int n) {{ k<256><<<1, 256>>>(out, kept, n); }}"
        ))
    };
    assert_eq!(kernel("++i; kept[0] = i; break;"), [false]);
    assert_eq!(
        kernel("if (threadIdx.x == 0) { ++i; kept[0] = i; } break;"),
        [false]
    );
    // the step reaches the next trip's test
    assert_eq!(kernel("if (threadIdx.x == 0) ++i;"), [true]);
    // a `break` of an inner loop leaves only that loop
    assert_eq!(
        kernel("for (int j = 0; j < 2; ++j) { if (threadIdx.x == 0) { ++i; break; } }"),
        [true]
    );
}

#[test]
fn only_a_test_against_a_size_says_out_of_range() {
    // against a size the kernel is given: the branch runs only past the end
    let source = "__global__ void k(float* p, const int* heads, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) p[t] = 0.0f;
}
";
    assert_eq!(statuses(source), [(3, "out of range")]);
    // against a value read from memory: a position in the data, not the buffer's end
    let head = source.replace("if (t >= n)", "int head = heads[blockIdx.x]; if (t > head)");
    assert_eq!(
        statuses(&head),
        [(3, "not a thread index"), (3, "unguarded")]
    );
    let read = source.replace("if (t >= n)", "if (t >= heads[0])");
    assert_eq!(
        statuses(&read),
        [(3, "not a thread index"), (3, "unguarded")]
    );
    // the lower side of a window whose upper side is tested as well
    let window = source.replace("if (t >= n)", "if (t >= n / 2 && t <= n - 1)");
    assert_eq!(statuses(&window), [(3, "bounded")]);
    // ... whose upper side admits the size: that side is the finding
    let admits = source.replace("if (t >= n)", "if (t >= n / 2 && t <= n)");
    assert_eq!(statuses(&admits), [(3, "out of range")]);
    // a local computed from sizes is a size
    let computed = source.replace("if (t >= n)", "int end = n * 2; if (t >= end)");
    assert_eq!(statuses(&computed), [(3, "out of range")]);
}

/// A test against a size says "out of range" only where it is the one bound of the index: when
/// another test bounds it by the kernel's sizes, the size splits a range the index keeps (the
/// input nodes of a graph, the halves of a table), and a lower side that always holds (the start
/// of a window the index begins at) is no test of the end.
#[test]
fn a_test_that_splits_a_range_another_test_bounds_is_not_out_of_range() {
    let classes = "__global__ void k(const int* fanin, int* count, int inputs, int nodes) {
    for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < nodes; idx += gridDim.x * blockDim.x) {
        int node = idx;
        if (node <= inputs) continue;
        count[fanin[node]] += 1;
    }
}
";
    assert_eq!(
        statuses(classes),
        [(5, "bounded"), (5, "not a thread index")]
    );
    let halves = "__global__ void k(const float* w, float* z, int M, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M * N) {
        int col = i - (i / N) * N;
        int c2 = col << 1;
        if (c2 <= N) z[i] = w[c2]; else z[i] = w[c2 + 1];
    }
}
";
    let found = statuses(halves);
    assert!(
        !found.iter().any(|(_, s)| *s == "out of range"),
        "{found:?}"
    );
    // with the bounds on the column gone, the split is the only size it is tested against
    let unbounded = halves
        .replace("if (i < M * N) {", "{")
        .replace("i - (i / N) * N", "i");
    assert!(
        statuses(&unbounded)
            .iter()
            .any(|(_, s)| *s == "out of range"),
        "{:?}",
        statuses(&unbounded)
    );
    let window = "__global__ void k(int* nodes, int pairs, int first, int count) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= pairs) return;
    int at = first + tid;
    if (at >= first) nodes[at] = 0;
}
";
    assert_eq!(statuses(window), [(5, "bounded")]);
    // a test of the end, with nothing else bounding the index
    let end = window
        .replace("if (tid >= pairs) return;", "")
        .replace("at >= first", "at >= count");
    assert_eq!(statuses(&end), [(5, "out of range")]);
}

/// A uniform factor taken out of a sum written term by term leaves the sum a guard bounds:
/// `sz * sz * bx * B + sz * sz * tx` is `sz * sz` times the tested item `bx * B + tx`.
#[test]
fn a_common_factor_of_the_terms_leaves_the_guarded_sum() {
    let kernel = |offset: &str| {
        statuses(&format!(
            "__global__ void k(float* d, int sz, int n) {{
    int tx = threadIdx.x, bx = blockIdx.x, B = blockDim.x;
    if ((bx * B + tx) >= n) return;
    d[{offset}] = 0.0f;
}}
"
        ))
    };
    assert_eq!(kernel("sz * sz * bx * B + sz * sz * tx"), [(4, "bounded")]);
    assert_eq!(kernel("sz * bx * B * sz + tx * sz * sz"), [(4, "bounded")]);
    // the factors left are not the tested sum
    assert_eq!(kernel("sz * sz * bx * B + sz * tx"), [(4, "unguarded")]);
    assert_eq!(kernel("sz * bx + sz * tx"), [(4, "unguarded")]);
}

#[test]
fn a_call_assigned_to_writes_its_argument() {
    let source = "#define STORE2(v) (reinterpret_cast<float2*>(&(v))[0])
__global__ void k(float* c, const float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) STORE2(c[i]) = STORE2(a[i]);
    if (i < n) c[i] = load(a[i]);
}
";
    let kinds = crate::verify::with_model(std::path::Path::new("k.cu"), source, |model| {
        model
            .kernel_facts()
            .flat_map(|(_, facts)| facts.accesses.iter().map(|a| (a.pointer.clone(), a.kind)))
            .collect::<Vec<_>>()
    })
    .unwrap_or_default();
    use crate::model::AccessKind::{Read, Write};
    assert_eq!(
        kinds,
        [
            ("c".to_string(), Write),
            ("a".to_string(), Read),
            ("c".to_string(), Write),
            ("a".to_string(), Read)
        ]
    );
}

#[test]
fn a_conjunction_of_branches_every_thread_takes_is_taken_by_every_thread() {
    let kernel = |test: &str, launch: &str| {
        barriers_divergent(&format!(
            "__global__ void k(int* out, int M, int N, int flag) {{ int row = blockIdx.y * blockDim.y + threadIdx.y; int col = blockIdx.x * blockDim.x + threadIdx.x; if ({test}) {{ out[row * N + col] = 0; __syncthreads(); }} }}\nvoid run(int* out, int M, int N, int flag) {{ dim3 block(32, 32); {launch} }}"
        ))
    };
    let exact = "dim3 grid(N / 32, M / 32); k<<<grid, block>>>(out, M, N, flag);";
    assert_eq!(kernel("row < M && col < N", exact), [false]);
    assert_eq!(kernel("(row < M) && (N > col && flag)", exact), [false]);
    // a rounded-up axis leaves threads past its size; a conjunct against a constant splits the
    // block whatever the others are
    let rounded_x = "dim3 grid((N + 31) / 32, M / 32); k<<<grid, block>>>(out, M, N, flag);";
    assert_eq!(kernel("row < M && col < N", rounded_x), [true]);
    assert_eq!(kernel("row < M && threadIdx.x < 16", exact), [true]);
    assert_eq!(kernel("row < M && col < 16", exact), [true]);
    // tests joined by `||` are the same for the block too, while each of them is
    assert_eq!(kernel("row < M || col < N", exact), [false]);
    assert_eq!(kernel("row < M || threadIdx.x == 0", exact), [true]);
}

#[test]
fn a_counter_of_one_name_declared_by_another_loop_is_another_variable() {
    // opencv_contrib's median filter: the first loop's `j` starts at the thread, the later
    // loop's `j` at a uniform offset, and a local set from the later one stays uniform
    let kernel = |first_start: &str| {
        barriers_divergent(&format!(
            "__global__ void k(int* hist, int rows, int cols, int r, int start, int init) {{
    if (init) {{
        for (int j = {first_start}; j < cols; j += blockDim.x) hist[blockIdx.x * cols + j] = 0;
    }}
    for (int i = 0; i < rows; i++) {{
        for (int j = r; j < cols - r; j++) {{
            int low = start;
            if (low <= j - r) {{
                for (low = j - r; low < cols; low++) hist[low] += 1;
            }} else {{
                for (; low < j + r + 1; low++) {{ hist[low % cols] += i; __syncthreads(); }}
            }}
        }}
    }}
}}"
        ))
    };
    assert_eq!(kernel("threadIdx.x"), [false]);
    // one variable declared once: what it takes from the thread reaches the later loop
    let shared_counter = barriers_divergent(
        "__global__ void k(int* hist, int cols, int r, int start) {
    int j;
    for (j = threadIdx.x; j < cols; j += blockDim.x) hist[j] = 0;
    int low = start;
    if (low <= j - r) { __syncthreads(); }
}",
    );
    assert_eq!(shared_counter, [true]);
    // a local declared inside a loop of the same name as another in an inner block
    let inner = barriers_divergent(
        "__global__ void k(int* out, int n) {
    for (int q = 0; q < n; q++) {
        int j = q;
        { int j = threadIdx.x; out[j] = 0; }
        int low = j;
        if (low < n) { __syncthreads(); }
        { int j = threadIdx.x; int high = j; if (high < n) { __syncthreads(); } }
    }
}",
    );
    assert_eq!(inner, [false, true]);
}

#[test]
fn a_flag_set_on_every_path_that_does_not_return_says_its_test_failed() {
    let source = "__global__ void k(float* p, int n, bool compact) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool inactive = false;
    if (i >= n) { if (compact) inactive = true; else return; }
    if (!inactive) p[i] = 0.0f;
}
";
    assert_eq!(statuses(source), [(5, "bounded")]);
    // a path past the test that neither sets the flag nor returns
    let unset = source.replace(" else return;", "");
    assert_eq!(statuses(&unset), [(5, "unguarded")]);
    let skipped = source.replace(
        "if (compact) inactive = true; else return;",
        "if (compact) continue; inactive = true;",
    );
    assert_eq!(statuses(&skipped), [(5, "unguarded")]);
    // the flag set first, then a return: every path still sets it or leaves
    let sequence = source.replace(
        "if (compact) inactive = true; else return;",
        "inactive = true; if (!compact) return;",
    );
    assert_eq!(statuses(&sequence), [(5, "bounded")]);
}

#[test]
fn a_block_stride_loop_from_a_flat_thread_rank_runs_whole_trips_where_the_block_fits_the_step() {
    let kernel = |block: &str| {
        barriers_divergent(&format!(
            "#define LIMIT 65536
#define STEP 256
__global__ void k(int* out) {{
    const unsigned tid = threadIdx.y * blockDim.x + threadIdx.x;
    for (int i = tid; i < LIMIT; i += STEP) {{ out[i] = 0; __syncthreads(); }}
}}
void run(int* out) {{ const dim3 block({block}); k<<<4, block>>>(out); }}"
        ))
    };
    assert_eq!(kernel("32, 8"), [false]);
    assert_eq!(kernel("16, 16"), [false]);
    // 512 threads past a step of 256: the upper half runs one trip fewer
    assert_eq!(kernel("32, 16"), [true]);
}

/// For each access through a wider view whose guard bounds its first element only: its line,
/// the lanes, the size and how far past it the last thread reaches.
fn vector_tails(source: &str) -> Vec<(usize, i128, String, i128)> {
    crate::verify::with_model(std::path::Path::new("k.cu"), source, |model| {
        let mut found = Vec::new();
        for (_, facts) in model.kernel_facts() {
            for tail in &facts.vector_tails {
                let line = model.lines.line_of(tail.node.start_byte()) + 1;
                found.push((line, tail.lanes, tail.size.clone(), tail.past));
            }
        }
        found
    })
    .unwrap_or_default()
}

#[test]
fn a_guard_on_a_vectors_first_element_leaves_its_other_lanes_past_the_size() {
    let source = r#"
typedef unsigned char uchar;
__global__ void k(const uchar* src, const float* in, float* out, int cols, int n, int vectors) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if ((v << 2) < cols) { uchar4 a = ((const uchar4*)src)[v]; }
    if (v * 4 + 3 < n) { float4 b = reinterpret_cast<const float4*>(in)[v]; }
    if (v < vectors) { reinterpret_cast<float4*>(out)[v] = make_float4(0, 0, 0, 0); }
    const float2* in2 = reinterpret_cast<const float2*>(in);
    if (v * 2 < n) { float2 c = in2[v]; }
    if (v < (n + 1) / 2) { float2 d = in2[v]; }
    if (v < 64) { float4 e = reinterpret_cast<const float4*>(in)[v]; }
    if (v < n) { float f = in[v]; }
}
"#;
    assert_eq!(
        vector_tails(source),
        vec![
            (5, 4, "cols".to_string(), 3),
            (9, 2, "n".to_string(), 1),
            (10, 2, "n".to_string(), 1),
        ]
    );
}

#[test]
fn a_size_stated_to_be_a_multiple_of_the_lanes_leaves_no_tail() {
    let source = r#"
__global__ void k(const float* in, int n) {
    if (n % 4 != 0) return;
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if ((v << 2) < n) { float4 b = reinterpret_cast<const float4*>(in)[v]; }
}
__global__ void launched(const float* in, int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if ((v << 2) < n) { float4 b = reinterpret_cast<const float4*>(in)[v]; }
}
void run(const float* in, int n) {
    if (n % 8 != 0) return;
    launched<<<(n / 4 + 255) / 256, 256>>>(in, n);
}
"#;
    assert!(vector_tails(source).is_empty());
}

#[test]
fn a_tested_local_changed_where_the_flag_is_cleared_keeps_the_flags_test() {
    let source = "__global__ void nodes(int* a, int b, int end) {
    int id = b + threadIdx.x + blockIdx.x * blockDim.x;
    bool valid = id < end;
    if (valid) {
        int v = a[id];
        if (v == 0) { valid = false; id = -1; }
    }
    if (valid) a[id] = 1;
}
";
    assert_eq!(statuses(source), [(5, "bounded"), (8, "bounded")]);
    // the changed local read again while the flag's test is still in force: the read before
    // the change keeps the test, the one after it does not
    let read_again = source.replace("id = -1; }", "id = end; }\n        a[id] = 2;");
    assert_eq!(
        statuses(&read_again),
        [(5, "bounded"), (7, "unguarded"), (9, "bounded")]
    );
    // changed without clearing the flag: the flag's test says nothing of the new value
    let kept = source.replace("valid = false; id = -1;", "id += end;");
    assert_eq!(statuses(&kept), [(5, "bounded"), (8, "unguarded")]);
}

/// For each warp collective of the kernels in `source`: its line and whether the lanes that
/// reach it are split (a condition that differs within a warp, or an exit before it).
fn collectives_split(source: &str) -> Vec<(usize, bool)> {
    crate::verify::with_model(std::path::Path::new("k.cu"), source, |model| {
        let mut found = Vec::new();
        for (_, facts) in model.kernel_facts() {
            for collective in &facts.collectives {
                let line = model.lines.line_of(collective.node.start_byte()) + 1;
                let split = collective.splitting_condition.is_some() || collective.exited;
                found.push((line, split));
            }
        }
        found
    })
    .unwrap_or_default()
}

#[test]
fn a_constant_of_template_parameters_is_read_at_every_visible_instantiation() {
    let source = "static constexpr int kThreads = 256;
template <int TokensPerBlock>
__global__ void post(const float* mix, float* out, long long total) {
    constexpr int per_token = kThreads / TokensPerBlock;
    const long long token = (long long)blockIdx.x * TokensPerBlock + threadIdx.x / per_token;
    if (token >= total) return;
    float c = __shfl_sync(0xffffffffu, mix[token], 0);
    out[token] = c;
}
void launch(const float* mix, float* out, long long total) {
    post<4><<<(unsigned)((total + 3) / 4), kThreads>>>(mix, out, total);
    post<1><<<(unsigned)total, kThreads>>>(mix, out, total);
}
";
    assert_eq!(collectives_split(source), [(7, false)]);
    // 16 tokens per block give each token 16 threads: a warp holds two tokens
    let split = source.replace("post<1><<<", "post<16><<<");
    assert_eq!(collectives_split(&split), [(7, true)]);
}

#[test]
fn a_tile_per_block_in_a_kernel_given_no_extent_is_bounded_by_its_launches() {
    let source = "template <typename T, int C, int TPB>
__global__ void add_rows(const T* in, const T* bias, T* out) {
    int base = blockIdx.x * C + threadIdx.x;
    int b = threadIdx.x;
    for (int i = 0; i < C / TPB; ++i) {
        out[base] = in[base] + bias[b];
        base += TPB;
        b += TPB;
    }
}
int launch(const float* in, const float* bias, float* out, int grid, int C, cudaStream_t s) {
    constexpr int TPB = 320;
    switch (C) {
    case 320: add_rows<float, 320, TPB><<<grid, TPB, 0, s>>>(in, bias, out); break;
    case 640: add_rows<float, 640, TPB><<<grid, TPB, 0, s>>>(in, bias, out); break;
    }
    return 0;
}
";
    assert_eq!(
        statuses(source),
        [(6, "bounded"), (6, "bounded"), (6, "not a thread index")]
    );
    // a launch that rounds its grid up runs blocks past the tiles
    let rounded = source.replace("<<<grid, TPB", "<<<(grid * C + 255) / 256, TPB");
    assert_eq!(
        statuses(&rounded),
        [
            (6, "not a thread index"),
            (6, "unguarded"),
            (6, "unguarded")
        ]
    );
    // a kernel that tests a thread's position against something has an extent after all
    let tested = source.replace(
        "        out[base] = in[base]",
        "        if (b % 2 == 0) out[base] = in[base]",
    );
    assert_eq!(
        statuses(&tested),
        [
            (6, "not a thread index"),
            (6, "unguarded"),
            (6, "unguarded")
        ]
    );
}

#[test]
fn a_test_against_the_block_size_every_launch_passes_is_decided() {
    let kernel = |launch: &str| {
        barriers_divergent(&format!(
            "__global__ void k(int iters, int n, int* out) {{
                int q = threadIdx.x;
                if (q >= n) return;
                for (int i = 0; i < iters; i++) {{ out[q] += 1; __syncthreads(); }}
                if (q < n) __syncthreads();
            }}
            void run(int* out, int n) {{ {launch} }}"
        ))
    };
    // blocks of `n` threads: no thread has `threadIdx.x >= n`, every one has `threadIdx.x < n`
    assert_eq!(kernel("k<<<1, n>>>(10, n, out);"), [false, false]);
    // wider blocks, or no launch in sight: the test splits the block
    assert_eq!(kernel("k<<<1, n + 32>>>(10, n, out);"), [true, true]);
    assert_eq!(kernel(""), [true, true]);
}

#[test]
fn a_subscript_stepped_down_before_it_reads_is_no_higher_than_before() {
    // a binary search walking down from a bounded midpoint: `a[--mid]` reads below where `mid`
    // was, and `mid` never rises above its start
    let source = "__global__ void search(const unsigned* a, int part, int size, unsigned key, unsigned* out) {
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    int first = id * part;
    int last = min(first + part, size);
    if (first >= last) return;
    int mid = (first + last) / 2;
    unsigned v = a[mid];
    while (v > key && mid > first) v = a[--mid];
    out[0] = v;
}
";
    assert_eq!(
        statuses(source),
        [(7, "bounded"), (8, "bounded"), (9, "not a thread index")]
    );
}

#[test]
fn a_guard_on_a_local_bounds_its_sum_written_in_another_order() {
    let kernel = |between: &str| {
        statuses(&format!(
            "__global__ void place(const int* keys, int* out, int part, int size) {{
    int start = blockIdx.x * part;
    int end = min(start + part, size);
    int tid = threadIdx.x;
    int slot = keys[tid] & 7;
    int addr = start + slot + tid * 2;
    {between}
    if (addr < end) out[start + tid * 2 + slot] = 1;
}}
"
        ))
    };
    assert_eq!(kernel(""), [(5, "not a thread index"), (8, "bounded")]);
    // the factors of a product in another order too
    assert_eq!(
        kernel("out[2 * tid + slot + start] = 3;"),
        [(5, "not a thread index"), (7, "unguarded"), (8, "bounded")]
    );
    // the same sum in other words is bounded too; another sum is not
    assert_eq!(
        kernel("int other = start + tid * 3 + slot; out[other] = 2;"),
        [(5, "not a thread index"), (7, "unguarded"), (8, "bounded")]
    );
}

#[test]
fn a_grid_stride_loop_over_whole_tiles_splits_no_block() {
    let kernel = "template <int T>\n__global__ void k(float* x, int n) {\n\
         for (int p = threadIdx.x + blockIdx.x * T; p < n; p += gridDim.x * T) { x[p] = 0; __syncthreads(); }\n}\n";
    // every launch: blocks of T threads over a count T divides
    let whole =
        format!("{kernel}void run(float* x, int n) {{ if (n % 32 == 0) k<32><<<8, 32>>>(x, n); }}");
    assert_eq!(barriers_divergent(&whole), vec![false]);
    // a count the launch leaves open, a block wider than the tile, or no launch: a split
    for launch in [
        "k<32><<<8, 32>>>(x, n);",
        "if (n % 32 == 0) k<32><<<8, 64>>>(x, n);",
    ] {
        let source = format!("{kernel}void run(float* x, int n) {{ {launch} }}");
        assert_eq!(barriers_divergent(&source), vec![true], "{launch}");
    }
    assert_eq!(barriers_divergent(kernel), vec![true]);
}

#[test]
fn a_helper_result_the_whole_launch_shares_stands_for_itself() {
    // the row of a head's scales: the head is an exact grid axis, the row length a helper of
    // the kernel's sizes, the lane's slot below 4
    let kernel = "__host__ __device__ inline unsigned div_ceil(unsigned a, unsigned b) { return (a + b - 1) / b; }\n\
         __global__ void k(const float* scale, float* o, unsigned n, unsigned len) {\n\
         unsigned per_head = div_ceil(len, 128);\n\
         float s = scale[blockIdx.y * (per_head * 4) + threadIdx.x % 4];\n\
         unsigned row = blockIdx.x * 64 + threadIdx.x / 2;\n\
         if (row < n) o[row] = s;\n}\n\
         void run(const float* scale, float* o, unsigned n, unsigned len, unsigned heads) {\n\
         dim3 grid(div_ceil(n, 64), heads); k<<<grid, 128>>>(scale, o, n, len); }\n";
    assert_eq!(statuses(kernel), vec![(4, "bounded"), (6, "bounded")]);
    // a function out of sight may read the thread's place: its result is no given
    let unseen = kernel.replace(
        "__host__ __device__ inline unsigned div_ceil(unsigned a, unsigned b) { return (a + b - 1) / b; }",
        "__device__ unsigned per_row(unsigned a, unsigned b);",
    ).replace("unsigned per_head = div_ceil(len, 128);", "unsigned per_head = per_row(len, 128);");
    assert_eq!(statuses(&unseen), vec![(4, "unguarded"), (6, "bounded")]);
}

#[test]
fn an_exit_past_the_constant_block_every_launch_gives_takes_no_thread() {
    let kernel = "#define TILE 128\n__global__ void k(float* x) {\n\
         __shared__ float s[TILE];\n if (threadIdx.x >= TILE) return;\n\
         s[threadIdx.x] = x[threadIdx.x]; __syncthreads(); x[threadIdx.x] = s[0];\n}\n";
    let exact =
        format!("{kernel}void run(float* x, int n) {{ k<<<n, TILE>>>(x); k<<<1, 128>>>(x); }}");
    assert_eq!(barriers_divergent(&exact), vec![false]);
    for launch in ["k<<<n, 256>>>(x);", "k<<<n, TILE>>>(x); k<<<n, 192>>>(x);"] {
        let source = format!("{kernel}void run(float* x, int n) {{ {launch} }}");
        assert_eq!(barriers_divergent(&source), vec![true], "{launch}");
    }
    assert_eq!(barriers_divergent(kernel), vec![true]);
}

#[test]
fn a_comparison_each_launch_decides_with_its_own_sizes_splits_no_block() {
    // eight lanes per item: `thread` stays below `blocks * threads` at the launch that passes it
    let kernel = |count: &str, block: &str| {
        format!(
            "__global__ void phase(int threads, unsigned* state) {{
    __shared__ unsigned table[1024];
    const int thread = (blockDim.x * blockIdx.x + threadIdx.x) >> 3;
    if (thread >= threads) return;
    table[threadIdx.x] = threadIdx.x;
    __syncthreads();
    state[thread * 8 + (threadIdx.x & 7)] = table[(threadIdx.x * 7) & 1023];
}}
void run(int blocks, int threads, unsigned* state) {{
    dim3 block8({block});
    phase<<<blocks, block8>>>({count}, state);
}}"
        )
    };
    assert_eq!(
        barriers_divergent(&kernel("blocks * threads", "threads << 3")),
        vec![false]
    );
    assert_eq!(
        barriers_divergent(&kernel("blocks * threads", "threads * 8")),
        vec![false]
    );
    // one item fewer than the threads cover, or blocks wider than eight lanes per item: some
    // threads leave before the barrier
    assert_eq!(
        barriers_divergent(&kernel("blocks * threads - 1", "threads << 3")),
        vec![true]
    );
    assert_eq!(
        barriers_divergent(&kernel("blocks * threads", "threads << 4")),
        vec![true]
    );
    // a launch the comparison is not decided at keeps the barrier divergent
    let unseen = kernel("blocks * threads", "threads << 3")
        .replace("phase<<<blocks, block8>>>", "phase<<<blocks + 1, block8>>>");
    assert_eq!(barriers_divergent(&unseen), vec![true]);
}

#[test]
fn a_floored_value_is_at_most_the_integer_above_its_fraction() {
    use crate::model::size::Sym;
    let n = Sym::atom("n");
    // `(m - 1) / 8` read before `m` is known to be `8 * n`: `n - 1/8`, rounded down
    let m_less_one = Sym::atom("m").sub(&Sym::constant(1)).unwrap();
    let eighth = |top: i128| {
        m_less_one
            .divided_by(8)
            .unwrap()
            .substitute(&|atom| match atom {
                "m" => n.times(top),
                other => Some(Sym::atom(other)),
            })
            .unwrap()
    };
    let n_less_one = n.sub(&Sym::constant(1)).unwrap();
    assert!(!eighth(8).at_most(&n_less_one));
    assert!(eighth(8).integer_at_most(&n_less_one));
    // `(9n - 1) / 8` is `n` or more for `n` of 1 and up
    assert!(!eighth(9).integer_at_most(&n_less_one));
    // a value not rounded down has no slack
    assert!(!n.integer_at_most(&n_less_one));
}

#[test]
fn a_guarded_index_taken_down_in_place_stays_bounded() {
    // a flat index split into coordinates, the remainder kept by `t -= q * stride[d]`
    let kernel = |guard: &str, step: &str| {
        format!(
            "__global__ void permute(const float* in, float* out, const long* stride,
                        const long* new_stride, int ndims, unsigned long size) {{
    unsigned long idx = (unsigned long)blockIdx.x * blockDim.x + threadIdx.x;
    {guard}
    long i_idx = 0;
    long t = idx;
    for (int i = 0; i < ndims; ++i) {{
        long ratio = t / new_stride[i];
        {step}
        i_idx += ratio * stride[i];
    }}
    out[idx] = in[i_idx];
}}"
        )
    };
    let guard = "if (idx >= size) return;";
    for step in [
        "t -= ratio * new_stride[i];",
        "t = t - ratio * new_stride[i];",
        "t /= 2;",
    ] {
        let found = statuses(&kernel(guard, step));
        let at_the_access: Vec<_> = found.iter().filter(|(line, _)| *line == 12).collect();
        assert_eq!(
            at_the_access,
            [&(12, "bounded"), &(12, "bounded")],
            "{step}"
        );
    }
    // with no guard, both accesses stay unguarded; a step that adds is no remainder
    let unguarded = statuses(&kernel("", "t -= ratio * new_stride[i];"));
    assert!(unguarded.contains(&(12, "unguarded")), "{unguarded:?}");
    assert!(!unguarded.contains(&(12, "bounded")), "{unguarded:?}");
    let adds = statuses(&kernel(guard, "t += ratio * new_stride[i];"));
    assert!(adds.contains(&(12, "unguarded")), "{adds:?}");
}

#[test]
fn a_stride_variable_assigned_afresh_holds_what_it_is_given() {
    let kernel = |fresh: &str| {
        format!(
            "__global__ void dot(int n, const float* a, float* y) {{
    __shared__ float cache[256];
    int i = threadIdx.x;
    cache[threadIdx.x] = 0.f;
    while (i < n) {{
        cache[threadIdx.x] += a[blockIdx.x * n + i];
        i += blockDim.x;
    }}
    __syncthreads();
    {fresh}
    while (i > 0) {{
        if (threadIdx.x < i) cache[threadIdx.x] += cache[threadIdx.x + i];
        __syncthreads();
        i /= 2;
    }}
    if (threadIdx.x == 0) y[blockIdx.x] = cache[0];
}}"
        )
    };
    // the tree reduction's `i` is the same in every thread: both barriers are the block's
    assert_eq!(
        barriers_divergent(&kernel("i = 256 / 2;")),
        vec![false, false]
    );
    // left as the stride loop leaves it, `i` differs between threads
    assert_eq!(barriers_divergent(&kernel("")), vec![false, true]);
}

#[test]
fn a_tile_per_block_of_a_constant_width_is_launched_to_fit() {
    let kernel = |launch: &str| {
        format!(
            "#define M1W 128
__global__ void match1(const float *pts, float *score) {{
    int p1 = threadIdx.x + M1W * blockIdx.x;
    score[p1] = pts[p1] * 2.0f;
}}
void run(const float *pts, float *score, int n) {{ {launch} }}"
        )
    };
    assert_eq!(
        statuses(&kernel("match1<<<n / M1W, M1W>>>(pts, score);")),
        [(4, "bounded"), (4, "bounded")]
    );
    assert_eq!(statuses(&kernel("")), [(4, "bounded"), (4, "bounded")]);
    // a grid rounded up leaves threads past the points
    assert_eq!(
        statuses(&kernel("match1<<<(n + M1W - 1) / M1W, M1W>>>(pts, score);")),
        [(4, "unguarded"), (4, "unguarded")]
    );
    // a width that is no constant is no tile of the kernel's own
    let variable = kernel("")
        .replace("M1W * blockIdx.x", "width * blockIdx.x")
        .replace("float *score)", "float *score, float width)");
    assert!(statuses(&variable).contains(&(4, "unguarded")));
}

#[test]
fn a_for_loop_whose_counter_starts_before_it_keeps_the_block_together() {
    let kernel = |end: &str| {
        format!(
            "__global__ void scan(unsigned* hist, unsigned blocks) {{
    __shared__ unsigned s[128];
    const unsigned end = {end};
    unsigned i = threadIdx.x;
    for (; i < end; i += blockDim.x) {{
        s[threadIdx.x] = hist[i];
        __syncthreads();
        hist[i] = s[(threadIdx.x + 1) % blockDim.x];
    }}
    if (i < blocks) hist[i] += 1;
}}"
        )
    };
    assert_eq!(
        barriers_divergent(&kernel("blocks / blockDim.x * blockDim.x")),
        vec![false]
    );
    assert_eq!(barriers_divergent(&kernel("blocks")), vec![true]);
}

#[test]
fn a_while_loop_over_whole_strides_keeps_the_block_together() {
    let kernel = |end: &str, body_extra: &str| {
        format!(
            "template <unsigned int BLOCK>
__global__ void reduce_update(const int num, const float* in, float* out) {{
    __shared__ float vals[BLOCK];
    const int end = {end};
    int i = threadIdx.x;
    while (i < end) {{
        vals[threadIdx.x] = in[i];
        __syncthreads();
        if (threadIdx.x == 0) out[0] += vals[BLOCK - 1];
        {body_extra}
        i += BLOCK;
    }}
}}
void launch(int num, const float* in, float* out) {{
    reduce_update<256><<<1, 256>>>(num, in, out);
}}"
        )
    };
    for end in [
        "num - (num & (BLOCK - 1))",
        "num - num % BLOCK",
        "num / BLOCK * BLOCK",
    ] {
        assert_eq!(barriers_divergent(&kernel(end, "")), vec![false], "{end}");
    }
    // a limit that is no multiple, a trip some threads skip, or a second move: split
    assert_eq!(barriers_divergent(&kernel("num", "")), vec![true]);
    assert_eq!(
        barriers_divergent(&kernel("num - num % BLOCK", "if (in[i] < 0) continue;")),
        vec![true]
    );
    assert_eq!(
        barriers_divergent(&kernel("num - num % BLOCK", "if (in[i] < 0) i += 1;")),
        vec![true]
    );
}

#[test]
fn a_flag_given_a_test_only_under_a_guard_holds_that_guard() {
    let kernel = |set: &str| {
        format!(
            "__global__ void self_partner(const int* partner, int* out, int n) {{
    int tid = threadIdx.x + blockDim.x * blockIdx.x;
    bool valid_tid = tid < n;
    bool un = false;
    {set}
    if (un)
        out[tid] = tid;
}}"
        )
    };
    let at_the_write = |set: &str| {
        statuses(&kernel(set))
            .into_iter()
            .filter(|(line, _)| *line == 7)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        at_the_write("if (valid_tid) un = (partner[tid] == -1);"),
        [(7, "bounded")]
    );
    assert_eq!(at_the_write("if (valid_tid) un = true;"), [(7, "bounded")]);
    // set outside the guard too, or set with no guard: the flag says nothing of `tid`
    assert_eq!(
        at_the_write("if (valid_tid) un = true; un = (partner[0] == -1);"),
        [(7, "unguarded")]
    );
    assert_eq!(at_the_write("un = (tid % 2 == 0);"), [(7, "unguarded")]);
    // set under a test nested in the guard: both held wherever the flag does
    assert_eq!(
        at_the_write("if (valid_tid) { if (partner[tid] >= 0) un = 1; }"),
        [(7, "bounded")]
    );
    // the guard in an `else` around the setting: it says nothing
    assert_eq!(
        at_the_write("if (valid_tid) {} else { if (partner[0] >= 0) un = 1; }"),
        [(7, "unguarded")]
    );
}

#[test]
fn the_global_index_split_by_a_constant_block_width_is_the_block_and_the_lane() {
    // what each local depends on, under launches with blocks `widths` wide on `x`
    let deps = |widths: &[&str], names: &[&str]| -> Vec<crate::model::kernel::Deps> {
        let launches: String = widths
            .iter()
            .map(|w| format!("    k<<<g, {w}>>>(out, g);\n"))
            .collect();
        let source = format!(
            "static const int tblock_size = 32;
__global__ void k(int* out, int n) {{
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    const int warp = idx >> 5;
    const int pair = idx / 64;
    const int quarter = idx / 8;
    const int lane = idx & 0x1f;
    const int half = idx % 16;
    out[warp + pair + quarter + lane + half] = n;
}}
void run(int* out, int g) {{
    int bsize = tblock_size;
{launches}}}
"
        );
        crate::verify::with_model(std::path::Path::new("k.cu"), &source, |model| {
            let (_, facts) = model.kernel_facts().next().expect("one kernel");
            names
                .iter()
                .map(|name| {
                    facts
                        .thread_variable(name)
                        .map(|v| v.deps)
                        .unwrap_or_default()
                })
                .collect::<Vec<_>>()
        })
        .unwrap_or_default()
    };
    use crate::model::kernel::Deps;
    let global = Deps::THREAD.union(Deps::BLOCK);
    let all = ["warp", "pair", "quarter", "lane", "half"];
    // 32 wide (a literal or a local holding the constant): `idx >> 5` and `idx / 64` are the
    // block's, `idx / 8` keeps to the block but differs in it, `idx & 0x1f` and `idx % 16` are
    // the thread's
    let one_warp = [Deps::BLOCK, Deps::BLOCK, global, Deps::THREAD, Deps::THREAD];
    assert_eq!(deps(&["32"], &all), one_warp);
    assert_eq!(deps(&["bsize"], &all), one_warp);
    // 64 wide: `idx >> 5` differs within a block; `idx / 64` is still the block's, and 32
    // still divides the width, so `idx & 0x1f` is still the thread's
    assert_eq!(
        deps(&["64"], &all),
        [global, Deps::BLOCK, global, Deps::THREAD, Deps::THREAD]
    );
    // launches that disagree, or none in sight: nothing is known
    assert_eq!(deps(&["32", "64"], &all[..1]), [global]);
    assert_eq!(deps(&[], &all[..1]), [global]);
}

#[test]
fn coordinates_a_helper_writes_back_are_tested_as_the_split_they_are() {
    // `zid` is written by the call alone, as `id / (nx * ny)`: testing it bounds `id`; so does
    // the last quotient a helper returns (`div_mod`), followed through a local
    let source = "__device__ void split(int id, int nx, int ny, int& xid, int& yid, int& zid) {
    zid = id / (nx * ny);
    yid = (id - zid * nx * ny) / nx;
    xid = id - zid * nx * ny - yid * nx;
}
__device__ unsigned div_mod(unsigned a, unsigned b, unsigned& r) { unsigned q = a / b; r = a - q * b; return q; }
__device__ void clear(int& v) { v = 0; }
__global__ void k(float* out, int nx, int ny, int nz) {
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    int xid, yid, zid;
    split(id, nx, ny, xid, yid, zid);
    if (zid < nz) out[id] = 0;
    if (xid < nx && yid < ny) out[id] = 1;
    unsigned fh, fw;
    unsigned ic = div_mod(div_mod(id, nx, fw), ny, fh);
    if (ic < nz) out[id] = 2;
    int w, h, d;
    split(id, nx, ny, w, h, d);
    clear(d);
    if (d < nz) out[id] = 3;
}
";
    assert_eq!(
        statuses(source),
        [
            (12, "bounded"),
            (13, "unguarded"),
            (16, "bounded"),
            (20, "unguarded")
        ]
    );
}

#[test]
fn a_flag_tested_to_replace_an_index_bounds_the_index_that_skips_the_replacement() {
    let source = "__global__ void recontract(double* out, const int* bas, int nbas) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    int valid = id < nbas;
    if (!valid) {
        id = 0;
    }
    int l = bas[id * 8];
    if (valid) out[id] = l;
}
";
    assert_eq!(statuses(source), [(7, "bounded"), (8, "bounded")]);
    // the direct test, for comparison: the flag stands for it
    let direct = source.replace("if (!valid) {", "if (id >= nbas) {");
    assert_eq!(statuses(&direct), [(7, "bounded"), (8, "bounded")]);
    // moved after the flag's test: the flag speaks of the value before the move
    let moved = source.replace("    if (!valid) {", "    id += nbas;\n    if (!valid) {");
    assert_eq!(statuses(&moved), [(8, "unguarded"), (9, "unguarded")]);
    // replaced on a later trip of a loop that moves it: the test saw an earlier value
    let looped = source
        .replace(
            "    if (!valid) {",
            "    for (int k = 0; k < 4; ++k) {\n    if (!valid) {",
        )
        .replace(
            "    int l = bas[id * 8];",
            "    id += nbas;\n    }\n    int l = bas[id * 8];",
        );
    assert_eq!(statuses(&looped)[0], (10, "unguarded"));
}

#[test]
fn an_exit_test_offset_by_the_loop_variables_own_start_is_the_same_in_every_thread() {
    let source = "__global__ void contract(double* vj, const double* in, int nf) {
    __shared__ double cache[256];
    int gout_id = threadIdx.y;
    int gout_stride = blockDim.y;
    for (int n = 0, i = gout_id; n < 8; ++n, i += gout_stride) {
        if (i >= nf + gout_id) break;
        __syncthreads();
        cache[threadIdx.x] = in[n];
    }
}
";
    assert_eq!(barriers_divergent(source), [false]);
    // another thread term on the other side: it does not cancel
    let other = source.replace("nf + gout_id", "nf + threadIdx.x");
    assert_eq!(barriers_divergent(&other), [true]);
    // a step of the thread's own: the trips drift apart
    let own_step = source.replace("i += gout_stride", "i += gout_id + 1");
    assert_eq!(barriers_divergent(&own_step), [true]);
    // the variable moved in the body: no longer its start plus whole steps
    let moved = source.replace("__syncthreads();", "__syncthreads(); i += threadIdx.x;");
    assert_eq!(barriers_divergent(&moved), [true]);
}

#[test]
fn a_comparison_of_two_values_with_the_same_thread_offset_keeps_the_block_together() {
    let kernel = |end_offset: &str, test: &str| {
        format!(
            "__global__ void wkv(const int T, const int C, const float* gy, float* gw) {{
    __shared__ float s[64];
    const int i = threadIdx.x;
    float acc = 0;
    for (int t = blockIdx.x * T * C + i, tend = (blockIdx.x + 1) * T * C{end_offset}; t < tend; t += C) {{
        if ({test}) {{
            s[i] = gy[t + 2 * C];
            __syncthreads();
            acc += s[(i + 1) % 64];
            __syncthreads();
        }}
    }}
    gw[blockIdx.x * 64 + i] = acc;
}}"
        )
    };
    // both sides carry `+ i`: the test compares the bases, the same in every thread
    assert_eq!(
        barriers_divergent(&kernel(" + i", "t < tend - 2 * C")),
        vec![false, false]
    );
    assert_eq!(
        barriers_divergent(&kernel(" + i", "tend - t > 2 * C")),
        vec![false, false]
    );
    // only one side carries it, or the other side carries another thread's offset
    assert_eq!(
        barriers_divergent(&kernel("", "t < tend - 2 * C")),
        vec![true, true]
    );
    assert_eq!(
        barriers_divergent(&kernel(" + i", "t < tend - 2 * i")),
        vec![true, true]
    );
    // each of two loops declares its own `t` and `tend`: the ones in scope are read
    let two_loops = "__global__ void wkv(const int T, const int C, const float* gy, float* gw) {
    __shared__ float s[64];
    const int i = threadIdx.x;
    float acc = 0;
    for (int t = blockIdx.x * T * C + i, tend = (blockIdx.x + 1) * T * C + i; t < tend; t += C)
        acc += gy[t];
    for (int t = blockIdx.x * T * C + i, tend = (blockIdx.x + 1) * T * C + i; t < tend; t += C) {
        if (t < tend - 2 * C) {
            s[i] = gy[t + 2 * C];
            __syncthreads();
            acc += s[(i + 1) % 64];
        }
    }
    gw[blockIdx.x * 64 + i] = acc;
}";
    assert_eq!(barriers_divergent(two_loops), vec![false]);
}

#[test]
fn arms_of_a_branch_that_reach_as_many_barriers_each_keep_the_block_together() {
    let kernel = |producer: &str, consumer: &str| {
        format!(
            "__global__ void pipelined(const float* a, float* c, int k) {{
    __shared__ float buf[2][128];
    const unsigned group = threadIdx.x / 128;
    const unsigned local = threadIdx.x % 128;
    float acc = 0.f;
    for (int t = 0; t < k; t += 2) {{
        if (group == 0) {{
            {producer}
        }} else {{
            {consumer}
        }}
    }}
    c[threadIdx.x] = acc;
}}"
        )
    };
    let two = "buf[0][local] = a[t * 128 + local]; __syncthreads(); if (t + 1 < k) acc += buf[1][local]; __syncthreads();";
    let two_more = "acc += buf[0][local]; __syncthreads(); buf[1][local] = a[(t + 1) * 128 + local]; __syncthreads();";
    let one = "acc += buf[0][local]; __syncthreads();";
    let skipping = "if (t == 0) continue; acc += buf[0][local]; __syncthreads(); __syncthreads();";
    let in_a_loop = "for (int s = 0; s < 2; ++s) { acc += buf[s][local]; __syncthreads(); }";
    assert_eq!(barriers_divergent(&kernel(two, two_more)), vec![false; 4]);
    // a count that differs, an arm that may leave before its barriers, or a barrier counted by
    // a loop: the two sides are not known to meet
    assert_eq!(barriers_divergent(&kernel(two, one)), vec![true; 3]);
    assert_eq!(barriers_divergent(&kernel(two, skipping)), vec![true; 4]);
    assert_eq!(barriers_divergent(&kernel(two, in_a_loop)), vec![true; 3]);
}

#[test]
fn a_count_of_strided_steps_bounds_each_step_it_counts() {
    let source = "__global__ void copy(const float* x, float* y, unsigned n) {
    unsigned off = blockIdx.x * 512 + threadIdx.x;
    unsigned cnt = n > off ? (n - off + 128 - 1) / 128 : 0;
    if (cnt >= 4) {
        for (int i = 0; i < 4; ++i) y[off + i * 128] = 0.0f;
    }
    for (int i = 0; i < 4; ++i) {
        if (i < cnt) y[off + 128 * i] = x[off + i * 128];
        if (i <= cnt) y[off + i * 128] = 1.0f;
        if (i < cnt) y[off + i * 256] = 2.0f;
        if (i < cnt) y[off + 1 + i * 128] = 3.0f;
    }
    float* p = y + off;
    for (int i = 0; i < 4; ++i) {
        if (i < cnt) p[i * 128] = 4.0f;
        if (i <= cnt) p[i * 128] = 5.0f;
    }
}
";
    assert_eq!(
        statuses(source),
        [
            (5, "bounded"),
            (8, "bounded"),
            (8, "bounded"),
            (9, "unguarded"),
            (10, "unguarded"),
            (11, "unguarded"),
            (15, "bounded"),
            (16, "unguarded")
        ]
    );
    // a count that is assigned again counts nothing known
    let reassigned = source.replace("    if (cnt >= 4) {", "    cnt += 1;\n    if (cnt >= 4) {");
    assert!(statuses(&reassigned).iter().all(|(_, s)| *s == "unguarded"));
}

#[test]
fn blocks_before_the_last_are_full() {
    let source = "__global__ void sum(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x * 4 + threadIdx.x;
    int s = 0;
    if (blockIdx.x == gridDim.x - 1) {
        for (int r = 0; r < 4; r++) s += i + r * 32 < n ? in[i + r * 32] : 0;
    } else {
        for (int r = 0; r < 4; r++) s += in[i + r * 32];
    }
    if (blockIdx.x + 1 < gridDim.x) s += in[i];
    if (blockIdx.x != 0) s += in[i];
    if (blockIdx.y != gridDim.y - 1) s += in[i];
    if (blockIdx.x < gridDim.x - 1) s += in[blockIdx.y * blockDim.y + threadIdx.y];
    int col = (blockIdx.y << 5) + threadIdx.x;
    if (blockIdx.y != gridDim.y - 1) s += in[col];
    if (blockIdx.y != gridDim.y - 1 || col < n) s += in[col];
    if (blockIdx.x != gridDim.x - 1 || col < n) s += in[col];
    if (blockIdx.y != gridDim.y - 1 || s > 0) s += in[col];
    if (blockIdx.x == gridDim.x - 1) return;
    out[i] = s;
}
";
    assert_eq!(
        statuses(source),
        [
            (5, "bounded"),
            (7, "bounded"),
            (9, "bounded"),
            (10, "unguarded"),
            (11, "unguarded"),
            (12, "unguarded"),
            // only the block index says which block is the last: the column's tile is on `y`
            (14, "bounded"),
            // either way the test holds, the column is inside: a full tile, or under its test
            (15, "bounded"),
            (16, "unguarded"),
            (17, "unguarded"),
            (19, "bounded")
        ]
    );
}

#[test]
fn a_branch_a_constant_test_never_takes_is_never_run() {
    let source = "constexpr bool kLegacy = true;
template <bool kFast>
__global__ void copy(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    constexpr bool old = true;
    if constexpr (old) {
        if (i < n) out[i] = in[i];
    } else {
        out[i] = in[i];
    }
    if (!kLegacy || n < 0 && false) out[i] = 1.0f;
    if (kFast) out[i] = 2.0f;
    if (n > 0 && kLegacy) out[i] = 3.0f;
}
void run(const float* in, float* out, int n) {
    copy<false><<<(n + 255) / 256, 256>>>(in, out, n);
}
";
    assert_eq!(
        statuses(source),
        [(7, "bounded"), (7, "bounded"), (13, "unguarded")]
    );
    // a template argument that launches set apart decides nothing
    let both = source.replace(
        "    copy<false><<<",
        "    copy<true><<<(n + 255) / 256, 256>>>(in, out, n);\n    copy<false><<<",
    );
    assert_eq!(
        statuses(&both),
        [
            (7, "bounded"),
            (7, "bounded"),
            (12, "unguarded"),
            (13, "unguarded")
        ]
    );
}

#[test]
fn a_flag_holds_for_the_reads_before_the_local_it_tested_moves() {
    let source = "__global__ void build(const int* r, int* slots, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    const int stride = blockDim.x * gridDim.x;
    for (int k = 0; k < 64; ++k) {
        bool active = i < n;
        if (active) {
            int key = r[i];
            i += stride;
            slots[i] = key;
        }
    }
}
";
    // `r[i]` reads the cursor the flag tested on this trip; `slots[i]` the next one
    assert_eq!(statuses(source), [(7, "bounded"), (9, "unguarded")]);
    // a flag declared outside the loop saw only the first cursor
    let hoisted = source
        .replace("        bool active = i < n;\n", "")
        .replace("    for (int k", "    bool active = i < n;\n    for (int k");
    assert_eq!(statuses(&hoisted), [(7, "unguarded"), (9, "unguarded")]);
}

#[test]
fn a_flag_widened_with_or_says_what_every_value_reaching_it_says() {
    let source = "__device__ bool marked(const unsigned long long* bits, unsigned i) {
    return (bits[i >> 6] >> (i & 63)) & 1ull;
}
__global__ void prune(const unsigned* in, const unsigned long long* marks, unsigned* out,
                      unsigned n, bool filter) {
    const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    bool pruned = gid >= n;
    if (filter)
        pruned = pruned || !marked(marks, gid);
    if (!pruned)
        out[gid] = in[gid];
}
";
    // `marked` runs only where `gid < n`; both values of the flag reaching the test fail there
    assert_eq!(
        statuses(source),
        [(9, "bounded"), (11, "bounded"), (11, "bounded")]
    );
    // a value that says nothing of the index: the flag says nothing either
    let reset = source.replace("pruned || !marked(marks, gid)", "!marked(marks, gid)");
    assert_eq!(
        statuses(&reset),
        [(9, "unguarded"), (11, "unguarded"), (11, "unguarded")]
    );
}

#[test]
fn an_exit_both_arms_take_on_one_test_holds_after_them() {
    let source = "__global__ void filter(float* dst, const float* src, int w, int h, bool staged) {
    const int x = threadIdx.x + blockIdx.x * blockDim.x;
    const int y = threadIdx.y + blockIdx.y * blockDim.y;
    float v;
    if (staged) {
        v = 2.0f;
        if (x >= w || y >= h)
            return;
    } else {
        if (x >= w || y >= h)
            return;
        v = src[y * w + x];
    }
    dst[y * w + x] = v;
}
";
    assert_eq!(statuses(source), [(12, "bounded"), (14, "bounded")]);
    // one arm alone leaving says nothing after the join
    let one = source.replacen("if (x >= w || y >= h)\n            return;", "", 1);
    assert_eq!(statuses(&one), [(11, "bounded"), (13, "unguarded")]);
}

#[test]
fn a_constant_computed_from_earlier_constants_bounds_as_its_value() {
    let source = "constexpr int EMB = 256;
constexpr int HEADS = 8;
constexpr int HDIM = EMB / HEADS;
__global__ void attend(float* o) {
    const int d = threadIdx.x;
    if (d >= HDIM) return;
    __syncthreads();
    o[blockIdx.x * HDIM + d] = 0.0f;
}
void run(float* o, int tokens) { attend<<<tokens, 32>>>(o); }
";
    assert_eq!(barriers_divergent(source), [false]);
    // blocks wider than the value: the threads past it leave
    assert_eq!(
        barriers_divergent(&source.replace("<<<tokens, 32>>>", "<<<tokens, 64>>>")),
        [true]
    );
    // a constant defined from one the file gives no value
    assert_eq!(
        barriers_divergent(&source.replace("EMB / HEADS", "EMB / heads()")),
        [true]
    );
}

/// A loop's own counter stepped by the block (`for (int i = tid; ...; i += blockDim.x)`) is a
/// stride variable only inside that loop: an `int i` of another block, a row within a tile
/// bounded by the tile's clipped size, keeps its bound.
#[test]
fn a_loop_counter_stepped_by_the_block_is_no_stride_variable_in_another_block() {
    let source = "__global__ void load_tile(const float* q, float* o, int seq_len) {
    extern __shared__ float tile[];
    const int start = blockIdx.x * 64;
    const int end = min(start + 64, seq_len);
    const int rows = end - start;
    if (rows <= 0) return;
    for (int idx = threadIdx.x; idx < rows * 32; idx += blockDim.x) {
        int i = idx / 32;
        tile[idx] = q[(start + i) * 32 + idx % 32];
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 64; i += blockDim.x) {
        o[start * 32 + i] = tile[i];
    }
}
";
    assert_eq!(statuses(source), [(9, "bounded"), (13, "bounded")]);
    // the same as with the later counter named apart
    let apart = source
        .replace(
            "for (int i = threadIdx.x; i < 64; i += blockDim.x)",
            "for (int k = threadIdx.x; k < 64; k += blockDim.x)",
        )
        .replace(
            "o[start * 32 + i] = tile[i];",
            "o[start * 32 + k] = tile[k];",
        );
    assert_eq!(statuses(&apart), statuses(source));
    // a counter of the function's outermost scope stepped by a grid stride is one everywhere
    let outer = "__global__ void fill(float* o, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    o[i] = 0.f;
    for (; i < n; i += blockDim.x * gridDim.x) {
        o[i] = 1.f;
    }
}
";
    assert_eq!(statuses(outer), [(3, "unguarded"), (5, "bounded")]);
}

#[test]
fn members_of_a_pair_a_helper_returns_are_bounded_as_its_arguments() {
    let source = "struct size_t2 { size_t x, y; };
__device__ size_t2 split(size_t index, size_t n) { return {index / n, index % n}; }
struct cell { const float* data; int i; };
__global__ void pairs(double* out, const double* g, const cell* cells, size_t n, size_t count) {
    size_t id = blockIdx.x * blockDim.x + threadIdx.x;
    size_t2 loose = split(id, n);
    out[loose.x] = 0;
    if (id >= count) return;
    size_t2 ab = split(id, n);
    out[ab.x] = g[ab.y];
    cell c = cells[id];
    out[c.i] = 1;
}
void run(double* o, const double* g, const cell* c, size_t n, size_t count) {
    pairs<<<(count + 255) / 256, 256>>>(o, g, c, n, count);
}
";
    // a pair split from an index no guard bounds is unguarded; split after the guard, bounded;
    // a member of a value loaded at the index is data, not the index
    let found = statuses(source);
    assert!(found.contains(&(7, "unguarded")), "{found:?}");
    assert!(found.contains(&(10, "bounded")), "{found:?}");
    assert!(!found.contains(&(10, "unguarded")), "{found:?}");
    assert!(found.contains(&(11, "bounded")), "{found:?}");
    assert!(!found.contains(&(12, "unguarded")), "{found:?}");
}

#[test]
fn a_helper_shuffling_inside_groups_of_eight_reads_no_lane_of_a_group_that_left() {
    let source = "__device__ double sub8_sum(double x) {
    x += __shfl_down_sync(0xffffffff, x, 4, 8);
    x += __shfl_down_sync(0xffffffff, x, 1, 8);
    return x;
}
__device__ double warp_sum(double x) { return x + __shfl_down_sync(0xffffffff, x, 8); }
__device__ double both(double x) { return warp_sum(sub8_sum(x)); }
__global__ void k(const double* in, double* out, int ntasks) {
    int lane = threadIdx.x & 31;
    int t = (blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5)) * 4 + (lane >> 3);
    if (t >= ntasks) return;
    double s = in[t * 8 + (lane & 7)];
    s = sub8_sum(s);
    s = warp_sum(s);
    s = both(s);
    if ((lane & 7) == 0) out[t] = s;
}
void run(const double* in, double* out, int n) { k<<<(n + 15) / 16, 128>>>(in, out, n); }
";
    // whole groups of eight leave: a helper reading inside groups of eight is safe, one reading
    // across the warp is not, nor one that calls both
    assert_eq!(
        collectives_split(source),
        [(13, false), (14, true), (15, true)]
    );
}

#[test]
fn locals_set_from_a_parameter_are_its_derived_pointers() {
    let source = "__global__ void fill(float* out, int* counts, const float* in, int n) {
    float* row = out + blockIdx.x * n + 4;
    float* cell = NULL;
    if (n > 8) {
        cell = &row[threadIdx.x];
    } else {
        int* cell = counts + 1;
        *cell = 0;
    }
    const float* value = in;
    float* elsewhere = (float*)malloc(4);
    *cell = value[threadIdx.x];
}
";
    let derived = crate::verify::with_model(std::path::Path::new("k.cu"), source, |model| {
        model
            .kernel_facts()
            .map(|(_, facts)| facts.derived_pointers.clone())
            .collect::<Vec<_>>()
    })
    .unwrap_or_default();
    // `cell` is two locals: one into `out` (through `row`), one into `counts`; `in` is read
    // through `value`; `elsewhere` points at memory of its own
    let expected: Vec<(String, usize)> = [("cell", 0), ("cell", 1), ("row", 0), ("value", 2)]
        .iter()
        .map(|(name, index)| (name.to_string(), *index))
        .collect();
    assert_eq!(derived, [expected]);
}
