#pragma once
void diffuse_poles(double* diff, const double* rho, const double* areas, const int* neighbours,
                   int num, int nv);
