#ifndef PROJ_SCALE_H
#define PROJ_SCALE_H
__device__ inline float scaled(float v) { return SCALE * v; }
#endif
