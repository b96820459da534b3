//! Launch geometry, read from small host functions.

use super::*;

/// What `read` takes from the model of `source`, linted alone.
fn with_model<R>(source: &str, read: impl FnOnce(&super::super::Model) -> R) -> R {
    let view = crate::source::preprocess(source, &[]);
    let tree = crate::engine::parse(&view.text, None).expect("parse");
    let lines = crate::source::LineIndex::new(source);
    let model = super::super::Model::build(
        std::path::Path::new("t.cu"),
        source,
        &view,
        &tree,
        &lines,
        &[],
    );
    read(&model)
}

fn sites(source: &str) -> Vec<LaunchSite> {
    with_model(source, |model| model.launch_sites.clone())
}

fn grid_of(source: &str) -> [GridAxis; 3] {
    let found = sites(source);
    assert_eq!(found.len(), 1, "{found:?}");
    found[0].grid.clone()
}

fn rounded(total: &str) -> GridAxis {
    GridAxis::RoundedUp(total.to_string())
}

#[test]
fn grids_rounded_up_name_the_extent_they_cover() {
    for (launch, total) in [
        ("k<<<(n + 255) / 256, 256>>>(p, n);", "n"),
        ("k<<<(n + B - 1) / B, B>>>(p, n);", "n"),
        ("k<<<(n + (B - 1)) / B, B>>>(p, n);", "n"),
        ("k<<<n / B + 1, B>>>(p, n);", "n"),
        ("k<<<(n - 1) / B + 1, B>>>(p, n);", "n"),
        ("k<<<n / B + (n % B != 0), B>>>(p, n);", "n"),
        ("k<<<(n + 255) >> 8, 256>>>(p, n);", "n"),
        ("k<<<ceil(n / (float)B), B>>>(p, n);", "n"),
        ("k<<<DIV_UP(n, B), B>>>(p, n);", "n"),
        ("k<<<ceil_div(n, B), B>>>(p, n);", "n"),
        (
            "int blocks = (n + 127) / 128; k<<<blocks, 128>>>(p, n);",
            "n",
        ),
        // the fence posts of `n` segments
        ("k<<<(n + 1 + B - 1) / B, B>>>(p, n);", "n + 1"),
    ] {
        let source = format!("void f(float* p, int n, int B) {{ {launch} }}");
        assert_eq!(grid_of(&source)[0], rounded(total), "{launch}");
    }
}

#[test]
fn exact_grids_and_unknown_ones() {
    for (launch, expected) in [
        ("k<<<rows, 256>>>(p, rows);", GridAxis::Exact),
        ("k<<<B * H, head_size>>>(p, B, H);", GridAxis::Exact),
        ("k<<<n / 256, 256>>>(p, n);", GridAxis::Exact),
        ("k<<<64, 256>>>(p, n);", GridAxis::Exact),
        (
            "dim3 grid(rows); dim3 block(1, 256, 1); k<<<grid, block>>>(p, rows);",
            GridAxis::Exact,
        ),
        ("k<<<num_blocks, 256>>>(p, n);", GridAxis::Unknown),
        ("k<<<max(1, n / 256), 256>>>(p, n);", GridAxis::Unknown),
        (
            "int g = 1; if (n > 4) g = num_blocks; k<<<g, 256>>>(p, n);",
            GridAxis::Unknown,
        ),
        (
            "k<<<min(ceil_div(n, 256), 4096), 256>>>(p, n);",
            rounded("n"),
        ),
        // sizes passed by address, as a launcher called from Fortran takes them
        (
            "int cols = *cols_in; int colx = *colx_in; k<<<cols - colx + 1, 64>>>(p, n);",
            GridAxis::Exact,
        ),
        ("k<<<*blocks_in, 256>>>(p, n);", GridAxis::Unknown),
        ("k<<<(*n_in + 255) / 256, 256>>>(p, n);", rounded("*n_in")),
    ] {
        let source = format!("void f(float* p, int n, int rows, int B, int H, int head_size, int num_blocks, dim3 dims, int log2N, Config cfg, int* cols_in, int* colx_in, int* blocks_in, int* n_in) {{ {launch} }}");
        assert_eq!(grid_of(&source)[0], expected, "{launch}");
    }
}

#[test]
fn two_dimensional_grids_keep_each_axis() {
    let grid = grid_of(
        "void f(float* c, int M, int N) { dim3 block(16, 16); dim3 grid((N + 15) / 16, (M + 15) / 16); mm<<<grid, block>>>(c, M, N); }",
    );
    assert_eq!(grid, [rounded("N"), rounded("M"), GridAxis::Exact]);
    let site = &sites(
        "void f(float* c, int M, int N) { dim3 block(16, 16); dim3 grid((N + 15) / 16, (M + 15) / 16); mm<<<grid, block>>>(c, M, N); }",
    )[0];
    assert_eq!(site.block, [Some(16), Some(16), Some(1)]);
    assert_eq!(site.bound_argument(0), Some(2));
    assert_eq!(site.bound_argument(1), Some(1));
}

#[test]
fn a_dim3_component_reads_as_its_constant_in_the_grid() {
    // `block.x` of `dim3 block(32)` is the 32 it holds, as the literal would be: the grid
    // `(nxy - 1) / block.x + 1` over `nxy = 1 << 16` is 2048 blocks
    let grid_x = |source: &str| -> Vec<Option<Sym>> {
        let found = sites(source);
        assert_eq!(found.len(), 1, "{found:?}");
        found[0].sizes.iter().map(|s| s.grid[0].clone()).collect()
    };
    let blocks = grid_x(
        "void f(float* c) { unsigned nxy = 1 << 16; dim3 block(32); dim3 grid((nxy - 1) / block.x + 1); k<<<grid, block>>>(c); }",
    );
    assert!(blocks.contains(&Some(Sym::constant(2048))), "{blocks:?}");
    // an assignment after the declaration is what the grid sees
    let blocks = grid_x(
        "void f(float* c) { int nx = 1024; dim3 block(64); block.x = 32; dim3 grid((nx + block.x - 1) / block.x); k<<<grid, block>>>(c); }",
    );
    assert!(blocks.contains(&Some(Sym::constant(32))), "{blocks:?}");
    // a width read from the caller is no constant: no block count is known
    let blocks = grid_x(
        "void f(float* c, int w) { int n = 1 << 16; dim3 block(w); dim3 grid((n - 1) / block.x + 1); k<<<grid, block>>>(c); }",
    );
    assert!(
        !blocks.iter().flatten().any(|b| b.as_constant().is_some()),
        "{blocks:?}"
    );
}

#[test]
fn helpers_are_recognised_by_the_shape_of_their_body() {
    let grid = grid_of(
        "static int blocks_for(int total, int per) { return (total + per - 1) / per; }\nvoid f(float* p, int n) { k<<<blocks_for(n, 128), 128>>>(p, n); }",
    );
    assert_eq!(grid[0], rounded("n"));
    // a visible helper that does not round up is not taken on its name
    let grid = grid_of(
        "static int ceil_div(int a, int b) { return a / b; }\nvoid f(float* p, int n) { k<<<ceil_div(n, 128), 128>>>(p, n); }",
    );
    assert_eq!(grid[0], GridAxis::Unknown);
}

#[test]
fn a_quotient_counted_up_where_it_leaves_a_remainder_rounds_up() {
    let helper = |test: &str| {
        format!(
            "unsigned countBlocks(unsigned a, unsigned b) {{ unsigned num; num = a / b; if ({test}) num++; return num; }}\nvoid f(float* p, int n) {{ k<<<countBlocks(n, 10), 10>>>(p, n); }}"
        )
    };
    assert_eq!(grid_of(&helper("a < b || a % b > 0"))[0], rounded("n"));
    assert_eq!(grid_of(&helper("a % b != 0"))[0], rounded("n"));
    // a step under any other test is not a rounding
    assert_eq!(grid_of(&helper("a > 100"))[0], GridAxis::Unknown);
    assert_eq!(grid_of(&helper("a % b == 0"))[0], GridAxis::Unknown);
    assert_eq!(grid_of(&helper("a % b + 1"))[0], GridAxis::Unknown);
    assert_eq!(grid_of(&helper("a % (b + 1)"))[0], GridAxis::Unknown);
    // a step where the division leaves none, or a step down
    let in_the_other_arm = helper("a % b").replace("num++;", "{} else num++;");
    assert_eq!(grid_of(&in_the_other_arm)[0], GridAxis::Unknown);
    let down = helper("a % b").replace("num++", "num--");
    assert_eq!(grid_of(&down)[0], GridAxis::Unknown);
    // nor a quotient changed again
    let twice = helper("a % b").replace("return num;", "num *= 2; return num;");
    assert_eq!(grid_of(&twice)[0], GridAxis::Unknown);
}

#[test]
fn cuda_launch_kernel_is_a_launch_site() {
    let found = sites(
        "void f(float* p, int n) { void* args[] = {&p, &n}; cudaLaunchKernel((const void*)k, dim3((n + 255) / 256), dim3(256), args, 0, 0); }",
    );
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].kernel, "k");
    // the array of addresses names the arguments
    assert_eq!(found[0].arity, Some(2));
    assert_eq!(found[0].arguments, ["p", "n"]);
    assert_eq!(found[0].grid[0], rounded("n"));
}

#[test]
fn cuda_launch_kernel_ex_reads_its_launch_config() {
    // the initialiser's grid, block and bytes; the kernel's arguments follow it directly
    let found = sites(
        "void f(float* p, int n, cudaStream_t s) { cudaLaunchConfig_t cfg = {dim3((n + 127) / 128), dim3(128), 64, s, nullptr, 0}; cudaLaunchKernelEx(&cfg, k, p, n); }",
    );
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].kernel, "k");
    assert_eq!(found[0].arity, Some(2));
    assert_eq!(found[0].grid[0], rounded("n"));
    assert_eq!(found[0].block, [Some(128), Some(1), Some(1)]);
    // fields assigned one by one, and a kernel held by a local
    let found = sites(
        "void f(float* p, int n) { cudaLaunchConfig_t cfg = {}; cfg.gridDim = dim3(n / 256); cfg.blockDim = dim3(256); auto kernel = k<float>; cudaLaunchKernelEx(&cfg, kernel, p, n); }",
    );
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].kernel, "k");
    assert_eq!(found[0].grid[0], GridAxis::Exact);
    assert_eq!(found[0].block[0], Some(256));
}

#[test]
fn library_launch_calls_read_as_launches() {
    // taskflow's kernel node: grid, block, bytes, then the kernel and its arguments
    let found = sites(
        "void f(tf::cudaFlow& flow, float* p, int n) { auto node = flow.kernel((n + 127) / 128, 128, 0, k, p, n); }",
    );
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].kernel, "k");
    assert_eq!(found[0].arity, Some(2));
    assert_eq!(found[0].grid[0], rounded("n"));
    assert_eq!(found[0].block[0], Some(128));
    // cuda-api-wrappers: the configuration built at the launch or held by a local
    let found = sites(
        "void f(float* p, int n) { auto config = cuda::make_launch_config(n / 256, 256); cuda::launch(k, config, p, n); cuda::enqueue_launch(k, stream, cuda::make_launch_config((n + 63) / 64, 64), p, n); }",
    );
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].grid[0], GridAxis::Exact);
    assert_eq!(found[0].block[0], Some(256));
    assert_eq!(found[0].arity, Some(2));
    assert_eq!(found[1].grid[0], rounded("n"));
    assert_eq!(found[1].block[0], Some(64));
    // a method named `kernel` with fewer arguments, or a configuration the call cannot see, is
    // no launch it can read
    assert!(sites("void f(Model& m, int n) { m.kernel(n, 2); }").is_empty());
    let found = sites(
        "void f(float* p, int n, cuda::launch_configuration_t c) { cuda::launch(k, c, p, n); }",
    );
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].grid[0], GridAxis::Unknown);
    assert_eq!(found[0].block[0], None);
}

/// The kernel model's side: an index every launch keeps inside the problem is bounded, and
/// a rounded-up launch names the kernel parameter it passes as the extent.
#[test]
fn kernel_facts_read_the_launches() {
    use crate::model::IndexStatus;
    let kernel = "__global__ void k(float* out, int rows) { int r = blockIdx.x * blockDim.x + threadIdx.x; out[r] = 0; }\n";
    let status = |launches: &str| {
        let source = format!("{kernel}void f(float* d, int n) {{ {launches} }}");
        let view = crate::source::preprocess(&source, &[]);
        let tree = crate::engine::parse(&view.text, None).expect("parse");
        let lines = crate::source::LineIndex::new(&source);
        let model = super::super::Model::build(
            std::path::Path::new("t.cu"),
            &source,
            &view,
            &tree,
            &lines,
            &[],
        );
        let (function, facts) = model.kernel_facts().next().expect("kernel");
        let access = facts.accesses.first().expect("access");
        match &access.status {
            IndexStatus::Bounded { .. } => "bounded".to_string(),
            IndexStatus::Unguarded { axes, .. } => {
                let bound = facts.launch_bound(function, *axes);
                format!(
                    "unguarded, bound {:?}, {} unsafe",
                    bound.parameter.map(|p| p.name.clone()),
                    bound.unsafe_launches.len()
                )
            }
            other => format!("{other:?}"),
        }
    };
    assert_eq!(status(""), "unguarded, bound None, 0 unsafe");
    // one thread per block on `x`: `threadIdx.x` is 0, `r` is the block's index alone
    assert_eq!(status("k<<<n, 1>>>(d, n);"), "NotThreadIndexed");
    assert_eq!(
        status("dim3 b(1, 64); k<<<n, b>>>(d, n);"),
        "NotThreadIndexed"
    );
    assert_eq!(status("k<<<n, 64>>>(d, n * 64);"), "bounded");
    assert_eq!(
        status("k<<<(n + 63) / 64, 64>>>(d, n);"),
        "unguarded, bound Some(\"rows\"), 1 unsafe"
    );
    assert_eq!(
        status("k<<<n, 1>>>(d, n); k<<<(n + 63) / 64, 64>>>(d, n);"),
        "unguarded, bound Some(\"rows\"), 1 unsafe"
    );
    assert_eq!(
        status("k<<<pick(n), 64>>>(d, n);"),
        "unguarded, bound None, 1 unsafe"
    );
}

#[test]
fn a_launch_through_a_function_pointer_launches_each_kernel_assigned_to_it() {
    let found = sites(
        "void f(float* o, const float* i, int n, int mode) { void (*kernel)(float*, const float*, int); if (mode) kernel = &copy; else kernel = transpose; kernel<<<n / 32, 32>>>(o, i, n); }",
    );
    let mut kernels: Vec<&str> = found.iter().map(|s| s.kernel.as_str()).collect();
    kernels.sort();
    assert_eq!(kernels, ["copy", "transpose"]);
    assert!(found.iter().all(|s| s.grid[0] == GridAxis::Exact));
}

