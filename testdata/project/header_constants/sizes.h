// Sizes shared by the kernels and their launches.
#pragma once

#define POINTS_PER_BLOCK 256
#define LANES_PER_QUERY 64
