//===- ResourceUsage.h - registers, shared memory, spills -----*- C++ -*-===//
//
// What ptxas reports for a kernel (`nvcc --resource-usage`): the first
// evidence for occupancy limits and local-memory spills, at no GPU cost.
// Once the kernel ran, the driver's own figures replace ptxas' where it
// has them.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_EVAL_RESOURCEUSAGE_H
#define OPTIML_EVAL_RESOURCEUSAGE_H

#include "llvm/ADT/StringRef.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace optiml {

namespace protocol {
struct KernelAttributes;
} // namespace protocol

struct ResourceUsage {
  std::string Function; ///< Mangled name as ptxas prints it.
  unsigned Registers = 0;
  unsigned SharedBytes = 0;     ///< Static shared memory.
  unsigned StackFrameBytes = 0; ///< Local memory per thread.
  unsigned SpillStoreBytes = 0;
  unsigned SpillLoadBytes = 0;
  unsigned Barriers = 0;
  /// Where registers, shared and stack bytes come from: "ptxas" (the
  /// build's report, an estimate for one architecture) or "driver"
  /// (cudaFuncGetAttributes on the GPU: what runs). Spills and barriers
  /// are ptxas' in both.
  std::string Source = "ptxas";
};

/// Whether \p Mangled, a name as ptxas or cuobjdump prints it, is kernel
/// \p Kernel's: Itanium mangling spells a name as its length then its text
/// ("5sgemm"); an extern "C" kernel keeps its plain name.
bool namesKernel(llvm::StringRef Mangled, llvm::StringRef Kernel);

/// The usage of the entry function whose (mangled) name contains \p Kernel
/// in nvcc's --resource-usage output; nothing when it is not there.
std::optional<ResourceUsage> parseResourceUsage(llvm::StringRef Log,
                                                llvm::StringRef Kernel);

/// \p Built with the registers, shared and local bytes that the driver
/// reported for kernel \p Kernel as loaded; ptxas' spill and barrier counts
/// are kept (the driver does not report them), zero without a report.
ResourceUsage withLoadedAttributes(const std::optional<ResourceUsage> &Built,
                                   const protocol::KernelAttributes &Loaded,
                                   llvm::StringRef Kernel);

nlohmann::json toJSON(const ResourceUsage &Usage);

} // namespace optiml

#endif // OPTIML_EVAL_RESOURCEUSAGE_H
