use crate::lint::LintContext;
use crate::model::Model;

crate::declare_lint!(
    LEGACY_WARP_INTRINSIC,
    "legacy-warp-intrinsic",
    Kernel,
    Error,
    "warp intrinsic without `_sync` (`__shfl_down`, `__ballot`, `__any`), removed for compute capability 7.0 and later",
    check
);

fn check(model: &Model, cx: &mut LintContext) {
    for call in crate::model::legacy_intrinsics::legacy_calls(model) {
        let replacement = call.replacement();
        let with_mask = std::iter::once("0xffffffff")
            .chain(call.arguments.iter().copied())
            .collect::<Vec<_>>()
            .join(", ");
        let message = format!(
            "`{}` is a warp intrinsic without a mask: CUDA 9 deprecated it and it does not compile for compute capability 7.0 (Volta) or later, where lanes are scheduled independently",
            call.name
        );
        cx.report(cx.diagnostic(call.node.byte_range(), message).with_help(format!(
            "use `{replacement}({with_mask})`, naming the lanes that take part in the mask (`__activemask()` or a `__ballot_sync` of the branch's condition when only some lanes reach it)"
        )));
    }
}

#[cfg(test)]
mod tests {
    use super::LEGACY_WARP_INTRINSIC;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &LEGACY_WARP_INTRINSIC,
            &[
                "__global__ void k(float* o) { float v = o[threadIdx.x]; v += __shfl_down_sync(0xffffffff, v, 1); o[threadIdx.x] = v; }",
                // a shim of the old name over the new intrinsic
                "#define __shfl_xor(v, m) __shfl_xor_sync(0xffffffff, v, m)\n__global__ void k(float* o) { o[0] = __shfl_xor(o[0], 1); }",
                // a branch for toolkits before CUDA 9
                "__device__ unsigned vote(bool p) {\n#if CUDA_VERSION < 9000\n  return __ballot(p);\n#else\n  return __ballot_sync(0xffffffff, p);\n#endif\n}",
                // a kernel file that says neither CUDA nor HIP
                "__global__ void k(float* o) { o[0] = __shfl_down(o[0], 1); }",
                // HIP, where these are the warp intrinsics
                "#include <hip/hip_runtime.h>\n__global__ void k(float* o) { o[0] = __shfl_down(o[0], 1); }",
            ],
            &[
                "#include <cuda_runtime.h>\n__global__ void k(float* o) { float v = o[threadIdx.x]; v += __shfl_down(v, 1); o[threadIdx.x] = v; }",
                "#include <cuda.h>\n__device__ bool any_positive(float v) { return __any(v > 0); }",
                "__global__ void k(unsigned* o) { o[threadIdx.x / 32] = __ballot(o[threadIdx.x] > 0); }\nvoid run(unsigned* o) { k<<<1, 32>>>(o); cudaDeviceSynchronize(); }",
            ],
        );
    }
}
