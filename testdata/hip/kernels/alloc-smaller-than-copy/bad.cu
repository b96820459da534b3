// cudalint demo: alloc-smaller-than-copy (bad). The device buffer is 1024 bytes short of what is copied into it.
#include <cstdio>
#include <cstdlib>
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

__global__ void scale(float* data, int size) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) {
        data[i] *= 2.0f;
    }
}

int main() {
    const int size = 1000;
    float* h_data = (float*)malloc(size * sizeof(float));
    for (int i = 0; i < size; ++i) {
        h_data[i] = static_cast<float>(rand()) / RAND_MAX + 1.0f;
    }

    float* d_data = nullptr;
    HIP_CHECK(hipMalloc(&d_data, size * sizeof(float) - 1024));
    HIP_CHECK(hipMemcpy(d_data, h_data, size * sizeof(float), hipMemcpyHostToDevice)); // expect: alloc-smaller-than-copy

    scale<<<(size + 255) / 256, 256>>>(d_data, size);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    printf("scaled %d elements\n", size);

    HIP_CHECK(hipFree(d_data));
    free(h_data);
    return 0;
}
