// Bad: the thread past the last anchor is marked inactive only when the results are compacted
// (large inputs); otherwise it neither returns nor is marked, and reads past both buffers.
#include <hip/hip_runtime.h>

__global__ void classify_anchors(const unsigned* mask, const float* weights, unsigned* passed,
                                 unsigned anchors)
{
    const unsigned anchor = blockIdx.x * blockDim.x + threadIdx.x;
    const bool compact = anchors > 4096;
    bool inactive = false;
    if (anchor >= anchors) {
        if (compact) {
            inactive = true;
        }
    }
    float weight = 0.0f;
    if (!inactive) weight = weights[anchor] * (mask[anchor] & 0xFFFF); // expect: unguarded-thread-index
    if (!inactive) passed[anchor] = weight > 0.5f;
}

void classify(const unsigned* mask, const float* weights, unsigned* passed, unsigned anchors,
              hipStream_t stream)
{
    classify_anchors<<<(anchors + 127) / 128, 128, 0, stream>>>(mask, weights, passed, anchors);
    if (hipGetLastError() != hipSuccess) return;
}
