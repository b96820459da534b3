// Clean: the driver's entry point, declared in src/headers/esp_driver.h.
#include "esp_driver.h"

void step(double* diff, const double* rho, const double* areas, const int* neighbours, int num,
          int nv) {
    diffuse_poles(diff, rho, areas, neighbours, num, nv);
}
