// Host emulation of the CUDA that tensor-cores writes, for emulate.py: each
// CUDA thread is a std::thread, each wmma fragment a whole matrix per lane (so
// a lane's collective call computes what the warp's would), with checks of
// the alignment and tf32 rules that the hardware imposes.
#pragma once
#include <barrier>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

struct uint3_ { unsigned x = 0, y = 0, z = 0; };
struct dim3 {
  unsigned x, y, z;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
inline thread_local uint3_ threadIdx, blockIdx;
inline dim3 blockDim, gridDim;
#define __global__
#define __device__
#define __host__
#define __shared__ static
#define __restrict__
#define __align__(n) __attribute__((aligned(n)))
inline std::barrier<> *g_block_barrier;
inline thread_local std::barrier<> *t_warp_barrier;
inline void __syncthreads() { g_block_barrier->arrive_and_wait(); }
inline void __syncwarp() { t_warp_barrier->arrive_and_wait(); }

static void fail(const char *what) { std::fprintf(stderr, "EMU FAIL: %s\n", what); std::abort(); }

struct __half {
  _Float16 v;
};
inline __half __float2half(float f) { __half h; h.v = (_Float16)f; return h; }
inline float __half2float(__half h) { return (float)h.v; }
struct __nv_bfloat16 {
  float v;
};
inline float bf16round(float f) {
  uint32_t b; std::memcpy(&b, &f, 4);
  uint32_t lsb = (b >> 16) & 1;
  b += 0x7fff + lsb; b &= 0xffff0000u;
  float r; std::memcpy(&r, &b, 4); return r;
}
inline __nv_bfloat16 __float2bfloat16(float f) { __nv_bfloat16 h; h.v = bf16round(f); return h; }
inline float __bfloat162float(__nv_bfloat16 h) { return h.v; }
inline float toF(float f) { return f; }
inline float toF(__half h) { return (float)h.v; }
inline float toF(__nv_bfloat16 h) { return h.v; }

namespace nvcuda { namespace wmma {
struct matrix_a {}; struct matrix_b {}; struct accumulator {};
struct row_major {}; struct col_major {};
namespace precision { struct tf32 {}; }
enum layout_t { mem_row_major, mem_col_major };
template <typename Use, int M, int N, int K> struct dims;
template <int M, int N, int K> struct dims<matrix_a, M, N, K> { static const int R = M, C = K; };
template <int M, int N, int K> struct dims<matrix_b, M, N, K> { static const int R = K, C = N; };
template <int M, int N, int K> struct dims<accumulator, M, N, K> { static const int R = M, C = N; };
template <typename Use, int M, int N, int K, typename T, typename Layout = void>
struct fragment {
  static const int R = dims<Use, M, N, K>::R, C = dims<Use, M, N, K>::C;
  float v[R * C];
  float &at(int r, int c) { return v[r * C + c]; }
  float at(int r, int c) const { return v[r * C + c]; }
};
inline float __float_to_tf32(float f) {
  uint32_t b; std::memcpy(&b, &f, 4);
  b += 0x1000; b &= 0xffffe000u;   // round to nearest, ties away
  float r; std::memcpy(&r, &b, 4); return r;
}
inline bool isTf32(float f) { uint32_t b; std::memcpy(&b, &f, 4); return (b & 0x1fff) == 0; }
template <typename T> constexpr unsigned ldmUnit() { return sizeof(T) == 4 ? 4 : 8; }
template <typename Use, int M, int N, int K, typename T, typename L, typename E>
void load_matrix_sync(fragment<Use, M, N, K, T, L> &f, const E *p, unsigned ldm) {
  if (reinterpret_cast<uintptr_t>(p) % 32) fail("load_matrix_sync: pointer not 32-byte aligned");
  if (ldm % ldmUnit<E>()) fail("load_matrix_sync: ldm not a multiple of 16 bytes");
  using Fr = fragment<Use, M, N, K, T, L>;
  for (int r = 0; r < Fr::R; ++r)
    for (int c = 0; c < Fr::C; ++c)
      f.at(r, c) = toF(std::is_same_v<L, row_major> ? p[r * ldm + c] : p[c * ldm + r]);
  if constexpr (std::is_same_v<T, precision::tf32>)
    for (float x : f.v) if (!isTf32(x)) fail("tf32 fragment holds a value that is not tf32");
}
template <int M, int N, int K, typename T>
void fill_fragment(fragment<accumulator, M, N, K, T> &f, float v) { for (float &x : f.v) x = v; }
template <int M, int N, int K, typename TA, typename LA, typename TB, typename LB>
void mma_sync(fragment<accumulator, M, N, K, float> &d, const fragment<matrix_a, M, N, K, TA, LA> &a,
              const fragment<matrix_b, M, N, K, TB, LB> &b, const fragment<accumulator, M, N, K, float> &c) {
  static_assert(std::is_same_v<TA, TB>);
  float out[M * N];
  for (int r = 0; r < M; ++r)
    for (int q = 0; q < N; ++q) {
      double s = c.at(r, q);
      for (int k = 0; k < K; ++k) s += (double)a.at(r, k) * b.at(k, q);
      out[r * N + q] = (float)s;
    }
  std::memcpy(d.v, out, sizeof out);
}
template <int M, int N, int K>
void store_matrix_sync(float *p, const fragment<accumulator, M, N, K, float> &f, unsigned ldm, layout_t l) {
  if (reinterpret_cast<uintptr_t>(p) % 32) fail("store_matrix_sync: pointer not 32-byte aligned");
  if (ldm % 4) fail("store_matrix_sync: ldm");
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c)
      (l == mem_row_major ? p[r * ldm + c] : p[c * ldm + r]) = f.at(r, c);
}
}} // namespace nvcuda::wmma

template <typename F, typename... Args>
void launch(dim3 grid, dim3 block, F kernel, Args... args) {
  blockDim = block;
  gridDim = grid;
  unsigned n = block.x * block.y * block.z;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        std::barrier<> bb(n);
        g_block_barrier = &bb;
        std::vector<std::unique_ptr<std::barrier<>>> warps;
        for (unsigned w = 0; w < (n + 31) / 32; ++w)
          warps.push_back(std::make_unique<std::barrier<>>(std::min(32u, n - 32 * w)));
        std::vector<std::thread> ts;
        for (unsigned t = 0; t < n; ++t)
          ts.emplace_back([&, t] {
            threadIdx = {t % block.x, t / block.x % block.y, t / (block.x * block.y)};
            blockIdx = {bx, by, bz};
            t_warp_barrier = warps[t / 32].get();
            kernel(args...);
          });
        for (auto &th : ts) th.join();
      }
}
