// Clean: a merge step places each key at `start + slot + tid * depth` in its block's part of
// the output (the last part cut to what is left), testing that sum, kept in a local, against
// the part's end. The stores write the same sum with its terms (and a product's factors) in
// another order, and nothing changes its parts between the test and the stores: the test
// bounds them. (A library kernel: no launch in sight says anything of the grid.)

__global__ void place_keys(const int* __restrict__ keys, int* __restrict__ out, int depth,
                           int part_size, int size) {
  const int start = blockIdx.x * part_size;
  int part = part_size;
  if (start + part_size > size) part = size - start;
  const int tid = threadIdx.x;
  const int slot = keys[tid] & 7;
  const int address = start + slot + tid * depth;
  if (address < start + part) {
    out[start + tid * depth + slot] = keys[tid];
    out[start + depth * tid + slot] += 1;
  }
}