#[test]
fn a_launch_through_a_member_table_launches_each_kernel_the_file_assigns_to_it() {
    let source = "struct Plan { void (*layer[2])(int, float*); };
        void create(Plan& plan) { plan.layer[0] = radix_16<4>; plan.layer[1] = &radix_8; }
        void exec(const Plan& plan, Plan* p, float* d, int n) { plan.layer[n & 1]<<<n / 256, 256>>>(n, d); p->layer[0]<<<n / 256, 256>>>(n, d); plan.layer[plan.order[n]]<<<n / 256, 256>>>(n, d); }";
    let mut kernels: Vec<String> = sites(source).into_iter().map(|s| s.kernel).collect();
    kernels.sort();
    assert_eq!(
        kernels,
        ["radix_16", "radix_16", "radix_16", "radix_8", "radix_8", "radix_8"]
    );
    // a member also given something other than a kernel's name: the launch stays as written
    let mixed = "void create(Plan& plan, Fn f) { plan.layer = radix_8; plan.layer = f(); }
        void exec(const Plan& plan, float* d, int n) { plan.layer<<<n / 256, 256>>>(n, d); }";
    let kernels: Vec<String> = sites(mixed).into_iter().map(|s| s.kernel).collect();
    assert_eq!(kernels, ["plan.layer"]);
}

#[test]
fn a_launch_names_its_kernel_through_every_namespace_level() {
    for (launch, kernel) in [
        ("k<<<n / 32, 32>>>(o, n);", "k"),
        ("ns::k<<<n / 32, 32>>>(o, n);", "k"),
        ("outer::inner::k<<<n / 32, 32>>>(o, n);", "k"),
        ("outer::inner::k<float, 4><<<n / 32, 32>>>(o, n);", "k"),
        ("::k<<<n / 32, 32>>>(o, n);", "k"),
    ] {
        let found = sites(&format!("void f(float* o, int n) {{ {launch} }}"));
        let kernels: Vec<&str> = found.iter().map(|s| s.kernel.as_str()).collect();
        assert_eq!(kernels, [kernel], "{launch}");
    }
}

#[test]
fn each_launch_sees_the_grid_assigned_last_on_its_path() {
    let source = "void f(float* p, int n, bool wide) {
        dim3 threads, blocks;
        threads = dim3(512);
        blocks = dim3(n / threads.x);
        k<<<blocks, threads>>>(p, n);
        blocks = dim3((n + 511) / 512);
        k<<<blocks, threads>>>(p, n);
        int count = n / 256;
        if (wide) count = (n + 255) / 256;
        k<<<count, 256>>>(p, n);
        int size = 1 << 20;
        dim3 grid(size / 256);
        size = size * 2;
        k<<<grid, 256>>>(p, size);
    }";
    let found = sites(source);
    let axes: Vec<GridAxis> = found.iter().map(|s| s.grid[0].clone()).collect();
    assert_eq!(
        axes,
        [
            GridAxis::Exact,
            rounded("n"),
            // rounded up on one of its paths
            rounded("n"),
            GridAxis::Exact
        ]
    );
}

#[test]
fn a_grid_chosen_in_branches_is_what_every_branch_gives() {
    for (launch, expected) in [
        // one block of the whole signal, or whole blocks of 512
        (
            "dim3 grid, block; if (n <= 512) { block.x = n; } else { grid.x = n / 512; block.x = 512; } k<<<grid, block>>>(p, n);",
            GridAxis::Exact,
        ),
        (
            "int blocks; if (rows > 64) blocks = rows / 4; else blocks = rows; k<<<blocks, 4>>>(p, rows);",
            GridAxis::Exact,
        ),
        (
            "int blocks = n / 256; if (tail) blocks = (n + 255) / 256; k<<<blocks, 256>>>(p, n);",
            rounded("n"),
        ),
        (
            "int blocks = (rows + 3) / 4; if (tail) blocks = (n + 255) / 256; k<<<blocks, 256>>>(p, n);",
            GridAxis::Unknown,
        ),
        (
            "int blocks = n / 256; if (tail) blocks++; k<<<blocks, 256>>>(p, n);",
            GridAxis::Unknown,
        ),
        (
            "k<<<(n % 256 == 0) ? n / 256 : n / 256 + 1, 256>>>(p, n);",
            rounded("n"),
        ),
        (
            "k<<<rows > 1024 ? rows / 4 : rows, 256>>>(p, rows);",
            GridAxis::Exact,
        ),
    ] {
        let source = format!("void f(float* p, int n, int rows, bool tail) {{ {launch} }}");
        assert_eq!(grid_of(&source)[0], expected, "{launch}");
    }
}

#[test]
fn helpers_written_as_a_choice_round_up_and_constants_fold_through_min() {
    let helper = "static unsigned div_up(unsigned a, unsigned b) { return (a % b == 0) ? (a / b) : (a / b + 1); }\n";
    let grid = grid_of(&format!(
        "{helper}void f(float* p, int n) {{ k<<<div_up(n, 128), 128>>>(p, n); }}"
    ));
    assert_eq!(grid[0], rounded("n"));
    // 65536 / 256 partial sums in one block of as many threads: nothing rounds up
    let grid = grid_of(&format!(
        "{helper}void f(int* p) {{ const int count = 65536; int block = 256; int partials = count / block; int threads = min(partials, block); k<<<div_up(partials, threads), threads>>>(p); }}"
    ));
    assert_eq!(grid[0], GridAxis::Exact);
}

#[test]
fn grids_from_vector_constructors_direct_initialisers_and_floors_of_products() {
    let grid = grid_of(
        "void f(unsigned* h, int blocks) { dim3 grid(blocks, 1, 1); grid = make_uint3(64, 1, 1); merge<<<grid, 64>>>(h, blocks); }",
    );
    assert_eq!(grid[0], GridAxis::Exact);
    let grid = grid_of(
        "constexpr unsigned cells(64 * 64 * 64);\nconstexpr unsigned cellBlocks(cells / 128);\nvoid f(float* m) { scan<<<cellBlocks, 128>>>(m); }",
    );
    assert_eq!(grid[0], GridAxis::Exact);
    let grid = grid_of(
        "void f(char* d, const char* name) { unsigned bytes = file_size(name); unsigned padding = bytes % 2048 == 0 ? 0 : 2048 - bytes % 2048; unsigned words = (bytes + padding) / sizeof(int); unsigned chunks = words * sizeof(int) / 2048; pack<<<chunks, 128>>>(d, chunks); }",
    );
    assert_eq!(grid[0], GridAxis::Exact);
    // a floor of a rounded-up count is still rounded up
    let grid = grid_of(
        "void f(float* p, int n) { int padded = ((n + 255) / 256) * 4; k<<<padded * 64 / 256, 256>>>(p, n); }",
    );
    assert_eq!(grid[0], rounded("n"));
}

#[test]
fn a_grid_returned_by_a_host_helper_is_read_in_the_helper() {
    let helper = "dim3 softmax_grid(int batch, int heads, int seq, int threads) {\n  int per_block = threads / seq;\n  unsigned x = heads * seq / per_block;\n  unsigned y = batch;\n  return {x, y};\n}\n";
    let found = sites(&format!(
        "{helper}void f(float* v, int b, int h, int s) {{ dim3 grid = softmax_grid(b, h, s, 128); softmax<<<grid, 128>>>(v, h, s); }}"
    ));
    let launch = found
        .iter()
        .find(|l| l.kernel == "softmax")
        .expect("launch");
    assert_eq!(
        launch.grid,
        [GridAxis::Exact, GridAxis::Exact, GridAxis::Exact]
    );
    let rounding = "dim3 cover(int count) { return dim3((count + 255) / 256); }\n";
    let found = sites(&format!(
        "{rounding}void f(float* v, int n) {{ fill<<<cover(n), 256>>>(v, n); }}"
    ));
    assert_eq!(found[0].grid[0], rounded("n"));
    // a helper that does not return a `dim3` is not read as one
    let found = sites(
        "int count(int n) { return n; }\nvoid f(float* v, int n) { fill<<<count(n), 256>>>(v, n); }",
    );
    assert_eq!(found[0].grid[0], GridAxis::Unknown);
}

#[test]
fn an_axis_a_grid_helper_passes_through_is_what_its_caller_passes() {
    let helper =
        "static dim3 grid_for(int rows, int heads) {\n  int x = rows;\n  return {x, heads};\n}\n";
    let grid_at = |call: &str| {
        let found = sites(&format!(
            "{helper}void f(float* v, int r, int h, int nblocks) {{ dim3 g = {call}; k<<<g, 32>>>(v, r, h); }}"
        ));
        found
            .iter()
            .find(|l| l.kernel == "k")
            .expect("launch")
            .grid
            .clone()
    };
    // the parameter is the caller's count, read with the caller's locals
    assert_eq!(
        grid_at("grid_for((r + 31) / 32, h)"),
        [rounded("r"), GridAxis::Exact, GridAxis::Exact]
    );
    assert_eq!(
        grid_at("grid_for(r / 32, h)"),
        [GridAxis::Exact, GridAxis::Exact, GridAxis::Exact]
    );
    assert_eq!(grid_at("grid_for(nblocks, h)")[0], GridAxis::Unknown);
    assert_eq!(grid_at("grid_for(r, (h + 3) / 4)")[1], rounded("h"));
    // through a cast, in the call itself
    let found = sites(
        "dim3 cover(unsigned count) { return dim3((int)count); }\nvoid f(float* v, int n) { fill<<<cover(ceil_div(n, 256)), 256>>>(v, n); }",
    );
    assert_eq!(found[0].grid[0], rounded("n"));
    // assigned through a reference
    let found = sites(
        "void shape(dim3& g, int rows) { g.x = rows; }\nvoid f(float* v, int n) { dim3 grid; shape(grid, (n + 255) / 256); k<<<grid, 256>>>(v, n); }",
    );
    let launch = found.iter().find(|l| l.kernel == "k").expect("launch");
    assert_eq!(launch.grid[0], rounded("n"));
}

#[test]
fn a_grid_helper_with_several_returns_gives_any_of_them() {
    // qsim's CreateGrid: one axis for small counts, then spread over y and z
    let helper = "inline dim3 CreateGrid(uint64_t blocks) {\n  if (blocks <= 65536) {\n    return dim3((uint32_t) blocks);\n  }\n  uint32_t x = 65536;\n  uint64_t rem = blocks / x;\n  if (rem <= 32768) {\n    return dim3(x, (uint32_t) rem);\n  }\n  uint32_t y = 32768;\n  uint32_t z = (uint32_t) (rem / y);\n  return dim3(x, y, z);\n}\n";
    let found = sites(&format!(
        "{helper}void f(float* v, int n) {{ k<<<CreateGrid((n + 63) / 64), 64>>>(v, n); }}"
    ));
    let launch = found.iter().find(|l| l.kernel == "k").expect("launch");
    // `x` passes the count through or is a constant; `y` is a count of blocks divided, `z` a
    // floor of it
    assert_eq!(
        launch.grid,
        [rounded("n"), GridAxis::Unknown, GridAxis::Exact]
    );
    // every return exact: exact; one rounding up: rounded up
    let split = "dim3 split(int rows, int cols) {\n  if (cols == 1) return dim3(rows);\n  return dim3(rows, cols);\n}\n";
    for (call, expected) in [
        (
            "split(n, 4)",
            [GridAxis::Exact, GridAxis::Exact, GridAxis::Exact],
        ),
        (
            "split((n + 63) / 64, 4)",
            [rounded("n"), GridAxis::Exact, GridAxis::Exact],
        ),
    ] {
        let found = sites(&format!(
            "{split}void f(float* v, int n) {{ k<<<{call}, 64>>>(v, n); }}"
        ));
        assert_eq!(found[0].grid, expected, "{call}");
    }
    let mixed = "dim3 mixed(int n, bool wide) {\n  if (wide) return dim3((n + 255) / 256);\n  return dim3(n);\n}\n";
    let found = sites(&format!(
        "{mixed}void f(float* v, int n) {{ k<<<mixed(n, true), 256>>>(v, n); }}"
    ));
    assert_eq!(found[0].grid[0], rounded("n"));
    // a return without a value is no grid
    let found = sites(
        "dim3 odd(int n) { if (n == 0) return; return dim3(n); }\nvoid f(float* v, int n) { k<<<odd(n), 256>>>(v, n); }",
    );
    assert_eq!(found[0].grid[0], GridAxis::Unknown);
}

#[test]
fn a_dim3_set_by_a_helper_through_a_reference_is_what_the_helper_assigns() {
    let helper = "void shape(dim3& grid, dim3& block, int rows, int cols) {\n  grid.x = rows;\n  grid.y = (cols + 127) / 128;\n  block.x = 128;\n}\n";
    let found = sites(&format!(
        "{helper}void f(float* v, int r, int c) {{ dim3 grid, block; shape(grid, block, r, c); k<<<grid, block>>>(v, r, c); }}"
    ));
    let launch = found.iter().find(|l| l.kernel == "k").expect("launch");
    // the caller's argument is the extent the helper rounded up
    assert_eq!(
        launch.grid,
        [GridAxis::Exact, rounded("c"), GridAxis::Exact]
    );
    assert_eq!(launch.block, [Some(128), Some(1), Some(1)]);
    // through a pointer
    let found = sites(
        "void rows_of(dim3* g, int n) { g->x = n / 64; }\nvoid f(float* v, int n) { dim3 grid; rows_of(&grid, n); k<<<grid, 64>>>(v, n); }",
    );
    let launch = found.iter().find(|l| l.kernel == "k").expect("launch");
    assert_eq!(launch.grid[0], GridAxis::Exact);
    // through a pointer dereferenced in parentheses, `(*g).x`, rounded up or not
    let found = sites(
        "void rows_of(dim3* g, dim3* b, int n) { (*g).x = (n + 63) / 64; (*g).y = n / 8; (*b).x = 64; }\nvoid f(float* v, int n) { dim3 grid, block; rows_of(&grid, &block, n); k<<<grid, block>>>(v, n); }",
    );
    let launch = found.iter().find(|l| l.kernel == "k").expect("launch");
    assert_eq!(launch.grid[..2], [rounded("n"), GridAxis::Exact]);
    assert_eq!(launch.block[0], Some(64));
    // a template and its specialisation: either may be the one called
    let specialised = "template <typename T> void shape(dim3& g, int n) { g.x = (n + 255) / 256; }\ntemplate <> void shape<float>(dim3& g, int n) { g.x = n; }\n";
    let found = sites(&format!(
        "{specialised}template <typename T> void f(T* v, int n) {{ dim3 grid; shape<T>(grid, n); k<<<grid, 256>>>(v, n); }}"
    ));
    let launch = found.iter().find(|l| l.kernel == "k").expect("launch");
    assert_eq!(launch.grid[0], rounded("n"));
    // called on one path only, or assigned again before the launch: not the helper's
    for body in [
        "dim3 grid; if (n > 0) { exact_of(grid, n); } k<<<grid, 256>>>(v, n);",
        "dim3 grid; exact_of(grid, n); grid.x = (n + 255) / 256; k<<<grid, 256>>>(v, n);",
    ] {
        let found = sites(&format!(
            "void exact_of(dim3& g, int n) {{ g.x = n; }}\nvoid f(float* v, int n) {{ {body} }}"
        ));
        let launch = found.iter().find(|l| l.kernel == "k").expect("launch");
        assert_ne!(launch.grid[0], GridAxis::Exact, "{body}");
    }
    // a parameter taken by value is the helper's own copy
    let found = sites(
        "void copy_of(dim3 g, int n) { g.x = n; }\nvoid f(float* v, int n) { dim3 grid; copy_of(grid, n); k<<<grid, 256>>>(v, n); }",
    );
    let launch = found.iter().find(|l| l.kernel == "k").expect("launch");
    assert_eq!(launch.grid[0], GridAxis::Unknown);
}

