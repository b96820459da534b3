// cudalint demo: shared-memory-race (bad). The tile loop has no barrier at its end, so a fast warp's next load overwrites the tile while slower warps still read it.
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

#define TILE 16

// Each block walks the tiles of its row band; every thread sums one row of each tile.
__global__ void squareRowSums(const float* a, float* c, int n) {
    __shared__ float tile[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        tile[ty][tx] = a[row * n + t * TILE + tx]; // expect: shared-memory-race
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            sum += tile[ty][k] * tile[k][tx];
        }
        // missing: a barrier here, before the next iteration overwrites the tile
    }
    c[row * n + col] = sum;
}

int main() {
    const int n = TILE * 8;
    float* h_a = (float*)malloc(n * n * sizeof(float));
    float* h_c = (float*)malloc(n * n * sizeof(float));
    for (int i = 0; i < n * n; ++i) {
        h_a[i] = static_cast<float>(i % 7);
    }
    float* d_a = nullptr;
    float* d_c = nullptr;
    HIP_CHECK(hipMalloc(&d_a, n * n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_c, n * n * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_a, h_a, n * n * sizeof(float), hipMemcpyHostToDevice));
    dim3 block(TILE, TILE);
    dim3 grid(n / TILE, n / TILE);
    squareRowSums<<<grid, block>>>(d_a, d_c, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipMemcpy(h_c, d_c, n * n * sizeof(float), hipMemcpyDeviceToHost));
    double total = 0.0;
    for (int i = 0; i < n * n; ++i) {
        total += h_c[i];
    }
    printf("checksum = %f\n", total);
    HIP_CHECK(hipFree(d_a));
    HIP_CHECK(hipFree(d_c));
    free(h_a);
    free(h_c);
    return 0;
}
