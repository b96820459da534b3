// Clean: tests of the thread's position against a place in the data, not against the end of a
// buffer. A segment's head read from memory (`t > head` adds to the elements right of it), the
// lower side of a window whose upper side is tested too, and the padding after the entries that
// hold data (`ij < valid` ... else pad) all stay inside the buffers of the exact launches below.
#include <cuda_runtime.h>

__global__ void add_right_of_head(float* values, const unsigned* heads)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned head = heads[blockIdx.x];
    if (t > head) values[t] += 1.0f;
}

__global__ void copy_window(const float* in, float* out, int first, int last)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= first && t <= last) out[t] = in[t];
}

__global__ void pad_after_valid(const int* src, const int* counts, int* packed, int inf)
{
    const int valid = counts[0];
    const int ij = blockIdx.x * blockDim.x + threadIdx.x;
    if (ij < valid) {
        packed[ij] = src[ij];
    } else {
        packed[ij] = inf;
    }
}

void run(float* values, const unsigned* heads, const float* in, float* out, const int* src,
         const int* counts, int* packed, int n)
{
    // n is a multiple of 256: every launch below is exact
    if (n % 256 != 0) return;
    add_right_of_head<<<n / 256, 256>>>(values, heads);
    if (cudaGetLastError() != cudaSuccess) return;
    copy_window<<<n / 256, 256>>>(in, out, n / 4, n - 1);
    if (cudaGetLastError() != cudaSuccess) return;
    pad_after_valid<<<n / 256, 256>>>(src, counts, packed, 0x7fffffff);
    if (cudaGetLastError() != cudaSuccess) return;
}
