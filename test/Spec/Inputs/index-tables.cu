// Index tables with the shapes programs give them: row pointers of a sparse
// matrix whose rows have uneven lengths, a gather through a permutation,
// a binary search over sorted keys.

// y = A x for a CSR matrix of R rows with 0 to 40 nonzeros each: the
// column array is sized for the most rows can hold.
#pragma optiml kernel sizes(R = 1 << 16, C = 1 << 16, M = 40) \
    in(row_ptr[R + 1], cols[R * M], vals[R * M], x[C]) out(y[R]) \
    scalar(rows = R) grid((R + 255) / 256) block(256) \
    dist(row_ptr = offsets(0, M), cols = int(0, C - 1)) \
    tolerance(rtol = 1e-5, atol = 1e-5)
__global__ void spmv_uneven(const int *row_ptr, const int *cols,
                            const float *vals, const float *x, float *y,
                            int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0;
  for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
    s += vals[k] * x[cols[k]];
  y[r] = s;
}

#pragma optiml kernel sizes(N = 1 << 20) in(perm[N], x[N]) out(y[N]) \
    scalar(n = N) grid((N + 255) / 256) block(256) dist(perm = permutation())
__global__ void gather(const unsigned *perm, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[perm[i]];
}

#pragma optiml kernel sizes(K = 4096, Q = 1 << 20) in(keys[K], q[Q]) \
    out(pos[Q]) scalar(nk = K, nq = Q) grid((Q + 255) / 256) block(256) \
    dist(keys = sorted(-100, 100), q = uniform(-120, 120)) \
    tolerance(rtol = 0, atol = 0)
__global__ void lower_bound(const float *keys, const float *q, int *pos,
                            int nk, int nq) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nq)
    return;
  int lo = 0, hi = nk;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (keys[mid] < q[i])
      lo = mid + 1;
    else
      hi = mid;
  }
  pos[i] = lo;
}

// Refused: a permutation of 1000 elements does not fit in a byte.
#pragma optiml kernel sizes(N = 1000) in(p[N], x[N]) out(y[N]) grid(4) \
    block(256) dist(p = permutation())
__global__ void narrow_perm(const unsigned char *p, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 1000)
    y[i] = x[p[i]];
}
