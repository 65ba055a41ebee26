//===- ReferenceCache.cpp - The reference's outputs across plans ----------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "ReferenceCache.h"

#include <cstring>

namespace optiml {

namespace {

/// Kept outputs beyond this are recomputed for each candidate.
constexpr uint64_t MaxKeptBytes = 4ull << 30;

uint64_t mix(uint64_t Sum, uint64_t Word) {
  Sum ^= Word + 0x9E3779B97F4A7C15ull + (Sum << 6) + (Sum >> 2);
  return Sum * 0xFF51AFD7ED558CCDull;
}

} // namespace

uint64_t checksumOf(const std::vector<std::vector<unsigned char>> &Buffers,
                    uint64_t Sum) {
  for (const std::vector<unsigned char> &B : Buffers) {
    Sum = mix(Sum, B.size());
    size_t Whole = B.size() / 8 * 8;
    for (size_t I = 0; I < Whole; I += 8) {
      uint64_t Word;
      std::memcpy(&Word, B.data() + I, 8);
      Sum = mix(Sum, Word);
    }
    for (size_t I = Whole; I < B.size(); ++I)
      Sum = mix(Sum, B[I]);
  }
  return Sum;
}

std::string ReferenceCache::keyOf(const Plan &P, const Instance &I,
                                  uint64_t Seed, bool Edge) {
  protocol::Json Key = {
      {"reference", P.Reference}, {"args", I.Args}, {"geometry", I.Geometry},
      {"sequence", I.Sequence},   {"seed", Seed},   {"edge", Edge},
      {"tolerance", P.Tol}};
  return Key.dump();
}

const HostOutputs *ReferenceCache::find(const std::string &Key,
                                        const HostInputs &Inputs,
                                        bool &Damaged) {
  Damaged = false;
  auto It = Entries.find(Key);
  if (It == Entries.end())
    return nullptr;
  if (checksumOf(Inputs, checksumOf(It->second.Outputs)) == It->second.Sum)
    return &It->second.Outputs;
  Damaged = true;
  Bytes -= bytesOf(It->second.Outputs);
  Entries.erase(It);
  return nullptr;
}

void ReferenceCache::store(const std::string &Key, const HostOutputs &Outputs,
                           const HostInputs &Inputs) {
  uint64_t Size = bytesOf(Outputs);
  if (Entries.count(Key) || Bytes + Size > MaxKeptBytes)
    return;
  Entry E;
  E.Outputs = Outputs;
  E.Sum = checksumOf(Inputs, checksumOf(E.Outputs));
  Bytes += Size;
  Entries.emplace(Key, std::move(E));
}

} // namespace optiml
