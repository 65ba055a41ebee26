__global__ void alpha(float *p) { p[0] = 1; }
__global__ void beta(float *p) {
  for (int i = 0; i < 4; ++i)
    p[i] = 2;
}
