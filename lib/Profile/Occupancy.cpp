//===- Occupancy.cpp - resident blocks per SM and what limits them --------===//

#include "optiml/Profile/Occupancy.h"

#include <algorithm>

using namespace optiml;

static unsigned roundUp(unsigned Value, unsigned Unit) {
  return Unit ? (Value + Unit - 1) / Unit * Unit : Value;
}

/// Registers are allocated per warp in units of RegisterAllocUnit.
static unsigned blocksByRegisters(const DeviceLimits &L, unsigned Warps,
                                  unsigned Registers) {
  if (Registers == 0)
    return L.MaxBlocksPerSM;
  unsigned PerWarp = roundUp(Registers * L.WarpSize, L.RegisterAllocUnit);
  return L.RegistersPerSM / PerWarp / Warps;
}

static unsigned blocksByShared(const DeviceLimits &L, unsigned SharedBytes) {
  unsigned PerBlock =
      roundUp(SharedBytes + L.ReservedSharedPerBlock, L.SharedAllocUnit);
  return PerBlock ? L.SharedBytesPerSM / PerBlock : L.MaxBlocksPerSM;
}

Occupancy optiml::computeOccupancy(const DeviceLimits &L, unsigned Threads,
                                   unsigned Registers, unsigned SharedBytes) {
  Occupancy O;
  O.WarpsPerBlock = std::max(1u, (Threads + L.WarpSize - 1) / L.WarpSize);
  O.ByWarps = L.maxWarpsPerSM() / O.WarpsPerBlock;
  O.ByRegisters = blocksByRegisters(L, O.WarpsPerBlock, Registers);
  O.ByShared = blocksByShared(L, SharedBytes);
  O.ByBlocks = L.MaxBlocksPerSM;
  O.BlocksPerSM = std::min({O.ByWarps, O.ByRegisters, O.ByShared, O.ByBlocks});
  const std::pair<unsigned, const char *> Order[] = {
      {O.ByWarps, "warps"},
      {O.ByRegisters, "registers"},
      {O.ByShared, "shared"},
      {O.ByBlocks, "blocks"}};
  for (const auto &[Blocks, Name] : Order)
    if (Blocks == O.BlocksPerSM) {
      O.Limiter = Name;
      break;
    }
  O.Theoretical =
      double(O.BlocksPerSM * O.WarpsPerBlock) / double(L.maxWarpsPerSM());
  return O;
}
