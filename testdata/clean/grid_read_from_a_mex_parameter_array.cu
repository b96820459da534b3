// Clean: a MATLAB MEX gateway in the style of spike-sorting toolboxes. The sizes arrive in a
// parameter array the gateway reads (`Params[1]` templates, `Params[0]` samples); each kernel
// gives one block per template and walks its row in whole tiles of the block (the tail is left
// to a second pass), so the grid is the template count itself and every access stays inside
// its row.
#include "mex.h"
#include "gpu/mxGPUArray.h"
#include "cuda_check.h"

const int Nthreads = 256;

__global__ void scaleTemplates(const double* Params, float* data, const float* gains) {
    int NT = (int) Params[0];
    int tid = threadIdx.x;
    int bid = blockIdx.x;
    int tid0 = 0;
    while (tid0 < NT - Nthreads + 1) {
        data[tid0 + tid + NT * bid] *= gains[bid];
        tid0 += Nthreads;
    }
}

void mexFunction(int nlhs, mxArray* plhs[], int nrhs, const mxArray* prhs[]) {
    const double* Params = (const double*) mxGetData(prhs[0]);
    unsigned int NT = (unsigned int) Params[0];
    unsigned int Nfilt = (unsigned int) Params[1];
    double* d_Params;
    float* d_data;
    float* d_gains;
    CUDA_CHECK(cudaMalloc(&d_Params, 2 * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_data, NT * Nfilt * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_gains, Nfilt * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_Params, Params, 2 * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_data, 0, NT * Nfilt * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_gains, 0, Nfilt * sizeof(float)));
    scaleTemplates<<<Nfilt, Nthreads>>>(d_Params, d_data, d_gains);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_Params));
    CUDA_CHECK(cudaFree(d_data));
    CUDA_CHECK(cudaFree(d_gains));
}
