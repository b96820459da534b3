//! Conflicts found, and not found, in whole kernels and in the block shapes they are run with.

fn conflicts(source: &str) -> Vec<(String, String, bool, bool)> {
    let view = crate::source::preprocess(source, &[]);
    let tree = crate::engine::parse(&view.text, None).unwrap_or_else(|| panic!("parse"));
    let lines = crate::source::LineIndex::new(source);
    let model = crate::model::Model::build(
        std::path::Path::new("t.cu"),
        source,
        &view,
        &tree,
        &lines,
        &[],
    );
    let mut out = Vec::new();
    for (kernel, facts) in model.kernel_facts() {
        for c in &facts.shared(&model, kernel).conflicts {
            out.push((
                model.text(c.first.node).to_string(),
                model.text(c.second.node).to_string(),
                c.same_warp,
                c.across_iterations,
            ));
        }
    }
    out
}

#[test]
fn an_operation_decided_by_its_operands_variants_agrees_with_each_thread() {
    use super::arithmetic::{binary, unknown_binary};
    use super::{Kinds, Lanes, Linear, Op, Ptr, Val, Vals};
    let kinds = Kinds::default();
    let block = [8, 8, 1];
    let linear = |shape: Val| match Linear::form(shape, 3, [4, 64, 0], block) {
        Some(lanes) => lanes,
        None => panic!("a linear form"),
    };
    let operands: Vec<Vals> = vec![
        Lanes::Uni(Val::Int(5, false)),
        Lanes::Uni(Val::Unknown(false)),
        Lanes::Uni(Val::Unknown(true)),
        Lanes::Uni(Val::Chosen(256)),
        Lanes::Uni(Val::Load(2, 7)),
        Lanes::Uni(Val::Held(1, 12)),
        Lanes::Uni(Val::Ptr(Ptr { kind: 0, byte: 8 })),
        linear(Val::Int(0, true)),
        linear(Val::Held(0, 0)),
        linear(Val::Load(1, 0)),
        linear(Val::Ptr(Ptr { kind: 0, byte: 0 })),
    ];
    let mut decided = 0;
    for l in &operands {
        for r in &operands {
            for op in [Op::Add, Op::Mul, Op::Lt, Op::Other] {
                let Some(shortcut) = unknown_binary(l, r) else {
                    continue;
                };
                decided += 1;
                let Lanes::Uni(value) = shortcut else {
                    panic!("one value for all threads");
                };
                for lane in 0..64 {
                    assert_eq!(
                        binary(op, l.get(lane), r.get(lane), &kinds),
                        value,
                        "{l:?} {op:?} {r:?} at {lane}"
                    );
                }
            }
        }
    }
    // pairs of integers, chosen values and pointers are left to each thread
    assert_eq!(decided, 4 * (11 * 11 - 5 * 5));
}

#[test]
fn integer_types_are_read_with_their_qualifiers() {
    for integer in [
        "int",
        "const int",
        "unsigned",
        "unsigned int",
        "const unsigned long long",
        "long int",
        "short",
        "unsigned char",
        "size_t",
        "const std::size_t",
        "signed",
    ] {
        assert!(super::is_integer_type(integer), "{integer}");
    }
    for other in [
        "float",
        "const",
        "int*",
        "volatile int",
        "const float",
        "long double",
    ] {
        assert!(!super::is_integer_type(other), "{other}");
    }
}

#[test]
fn tile_loaded_and_read_without_a_barrier() {
    let found = conflicts("#define T 16\n__global__ void k(const float* a, float* c) { __shared__ float t[T][T]; t[threadIdx.y][threadIdx.x] = a[threadIdx.x]; float s = 0; for (int k = 0; k < T; ++k) s += t[threadIdx.y][k] * t[k][threadIdx.x]; c[0] = s; }");
    assert!(
        found
            .iter()
            .any(|(a, b, same_warp, _)| a == "t[k][threadIdx.x]"
                && b == "t[threadIdx.y][threadIdx.x]"
                && !same_warp),
        "{found:?}"
    );
}

