// The norm's scratch buffer is allocated and freed through the header's macros.
#include "../include/cuda_util.cuh"

__global__ void square(const double *sv, double *out, long dim)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < dim) out[i] = sv[i] * sv[i];
}

void squares(const double *sv_gpu, double *host_out, long dim)
{
    double *out_gpu = NULL;
    SAFE_ALOC_GPU(out_gpu, dim * sizeof(double));
    square<<<(dim + 255) / 256, 256>>>(sv_gpu, out_gpu, dim);
    cudaSafeCall(cudaGetLastError());
    cudaSafeCall(cudaMemcpy(host_out, out_gpu, dim * sizeof(double), cudaMemcpyDeviceToHost));
    SAFE_FREE_GPU(out_gpu);
}
