// Bad: a MATLAB MEX gateway in the style of spike-sorting toolboxes. The sizes arrive in a
// parameter array the gateway reads; the flat kernel's grid is the sample count rounded up to
// whole blocks, so the last block runs threads past the data, and the kernel tests nothing.
#include "mex.h"
#include "gpu/mxGPUArray.h"
#include "cuda_check.h"

const int Nthreads = 256;

__global__ void rectify(float* data) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    data[i] = fabsf(data[i]);  // expect: unguarded-thread-index
}

void mexFunction(int nlhs, mxArray* plhs[], int nrhs, const mxArray* prhs[]) {
    const double* Params = (const double*) mxGetData(prhs[0]);
    unsigned int NT = (unsigned int) Params[0];
    float* d_data;
    CUDA_CHECK(cudaMalloc(&d_data, NT * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_data, 0, NT * sizeof(float)));
    rectify<<<(NT + Nthreads - 1) / Nthreads, Nthreads>>>(d_data);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_data));
}