#[test]
fn a_checked_equality_on_the_launch_path_makes_the_grid_exact() {
    let halved = "dim3 grid; int per = 1; grid.x = b * h * s; while (per < 4 && grid.x % 2 == 0) { grid.x /= 2; per *= 2; }";
    for check in [
        "FT_CHECK(grid.x * per == b * h * s);",
        "assert(b * h * s == per * grid.x);",
        "if (grid.x * per != b * h * s) { throw std::runtime_error(\"shape\"); }",
        "if (grid.x * per != b * h * s) return;",
    ] {
        let found = sites(&format!(
            "void f(float* v, int b, int h, int s) {{ {halved} {check} k<<<grid, per * 64>>>(v); }}"
        ));
        assert_eq!(found[0].grid[0], GridAxis::Exact, "{check}");
    }
    for (check, after) in [
        // no check: halved in a loop, not known
        ("", ""),
        // a bound, not an equality
        ("FT_CHECK(grid.x * per <= b * h * s);", ""),
        // equal to a count the grid is rounded up from
        ("FT_CHECK(grid.x * per == (n + 255) / 256);", ""),
        // changed after the check
        ("FT_CHECK(grid.x * per == b * h * s);", "grid.x += 1;"),
        // a call that is no check
        ("printf(\"%d\", grid.x * per == b * h * s);", ""),
    ] {
        let found = sites(&format!(
            "void f(float* v, int b, int h, int s, int n) {{ {halved} {check} {after} k<<<grid, per * 64>>>(v); }}"
        ));
        assert_ne!(found[0].grid[0], GridAxis::Exact, "{check} {after}");
    }
    // a scalar grid
    let found = sites(
        "void f(float* v, int rows) { int blocks = rows; if (blocks % 2 == 0) blocks /= 2; assert(blocks * (rows / blocks) == rows); k<<<blocks, 64>>>(v); }",
    );
    assert_eq!(found[0].grid[0], GridAxis::Exact);
}

#[test]
fn a_buffer_allocated_per_launched_thread_is_known_at_the_launch() {
    let source = "struct Plan { float* slots; int blocks; };
    void init(Plan* plan) { cudaMalloc(&plan->slots, plan->blocks * 128 * sizeof(float)); }
    void run(Plan* plan, int gridSize, int blockSize, unsigned n) {
        dim3 block; dim3 grid;
        block.x = 256;
        grid.x = (n + 255) / 256;
        curandState* states; float* pairs; float* small; float* bytes;
        cudaMalloc((void**)&states, grid.x * block.x * sizeof(curandState));
        cudaMalloc(reinterpret_cast<void**>(&pairs), 2 * gridSize * blockSize * sizeof(float));
        cudaMalloc(&small, gridSize * sizeof(float));
        k<<<grid, block>>>(states, n);
        k<<<gridSize, blockSize>>>(pairs, small);
        k<<<plan->blocks, 128>>>(plan->slots);
    }";
    let found = sites(source);
    assert_eq!(found.len(), 3, "{found:?}");
    assert_eq!(found[0].elements_per_thread(0, Some("curandState")), 1);
    assert_eq!(found[0].elements_per_thread(0, Some("float")), 0);
    assert_eq!(found[0].elements_per_thread(1, None), 0);
    assert_eq!(found[1].elements_per_thread(0, Some("const float")), 2);
    assert_eq!(found[1].elements_per_thread(1, Some("float")), 0);
    assert_eq!(found[2].elements_per_thread(0, None), 1);
}

#[test]
fn a_local_a_helper_sets_is_one_value_on_both_sides_of_a_comparison() {
    // the block width comes from a helper sizes cannot spell out, yet the buffer is sized by the
    // same local, so it holds one element a thread whatever the helper returns
    let source = "unsigned approx(unsigned n);
    void build(unsigned n, unsigned blocks) {
        unsigned threads = approx(n);
        float* count;
        cudaMalloc(&count, blocks * threads * sizeof(float));
        k<<<blocks, threads>>>(count, n);
        unsigned other = approx(2 * n);
        k<<<blocks, other>>>(count, n);
    }";
    let found = sites(source);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].elements_per_thread(0, Some("float")), 1);
    // another local holding another call of the same helper is not the same value
    assert_eq!(found[1].elements_per_thread(0, Some("float")), 0);
    // the same call written in the allocation and in the chevrons, into a pointer the caller
    // handed in by address
    let source = "int NumBlocks(int n);
    void init(int n, unsigned long long** states) {
        cudaMalloc(states, NumBlocks(n) * 512 * sizeof(unsigned long long));
        k<<<NumBlocks(n), 512>>>(*states);
        k<<<NumBlocks(2 * n), 512>>>(*states);
    }";
    let found = sites(source);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(
        found[0].elements_per_thread(0, Some("unsigned long long")),
        1
    );
    assert_eq!(
        found[1].elements_per_thread(0, Some("unsigned long long")),
        0
    );
}

#[test]
fn a_device_vector_of_a_count_is_a_buffer_of_that_many_elements() {
    let source = "#define D_PTR(X) thrust::raw_pointer_cast((X).data())
    struct Tree {
        unsigned numBlocks, numThreadsPerBlock;
        void run(unsigned n) {
            thrust::device_vector<unsigned> stack;
            stack.resize(numBlocks * numThreadsPerBlock * 2);
            thrust::device_vector<unsigned long long> count(numBlocks * numThreadsPerBlock);
            thrust::device_vector<float> filled(numBlocks * numThreadsPerBlock, 0.0f);
            thrust::device_vector<float> few(numBlocks);
            k<<<numBlocks, numThreadsPerBlock>>>(D_PTR(count), n);
            k<<<numBlocks, numThreadsPerBlock>>>(thrust::raw_pointer_cast(filled.data()), n);
            k<<<numBlocks, numThreadsPerBlock>>>(thrust::raw_pointer_cast(&filled[0]), n);
            k<<<numBlocks, numThreadsPerBlock>>>(filled.data().get(), n);
            k<<<numBlocks, numThreadsPerBlock>>>(D_PTR(few), n);
            k<<<numBlocks, numThreadsPerBlock>>>(D_PTR(stack), n);
        }
    };";
    let found = sites(source);
    assert_eq!(found.len(), 6, "{found:?}");
    assert_eq!(
        found[0].elements_per_thread(0, Some("unsigned long long")),
        1
    );
    assert_eq!(found[0].elements_per_thread(0, Some("float")), 0);
    for site in &found[1..4] {
        assert_eq!(site.elements_per_thread(0, Some("float")), 1, "{site:?}");
    }
    // `blocks` elements for `blocks * threads` threads: allocated in sight, too small
    assert_eq!(found[4].elements_per_thread(0, None), 0);
    assert!(found[4].allocated_in_sight[0]);
    // resized after its declaration, two elements a thread
    assert_eq!(found[5].elements_per_thread(0, Some("unsigned")), 2);
    // a copy of a range has no count written at its declaration
    let copy = "void f(const thrust::host_vector<int>& h, int blocks) {
        thrust::device_vector<int> d(h.begin(), h.end());
        k<<<blocks, 256>>>(thrust::raw_pointer_cast(d.data()));
    }";
    assert_eq!(sites(copy)[0].elements_per_thread(0, None), 0);
}

#[test]
fn the_vector_a_data_pointer_hands_out_is_read_through_casts_and_macros() {
    use super::file_scope::vector_data_target as target;
    assert_eq!(target("thrust::raw_pointer_cast((X).data())", 0), Some("X"));
    assert_eq!(target("thrust::raw_pointer_cast(&v[0])", 0), Some("v"));
    assert_eq!(target("this->buf.data().get()", 0), Some("this->buf"));
    assert_eq!(target("(a).data()", 0), Some("a"));
    assert_eq!(target("raw_pointer_cast(v.data()+1)", 0), None);
    assert_eq!(target("v.get()", 0), None);
    assert_eq!(target("f(x).data()", 0), None);
}

#[test]
fn hip_launch_kernel_ggl_is_a_launch_site_with_its_arguments() {
    let source = "void f(float* p, int n) {
        hipLaunchKernelGGL(k, dim3(n / 256), dim3(256), 0, 0, p, n);
        hipLaunchKernelGGL(HIP_KERNEL_NAME(k<float>), dim3((n + 255) / 256), dim3(256), 0, 0, p, n);
    }";
    let found = sites(source);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].kernel, "k");
    assert_eq!(found[0].arity, Some(2));
    assert_eq!(found[0].grid[0], GridAxis::Exact);
    assert_eq!(found[0].arguments, ["p", "n"]);
    assert_eq!(found[1].kernel, "k");
    assert_eq!(found[1].grid[0], rounded("n"));
    assert_eq!(found[1].bound_argument(0), Some(1));
}

#[test]
fn a_dim3_copy_of_a_local_shape_is_that_shape() {
    let source = "void f(float* p, int n) {
        dim3 grid((n + 255) / 256, 4);
        dim3 block(256);
        k<<<grid, block>>>(p, n);
        hipLaunchKernelGGL(k, dim3(grid), dim3(block), 0, 0, p, n);
    }";
    let found = sites(source);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].grid, found[1].grid);
    assert_eq!(found[0].grid[0], rounded("n"));
    assert_eq!(found[0].block, found[1].block);
}

#[test]
fn sizes_read_from_input_or_a_table_are_problem_dimensions() {
    for launch in [
        "int Lx = atoi(argv[1]); dim3 blk(Lx / 16 * 4); k<<<blk, 256>>>(p, Lx);",
        "int sizes[3] = {64, 128, 256}; k<<<sizes[i] / 64, 64>>>(p, sizes[i]);",
    ] {
        let source = format!("void f(float* p, char** argv, int i) {{ {launch} }}");
        assert_eq!(grid_of(&source)[0], GridAxis::Exact, "{launch}");
    }
    let counts = "void f(float* p, int* blockCounts, int i) { k<<<blockCounts[i], 64>>>(p); }";
    assert_eq!(grid_of(counts)[0], GridAxis::Unknown);
    // a table whose entries are assigned here is what they are assigned
    let assigned = "void f(float* p, int w, int h) { size_t work[2]; work[0] = roundUpTo(16, w) / 16; work[1] = (h + 15) / 16; dim3 g(work[0], work[1]); k<<<g, dim3(16, 16)>>>(p, w, h); }";
    assert_eq!(grid_of(assigned)[0], GridAxis::Unknown);
    let exact = "void f(float* p, int w, int h) { size_t work[2]; work[0] = w / 16; work[1] = h / 16; dim3 g(work[0], work[1]); k<<<g, dim3(16, 16)>>>(p, w, h); }";
    assert_eq!(grid_of(exact)[0], GridAxis::Exact);
}

#[test]
fn dynamic_shared_bytes_in_block_dimensions_and_arguments() {
    use SharedAtom::{Argument, Block};
    for (launch, expected) in [
        ("k<<<g, 256>>>(p, n);", SharedBytes::Omitted),
        (
            "k<<<g, 256, 256 * sizeof(float)>>>(p, n);",
            SharedBytes::Known(vec![(1024, vec![])]),
        ),
        (
            "k<<<g, threads, threads * sizeof(float2)>>>(p, n);",
            SharedBytes::Known(vec![(8, vec![Block(0)])]),
        ),
        (
            // the components of a constant `dim3` are its constants
            "dim3 block(32, 8); k<<<g, block, block.x * block.y * sizeof(int)>>>(p, n);",
            SharedBytes::Known(vec![(1024, vec![])]),
        ),
        (
            "dim3 block(threads); k<<<g, block, 2 * block.x * sizeof(float)>>>(p, n);",
            SharedBytes::Known(vec![(8, vec![Block(0)])]),
        ),
        (
            "size_t bytes = n * sizeof(double); k<<<g, 128, bytes>>>(p, n);",
            SharedBytes::Known(vec![(8, vec![Argument(1)])]),
        ),
        ("k<<<g, 128, bytes>>>(p, n);", SharedBytes::Unknown),
        (
            "k<<<g, 128, m * sizeof(float)>>>(p, n);",
            SharedBytes::Unknown,
        ),
        (
            "cudaLaunchKernel((void*)k, g, dim3(128), args, 0, stream);",
            SharedBytes::Known(vec![]),
        ),
        (
            "hipLaunchKernelGGL(k, g, dim3(threads), threads * sizeof(float), 0, p, n);",
            SharedBytes::Known(vec![(4, vec![Block(0)])]),
        ),
    ] {
        let source = format!(
            "void f(float* p, int n, int m, int threads, dim3 g, size_t bytes, void** args, cudaStream_t stream) {{ {launch} }}"
        );
        let found = sites(&source);
        assert_eq!(found.len(), 1, "{launch}: {found:?}");
        assert_eq!(found[0].shared_bytes, expected, "{launch}");
    }
}

#[test]
fn a_local_written_through_its_address_holds_no_known_value() {
    let source = "void f(float* p, int n, dim3 g) { int block = 0; cudaOccupancyMaxPotentialBlockSize(&g, &block, k); k<<<g, block, block * sizeof(double)>>>(p, n); }";
    let found = sites(source);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].block[0], None);
    assert_ne!(found[0].shared_bytes, SharedBytes::Known(vec![]));
}

#[test]
fn a_launch_inside_a_lambda_sees_the_lambdas_locals_and_the_functions() {
    let source = "void f(float* p, int rows, int cols, int threads) {
        int half = rows / 2;
        std::thread worker([&]() {
            dim3 grid(cols / threads, half / threads);
            dim3 block(threads, threads);
            k<<<grid, block>>>(p, rows, cols);
            int blocks = (rows + 255) / 256;
            k<<<blocks, 256>>>(p, rows, cols);
        });
        auto other = [&]() { half = (rows + 7) / 8; };
        worker.join();
    }";
    let found = sites(source);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(
        found[0].grid,
        [GridAxis::Exact, GridAxis::Exact, GridAxis::Exact]
    );
    assert_eq!(found[0].block, [None, None, Some(1)]);
    assert_eq!(found[1].grid[0], rounded("rows"));
}

#[test]
fn file_scope_constants_and_macro_names_are_constant_grids() {
    let source = "const int NTHR_PER_BLK = 256;
    const int NBLOCK = 56 * 4;
    static const int kRounded = (1000 + 255) / 256;
    const dim3 grid(128, 128, 1);
    void f(float* p, int n) {
        k<<<NBLOCK, NTHR_PER_BLK>>>(p, n);
        k<<<grid, 64>>>(p, n);
        k<<<dim3(LOOKBACK_NUM_BLOCKS), dim3(THREADS)>>>(p, n);
        k<<<kRounded, 256>>>(p, n);
        k<<<gridBlocks, 256>>>(p, n);
    }
    void g(float* p, dim3 grid) { k<<<grid, 64>>>(p, 1); }";
    let found = sites(source);
    let axes: Vec<[GridAxis; 3]> = found.iter().map(|s| s.grid.clone()).collect();
    assert_eq!(found.len(), 6, "{found:?}");
    let exact = [GridAxis::Exact, GridAxis::Exact, GridAxis::Exact];
    assert_eq!(axes[0][0], GridAxis::Exact);
    assert_eq!(found[0].block[0], Some(256));
    assert_eq!(axes[1], exact);
    assert_eq!(axes[2][0], GridAxis::Exact);
    assert_eq!(axes[3][0], rounded("1000"));
    // a camel-case count of blocks from elsewhere, and a parameter hiding the file's grid
    assert_eq!(axes[4][0], GridAxis::Unknown);
    assert_eq!(axes[5][0], GridAxis::Unknown);
}

