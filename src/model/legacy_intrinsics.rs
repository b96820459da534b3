//! Calls of the warp intrinsics without a mask (`__shfl_down`, `__ballot`, ...) in device code:
//! deprecated by CUDA 9 and not available when compiling for compute capability 7.0 or later.
//!
//! A call is not one when the file gives the name its own meaning (a `__device__` overload for
//! `float4`, a `#define __shfl_down(v, d) __shfl_down_sync(...)` shim), when the code is HIP
//! (where these are the warp intrinsics), or when it sits in a preprocessor branch chosen by the
//! CUDA version or by a HIP build (`#if CUDA_VERSION < 9000`, `#ifdef MMCV_WITH_HIP`): the view
//! keeps the first branch of a condition it cannot decide, which there is the old toolkit's.

use super::{FunctionKind, Model};
use crate::syntax::{self, named_children, NodeExt};
use tree_sitter::Node;

/// One call of a warp intrinsic without `_sync`.
#[derive(Debug, Clone)]
pub struct LegacyCall<'t> {
    pub node: Node<'t>,
    pub name: &'t str,
    /// The call's arguments as written.
    pub arguments: Vec<&'t str>,
}

impl LegacyCall<'_> {
    /// The intrinsic that replaces it (`__shfl_down_sync`).
    pub fn replacement(&self) -> String {
        format!("{}_sync", self.name)
    }
}

/// The legacy warp intrinsics, with the number of arguments each takes (without and with its
/// optional `width`).
fn arities(name: &str) -> Option<(usize, usize)> {
    match name {
        "__shfl" | "__shfl_up" | "__shfl_down" | "__shfl_xor" => Some((2, 3)),
        "__any" | "__all" | "__ballot" => Some((1, 1)),
        _ => None,
    }
}

/// Every call of a legacy warp intrinsic in the file's device code.
pub fn legacy_calls<'t>(model: &Model<'t>) -> Vec<LegacyCall<'t>> {
    let mut calls = Vec::new();
    let source = model.source;
    if is_hip(source) {
        return calls;
    }
    let mut regions: Option<Vec<Region>> = None;
    for function in &model.functions {
        if function.kind == FunctionKind::Host {
            continue;
        }
        // a call names the intrinsic in the text: a body that names none needs no walk
        let body = source.get(function.body.byte_range()).unwrap_or("");
        if !["__shfl", "__any", "__all", "__ballot"]
            .iter()
            .any(|name| body.contains(name))
        {
            continue;
        }
        syntax::walk_iterative(function.body, |node| {
            if node.node_kind() != "call_expression" {
                return true;
            }
            let Some(callee) = node.field("function") else {
                return true;
            };
            if callee.node_kind() != "identifier" {
                return true;
            }
            let name = model.text(callee);
            let Some((fewest, most)) = arities(name) else {
                return true;
            };
            let arguments: Vec<&'t str> = node
                .field("arguments")
                .map(|a| {
                    named_children(a)
                        .filter(|c| c.node_kind() != "comment")
                        .map(|c| model.text(c))
                        .collect()
                })
                .unwrap_or_default();
            if arguments.len() < fewest || arguments.len() > most || user_defined(model, name) {
                return true;
            }
            let regions = regions.get_or_insert_with(|| conditional_regions(source));
            if chosen_by_toolkit(regions, node.start_byte()) {
                return true;
            }
            calls.push(LegacyCall {
                node,
                name,
                arguments,
            });
            true
        });
    }
    calls.sort_by_key(|c| c.node.start_byte());
    calls.dedup_by_key(|c| c.node.id());
    calls
}

/// Whether the file's legacy warp intrinsics are judged at all (it shows it is CUDA): a fact of
/// the whole text, so an editor's reuse of unchanged functions keys on it.
pub fn judges(source: &str) -> bool {
    !is_hip(source)
}

/// Whether the file is not known to be CUDA: HIP (there `__shfl_down` and `__ballot` are the
/// warp intrinsics: `hip/` headers, `hipcub`, a `hipMalloc`-style call), or a header or kernel
/// file that says neither (ported trees keep both, and only the includer knows). CUDA says so
/// by including a CUDA header or calling the runtime or driver API.
fn is_hip(source: &str) -> bool {
    if source.contains("hip/") || source.contains("hipcub") || calls_api(source, "hip") {
        return true;
    }
    let includes_cuda = source.lines().any(|line| {
        let line = line.trim_start();
        line.starts_with('#')
            && line.contains("include")
            && (line.contains("cuda")
                || line.contains("cooperative_groups")
                || line.contains("cub/"))
    });
    !(includes_cuda || calls_api(source, "cuda") || calls_api(source, "cu"))
}

/// Whether the text calls a function named `prefix` then an upper-case letter (`hipMalloc(`).
fn calls_api(source: &str, prefix: &str) -> bool {
    source.match_indices(prefix).any(|(at, _)| {
        let before = source[..at].chars().next_back();
        let rest = &source[at + prefix.len()..];
        let name_end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        before.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'))
            && rest.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && rest[name_end..].trim_start().starts_with('(')
    })
}

