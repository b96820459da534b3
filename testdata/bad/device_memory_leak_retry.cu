// Bad: loops that look like retries of an allocation but run again after it succeeded. Probing
// for the largest buffer the device holds by doubling the request until cudaMalloc fails keeps
// every buffer that fit; a loop that retries the upload (its test reads the copy's status, not
// the allocation's) allocates again after an allocation that worked.
#include <cstdio>
#include <cuda_runtime.h>

static long long largest_buffer() {
    long long bytes = 1 << 20;
    char* probe = nullptr;
    while (cudaMalloc((void**)&probe, bytes) == cudaSuccess) { // expect: device-memory-leak
        bytes *= 2;
    }
    cudaGetLastError();
    if (cudaFree(probe) != cudaSuccess) return 0;
    return bytes / 2;
}

static int upload(const float* host, long long n) {
    float* device = nullptr;
    do {
        (void)cudaMalloc((void**)&device, sizeof(float) * n); // expect: device-memory-leak
    } while (cudaMemcpy(device, host, sizeof(float) * n, cudaMemcpyHostToDevice) != cudaSuccess);
    return cudaFree(device) == cudaSuccess ? 0 : 1;
}

int main() {
    static float host[1024];
    printf("largest buffer: %lld bytes\n", largest_buffer());
    return upload(host, 1024);
}
