// Clean: a state update over variable-length sequences, two tiles per (sequence, head). Each
// block reads which sequence it serves from `seq_order` (one value for the whole block) and its
// head from the block number taken modulo the head count; the row inside the tile comes from the
// warp and lane. The sequence is a given of the launch, like a parameter: the index scales it by
// whole heads and adds parts bounded by construction, so nothing in it grows with the grid.
__global__ void state_update(const float* __restrict__ initial_state,
                             const int* __restrict__ seq_order, float* __restrict__ out,
                             int num_heads) {
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int task = blockIdx.x / 2;
  const int value_row_offset = (blockIdx.x % 2) * 64;
  const int seq = seq_order[task / num_heads];
  const int head = task % num_heads;
  const int row = value_row_offset + (warp % 4) * 16 + lane / 4;
  const long long head_base = ((long long)seq * num_heads + head) * 128 * 128;
  const long long base = head_base + (long long)row * 128;
  for (int col = 0; col < 128; ++col) {
    out[base + col] = 2.0f * initial_state[base + col];
  }
}