/// A file-scope variable an init function sets once holds that value for every later launch,
/// where the value reads only what is fixed too; a variable set twice, set from a parameter,
/// changed by `++`, or living in device memory is not read.
#[test]
fn file_scope_sizes_an_init_function_sets_once_are_read_as_their_values() {
    let source = "#define THREADS 64
    int blockSize;
    int gridSize;
    int roundedGrid;
    int total = 0;
    int blocksFromParameter;
    int blocksSetTwice;
    int blocksBumped;
    __device__ int deviceGrid;
    void init(int n) {
        total = n * 3;
        blockSize = 128;
        gridSize = total / blockSize;
        roundedGrid = (total + THREADS - 1) / THREADS;
        blocksFromParameter = n / 128;
        blocksSetTwice = total / 128;
        blocksBumped = total / 128;
    }
    void resize() { blocksSetTwice = 7; blocksBumped++; }
    __global__ void setDevice() { deviceGrid = 4; }
    void run(float* p) {
        k<<<gridSize, blockSize>>>(p, total);
        k<<<roundedGrid, THREADS>>>(p, total);
        k<<<blocksFromParameter, 128>>>(p, total);
        k<<<blocksSetTwice, 128>>>(p, total);
        k<<<blocksBumped, 128>>>(p, total);
    }
    void local(float* p, int total) {
        int gridSize = (total + 127) / 128;
        k<<<gridSize, 128>>>(p, total);
    }";
    let found = sites(source);
    assert_eq!(found.len(), 6, "{found:?}");
    assert_eq!(found[0].grid[0], GridAxis::Exact);
    assert_eq!(found[0].block[0], Some(128));
    assert_eq!(found[1].grid[0], rounded("total"));
    for site in &found[2..5] {
        assert_eq!(site.grid[0], GridAxis::Unknown, "{site:?}");
    }
    // a local of the name is the local, whatever the file's variable holds
    assert_eq!(found[5].grid[0], rounded("total"));
}

/// `dim3 g = dim3(4, 4, 1);` is the direct form `dim3 g(4, 4, 1);` written as a copy.
#[test]
fn dim3_built_by_a_constructor_call_is_read_by_component() {
    let source = "const dim3 grid = dim3(4, 4, 1);
    void f(float* p, int n) {
        k<<<grid, 1024>>>(p, n);
        dim3 local = dim3((n + 255) / 256, 2);
        k<<<local, 256>>>(p, n);
    }";
    let found = sites(source);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(
        found[0].grid,
        [GridAxis::Exact, GridAxis::Exact, GridAxis::Exact]
    );
    assert_eq!(found[1].grid[0], rounded("n"));
    assert_eq!(found[1].grid[1], GridAxis::Exact);
}

#[test]
fn grids_rounded_up_over_constants_the_block_divides_are_exact() {
    let source = "#define DATAXSIZE 400
    #define DATAYSIZE 300
    void f(float* p, int n) {
        dim3 grid((DATAXSIZE + 7) / 8, (DATAYSIZE + 7) / 8, (DATAXSIZE + 3) / 4);
        dim3 block(8, 8, 4);
        k<<<grid, block>>>(p, n);
        k<<<DIV_UP(4096, 256), 256>>>(p, n);
        k<<<(1000 + 255) >> 8, 256>>>(p, n);
        k<<<ceil(1024 / (float)128), 128>>>(p, n);
        k<<<DIV_UP(n, 256), 256>>>(p, n);
    }";
    let found = sites(source);
    assert_eq!(found.len(), 5, "{found:?}");
    assert_eq!(
        found[0].grid,
        [GridAxis::Exact, rounded("DATAYSIZE"), GridAxis::Exact]
    );
    assert_eq!(found[1].grid[0], GridAxis::Exact);
    assert_eq!(found[2].grid[0], rounded("1000"));
    assert_eq!(found[3].grid[0], GridAxis::Exact);
    assert_eq!(found[4].grid[0], rounded("n"));
}

#[test]
fn floor_divisions_of_sizes_the_analysis_cannot_compute_are_exact() {
    for (launch, expected) in [
        (
            "const int width = image.getWidth(); dim3 grid(width / 4); k<<<grid, 4>>>(p, width);",
            GridAxis::Exact,
        ),
        (
            "n = (int)rint((float)n / scale); k<<<n / 512, 512>>>(p, n);",
            GridAxis::Exact,
        ),
        (
            "unsigned count = shape.x; k<<<count / 16, 16>>>(p, count);",
            GridAxis::Exact,
        ),
        (
            "int total = n; if (wide) total = 2 * n; k<<<total / 256, 256>>>(p, total);",
            GridAxis::Exact,
        ),
        (
            "int padded = n; if (wide) padded = (n + 255) / 256 * 256; k<<<padded / 256, 256>>>(p, n);",
            rounded("n"),
        ),
        ("int blocks = pick(n); k<<<blocks / 2, 256>>>(p, n);", GridAxis::Unknown),
        (
            "for (int i = 0; i < n; i += 16) k<<<(n - i) / 16 - 1, 32>>>(p, n);",
            GridAxis::Exact,
        ),
        (
            "int dim = 32; if (wide) dim = atoi(argv); for (int i = 0; i < dim; i += 16) k<<<(dim - i) / 16 - 1, 32>>>(p, dim);",
            GridAxis::Exact,
        ),
        // rounded down by `floor`, whether the divisor is a float or not
        ("dim3 grid((int)floor(n / 256.0)); k<<<grid, 256>>>(p, n);", GridAxis::Exact),
        ("k<<<floorf(n / scale), 256>>>(p, n);", GridAxis::Exact),
        ("k<<<std::floor((n + 255) / 256), 256>>>(p, n);", rounded("n")),
        ("k<<<std::floor((n + 255) / 256.0), 256>>>(p, n);", GridAxis::Unknown),
        ("k<<<floor(n), 256>>>(p, n);", GridAxis::Unknown),
        // `ceil` of two integers: the quotient was rounded down before the call
        ("const int BN = 64; dim3 grid(ceil(n / BN)); k<<<grid, 64>>>(p, n);", GridAxis::Exact),
        ("k<<<ceil((n + 255) / 256), 256>>>(p, n);", rounded("n")),
        ("k<<<ceil(n / 256.0), 256>>>(p, n);", rounded("n")),
        ("k<<<ceil(n / scale), 256>>>(p, n);", rounded("n")),
    ] {
        let source = format!("void f(float* p, int n, float scale, bool wide, Image image, dim3 shape, char* argv) {{ {launch} }}");
        assert_eq!(grid_of(&source)[0], expected, "{launch}");
    }
}

#[test]
fn a_grid_assigned_from_an_argument_is_known_in_the_kernels_terms() {
    let source = "void f(int* d, int max_cols, int block_width) {
        size_t global_work;
        for (int blk = block_width - 1; blk >= 1; blk--) {
            global_work = blk;
            k<<<global_work, 16>>>(d, block_width, max_cols, blk);
        }
    }";
    let found = sites(source);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].grid_in_arguments[0], Some(vec![(1, vec![3])]));
}

#[test]
fn constant_grids_give_their_thread_count() {
    for (launch, blocks, threads) in [
        ("k<<<64, 256>>>(p, n);", [Some(64), Some(1), Some(1)], Some(64 * 256)),
        ("dim3 grid(128); dim3 block(128); k<<<grid, block>>>(p, n);", [Some(128), Some(1), Some(1)], Some(128 * 128)),
        ("const int blocks = 4096; k<<<blocks, 256>>>(p, n);", [Some(4096), Some(1), Some(1)], Some(4096 * 256)),
        ("k<<<NBLOCKS * 2, 256>>>(p, n);", [Some(256), Some(1), Some(1)], Some(256 * 256)),
        ("dim3 grid(8, rows); k<<<grid, 256>>>(p, n);", [Some(8), None, Some(1)], Some(8 * 256)),
        ("k<<<(n + 255) / 256, 256>>>(p, n);", [None, Some(1), Some(1)], None),
        // rounded up from a count that is constant here: still a grid that grows with it
        ("const size_t total = 1 << 20; k<<<(total + 255) / 256, 256>>>(p, total);", [None, Some(1), Some(1)], None),
        ("const int total = 4096; int blocks = (total + 127) / 128; k<<<blocks, 128>>>(p, total);", [None, Some(1), Some(1)], None),
        // a block holds at most 1,024 threads on `x`
        ("k<<<64, block>>>(p, n);", [Some(64), Some(1), Some(1)], Some(64 * 1024)),
        ("dim3 grid(64); grid.x = n; k<<<grid, 256>>>(p, n);", [None, Some(1), Some(1)], None),
        // the smaller of a bounded value and another
        ("k<<<min((n + 255) / 256, 1024), 256>>>(p, n);", [Some(1024), Some(1), Some(1)], Some(1024 * 256)),
        ("k<<<std::min(NBLOCKS, rows), 256>>>(p, n);", [Some(128), Some(1), Some(1)], Some(128 * 256)),
        ("int b = (n + 255) / 256; k<<<b < 512 ? b : 512, 256>>>(p, n);", [Some(512), Some(1), Some(1)], Some(512 * 256)),
        ("int b = (n + 255) / 256; k<<<b > 512 ? b : 512, 256>>>(p, n);", [None, Some(1), Some(1)], None),
        ("k<<<max(rows, 64), 256>>>(p, n);", [None, Some(1), Some(1)], None),
        // a local clamped before the launch, braced or not
        ("int blocks = (n + 255) / 256; if (blocks > 8 * 24) blocks = 8 * 24; k<<<blocks, 256>>>(p, n);", [Some(192), Some(1), Some(1)], Some(192 * 256)),
        ("int blocks = (n + 255) / 256; if (1024 <= blocks) { blocks = 1024; } k<<<blocks, 256>>>(p, n);", [Some(1024), Some(1), Some(1)], Some(1024 * 256)),
        // a clamp that only some paths take, or one that bounds from below, bounds nothing
        ("int blocks = (n + 255) / 256; if (rows) { if (blocks > 64) blocks = 64; } k<<<blocks, 256>>>(p, n);", [None, Some(1), Some(1)], None),
        ("int blocks = (n + 255) / 256; if (blocks < 64) blocks = 64; k<<<blocks, 256>>>(p, n);", [None, Some(1), Some(1)], None),
        // the grid the occupancy API sizes for the device, and one written by another call
        ("int grid, block; cudaOccupancyMaxPotentialBlockSize(&grid, &block, k); k<<<grid, block>>>(p, n);", [Some(RESIDENT_BLOCKS), Some(1), Some(1)], Some(RESIDENT_BLOCKS * 1024)),
        ("int minGrid = 0, block = 0; cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, (void*)k); dim3 grid(minGrid, 1, 1); k<<<grid, block>>>(p, n);", [Some(RESIDENT_BLOCKS), Some(1), Some(1)], Some(RESIDENT_BLOCKS * 1024)),
        ("int grid, block; cudaOccupancyMaxPotentialBlockSize(&block, &grid, k); k<<<grid, block>>>(p, n);", [None, Some(1), Some(1)], None),
        ("int grid = 64; plan(&grid, n); k<<<grid, 256>>>(p, n);", [None, Some(1), Some(1)], None),
    ] {
        let source = format!("#define NBLOCKS 128\nvoid f(float* p, int n, int rows, int block) {{ {launch} }}");
        let found = sites(&source);
        assert_eq!(found.len(), 1, "{launch}");
        assert_eq!(found[0].grid_blocks, blocks, "{launch}");
        assert_eq!(found[0].threads_x(), threads, "{launch}");
    }
}

#[test]
fn launch_sizes_name_the_host_values() {
    let source = "constexpr unsigned kPerBlock(25 * 9);
    void f(float* out, int n, unsigned* d_count) {
        unsigned blocks;
        cudaMemcpy(&blocks, d_count, sizeof(unsigned), cudaMemcpyDeviceToHost);
        float* ranges;
        cudaMalloc(&ranges, blocks * kPerBlock * 2 * sizeof(float));
        const dim3 shape{16, 25, 1};
        scan<<<blocks, shape>>>(ranges, n);
    }";
    let found = sites(source);
    assert_eq!(found.len(), 1);
    let shown = |s: &Option<crate::model::size::Sym>| s.as_ref().map(|s| s.display());
    let sizes = &found[0].sizes;
    // with the locals as names (the grid read back from the device has no value to put in)
    assert_eq!(sizes.len(), 1, "{sizes:?}");
    assert_eq!(shown(&sizes[0].grid[0]).as_deref(), Some("blocks"));
    assert_eq!(shown(&sizes[0].block[1]).as_deref(), Some("25"));
    assert_eq!(
        shown(&sizes[0].buffers[0]).as_deref(),
        Some("1800 * blocks")
    );
    assert_eq!(shown(&sizes[0].arguments[1]).as_deref(), Some("n"));
    // a launch passing no buffer allocated in sight keeps its sizes, with no buffer's bytes
    let found = sites("void f(float* out, int n) { fill<<<n / 256, 256>>>(out, n); }");
    assert!(!found[0].sizes.is_empty(), "{found:?}");
    assert!(found[0]
        .sizes
        .iter()
        .all(|s| s.buffers.iter().all(Option::is_none)));
}

#[test]
fn a_loop_counter_is_one_value_at_the_launch_with_its_ceiling() {
    let ceilings = |source: &str| -> Vec<Vec<(String, String)>> {
        sites(source)
            .iter()
            .map(|site| {
                let sizes = site.sizes.first().expect("sizes");
                sizes
                    .ceilings
                    .iter()
                    .map(|(name, ceiling)| (name.clone(), ceiling.display()))
                    .collect()
            })
            .collect()
    };
    let one = |name: &str, ceiling: &str| vec![(name.to_string(), ceiling.to_string())];
    // counted up to a limit the body leaves alone, or declared and only ever made smaller
    assert_eq!(
        ceilings("void f(double* v, int n) { for (int l = 0; l < n; ++l) k<<<(l + 127) / 128, 128>>>(v, l); }"),
        vec![one("l@", "n - 1")]
    );
    assert_eq!(
        ceilings("void f(double* v, int n) { int l = n; for (; l >= 2; l -= 2) k<<<l, 128>>>(v, l - 2); for (; l >= 1; l--) k<<<l, 128>>>(v, l - 1); }"),
        vec![one("l@", "n"), one("l@", "n")]
    );
    // a counter the body moves, or a local made larger somewhere, has none
    assert_eq!(
        ceilings("void f(double* v, int n) { for (int l = 0; l < n; ++l) { k<<<l + 1, 128>>>(v, l); l += 2; } }"),
        vec![Vec::new()]
    );
    assert_eq!(
        ceilings("void f(double* v, int n) { int l = n; l -= 4; l += 3; k<<<l, 128>>>(v, l); }"),
        vec![Vec::new()]
    );
    // the grid and the arguments read the counter where the launch runs, under a name of its own
    // (an allocation may have read another of its values)
    let found = sites("void f(double* v, int n) { for (int l = n; l >= 1; --l) k<<<(l + 127) / 128, 128>>>(v, l - 1); }");
    let sizes = found[0].sizes.first().expect("sizes");
    assert_eq!(
        sizes.arguments[1].as_ref().map(|a| a.display()).as_deref(),
        Some("l@ - 1")
    );
    let at_the_limit = crate::model::size::Sym::atom("n");
    let argument = sizes.arguments[1].clone().expect("an argument");
    let reach = argument
        .add(&crate::model::size::Sym::constant(1))
        .expect("a sum");
    assert!(sizes.at_most(&reach, &at_the_limit));
    let past = reach
        .add(&crate::model::size::Sym::constant(1))
        .expect("a sum");
    assert!(!sizes.at_most(&past, &at_the_limit));
}

