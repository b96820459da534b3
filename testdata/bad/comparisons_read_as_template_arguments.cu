// Bad: the same suppression loop and window, with the thread tested against nothing but the
// loop's counter and the row: threads past the end of the rounded-up grid write out of bounds.
// (`m < i` compares with the position the loop has reached, not an extent: the branch is not
// an out-of-range one, and the access is unguarded.)
#include <cuda_runtime.h>
#include <cfloat>

__global__ void suppress_overlaps(const float* scores, const float4* boxes, int* kept,
                                  int num_detections, float threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int m = 0; m < num_detections; m++) {
        if (m < i && scores[m] > -FLT_MAX) {
            float4 a = boxes[i]; // expect: unguarded-thread-index
            float4 b = boxes[m];
            float overlap = fminf(a.z, b.z) - fmaxf(a.x, b.x);
            if (overlap > threshold) kept[i] = 0;
        }
    }
}

__global__ void clamp_window(const float* in, float* out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (y < height && x > 0 && in[y * width + x] > (-1.0f)) { // expect: unguarded-thread-index
        out[y * width + x] = in[y * width + x];
    }
}

void suppress(const float* scores, const float4* boxes, int* kept, int n, const float* in,
              float* out, int width, int height, cudaStream_t stream)
{
    suppress_overlaps<<<(n + 255) / 256, 256, 0, stream>>>(scores, boxes, kept, n, 0.5f);
    clamp_window<<<dim3((width + 127) / 128, height), 128, 0, stream>>>(in, out, width, height);
    cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) return;
}
