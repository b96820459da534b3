// Bad: the flag is set only for anchors past the one after the last: the thread at `anchor ==
// mask_length` keeps it unset and reads one element past the scores and the mask.
#include <cuda_runtime.h>

__global__ void classify_anchors(const unsigned* mask, unsigned* passed, float* scores,
                                 unsigned mask_length, float threshold)
{
    const unsigned anchor = blockIdx.x * blockDim.x + threadIdx.x;
    bool inactive = false;
    if (anchor > mask_length) inactive = true;
    float score = 0.0f;
    if (!inactive) score = scores[anchor] * (mask[anchor] & 0xFFFF); // expect: out-of-range-access, out-of-range-access
    const unsigned votes = __ballot_sync(0xffffffff, !inactive && score > threshold);
    if (!inactive && (threadIdx.x % 32) == 0) passed[anchor / 32] = votes;
}

void classify(const unsigned* mask, unsigned* passed, float* scores, unsigned mask_length,
              cudaStream_t stream)
{
    classify_anchors<<<(mask_length + 127) / 128, 128, 0, stream>>>(mask, passed, scores,
                                                                    mask_length, 0.5f);
    if (cudaGetLastError() != cudaSuccess) return;
}