#[test]
fn a_clamped_count_is_one_value_for_the_sizes() {
    let shown = |s: &Option<crate::model::size::Sym>| s.as_ref().map(|s| s.display());
    // the clamps read the count only to choose its value: allocation and launch see one value
    let found = sites(
        "void f(int* deg, long ne, int md, size_t cap) {
        size_t nblocks = (ne - 1) / 8 + 1;
        if (nblocks > 65536) nblocks = 65536;
        nblocks = std::min(cap, nblocks);
        if (cap < nblocks) { nblocks = cap; }
        int* slabs;
        cudaMalloc(&slabs, nblocks * 8 * md * sizeof(int));
        k<<<nblocks, 256>>>(slabs, md);
    }",
    );
    assert_eq!(found.len(), 1);
    let sizes = &found[0].sizes;
    assert!(!sizes.is_empty(), "{found:?}");
    assert_eq!(shown(&sizes[0].grid[0]).as_deref(), Some("nblocks"));
    assert_eq!(
        shown(&sizes[0].buffers[0]).as_deref(),
        Some("32 * md * nblocks")
    );
    // a count changed after the buffer was sized from it is two values: the grid names the one
    // the launch sees, never as the allocation named what it saw
    let found = sites(
        "void f(long ne, int md) {
        size_t nblocks = (ne - 1) / 8 + 1;
        int* slabs;
        cudaMalloc(&slabs, nblocks * 8 * md * sizeof(int));
        if (nblocks > 64) nblocks = 64;
        k<<<nblocks, 256>>>(slabs, md);
    }",
    );
    assert!(
        found[0].sizes.iter().all(|s| {
            let grid: Vec<&String> = s.grid[0].iter().flat_map(|g| g.atoms()).collect();
            s.buffers[0]
                .as_ref()
                .is_none_or(|b| b.atoms().all(|atom| !grid.contains(&atom)))
        }),
        "{found:?}"
    );
}

#[test]
fn launch_sizes_read_a_padded_count_as_a_multiple() {
    let shown = |s: &Option<crate::model::size::Sym>| s.as_ref().map(|s| s.display());
    // a count rounded up in place to whole blocks of items: grid and buffer share the quotient
    let found = sites(
        "template <int BLOCK> void f(int* h, int count) {
            const int per_block = BLOCK * 4;
            count = (count + per_block - 1) / per_block * per_block;
            int* d;
            cudaMalloc((void**)&d, sizeof(int) * count);
            const int blocks = count / per_block;
            dim3 grid(blocks);
            dim3 block(BLOCK);
            k<BLOCK><<<grid, block>>>(d);
        }",
    );
    let resolved = found[0].sizes.last().expect("sizes");
    assert_eq!(
        shown(&resolved.grid[0]).as_deref(),
        Some("count/(4 * BLOCK)")
    );
    assert_eq!(shown(&resolved.block[0]).as_deref(), Some("BLOCK"));
    assert_eq!(
        shown(&resolved.buffers[0]).as_deref(),
        Some("16 * BLOCK * count/(4 * BLOCK)")
    );
    // padded with a `%` test, then a grid rounded up over it: exact
    let found = sites(
        "void f(float* far, int cells) {
            int padded;
            padded = 256 * (cells / 256 + (cells % 256 != 0));
            float* d;
            cudaMalloc((void**)&d, sizeof(float) * padded * 3);
            k<<<(padded + 255) / 256, 256>>>(padded, d);
        }",
    );
    let named = &found[0].sizes[0];
    assert_eq!(shown(&named.grid[0]).as_deref(), Some("padded/(256)"));
    assert_eq!(
        shown(&named.arguments[0]).as_deref(),
        Some("256 * padded/(256)")
    );
    // padded after the allocation read it: two values, neither a multiple nor the name the
    // allocation read
    let found = sites(
        "void f(int n) {
            float* d;
            cudaMalloc((void**)&d, n * sizeof(float));
            n = (n + 255) / 256 * 256;
            k<<<n / 256, 256>>>(d);
        }",
    );
    assert!(
        found[0].sizes.iter().all(|s| s.grid[0]
            .as_ref()
            .is_none_or(|g| g.atoms().all(|atom| atom != "n"))),
        "{:?}",
        found[0].sizes
    );
    // a multiple of 128 launched in blocks of 256 rounds up past it
    let found = sites(
        "void f(int n) {
            const int padded = (n + 127) / 128 * 128;
            int* d;
            cudaMalloc((void**)&d, padded * sizeof(int));
            k<<<(padded + 255) / 256, 256>>>(d);
        }",
    );
    let grid = found[0].sizes[0].grid[0].clone().expect("grid");
    assert!(grid.floored, "{}", grid.display());
    // a product with a float factor is no multiple of the other
    let found = sites(
        "void f(int n) {
            int half;
            half = (n / 3) * 0.5;
            int* d;
            cudaMalloc((void**)&d, half * sizeof(int));
            k<<<half / 256, 256>>>(d);
        }",
    );
    assert!(found[0]
        .sizes
        .iter()
        .all(|s| s.grid[0].as_ref().is_none_or(|g| g.floored)));
}

/// The unbounded launch dimensions of the one launch in `body` (a host function of sizes), as
/// (block?, axis, size name, divisor that can be 1).
fn unbounded(body: &str) -> Vec<(bool, usize, String, Option<String>)> {
    unbounded_in(&format!(
        "__global__ void k(float* p) {{ p[threadIdx.x] = 0; }}\nvoid f(float* p, int batch_size, int heads, int seq_len, int num_rows, int cols, int hidden_size) {{ {body} }}"
    ))
}

/// The unbounded launch dimensions of the one launch of a whole file.
fn unbounded_in(source: &str) -> Vec<(bool, usize, String, Option<String>)> {
    crate::verify::with_model(std::path::Path::new("t.cu"), source, |model| {
        let host = model
            .host
            .functions
            .iter()
            .find(|h| !h.launches.is_empty())?;
        let launch = host.launches.first()?;
        let function = model.functions.get(host.function_index)?;
        Some(
            limits::unbounded_dimensions(
                function.body,
                model.source,
                model,
                launch.call,
                launch.grid_node,
                launch.block_node,
            )
            .into_iter()
            .map(|d| {
                (
                    d.block,
                    d.axis,
                    d.name.to_string(),
                    d.divisor.map(|n| model.text(n).to_string()),
                )
            })
            .collect(),
        )
    })
    .flatten()
    .unwrap_or_default()
}

#[test]
fn a_choice_caps_the_arm_its_condition_bounds() {
    let grid_y = |name: &str| vec![(false, 1, name.to_string(), None)];
    // `min` written as a choice: `num_rows` is picked only where it is below the cap
    assert_eq!(
        unbounded("dim3 g; g.x = (cols + 127) / 128; int cap = 256 / g.x; g.y = (cap < num_rows) ? cap : num_rows; k<<<g, 128>>>(p);"),
        vec![]
    );
    assert_eq!(
        unbounded("dim3 g(1, num_rows > 1024 ? 1024 : num_rows); k<<<g, 128>>>(p);"),
        vec![]
    );
    assert_eq!(
        unbounded("dim3 g(1, 1024 <= num_rows ? 1024 : num_rows); k<<<g, 128>>>(p);"),
        vec![]
    );
    // a `max` written as a choice picks the size where it is the larger
    assert_eq!(
        unbounded("dim3 g(1, (num_rows > 1024) ? num_rows : 1024); k<<<g, 128>>>(p);"),
        grid_y("num_rows")
    );
    assert_eq!(
        unbounded("int cap = 256; dim3 g(1, (cap < num_rows) ? num_rows : cap); k<<<g, 128>>>(p);"),
        grid_y("num_rows")
    );
    // a condition on something else caps nothing
    assert_eq!(
        unbounded("dim3 g(1, cols < 1024 ? 1024 : num_rows); k<<<g, 128>>>(p);"),
        grid_y("num_rows")
    );
}

#[test]
fn sizes_reach_grid_y_through_products_sums_and_quotients_that_can_divide_by_one() {
    let grid_y = |name: &str| vec![(false, 1, name.to_string(), None)];
    assert_eq!(
        unbounded("dim3 g(batch_size, seq_len); k<<<g, 128>>>(p);"),
        grid_y("seq_len")
    );
    assert_eq!(
        unbounded("dim3 g(batch_size, heads * seq_len); k<<<g, 128>>>(p);"),
        grid_y("seq_len")
    );
    assert_eq!(
        unbounded("dim3 g(1, num_rows + 1); k<<<g, 128>>>(p);"),
        grid_y("num_rows")
    );
    assert_eq!(
        unbounded("dim3 g(seq_len / 128, batch_size * heads); k<<<g, 128>>>(p);"),
        grid_y("batch_size * heads")
    );
    assert_eq!(
        unbounded("int per = seq_len < 128 ? 128 / seq_len : 1; dim3 g(batch_size, heads * seq_len / per); k<<<g, 128>>>(p);"),
        vec![(false, 1, "seq_len".to_string(), Some("per".to_string()))]
    );
    assert_eq!(
        unbounded("k<<<dim3(1, 1, max(num_rows, 1)), 128>>>(p);"),
        vec![(false, 2, "num_rows".to_string(), None)]
    );
    // a local named for what it counts, whatever it is read from
    assert_eq!(
        unbounded("int rows = lookup(cols); dim3 g(1, rows); k<<<g, 128>>>(p);"),
        grid_y("rows")
    );
    // the block: a hidden size, plain
    assert_eq!(
        unbounded("k<<<num_rows, hidden_size>>>(p);"),
        vec![(true, 0, "hidden_size".to_string(), None)]
    );
}

#[test]
fn clamped_divided_and_path_bounded_sizes_are_not_unbounded() {
    for body in [
        // small by design, alone
        "dim3 g(seq_len, batch_size, heads); k<<<g, 128>>>(p);",
        // on grid x
        "k<<<heads * seq_len, 128>>>(p);",
        // the smaller of the size and a constant
        "dim3 g(1, min(num_rows, 4096)); k<<<g, 128>>>(p);",
        "dim3 g(1, std::min(heads * seq_len, 1 << 15)); k<<<g, 128>>>(p);",
        // divided by a constant above 1, or by a count that may grow with the size
        "dim3 g(1, (num_rows + 15) / 16); k<<<g, 128>>>(p);",
        "dim3 g(1, num_rows / cols); k<<<g, 128>>>(p);",
        // a local assigned on several paths
        "int y = 1; if (cols > 1) y = num_rows; dim3 g(1, y); k<<<g, 128>>>(p);",
        // bounded by a constant where the launch runs
        "if (seq_len <= 2048) { dim3 g(batch_size, seq_len); k<<<g, 128>>>(p); }",
        "if (seq_len > 8192) return; dim3 g(batch_size, seq_len); k<<<g, 128>>>(p);",
        "if (seq_len > 8192) { exit(1); } dim3 g(batch_size, seq_len); k<<<g, 128>>>(p);",
        "TORCH_CHECK(seq_len <= 1024, \"too long\"); dim3 g(batch_size, heads * seq_len); k<<<g, 128>>>(p);",
        "if (seq_len < 512) { dim3 g(batch_size, seq_len); k<<<g, 128>>>(p); } else { k<<<seq_len, 128>>>(p); }",
    ] {
        assert_eq!(unbounded(body), vec![], "{body}");
    }
    // a bound above the limit bounds nothing
    assert_eq!(
        unbounded("if (seq_len <= 1000000) { dim3 g(batch_size, seq_len); k<<<g, 128>>>(p); }")
            .len(),
        1
    );
}

#[test]
fn a_bound_named_by_a_namespace_or_class_constant_clamps_the_size() {
    let with_constants = |body: &str| {
        unbounded_in(&format!(
            "namespace RadixSort {{ static const unsigned WARP_SIZE = 32; }}\nclass Sorter {{ public: static constexpr int LIMIT = 512; int width = 64; }};\n__global__ void k(float* p) {{ p[threadIdx.x] = 0; }}\nvoid f(float* p, int num_rows) {{ {body} }}"
        ))
        .len()
    };
    assert_eq!(
        with_constants("if (num_rows <= RadixSort::WARP_SIZE) k<<<1, num_rows>>>(p);"),
        0
    );
    assert_eq!(
        with_constants("if (num_rows > Sorter::LIMIT) return; k<<<1, num_rows>>>(p);"),
        0
    );
    // a member each object holds is no constant, and an unknown name bounds nothing
    assert_eq!(
        with_constants("if (num_rows <= Sorter::width) k<<<1, num_rows>>>(p);"),
        1
    );
    assert_eq!(
        with_constants("if (num_rows <= Other::WARP) k<<<1, num_rows>>>(p);"),
        1
    );
}

#[test]
fn a_rounded_up_grid_over_an_extent_the_block_divides_is_exact() {
    for (body, expected) in [
        // a count of thousands, in blocks of 256: no thread over, whatever `k` is
        (
            "int n = k * 1024; k2<<<(n + 255) / 256, 256>>>(p, n);",
            GridAxis::Exact,
        ),
        (
            "const int dnum = k * 1024; const int inum = dnum; k2<<<(inum + B - 1) / B, B>>>(p, inum);",
            GridAxis::Exact,
        ),
        ("int n = k << 10; k2<<<DIV_UP(n, 256), 256>>>(p, n);", GridAxis::Exact),
        ("int n = k; n *= 512; k2<<<(n + 255) / 256, 256>>>(p, n);", GridAxis::Exact),
        // not a multiple: threads past `n` in the last block
        ("int n = k * 1000; k2<<<(n + 255) / 256, 256>>>(p, n);", rounded("n")),
        ("int n = k * 1024 + 1; k2<<<(n + 255) / 256, 256>>>(p, n);", rounded("n")),
        // scaled only on one path
        (
            "int n = k; if (big) n *= 1024; k2<<<(n + 255) / 256, 256>>>(p, n);",
            rounded("n"),
        ),
    ] {
        let source = format!("#define B 256\nvoid f(float* p, int k, bool big) {{ {body} }}");
        assert_eq!(grid_of(&source)[0], expected, "{body}");
    }
}

#[test]
fn launches_record_what_divides_each_argument_and_their_template_arguments() {
    let found = sites(
        "template <int B> __global__ void k(float* p, int n, int m);\n\
         void run(float* p, int paths, int steps) { const int T = 256; k<T><<<steps, T>>>(p, paths, steps); }\n\
         int main(int argc, char** argv) { int paths = atoi(argv[1]); int steps = atoi(argv[2]); paths *= 1024; run(0, paths, steps); return 0; }",
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].template_arguments, vec![Some(256)]);
    assert_eq!(found[0].argument_factors, vec![1, 1024, 1]);
    assert_eq!(found[0].block, [Some(256), Some(1), Some(1)]);
    // a caller that passes any count: nothing divides it
    let found = sites(
        "__global__ void k(float* p, int n);\n\
         void run(float* p, int paths) { k<<<1, 256>>>(p, paths); }\n\
         void a(float* p) { run(p, 4096); }\n\
         void b(float* p, int n) { run(p, n); }",
    );
    assert_eq!(found[0].argument_factors, vec![1, 1]);
}

#[test]
fn a_helper_that_rounds_to_a_multiple_gives_its_factor() {
    let found = sites(
        "__global__ void k(float* p, int n, int m, int r);
         constexpr int pad(int n, int p) { if (p == 0) return n; return ((n + p - 1) / p) * p; }
         int tiles(int n) { return n / 64 * 64; }
         int shifted(int n) { return (n >> 4) << 5; }
         void run(float* p, int n) { k<<<1, 256>>>(p, pad(n, 512), tiles(n), shifted(n)); }",
    );
    assert_eq!(found[0].argument_factors, vec![1, 512, 64, 32]);
}

