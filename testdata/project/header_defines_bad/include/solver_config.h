// Build configuration of the solver (read, not linted: a `.h` file). A build without
// -DSOLVER_FILL_BLOCK or -DSOLVER_SMALL_BLOCKS takes the default branch: blocks of 256.
#ifndef SOLVER_CONFIG_H
#define SOLVER_CONFIG_H

#include "solver_limits.h"

#ifdef SOLVER_FILL_BLOCK
    #define FILL_BLOCK SOLVER_FILL_BLOCK
#elif defined(SOLVER_SMALL_BLOCKS)
    #define FILL_BLOCK 64
#else
    #define FILL_BLOCK 256
#endif

#define FIRST_COMPONENT 1
#define COMPONENTS (FIRST_COMPONENT + 3)

#endif
