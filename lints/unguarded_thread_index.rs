use super::support::{likely_bound_parameter, snippet, verb};
use crate::diagnostic::{Edit, Fix};
use crate::lint::LintContext;
use crate::model::launch::{Axes, GridAxis, LaunchSite, AXIS_NAMES};
use crate::model::{AccessKind, IndexStatus, Model};
use crate::syntax::NodeExt;

crate::declare_lint!(
    UNGUARDED_THREAD_INDEX,
    "unguarded-thread-index",
    Kernel,
    Warning,
    "global-memory access at a thread index that no `i < n` guard bounds",
    check,
    verifiable = true
);

/// One finding per unguarded index in a kernel: the first access, with the others as labels,
/// since a single guard fixes them all.
fn check(model: &Model, cx: &mut LintContext) {
    for (kernel, facts) in model.kernel_facts() {
        for access in &facts.shared_unguarded {
            shared_unguarded(model, cx, kernel, facts, access);
        }
        let mut groups: Vec<(String, Vec<&crate::model::Access>)> = Vec::new();
        for access in &facts.accesses {
            let IndexStatus::Unguarded { leaf, .. } = &access.status else {
                continue;
            };
            let key = model.text(*leaf).split_whitespace().collect::<String>();
            match groups.iter_mut().find(|(k, _)| *k == key) {
                // a helper that indexes twice: one access at the call, labelled at each
                Some((_, members)) if members.iter().any(|m| m.node == access.node) => {}
                Some((_, members)) => members.push(access),
                None => groups.push((key, vec![access])),
            }
        }
        // with several unguarded variables in one kernel (a row and a column), no size
        // parameter can be paired with one by its name alone
        let one_variable = groups.len() == 1;
        for (_, members) in groups {
            let access = members[0];
            let IndexStatus::Unguarded {
                leaf,
                declaration,
                axes,
                scaled,
                ..
            } = &access.status
            else {
                continue;
            };
            let leaf_text = snippet(model, *leaf);
            let others = &members[1..];
            let more = match others.len() {
                0 => String::new(),
                1 => format!(
                    " (1 more access through `{leaf_text}` in `{}` is unguarded too)",
                    kernel.name
                ),
                n => format!(
                    " ({n} more accesses through `{leaf_text}` in `{}` are unguarded too)",
                    kernel.name
                ),
            };
            let through = access
                .via
                .as_ref()
                .map(|via| format!(" through `{}`", via.helper))
                .unwrap_or_default();
            let mut diagnostic = cx.diagnostic(
                access.node.byte_range(),
                format!(
                    "`{}` {} `{}`{through} at an index derived from the global thread index that no guard bounds; threads past the end of the buffer access memory out of bounds{more}",
                    snippet(model, access.node),
                    verb(access),
                    access.pointer
                ),
            );
            let sites = facts
                .accesses
                .iter()
                .filter(|a| {
                    a.node == access.node && matches!(a.status, IndexStatus::Unguarded { .. })
                })
                .filter_map(|a| a.via.as_ref());
            for via in sites {
                match (&via.span, &via.file) {
                    (Some(span), _) => {
                        diagnostic = diagnostic.with_label(
                            span.clone(),
                            format!(
                                "`{}` indexes `{}` here",
                                via.site.function, via.site.pointer
                            ),
                        );
                    }
                    (None, Some(file)) => {
                        diagnostic.message.push_str(&format!(
                            "; `{}` (in {}) indexes `{}` with it",
                            via.site.function,
                            file.display(),
                            via.site.pointer
                        ));
                    }
                    (None, None) => {}
                }
            }
            for other in others.iter().take(3) {
                diagnostic = diagnostic.with_label(other.node.byte_range(), "also unguarded");
            }
            if let Some(declaration) = declaration {
                diagnostic = diagnostic.with_label(
                    declaration.byte_range(),
                    format!("`{leaf_text}` is computed from the thread index here"),
                );
            } else {
                diagnostic = diagnostic.with_label(
                    leaf.byte_range(),
                    format!("`{leaf_text}` spans the whole grid"),
                );
            }
            // one test per unguarded variable of the index, each against the bound its launches name
            let mut tests: Vec<(String, Option<String>)> = Vec::new();
            let mut elsewhere: Vec<(String, bool)> = Vec::new();
            let mut labelled: Vec<std::ops::Range<usize>> = Vec::new();
            // the other unguarded variables of every access of the group: one guard for them all
            let mut variables: Vec<(tree_sitter::Node, Axes)> = vec![(*leaf, *axes)];
            for member in &members {
                if let IndexStatus::Unguarded { also, .. } = &member.status {
                    for (variable, axes) in also {
                        if !variables
                            .iter()
                            .any(|(v, _)| model.text(*v) == model.text(*variable))
                        {
                            variables.push((*variable, *axes));
                        }
                    }
                }
            }
            let several = variables.len() > 1;
            let mut from_launch = true;
            for (variable, axes) in variables {
                let launches = facts.launch_bound(kernel, axes);
                // a launch whose buffer holds the access is no launch to name
                let holds_it = |launch: &LaunchSite| {
                    access.launches_holding_it.iter().any(|&at| {
                        facts
                            .launches
                            .get(at)
                            .is_some_and(|held| std::ptr::eq(held, launch))
                    })
                };
                for launch in launches.unsafe_launches.iter().filter(|l| !holds_it(l)) {
                    if launch.path != model.path {
                        let rounded = axes
                            .iter()
                            .any(|axis| matches!(launch.grid[axis], GridAxis::RoundedUp(_)));
                        elsewhere.push((launch.location(), rounded));
                    } else if !labelled.contains(&launch.span) && labelled.len() < 2 {
                        labelled.push(launch.span.clone());
                        diagnostic =
                            diagnostic.with_label(launch.span.clone(), launch_label(launch, axes));
                    }
                }
                // a bound guessed from the kernel's parameters is offered, not applied unasked
                from_launch &= launches.parameter.is_some();
                // `n * tid` runs to `n` times the launch's extent: that extent is no bound of it
                let scaled = scaled.iter().any(|s| s.id() == variable.id());
                from_launch &= !scaled;
                let bound = match launches.parameter {
                    _ if scaled => None,
                    Some(parameter) => Some(parameter.name.clone()),
                    // a tensor accessor's subscript: the extent of the dimension it indexes
                    None if accessor_extent(model, kernel, &members, variable).is_some() => {
                        accessor_extent(model, kernel, &members, variable)
                    }
                    // no launch in sight: a one-dimensional index and the kernel's one size
                    None if facts.launches.is_empty()
                        && one_variable
                        && !several
                        && axes.iter().all(|axis| axis == 0) =>
                    {
                        likely_bound_parameter(kernel).map(|p| p.name.clone())
                    }
                    None => None,
                };
                tests.push((snippet(model, variable), bound));
            }
            let known = tests.iter().all(|(_, bound)| bound.is_some());
            let condition = tests
                .iter()
                .map(|(variable, bound)| {
                    format!(
                        "{variable} < {}",
                        bound.as_deref().unwrap_or("<its extent>")
                    )
                })
                .collect::<Vec<_>>()
                .join(" && ");
            elsewhere.sort();
            elsewhere.dedup();
            // threads past the extent are named only where a launch's grid is rounded up
            let past = match elsewhere.iter().any(|(_, rounded)| *rounded) {
                true => " with threads past it",
                false => "",
            };
            let launched = match elsewhere.as_slice() {
                [] => String::new(),
                [(one, _)] => format!(" (the kernel is launched at {one}{past})"),
                [(first, _), ..] => format!(
                    " (the kernel is launched at {first} and {} more places{past})",
                    elsewhere.len() - 1
                ),
            };
            diagnostic = diagnostic.with_help(if known {
                format!("guard the access with `if ({condition})`{launched}")
            } else {
                format!(
                    "guard the access with `if ({condition})`, testing each index against the extent it covers{launched}"
                )
            });
            if let (true, Some(statement)) = (known, access.statement) {
                if statement.node_kind() == "expression_statement"
                    && leaf.node_kind() == "identifier"
                {
                    let body = model.text(statement);
                    diagnostic = diagnostic.with_fix(Fix {
                        title: format!("wrap in `if ({condition})`"),
                        edits: vec![Edit {
                            span: statement.byte_range(),
                            replacement: format!("if ({condition}) {{ {body} }}"),
                        }],
                        safe: from_launch,
                    });
                }
            }
            cx.report(diagnostic);
        }
    }
}

