//===- OutputCheck.cu - Device-side checks of timed launches --------------===//
//
// Part of OptiML. Each check kernel walks its buffer grid-stride, reduces
// its findings per warp, adds them to the CheckCounters with one atomic per
// warp, and the last block to finish records the bytes of the first bad
// element (the "threadfence reduction" pattern), so one launch per buffer
// is enough. extern "C" keeps the names unmangled for CUPTI.
//
//===----------------------------------------------------------------------===//

#include "CudaCheck.h"
#include "OutputCheck.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace {

using optiml::CheckCounters;

constexpr unsigned Threads = 256;
constexpr unsigned MaxBlocks = 1024;

/// One thread's findings, reduced per warp and then added to the counters.
struct Tally {
  unsigned long long Bad = 0, NonFinite = 0, Unwritten = 0, FirstInv = 0;
  double SumSqDiff = 0, SumSqWant = 0, MaxAbs = 0, MaxRel = 0;

  __device__ void bad(size_t I) {
    ++Bad;
    FirstInv = max(FirstInv, ~static_cast<unsigned long long>(I));
  }

  __device__ void reduceWarp() {
    for (int Off = 16; Off > 0; Off /= 2) {
      Bad += __shfl_down_sync(0xffffffffu, Bad, Off);
      NonFinite += __shfl_down_sync(0xffffffffu, NonFinite, Off);
      Unwritten += __shfl_down_sync(0xffffffffu, Unwritten, Off);
      FirstInv = max(FirstInv, __shfl_down_sync(0xffffffffu, FirstInv, Off));
      SumSqDiff += __shfl_down_sync(0xffffffffu, SumSqDiff, Off);
      SumSqWant += __shfl_down_sync(0xffffffffu, SumSqWant, Off);
      MaxAbs = fmax(MaxAbs, __shfl_down_sync(0xffffffffu, MaxAbs, Off));
      MaxRel = fmax(MaxRel, __shfl_down_sync(0xffffffffu, MaxRel, Off));
    }
  }

  /// Adds the warp's tally to \p C; true in the one thread of the last
  /// block to finish, which then sees every block's findings.
  __device__ bool publish(CheckCounters *C) {
    reduceWarp();
    if (threadIdx.x % 32 == 0) {
      if (Bad)
        atomicAdd(&C->Bad, Bad);
      if (NonFinite)
        atomicAdd(&C->NonFinite, NonFinite);
      if (Unwritten)
        atomicAdd(&C->Unwritten, Unwritten);
      if (FirstInv)
        atomicMax(&C->FirstInv, FirstInv);
      if (SumSqDiff != 0)
        atomicAdd(&C->SumSqDiff, SumSqDiff);
      if (SumSqWant != 0)
        atomicAdd(&C->SumSqWant, SumSqWant);
      if (MaxAbs > 0)
        atomicMax(&C->MaxAbsBits,
                  static_cast<unsigned long long>(__double_as_longlong(MaxAbs)));
      if (MaxRel > 0)
        atomicMax(&C->MaxRelBits,
                  static_cast<unsigned long long>(__double_as_longlong(MaxRel)));
      __threadfence();
    }
    __syncthreads();
    __shared__ bool Last;
    if (threadIdx.x == 0)
      Last = atomicAdd(&C->BlocksDone, 1ull) == gridDim.x - 1;
    __syncthreads();
    return Last && threadIdx.x == 0;
  }
};

