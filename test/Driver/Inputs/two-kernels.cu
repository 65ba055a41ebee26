__global__ void alpha(float *p) { p[threadIdx.x] = 1.0f; }
__global__ void beta(float *p) { p[threadIdx.x] = 2.0f; }
