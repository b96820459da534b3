// Clean: a flat thread index split into coordinates by a device helper that writes them
// through reference parameters (or returns the quotient and writes the remainder back), then
// the coordinate of the slowest axis is tested: that bounds the flat index, which the kernel
// uses directly.
#include <cuda_runtime.h>

__host__ __device__ inline void compute3DIndices(int const &id, int const &nx, int const &ny,
                                                 int &xid, int &yid, int &zid)
{
    zid = id / (nx * ny);
    yid = (id - zid * nx * ny) / nx;
    xid = id - zid * nx * ny - yid * nx;
}

__global__ void copy_cells(const float *cons, float *out, int nx, int ny, int nz)
{
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    int xid, yid, zid;
    compute3DIndices(id, nx, ny, xid, yid, zid);
    if (xid < nx && yid < ny && zid < nz) {
        out[id] = cons[id];
    }
}

cudaError_t launch_copy_cells(const float *cons, float *out, int nx, int ny, int nz)
{
    int n = nx * ny * nz;
    copy_cells<<<(n + 255) / 256, 256>>>(cons, out, nx, ny, nz);
    return cudaGetLastError();
}

__device__ unsigned div_mod(unsigned a, unsigned b, unsigned &r)
{
    unsigned q = a / b;
    r = a - q * b;
    return q;
}

// One thread per filter element: the last quotient of the split is the input channel.
__global__ void zero_filter_grad(float *flt_grad, unsigned IC, unsigned FH, unsigned FW)
{
    unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned fh, fw;
    unsigned i = div_mod(idx, FW, fw);
    unsigned ic = div_mod(i, FH, fh);
    if (ic >= IC)
        return;
    flt_grad[idx] = fh == fw ? 1.f : 0.f;
}

cudaError_t launch_zero_filter_grad(float *flt_grad, unsigned IC, unsigned FH, unsigned FW)
{
    unsigned n = IC * FH * FW;
    zero_filter_grad<<<(n + 255) / 256, 256>>>(flt_grad, IC, FH, FW);
    return cudaGetLastError();
}
