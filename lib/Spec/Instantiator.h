//===- Instantiator.h - one problem instance in numbers --------*- C++ -*-===//
//
// Private to the spec library: KernelSpec::instantiate's worker. Every
// expression of the spec evaluated with one instance's sizes, checked
// against what the runner and the hardware accept, and, for a sequence,
// every launch of one run spelled out (InstanceSequence.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LIB_SPEC_INSTANTIATOR_H
#define OPTIML_LIB_SPEC_INSTANTIATOR_H

#include "optiml/Spec/KernelSpec.h"

#include <map>

namespace optiml {

/// Turns one instance's expressions into numbers, checking each against
/// what the runner and the hardware accept.
class Instantiator {
public:
  Instantiator(const KernelSpec &Spec, const KernelInfo &Kernel)
      : Spec(Spec), Kernel(Kernel) {}

  llvm::Expected<ConcreteInstance> run(const InstanceSpec *Instance);

private:
  llvm::Error arg(const ArgSpec &A, const ParamInfo &P, ConcreteArg &Out) const;
  llvm::Error symbol(const ArgSpec &S, ConcreteArg &Out) const;
  Distribution resolved(const Distribution &D) const;
  llvm::Error dims(const std::array<SpecExpr, 3> &Exprs, llvm::StringRef What,
                   std::array<int64_t, 3> &Out) const;
  llvm::Error launchLimits(const std::array<int64_t, 3> &Grid,
                           const std::array<int64_t, 3> &Block, int64_t Shmem,
                           const std::array<SpecExpr, 3> &GridExprs,
                           const std::array<SpecExpr, 3> &BlockExprs,
                           const SpecExpr &ShmemExpr) const;
  llvm::Error withContext(llvm::Error Err, const InstanceSpec *Instance) const;
  // The sequence of launches.
  llvm::Error sequence(ConcreteInstance &I);
  llvm::Error swapsFit(const ConcreteInstance &I,
                       const std::map<std::string, size_t> &Slots) const;
  llvm::Expected<protocol::Launch>
  geometry(const std::array<SpecExpr, 3> &Grid,
           const std::array<SpecExpr, 3> &Block, const SpecExpr &Shmem) const;
  llvm::Expected<protocol::Step>
  kernelStep(const std::map<std::string, size_t> &Slots) const;
  std::map<std::string, int64_t> argumentSizes() const;
  llvm::Expected<protocol::Step>
  companionStep(const StepSpec &S,
                const std::map<std::string, size_t> &Slots) const;

  const KernelSpec &Spec;
  const KernelInfo &Kernel;
  std::map<std::string, int64_t> Sizes;
  /// Sizes and, in a sequence, the repeat variable: what scalars and
  /// launch dimensions are evaluated with (buffer lengths never see it).
  std::map<std::string, int64_t> StepSizes;
};

} // namespace optiml

#endif // OPTIML_LIB_SPEC_INSTANTIATOR_H