#[test]
fn a_block_built_from_a_table_of_sizes_takes_the_entries_assigned() {
    let found = sites(
        "#define BX 32\n#define BY 16\n__global__ void k(float* p);\n\
         void f(float* p) { size_t sizes[2]; sizes[0] = BX; sizes[1] = BY / 8; dim3 block(sizes[0], sizes[1]); k<<<1, block>>>(p); }",
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].block, [Some(32), Some(2), Some(1)]);
}

#[test]
fn block_sizes_from_a_table_of_constant_entries() {
    // `dim3 block(sizes[0], sizes[1])` parses as a declaration whose parameters are types
    let host = |assignments: &str, launch: &str| {
        format!(
            "#define BX 32\n#define BY 16\n__global__ void k(float* p) {{ p[threadIdx.x] = 0; }}\n\
             void f(float* p) {{ size_t sizes[2]; {assignments} {launch} }}\n"
        )
    };
    let entries = "sizes[0] = BX; sizes[1] = BY / 8;";
    for launch in [
        "dim3 block (sizes[0], sizes[1]); k<<<4, block>>>(p);",
        "k<<<4, dim3(sizes[0], sizes[1])>>>(p);",
    ] {
        let found = sites(&host(entries, launch));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].block, [Some(32), Some(2), Some(1)], "{launch}");
    }
    // an entry assigned twice, or at an index not known, holds no one constant
    for entries in [
        "sizes[0] = BX; sizes[0] = 64; sizes[1] = 2;",
        "sizes[0] = BX; sizes[i] = 64; sizes[1] = 2;",
        "sizes[0] = BX; sizes[0] += 1; sizes[1] = 2;",
    ] {
        let found = sites(&host(
            entries,
            "dim3 block (sizes[0], sizes[1]); k<<<4, block>>>(p);",
        ));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].block[0], None, "{entries}");
    }
}

#[test]
fn launches_written_in_function_like_macros_are_read_at_their_use() {
    let source = "#define RUN(W) k<W><<<rows / W, 32 * W, 0, s>>>(p, rows);
#define RUN_UP(B) k<1><<<(rows + B - 1) / B, B>>>(p, rows);
#define RUN(W) other<W><<<rows, W>>>(p, rows);
void launch(float* p, int rows, cudaStream_t s) {
    if (rows % 4 == 0) {
        RUN(4)
    } else {
        RUN_UP(128)
    }
}
";
    let found = sites(source);
    let summary: Vec<(usize, &str, &GridAxis, Option<i128>)> = found
        .iter()
        .map(|s| (s.line, s.kernel.as_str(), &s.grid[0], s.block[0]))
        .collect();
    assert_eq!(
        summary,
        [
            (6, "other", &GridAxis::Exact, Some(4)),
            (8, "k", &rounded("rows"), Some(128)),
        ]
    );
    let use_start = source.find("RUN(4)").unwrap();
    assert_eq!(found[0].span, use_start..use_start + "RUN(4)".len());
}

#[test]
fn components_assigned_after_the_declaration_are_the_launch_shape() {
    let host = |body: &str| {
        format!(
            "const int COLS = 32;\n__global__ void k(float* p) {{ p[threadIdx.x] = 0; }}\n\
             void f(float* p, int n, bool wide) {{ {body} }}\n"
        )
    };
    for (body, block) in [
        (
            "dim3 block, grid; block.x = COLS; block.y = 1; block.z = 1; grid.x = n; \
             k<<<grid, block>>>(p);",
            [Some(32), Some(1), Some(1)],
        ),
        (
            "dim3 block; block.x = 32; block.y = 4; k<<<n, block>>>(p);",
            [Some(32), Some(4), Some(1)],
        ),
        // the declaration's shape, then one component set again
        (
            "dim3 block(32, 8); block.y = 1; k<<<n, block>>>(p);",
            [Some(32), Some(1), Some(1)],
        ),
        // a component never assigned keeps a bare declaration's 1
        (
            "dim3 block; block.y = 4; k<<<n, block>>>(p);",
            [Some(1), Some(4), Some(1)],
        ),
        // set on one path only: which shape the launch sees is not known
        (
            "dim3 block(32, 8); if (wide) block.y = 1; k<<<n, block>>>(p);",
            [None, None, None],
        ),
        // a copy of another `dim3` has its shape, unless a component is set after the copy
        (
            "dim3 shape(32, 8); dim3 block = shape; k<<<n, block>>>(p);",
            [Some(32), Some(8), Some(1)],
        ),
        (
            "dim3 shape(32, 8); dim3 block = shape; block.y = 2; k<<<n, block>>>(p);",
            [Some(32), Some(2), Some(1)],
        ),
        (
            "dim3 shape(32, 8); dim3 block = shape; if (wide) block.y = 2; k<<<n, block>>>(p);",
            [None, None, None],
        ),
    ] {
        let found = sites(&host(body));
        assert_eq!(found.len(), 1, "{body}");
        assert_eq!(found[0].block, block, "{body}");
    }
}

#[test]
fn getters_are_problem_dimensions() {
    for (launch, expected) in [
        // CV-CUDA's one block per image: the count an object holds, directly or through a local
        ("k<<<in.numImages(), 512>>>(p);", GridAxis::Exact),
        (
            "int batch = in.numImages(); k<<<batch, 512>>>(p);",
            GridAxis::Exact,
        ),
        ("k<<<shape->rows() * heads, 64>>>(p);", GridAxis::Exact),
        (
            "int batch = in.numImages(); k<<<(batch + 127) / 128, 128>>>(p);",
            rounded("batch"),
        ),
        // a getter that counts blocks or rounds, and a call with arguments, are not read
        ("k<<<plan.numBlocks(), 256>>>(p);", GridAxis::Unknown),
        ("k<<<cfg.gridSize(), 256>>>(p);", GridAxis::Unknown),
        ("k<<<tiles.divUp(), 256>>>(p);", GridAxis::Unknown),
        ("k<<<in.width(0), 256>>>(p);", GridAxis::Unknown),
        ("k<<<count(in), 256>>>(p);", GridAxis::Unknown),
    ] {
        let source = format!(
            "void f(Batch in, Shape* shape, Plan plan, int heads, float* p) {{ {launch} }}"
        );
        assert_eq!(grid_of(&source)[0], expected, "{launch}");
    }
}

#[test]
fn tensor_extents_are_problem_sizes() {
    let shown = |s: &Option<crate::model::size::Sym>| s.as_ref().map(|s| s.display());
    for launch in [
        "k<<<x.size(0) * x.size(1), 64>>>(p);",
        "const int B = x.size(0); const int N = x.size(-2); k<<<B * N, 64>>>(p);",
        "k<<<idx.numel(), 32>>>(p);",
    ] {
        let source = format!("void f(torch::Tensor x, torch::Tensor idx, float* p) {{ {launch} }}");
        assert_eq!(grid_of(&source)[0], GridAxis::Exact, "{launch}");
    }
    let found = sites(
        "void f(torch::Tensor x, float* out) {
            float* d;
            cudaMalloc((void**)&d, x.size(0) * x.size(1) * sizeof(float));
            const int D = x.size(1);
            k<<<x.size(0), D>>>(d, D);
        }",
    );
    let resolved = found[0].sizes.last().expect("sizes");
    assert_eq!(shown(&resolved.grid[0]).as_deref(), Some("x.size(0)"));
    assert_eq!(shown(&resolved.block[0]).as_deref(), Some("x.size(1)"));
    assert_eq!(
        shown(&resolved.buffers[0]).as_deref(),
        Some("4 * x.size(0) * x.size(1)")
    );
    // a size on an axis that is not a constant is no fixed extent: the launch has no sizes
    let sized = |axis: &str| {
        let found = sites(&format!(
            "void f(torch::Tensor x, int a) {{ float* d; cudaMalloc((void**)&d, 256); \
             k<<<x.size({axis}), 64>>>(d); }}"
        ));
        !found[0].sizes.is_empty()
    };
    assert!(sized("0"));
    assert!(!sized("a"));
}

#[test]
fn a_switch_on_an_argument_fixes_its_value_in_each_case() {
    let values = |body: &str| {
        let found = sites(&format!(
            "__global__ void k(int* out, int beams) {{ out[0] = beams; }}\n\
             void f(int* out, int beam_width) {{ {body} }}\n"
        ));
        found
            .iter()
            .map(|site| site.argument_value(1))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        values(
            "switch (beam_width) { case 1: k<<<1, 32>>>(out, beam_width); break; \
             case 4: { k<<<1, 32>>>(out, beam_width); break; } default: k<<<1, 32>>>(out, beam_width); }"
        ),
        [Some(1), Some(4), None]
    );
    // a case that falls into the next, or a switch on another name, says nothing
    assert_eq!(
        values("switch (beam_width) { case 1: case 2: k<<<1, 32>>>(out, beam_width); break; }"),
        [None]
    );
    assert_eq!(
        values("int mode = beam_width > 4; switch (mode) { case 1: k<<<1, 32>>>(out, beam_width); break; }"),
        [None]
    );
}

#[test]
fn a_local_holding_specialisations_of_one_kernel_launches_that_kernel() {
    let source = "template <bool B> __global__ void scale(float* p, int n) { p[0] = n; }\n\
                  void f(float* p, int n, bool fast) {\n\
                  auto k = fast ? scale<true> : scale<false>;\n\
                  k<<<1, 32, n * 4>>>(p, n);\n\
                  auto one = &scale<true>;\n\
                  one<<<1, 32>>>(p, n);\n}\n";
    let kernels: Vec<String> = sites(source).into_iter().map(|s| s.kernel).collect();
    assert_eq!(kernels, ["scale", "scale"]);
}

#[test]
fn launches_reach_the_overload_their_argument_count_fits() {
    let source = "__global__ void k(float* p, int n) { p[0] = n; }\n\
                  __global__ void k(float* p, const long* offsets, int n, int m = 1) { p[0] = n + m; }\n\
                  template <typename... Args> __global__ void v(float* p, Args... args) { p[0] = 0; }\n\
                  void f(float* p, const long* o, int n) {\n\
                  k<<<1, 32>>>(p, n);\n\
                  k<<<1, 32>>>(p, o, n);\n\
                  k<<<1, 32>>>(p, o, n, 2);\n\
                  v<<<1, 32>>>(p, n, n, n);\n}\n";
    let launched_lines = |position: usize| -> Vec<usize> {
        with_model(source, |model| {
            model
                .launches_of(&model.functions[position])
                .iter()
                .map(|l| l.line)
                .collect()
        })
    };
    assert_eq!(launched_lines(0), [5]);
    assert_eq!(launched_lines(1), [6, 7]);
    assert_eq!(launched_lines(2), [8]);
}

#[test]
fn a_check_on_the_launch_path_that_a_size_is_a_multiple_makes_its_rounded_grid_exact() {
    let found = sites(
        "__global__ void k(float* p, int n);\n\
         void a(float* p, int n) { if (n % 256 != 0) return; k<<<(n + 255) / 256, 256>>>(p, n); }\n\
         void b(float* p, int n) { TORCH_CHECK(n % 512 == 0, \"n\"); k<<<(n + 255) / 256, 256>>>(p, n); }\n\
         void c(float* p, int n) { assert((n & 127) == 0); k<<<(n + 127) / 128, 128>>>(p, n); }\n\
         void d(float* p, int n) { if (n % 128 != 0) return; k<<<(n + 255) / 256, 256>>>(p, n); }\n\
         void e(float* p, int n) { if (n % 256 != 0) return; n += 1; k<<<(n + 255) / 256, 256>>>(p, n); }\n\
         void f(float* p, int n) { k<<<(n + 255) / 256, 256>>>(p, n); assert(n % 256 == 0); }
         void g(float* p, int n, dim3 block) { if (n % block.x != 0) exit(1); k<<<(n + block.x - 1) / block.x, block>>>(p, n); }
         void h(float* p, int n, dim3 block) { if (n % block.y != 0) exit(1); k<<<(n + block.x - 1) / block.x, block>>>(p, n); }",
    );
    let grids: Vec<&GridAxis> = found.iter().map(|site| &site.grid[0]).collect();
    let rounded = GridAxis::RoundedUp("n".to_string());
    assert_eq!(
        grids,
        vec![
            &GridAxis::Exact,
            &GridAxis::Exact,
            &GridAxis::Exact,
            &rounded,
            &rounded,
            &rounded,
            // the block's own width, no constant, stated to divide the size
            &GridAxis::Exact,
            &rounded
        ]
    );
}

#[test]
fn a_check_right_after_a_definition_gives_that_value_its_factor() {
    let found = sites(
        "__global__ void k(float* p, int n);\n\
         int main(int argc, char** argv) {\n\
           int side = 64;\n\
           for (int i = 1; i < argc; i++) {\n\
             if (strcmp(argv[i], \"-l\") == 0) {\n\
               side = atoi(argv[i + 1]);\n\
               if ((side % 32) != 0) { fprintf(stderr, \"multiples of 32\"); exit(1); }\n\
             }\n\
           }\n\
           k<<<(side + 15) / 16, 16>>>(0, side);\n\
           int other = atoi(argv[2]);\n\
           printf(\"%d\", other);\n\
           if (other % 32 != 0) return 1;\n\
           k<<<(other + 15) / 16, 16>>>(0, other);\n\
           return 0;\n\
         }",
    );
    let grids: Vec<&GridAxis> = found.iter().map(|site| &site.grid[0]).collect();
    // the second check is not right after the definition, but it is on the launch's path
    assert_eq!(grids, vec![&GridAxis::Exact, &GridAxis::Exact]);
    let found = sites(
        "__global__ void k(float* p, int n);\n\
         int main(int argc, char** argv) {\n\
           int side = 64;\n\
           if (argc > 1) { side = atoi(argv[1]); printf(\"%d\", side); if (side % 32) exit(1); }\n\
           k<<<(side + 15) / 16, 16>>>(0, side);\n\
           return 0;\n\
         }",
    );
    assert_eq!(found[0].grid[0], GridAxis::RoundedUp("side".to_string()));
}

#[test]
fn a_remainder_tested_as_a_truth_value_and_a_quotient_of_a_checked_size_keep_their_factors() {
    let found = sites(
        "__global__ void k(float* p, long long n);\n\
         #define DIV_UP(a, b) (((a) + ((b) - 1)) / (b))\n\
         int main(int argc, char** argv) {\n\
           int X = atoi(argv[1]);\n\
           if (!X || (X % 16)) exit(1);\n\
           k<<<DIV_UP(X, 16), 16>>>(0, X);\n\
           if ((X / 2) % 512 != 0) exit(1);\n\
           size_t lld = (X / 2) / 16;\n\
           k<<<DIV_UP(lld / 2, 16), 16>>>(0, lld / 2);\n\
           size_t wide = (X / 2) / 64;\n\
           k<<<DIV_UP(wide / 2, 16), 16>>>(0, wide / 2);\n\
           return 0;\n\
         }",
    );
    let grids: Vec<&GridAxis> = found.iter().map(|site| &site.grid[0]).collect();
    // 512 / 16 / 2 leaves 16, the block; 512 / 64 / 2 leaves 4, a quarter of it
    assert_eq!(
        grids,
        vec![
            &GridAxis::Exact,
            &GridAxis::Exact,
            &GridAxis::RoundedUp("wide/2".to_string())
        ]
    );
}

