// Wrong: element 7 is off by one. Must be REJECTED (mismatch).
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i] + (i == 7 ? 1.0f : 0.0f);
}

