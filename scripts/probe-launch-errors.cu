// Which runtime calls report a launch that never started? Each case launches a kernel with a
// configuration the device refuses, then asks one call for its status and the last error after
// it. Build and run: nvcc -o probe scripts/probe-launch-errors.cu && ./probe
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(float* p) { p[threadIdx.x] = 1.0f; }

static void report(const char* what, cudaError_t status)
{
    cudaError_t last = cudaGetLastError();
    printf("%-44s returns %-32s last error then %s\n", what, cudaGetErrorName(status),
           cudaGetErrorName(last));
}

int main()
{
    float* d = nullptr;
    cudaMalloc(&d, 4096 * sizeof(float));
    float h = 0.0f;

    fill<<<1, 2048>>>(d); // more threads than a block may have
    report("cudaDeviceSynchronize after 2048 threads", cudaDeviceSynchronize());
    fill<<<1, 2048>>>(d);
    report("cudaStreamSynchronize after 2048 threads", cudaStreamSynchronize(0));
    fill<<<1, 2048>>>(d);
    report("cudaMemcpy after 2048 threads", cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    fill<<<1, 32, 1 << 30>>>(d); // more dynamic shared memory than a block may have
    report("cudaDeviceSynchronize after 1 GiB shared", cudaDeviceSynchronize());
    fill<<<1, 2048>>>(d);
    report("cudaPeekAtLastError after 2048 threads", cudaPeekAtLastError());
    fill<<<1, 2048>>>(d); // then launches that start: does the error wait for a later check?
    fill<<<1, 32>>>(d);
    fill<<<4, 32>>>(d);
    report("cudaGetLastError after two good launches", cudaGetLastError());
    fill<<<1, 32>>>(d); // a good launch alone leaves nothing
    report("cudaGetLastError after a good launch", cudaGetLastError());
    cudaFree(d);
    return 0;
}