#[test]
fn a_count_padded_up_to_a_multiple_of_the_block_is_rounded_up() {
    let found = sites(
        "__global__ void k(float* p, int n);\n\
         void run(float* p, int num) {\n\
           int items = num;\n\
           if (items % 256 != 0) items = items + (256 - items % 256);\n\
           k<<<items / 256, 256>>>(p, num);\n\
           int floor_items = num - num % 256;\n\
           k<<<floor_items / 256, 256>>>(p, num);\n\
         }",
    );
    assert_eq!(found[0].grid[0], GridAxis::RoundedUp("items".to_string()));
    assert_eq!(found[1].grid[0], GridAxis::Exact);
}

#[test]
fn a_kernel_named_through_an_object_like_macro_is_the_kernel_it_names() {
    let source = "#define PACKED_KERNEL kernel_packed_t1
#define NOT_A_NAME (a + b)
__global__ void kernel_packed_t1(float* out, long long stride) { out[0] = 0; }
void run(float* out, int batch) {
    const dim3 grid(24, batch, 1);
    PACKED_KERNEL<<<grid, 32>>>(out, 1536);
}
";
    let kernels: Vec<String> = sites(source).into_iter().map(|s| s.kernel).collect();
    assert_eq!(kernels, vec!["kernel_packed_t1".to_string()]);
}

#[test]
fn a_test_of_a_dim3_component_bounds_what_it_was_built_from() {
    let checked = "dim3 block(hidden_size); if (block.x > 1024) return; k<<<1, block>>>(p);";
    assert_eq!(unbounded(checked), vec![]);
    let loose = "dim3 block(hidden_size); if (block.x > 4096) return; k<<<1, block>>>(p);";
    assert_eq!(
        unbounded(loose),
        vec![(true, 0, "hidden_size".to_string(), None)]
    );
    let other =
        "dim3 block(hidden_size); dim3 other(64); if (other.x > 1024) return; k<<<1, block>>>(p);";
    assert_eq!(
        unbounded(other),
        vec![(true, 0, "hidden_size".to_string(), None)]
    );
}

#[test]
fn a_block_passed_as_an_argument_is_known_in_the_kernels_terms() {
    let source = "void f(int* out, int num_qps) {
        dim3 block(num_qps, 2);
        k<<<1, num_qps>>>(10, num_qps, out);
        k<<<1, block>>>(10, num_qps, out);
        k<<<1, num_qps + 32>>>(10, num_qps, out);
    }";
    let found = sites(source);
    assert_eq!(found.len(), 3, "{found:?}");
    assert_eq!(found[0].block_in_arguments[0], Some(vec![(1, vec![1])]));
    assert_eq!(found[1].block_in_arguments[0], Some(vec![(1, vec![1])]));
    assert_eq!(found[1].block_in_arguments[1], Some(vec![(2, vec![])]));
    assert_eq!(
        found[2].block_in_arguments[0],
        Some(vec![(32, vec![]), (1, vec![1])])
    );
}

#[test]
fn a_grid_rounded_up_from_what_every_call_passes_as_whole_blocks_is_exact() {
    let launcher = "__global__ void k(float* p, int n);\n\
         void run(float* p, int n) { k<<<(n + 255) / 256, 256>>>(p, n); }\n";
    let whole = format!(
        "{launcher}void a(float* p) {{ run(p, 4096); }}\nvoid b(float* p) {{ int n = 512; run(p, n); }}"
    );
    assert_eq!(grid_of(&whole)[0], GridAxis::Exact);
    // one call passes a count the block does not divide, or no call is in sight
    let part = format!(
        "{launcher}void a(float* p) {{ run(p, 4096); }}\nvoid b(float* p) {{ run(p, 1000); }}"
    );
    assert_eq!(grid_of(&part)[0], rounded("n"));
    assert_eq!(grid_of(launcher)[0], rounded("n"));
    // a launcher that changes the count before the launch keeps its own reading
    let changed = "__global__ void k(float* p, int n);\n\
         void run(float* p, int n) { n = n + 1; k<<<(n + 255) / 256, 256>>>(p, n); }\n\
         void a(float* p) { run(p, 4096); }";
    assert_eq!(grid_of(changed)[0], rounded("n"));
}

#[test]
fn a_wrapper_handed_the_kernel_launches_it_at_each_call() {
    // the variadic form: grid, block and arguments are what each call passes
    let source = "template <typename K, typename... A>\n\
         void launch(K k, dim3 g, dim3 b, A... a) { k<<<g, b>>>(a...); }\n\
         __global__ void scale(float* x, int n);\n\
         void run(float* x, int n, int rows) {\n\
           dim3 grid((n + 255) / 256);\n\
           launch(scale, grid, dim3(256), x, n);\n\
           launch(scale, dim3(rows), 128, x, rows);\n\
         }";
    let found = sites(source);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found.iter().all(|s| s.kernel == "scale"));
    assert_eq!(found[0].line, 6);
    assert_eq!(
        found[0].grid,
        [rounded("n"), GridAxis::Exact, GridAxis::Exact]
    );
    assert_eq!(found[0].block, [Some(256), Some(1), Some(1)]);
    assert_eq!(found[0].arity, Some(2));
    assert_eq!(found[0].arguments, ["x", "n"]);
    assert_eq!(found[0].bound_argument(0), Some(1));
    assert_eq!(found[1].grid[0], GridAxis::Exact);
    assert_eq!(found[1].block[0], Some(128));
    // the kernel a caller's local holds
    let held = "template <typename K, typename... A>\n\
         void launch(K k, dim3 g, dim3 b, A... a) { k<<<g, b>>>(a...); }\n\
         void run(float* x, int n) { auto kernelFn = scale; launch(kernelFn, dim3(n), dim3(64), x, n); }";
    assert_eq!(sites(held)[0].kernel, "scale");
    // a wrapper that changes the grid it is handed launches with its own
    let changed = "template <typename K, typename... A>\n\
         void launch(K k, dim3 g, dim3 b, A... a) { g.x = g.x * 2; k<<<g, b>>>(a...); }\n\
         void run(float* x, int n) { launch(scale, dim3(n), dim3(64), x, n); }";
    assert_eq!(grid_of(changed)[0], GridAxis::Unknown);
    // no call in the file: the launch stays as it is written
    let alone = "template <typename K, typename... A>\n\
         void launch(K k, dim3 g, dim3 b, A... a) { k<<<g, b>>>(a...); }";
    assert_eq!(sites(alone)[0].kernel, "k");
}

#[test]
fn a_launcher_of_one_kernel_launches_it_with_the_grid_each_call_builds() {
    let source = "__global__ void stretch(int samps, const float* in, float* out);\n\
         void call_stretch(const dim3& grid, const dim3& block, int samps, const float* in, float* out) {\n\
           stretch<<<grid, block>>>(samps, in, out);\n\
         }\n\
         void run(int samps, const float* in, float* out) {\n\
           dim3 blocks(samps / 32);\n\
           call_stretch(blocks, dim3(32), samps, in, out);\n\
           call_stretch(dim3((samps + 63) / 64), dim3(64), samps, in, out);\n\
         }";
    let found = sites(source);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found.iter().all(|s| s.kernel == "stretch"));
    assert_eq!((found[0].line, found[1].line), (7, 8));
    assert_eq!(found[0].grid[0], GridAxis::Exact);
    assert_eq!(found[0].block[0], Some(32));
    assert_eq!(found[1].grid[0], rounded("samps"));
    assert_eq!(found[1].arguments, ["samps", "in", "out"]);
    // a grid the launcher builds itself is read there, and no call of it stays one launch
    let own = "__global__ void stretch(int samps, float* out);\n\
         void call_stretch(int samps, float* out) { stretch<<<(samps + 31) / 32, 32>>>(samps, out); }\n\
         void run(float* out) { call_stretch(1000, out); }";
    assert_eq!(sites(own).len(), 1);
    assert_eq!(sites(own)[0].line, 2);
    let alone = "__global__ void stretch(int samps, float* out);\n\
         void call_stretch(dim3 grid, int samps, float* out) { stretch<<<grid, 32>>>(samps, out); }";
    assert_eq!(sites(alone)[0].grid[0], GridAxis::Unknown);
}

#[test]
fn a_dim3_built_with_braces_has_the_components_it_lists() {
    let found = sites(
        "void f(float* p, unsigned n) { if (n % 16 != 0) return; unsigned nb = (n + 15) / 16; k<<<dim3{nb, nb}, dim3{16, 16}>>>(p, n); }",
    );
    assert_eq!(found[0].grid[..2], [GridAxis::Exact, GridAxis::Exact]);
    assert_eq!(found[0].block, [Some(16), Some(16), Some(1)]);
    let found = sites(
        "void f(float* p, unsigned n) { dim3 grid = dim3{(n + 31) / 32}; k<<<grid, 32>>>(p, n); }",
    );
    assert_eq!(found[0].grid[0], rounded("n"));
}

#[test]
fn a_dim3_initialised_from_a_scalar_has_it_as_x() {
    let found = sites(
        "void f(double* p) { dim3 blocksize = 64; dim3 numblock = (2048 + blocksize.x - 1) / blocksize.x; k<<<numblock, blocksize>>>(p); }",
    );
    assert_eq!(found[0].grid[0], GridAxis::Exact);
    assert_eq!(found[0].block, [Some(64), Some(1), Some(1)]);
    let found = sites(
        "void f(double* p, int n) { dim3 blocksize = 64; dim3 numblock = (n + blocksize.x - 1) / blocksize.x; k<<<numblock, blocksize>>>(p, n); }",
    );
    assert_eq!(found[0].grid[0], rounded("n"));
}

#[test]
fn a_multiple_stated_of_an_equal_name_rounds_exactly() {
    // the side is checked a multiple of the tile under another name the checks make equal
    let launcher = |checks: &str| {
        format!(
            "void launch(float* p, unsigned rows, unsigned cols) {{ {checks} auto const nb = (cols + 16 - 1u) / 16; auto const grid = dim3{{nb, nb}}; k<<<grid, dim3{{16, 16}}>>>(p, rows); }}"
        )
    };
    let found = sites(&launcher(
        "if (rows != cols) throw 1; if (rows % 16 != 0) throw 2;",
    ));
    assert_eq!(found[0].grid[..2], [GridAxis::Exact, GridAxis::Exact]);
    // no equality stated: the check on `rows` says nothing of `cols`
    let found = sites(&launcher("if (rows % 16 != 0) throw 2;"));
    assert_eq!(found[0].grid[0], rounded("cols"));
    // `rows` written again after the equality: the later check is of another value
    let found = sites(&launcher(
        "if (rows != cols) throw 1; rows = rows / 2; if (rows % 16 != 0) throw 2;",
    ));
    assert_eq!(found[0].grid[0], rounded("cols"));
}

#[test]
fn a_rounding_written_with_suffixed_literals_is_read_as_one() {
    for grid in [
        "(n + 16 - 1u) / 16",
        "(n + 15u) / 16u",
        "n / 16u + 1u",
        "(n - 1u) / 16 + 1",
        "(n + 0xF) / 16",
    ] {
        let source = format!("void f(float* p, unsigned n) {{ k<<<{grid}, 16>>>(p, n); }}");
        assert_eq!(grid_of(&source)[0], rounded("n"), "{grid}");
    }
}

#[test]
fn a_launchers_own_values_are_unknown_arguments_at_its_calls() {
    let source = "__global__ void step(float* next, const float* src, int it);\n\
         float* dev_p[8];\n\
         void steps(float* src, int nt, dim3 grid, dim3 block, int g) {\n\
           for (int it = 0; it < nt; it++) step<<<grid, block>>>(dev_p[g], src, it + 1);\n\
         }\n\
         void run(float* source, int nz) {\n\
           dim3 grid(nz / 16), block(16);\n\
           steps(source, 10, grid, block, 0);\n\
         }";
    let found = sites(source);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        (found[0].line, found[0].grid[0].clone()),
        (8, GridAxis::Exact)
    );
    // the loop's counter is the launcher's: its text is empty and nothing is known of it
    assert_eq!(found[0].arguments, ["dev_p[g]", "source", ""]);
    assert_eq!(found[0].argument_values, [None, None, None]);
    assert_eq!(found[0].allocated_in_sight, [false, false, false]);
    // with no grid from the caller the launch stays where it is written
    let own_grid = "__global__ void step(float* next, int it);\n\
         void steps(float* next, int nz) { for (int it = 0; it < 4; it++) step<<<nz / 16, 16>>>(next, it); }\n\
         void run(float* p) { steps(p, 64); }";
    assert_eq!(sites(own_grid)[0].line, 2);
}

#[test]
fn a_wrapper_reads_the_members_its_caller_assigns() {
    let wrapper = "struct LaunchConfig { unsigned gridSize[3] = {1, 1, 1}; unsigned blockSize[3] = {1, 1, 1}; };\n\
         template<typename... Args>\n\
         void launchKernel(void (*kernel)(Args...), const LaunchConfig& c, void** args) {\n\
           dim3 grid(c.gridSize[0], c.gridSize[1], c.gridSize[2]);\n\
           dim3 block(c.blockSize[0], c.blockSize[1], c.blockSize[2]);\n\
           cudaLaunchKernel(reinterpret_cast<void*>(kernel), grid, block, args, 0, 0);\n\
         }\n";
    let source = format!(
        "{wrapper}void pack(float* p, int nx, int nz) {{\n\
           LaunchConfig config;\n\
           config.blockSize[0] = 32;\n\
           config.gridSize[0] = (nz + 31) / 32;\n\
           config.gridSize[2] = nx;\n\
           void* args[] = {{&p, &nz}};\n\
           launchKernel(packSlab, config, args);\n\
         }}"
    );
    let found = sites(&source);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].kernel, "packSlab");
    assert_eq!(found[0].line, 14);
    // `gridSize[1]` is never assigned: its value is not read, never taken for exact
    assert_eq!(
        found[0].grid,
        [rounded("nz"), GridAxis::Unknown, GridAxis::Exact]
    );
    assert_eq!(found[0].block, [Some(32), None, None]);
    assert_eq!(found[0].arity, None);
    // a member assigned twice, handed to another function before the call, or set from a
    // local whose address is taken (`&nx` in the arguments' array), is not known
    for changed in [
        "config.gridSize[2] = nx; void* more[] = {&nx};",
        "config.gridSize[2] = nx; if (nx > 4) config.gridSize[2] = 2 * nx;",
        "config.gridSize[2] = nx; setup(config);",
    ] {
        let source = format!(
            "{wrapper}void pack(float* p, int nx) {{ LaunchConfig config; {changed}\n\
               void* args[] = {{&p}}; launchKernel(packSlab, config, args); }}"
        );
        assert_eq!(grid_of(&source)[2], GridAxis::Unknown, "{changed}");
    }
}

#[test]
fn what_a_wrapper_computes_itself_is_unknown_at_its_calls() {
    // the wrapper rounds its own grid from a parameter: the call passes the extent
    let source = "template <typename K, typename... A>\n\
         void launch(K k, int n, A... a) { int blocks = n / 256 + extra(n); k<<<blocks, 256>>>(a...); }\n\
         void run(float* x, int n) { launch(scale, n, x, n); }";
    let found = sites(source);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].kernel, "scale");
    assert_eq!(found[0].grid[0], GridAxis::Unknown);
    assert_eq!(found[0].block[0], Some(256));
    // a wrapper handing on the kernel it was handed names no kernel at that call
    let nested = "template <typename K> void inner(K k, int n) { k<<<n, 1>>>(n); }\n\
         template <typename K> void outer(K k, int n) { inner(k, n); }\n\
         void run(int n) { outer(scale, n); }";
    assert!(sites(nested).is_empty(), "{:?}", sites(nested));
}

