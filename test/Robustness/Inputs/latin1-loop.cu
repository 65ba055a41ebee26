// A Latin-1 byte (0xE9) in a comment inside a loop header and in one
// above the kernel (café): the file is not UTF-8, and nvcc takes it as it is.
#pragma optiml kernel sizes(N = 1024) in(x[N]) out(y[N]) scalar(n = N) \
    grid(ceil_div(N, 256)) block(256)
__global__ void copy(int n, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; /* café */ i < n;
       i += gridDim.x * blockDim.x)
    y[i] = x[i];
}
