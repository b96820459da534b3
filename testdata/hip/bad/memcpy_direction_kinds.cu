// Bad: copy kinds held in a variable or chosen by `?:` that contradict where the buffers live.
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

__global__ void transposeTile(const float* in, float* out, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        out[x * height + y] = in[y * width + x];
    }
}

int main(int argc, char** argv) {
    const int width = 1024, height = 768;
    const size_t bytes = (size_t)width * height * sizeof(float);
    const bool pinned = argc > 1;
    float* h_in = (float*)malloc(bytes);
    float* h_out = (float*)malloc(bytes);
    for (int i = 0; i < width * height; ++i) h_in[i] = static_cast<float>(i);

    float *d_in = nullptr, *d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, bytes));
    HIP_CHECK(hipMalloc(&d_out, bytes));

    hipMemcpyKind upload = hipMemcpyHostToDevice;
    HIP_CHECK(hipMemcpy(d_in, h_in, bytes, upload));
    dim3 block(16, 16);
    dim3 grid((width + 15) / 16, (height + 15) / 16);
    transposeTile<<<grid, block>>>(d_in, d_out, width, height);
    HIP_CHECK(hipGetLastError());
    // the same kind reused for the way back
    HIP_CHECK(hipMemcpy(h_out, d_out, bytes, upload)); // expect: memcpy-direction-mismatch

    HIP_CHECK(hipMemcpy2D(h_out, width * sizeof(float), d_out, width * sizeof(float),
                            width * sizeof(float), height,
                            pinned ? hipMemcpyHostToHost : hipMemcpyHostToDevice)); // expect: memcpy-direction-mismatch
    printf("out[1] = %f\n", h_out[1]);
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    free(h_in);
    free(h_out);
    return 0;
}
