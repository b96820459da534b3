// Clean: a benchmark asks for the largest buffer first and, while the allocation fails, shrinks the
// request and asks again (shoc's bus-speed and device-memory tests). A loop that runs only after a
// failed hipMalloc never replaces a buffer it holds: a failed allocation allocates nothing, and the
// one that succeeds ends the loop, so the single hipFree after it frees everything.
#include <cstdio>
#include <hip/hip_runtime.h>
#include "hip_check.h"

__global__ void fill(float* p, float v, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}

static const long long kSizes[] = {1 << 14, 1 << 18, 1 << 22, 1 << 26};

static int download(int nSizes) {
    long long n = kSizes[nSizes - 1];
    float* device = nullptr;
    (void)hipMalloc((void**)&device, sizeof(float) * n);
    while (hipGetLastError() != hipSuccess) {
        if (--nSizes < 1) {
            fprintf(stderr, "not enough device memory\n");
            return 1;
        }
        n = kSizes[nSizes - 1];
        (void)hipMalloc((void**)&device, sizeof(float) * n);
    }
    fill<<<(unsigned)((n + 255) / 256), 256>>>(device, 1.0f, n);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(device));
    return 0;
}

static int scratch(long long bytes) {
    char* buffer = nullptr;
    hipError_t err = hipMalloc((void**)&buffer, bytes);
    while (err != hipSuccess && bytes > (1 << 20)) {
        bytes /= 2;
        err = hipMalloc((void**)&buffer, bytes);
    }
    if (err != hipSuccess) return 1;
    HIP_CHECK(hipMemset(buffer, 0, bytes));
    HIP_CHECK(hipFree(buffer));
    return 0;
}

static int halve_until_it_fits(long long bytes) {
    float* staging = nullptr;
    do {
        bytes /= 2;
    } while (hipMalloc((void**)&staging, bytes) != hipSuccess && bytes > 1);
    if (hipGetLastError() != hipSuccess) return 1;
    HIP_CHECK(hipMemset(staging, 0, bytes));
    HIP_CHECK(hipFree(staging));
    return 0;
}

int main() {
    int failed = download(4);
    failed += scratch(1LL << 32);
    failed += halve_until_it_fits(1LL << 34);
    return failed;
}
