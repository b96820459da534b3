// Shared configuration of the CUDA program and of its HIP port (read, not linted: a `.h` file).
#ifndef SCALE_CONFIG_H
#define SCALE_CONFIG_H
#define SCALE_BLOCK 256
#endif
