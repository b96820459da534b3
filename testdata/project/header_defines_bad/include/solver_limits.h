// Limits of the solver's inputs (read, not linted), included through solver_config.h.
#pragma once

#define ROW_TILE 32
#define MAX_ROWS (ROW_TILE * 4096)

// Which bound a build has depends on the compiler's version: not known to the linter, so
// MAX_COLUMN_ROWS is no constant (taking the first branch would make the launch look bounded).
#if __CUDACC_VER_MAJOR__ >= 12
#define MAX_COLUMN_ROWS (ROW_TILE * 64)
#else
#define MAX_COLUMN_ROWS (ROW_TILE * 4096)
#endif
