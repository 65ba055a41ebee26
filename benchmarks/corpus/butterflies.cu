// Butterfly transforms on complex float2 data and on floats.
//
// fft_radix2_stage: one decimation-in-time radix-2 stage of an iterative
// FFT, in place in global memory, half the length of the stage's groups
// (`halfsize`, the distance between the two points of a butterfly) a scalar
// as the host loop over stages passes it; a thread per butterfly, the
// twiddle exp(-i*pi*pos/halfsize) from sincospif. The host runs log2(n)
// launches on bit-reversed input; one launch is measured (a middle stage,
// halfsize = 1024).
// fft1024_shared: a whole 1024-point FFT per block in __shared__ memory:
// load in bit-reversed order (__brev), ten stages separated by barriers,
// each of the 256 threads doing two butterflies a stage in a block-stride
// loop, twiddles from the fast __sincosf, store in natural order. Output
// magnitudes reach about 30 and the twiddles are only good to about 1e-6,
// so atol = 1e-3.
// fwht_block: an unnormalized fast Walsh-Hadamard transform of
// 2^log2n floats per block, in place, through extern __shared__ memory
// (a + b, a - b per pair, log2n stages).
#include <cuda_runtime.h>

#pragma optiml kernel sizes(N = 1 << 26, H = 1024) inout(data[N]) \
    scalar(n = N, halfsize = H) grid((N / 2 + 255) / 256) block(256) \
    tolerance(rtol = 1e-5, atol = 1e-5, norm = 1e-6) \
    instance(odd: N = 100008, H = 4)
__global__ void fft_radix2_stage(float2 *data, int n, int halfsize) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n / 2)
    return;
  int pos = k % halfsize;
  int i0 = (k / halfsize) * 2 * halfsize + pos;
  int i1 = i0 + halfsize;
  float s, c;
  sincospif(-(float)pos / (float)halfsize, &s, &c);
  float2 a = data[i0];
  float2 b = data[i1];
  float2 bw = make_float2(b.x * c - b.y * s, b.x * s + b.y * c);
  data[i0] = make_float2(a.x + bw.x, a.y + bw.y);
  data[i1] = make_float2(a.x - bw.x, a.y - bw.y);
}

#define FFT_N 1024
#define FFT_LOG2N 10
#define FFT_THREADS 256

#pragma optiml kernel sizes(B = 65536) in(in[B * 1024]) out(out[B * 1024]) \
    grid(B) block(256) \
    tolerance(rtol = 1e-3, atol = 1e-3, norm = 1e-5) instance(odd: B = 1001)
__global__ void fft1024_shared(const float2 *in, float2 *out) {
  __shared__ float2 buf[FFT_N];
  const float2 *src = in + (size_t)blockIdx.x * FFT_N;
  float2 *dst = out + (size_t)blockIdx.x * FFT_N;

  for (int i = threadIdx.x; i < FFT_N; i += blockDim.x)
    buf[__brev(i) >> (32 - FFT_LOG2N)] = src[i];
  __syncthreads();

  for (int halfsize = 1; halfsize < FFT_N; halfsize <<= 1) {
    for (int k = threadIdx.x; k < FFT_N / 2; k += blockDim.x) {
      int pos = k & (halfsize - 1);
      int i0 = ((k - pos) << 1) + pos;
      int i1 = i0 + halfsize;
      float s, c;
      __sincosf(-3.14159265f * (float)pos / (float)halfsize, &s, &c);
      float2 a = buf[i0];
      float2 b = buf[i1];
      float2 bw = make_float2(b.x * c - b.y * s, b.x * s + b.y * c);
      buf[i0] = make_float2(a.x + bw.x, a.y + bw.y);
      buf[i1] = make_float2(a.x - bw.x, a.y - bw.y);
    }
    __syncthreads();
  }

  for (int i = threadIdx.x; i < FFT_N; i += blockDim.x)
    dst[i] = buf[i];
}

#pragma optiml kernel sizes(B = 32768, L = 12) inout(data[B << L]) \
    scalar(log2n = L) grid(B) block(512) shmem(4 << L) \
    tolerance(rtol = 1e-4, atol = 1e-3, norm = 1e-5) \
    instance(odd: B = 1001, L = 10)
__global__ void fwht_block(float *data, int log2n) {
  extern __shared__ float s[];
  const int n = 1 << log2n;
  float *d = data + (size_t)blockIdx.x * n;

  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s[i] = d[i];
  __syncthreads();

  for (int h = 1; h < n; h <<= 1) {
    for (int k = threadIdx.x; k < n / 2; k += blockDim.x) {
      int pos = k & (h - 1);
      int i0 = ((k - pos) << 1) + pos;
      int i1 = i0 + h;
      float a = s[i0];
      float b = s[i1];
      s[i0] = a + b;
      s[i1] = a - b;
    }
    __syncthreads();
  }

  for (int i = threadIdx.x; i < n; i += blockDim.x)
    d[i] = s[i];
}

// Host side. A full FFT of length n (a power of two) on data already in
// bit-reversed order: one launch per stage.
void fft_inplace(float2 *d_data, int n, cudaStream_t stream) {
  int threads = 256;
  int blocks = (n / 2 + threads - 1) / threads;
  for (int halfsize = 1; halfsize < n; halfsize *= 2)
    fft_radix2_stage<<<blocks, threads, 0, stream>>>(d_data, n, halfsize);
}

void fft1024_batched(const float2 *d_in, float2 *d_out, int batch) {
  fft1024_shared<<<batch, FFT_THREADS>>>(d_in, d_out);
}

void walsh_hadamard_batched(float *d_data, int batch, int log2n) {
  size_t smem = sizeof(float) << log2n;
  fwht_block<<<batch, 512, smem>>>(d_data, log2n);
}
