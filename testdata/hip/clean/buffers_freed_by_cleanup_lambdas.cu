// Clean: the buffers are freed by a local cleanup lambda called before each return, and by a
// lambda that runs the rest of the work and frees what it is handed.
#include <hip/hip_runtime.h>

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
        if (d_a) hipFree(d_a);
        if (d_b) hipFree(d_b);
    };
    if (hipMalloc(&d_a, n * sizeof(float)) != hipSuccess) { cleanup(); return 1; }
    if (hipMalloc(&d_b, n * sizeof(float)) != hipSuccess) { cleanup(); return 1; }
    fill<<<(n + 255) / 256, 256>>>(d_a, n);
    if (hipGetLastError() != hipSuccess) { cleanup(); return 1; }
    fill<<<(n + 255) / 256, 256>>>(d_b, n);
    cleanup();
    return hipGetLastError() != hipSuccess;
}

int run_and_release(int n)
{
    float* d_work = nullptr;
    if (hipMalloc(&d_work, n * sizeof(float)) != hipSuccess) return 1;
    auto finish = [](float* work, int count) {
        fill<<<(count + 255) / 256, 256>>>(work, count);
        hipError_t status = hipGetLastError();
        hipFree(work);
        return status != hipSuccess;
    };
    return finish(d_work, n);
}
