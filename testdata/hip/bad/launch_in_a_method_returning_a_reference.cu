// Bad: an operator object launches its kernel from a method that returns the object itself
// (`Scale& Scale::run()`, for chaining), with 2048 threads per block: past the 1024 limit, the
// launch fails and the output is never written.
#include <hip/hip_runtime.h>

__global__ void scale(const float* in, float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}

class Scale {
public:
    Scale(const float* in, float* out, int n) : in_(in), out_(out), n_(n) {}
    Scale& run(hipStream_t stream);

private:
    const float* in_;
    float* out_;
    int n_;
};

Scale& Scale::run(hipStream_t stream)
{
    scale<<<(n_ + 2047) / 2048, 2048, 0, stream>>>(in_, out_, n_); // expect: invalid-launch-config
    if (hipGetLastError() != hipSuccess) n_ = 0;
    return *this;
}
