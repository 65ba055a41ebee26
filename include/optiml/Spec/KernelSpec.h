//===- KernelSpec.h - how to run and check a kernel -----------*- C++ -*-===//
//
// A kernel spec says what the kernel's arguments mean (input, output, both,
// scalar), how long each buffer is and what a scalar's value is, as
// expressions of named problem sizes, how inputs are drawn, the launch
// configuration, the tolerance and the seeds. It comes from the kernel's
// `#pragma optiml` mark and/or a JSON sidecar. Instantiating a spec for a
// problem instance turns every expression into numbers: that is all the
// GPU runner ever sees.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SPEC_KERNELSPEC_H
#define OPTIML_SPEC_KERNELSPEC_H

#include "optiml/IR/KernelInfo.h"
#include "optiml/Protocol/ArgRole.h"
#include "optiml/Protocol/ElemType.h"
#include "optiml/Protocol/RunPlan.h"

#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace optiml {

/// An expression over problem sizes, kept as text with where it was written
/// (for errors); evaluated when a spec is instantiated.
struct SpecExpr {
  std::string Text;
  SourcePos Pos;
};

/// In, out, inout or scalar: the runner protocol's roles, which the plan
/// carries unchanged (roleName() spells them as marks do).
using protocol::ArgRole;

/// How input values are drawn. Kinds: "uniform" (A=lo, B=hi), "int" (A=lo,
/// B=hi inclusive), "normal" (A=mean, B=stddev), "index" (value =
/// (i mod Mod) * A + B; Mod optional), "constant" (A=value).
struct Distribution {
  std::string Kind;
  double A = 0, B = 0; ///< With the default instance's sizes.
  std::optional<double> Mod;
  /// The parameters as written: each instance evaluates them with its own
  /// sizes (`int(0, N - 1)`); empty when given as numbers.
  std::vector<SpecExpr> Params;
};

struct ArgSpec {
  std::string Name;
  ArgRole Role = ArgRole::Scalar;
  SpecExpr Length;                  ///< Buffers: element count.
  SpecExpr Value;                   ///< Scalars: the value.
  /// `null(p)`: a pointer parameter passed as NULL (Role is Scalar).
  bool Null = false;
  /// `symbol(coef)`: a device variable filled before each launch; the
  /// spec's Symbols hold these.
  bool Symbol = false;
  /// `alias(out = in)`: the parameter passed the buffer of this name.
  std::string AliasOf;
  std::optional<Distribution> Dist; ///< Inputs; default by element type.
  /// Inputs of vectors or structs: a distribution per field, by the field's
  /// full name ("x", "pos.y"); the others take Dist or their type's default.
  std::vector<std::pair<std::string, Distribution>> FieldDists;
  SourcePos Pos;
};

/// A named problem instance: sizes that differ from the spec's defaults.
struct InstanceSpec {
  std::string Name;
  std::vector<std::pair<std::string, SpecExpr>> Sizes;
  SourcePos Pos;
};

/// One number of a buffer's elements of several (a vector type, a struct).
struct ConcreteField {
  std::string Name;
  protocol::ElemType Type = protocol::ElemType::F32;
  std::optional<Distribution> Dist; ///< Inputs.
};

/// One argument with numbers only.
struct ConcreteArg {
  std::string Name;
  ArgRole Role = ArgRole::Scalar;
  protocol::ElemType Type = protocol::ElemType::F32; ///< The first field's.
  int64_t Count = 0; ///< Buffers: elements.
  double Value = 0;  ///< Scalars.
  std::optional<Distribution> Dist;
  /// Buffers of vectors or structs: every field of an element, in memory
  /// order; empty when an element is one number.
  std::vector<ConcreteField> Fields;
  bool Symbol = false;           ///< A device variable (after the params).
  bool Extra = false;            ///< A buffer of the sequence only.
  std::optional<size_t> AliasOf; ///< The parameter whose buffer it gets.
};

/// One argument of another kernel's launch in a sequence, as written: the
/// name of a buffer of the spec (Buffer), `nullptr` (Null), or a value.
struct StepArgSpec {
  std::string Buffer;
  bool Null = false;
  SpecExpr Value;
  protocol::ElemType Type = protocol::ElemType::I32; ///< Values.
};

/// `then(k<<<grid, block, shmem>>>(args))`: a launch of another kernel of
/// the file, after (or, with `before`, before) the spec's kernel in each
/// repetition.
struct StepSpec {
  std::string Kernel;   ///< Qualified.
  size_t Companion = 0; ///< 1-based index into KernelSpec::Companions.
  std::array<SpecExpr, 3> Grid, Block;
  SpecExpr SharedMemory;
  bool Cooperative = false;
  bool Before = false;
  std::vector<StepArgSpec> Args;
  SourcePos Pos;
};

