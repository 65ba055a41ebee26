// Parses, but defines no __global__ function.
__device__ float half(float x) { return x / 2; }
__global__ void declared_elsewhere(float *p);
int host() { return 1; }
