__global__ void helper(const float *x, double *y) {}

#pragma optiml kernel sizes(N = 64) inout(u[N], v[N]) scalar(n = N) \
    grid(1) block(64) then(helpr<<<1, 1>>>(u, v))
__global__ void misspelt(float *u, float *v, int n) {}

#pragma optiml kernel sizes(N = 64) inout(u[N], v[N]) scalar(n = N) \
    grid(1) block(64) then(helper<<<1, 1>>>(u, v))
__global__ void wrong_element(float *u, float *v, int n) {}

#pragma optiml kernel sizes(N = 64) in(u[N]) inout(v[N]) scalar(n = N) \
    grid(1) block(64) repeat(4) swap(u, v)
__global__ void swaps_input(float *u, float *v, int n) {}

#pragma optiml kernel sizes(N = 64) inout(u[N], v[N]) scalar(n = N, d = D) \
    grid(1) block(64) repeat(D = 1 .. 70000)
__global__ void too_long(float *u, float *v, int n, int d) {}