#[test]
fn a_barrier_between_write_and_read_separates_them() {
    let found = conflicts("__global__ void k(const float* a, float* c) { __shared__ float t[64]; t[threadIdx.x] = a[threadIdx.x]; __syncthreads(); c[threadIdx.x] = t[63 - threadIdx.x]; }");
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn own_slots_do_not_conflict() {
    let found = conflicts("__global__ void k(const float* a, float* c) { __shared__ float t[256]; int i = threadIdx.x; t[2 * i] = a[i]; t[2 * i + 1] = t[2 * i] + 1; c[i] = t[2 * i + 1]; }");
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn reduction_step_without_a_barrier() {
    let found = conflicts("__global__ void k(const float* a, float* c) { __shared__ float s[256]; int t = threadIdx.x; s[t] = a[t]; __syncthreads(); for (int w = blockDim.x / 2; w > 0; w >>= 1) { if (t < w) s[t] += s[t + w]; } if (t == 0) c[0] = s[0]; }");
    assert!(
        found.iter().any(|(_, _, same_warp, _)| !same_warp),
        "{found:?}"
    );
}

#[test]
fn reduction_with_a_barrier_in_the_loop_is_clean() {
    let found = conflicts("__global__ void k(const float* a, float* c) { __shared__ float s[256]; int t = threadIdx.x; s[t] = a[t]; __syncthreads(); for (int w = blockDim.x / 2; w > 0; w >>= 1) { if (t < w) s[t] += s[t + w]; __syncthreads(); } if (t == 0) c[0] = s[0]; }");
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn next_iteration_overwrites_what_this_one_reads() {
    let found = conflicts("__global__ void k(const float* a, float* c, int n) { __shared__ float s[64]; float acc = 0; for (int b = 0; b < n; b += 64) { s[threadIdx.x] = a[b + threadIdx.x]; __syncthreads(); for (int j = 0; j < 64; ++j) acc += s[j]; } c[threadIdx.x] = acc; }");
    assert!(
        found
            .iter()
            .any(|(first, _, _, across)| *across && first == "s[threadIdx.x]"),
        "{found:?}"
    );
}

#[test]
fn a_trailing_barrier_closes_the_iteration() {
    let found = conflicts("__global__ void k(const float* a, float* c, int n) { __shared__ float s[64]; float acc = 0; for (int b = 0; b < n; b += 64) { s[threadIdx.x] = a[b + threadIdx.x]; __syncthreads(); for (int j = 0; j < 64; ++j) acc += s[j]; __syncthreads(); } c[threadIdx.x] = acc; }");
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn xor_partner_read_without_a_barrier() {
    let found = conflicts("__global__ void k(float* c) { __shared__ float s[64]; int t = threadIdx.x; s[t] = t; float v = s[t ^ 32]; c[t] = v; }");
    assert!(
        found.iter().any(|(_, _, same_warp, _)| !same_warp),
        "{found:?}"
    );
    let found = conflicts("__global__ void k(float* c) { __shared__ float s[64]; int t = threadIdx.x; s[t] = t; __syncthreads(); float v = s[t ^ 32]; c[t] = v; }");
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn atomics_and_identical_stores_are_not_conflicts() {
    let found = conflicts("__global__ void k(int* c) { __shared__ int n; if (threadIdx.x == 0) n = 0; __syncthreads(); atomicAdd(&n, 1); __syncthreads(); c[threadIdx.x] = n; }");
    assert!(found.is_empty(), "{found:?}");
    let found = conflicts("__global__ void k(int* c, const int* f) { __shared__ int flag; flag = 0; __syncthreads(); if (f[threadIdx.x]) flag = 1; __syncthreads(); c[threadIdx.x] = flag; }");
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn guards_on_the_thread_index_limit_the_writers() {
    let found = conflicts("__global__ void k(float* c) { __shared__ float s[64]; if (threadIdx.x == 0) s[0] = 1; __syncthreads(); c[threadIdx.x] = s[0]; }");
    assert!(found.is_empty(), "{found:?}");
    let found = conflicts("__global__ void k(float* c) { __shared__ float s[64]; if (threadIdx.x == 0) s[0] = 1; c[threadIdx.x] = s[0]; }");
    assert_eq!(found.iter().filter(|c| !c.2).count(), 1, "{found:?}");
}

#[test]
fn unknown_indices_and_hidden_barriers_conclude_nothing() {
    // the index comes from memory
    let found = conflicts("__global__ void k(const int* idx, float* c) { __shared__ float s[64]; s[idx[threadIdx.x]] = 1; c[threadIdx.x] = s[threadIdx.x]; }");
    assert!(found.is_empty(), "{found:?}");
    // a call that may synchronise the block splits the interval
    let found = conflicts("__global__ void k(float* c) { __shared__ float s[64]; s[threadIdx.x] = 1; block_reduce(s); c[threadIdx.x] = s[63 - threadIdx.x]; }");
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_pair_that_needs_rows_the_launch_may_not_have_is_not_reported() {
    // `threadIdx.y` only picks the row of the problem: with no launch in sight, a block of
    // one row is as likely as a square one, and there the rows do not meet
    let found = conflicts("__global__ void k(const float* a, float* c) { __shared__ float s[128]; int row = blockIdx.y * blockDim.y + threadIdx.y; s[threadIdx.x] = a[row]; __syncthreads(); for (int w = 64; w > 0; w >>= 1) { if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w]; __syncthreads(); } c[row] = s[0]; }");
    assert!(found.is_empty(), "{found:?}");
    // a launch that says the block is square decides it
    let found = conflicts("__global__ void k(const float* a, float* c) { __shared__ float s[128]; int row = blockIdx.y * blockDim.y + threadIdx.y; s[threadIdx.x] = a[row]; __syncthreads(); c[row] = s[0]; }\nvoid h(const float* a, float* c) { dim3 b(16, 16); k<<<4, b>>>(a, c); }");
    assert!(found.iter().any(|c| !c.2), "{found:?}");
}

#[test]
fn a_block_shape_the_arrays_cannot_hold_is_not_used() {
    // written for 32 threads: with 64 the writes would leave the array, so 32 is run, where
    // the pair is in one warp
    let found = conflicts("__global__ void k(float* c) { __shared__ float s[32]; s[threadIdx.x] = 1; c[threadIdx.x] = s[31 - threadIdx.x]; }");
    assert!(
        !found.is_empty() && found.iter().all(|(_, _, same_warp, _)| *same_warp),
        "{found:?}"
    );
}

#[test]
fn threads_storing_what_they_read_at_one_global_element_agree() {
    // threads 16 apart copy the same element of `b` into the same slot
    let same = conflicts("__global__ void k(const float* b, float* c) { __shared__ float bias[16]; int t = threadIdx.x % 16; bias[t] = b[t]; __syncthreads(); c[threadIdx.x] = bias[t]; }");
    assert!(same.is_empty(), "{same:?}");
    // they copy different elements into it
    let different = conflicts("__global__ void k(const float* b, float* c) { __shared__ float bias[16]; int t = threadIdx.x % 16; bias[t] = b[threadIdx.x]; __syncthreads(); c[threadIdx.x] = bias[t]; }");
    assert!(!different.is_empty());
}

#[test]
fn a_constant_defined_two_ways_is_not_known() {
    // `W` is 64 or 32 depending on the target: `tid / W` is not a known slot
    let found = conflicts("#if defined(__GFX9__)\n#define W 64\n#else\n#define W 32\n#endif\n__global__ void k(float* c) { __shared__ float s[8]; s[threadIdx.x / W] = c[threadIdx.x]; __syncthreads(); c[threadIdx.x] = s[0]; }");
    assert!(found.is_empty(), "{found:?}");
    let known = conflicts("#define W 64\n__global__ void k(float* c) { __shared__ float s[8]; s[threadIdx.x / W] = c[threadIdx.x]; __syncthreads(); c[threadIdx.x] = s[0]; }");
    assert!(!known.is_empty());
}

#[test]
fn a_barrier_at_the_end_of_a_long_chain_of_helpers_is_seen() {
    // helpers defined callers first, so the one that syncs is read last
    let mut source = String::new();
    for i in (1..200).rev() {
        source.push_str(&format!("__device__ void f{i}();\n"));
    }
    for i in (1..200).rev() {
        source.push_str(&format!("__device__ void f{i}() {{ f{}(); }}\n", i - 1));
    }
    source.push_str("__device__ void f0() { __syncthreads(); }\n");
    source.push_str("__global__ void k(const float* a, float* c) { __shared__ float t[128]; t[threadIdx.x] = a[threadIdx.x]; f199(); c[threadIdx.x] = t[0]; }");
    let found = conflicts(&source);
    assert!(found.is_empty(), "{found:?}");
    let without = source.replace("__syncthreads();", "");
    assert!(!conflicts(&without).is_empty());
}

#[test]
fn a_file_past_its_budget_concludes_nothing() {
    let source = "__global__ void k(const float* a, float* c) { __shared__ float t[128]; t[threadIdx.x] = a[threadIdx.x]; c[threadIdx.x] = t[0]; }";
    let view = crate::source::preprocess(source, &[]);
    let tree = crate::engine::parse(&view.text, None).unwrap_or_else(|| panic!("parse"));
    let lines = crate::source::LineIndex::new(source);
    let build = || {
        crate::model::Model::build(
            std::path::Path::new("t.cu"),
            source,
            &view,
            &tree,
            &lines,
            &[],
        )
    };
    // with the whole budget: found, and the file's budget pays for it
    let model = build();
    let (kernel, facts) = model
        .kernel_facts()
        .next()
        .unwrap_or_else(|| panic!("kernel"));
    assert!(!facts.shared(&model, kernel).conflicts.is_empty());
    let left = model.shared_scope().left.get();
    assert!(left < super::FILE_BUDGET && left > 0, "{left}");
    // with the file's budget spent by earlier kernels: nothing
    let model = build();
    model.shared_scope().left.set(super::preparation_cost(
        model
            .functions
            .first()
            .unwrap_or_else(|| panic!("function")),
    ));
    let (kernel, facts) = model
        .kernel_facts()
        .next()
        .unwrap_or_else(|| panic!("kernel"));
    assert!(facts.shared(&model, kernel).conflicts.is_empty());
    assert_eq!(model.shared_scope().left.get(), 0);
}

#[test]
fn a_store_back_of_the_value_read_changes_nothing() {
    // read into a local of the element's type, or stored straight back
    for body in [
        "int v; v = a[0]; a[0] = v;",
        "int v = a[threadIdx.x % 4]; a[threadIdx.x % 4] = v;",
        "a[threadIdx.x % 4] = a[threadIdx.x % 4];",
    ] {
        let found = conflicts(&format!(
            "__global__ void k(int* c) {{ __shared__ int a[64]; {body} c[threadIdx.x] = a[0]; }}"
        ));
        assert!(found.is_empty(), "{body}: {found:?}");
    }
}

#[test]
fn a_store_back_is_not_one_once_the_value_may_differ() {
    for (element, body) in [
        // another value
        ("int", "int v = a[0]; a[0] = v + 1;"),
        // another element
        (
            "int",
            "int v = a[threadIdx.x]; a[(threadIdx.x + 1) % 64] = v;",
        ),
        // a conversion on the way
        ("float", "int v = a[0]; a[0] = v;"),
        // a write of the element in between
        ("int", "int v = a[0]; a[threadIdx.x] = 3; a[0] = v;"),
    ] {
        let found = conflicts(&format!(
                "__global__ void k(int* c) {{ __shared__ {element} a[64]; {body} c[threadIdx.x] = 1; }}"
            ));
        assert!(!found.is_empty(), "{body}");
    }
}

#[test]
fn calls_into_device_functions_are_followed() {
    let found = conflicts("__device__ float at(const float* s, int i) { return s[i]; }\n__global__ void k(float* c) { __shared__ float s[64]; s[threadIdx.x] = c[threadIdx.x]; c[threadIdx.x] = at(s, 63 - threadIdx.x); }");
    assert!(
        found
            .iter()
            .any(|(a, b, same_warp, _)| (a == "s[i]" || b == "s[i]") && !same_warp),
        "{found:?}"
    );
    // a return ends the call, not the thread; the callee does not see the caller's locals
    let found = conflicts("__device__ void put(float* s, int i) { if (i >= 64) return; s[i] = 1; }\n__global__ void k(float* c) { __shared__ float s[64]; int i = 5; put(s, threadIdx.x + 64); put(s, threadIdx.x); c[threadIdx.x] = s[63 - threadIdx.x]; }");
    assert!(
        found
            .iter()
            .any(|(a, b, ..)| a == "s[63 - threadIdx.x]" || b == "s[63 - threadIdx.x]"),
        "{found:?}"
    );
    // own elements only
    let found = conflicts("__device__ float at(const float* s, int i) { return s[i]; }\n__global__ void k(float* c) { __shared__ float s[64]; s[threadIdx.x] = c[threadIdx.x]; c[threadIdx.x] = at(s, threadIdx.x); }");
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn atomics_race_with_plain_accesses_not_with_each_other() {
    let found = conflicts("__global__ void k(int* c) { __shared__ int n; if (threadIdx.x == 0) n = 0; atomicAdd(&n, 1); __syncthreads(); c[threadIdx.x] = n; }");
    assert!(
        found
            .iter()
            .any(|(a, b, ..)| a == "atomicAdd(&n, 1)" || b == "atomicAdd(&n, 1)"),
        "{found:?}"
    );
    let found = conflicts("__global__ void k(int* c) { __shared__ int n[4]; atomicAdd(&n[threadIdx.x % 4], 1); atomicMax(n + threadIdx.x % 4, 3); __syncthreads(); c[threadIdx.x] = n[0]; }");
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn warp_collectives_with_a_mask_order_the_lanes() {
    let found = conflicts("__global__ void k(int* c) { __shared__ int s[32]; int lane = threadIdx.x & 31; int v = lane > 0 ? s[lane - 1] : 0; v += __shfl_up_sync(0xffffffff, v, 1); s[lane] = v; c[threadIdx.x] = v; }\nvoid h(int* c) { k<<<1, 32>>>(c); }");
    assert!(found.is_empty(), "{found:?}");
    let found = conflicts("__global__ void k(int* c) { __shared__ int s[32]; int lane = threadIdx.x & 31; int v = lane > 0 ? s[lane - 1] : 0; s[lane] = v; c[threadIdx.x] = v; }\nvoid h(int* c) { k<<<1, 32>>>(c); }");
    assert!(
        found.iter().any(|(_, _, same_warp, _)| *same_warp),
        "{found:?}"
    );
}

#[test]
fn deep_nesting_does_not_overflow() {
    let mut body = String::new();
    for _ in 0..2000 {
        body.push_str("if (threadIdx.x < 1000) {");
    }
    body.push_str("s[threadIdx.x] = 1;");
    for _ in 0..2000 {
        body.push('}');
    }
    let source = format!("__global__ void k() {{ __shared__ float s[64]; {body} }}");
    let _ = conflicts(&source);
}

#[test]
fn a_uniform_value_every_thread_stores_before_reading_it_back_is_no_conflict() {
    // stored alike by every thread (an integer, a value computed from one read back, a
    // launch-shape value outside loops), then read back: every read returns that value
    let found = conflicts("#define B 16\n__global__ void k(const float* a, int w, int d, float* c) { __shared__ int begin; __shared__ int end; __shared__ int per; __shared__ float t[B][B]; begin = B * blockIdx.y; end = begin + (d - 1) * w; per = w / gridDim.x; float s = 0; for (int i = begin; i <= end; i += B * w) { t[threadIdx.y][threadIdx.x] = a[i + threadIdx.x]; __syncthreads(); s += t[threadIdx.x][threadIdx.y]; __syncthreads(); } c[threadIdx.x + per] = s; }");
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_uniform_value_read_before_every_reader_stored_it_is_a_conflict() {
    // stored by thread 0 only: the others may read the old value
    let found = conflicts("__global__ void k(float* c) { __shared__ int begin; if (threadIdx.x == 0) begin = 16 * blockIdx.x; c[threadIdx.x] = begin; }");
    assert!(
        found
            .iter()
            .any(|(a, b, ..)| a.contains("begin") && b.contains("begin")),
        "{found:?}"
    );
    // a value that differs from warp to warp, stored by every thread and read back
    let found = conflicts("__global__ void k(float* c) { __shared__ int at; at = threadIdx.x / 32; c[threadIdx.x] = at; }");
    assert!(!found.is_empty(), "{found:?}");
    // another value stored after the uniform one, by some threads, in the same interval
    let found = conflicts("__global__ void k(float* c) { __shared__ int at; at = 4; if (threadIdx.x % 2) at = 5; c[threadIdx.x] = at; }");
    assert!(!found.is_empty(), "{found:?}");
    // a uniform value of the launch's shape stored in a loop: each trip stores another one
    let found = conflicts("__global__ void k(float* c, int n) { __shared__ int at; float s = 0; for (int i = 0; i < 4; ++i) { at = gridDim.x * i; s += at; } c[threadIdx.x] = s; }");
    assert!(!found.is_empty(), "{found:?}");
}

#[test]
fn threads_copying_one_shared_element_store_the_same_value() {
    let kernel = |copy: &str| {
        format!(
            "__global__ void k(const int* table, float* out) {{ __shared__ int rows; __shared__ int height; __shared__ int cells[256]; if (threadIdx.x == 0) rows = table[blockIdx.x]; cells[threadIdx.x] = table[threadIdx.x]; __syncthreads(); {copy} out[threadIdx.x] = height; }}
void run(const int* t, float* o) {{ k<<<4, 256>>>(t, o); }}"
        )
    };
    // every thread reads the one element and stores what it read: no order matters
    let found = conflicts(&kernel("height = rows;"));
    assert!(found.is_empty(), "{found:?}");
    // each thread stores its own element: the last warp's value remains
    let found = conflicts(&kernel("height = cells[threadIdx.x];"));
    assert!(found.iter().any(|c| c.0 == "height"), "{found:?}");
    // a later write of the element in the same interval: the copies may differ
    let found = conflicts(&kernel("height = rows; if (threadIdx.x == 64) rows = 3;"));
    assert!(!found.is_empty(), "{found:?}");
}

#[test]
fn a_shared_struct_copied_from_the_blocks_own_element_is_one_value() {
    let kernel = "struct Coords { float c[96]; };
struct Item { Coords coords; float weight; };
__global__ void refine(const Item* items, float* out) {
    const Item* mine = &items[blockIdx.x];
    __shared__ Coords coords;
    coords = mine->coords;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = coords.c[threadIdx.x];
}
void run(const Item* items, float* out) { refine<<<16, 32>>>(items, out); }
";
    // every thread stores the same bytes: whichever store lands last, the struct holds them
    assert_eq!(conflicts(kernel), []);
    // through each thread's own element, the threads store different values
    let own = kernel.replace("&items[blockIdx.x]", "&items[threadIdx.x]");
    assert_eq!(
        conflicts(&own),
        [("coords".to_string(), "coords".to_string(), true, false)]
    );
}
