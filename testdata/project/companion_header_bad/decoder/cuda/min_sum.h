// The header of cuda/min_sum.cu: it declares the kernel for the launcher, and min_sum.cu does
// not include it (the linker joins the declaration to the definition by name).
#pragma once
extern __global__ void min_sum_stage(unsigned int *var_nodes, const unsigned int *pos_nodes);
