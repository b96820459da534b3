// Limits of the solver's inputs (read, not linted), included through solver_config.h.
#pragma once

#define ROW_TILE 32
#define MAX_ROWS (ROW_TILE * 64)
