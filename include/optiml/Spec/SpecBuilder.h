//===- SpecBuilder.h - a checked kernel spec from a draft -----*- C++ -*-===//
//
// Turns what the mark and/or sidecar say (a SpecDraft, already merged) into
// a KernelSpec that fits the kernel: every parameter has exactly one role,
// buffers are pointers to a type the runner knows and scalars are not
// pointers, distributions suit their buffers, required fields are present
// and defaults are filled in.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SPEC_SPECBUILDER_H
#define OPTIML_SPEC_SPECBUILDER_H

#include "optiml/Spec/ElementLayout.h"
#include "optiml/Spec/ElementType.h"
#include "optiml/Spec/SpecDraft.h"

#include "llvm/Support/Error.h"

namespace optiml {

class SpecBuilder {
public:
  static llvm::Expected<KernelSpec> build(const SpecDraft &Draft,
                                          const KernelInfo &Kernel);

  /// The runner type of \p Param: its pointee for a pointer, else its own
  /// type; an error at \p Pos for any other type.
  static llvm::Expected<ElementType> elementTypeOf(const ParamInfo &Param,
                                                   const SourcePos &Pos);

  /// Whether \p D can fill a buffer of \p Type (bounds in order and within
  /// the type's range); an error at \p Pos otherwise.
  static llvm::Error checkDistribution(const Distribution &D,
                                       const ElementType &Type,
                                       llvm::StringRef Buffer,
                                       const SourcePos &Pos);

  /// A template kernel's arguments in its parameters' order: from the
  /// draft's template(...) clause, else a parameter's default, else the
  /// file's one explicit instantiation; an error naming what is missing or
  /// unknown. Empty for other kernels.
  static llvm::Expected<std::vector<std::pair<std::string, std::string>>>
  templateArgs(const SpecDraft &Draft, const KernelInfo &Kernel);

private:
  SpecBuilder(const SpecDraft &Draft, const KernelInfo &Kernel)
      : Draft(Draft), Kernel(Kernel) {}

  llvm::Error required() const;
  llvm::Error missing(llvm::StringRef Clause, llvm::StringRef Form) const;
  llvm::Error args();
  llvm::Expected<ArgSpec> arg(const ParamInfo &Param);
  llvm::Expected<ArgSpec> nullArg(const ParamInfo &Param, const ArgDraft &D);
  llvm::Expected<ArgSpec> aliasArg(const ParamInfo &Param, const ArgDraft &D);
  llvm::Expected<ArgSpec> symbol(const ArgDraft &D);
  llvm::Error distributions();
  /// The distributions \p A's draft gives, checked against the element
  /// \p P describes.
  llvm::Error argDistributions(
      ArgSpec &A, const ParamInfo &P,
      const std::vector<std::map<std::string, int64_t>> &Envs) const;
  /// `dist(A.FIELD = ...)`: the distribution of every field \p Field
  /// selects in \p Layout, added to \p A.
  llvm::Error fieldDistribution(
      ArgSpec &A, const ElementLayout &Layout, llvm::StringRef Field,
      const DistributionDraft &D,
      const std::vector<std::map<std::string, int64_t>> &Envs) const;
  llvm::Expected<std::vector<Distribution>>
  distribution(const DistributionDraft &D,
               const std::vector<std::map<std::string, int64_t>> &Envs) const;
  llvm::Error checkEach(const std::vector<Distribution> &Dists,
                        const ElementType &Type, llvm::StringRef Buffer,
                        const SourcePos &Pos) const;
  void launch();
  // The sequence of launches (SpecBuilderSequence.cpp).
  /// Whether a then(...) or before(...) launch passes \p Name: a buffer
  /// of the sequence that need not be a parameter.
  bool passedToLaunch(llvm::StringRef Name) const;
  llvm::Error sequence();
  llvm::Error repeat();
  llvm::Expected<StepSpec> step(const LaunchDraft &L);
  llvm::Error stepArg(const SpecExpr &Arg, const ParamInfo &P,
                      const SiblingKernel &K, StepSpec &Out);
  /// The element of the buffer \p Name (a parameter's, or an extra's),
  /// or null when \p Name is no buffer of the spec.
  const ParamInfo *bufferParam(llvm::StringRef Name) const;
  llvm::Error swaps();
  llvm::Error tolerances();
  llvm::Error seeds();

  const SpecDraft &Draft;
  const KernelInfo &Kernel;
  KernelSpec Spec;
};

} // namespace optiml

#endif // OPTIML_SPEC_SPECBUILDER_H
