__global__ void plain(float *p) { p[threadIdx.x] = 1.0f; }
