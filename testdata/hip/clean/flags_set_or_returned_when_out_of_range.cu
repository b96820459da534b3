// Clean: past the last anchor a thread either returns or, when the results are compacted, stays
// marked inactive; every access is under `!inactive`, which holds only where the index passed
// its test (NCV's Haar cascade).
#include <hip/hip_runtime.h>

__global__ void classify_anchors(const unsigned* mask, const float* weights, unsigned* passed,
                                 unsigned anchors, bool compact)
{
    const unsigned anchor = blockIdx.x * blockDim.x + threadIdx.x;
    bool inactive = false;
    if (anchor >= anchors) {
        if (compact) {
            inactive = true;
        } else {
            return;
        }
    }
    float weight = 0.0f;
    if (!inactive) weight = weights[anchor] * (mask[anchor] & 0xFFFF);
    if (!inactive) passed[anchor] = weight > 0.5f;
}

void classify(const unsigned* mask, const float* weights, unsigned* passed, unsigned anchors,
              bool compact, hipStream_t stream)
{
    classify_anchors<<<(anchors + 127) / 128, 128, 0, stream>>>(mask, weights, passed, anchors,
                                                                compact);
    if (hipGetLastError() != hipSuccess) return;
}
