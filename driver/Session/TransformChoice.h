//===- TransformChoice.h - which transforms a run may use -----*- C++ -*-===//
//
// --transforms and --exclude limit what --optimize searches and what
// --list-sites lists. A transform that changes numerics (fast-math) is
// searched only with the user's consent: the spec's relative tolerance is
// loose enough for it (NumericsRTolFloor), or --transforms names it. On a
// kernel whose buffers and scalars are all integers the consent is not
// needed: sums of integers come out the same in any order (and any other
// change still has to pass verification).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_TRANSFORMCHOICE_H
#define OPTIML_DRIVER_TRANSFORMCHOICE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace optiml {

class TransformRegistry;

/// The relative tolerance from which a spec admits the transforms that
/// change numerics without being named: the spec language's default rtol,
/// about 80 float ulps, room for fast intrinsics' few-ulp errors and for
/// float sums added in another order (warp-per-row, aggregate-atomics).
inline constexpr double NumericsRTolFloor = 1e-5;

/// The transforms a search may use, and why others were left out.
struct TransformSelection {
  std::vector<std::string> Names; ///< In registry order.
  std::vector<std::string> Notes; ///< One line per transform left out.
};

class TransformChoice {
public:
  TransformChoice() = default;
  TransformChoice(std::vector<std::string> Only,
                  std::vector<std::string> Exclude)
      : Only(std::move(Only)), Exclude(std::move(Exclude)) {}

  /// BadInput when a name is not a registered transform (the message lists
  /// the known ones) or when a name is both asked for and excluded.
  llvm::Error check(const TransformRegistry &Registry) const;

  /// Whether --transforms and --exclude let \p Name through.
  bool admits(llvm::StringRef Name) const;

  /// What a search on a kernel whose spec has relative tolerance \p RTol
  /// may use: the admitted transforms, less those that change numerics
  /// when \p RTol is below NumericsRTolFloor, the data is not \p
  /// IntegerOnly and --transforms does not name them. An empty selection is
  /// BadInput: there would be nothing to search.
  llvm::Expected<TransformSelection> select(const TransformRegistry &Registry,
                                            double RTol,
                                            bool IntegerOnly = false) const;

private:
  bool named(llvm::StringRef Name) const;

  std::vector<std::string> Only;    ///< --transforms; empty: all.
  std::vector<std::string> Exclude; ///< --exclude.
};

} // namespace optiml

#endif // OPTIML_DRIVER_TRANSFORMCHOICE_H