/// An `extern __shared__` array indexed by the global thread index: each block has its own
/// copy, as large as the launch's byte count, and the index passes it in every block but the
/// first.
fn shared_unguarded(
    model: &Model,
    cx: &mut LintContext,
    kernel: &crate::model::Function,
    facts: &crate::model::KernelFacts,
    access: &crate::model::kernel::SharedUnguarded,
) {
    let access_text = snippet(model, access.node);
    let leaf_text = snippet(model, access.leaf);
    let verb = match access.kind {
        AccessKind::Read => "reads",
        AccessKind::Write => "writes",
        AccessKind::ReadWrite => "updates",
    };
    let given = |bytes: &str| match bytes {
        "no" => "no dynamic shared memory".to_string(),
        bytes => format!("`{bytes}` bytes of dynamic shared memory"),
    };
    let mut diagnostic = cx
        .diagnostic(
            access.node.byte_range(),
            format!(
                "`{access_text}` {verb} the `extern __shared__` array `{}` at an index derived from the global thread index that {}; each block of `{}` has its own copy, as large as its launch gives, so the threads of later blocks index past it",
                access.array,
                if access.guarded_in_grid {
                    "only a guard on its place in the whole grid bounds"
                } else {
                    "no guard bounds"
                },
                kernel.name
            ),
        )
        .with_label(
            access.declaration.byte_range(),
            format!(
                "`{}` holds what the launch's byte count gives one block",
                access.array
            ),
        );
    diagnostic = match access.leaf_declaration {
        Some(declaration) => diagnostic.with_label(
            declaration.byte_range(),
            format!("`{leaf_text}` is computed from the thread index here"),
        ),
        None => diagnostic.with_label(
            access.leaf.byte_range(),
            format!("`{leaf_text}` spans the whole grid"),
        ),
    };
    let mut labelled = 0;
    let mut elsewhere = Vec::new();
    for launch in &access.launches {
        let Some(site) = facts.launches.get(launch.launch) else {
            continue;
        };
        if site.path != model.path {
            elsewhere.push(site.location());
        } else if labelled < 2 {
            labelled += 1;
            diagnostic = diagnostic.with_label(
                site.span.clone(),
                format!("launched here with {}", given(&launch.bytes)),
            );
        }
    }
    if !elsewhere.is_empty() {
        elsewhere.sort();
        elsewhere.dedup();
        diagnostic
            .message
            .push_str(&format!(" (launched at {})", elsewhere.join(", ")));
    }
    cx.report(diagnostic.with_help(
        "index the shared array with the thread's position in its block (`threadIdx.x`), or bound the index by what the launch gives",
    ));
}