__device__ size_t firstThread() {
  return static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__device__ size_t gridStride() {
  return static_cast<size_t>(gridDim.x) * blockDim.x;
}

/// The bytes of element \p I of \p Size bytes at \p P, as a 64-bit word.
__device__ unsigned long long bitsAt(const void *P, size_t I, unsigned Size) {
  unsigned long long V = 0;
  memcpy(&V, static_cast<const unsigned char *>(P) + I * Size, Size);
  return V;
}

/// The first bad index, ~0 when none. Volatile: written by other blocks'
/// atomics.
__device__ unsigned long long firstBad(CheckCounters *C) {
  return ~*const_cast<volatile unsigned long long *>(&C->FirstInv);
}

constexpr unsigned long long NoneBad = ~0ull;

/// True when element \p I of \p Size bytes holds \p Poison in every byte
/// (\p Poison < 0: there is no poison to recognise).
__device__ bool holdsPoison(const void *P, size_t I, unsigned Size,
                            int Poison) {
  if (Poison < 0)
    return false;
  unsigned long long Pattern = 0x0101010101010101ull * (Poison & 0xFF);
  if (Size < 8)
    Pattern &= (1ull << (8 * Size)) - 1;
  return bitsAt(P, I, Size) == Pattern;
}

/// The float rule for one pair (Verify.cpp's, lane for lane): NaN and
/// infinities where the reference has them, finite values within
/// atol + rtol * |want|. Adds a finite pair's error to the tally.
__device__ bool floatBad(double R, double G, double Rtol, double Atol,
                         Tally &Y) {
  if (isnan(R))
    return !isnan(G);
  if (isinf(R))
    return G != R;
  if (!isfinite(G)) {
    ++Y.NonFinite;
    return true;
  }
  double Diff = fabs(G - R);
  Y.SumSqDiff += Diff * Diff;
  Y.SumSqWant += R * R;
  Y.MaxAbs = fmax(Y.MaxAbs, Diff);
  if (R != 0)
    Y.MaxRel = fmax(Y.MaxRel, Diff / fabs(R));
  return !(Diff <= Atol + Rtol * fabs(R));
}

template <typename T>
__device__ void checkFloats(const T *Got, const T *Want, size_t N, double Rtol,
                            double Atol, int Poison, CheckCounters *C) {
  Tally Y;
  for (size_t I = firstThread(); I < N; I += gridStride()) {
    if (floatBad(Want[I], Got[I], Rtol, Atol, Y)) {
      Y.bad(I);
      if (holdsPoison(Got, I, sizeof(T), Poison))
        ++Y.Unwritten;
    }
  }
  if (Y.publish(C) && firstBad(C) != NoneBad) {
    C->GotBits = bitsAt(Got, firstBad(C), sizeof(T));
    C->WantBits = bitsAt(Want, firstBad(C), sizeof(T));
  }
}

/// Lane \p I of type \p T as a double, by the toolkit's conversions.
__device__ double laneAsDouble(optiml::ElemType T, const void *P, size_t I) {
  using optiml::ElemType;
  switch (T) {
  case ElemType::F32:
    return static_cast<const float *>(P)[I];
  case ElemType::F64:
    return static_cast<const double *>(P)[I];
  case ElemType::F16:
    return __half2float(static_cast<const __half *>(P)[I]);
  case ElemType::BF16:
    return __bfloat162float(static_cast<const __nv_bfloat16 *>(P)[I]);
  case ElemType::F8E4M3:
    return static_cast<float>(static_cast<const __nv_fp8_e4m3 *>(P)[I]);
  case ElemType::F8E5M2:
    return static_cast<float>(static_cast<const __nv_fp8_e5m2 *>(P)[I]);
  default:
    return 0;
  }
}

__device__ bool isFloatLane(optiml::ElemType T) {
  using optiml::ElemType;
  return T == ElemType::F32 || T == ElemType::F64 || T == ElemType::F16 ||
         T == ElemType::BF16 || T == ElemType::F8E4M3 || T == ElemType::F8E5M2;
}

template <typename U>
__device__ void checkBits(const U *Got, const U *Want, size_t N, int Poison,
                          CheckCounters *C) {
  Tally Y;
  for (size_t I = firstThread(); I < N; I += gridStride()) {
    if (Got[I] == Want[I])
      continue;
    Y.bad(I);
    if (holdsPoison(Got, I, sizeof(U), Poison))
      ++Y.Unwritten;
  }
  if (Y.publish(C) && firstBad(C) != NoneBad) {
    C->GotBits = bitsAt(Got, firstBad(C), sizeof(U));
    C->WantBits = bitsAt(Want, firstBad(C), sizeof(U));
  }
}

unsigned blocksFor(size_t N) {
  return static_cast<unsigned>(
      std::max<size_t>(1, std::min<size_t>((N + Threads - 1) / Threads,
                                           MaxBlocks)));
}

} // namespace

