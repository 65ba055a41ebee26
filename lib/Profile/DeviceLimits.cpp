//===- DeviceLimits.cpp - per-SM resources that bound occupancy -----------===//

#include "optiml/Profile/DeviceLimits.h"

#include "llvm/ADT/StringExtras.h"

using namespace optiml;

DeviceLimits DeviceLimits::sm90() { return DeviceLimits(); }

/// "sm_90a" -> 90, "9.0" -> 90, "86" -> 86; 0 when unreadable.
static unsigned archNumber(llvm::StringRef Arch) {
  Arch.consume_front("sm_");
  Arch.consume_front("compute_");
  Arch = Arch.rtrim("af");
  auto [Major, Minor] = Arch.split('.');
  unsigned A = 0, B = 0;
  if (!Minor.empty())
    return Major.getAsInteger(10, A) || Minor.getAsInteger(10, B) ? 0
                                                                  : A * 10 + B;
  return Arch.getAsInteger(10, A) ? 0 : A;
}

std::optional<DeviceLimits> DeviceLimits::forArch(llvm::StringRef Arch) {
  DeviceLimits L;
  switch (archNumber(Arch)) {
  case 90:
    return L;
  case 80:
    L.SharedBytesPerSM = 164 * 1024;
    return L;
  case 86:
  case 89:
    L.MaxThreadsPerSM = 1536;
    L.MaxBlocksPerSM = archNumber(Arch) == 86 ? 16 : 24;
    L.SharedBytesPerSM = 100 * 1024;
    return L;
  case 100:
  case 120:
    L.MaxThreadsPerSM = archNumber(Arch) == 100 ? 2048 : 1536;
    L.MaxBlocksPerSM = archNumber(Arch) == 100 ? 32 : 24;
    L.SharedBytesPerSM = archNumber(Arch) == 100 ? 228 * 1024 : 100 * 1024;
    return L;
  default:
    return std::nullopt;
  }
}
