// Declarations shared by the host code: the grid helper is defined in src/init.cu.
#pragma once
unsigned int countBlocks(unsigned int a, unsigned int b);
