// Hangs: thread 0 spins forever. Must be REJECTED (timeout) without stopping the tool.
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0)
    while (true) {
      __nanosleep(1000);
    }
  if (i < n)
    y[i] = a * x[i] + y[i];
}

