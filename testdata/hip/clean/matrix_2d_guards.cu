// Clean: 2D guards on row/col, combined early exits, and guards with offsets.
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

__global__ void matAdd(const float* a, const float* b, float* c, int M, int N) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        c[row * N + col] = a[row * N + col] + b[row * N + col];
    }
}

__global__ void transpose(const float* in, float* out, int rows, int cols) {
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows || c >= cols) return;
    out[c * rows + r] = in[r * cols + c];
}

__global__ void rgbToGray(const unsigned char* rgb, unsigned char* gray, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        int pixel = y * width + x;
        float r = rgb[3 * pixel + 0];
        float g = rgb[3 * pixel + 1];
        float b = rgb[3 * pixel + 2];
        gray[pixel] = static_cast<unsigned char>(0.299f * r + 0.587f * g + 0.114f * b);
    }
}

__global__ void forwardDiff(const float* x, float* dx, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n) {
        dx[i] = x[i + 1] - x[i];
    }
}

__global__ void rowSums(const float* m, float* sums, int rows, int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float s = 0.0f;
        for (int c = 0; c < cols; ++c) {
            s += m[row * cols + c];
        }
        sums[row] = s;
    }
}

int main() {
    const int rows = 1000;
    const int cols = 700;
    const size_t bytes = (size_t)rows * cols * sizeof(float);
    std::vector<float> h_a((size_t)rows * cols), h_b((size_t)rows * cols);
    for (size_t i = 0; i < h_a.size(); ++i) {
        h_a[i] = static_cast<float>(rand() % 1000) / 100.0f;
        h_b[i] = static_cast<float>(rand() % 500) / 50.0f;
    }

    float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr, *d_t = nullptr;
    float *d_diff = nullptr, *d_sums = nullptr;
    HIP_CHECK(hipMalloc(&d_a, bytes));
    HIP_CHECK(hipMalloc(&d_b, bytes));
    HIP_CHECK(hipMalloc(&d_c, bytes));
    HIP_CHECK(hipMalloc(&d_t, bytes));
    HIP_CHECK(hipMalloc(&d_diff, bytes));
    HIP_CHECK(hipMalloc(&d_sums, rows * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_a, h_a.data(), bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_b, h_b.data(), bytes, hipMemcpyHostToDevice));

    dim3 block(32, 8);
    dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    hipLaunchKernelGGL(matAdd, grid, block, 0, 0, d_a, d_b, d_c, rows, cols);
    HIP_CHECK(hipGetLastError());

    hipLaunchKernelGGL(transpose, grid, block, 0, 0, d_a, d_t, rows, cols);
    HIP_CHECK(hipGetLastError());

    hipLaunchKernelGGL(forwardDiff, (rows * cols + 255) / 256, 256, 0, 0, d_a, d_diff, rows * cols);
    HIP_CHECK(hipGetLastError());

    hipLaunchKernelGGL(rowSums, (rows + 127) / 128, 128, 0, 0, d_b, d_sums, rows, cols);
    HIP_CHECK(hipGetLastError());

    const int width = 640;
    const int height = 480;
    std::vector<unsigned char> h_rgb((size_t)width * height * 3);
    for (size_t i = 0; i < h_rgb.size(); ++i) {
        h_rgb[i] = static_cast<unsigned char>((i * 7919) & 0xff);
    }
    unsigned char* d_rgb = nullptr;
    unsigned char* d_gray = nullptr;
    HIP_CHECK(hipMalloc(&d_rgb, h_rgb.size()));
    HIP_CHECK(hipMalloc(&d_gray, (size_t)width * height));
    HIP_CHECK(hipMemcpy(d_rgb, h_rgb.data(), h_rgb.size(), hipMemcpyHostToDevice));
    dim3 imgBlock(16, 16);
    dim3 imgGrid((width + 15) / 16, (height + 15) / 16);
    hipLaunchKernelGGL(rgbToGray, imgGrid, imgBlock, 0, 0, d_rgb, d_gray, width, height);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    std::vector<float> h_sums(rows);
    HIP_CHECK(hipMemcpy(h_sums.data(), d_sums, rows * sizeof(float), hipMemcpyDeviceToHost));
    printf("row 0 sum = %f\n", h_sums[0]);

    HIP_CHECK(hipFree(d_a));
    HIP_CHECK(hipFree(d_b));
    HIP_CHECK(hipFree(d_c));
    HIP_CHECK(hipFree(d_t));
    HIP_CHECK(hipFree(d_diff));
    HIP_CHECK(hipFree(d_sums));
    HIP_CHECK(hipFree(d_rgb));
    HIP_CHECK(hipFree(d_gray));
    return 0;
}
