//===- L2Flush.cu - Evict the L2 cache between timed launches -------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "CudaCheck.h"
#include "L2Flush.h"

#include <algorithm>

/// Writes every 16-byte word of the scratch buffer. Writes (not reads) are
/// used because they allocate lines in L2 and leave dirty data behind, which
/// evicts whatever the previous kernel cached. extern "C" keeps the name
/// unmangled for CUPTI.
extern "C" __global__ void optiml_flush_l2(uint4 *Data, size_t Words,
                                           unsigned Salt) {
  size_t Stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t I = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       I < Words; I += Stride)
    Data[I] = make_uint4(static_cast<unsigned>(I), Salt, 0u, ~Salt);
}

namespace optiml {

L2Flusher::~L2Flusher() {
  if (Scratch)
    cudaFree(Scratch);
}

const char *L2Flusher::kernelName() { return "optiml_flush_l2"; }

Error L2Flusher::init(size_t L2Bytes) {
  Bytes = std::max<size_t>(2 * L2Bytes, size_t(1) << 20);
  Bytes = (Bytes + 15) / 16 * 16;
  return checkCuda(cudaMalloc(&Scratch, Bytes), "cudaMalloc(L2 flush buffer)");
}

Error L2Flusher::flush(cudaStream_t S) {
  constexpr unsigned Threads = 256;
  size_t Words = Bytes / 16;
  unsigned Blocks = static_cast<unsigned>(
      std::min<size_t>((Words + Threads - 1) / Threads, 4096));
  (void)cudaGetLastError();
  optiml_flush_l2<<<Blocks, Threads, 0, S>>>(static_cast<uint4 *>(Scratch),
                                             Words, ++Calls);
  return checkCuda(cudaGetLastError(), "launch of optiml_flush_l2");
}

} // namespace optiml
