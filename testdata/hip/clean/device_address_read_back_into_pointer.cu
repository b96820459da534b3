// Clean: a vector that lives in device memory keeps its size and data pointer there; the host
// reads both back with copies into its own locals (`hipMemcpy(&vector_addr, &dv->_data, ...)`)
// before copying the data out through the pointer it read back.
#include <cstddef>
#include <hip/hip_runtime.h>

struct dvec {
    size_t _size;
    float *_data;
};

__global__ void init_vec(dvec *v, float *storage, size_t n)
{
    v->_size = n;
    v->_data = storage;
}

int vector_device2host(float *host, const dvec *dv, hipStream_t stream)
{
    size_t vector_size;
    void *vector_addr;
    if (hipMemcpy(&vector_size, &dv->_size, sizeof(size_t), hipMemcpyDeviceToHost) != hipSuccess)
        return 1;
    if (hipMemcpy(&vector_addr, &dv->_data, sizeof(void *), hipMemcpyDeviceToHost) != hipSuccess)
        return 1;
    if (stream == 0)
        return hipMemcpy(host, vector_addr, vector_size * sizeof(float), hipMemcpyDeviceToHost) != hipSuccess;
    return hipMemcpyAsync(host, vector_addr, vector_size * sizeof(float), hipMemcpyDeviceToHost, stream) != hipSuccess;
}

int main()
{
    const size_t n = 1024;
    dvec *dv;
    float *storage;
    if (hipMalloc(&dv, sizeof(dvec)) != hipSuccess) return 1;
    if (hipMalloc(&storage, n * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(init_vec, 1, 1, 0, 0, dv, storage, n);
    if (hipGetLastError() != hipSuccess) return 1;
    static float host[n];
    int failed = vector_device2host(host, dv, 0);
    if (hipFree(storage) != hipSuccess || hipFree(dv) != hipSuccess) return 1;
    return failed;
}