#[test]
fn a_wrapper_whose_locals_are_defined_from_each_other_is_read_without_end() {
    let source = include_str!("../../../testdata/regressions/wrapper_locals_in_a_cycle.cu");
    let found = sites(source);
    let fill: Vec<_> = found.iter().filter(|s| s.kernel == "fill").collect();
    assert_eq!(fill.len(), 1, "{found:?}");
    assert_eq!(fill[0].grid[0], GridAxis::Unknown);
}

#[test]
fn a_grid_component_assigned_again_in_a_loop_leaves_the_others_known() {
    let source = "void f(float* p, int n) {
        dim3 grid(n / 256, 240);
        for (int i = 0; i < 3; i++) {
            grid.y /= 3;
            k<<<grid, 256>>>(p, n);
        }
    }";
    assert_eq!(
        grid_of(source),
        [GridAxis::Exact, GridAxis::Unknown, GridAxis::Exact]
    );
}

#[test]
fn a_block_count_kept_in_a_member_is_what_its_assignments_give() {
    let settings = |init: &str, launch: &str| {
        format!(
            "struct Set {{ int n; int gridDim; int blockDim;\n\
             void init(int sites) {{ n = sites; blockDim = 64; {init} }} }};\n\
             __global__ void k(float* p, int n);\n\
             void f(float* p, Set* set_ptr, Set& set) {{ {launch} }}"
        )
    };
    let arrow = "k<<<set_ptr->gridDim, set_ptr->blockDim>>>(p, set_ptr->n);";
    let dot = "k<<<set.gridDim, set.blockDim>>>(p, set.n);";
    // a floor division leaves no thread over
    assert_eq!(
        grid_of(&settings("gridDim = n / 64;", arrow))[0],
        GridAxis::Exact
    );
    // rounded up from a member: the launch's object holds that member
    assert_eq!(
        grid_of(&settings("gridDim = (n + 63) / 64;", arrow))[0],
        rounded("set_ptr->n")
    );
    assert_eq!(
        grid_of(&settings("gridDim = (n + 63) / 64;", dot))[0],
        rounded("set.n")
    );
    // any assignment may be the one the object holds; an update reads what it held
    assert_eq!(
        grid_of(&settings(
            "gridDim = n / 64; if (n % 64) gridDim = gridDim + 1;",
            arrow
        ))[0],
        GridAxis::Unknown
    );
    assert_eq!(
        grid_of(&settings("gridDim = n / 64; gridDim += 1;", arrow))[0],
        GridAxis::Unknown
    );
    // assigned from outside the class, through an object
    let outside = "struct Set { int n; int blocks; };\n\
        __global__ void k(float* p, int n);\n\
        void setup(Set* s, int n) { s->n = n; s->blocks = n / 128; }\n\
        void f(float* p, Set* s) { k<<<s->blocks, 128>>>(p, s->n); }";
    assert_eq!(grid_of(outside)[0], GridAxis::Exact);
    // a member no visible code assigns is a count computed where it cannot be seen
    let unseen = "struct Set { int n; int blocks; };\n\
        __global__ void k(float* p, int n);\n\
        void f(float* p, Set* s) { k<<<s->blocks, 128>>>(p, s->n); }";
    assert_eq!(grid_of(unseen)[0], GridAxis::Unknown);
    // a local of a method, not a member, is not read as one
    let local = "struct Set { int n; int blocks;\n\
        void g() { int blocks = (n + 127) / 128; use(blocks); } };\n\
        __global__ void k(float* p, int n);\n\
        void f(float* p, Set* s) { k<<<s->blocks, 128>>>(p, s->n); }";
    assert_eq!(grid_of(local)[0], GridAxis::Unknown);
}

#[test]
fn a_remainder_test_on_an_extent_the_block_divides_picks_the_floor() {
    let found = sites(
        "__global__ void k(float* p, int n);\n\
         void run(float* p, int nx, int ny, int pitch, int c) {\n\
           int nzp = pitch / 4;\n\
           int tpb = nzp;\n\
           int n = nx * ny * nzp;\n\
           k<<<n % tpb == 0 ? n / tpb : n / tpb + 1, tpb>>>(p, n);\n\
           k<<<(n + tpb - 1) / tpb, tpb>>>(p, n);\n\
           int m = nx * (nzp + 1);\n\
           k<<<m % tpb == 0 ? m / tpb : m / tpb + 1, tpb>>>(p, m);\n\
           int planes = 4 * 512 * c;\n\
           k<<<planes % 512 ? planes / 512 + 1 : planes / 512, 512>>>(p, planes);\n\
           int rows = 3 * 100 * c;\n\
           k<<<!(rows % 512) ? rows / 512 : rows / 512 + 1, 512>>>(p, rows);\n\
         }",
    );
    assert_eq!(found[0].grid[0], GridAxis::Exact);
    assert_eq!(found[1].grid[0], GridAxis::Exact);
    assert_eq!(found[2].grid[0], GridAxis::RoundedUp("m".to_string()));
    assert_eq!(found[3].grid[0], GridAxis::Exact);
    assert_eq!(found[4].grid[0], GridAxis::RoundedUp("rows".to_string()));
}

#[test]
fn a_file_scope_dim3_no_function_changes_is_its_declaration() {
    let source = "const int N = 1024, TILE = 32;
    dim3 blocksPerGrid(N / TILE, N / TILE);
    dim3 threadsPerBlock(TILE, TILE);
    dim3 tuned(N / 100 + 1);
    dim3 rounded(N / 100 + 1);
    void f(double* c) {
        k<<<blocksPerGrid, threadsPerBlock>>>(c, N);
        k<<<tuned, threadsPerBlock>>>(c, N);
        k<<<rounded, threadsPerBlock>>>(c, N);
    }
    void tune(int blocks) { tuned.x = blocks; }";
    let found = sites(source);
    assert_eq!(found.len(), 3, "{found:?}");
    assert_eq!(found[0].grid[0], GridAxis::Exact);
    assert_eq!(found[0].grid[1], GridAxis::Exact);
    assert_eq!(found[0].block[0], Some(32));
    assert_eq!(found[2].grid[0], GridAxis::RoundedUp("N".to_string()));
    // a grid some function assigns is not what its declaration says
    assert_ne!(found[1].grid[0], found[2].grid[0]);
}

/// `cudaLaunchKernel` and `cudaLaunchCooperativeKernel` take the kernel's arguments as an array
/// of their addresses: a local array of `&x` (cast or not) names them in order.
#[test]
fn an_array_of_argument_addresses_names_the_kernel_arguments() {
    let source = "void run(const float* d_in, unsigned n, int blocks) {
        float* d_part; cudaMalloc(&d_part, sizeof(float) * 256 * blocks);
        void* args[] = {(void*)&d_in, (void*)&d_part, &n};
        cudaLaunchCooperativeKernel((void*)sums<256>, blocks, 256, args, 0, 0);
        void* opaque[] = {make(), &n};
        cudaLaunchKernel((void*)sums<256>, blocks, 256, opaque, 0, 0);
    }";
    let found = sites(source);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].arity, Some(3));
    assert_eq!(found[0].arguments, ["d_in", "d_part", "n"]);
    assert_eq!(
        found[0].per_thread_elements[1],
        Some(("float".to_string(), 1))
    );
    // an element that is no address: the arguments stay unknown
    assert_eq!(found[1].arity, None);
    // HIP's cooperative launch, alone in its function, is a launch too
    let hip = "void run(const float* d_in, unsigned n, int blocks) {
        void* args[] = {(void*)&d_in, &n};
        hipLaunchCooperativeKernel((void*)sums<256>, blocks, 256, args, 0, 0);
    }";
    let found = sites(hip);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].arguments, ["d_in", "n"]);
}

/// `DISPATCH_BY_DTYPE(dtype, CALL_CACHE)`: a launch macro handed by name to a dispatch macro
/// defined elsewhere launches with the launcher's grid and block.
#[test]
fn a_launch_macro_handed_to_a_dispatch_macro_launches_with_the_launchers_shape() {
    let source = "#define CALL_CACHE(T, C) cache_k<T, C><<<grid, block, 0, stream>>>(src, dst, n);
    void launch(const void* src, void* dst, int n, int dtype, cudaStream_t stream) {
        dim3 grid(n);
        dim3 block(96);
        DISPATCH_BY_DTYPE(dtype, CALL_CACHE);
    }
    void unrelated(int n) { OTHER_MACRO(n, CALL_CACHE_NOT); }";
    let found = sites(source);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].kernel, "cache_k");
    assert_eq!(found[0].block, [Some(96), Some(1), Some(1)]);
    assert_eq!(found[0].grid[0], GridAxis::Exact);
}

#[test]
fn a_grid_rounded_up_over_blocks_one_thread_deep_is_exact() {
    let found = sites(
        "void f(float* p, int n, int m) { dim3 block(128, 1); dim3 grid((n + 127) / 128, ceil(double(m) / double(block.y))); k<<<grid, block>>>(p, n); }",
    );
    assert_eq!(found[0].grid[0], rounded("n"));
    assert_eq!(found[0].grid[1], GridAxis::Exact);
    // the block's depth written again before the launch: the value that reaches it counts
    let found = sites(
        "void f(float* p, int n, int m) { int ty = 1; dim3 block(128, ty); k<<<dim3(1, (m + ty - 1) / ty), block>>>(p, n); ty = 4; block.y = ty; k<<<dim3(1, (m + ty - 1) / ty), block>>>(p, n); }",
    );
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].block[1], Some(1));
    assert_eq!(found[0].grid[1], GridAxis::Exact);
    assert_eq!(found[1].block[1], Some(4));
    assert_eq!(found[1].grid[1], rounded("m"));
}

#[test]
fn a_grid_read_from_an_input_array_is_the_dimension_it_holds() {
    // a MEX gateway's parameters: the entries are problem sizes, whole
    let found = sites(
        "void f(const mxArray* in, float* p) { const double* Params = (const double*) mxGetData(in); unsigned int rows = (unsigned int) Params[1]; k<<<rows, 256>>>(p, rows); }",
    );
    assert_eq!(found[0].grid[0], GridAxis::Exact);
    // a table of block counts another function computed is no dimension
    let found = sites(
        "void f(float* p, int n) { int* blocks = blocks_for(n); k<<<blocks[0], 256>>>(p, n); }",
    );
    assert_eq!(found[0].grid[0], GridAxis::Unknown);
}

#[test]
fn work_a_multiple_of_the_block_component_makes_the_rounded_grid_exact() {
    // the block's `x` read through the `dim3` it was declared with, and a factor that is no
    // product (`n2 - 2`) read as itself
    let found = sites(
        "void f(float* p, int n1, int n2, int cfg) { int tpb = n1 > cfg ? cfg : n1; int work = (n2 - 2) * tpb; dim3 block(tpb, 1, 1); dim3 grid(ceil(double(work) / double(block.x)), 1, 1); k<<<grid, block>>>(p, work); }",
    );
    assert_eq!(found[0].grid[0], GridAxis::Exact);
    // a factor whose names are assigned again may not mean at the launch what it meant in the
    // product: `t - 1` there is not `t - 1` here
    let found = sites(
        "void f(float* p, int n, int cfg, bool wide) { int t = cfg; int work = (t - 1) * n; if (wide) t = 2 * cfg; k<<<ceil(double(work) / double(t - 1)), t - 1>>>(p, work); }",
    );
    assert_eq!(found[0].grid[0], rounded("work"));
    // sizes with a default the command line may replace, every write before the reads: the
    // product and the block read the same value, whichever it is
    let found = sites(
        "int main(int argc, char** argv) { int nblock = 2048; int nthread = 512; if (argc > 1) nblock = atoi(argv[1]); if (argc > 2) nthread = atoi(argv[2]); int size = nblock * nthread; dim3 block(nthread, 1); dim3 grid((size + block.x - 1) / block.x, 1); k<<<grid, block>>>(p, size); }",
    );
    assert_eq!(found[0].grid[0], GridAxis::Exact);
    // written again between the product and the block: not the same value
    let found = sites(
        "int main(int argc, char** argv) { int nthread = 512; int size = 2048 * nthread; if (argc > 2) nthread = atoi(argv[2]); dim3 block(nthread, 1); dim3 grid((size + block.x - 1) / block.x, 1); k<<<grid, block>>>(p, size); }",
    );
    assert_eq!(found[0].grid[0], rounded("size"));
}

/// A name spelled as a macro that the file never writes comes from a header (NAS Parallel
/// Benchmarks' `npbparams.h`, generated by the build): it is as fixed as the file's own macros.
#[test]
fn a_set_once_size_may_read_a_macro_of_a_header_not_in_sight() {
    let source = "int blocks_per_grid;
    int blocks_scaled;
    int SCALE;
    void setup() {
        blocks_per_grid = NA;
        SCALE = 2;
        blocks_scaled = NA * SCALE;
    }
    void rescale() { SCALE = 3; }
    void run(float* p) {
        k<<<blocks_per_grid, 128>>>(p);
        k<<<blocks_scaled, 128>>>(p);
    }";
    let found = sites(source);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].grid[0], GridAxis::Exact);
    // `SCALE` is spelled as a macro but written, twice: no fixed value
    assert_eq!(found[1].grid[0], GridAxis::Unknown);
}

#[test]
fn a_dim3_declared_in_a_loop_body_starts_each_trip_with_its_shape() {
    // reassigned after the first launch: that value does not reach round the loop past the
    // declaration
    let source = "void f(int* h, float* img, int w, int n) { for (int j = 0; j < n; j++) { dim3 block(256); dim3 grid(32); k<<<grid, block>>>(h); block = dim3(16, 16); grid = dim3((w + 15) / 16, (w + 15) / 16); g<<<grid, block>>>(img, w); } }";
    let found = sites(source);
    assert_eq!(found[0].grid[0], GridAxis::Exact);
    assert_eq!(found[0].block[0], Some(256));
    assert_eq!(found[1].grid[0], rounded("w"));
}

#[test]
fn locals_handed_to_a_non_const_reference_hold_what_the_call_left() {
    let source = "__global__ void k(int* q) { extern __shared__ int s[]; q[threadIdx.x] = s[0]; }
void pick(unsigned& blocks, unsigned& threads, unsigned& bytes) { blocks = 8; threads = 64; bytes = 12; }
void show(const unsigned& blocks, const unsigned& threads, const unsigned& bytes) {}
void run(int* q) {
    unsigned blocks = 1, threads = 32, bytes = 0;
    pick(blocks, threads, bytes);
    k<<<blocks, threads, bytes>>>(q);
}
";
    let found = sites(source);
    assert_eq!(found.len(), 1, "{found:?}");
    // the declared values no longer reach the launch
    assert_eq!(found[0].block[0], None);
    assert_eq!(found[0].shared_bytes, SharedBytes::Unknown);
    // a `const` reference only reads them
    let read_only = sites(&source.replace("pick(blocks", "show(blocks"));
    assert_eq!(read_only.len(), 1, "{read_only:?}");
    assert_eq!(read_only[0].block[0], Some(32));
    assert_eq!(read_only[0].shared_bytes, SharedBytes::Known(Vec::new()));
}
