// Clean (project): one thread per frame, each reading and writing its column of a node-major
// buffer of N_NODES x frames, `ii` frames wide. The launch in ../decoder.cu sees only the
// declaration in min_sum.h, and runs exactly `frames` threads: no thread is past the buffer.
#define DEG 6
#define N_CHECKS 384

__global__ void min_sum_stage(unsigned int *var_nodes, const unsigned int *pos_nodes)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    const int ii = blockDim.x * gridDim.x;
    __shared__ unsigned int table[DEG];
    for (int c = 0; c < N_CHECKS; c++) {
        __syncthreads();
        if (threadIdx.x < DEG)
            table[threadIdx.x] = pos_nodes[c * DEG + threadIdx.x];
        __syncthreads();
        unsigned int m = 0x7F7F7F7F;
        for (int j = 0; j < DEG; j++)
            m = min(m, var_nodes[table[j] * ii + i]);
        for (int j = 0; j < DEG; j++)
            var_nodes[table[j] * ii + i] = m;
    }
}
