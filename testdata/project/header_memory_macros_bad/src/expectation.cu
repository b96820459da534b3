// Bad: the result buffer is freed through the header's macro before the second launch writes
// to it.
#include "../include/cuda_util.cuh"

__global__ void expectation_z(const double *sv, double *result, long dim)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < dim) atomicAdd(result, sv[i] * sv[i]);
}

double get_expectation_z(const double *sv_gpu, long dim)
{
    double result = 0.0;
    double *result_gpu;
    SAFE_ALOC_GPU(result_gpu, sizeof(double));
    cudaSafeCall(cudaMemcpy(result_gpu, &result, sizeof(double), cudaMemcpyHostToDevice));
    expectation_z<<<(dim + 255) / 256, 256>>>(sv_gpu, result_gpu, dim);
    cudaSafeCall(cudaGetLastError());
    cudaSafeCall(cudaMemcpy(&result, result_gpu, sizeof(double), cudaMemcpyDeviceToHost));
    SAFE_FREE_GPU(result_gpu);
    expectation_z<<<(dim + 255) / 256, 256>>>(sv_gpu, result_gpu, dim); // expect: use-after-free
    cudaSafeCall(cudaGetLastError());
    return result;
}
