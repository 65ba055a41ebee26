//===- CoalescingAnalyzer.h - sectors per global request --------*- C++ -*-===//
//
// A warp's global request moves 4 sectors when its 32 lanes read contiguous
// 4-byte words and up to 32 when every lane hits its own sector. For a
// memory- or latency-bound kernel the surplus is bandwidth spent on bytes no
// thread asked for; a strided-access hint says which access it is.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_COALESCINGANALYZER_H
#define OPTIML_PROFILE_COALESCINGANALYZER_H

#include "optiml/Profile/Analyzer.h"

namespace optiml {

class CoalescingAnalyzer : public Analyzer {
public:
  /// 32 lanes x 4 bytes in 32-byte sectors.
  static constexpr double IdealSectorsPerRequest = 4;
  /// Contiguous 16-byte accesses (float4) also move 16 sectors per request
  /// (measured on an H200), so only above this is waste certain whatever
  /// the access width.
  static constexpr double WideSectorsPerRequest = 16;
  /// With a strided-access hint the access is known to be narrow, so twice
  /// the ideal already means half of every sector is wasted.
  static constexpr double HintedSectorsPerRequest = 2 * IdealSectorsPerRequest;

  llvm::StringRef name() const override { return "coalescing"; }
  bool appliesTo(const Bottleneck &B, const ProfileInput &In) const override;
  std::vector<Finding> analyze(const Bottleneck &B,
                               const ProfileInput &In) const override;
};

} // namespace optiml

#endif // OPTIML_PROFILE_COALESCINGANALYZER_H
