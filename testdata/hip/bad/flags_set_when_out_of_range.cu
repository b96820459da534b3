// Bad: the flag is set only when the anchor is out of range AND compaction is on; without
// compaction the threads past the last anchor keep the flag unset and read past the mask.
#include <hip/hip_runtime.h>

__global__ void classify_anchors(const unsigned* mask, unsigned* passed, float* scores,
                                 unsigned mask_length, float threshold, bool compact)
{
    const unsigned anchor = blockIdx.x * blockDim.x + threadIdx.x;
    bool inactive = false;
    if (anchor >= mask_length && compact) inactive = true;
    float score = 0.0f;
    if (!inactive) score = scores[anchor] * (mask[anchor] & 0xFFFF); // expect: unguarded-thread-index
    const unsigned votes = __ballot_sync(0xffffffff, !inactive && score > threshold);
    if (!inactive && (threadIdx.x % 32) == 0) passed[anchor / 32] = votes;
}

void classify(const unsigned* mask, unsigned* passed, float* scores, unsigned mask_length,
              bool compact, hipStream_t stream)
{
    classify_anchors<<<(mask_length + 127) / 128, 128, 0, stream>>>(mask, passed, scores,
                                                                    mask_length, 0.5f, compact);
    if (hipGetLastError() != hipSuccess) return;
}
