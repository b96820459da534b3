// Clean: a vector that lives in device memory keeps its size and data pointer there; the host
// reads both back with copies into its own locals (`cudaMemcpy(&vector_addr, &dv->_data, ...)`)
// before copying the data out through the pointer it read back.
#include <cstddef>
#include <cuda_runtime.h>

struct dvec {
    size_t _size;
    float *_data;
};

__global__ void init_vec(dvec *v, float *storage, size_t n)
{
    v->_size = n;
    v->_data = storage;
}

int vector_device2host(float *host, const dvec *dv, cudaStream_t stream)
{
    size_t vector_size;
    void *vector_addr;
    if (cudaMemcpy(&vector_size, &dv->_size, sizeof(size_t), cudaMemcpyDeviceToHost) != cudaSuccess)
        return 1;
    if (cudaMemcpy(&vector_addr, &dv->_data, sizeof(void *), cudaMemcpyDeviceToHost) != cudaSuccess)
        return 1;
    if (stream == 0)
        return cudaMemcpy(host, vector_addr, vector_size * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess;
    return cudaMemcpyAsync(host, vector_addr, vector_size * sizeof(float), cudaMemcpyDeviceToHost, stream) != cudaSuccess;
}

int main()
{
    const size_t n = 1024;
    dvec *dv;
    float *storage;
    if (cudaMalloc(&dv, sizeof(dvec)) != cudaSuccess) return 1;
    if (cudaMalloc(&storage, n * sizeof(float)) != cudaSuccess) return 1;
    init_vec<<<1, 1>>>(dv, storage, n);
    if (cudaGetLastError() != cudaSuccess) return 1;
    static float host[n];
    int failed = vector_device2host(host, dv, 0);
    if (cudaFree(storage) != cudaSuccess || cudaFree(dv) != cudaSuccess) return 1;
    return failed;
}
