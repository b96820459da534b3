// Clean: the flag starts `false` and gets the bounds test once the coordinates are known; only
// that assignment reaches the test, so every access under `if (valid)` is in bounds.
#include <hip/hip_runtime.h>

__global__ void ray_directions(int n_views, int height, int width, const float3 *origins,
                               float3 *directions, float radius)
{
    bool valid = false;
    int w, h, n;
    w = blockIdx.x * blockDim.x + threadIdx.x;
    h = (blockIdx.y * blockDim.y + threadIdx.y) % height;
    n = (blockIdx.y * blockDim.y + threadIdx.y) / height;
    valid = (w < width) && (h < height) && (n < n_views);

    if (valid) {
        float3 p = origins[n];
        p.x /= radius;
        p.y /= radius;
        p.z /= radius;
        directions[n * height * width + h * width + w] = p;
    }
}

int launch_ray_directions(int n_views, int height, int width, const float3 *origins,
                          float3 *directions, float radius, hipStream_t stream)
{
    dim3 block(16, 16);
    dim3 grid((width + block.x - 1) / block.x, (n_views * height + block.y - 1) / block.y);
    ray_directions<<<grid, block, 0, stream>>>(n_views, height, width, origins, directions,
                                                radius);
    return hipGetLastError() != hipSuccess;
}
