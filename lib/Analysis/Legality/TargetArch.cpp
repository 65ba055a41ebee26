//===- TargetArch.cpp - the GPU architecture a kernel is parsed for ------===//

#include "optiml/Analysis/Legality/TargetArch.h"

#include "clang/Basic/TargetInfo.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

/// "sm_90a" -> 90; nothing for another spelling.
static std::optional<unsigned> smNumber(llvm::StringRef CPU) {
  if (!CPU.consume_front("sm_"))
    return std::nullopt;
  CPU = CPU.take_while(llvm::isDigit);
  unsigned N = 0;
  if (CPU.empty() || CPU.getAsInteger(10, N))
    return std::nullopt;
  return N;
}

std::optional<unsigned> optiml::targetSmVersion(const ASTContext &Ctx) {
  // A device-side parse has the GPU as its target; a host-side one may
  // carry it as the auxiliary target.
  for (const TargetInfo *T : {&Ctx.getTargetInfo(), Ctx.getAuxTargetInfo()})
    if (T && T->getTriple().isNVPTX())
      return smNumber(T->getTargetOpts().CPU);
  return std::nullopt;
}
