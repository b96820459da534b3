// The block count for `a` items in blocks of `b`: the quotient, one more where it leaves a
// remainder (a grid rounded up).
#include "../include/init.cuh"

unsigned int countBlocks(unsigned int a, unsigned int b) {
    unsigned int num;
    num = a / b;
    if (a < b || a % b > 0)
        num++;
    return num;
}