extern "C" __global__ void optiml_check_f32(const float *Got,
                                            const float *Want, size_t N,
                                            double Rtol, double Atol,
                                            int Poison, CheckCounters *C) {
  checkFloats(Got, Want, N, Rtol, Atol, Poison, C);
}

extern "C" __global__ void optiml_check_f64(const double *Got,
                                            const double *Want, size_t N,
                                            double Rtol, double Atol,
                                            int Poison, CheckCounters *C) {
  checkFloats(Got, Want, N, Rtol, Atol, Poison, C);
}

extern "C" __global__ void optiml_check_bits(const void *Got, const void *Want,
                                             size_t N, unsigned ElemSize,
                                             int Poison, CheckCounters *C) {
  // Buffers start 256-byte aligned, so every element width loads whole.
  switch (ElemSize) {
  case 8:
    checkBits(static_cast<const unsigned long long *>(Got),
              static_cast<const unsigned long long *>(Want), N, Poison,
              C);
    break;
  case 4:
    checkBits(static_cast<const unsigned *>(Got),
              static_cast<const unsigned *>(Want), N, Poison,
              C);
    break;
  case 2:
    checkBits(static_cast<const unsigned short *>(Got),
              static_cast<const unsigned short *>(Want), N, Poison,
              C);
    break;
  default:
    checkBits(static_cast<const unsigned char *>(Got),
              static_cast<const unsigned char *>(Want), N, Poison,
              C);
    break;
  }
}

/// Buffers of the narrow floats, and of vectors or structs whose fields
/// differ in type: each lane by its own field's rule.
extern "C" __global__ void optiml_check_lanes(const void *Got, const void *Want,
                                              size_t N, optiml::LaneTypes L,
                                              double Rtol, double Atol,
                                              int Poison, CheckCounters *C) {
  Tally Y;
  for (size_t I = firstThread(); I < N; I += gridStride()) {
    auto T = static_cast<optiml::ElemType>(L.Codes[I % L.Fields]);
    bool Bad = isFloatLane(T)
                   ? floatBad(laneAsDouble(T, Want, I), laneAsDouble(T, Got, I),
                              Rtol, Atol, Y)
                   : bitsAt(Got, I, L.Size) != bitsAt(Want, I, L.Size);
    if (Bad) {
      Y.bad(I);
      if (holdsPoison(Got, I, L.Size, Poison))
        ++Y.Unwritten;
    }
  }
  if (Y.publish(C) && firstBad(C) != NoneBad) {
    C->GotBits = bitsAt(Got, firstBad(C), L.Size);
    C->WantBits = bitsAt(Want, firstBad(C), L.Size);
  }
}

extern "C" __global__ void optiml_check_zones(const unsigned char *Left,
                                              const unsigned char *Right,
                                              const unsigned char *Canary,
                                              size_t ZoneBytes,
                                              CheckCounters *C) {
  Tally Y;
  for (size_t I = firstThread(); I < 2 * ZoneBytes; I += gridStride()) {
    unsigned char Got = I < ZoneBytes ? Left[I] : Right[I - ZoneBytes];
    if (Got != Canary[I % ZoneBytes])
      Y.bad(I);
  }
  if (Y.publish(C) && firstBad(C) != NoneBad) {
    size_t I = firstBad(C);
    C->GotBits = I < ZoneBytes ? Left[I] : Right[I - ZoneBytes];
    C->WantBits = Canary[I % ZoneBytes];
  }
}

extern "C" __global__ void optiml_check_poison(unsigned char *Data,
                                               size_t Bytes,
                                               unsigned char Byte) {
  // 16-byte stores where aligned, byte stores for the tail.
  size_t Words = Bytes / 16;
  uint4 V;
  unsigned W = Byte * 0x01010101u;
  V.x = V.y = V.z = V.w = W;
  for (size_t I = firstThread(); I < Words; I += gridStride())
    reinterpret_cast<uint4 *>(Data)[I] = V;
  for (size_t I = Words * 16 + firstThread(); I < Bytes; I += gridStride())
    Data[I] = Byte;
}

