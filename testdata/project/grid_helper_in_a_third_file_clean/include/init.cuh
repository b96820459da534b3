// Declarations shared by the host code: the grid helper is defined in src/init.cu, the kernel in
// src/rollout.cu.
#pragma once
unsigned int countBlocks(unsigned int a, unsigned int b);
__global__ void rollout(float* costs);
