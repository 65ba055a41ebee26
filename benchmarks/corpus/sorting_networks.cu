// Sorting networks, the data-independent sorts people put on GPUs.
// bitonic_sort_segments: each block sorts a segment of 1024 float keys in
// __shared__ memory with the classic bitonic network (512 threads, one
// compare-exchange each per step, the direction taken from `pos & size`,
// a barrier before every step); the tail of the last segment is padded
// with +INFINITY, which sorts to the end, and only real keys are written.
// bitonic_sort_kv: the same network over 2048 (key, value) pairs with 1024
// threads, keys float and values int (an argsort when the values are the
// positions); ties on the key are broken by the value so the result is
// unique. sort_rows_oddeven: one thread per row of 16 floats, an odd-even
// transposition sort in a local array (the inner loop starts at
// `phase & 1`), with uncoalesced row loads and stores.
#include <cuda_runtime.h>
#include <climits>
#include <math.h>

#define SEG_KEYS 1024

#pragma optiml kernel sizes(N = 1 << 24) in(keys_in[N]) out(keys_out[N]) \
    scalar(n = N) grid((N + 1023) / 1024) block(512) \
    dist(keys_in = normal(0, 100)) tolerance(rtol = 0, atol = 0) \
    instance(odd: N = 100003)
__global__ void bitonic_sort_segments(const float *keys_in, float *keys_out,
                                      int n) {
  __shared__ float s_keys[SEG_KEYS];
  int seg_start = blockIdx.x * SEG_KEYS;

  for (int i = threadIdx.x; i < SEG_KEYS; i += blockDim.x) {
    int g = seg_start + i;
    s_keys[i] = g < n ? keys_in[g] : INFINITY;
  }

  for (int size = 2; size <= SEG_KEYS; size <<= 1) {
    for (int stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      int pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      bool ascending = (pos & size) == 0;
      float a = s_keys[pos];
      float b = s_keys[pos + stride];
      if ((a > b) == ascending) {
        s_keys[pos] = b;
        s_keys[pos + stride] = a;
      }
    }
  }
  __syncthreads();

  for (int i = threadIdx.x; i < SEG_KEYS; i += blockDim.x) {
    int g = seg_start + i;
    if (g < n)
      keys_out[g] = s_keys[i];
  }
}

#define SEG_PAIRS 2048

__device__ __forceinline__ bool pair_greater(float ka, int va, float kb,
                                             int vb) {
  return ka > kb || (ka == kb && va > vb);
}

#pragma optiml kernel sizes(N = 1 << 24) in(keys_in[N], vals_in[N]) \
    out(keys_out[N], vals_out[N]) scalar(n = N) grid((N + 2047) / 2048) \
    block(1024) dist(keys_in = uniform(-1, 1), vals_in = index(1, 0)) \
    tolerance(rtol = 0, atol = 0) instance(odd: N = 100003)
__global__ void bitonic_sort_kv(const float *keys_in, const int *vals_in,
                                float *keys_out, int *vals_out, int n) {
  __shared__ float s_keys[SEG_PAIRS];
  __shared__ int s_vals[SEG_PAIRS];
  int seg_start = blockIdx.x * SEG_PAIRS;
  unsigned int tid = threadIdx.x;

  for (unsigned int i = tid; i < SEG_PAIRS; i += blockDim.x) {
    int g = seg_start + i;
    if (g < n) {
      s_keys[i] = keys_in[g];
      s_vals[i] = vals_in[g];
    } else {
      s_keys[i] = INFINITY;
      s_vals[i] = INT_MAX;
    }
  }

  for (unsigned int size = 2; size <= SEG_PAIRS; size *= 2) {
    for (unsigned int stride = size / 2; stride > 0; stride /= 2) {
      __syncthreads();
      unsigned int pos = 2 * tid - (tid & (stride - 1));
      bool ascending = (pos & size) == 0;
      float ka = s_keys[pos], kb = s_keys[pos + stride];
      int va = s_vals[pos], vb = s_vals[pos + stride];
      if (pair_greater(ka, va, kb, vb) == ascending) {
        s_keys[pos] = kb;
        s_keys[pos + stride] = ka;
        s_vals[pos] = vb;
        s_vals[pos + stride] = va;
      }
    }
  }
  __syncthreads();

  for (unsigned int i = tid; i < SEG_PAIRS; i += blockDim.x) {
    int g = seg_start + i;
    if (g < n) {
      keys_out[g] = s_keys[i];
      vals_out[g] = s_vals[i];
    }
  }
}

#define ROW_LEN 16

#pragma optiml kernel sizes(R = 1 << 22) in(in[R * 16]) out(out[R * 16]) \
    scalar(rows = R) grid((R + 127) / 128) block(128) \
    tolerance(rtol = 0, atol = 0) instance(odd: R = 100003)
__global__ void sort_rows_oddeven(const float *in, float *out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;

  float v[ROW_LEN];
  for (int j = 0; j < ROW_LEN; ++j)
    v[j] = in[r * ROW_LEN + j];

  for (int phase = 0; phase < ROW_LEN; ++phase) {
    for (int j = phase & 1; j + 1 < ROW_LEN; j += 2) {
      if (v[j] > v[j + 1]) {
        float t = v[j];
        v[j] = v[j + 1];
        v[j + 1] = t;
      }
    }
  }

  for (int j = 0; j < ROW_LEN; ++j)
    out[r * ROW_LEN + j] = v[j];
}

void sort_segments(const float *d_in, float *d_out, int n,
                   cudaStream_t stream) {
  int segments = (n + SEG_KEYS - 1) / SEG_KEYS;
  bitonic_sort_segments<<<segments, SEG_KEYS / 2, 0, stream>>>(d_in, d_out, n);
}

void argsort_segments(const float *d_keys, const int *d_idx, float *d_keys_out,
                      int *d_idx_out, int n, cudaStream_t stream) {
  int segments = (n + SEG_PAIRS - 1) / SEG_PAIRS;
  bitonic_sort_kv<<<segments, SEG_PAIRS / 2, 0, stream>>>(
      d_keys, d_idx, d_keys_out, d_idx_out, n);
}

void sort_small_rows(const float *d_in, float *d_out, int rows) {
  sort_rows_oddeven<<<(rows + 127) / 128, 128>>>(d_in, d_out, rows);
}
