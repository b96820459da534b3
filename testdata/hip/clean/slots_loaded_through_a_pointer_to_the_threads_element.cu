// Samplers that scatter into slots stored in their probe records: each thread reaches its
// record through a pointer (`p = begin + i`, `(begin + i)->slot`), and the slot it writes is
// the value loaded from that record, not its own position. The guard bounds the record read;
// the slot is data, like an index read from an index array.
#include <cstdio>
#include "hip_check.h"

struct probe {
    unsigned offset;
    const double* handle;
};

__global__ void take_samples(const probe* begin, const probe* end, double t, double* sample_time,
                             double* sample_value) {
    const unsigned i = threadIdx.x + blockIdx.x * blockDim.x;
    const unsigned n = end - begin;
    if (i < n) {
        const probe* p = begin + i;
        sample_time[p->offset] = t;
        sample_value[p->offset] = p->handle ? *p->handle : 0.0;
    }
}

__global__ void stamp_samples(const probe* probes, unsigned n, double t, double* sample_time) {
    const unsigned i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        sample_time[(probes + i)->offset] = t;
    }
}

void sample(const probe* d_begin, const probe* d_end, double t, double* d_time, double* d_value) {
    unsigned n = d_end - d_begin;
    if (n) {
        take_samples<<<(n + 127) / 128, 128>>>(d_begin, d_end, t, d_time, d_value);
        HIP_CHECK(hipGetLastError());
        stamp_samples<<<(n + 127) / 128, 128>>>(d_begin, n, t, d_time);
        HIP_CHECK(hipGetLastError());
    }
}