namespace optiml {

namespace {

Error launched(const char *Name) {
  return checkCuda(cudaGetLastError(), std::string("launch of ") + Name);
}

} // namespace

Error enqueueOutputCheck(const Arg &A, const void *Got, const void *Want,
                         const Tolerance &Tol, int Poison, CheckCounters *C,
                         cudaStream_t S) {
  (void)cudaGetLastError();
  ElemType T = A.Type;
  size_t N = A.Count;
  bool Uniform = A.uniform();
  if (!Uniform ||
      (isFloatType(T) && T != ElemType::F32 && T != ElemType::F64)) {
    LaneTypes L{};
    L.Size = static_cast<unsigned>(elemSize(T));
    L.Fields = A.Fields.empty() ? 1 : static_cast<unsigned>(A.Fields.size());
    if (L.Fields > MaxLaneFields)
      return Error(Status::BadPlan,
                   "buffer '" + A.Name + "' has " + std::to_string(L.Fields) +
                       " fields; the device check takes at most " +
                       std::to_string(MaxLaneFields));
    for (unsigned F = 0; F < L.Fields; ++F)
      L.Codes[F] = static_cast<unsigned char>(A.typeAt(F));
    optiml_check_lanes<<<blocksFor(N), Threads, 0, S>>>(
        Got, Want, N, L, Tol.Rtol, Tol.Atol, Poison, C);
    return launched("optiml_check_lanes");
  }
  if (T == ElemType::F32) {
    optiml_check_f32<<<blocksFor(N), Threads, 0, S>>>(
        static_cast<const float *>(Got), static_cast<const float *>(Want), N,
        Tol.Rtol, Tol.Atol, Poison, C);
    return launched("optiml_check_f32");
  }
  if (T == ElemType::F64) {
    optiml_check_f64<<<blocksFor(N), Threads, 0, S>>>(
        static_cast<const double *>(Got), static_cast<const double *>(Want), N,
        Tol.Rtol, Tol.Atol, Poison, C);
    return launched("optiml_check_f64");
  }
  return enqueueBitsCheck(Got, Want, N, static_cast<unsigned>(elemSize(T)),
                          Poison, C, S);
}

Error enqueueBitsCheck(const void *Got, const void *Want, size_t N,
                       unsigned ElemSize, int Poison, CheckCounters *C,
                       cudaStream_t S) {
  (void)cudaGetLastError();
  optiml_check_bits<<<blocksFor(N), Threads, 0, S>>>(Got, Want, N, ElemSize,
                                                     Poison, C);
  return launched("optiml_check_bits");
}

Error enqueueZoneCheck(const void *Left, const void *Right, const void *Canary,
                       size_t ZoneBytes, CheckCounters *C, cudaStream_t S) {
  (void)cudaGetLastError();
  optiml_check_zones<<<blocksFor(2 * ZoneBytes), Threads, 0, S>>>(
      static_cast<const unsigned char *>(Left),
      static_cast<const unsigned char *>(Right),
      static_cast<const unsigned char *>(Canary), ZoneBytes, C);
  return launched("optiml_check_zones");
}

Error enqueuePoison(void *Data, size_t Bytes, unsigned char Byte,
                    cudaStream_t S) {
  (void)cudaGetLastError();
  optiml_check_poison<<<blocksFor(Bytes / 16 + 1), Threads, 0, S>>>(
      static_cast<unsigned char *>(Data), Bytes, Byte);
  return launched("optiml_check_poison");
}

namespace {

double fromBits(unsigned long long Bits) {
  double V;
  std::memcpy(&V, &Bits, sizeof(V));
  return V;
}

} // namespace

double CheckCounters::normErr() const {
  return SumSqWant > 0 ? std::sqrt(SumSqDiff) / std::sqrt(SumSqWant)
                       : std::sqrt(SumSqDiff);
}

double CheckCounters::maxAbsErr() const { return fromBits(MaxAbsBits); }

double CheckCounters::maxRelErr() const { return fromBits(MaxRelBits); }

bool isCheckKernel(const std::string &Name) {
  static const char *const Names[] = {
      "optiml_check_f32",   "optiml_check_f64",   "optiml_check_bits",
      "optiml_check_lanes", "optiml_check_zones", "optiml_check_poison"};
  for (const char *N : Names)
    if (Name == N)
      return true;
  return false;
}

} // namespace optiml
