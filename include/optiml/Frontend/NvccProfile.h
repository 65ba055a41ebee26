//===- NvccProfile.h - the header search nvcc adds by itself ----*- C++ -*-===//
//
// nvcc reads `bin/nvcc.profile` of its toolkit and adds the include folders
// named there to every compile. CUDA 13 keeps CCCL (cuda/std, CUB, Thrust,
// what cooperative groups include) in `include/cccl` and names that folder
// only there, so a parse that adds the toolkit's `include` alone fails on
// every file that includes <cooperative_groups.h>. Reading the profile,
// rather than knowing one toolkit's layout, keeps the parse's search equal to
// nvcc's on the CUDA 12 layout, the CUDA 13 layout, and whatever comes next.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_FRONTEND_NVCCPROFILE_H
#define OPTIML_FRONTEND_NVCCPROFILE_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace optiml {

struct NvccIncludeDir {
  std::string Path;
  bool System = false; ///< -isystem rather than -I.
};

class NvccProfile {
public:
  /// The folders nvcc of the toolkit at \p CudaPath adds, in nvcc's order:
  /// its profile's INCLUDES, then SYSTEM_INCLUDES. Without a readable
  /// profile, `include/cccl` when it exists (the CUDA 13 layout).
  static std::vector<NvccIncludeDir> includeDirs(llvm::StringRef CudaPath);

  /// The same, from the text of a profile in \p BinDir: the variables
  /// nvcc defines itself (_HERE_, _TARGET_DIR_, _SPACE_) and the profile's
  /// own assignments (`=`, `+=`, `=+`) are expanded as nvcc does.
  static std::vector<NvccIncludeDir> parse(llvm::StringRef Text,
                                           llvm::StringRef BinDir,
                                           llvm::StringRef TargetDir);
};

} // namespace optiml

#endif // OPTIML_FRONTEND_NVCCPROFILE_H
