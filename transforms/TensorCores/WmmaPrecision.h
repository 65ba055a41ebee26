//===- WmmaPrecision.h - one tensor-core input precision --------*- C++ -*-===//
//
// The four input precisions tensor-cores offers differ in their fragment
// shape (tf32 multiplies 16x16x8 pieces, half and bf16 16x16x16), in how a
// float is rounded to them, in the GPUs that have them and in the error
// they bring, which decides which specs they may verify against.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_TENSORCORES_WMMAPRECISION_H
#define OPTIML_TRANSFORMS_TENSORCORES_WMMAPRECISION_H

#include "llvm/ADT/StringRef.h"

namespace optiml {

struct WmmaPrecision {
  llvm::StringRef Name;     ///< The parameter value: "tf32".
  llvm::StringRef TileType; ///< Elements in shared memory: "float".
  llvm::StringRef FragType; ///< The fragment's: "wmma::precision::tf32".
  unsigned K;               ///< k of one fragment multiply: 8 or 16.
  unsigned Bytes;           ///< Of one TileType element.
  unsigned MinSm;           ///< The oldest architecture that has it.
  /// Rounds a float: "wmma::__float_to_tf32", "__float2half", ...
  llvm::StringRef FromFloat;
  /// tf32x3: each float staged as a tf32 high part and a tf32 low part,
  /// three products summed (hi*hi + hi*lo + lo*hi): close to float
  /// accuracy, but not within a float kernel's own tolerance.
  bool Split;
  /// The loosest tolerance under which float inputs rounded to it may
  /// still be rejected by verification: a spec must be at least this loose.
  double MinRTol, MinNorm;
  /// "10 mantissa bits", for refusals.
  llvm::StringRef Bits;

  /// The precision named \p Name, or null.
  static const WmmaPrecision *named(llvm::StringRef Name);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_TENSORCORES_WMMAPRECISION_H
