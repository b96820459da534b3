// Bad: the flag is also set for the bottom row, where nothing bounds the column: the threads of
// the last block's columns past the width store past the end of the image.
#include <hip/hip_runtime.h>

__global__ void detect_keypoints(const float* __restrict__ in, float4* __restrict__ out,
                                 int width, int height, float threshold)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int index = row * width + col;
    int in_image = 0;
    float result = 0.0f;
    if (row > 0 && col > 0 && row < height - 1 && col < width - 1) {
        in_image = 1;
        result = in[index] > threshold ? 1.0f : -1.0f;
    } else if (row == height - 1) {
        in_image = 1;
    }
    if (in_image) out[index] = make_float4(result, 0.f, 0.f, 0.f); // expect: unguarded-thread-index
}

void detect(const float* in, float4* out, int width, int height, float threshold)
{
    dim3 block(8, 8);
    dim3 grid((width + 7) / 8, (height + 7) / 8);
    detect_keypoints<<<grid, block>>>(in, out, width, height, threshold);
    if (hipGetLastError() != hipSuccess) return;
}
