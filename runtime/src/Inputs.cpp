//===- Inputs.cpp - Deterministic input data for buffers ------------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "Inputs.h"
#include "ElemAccess.h"

#include <cmath>
#include <map>
#include <random>
#include <string>

namespace optiml {

namespace {

std::mt19937_64 makeEngine(uint64_t Seed, unsigned ArgIndex) {
  // A seed_seq mixes all words, so nearby seeds and argument indices still
  // give unrelated streams.
  std::seed_seq Seq{static_cast<uint32_t>(Seed),
                    static_cast<uint32_t>(Seed >> 32),
                    static_cast<uint32_t>(ArgIndex), 0x0B71u};
  return std::mt19937_64(Seq);
}

void fillUniform(const Arg &A, const Distribution &D, std::mt19937_64 &Engine,
                 unsigned char *Data) {
  if (isFloatType(A.Type)) {
    std::uniform_real_distribution<double> U(D.Lo, D.Hi);
    for (uint64_t I = 0; I < A.Count; ++I)
      storeDouble(A.Type, D.Lo == D.Hi ? D.Lo : U(Engine), Data, I);
    return;
  }
  // An integer buffer with a real-valued range draws the integers inside it.
  // Clamped to +-2^62 so the conversions below are always defined.
  const double Limit = 4611686018427387904.0;
  auto Lo = static_cast<int64_t>(std::ceil(std::fmax(D.Lo, -Limit)));
  auto Hi = static_cast<int64_t>(std::floor(std::fmin(D.Hi, Limit)));
  if (Hi < Lo)
    Hi = Lo;
  std::uniform_int_distribution<int64_t> U(Lo, Hi);
  for (uint64_t I = 0; I < A.Count; ++I)
    storeInt(A.Type, U(Engine), Data, I);
}

void fillInt(const Arg &A, const Distribution &D, std::mt19937_64 &Engine,
             unsigned char *Data) {
  std::uniform_int_distribution<int64_t> U(D.IntLo, D.IntHi);
  for (uint64_t I = 0; I < A.Count; ++I)
    storeInt(A.Type, U(Engine), Data, I);
}

void fillNormal(const Arg &A, const Distribution &D, std::mt19937_64 &Engine,
                unsigned char *Data) {
  if (D.Std == 0) {
    for (uint64_t I = 0; I < A.Count; ++I)
      storeDouble(A.Type, D.Mean, Data, I);
    return;
  }
  std::normal_distribution<double> N(D.Mean, D.Std);
  for (uint64_t I = 0; I < A.Count; ++I)
    storeDouble(A.Type, N(Engine), Data, I);
}

void fillIndex(const Arg &A, const Distribution &D, unsigned char *Data) {
  for (uint64_t I = 0; I < A.Count; ++I) {
    uint64_t K = D.Mod ? I % D.Mod : I;
    storeDouble(A.Type, static_cast<double>(K) * D.Scale + D.Offset, Data, I);
  }
}

void fillConstant(const Arg &A, const Distribution &D, unsigned char *Data) {
  for (uint64_t I = 0; I < A.Count; ++I)
    storeDouble(A.Type, D.Value, Data, I);
}

} // namespace

std::vector<unsigned char> generateBuffer(const Arg &A, unsigned ArgIndex,
                                          uint64_t Seed) {
  std::vector<unsigned char> Data(A.bytes());
  std::mt19937_64 Engine = makeEngine(Seed, ArgIndex);
  Distribution D = A.distribution();
  switch (D.K) {
  case Distribution::Kind::Uniform:
    fillUniform(A, D, Engine, Data.data());
    break;
  case Distribution::Kind::Int:
    fillInt(A, D, Engine, Data.data());
    break;
  case Distribution::Kind::Normal:
    fillNormal(A, D, Engine, Data.data());
    break;
  case Distribution::Kind::Index:
    fillIndex(A, D, Data.data());
    break;
  case Distribution::Kind::Constant:
    fillConstant(A, D, Data.data());
    break;
  }
  return Data;
}

HostInputs generateInputs(const Instance &I, uint64_t Seed) {
  HostInputs Inputs(I.Args.size());
  for (size_t K = 0; K < I.Args.size(); ++K) {
    const Arg &A = I.Args[K];
    if (protocol::hasInputs(A.Role))
      Inputs[K] = generateBuffer(A, static_cast<unsigned>(K), Seed);
  }
  return Inputs;
}

namespace {

/// Inputs kept beyond this are generated afresh at each use.
constexpr uint64_t MaxSharedInputBytes = 4ull << 30;

} // namespace

uint64_t bytesOf(const HostInputs &In) {
  uint64_t Bytes = 0;
  for (const std::vector<unsigned char> &B : In)
    Bytes += B.size();
  return Bytes;
}

std::shared_ptr<const HostInputs> sharedInputs(const Instance &I,
                                               uint64_t Seed) {
  // Keyed by what the inputs are made from, not by the Instance's address:
  // a serving runner reads a new plan for every candidate.
  static std::map<std::pair<std::string, uint64_t>,
                  std::shared_ptr<const HostInputs>>
      Kept;
  static uint64_t KeptBytes = 0;
  auto Key = std::make_pair(protocol::Json(I.Args).dump(), Seed);
  if (auto It = Kept.find(Key); It != Kept.end())
    return It->second;
  auto In = std::make_shared<const HostInputs>(generateInputs(I, Seed));
  uint64_t Bytes = bytesOf(*In);
  if (KeptBytes + Bytes <= MaxSharedInputBytes) {
    Kept.emplace(Key, In);
    KeptBytes += Bytes;
  }
  return In;
}

} // namespace optiml
