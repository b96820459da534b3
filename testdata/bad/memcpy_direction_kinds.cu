// Bad: copy kinds held in a variable or chosen by `?:` that contradict where the buffers live.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    cudaGetErrorString(err_), __FILE__, __LINE__);            \
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
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));

    cudaMemcpyKind upload = cudaMemcpyHostToDevice;
    CUDA_CHECK(cudaMemcpy(d_in, h_in, bytes, upload));
    dim3 block(16, 16);
    dim3 grid((width + 15) / 16, (height + 15) / 16);
    transposeTile<<<grid, block>>>(d_in, d_out, width, height);
    CUDA_CHECK(cudaGetLastError());
    // the same kind reused for the way back
    CUDA_CHECK(cudaMemcpy(h_out, d_out, bytes, upload)); // expect: memcpy-direction-mismatch

    CUDA_CHECK(cudaMemcpy2D(h_out, width * sizeof(float), d_out, width * sizeof(float),
                            width * sizeof(float), height,
                            pinned ? cudaMemcpyHostToHost : cudaMemcpyHostToDevice)); // expect: memcpy-direction-mismatch
    printf("out[1] = %f\n", h_out[1]);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    free(h_in);
    free(h_out);
    return 0;
}
