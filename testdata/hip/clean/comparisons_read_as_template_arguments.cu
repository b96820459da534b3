// Clean: `m < i && scores[m] > -FLT_MAX` reads like the arguments of a template `m<...>`
// followed by `- FLT_MAX`; it is two comparisons, and `i < num_detections` before them guards
// every access of the suppression loop.
#include <hip/hip_runtime.h>
#include <cfloat>

__global__ void suppress_overlaps(const float* scores, const float4* boxes, int* kept,
                                  int num_detections, float threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int m = 0; m < num_detections; m++) {
        if (i < num_detections && m < i && scores[m] > -FLT_MAX) {
            float4 a = boxes[i];
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
    if (x < width && y < height && in[y * width + x] > (-1.0f)) {
        out[y * width + x] = in[y * width + x];
    }
}

void suppress(const float* scores, const float4* boxes, int* kept, int n, const float* in,
              float* out, int width, int height, hipStream_t stream)
{
    suppress_overlaps<<<(n + 255) / 256, 256, 0, stream>>>(scores, boxes, kept, n, 0.5f);
    clamp_window<<<dim3((width + 127) / 128, height), 128, 0, stream>>>(in, out, width, height);
    hipError_t status = hipGetLastError();
    if (status != hipSuccess) return;
}
