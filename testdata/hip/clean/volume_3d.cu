// Clean: 3D thread indices with a combined early exit, and a 3D grid-stride over z.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_runtime.h>

#define HIP_CHECK(call)                                                      \
    do {                                                                      \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    hipGetErrorString(err_), __FILE__, __LINE__);            \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

__global__ void scaleVolume(const float* in, float* out, int nx, int ny, int nz, float s) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) {
        return;
    }
    size_t idx = ((size_t)z * ny + y) * nx + x;
    out[idx] = s * in[idx];
}

__global__ void laplacian7(const float* u, float* lap, int nx, int ny, int nz) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    for (int z = blockIdx.z * blockDim.z + threadIdx.z; z < nz; z += blockDim.z * gridDim.z) {
        if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1 && z > 0 && z < nz - 1) {
            size_t c = ((size_t)z * ny + y) * nx + x;
            size_t sxy = (size_t)nx * ny;
            lap[c] = u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] + u[c - sxy] + u[c + sxy] - 6.0f * u[c];
        }
    }
}

int main() {
    const int nx = 128, ny = 96, nz = 64;
    const size_t count = (size_t)nx * ny * nz;
    const size_t bytes = count * sizeof(float);
    std::vector<float> h_u(count);
    for (size_t i = 0; i < count; ++i) {
        h_u[i] = static_cast<float>((i * 2654435761u) % 1000) / 1000.0f;
    }

    float* d_u = nullptr;
    float* d_scaled = nullptr;
    float* d_lap = nullptr;
    HIP_CHECK(hipMalloc(&d_u, bytes));
    HIP_CHECK(hipMalloc(&d_scaled, bytes));
    HIP_CHECK(hipMalloc(&d_lap, bytes));
    HIP_CHECK(hipMemcpy(d_u, h_u.data(), bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(d_lap, 0, bytes));

    dim3 block(8, 8, 8);
    dim3 grid((nx + 7) / 8, (ny + 7) / 8, (nz + 7) / 8);
    hipLaunchKernelGGL(scaleVolume, grid, block, 0, 0, d_u, d_scaled, nx, ny, nz, 0.5f);
    HIP_CHECK(hipGetLastError());

    dim3 grid2((nx + 7) / 8, (ny + 7) / 8, 2);
    hipLaunchKernelGGL(laplacian7, grid2, block, 0, 0, d_scaled, d_lap, nx, ny, nz);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    std::vector<float> h_lap(count);
    HIP_CHECK(hipMemcpy(h_lap.data(), d_lap, bytes, hipMemcpyDeviceToHost));
    printf("lap[center] = %f\n", h_lap[count / 2]);

    HIP_CHECK(hipFree(d_u));
    HIP_CHECK(hipFree(d_scaled));
    HIP_CHECK(hipFree(d_lap));
    return 0;
}