/// What a launch that leaves threads past the problem does on the index's axes.
fn launch_label(launch: &LaunchSite, axes: Axes) -> String {
    let rounded = axes.iter().find_map(|axis| match &launch.grid[axis] {
        GridAxis::RoundedUp(total) => Some((axis, total)),
        _ => None,
    });
    match rounded {
        Some((axis, total)) => format!(
            "launched here with the grid's `{}` rounded up from `{total}`: threads past `{total}` run this access",
            AXIS_NAMES[axis]
        ),
        None => "launched here with a grid computed where it cannot be seen".to_string(),
    }
}

/// `acc.size(d)` when `variable` is itself the subscript of dimension `d` of a tensor accessor
/// parameter in one of the group's accesses (`acc[n][c][h][w]` with `variable` = `w`: `acc.size(3)`).
fn accessor_extent(
    model: &Model,
    kernel: &crate::model::Function,
    members: &[&crate::model::kernel::Access],
    variable: tree_sitter::Node,
) -> Option<String> {
    let name = model.text(variable);
    members.iter().find_map(|access| {
        let parameter = kernel.parameters.get(access.parameter_index)?;
        if !parameter.is_tensor_accessor()
            || access.via.is_some()
            || model.text(crate::syntax::strip(access.index, model.source)) != name
        {
            return None;
        }
        let mut dimension = 0;
        let mut base = access.node.field("argument")?;
        while base.node_kind() == "subscript_expression" && dimension < 16 {
            base = base.field("argument")?;
            dimension += 1;
        }
        Some(format!("{}.size({dimension})", parameter.name))
    })
}

