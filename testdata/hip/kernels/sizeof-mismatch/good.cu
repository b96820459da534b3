// cudalint demo: sizeof-mismatch (good). Byte counts use the element type of the buffer.
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

__global__ void powers(const double* base, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = base[i] * base[i] * base[i];
    }
}

int main() {
    const int n = 1000;
    double* h_base = (double*)malloc(n * sizeof(double));
    double* h_out = (double*)malloc(n * sizeof(double));
    for (int i = 0; i < n; ++i) {
        h_base[i] = 1.0 + static_cast<double>(rand() % 100) / 50.0;
    }

    double* d_base = nullptr;
    double* d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_base, n * sizeof(double)));
    HIP_CHECK(hipMalloc(&d_out, n * sizeof(double)));
    HIP_CHECK(hipMemcpy(d_base, h_base, n * sizeof(double), hipMemcpyHostToDevice));

    powers<<<(n + 255) / 256, 256>>>(d_base, d_out, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipMemcpy(h_out, d_out, n * sizeof(double), hipMemcpyDeviceToHost));
    printf("out[%d] = %f (reference %f)\n", n - 1, h_out[n - 1], h_base[n - 1] * h_base[n - 1] * h_base[n - 1]);

    HIP_CHECK(hipFree(d_base));
    HIP_CHECK(hipFree(d_out));
    free(h_base);
    free(h_out);
    return 0;
}
