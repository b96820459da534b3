// Bad: kernels in the style of logic-synthesis and placement tools, with the tests that bounded
// their indices gone. The fanout count reads its node past the node count, which is then the
// only size it tests against, and the window's test is now against its end.
#include "cuda_check.h"

__device__ __forceinline__ int isInputOrConst(int id, int inputs) { return id <= inputs; }

__global__ void countFanouts(const int* fanin, int* fanoutCount, int inputs, int nodes) {
    int nodeId = blockIdx.x * blockDim.x + threadIdx.x;
    if (nodeId >= nodes) {
        atomicAdd(&fanoutCount[fanin[nodeId]], 1);  // expect: out-of-range-access
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

__global__ void attachPairs(GraphNode* graph, const int* pairs, int pairCount, int firstNode,
                            int nodeCount) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int nodeIdx = firstNode + tid;
    if (nodeIdx >= nodeCount) {
        graph[nodeIdx].low = -1;  // expect: out-of-range-access
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
    attachPairs<<<(pairCount + 127) / 128, 128>>>(graph, pairs, pairCount, firstNode, firstNode + pairCount);
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
