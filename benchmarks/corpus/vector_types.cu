// Kernels over CUDA's built-in vector types, the way programs use them to
// move 8 or 16 bytes per load or to carry pixels and pairs.
//
// saxpy_float4: y = a*x + y on float4s (four floats a load), a grid-stride
// loop over n / 4 vectors; the launcher reinterprets float pointers as
// float4 and expects n to be a multiple of 4, as code that pads its
// allocations does.
// rgba_to_gray: uchar4 RGBA pixels to one luma byte, BT.601 weights in 8.8
// fixed point (77, 150, 29), a 2-D grid of 32x8 blocks.
// rgba_brightness_contrast: per channel (c - 128) * contrast + 128 +
// brightness in float, rounded and clamped to a byte, alpha copied; float
// math rounded to bytes, so a value that a different rounding of the float
// moves across .5 may differ by one: atol = 1.
// cross_spectrum_d2: a * conj(b) * scale on double2 complex numbers.
// gather_by_key: int2 (key, count) records, out = table[key] * count; the
// mark gives the key field the table's range and the count its own.
#include <cuda_runtime.h>

#pragma optiml kernel sizes(N4 = 1 << 24) in(x[N4]) inout(y[N4]) \
    scalar(n4 = N4, a = 2.5) grid(2048) block(256) \
    tolerance(rtol = 1e-6, atol = 1e-6) instance(odd: N4 = 100003)
__global__ void saxpy_float4(int n4, float a, const float4 *__restrict__ x,
                             float4 *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4;
       i += blockDim.x * gridDim.x) {
    float4 xv = x[i];
    float4 yv = y[i];
    yv.x = a * xv.x + yv.x;
    yv.y = a * xv.y + yv.y;
    yv.z = a * xv.z + yv.z;
    yv.w = a * xv.w + yv.w;
    y[i] = yv;
  }
}

#pragma optiml kernel sizes(W = 16384, H = 8192) in(rgba[W * H]) \
    out(gray[W * H]) scalar(width = W, height = H) \
    grid((W + 31) / 32, (H + 7) / 8) block(32, 8) \
    dist(rgba = int(0, 255)) tolerance(rtol = 0, atol = 0) \
    instance(odd: W = 1001, H = 777)
__global__ void rgba_to_gray(const uchar4 *rgba, unsigned char *gray,
                             int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    uchar4 p = rgba[y * width + x];
    gray[y * width + x] =
        (unsigned char)((77 * p.x + 150 * p.y + 29 * p.z + 128) >> 8);
  }
}

__device__ unsigned char adjust_channel(unsigned char c, float brightness,
                                        float contrast) {
  float v = ((float)c - 128.0f) * contrast + 128.0f + brightness;
  v = fminf(fmaxf(v, 0.0f), 255.0f);
  return (unsigned char)__float2uint_rn(v);
}

#pragma optiml kernel sizes(N = 1 << 27) in(src[N]) out(dst[N]) \
    scalar(npix = N, brightness = 12.5, contrast = 1.3) \
    grid((N + 255) / 256) block(256) \
    dist(src.x = int(0, 255), src.y = int(0, 255), src.z = int(0, 255), \
         src.w = constant(255)) \
    tolerance(rtol = 0, atol = 1) instance(odd: N = 100003)
__global__ void rgba_brightness_contrast(const uchar4 *src, uchar4 *dst,
                                         int npix, float brightness,
                                         float contrast) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < npix) {
    uchar4 p = src[i];
    uchar4 q;
    q.x = adjust_channel(p.x, brightness, contrast);
    q.y = adjust_channel(p.y, brightness, contrast);
    q.z = adjust_channel(p.z, brightness, contrast);
    q.w = p.w;
    dst[i] = q;
  }
}

#pragma optiml kernel sizes(N = 1 << 24) in(a[N], b[N]) out(c[N]) \
    scalar(n = N, scale = 0.125) grid((N + 255) / 256) block(256) \
    tolerance(rtol = 1e-12, atol = 1e-12, norm = 1e-12) \
    instance(odd: N = 100003)
__global__ void cross_spectrum_d2(const double2 *a, const double2 *b,
                                  double2 *c, double scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double2 p = a[i];
    double2 q = b[i];
    double2 r;
    r.x = (p.x * q.x + p.y * q.y) * scale;
    r.y = (p.y * q.x - p.x * q.y) * scale;
    c[i] = r;
  }
}

#pragma optiml kernel sizes(N = 1 << 26, M = 1 << 20) in(kv[N], table[M]) \
    out(out[N]) scalar(n = N) grid((N + 255) / 256) block(256) \
    dist(kv.x = int(0, M - 1), kv.y = int(1, 16)) \
    tolerance(rtol = 1e-6, atol = 1e-6) instance(odd: N = 100003)
__global__ void gather_by_key(const int2 *kv, const float *table, float *out,
                              int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int2 e = kv[i];
    out[i] = table[e.x] * (float)e.y;
  }
}

// Host side. saxpy on plain float buffers (n a multiple of 4).
void saxpy(int n, float a, const float *d_x, float *d_y, cudaStream_t s) {
  int n4 = n / 4;
  int blocks = (n4 + 255) / 256;
  if (blocks > 2048)
    blocks = 2048;
  saxpy_float4<<<blocks, 256, 0, s>>>(n4, a,
                                      reinterpret_cast<const float4 *>(d_x),
                                      reinterpret_cast<float4 *>(d_y));
}

void process_frame(const uchar4 *d_frame, uchar4 *d_adjusted,
                   unsigned char *d_luma, int width, int height,
                   float brightness, float contrast) {
  int npix = width * height;
  rgba_brightness_contrast<<<(npix + 255) / 256, 256>>>(
      d_frame, d_adjusted, npix, brightness, contrast);
  dim3 block(32, 8);
  dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  rgba_to_gray<<<grid, block>>>(d_adjusted, d_luma, width, height);
}

void cross_spectrum(const double2 *d_a, const double2 *d_b, double2 *d_c,
                    int n) {
  cross_spectrum_d2<<<(n + 255) / 256, 256>>>(d_a, d_b, d_c, 1.0 / n, n);
}

void lookup_weighted(const int2 *d_kv, const float *d_table, float *d_out,
                     int n) {
  gather_by_key<<<(n + 255) / 256, 256>>>(d_kv, d_table, d_out, n);
}
