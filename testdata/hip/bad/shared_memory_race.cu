// shared-memory-race: the shapes of a missing barrier, and their barrier-separated twins.
#define TILE 16
#define BLOCK 128

// The tile is read by other threads before a barrier says every thread has stored its element.
__global__ void transposeNoBarrier(const float* in, float* out, int n) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    out[x * n + y] = tile[threadIdx.x][threadIdx.y]; // expect: shared-memory-race
}

// A tree reduction whose loop has no barrier: step w reads what step 2w wrote.
__global__ void reduceNoBarrierInLoop(const float* in, float* out) {
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (int w = BLOCK / 2; w > 0; w >>= 1) {
        if (t < w) {
            s[t] += s[t + w]; // expect: warp-synchronous-without-sync // wavefront: threads 0 and 32 share one
        }
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
    }
}

// Every thread stores its own value into one slot.
__global__ void lastWriterWins(const float* in, float* out) {
    __shared__ float pivot;
    pivot = in[blockIdx.x * BLOCK + threadIdx.x]; // expect: shared-memory-race
    __syncthreads();
    out[blockIdx.x * BLOCK + threadIdx.x] = pivot;
}

// The same three, correct: a barrier between the writes and the reads, one writer for the slot.
__global__ void transposeWithBarrier(const float* in, float* out, int n) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    out[x * n + y] = tile[threadIdx.x][threadIdx.y];
}

__global__ void reduceWithBarrier(const float* in, float* out) {
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (int w = BLOCK / 2; w > 0; w >>= 1) {
        if (t < w) {
            s[t] += s[t + w];
        }
        __syncthreads();
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
    }
}

__global__ void oneWriter(const float* in, float* out, int* count) {
    __shared__ float pivot;
    __shared__ int seen;
    if (threadIdx.x == 0) {
        pivot = in[blockIdx.x * BLOCK];
        seen = 0;
    }
    __syncthreads();
    atomicAdd(&seen, 1);
    out[blockIdx.x * BLOCK + threadIdx.x] = pivot;
    __syncthreads();
    if (threadIdx.x == 0) {
        count[blockIdx.x] = seen;
    }
}

// Every thread reads the block's counter and stores back one more: the stored value is not what
// the slot held, so another warp's read sees the old or the new count.
__global__ void countUnsynchronised(const float* in, float* out) {
    __shared__ int counter;
    if (threadIdx.x == 0) counter = 0;
    __syncthreads();
    int seen = counter;
    counter = seen + 1; // expect: shared-memory-race
    out[blockIdx.x * BLOCK + threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x] * seen;
}

// The neighbour is read inside a helper, before the barrier that would make it stored.
__device__ float rightNeighbour(const float* row, int i) {
    return row[(i + 1) % BLOCK];
}

__global__ void smoothThroughHelper(const float* in, float* out) {
    __shared__ float row[BLOCK];
    int t = threadIdx.x;
    row[t] = in[blockIdx.x * BLOCK + t]; // expect: shared-memory-race
    out[blockIdx.x * BLOCK + t] = 0.5f * (row[t] + rightNeighbour(row, t));
}

// Thread 0 resets the counter while the other warps already count into it: a plain write and
// an atomic update of one element, with no barrier between them.
__global__ void countWithoutBarrier(const float* in, int* count) {
    __shared__ int hits;
    if (threadIdx.x == 0) hits = 0;
    atomicAdd(&hits, 1); // expect: shared-memory-race
    __syncthreads();
    if (threadIdx.x == 0) count[blockIdx.x] = hits + (in[blockIdx.x * BLOCK] > 0.0f);
}

void launchAll(const float* in, float* out, int* count, int n) {
    dim3 tile(TILE, TILE);
    dim3 tiles(n / TILE, n / TILE);
    hipLaunchKernelGGL(transposeNoBarrier, tiles, tile, 0, 0, in, out, n);
    if (hipGetLastError() != hipSuccess) return;
    hipLaunchKernelGGL(transposeWithBarrier, tiles, tile, 0, 0, in, out, n);
    if (hipGetLastError() != hipSuccess) return;
    hipLaunchKernelGGL(reduceNoBarrierInLoop, n / BLOCK, BLOCK, 0, 0, in, out);
    if (hipGetLastError() != hipSuccess) return;
    hipLaunchKernelGGL(reduceWithBarrier, n / BLOCK, BLOCK, 0, 0, in, out);
    if (hipGetLastError() != hipSuccess) return;
    hipLaunchKernelGGL(lastWriterWins, n / BLOCK, BLOCK, 0, 0, in, out);
    if (hipGetLastError() != hipSuccess) return;
    hipLaunchKernelGGL(oneWriter, n / BLOCK, BLOCK, 0, 0, in, out, count);
    if (hipGetLastError() != hipSuccess) return;
    hipLaunchKernelGGL(countUnsynchronised, n / BLOCK, BLOCK, 0, 0, in, out);
    if (hipGetLastError() != hipSuccess) return;
    hipLaunchKernelGGL(smoothThroughHelper, n / BLOCK, BLOCK, 0, 0, in, out);
    if (hipGetLastError() != hipSuccess) return;
    hipLaunchKernelGGL(countWithoutBarrier, n / BLOCK, BLOCK, 0, 0, in, count);
    if (hipGetLastError() != hipSuccess) return;
}