/// Whether the project gives `name` its own meaning: a function or macro of the file, a macro
/// of a project header it includes (a shim for new toolkits in a shared `cuda_helper.h`), or a
/// device function another file of the run offers.
fn user_defined(model: &Model, name: &str) -> bool {
    model.functions.iter().any(|f| f.name == name)
        || model.function_macro(name).is_some()
        || model.view.defines.contains_key(name)
        || model.view.included.names.contains(name)
        || !model.device_functions.named(name).is_empty()
}

/// A branch of a preprocessor conditional: its span and the conditions of its chain so far
/// (an `#else` of `#if A` is `A` as well: the branch is chosen by `A`).
struct Region {
    start: usize,
    end: usize,
    conditions: String,
}

/// The branches of every `#if`/`#ifdef`/`#ifndef` chain of the text, outermost first.
fn conditional_regions(source: &str) -> Vec<Region> {
    let mut regions = Vec::new();
    // open chains: where the current branch starts, and the conditions of the chain so far
    let mut open: Vec<(usize, String)> = Vec::new();
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(directive) = trimmed.strip_prefix('#') {
            let directive = directive.trim_start();
            let word: String = directive
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let rest = directive[word.len()..].trim();
            match word.as_str() {
                "if" | "ifdef" | "ifndef" => open.push((offset, rest.to_string())),
                "elif" | "elifdef" | "elifndef" | "else" => {
                    if let Some((start, conditions)) = open.last_mut() {
                        regions.push(Region {
                            start: *start,
                            end: offset,
                            conditions: conditions.clone(),
                        });
                        *start = offset;
                        conditions.push(' ');
                        conditions.push_str(rest);
                    }
                }
                "endif" => {
                    if let Some((start, conditions)) = open.pop() {
                        regions.push(Region {
                            start,
                            end: offset,
                            conditions,
                        });
                    }
                }
                _ => {}
            }
        }
        offset += line.len();
    }
    for (start, conditions) in open {
        regions.push(Region {
            start,
            end: source.len(),
            conditions,
        });
    }
    regions
}

/// Whether the code at `offset` is in a branch chosen by the CUDA toolkit's version or by a
/// HIP/ROCm build.
fn chosen_by_toolkit(regions: &[Region], offset: usize) -> bool {
    regions.iter().any(|region| {
        region.start <= offset
            && offset < region.end
            && [
                "CUDA_VERSION",
                "CUDART_VERSION",
                "__CUDACC_VER",
                "HIP",
                "ROCM",
            ]
            .iter()
            .any(|word| region.conditions.contains(word))
    })
}

#[cfg(test)]
mod tests {
    fn names(source: &str) -> Vec<String> {
        crate::verify::with_model(std::path::Path::new("k.cu"), source, |model| {
            super::legacy_calls(model)
                .iter()
                .map(|c| c.name.to_string())
                .collect()
        })
        .unwrap_or_default()
    }

    #[test]
    fn calls_without_a_mask_in_device_code() {
        assert_eq!(
            names("#include <cuda_runtime.h>\n__global__ void k(float* o) { float v = o[threadIdx.x]; v += __shfl_down(v, 1); if (__any(v > 0)) o[0] = __ballot(v > 1); }"),
            ["__shfl_down", "__any", "__ballot"]
        );
        assert_eq!(
            names("__device__ int lane_sum(int v) { return v + __shfl_xor(v, 1, 16); }\nvoid run() { cudaDeviceSynchronize(); }"),
            ["__shfl_xor"]
        );
    }

    #[test]
    fn shims_overloads_old_toolkits_and_hip_are_not_calls() {
        assert!(names("#define __shfl_down(v, d) __shfl_down_sync(0xffffffff, v, d)\n__global__ void k(float* o) { o[0] = __shfl_down(o[0], 1); }").is_empty());
        assert!(names("__device__ float4 __shfl_down(float4 v, unsigned d) { return v; }\n__device__ void r(float4& v) { v = __shfl_down(v, 16); }").is_empty());
        assert!(names("__device__ unsigned vote(bool p) {\n#if (CUDART_VERSION < 9000)\n  return __ballot(p);\n#else\n  return __ballot_sync(0xffffffff, p);\n#endif\n}").is_empty());
        assert!(names("__device__ float sum(float v) {\n#ifdef MMCV_WITH_HIP\n  v += __shfl_down(v, 1);\n#else\n  v += __shfl_down_sync(0xffffffff, v, 1);\n#endif\n  return v;\n}").is_empty());
        assert!(names("#include <hip/hip_runtime.h>\n__global__ void k(float* o) { o[0] = __shfl_down(o[0], 1); }").is_empty());
        assert!(names("#include \"common.h\"\n__global__ void k(float* o) { o[0] = __shfl_down(o[0], 1); hipDeviceSynchronize(); }").is_empty());
        // a kernel file that names neither toolkit
        assert!(names("__global__ void k(float* o) { o[0] = __shfl_down(o[0], 1); }").is_empty());
        // host code, and a name with another arity
        assert!(names("void h() { __any(); }\n__device__ int f(int a, int b, int c, int d) { return __shfl(a, b, c, d); }").is_empty());
    }
}
