// Bad: buffers allocated on one trip of a timing loop, used where that trip may not have run: the
// allocation waits for the second run (the warm-up launches garbage), a resumed run skips the
// first step that allocates, and the result is read back after a loop that may run no times.
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

__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

// run 0 is the warm-up, timed runs allocate their own buffer: the warm-up's launch has none
static void benchmark(const float* h_in, int n, int runs) {
    float* d_x;
    for (int run = 0; run < runs; run++) {
        if (run == 1) {
            HIP_CHECK(hipMalloc(&d_x, n * sizeof(float)));
        }
        HIP_CHECK(hipMemcpy(d_x, h_in, n * sizeof(float), hipMemcpyHostToDevice)); // expect: uninitialized-device-pointer
        scale<<<(n + 255) / 256, 256>>>(d_x, 2.0f, n);
        HIP_CHECK(hipGetLastError());
    }
    HIP_CHECK(hipFree(d_x));
}

// a resumed simulation jumps past step 0, where the state is allocated
static void simulate(int n, int steps, int checkpoint) {
    float* d_state;
    for (int step = 0; step < steps; step++) {
        if (checkpoint > 0 && step == 0) step = checkpoint;
        if (step == 0) {
            HIP_CHECK(hipMalloc(&d_state, n * sizeof(float)));
            HIP_CHECK(hipMemset(d_state, 0, n * sizeof(float)));
        }
        scale<<<(n + 255) / 256, 256>>>(d_state, 0.5f, n); // expect: uninitialized-device-pointer
        HIP_CHECK(hipGetLastError());
    }
    HIP_CHECK(hipFree(d_state));
}

// with `runs` of 0 nothing is allocated, and the read-back copies from garbage
static void repeat(float* h_out, int n, int runs) {
    float* d_out;
    for (int run = 0; run < runs; run++) {
        if (run == 0) {
            HIP_CHECK(hipMalloc(&d_out, n * sizeof(float)));
            HIP_CHECK(hipMemset(d_out, 0, n * sizeof(float)));
        }
        scale<<<(n + 255) / 256, 256>>>(d_out, 1.5f, n);
        HIP_CHECK(hipGetLastError());
    }
    HIP_CHECK(hipMemcpy(h_out, d_out, n * sizeof(float), hipMemcpyDeviceToHost)); // expect: uninitialized-device-pointer
    HIP_CHECK(hipFree(d_out));
}

int main(int argc, char** argv) {
    const int n = 1 << 20;
    const int runs = argc > 1 ? atoi(argv[1]) : 3;
    float* h = (float*)calloc(n, sizeof(float));
    benchmark(h, n, runs);
    simulate(n, runs, argc > 2 ? atoi(argv[2]) : 0);
    repeat(h, n, runs);
    free(h);
    return 0;
}
