//===- GpuTarget.cpp - the GPU architecture a kernel is parsed for --------===//

#include "optiml/Analysis/Legality/GpuTarget.h"

#include "clang/Basic/TargetInfo.h"

using namespace optiml;

/// The GPU target of a parse: its own target in a device-side parse, the
/// auxiliary one in a host-side parse; null when neither is a GPU.
static const clang::TargetInfo *gpuTargetOf(const clang::ASTContext &Ctx) {
  for (const clang::TargetInfo *T :
       {&Ctx.getTargetInfo(), Ctx.getAuxTargetInfo()})
    if (T && T->getTriple().isNVPTX())
      return T;
  return nullptr;
}

std::optional<unsigned> optiml::targetSmVersion(const clang::ASTContext &Ctx) {
  const clang::TargetInfo *Target = gpuTargetOf(Ctx);
  if (!Target)
    return std::nullopt;
  llvm::StringRef Arch = Target->getTargetOpts().CPU;
  if (!Arch.consume_front("sm_"))
    return std::nullopt;
  // sm_90a and sm_100f name feature sets on top of the number.
  unsigned Version = 0;
  if (Arch.consumeInteger(10, Version))
    return std::nullopt;
  return Version;
}

std::string optiml::targetArchName(const clang::ASTContext &Ctx) {
  const clang::TargetInfo *Target = gpuTargetOf(Ctx);
  if (!Target || Target->getTargetOpts().CPU.empty())
    return "an unknown architecture";
  return Target->getTargetOpts().CPU;
}
