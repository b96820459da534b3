// Clean: kernels in the style of logic-synthesis and placement tools. Each tests its index
// against a size that splits a range another test already bounds: the constant and input nodes
// of a graph whose loop runs below the node count, the two halves of a twiddle table of 2 * N
// values indexed by twice a column below N, and the lower side of a window that starts at an
// offset. None of those tests is the end of the buffers.
#include "cuda_check.h"

__device__ __forceinline__ int isInputOrConst(int id, int inputs) { return id <= inputs; }

__global__ void countFanouts(const int* fanin, int* fanoutCount, int inputs, int nodes) {
    int stride = gridDim.x * blockDim.x;
    for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < nodes; idx += stride) {
        int nodeId = idx;
        if (isInputOrConst(nodeId, inputs)) continue;
        atomicAdd(&fanoutCount[fanin[nodeId]], 1);
    }
}

__global__ void twiddle(const float* x, const float* w, float* z, int M, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M * N) {
        int row = i / N;
        int col = i - row * N;
        int c2 = col << 1;
        if (c2 <= N) {
            z[i] = x[i] * w[c2] + w[c2 + 1];
        } else {
            z[i] = x[i] * w[c2] - w[c2 + 1];
        }
    }
}

struct GraphNode {
    int var;
    int low;
};

__global__ void attachPairs(GraphNode* graph, const int* pairs, int pairCount, int firstNode) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= pairCount) return;
    int nodeIdx = firstNode + tid;
    if (nodeIdx >= firstNode && graph[nodeIdx].var >= 0) {
        graph[nodeIdx].low = pairs[2 * tid];
    }
}

int main() {
    const int inputs = 64, nodes = 1024, M = 16, N = 32, pairCount = 256, firstNode = 512;
    int *fanin, *fanoutCount, *pairs;
    float *x, *w, *z;
    GraphNode* graph;
    CUDA_CHECK(cudaMalloc(&fanin, nodes * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&fanoutCount, nodes * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&x, M * N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&w, 2 * N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&z, M * N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&graph, (firstNode + pairCount) * sizeof(GraphNode)));
    CUDA_CHECK(cudaMalloc(&pairs, 2 * pairCount * sizeof(int)));
    CUDA_CHECK(cudaMemset(fanin, 0, nodes * sizeof(int)));
    CUDA_CHECK(cudaMemset(fanoutCount, 0, nodes * sizeof(int)));
    CUDA_CHECK(cudaMemset(x, 0, M * N * sizeof(float)));
    CUDA_CHECK(cudaMemset(w, 0, 2 * N * sizeof(float)));
    CUDA_CHECK(cudaMemset(graph, 0, (firstNode + pairCount) * sizeof(GraphNode)));
    CUDA_CHECK(cudaMemset(pairs, 0, 2 * pairCount * sizeof(int)));
    countFanouts<<<8, 128>>>(fanin, fanoutCount, inputs, nodes);
    CUDA_CHECK(cudaGetLastError());
    twiddle<<<(M * N + 127) / 128, 128>>>(x, w, z, M, N);
    CUDA_CHECK(cudaGetLastError());
    attachPairs<<<(pairCount + 127) / 128, 128>>>(graph, pairs, pairCount, firstNode);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(fanin));
    CUDA_CHECK(cudaFree(fanoutCount));
    CUDA_CHECK(cudaFree(x));
    CUDA_CHECK(cudaFree(w));
    CUDA_CHECK(cudaFree(z));
    CUDA_CHECK(cudaFree(graph));
    CUDA_CHECK(cudaFree(pairs));
    return 0;
}
