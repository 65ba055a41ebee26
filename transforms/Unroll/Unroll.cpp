//===- Unroll.cpp - `#pragma unroll F` before a for-loop -----------------===//

#include "Unroll.h"
#include "transforms/Common/Indentation.h"

#include "optiml/Analysis/Legality/UnrollLegality.h"

using namespace optiml;
using namespace clang::transformer;

Unroll::Unroll() {
  Params.push_back(
      ParamSpec::integers("factor", {2, 4, 8, 16}, 4,
                          "how many iterations each unrolled body runs"));
}

llvm::Error Unroll::check(const Site &S, const ParamValues &,
                          clang::ASTContext &Ctx) const {
  return UnrollLegality::check(*S.Loop, S.Name, Ctx);
}

llvm::Expected<EditSet> Unroll::apply(const Site &S, const ParamValues &P,
                                      clang::ASTContext &Ctx) const {
  std::string Pragma = "#pragma unroll " + P.get("factor").str();
  EditSet Edits;
  if (llvm::Error E =
          Edits.add(*S.Loop, insertLineAbove(EditSet::Root.str(), Pragma), Ctx))
    return E;
  return Edits;
}
