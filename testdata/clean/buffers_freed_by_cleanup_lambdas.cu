// Clean: the buffers are freed by a local cleanup lambda called before each return, and by a
// lambda that runs the rest of the work and frees what it is handed.
#include <cuda_runtime.h>

__global__ void fill(float* p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = 1.0f;
}

int run(int n)
{
    float* d_a = nullptr;
    float* d_b = nullptr;
    auto cleanup = [&]() {
        if (d_a) cudaFree(d_a);
        if (d_b) cudaFree(d_b);
    };
    if (cudaMalloc(&d_a, n * sizeof(float)) != cudaSuccess) { cleanup(); return 1; }
    if (cudaMalloc(&d_b, n * sizeof(float)) != cudaSuccess) { cleanup(); return 1; }
    fill<<<(n + 255) / 256, 256>>>(d_a, n);
    if (cudaGetLastError() != cudaSuccess) { cleanup(); return 1; }
    fill<<<(n + 255) / 256, 256>>>(d_b, n);
    cleanup();
    return cudaGetLastError() != cudaSuccess;
}

int run_and_release(int n)
{
    float* d_work = nullptr;
    if (cudaMalloc(&d_work, n * sizeof(float)) != cudaSuccess) return 1;
    auto finish = [](float* work, int count) {
        fill<<<(count + 255) / 256, 256>>>(work, count);
        cudaError_t status = cudaGetLastError();
        cudaFree(work);
        return status != cudaSuccess;
    };
    return finish(d_work, n);
}
