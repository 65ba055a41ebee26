// Faults: writes through a null pointer. Must be REJECTED (fault).
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0)
    *(volatile float *)nullptr = 1.0f;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

