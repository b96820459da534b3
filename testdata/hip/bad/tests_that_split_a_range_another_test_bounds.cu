// Bad: kernels in the style of logic-synthesis and placement tools, with the tests that bounded
// their indices gone. The fanout count reads its node past the node count, which is then the
// only size it tests against, and the window's test is now against its end.
#include "hip_check.h"

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
    HIP_CHECK(hipMalloc(&fanin, nodes * sizeof(int)));
    HIP_CHECK(hipMalloc(&fanoutCount, nodes * sizeof(int)));
    HIP_CHECK(hipMalloc(&x, M * N * sizeof(float)));
    HIP_CHECK(hipMalloc(&w, 2 * N * sizeof(float)));
    HIP_CHECK(hipMalloc(&z, M * N * sizeof(float)));
    HIP_CHECK(hipMalloc(&graph, (firstNode + pairCount) * sizeof(GraphNode)));
    HIP_CHECK(hipMalloc(&pairs, 2 * pairCount * sizeof(int)));
    HIP_CHECK(hipMemset(fanin, 0, nodes * sizeof(int)));
    HIP_CHECK(hipMemset(fanoutCount, 0, nodes * sizeof(int)));
    HIP_CHECK(hipMemset(x, 0, M * N * sizeof(float)));
    HIP_CHECK(hipMemset(w, 0, 2 * N * sizeof(float)));
    HIP_CHECK(hipMemset(graph, 0, (firstNode + pairCount) * sizeof(GraphNode)));
    HIP_CHECK(hipMemset(pairs, 0, 2 * pairCount * sizeof(int)));
    hipLaunchKernelGGL(countFanouts, 8, 128, 0, 0, fanin, fanoutCount, inputs, nodes);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(twiddle, (M * N + 127) / 128, 128, 0, 0, x, w, z, M, N);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(attachPairs, (pairCount + 127) / 128, 128, 0, 0, graph, pairs, pairCount, firstNode, firstNode + pairCount);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(fanin));
    HIP_CHECK(hipFree(fanoutCount));
    HIP_CHECK(hipFree(x));
    HIP_CHECK(hipFree(w));
    HIP_CHECK(hipFree(z));
    HIP_CHECK(hipFree(graph));
    HIP_CHECK(hipFree(pairs));
    return 0;
}
