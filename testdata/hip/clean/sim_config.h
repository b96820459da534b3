// Launch constants shared by the host and the kernels of launch_constants.cu (not itself a fixture).
#pragma once

#define SIM_THREADS_PER_BLOCK 128
#define SIM_NUM_BLOCKS 240
#define SIM_TOTAL_THREADS (SIM_THREADS_PER_BLOCK * SIM_NUM_BLOCKS)
