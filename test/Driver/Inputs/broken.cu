// Does not parse: one error.
__global__ void k(float *p) {
  int i = threadIdx.x;
  p[i] = 1.0f;
  return undefined_thing;
}
