//===- KernelAttributes.h - A loaded kernel's resources ---------*- C++ -*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md, "The result"). What
// cudaFuncGetAttributes says of a kernel as the driver loaded it: the
// registers and memory it really uses on this GPU, where the build's ptxas
// report is a compile-time estimate for one architecture.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_KERNELATTRIBUTES_H
#define OPTIML_PROTOCOL_KERNELATTRIBUTES_H

#include "optiml/Protocol/JsonFields.h"

namespace optiml::protocol {

struct KernelAttributes {
  int Registers = 0;          ///< numRegs, per thread.
  uint64_t SharedBytes = 0;   ///< sharedSizeBytes: static shared memory.
  uint64_t LocalBytes = 0;    ///< localSizeBytes: local memory per thread.
  uint64_t ConstBytes = 0;    ///< constSizeBytes.
  int MaxThreadsPerBlock = 0; ///< The most a launch of it may ask for.
  int BinaryVersion = 0;      ///< SASS the driver runs, e.g. 90.
  int PtxVersion = 0;         ///< PTX it came from, e.g. 90.
};

/// The keys of KernelAttributes, in the order they are written.
inline constexpr auto keysOf(const KernelAttributes &) {
  using K = KernelAttributes;
  return std::make_tuple(
      key("registers", &K::Registers), key("shared_bytes", &K::SharedBytes),
      key("local_bytes", &K::LocalBytes), key("const_bytes", &K::ConstBytes),
      key("max_threads_per_block", &K::MaxThreadsPerBlock),
      key("binary_version", &K::BinaryVersion),
      key("ptx_version", &K::PtxVersion));
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_KERNELATTRIBUTES_H
