// Bad: a warp-cooperative search. Whole warps leave when the warp's first thread is past the
// queries, so the last warp keeps its threads past the end; `lane_id()` reads the lane in
// assembly, and nothing known of it bounds `tid - lane_id()` to a warp start. The result is
// stored with no test of its own, one element past `num_queries` and up to 31 of them.
__device__ __forceinline__ unsigned lane_id() {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__device__ unsigned search_unit(bool active, unsigned query) {
  const unsigned ballot = __ballot_sync(0xffffffffu, active);
  return active ? query + __popc(ballot) : 0u;
}

__global__ void search(const unsigned* __restrict__ queries, unsigned* __restrict__ results,
                       unsigned num_queries) {
  const unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  const unsigned lane = lane_id();
  if ((tid - lane) >= num_queries) return;
  unsigned query = 0;
  bool active = false;
  if (tid < num_queries) {
    query = queries[tid];
    active = true;
  }
  const unsigned found = search_unit(active, query);
  results[tid] = found; // expect: unguarded-thread-index
}
