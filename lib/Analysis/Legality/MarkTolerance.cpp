//===- MarkTolerance.cpp - the tolerance a kernel is verified with -------===//

#include "optiml/Analysis/Legality/MarkTolerance.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Analysis/Legality/MarkClause.h"
#include "optiml/Spec/KernelSpec.h"

using namespace optiml;

SpecTolerance optiml::markTolerance(const clang::FunctionDecl &Kernel,
                                    clang::ASTContext &Ctx) {
  const KernelSpec Defaults;
  SpecTolerance T{Defaults.RTol, Defaults.ATol, Defaults.NormTol, false};
  std::optional<KernelMark> Mark = KernelFinder::markOf(Kernel, Ctx);
  if (!Mark)
    return T;
  auto Args = markClauseArgs(Mark->Clauses, "tolerance");
  if (!Args)
    return T;
  for (llvm::StringRef Arg : *Args) {
    auto [Key, Value] = Arg.split('=');
    Key = Key.trim();
    double *Field = Key == "rtol"   ? &T.RTol
                    : Key == "atol" ? &T.ATol
                    : Key == "norm" ? &T.Norm
                                    : nullptr;
    double V = 0;
    if (Field && !Value.trim().getAsDouble(V)) {
      *Field = V;
      T.FromMark = true;
    }
  }
  return T;
}
