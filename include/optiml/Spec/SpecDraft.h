//===- SpecDraft.h - a kernel spec as written, before checking -*- C++ -*-===//
//
// What one source (the pragma mark or the JSON sidecar) says about a kernel,
// every field optional, so that a sidecar can override a mark field by field
// before anything is checked against the kernel's parameters.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SPEC_SPECDRAFT_H
#define OPTIML_SPEC_SPECDRAFT_H

#include "optiml/Spec/KernelSpec.h"

#include <optional>
#include <string>
#include <vector>

namespace optiml {

/// A distribution as written: its parameters are expressions (they may use
/// sizes) until the spec is checked.
struct DistributionDraft {
  std::string Kind;
  std::vector<SpecExpr> Params;
  SourcePos Pos;
};

struct ArgDraft {
  std::string Name;
  std::optional<ArgRole> Role;
  /// `null(p)`: a pointer passed as NULL (an optional input the kernel
  /// checks for); Role is then Scalar.
  bool Null = false;
  /// `symbol(coef)`: a device variable, not a parameter (Role In; Length
  /// optional, the whole variable without it).
  bool Symbol = false;
  /// `alias(out = in)`: the buffer parameter this one is passed (Role
  /// Scalar, nothing of its own).
  std::string AliasOf;
  std::optional<SpecExpr> Length; ///< Buffers.
  std::optional<SpecExpr> Value;  ///< Scalars.
  std::optional<DistributionDraft> Dist;
  /// `dist(opt.x = ...)`: distributions of fields of the elements, by
  /// field path ("x", "pos", "v[1]"), in the order written.
  std::vector<std::pair<std::string, DistributionDraft>> FieldDists;
  SourcePos Pos; ///< Where the role (or, without one, the name) is given.
};

/// A list of 1 to 3 launch dimensions and where the list starts.
struct DimsDraft {
  std::vector<SpecExpr> Dims;
  SourcePos Pos;
};

/// `then(k<<<G, B[, S]>>>(a, n))` or `before(...)` as written.
struct LaunchDraft {
  SpecExpr Kernel;
  DimsDraft Grid, Block;
  std::optional<SpecExpr> SharedMemory;
  bool Cooperative = false;
  bool Before = false;
  std::vector<SpecExpr> Args;
};

/// The clauses that make one run a sequence of launches (mark only).
struct SequenceDraft {
  std::optional<SpecExpr> Var; ///< repeat(VAR = FIRST .. LAST)
  std::optional<SpecExpr> First, Last;
  std::optional<SpecExpr> Count; ///< repeat(COUNT)
  std::vector<std::pair<SpecExpr, SpecExpr>> Swaps;
  std::vector<LaunchDraft> Launches;
  std::optional<SourcePos> Cooperative;
  SourcePos Pos; ///< The first of these clauses.

  bool empty() const {
    return !Count && !Last && Swaps.empty() && Launches.empty() && !Cooperative;
  }
};

struct SpecDraft {
  enum class Origin { Pragma, Sidecar };
  Origin From = Origin::Pragma;
  SourcePos Pos; ///< The mark, or the kernel's entry in the sidecar.

  std::vector<std::pair<std::string, SpecExpr>> Sizes;
  /// `template(T = float, BS = 256)`: a template kernel's arguments, as
  /// written (a type or a constant), with where each is given.
  std::vector<std::pair<std::string, SpecExpr>> TemplateArgs;
  std::vector<ArgDraft> Args; ///< In the order written.
  std::optional<DimsDraft> Grid, Block;
  std::optional<SpecExpr> SharedMemory;
  std::optional<SpecExpr> RTol, ATol, NormTol;
  std::optional<DimsDraft> Seeds; ///< Seed expressions, at least one.
  std::vector<InstanceSpec> Instances;
  SequenceDraft Sequence;

  ArgDraft *findArg(llvm::StringRef Name);

  /// Applies \p Sidecar over this draft, field by field: a size, an
  /// argument's role / length / value / distribution, a tolerance, and an
  /// instance (by name) replace the same item here; grid, block, shmem and
  /// seeds replace the whole list; new sizes, arguments and instances are
  /// appended. The result keeps this draft's origin and position.
  void overrideWith(const SpecDraft &Sidecar);
};

} // namespace optiml

#endif // OPTIML_SPEC_SPECDRAFT_H