/// How one run of an instance is a sequence of launches: the spec's
/// kernel (with the steps before and after it) repeated once per value of
/// Var from First to Last, with the buffers of each pair in Swaps
/// exchanged after every repetition. Var is a size in every expression of
/// the launches (scalars, grid, block, shmem, the steps' arguments).
struct SequenceSpec {
  bool Repeats = false;
  std::string Var; ///< Empty for repeat(COUNT).
  SpecExpr First, Last;
  std::vector<std::pair<std::string, std::string>> Swaps;
  std::vector<StepSpec> Steps;
  bool Cooperative = false; ///< The spec's kernel is launched cooperatively.
  SourcePos Pos;

  /// One launch of the kernel, as without a sequence.
  bool empty() const { return !Repeats && Steps.empty() && !Cooperative; }
};

/// A problem instance with numbers only, ready for the runner.
struct ConcreteInstance {
  std::string Name;
  bool Time =
      false; ///< Timed instance (the default one); others are verified only.
  std::map<std::string, int64_t> Sizes;
  /// In kernel parameter order, then the extra buffers, then the symbols
  /// in the spec's order.
  std::vector<ConcreteArg> Args;
  std::array<int64_t, 3> Grid{1, 1, 1};
  std::array<int64_t, 3> Block{1, 1, 1};
  int64_t SharedMemory = 0;
  /// With a SequenceSpec, every launch of one run, in order; Grid, Block,
  /// SharedMemory and the scalars in Args are then the first launch's.
  std::vector<protocol::Step> Sequence;
};

struct KernelSpec {
  std::string Kernel;
  /// A template kernel's arguments in its parameters' order, as written
  /// (`float`, `256`); empty for other kernels.
  std::vector<std::pair<std::string, std::string>> TemplateArgs;

  /// `<float, 256>` for a template kernel, else empty.
  std::string specialization() const;
  std::vector<std::pair<std::string, SpecExpr>> Sizes; ///< Defaults, in order.
  std::vector<ArgSpec> Args;           ///< Kernel parameter order.
  /// The device variables filled before each launch (`symbol(...)`).
  std::vector<ArgSpec> Symbols;
  /// Buffers that only the sequence's other launches take (Role in, out or
  /// inout, with a Length), after the parameters in instances.
  std::vector<ArgSpec> Extras;
  /// The parameter each extra buffer is first passed to: its element.
  std::vector<ParamInfo> ExtraParams;
  SequenceSpec Sequence;
  /// The other kernels the sequence launches, qualified.
  std::vector<std::string> Companions;
  std::array<SpecExpr, 3> Grid, Block; ///< Missing dimensions are "1".
  SpecExpr SharedMemory;               ///< "0" when not given.
  double RTol = 1e-5, ATol = 1e-6, NormTol = 1e-5;
  std::vector<uint64_t> Seeds{1, 2};
  std::vector<InstanceSpec> Instances; ///< Besides the default instance.

  /// The default instance (named "default", timed) first, then the named
  /// ones (verified only). Errors point at the expression that failed
  /// (file:line:col: an unknown size, a division by zero, a negative length).
  llvm::Expected<std::vector<ConcreteInstance>>
  instantiate(const KernelInfo &Kernel) const;
};

/// The spec of \p Kernel from its `#pragma optiml` mark and/or a JSON
/// sidecar: \p SpecPath when given, else `<SourcePath>.optiml.json` when it
/// exists. Checked against the kernel's parameters: every parameter has a
/// role, buffers are pointers, scalars are not. Errors are BadInput with
/// file:line:col and what was expected.
llvm::Expected<KernelSpec> loadKernelSpec(const KernelInfo &Kernel,
                                          llvm::StringRef SourcePath,
                                          llvm::StringRef SpecPath);

/// As loadKernelSpec, but a kernel without a mark or a sidecar entry has
/// no spec (std::nullopt) rather than an error: what --check and the
/// listings ask of every kernel of a file.
llvm::Expected<std::optional<KernelSpec>>
findKernelSpec(const KernelInfo &Kernel, llvm::StringRef SourcePath,
               llvm::StringRef SpecPath);

/// The device variable \p Name (as written, or qualified) that \p Kernel
/// reads, or null.
const DeviceGlobal *findGlobal(const KernelInfo &Kernel, llvm::StringRef Name);

/// \p Kernel as its spec's template arguments make it: parameter types
/// with the template parameters replaced (`T *` becomes `float *`) and
/// Specialization set. A kernel that is not a template comes back as it is.
KernelInfo specializeKernel(const KernelInfo &Kernel,
                            llvm::ArrayRef<std::pair<std::string, std::string>>
                                TemplateArgs);

} // namespace optiml

#endif // OPTIML_SPEC_KERNELSPEC_H
