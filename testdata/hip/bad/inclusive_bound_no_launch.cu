// Bad: an `i <= total` off-by-one in a kernel whose file has no launch and no allocation, so
// nothing says how large the buffers are. The kernel takes two sizes (`total` elements in rows of
// `width`), and the last thread, `i == total`, reads and writes one element past both buffers.
__global__ void scaleByColumn(const float* in, float* out, int total, int width) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= total) {
        out[i] = in[i] * (float)(i % width + 1); // expect: out-of-range-access, out-of-range-access
    }
}