#[cfg(test)]
mod tests {
    use super::UNGUARDED_THREAD_INDEX;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &UNGUARDED_THREAD_INDEX,
            &[
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = 1; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; o[i] = 1; }",
                "__global__ void k(float* o, int n) { for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) o[i] = 1; }",
                "__global__ void k(float* c, int M, int N) { int r = blockIdx.y * blockDim.y + threadIdx.y; int col = blockIdx.x * blockDim.x + threadIdx.x; if (r < M && col < N) c[r * N + col] = 0; }",
                "__global__ void k(float* c, int R, int C) { int r = blockIdx.y * blockDim.y + threadIdx.y; int q = blockIdx.x * blockDim.x + threadIdx.x; if (r >= R || q >= C) return; c[r * C + q] = 0; }",
                "__global__ void k(float* o, const float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i + 1 < n) o[i + 1] = a[i]; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i % n] = 1; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[min(i, n - 1)] = 1; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i & 1023] = 1; }",
                "__global__ void k(float* partial) { partial[blockIdx.x] = 0; }",
                "__global__ void k(float* o) { o[threadIdx.x] = 0; }",
                "__global__ void k(float* o, const float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; float v = i < n ? a[i] : 0.0f; o[i < n ? i : n - 1] = v; }",
                "__global__ void k(float* o, int n) { size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; if (i < (size_t)n) { o[i] = 2; } }",
                "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(float* o, int n) { auto g = cg::this_grid(); for (int i = g.thread_rank(); i < n; i += g.size()) o[i] = 0; }",
                "__global__ void k(int* flags, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n && flags[i]) flags[i] = 0; }",
                // a per-block base plus a guarded per-thread offset
                "__global__ void k(const double* paths, int num_paths) { int offset = blockIdx.x * num_paths; for (int path = threadIdx.x; path < num_paths; path += 256) { double s = paths[offset + path]; (void)s; } }",
                // an index stepped by a uniform amount inside a bounded loop
                "__global__ void k(float* out, int n, int plane) { for (int it = blockIdx.x * blockDim.x + threadIdx.x; it < n; it += blockDim.x * gridDim.x) { int o = it; for (int c = 0; c < 4; c++) { out[o] = 1; o += plane; } } }",
                // a guard on the row derived from the index by division
                "__global__ void k(int* m, int upper) { int idx = blockIdx.x * blockDim.x + threadIdx.x; int i = idx / upper; if (i < upper) m[idx] = 0; }",
                // `remaining = n - index` compared with the vector width
                "__global__ void k(const float* a, int n) { int index = (blockIdx.x * blockDim.x + threadIdx.x) * 4; int remaining = n - index; if (remaining < 4) return; float v = a[index]; (void)v; }",
                // a value computed under a guard keeps its bound after the branch
                "__global__ void k(const int* v, int* o, int len) { int s = blockIdx.x * blockDim.x + threadIdx.x; int t = 0; if (s < len) t = s; o[0] = v[t]; }",
                // the guarded part of a sum plus a per-block segment base
                "__global__ void k(const float* key, float* o, int segs) { int k = blockIdx.x * 2048; int lane = threadIdx.x % 32; int warp = threadIdx.x / 32; float r = (lane + (warp << 7) < segs) ? key[k + lane + (warp << 7)] : 0.0f; o[0] = r; }",
                // the guard repeats the index's definition
                "__global__ void k(int* out, int sz) { int id = blockIdx.x * blockDim.x + threadIdx.x; if (blockIdx.x * blockDim.x + threadIdx.x >= sz) return; out[id] = 1; }",
                // `__umul24` arithmetic on guarded coordinates
                "__global__ void k(unsigned* out, unsigned w, unsigned h) { unsigned x = __umul24(blockIdx.x, blockDim.x) + threadIdx.x; unsigned y = __umul24(blockIdx.y, blockDim.y) + threadIdx.y; if (x < w && y < h) { unsigned i = __umul24(y, w) + x; out[i] = 0; } }",
                // a range-check macro used as the guard
                "#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))\n__global__ void k(const int* src, int* dst, int cols) { int x = blockIdx.x * blockDim.x + threadIdx.x; if (IN_RANGE(x, 0, cols - 1)) dst[x] = src[x]; }",
                // a reused loop variable name: the second loop is uniform
                "__global__ void k(long* c, int n) { __shared__ long s[32]; long sum = 0; for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x) sum += c[i]; for (int i = 16; i > 0; i /= 2) { c[i] = sum; } }",
                // an offset stepped alongside a guarded counter, set again for a later loop
                "__global__ void k(float4* v, int group_size) { int id = threadIdx.x; int g = blockIdx.x * group_size + id; while (id < group_size) { float4 d = v[g]; v[g] = d; g += blockDim.x; id += blockDim.x; } id = threadIdx.x; for (int i = 0; i < 4; i++) { g = i * blockDim.x + id; if (g < group_size) v[g + blockIdx.x * group_size] = v[0]; } }\nvoid run(float4* v, int groups, int size) { k<<<groups, 1024>>>(v, size); }",
                // bound tests kept in flags
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; const bool valid = i < n; if (valid) o[i] = 1; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; const bool valid = i < n; if (!valid) return; o[i] = 1; }",
                "__global__ void k(float* o, const float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; bool valid = i < n; o[valid ? i : 0] = valid ? a[i] : 0.0f; }",
                "__global__ void k(float* m, int R, int C, int pass) { int r = blockIdx.y * blockDim.y + threadIdx.y; int c = blockIdx.x * blockDim.x + threadIdx.x; bool in = (r < R) && (c < C); if (in && pass > 0) m[r * C + c] = 0; }",
                // an index built by a helper from guarded coordinates
                "__device__ int flat(int r, int c, int w) { return r * w + c; }\n__global__ void k(float* m, int R, int C) { int r = blockIdx.y * blockDim.y + threadIdx.y; int c = blockIdx.x * blockDim.x + threadIdx.x; if (r < R && c < C) m[flat(r, c, C)] = 0; }",
                // a helper that bounds its result by construction
                "__device__ int wrap(int i, int n) { return i % n; }\n__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[wrap(i, n)] = 0; }",
                // a helper's access, guarded at the call or inside the helper
                "__device__ void put(float* p, int i, float v) { p[i] = v; }\n__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) put(o, i, 1.0f); }",
                "__device__ void put(float* p, int i, int n, float v) { if (i >= n) return; p[i] = v; }\n__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; put(o, i, n, 1.0f); }",
                // a helper indexing with a uniform argument
                "__device__ void put(float* p, int i, float v) { p[i] = v; }\n__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; put(o, 0, (float)i); }",
                // a helper storing through a pointer advanced under a guard, or per block
                "__device__ void set(float* p, float v) { *p = v; }\n__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) set(o + i, 1.0f); }",
                "__device__ void set(float* p, float v) { p[0] = v; }\n__global__ void k(float* o, int w) { float* row = o + blockIdx.x * w; set(row, 1.0f); }",
                "__device__ void set(float* p, float v) { *p = v; }\n__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) set(&o[i], 1.0f); }",
            ],
            &[
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = 1; }",
                "__global__ void k(float* o, const float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; float v = *(a + i); o[0] = v; }",
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; atomicAdd(&o[i], 1.0f); }",
                "__global__ void k(float* c, int M, int N) { int r = blockIdx.y * blockDim.y + threadIdx.y; int col = blockIdx.x * blockDim.x + threadIdx.x; if (r < M) c[r * N + col] = 0; }",
                "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(float* o, int n) { o[cg::this_grid().thread_rank()] = 0; }",
                "template <typename T> __global__ void k(T* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = T(0); }",
                // the flag's input changes after the test
                "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; bool valid = i < n; i += 4; if (valid) o[i] = 1; }",
                // indices built by helpers
                "__device__ int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }\n__global__ void k(float* o, int n) { o[gid()] = 1; }",
                // a helper storing through a pointer advanced by an unguarded index
                "__device__ void set(float* p, float v) { *p = v; }\n__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; set(o + i, 1.0f); }",
                "__device__ float get(const float* p) { return p[0]; }\n__global__ void k(const float* a, float* o, int w, int h) { int r = blockIdx.y * blockDim.y + threadIdx.y; int c = blockIdx.x * blockDim.x + threadIdx.x; if (c >= w) return; const float* row = a + r * w; o[0] = get(row + c); }",
                "__device__ int flat(int r, int c, int w) { return r * w + c; }\n__global__ void k(float* m, int R, int C) { int r = blockIdx.y * blockDim.y + threadIdx.y; int c = blockIdx.x * blockDim.x + threadIdx.x; int i = flat(r, c, C); m[i] = 0; }",
                // a helper's unguarded access at a thread index: found at the call
                "__device__ void put(float* p, int i, float v) { p[i] = v; }\n__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; put(o, i, 1.0f); }",
                "__device__ float get(const float* p, int r, int c, int w) { return p[r * w + c]; }\n__global__ void k(const float* m, float* o, int R, int C) { int r = blockIdx.y * blockDim.y + threadIdx.y; int c = blockIdx.x * blockDim.x + threadIdx.x; if (r < R) o[0] = get(m, r, c, C); }",
            ],
        );
    }

    /// The bound a guard must test comes from the launch: in a 2D matmul rows are bounded by
    /// `M` and columns by `N`, and the quick fix is offered only when both are known.
    #[test]
    fn the_help_names_the_bounds_the_launch_pairs_with_each_index() {
        let kernel = "__global__ void mm(const float* A, const float* B, float* C, int M, int N, int K) { int row = blockIdx.y * blockDim.y + threadIdx.y; int col = blockIdx.x * blockDim.x + threadIdx.x; float acc = 0; for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col]; C[row * N + col] = acc; }\n";
        let launched = format!("{kernel}void run(const float* A, const float* B, float* C, int M, int N, int K) {{ dim3 b(16, 16); dim3 g((N + 15) / 16, (M + 15) / 16); mm<<<g, b>>>(A, B, C, M, N, K); }}");
        let found = crate::testing::run_on_snippet(&UNGUARDED_THREAD_INDEX, &launched);
        let row = found
            .iter()
            .find(|d| d.message.starts_with("`A[row * K + k]`"))
            .unwrap_or_else(|| panic!("{found:?}"));
        assert_eq!(
            row.help.as_deref(),
            Some("guard the access with `if (row < M && col < N)`")
        );
        assert!(row
            .fix
            .as_ref()
            .is_some_and(|f| f.title == "wrap in `if (row < M && col < N)`" && f.safe));
        assert!(row
            .labels
            .iter()
            .any(|l| l.message.contains("rounded up from `M`")));
        // no launch in sight: the bounds are not known, so no name and no fix
        let alone = crate::testing::run_on_snippet(&UNGUARDED_THREAD_INDEX, kernel);
        assert!(!alone.is_empty());
        assert!(alone.iter().all(|d| d.fix.is_none()));
        assert!(alone
            .iter()
            .all(|d| !d.help.as_deref().unwrap_or("").contains("row < N")));
    }

    /// A thread index scaled by a size (`verts * tid`) runs past the count the launch pairs with
    /// the thread index: that count is no bound to name, and no fix is offered.
    #[test]
    fn a_scaled_thread_index_is_not_bounded_by_the_launch_count() {
        let code = "__global__ void copies(const float* base, float* out, int count, int verts) { size_t first = verts * 32 * blockIdx.x + verts * threadIdx.x; for (int v = 0; v < verts; v++) out[first + v] = base[v]; }\nvoid run(const float* base, float* out, int count, int verts) { copies<<<(count + 31) >> 5, 32>>>(base, out, count, verts); }";
        let found = crate::testing::run_on_snippet(&UNGUARDED_THREAD_INDEX, code);
        let [finding] = found.as_slice() else {
            panic!("{found:?}")
        };
        assert!(
            finding
                .help
                .as_deref()
                .is_some_and(|h| h.contains("first < <its extent>")),
            "{:?}",
            finding.help
        );
        assert!(finding.fix.is_none());
        // the unscaled index keeps the count its launch pairs with it
        let unscaled = code.replace(
            "verts * 32 * blockIdx.x + verts * threadIdx.x",
            "32 * blockIdx.x + threadIdx.x",
        );
        let found = crate::testing::run_on_snippet(&UNGUARDED_THREAD_INDEX, &unscaled);
        assert!(
            found.iter().any(|d| d
                .help
                .as_deref()
                .is_some_and(|h| h.starts_with("guard the access with `if (first < count)`"))),
            "{found:?}"
        );
    }

    /// With no launch in sight, the kernel's lone integer parameter is offered as the bound only
    /// where no structure passed by value may carry the sizes instead.
    #[test]
    fn a_lone_integer_beside_a_structure_of_sizes_is_no_bound() {
        let help = |kernel: &str| {
            crate::testing::run_on_snippet(&UNGUARDED_THREAD_INDEX, kernel)
                .into_iter()
                .filter_map(|d| d.help)
                .collect::<Vec<_>>()
        };
        let lone = "__global__ void scale(float* p, int count) { int i = blockIdx.x * blockDim.x + threadIdx.x; p[i] *= 2.0f; }";
        assert_eq!(help(lone), ["guard the access with `if (i < count)`"]);
        let flag = "struct N3 { int x, y, z; };\n__global__ void cpml(N3 N, float* psi, int backward) { int i = blockIdx.x * blockDim.x + threadIdx.x; psi[i] = psi[i + backward * N.z]; }";
        assert!(
            help(flag).iter().all(|h| !h.contains("backward")),
            "{:?}",
            help(flag)
        );
    }
}
