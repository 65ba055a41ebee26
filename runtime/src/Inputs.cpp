//===- Inputs.cpp - Deterministic input data for buffers ------------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "Inputs.h"
#include "ElemAccess.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <tuple>

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

/// A stream of one field's own, so that a field's values do not depend on
/// how the fields before it are drawn.
std::mt19937_64 makeEngine(uint64_t Seed, unsigned ArgIndex, uint64_t Field) {
  std::seed_seq Seq{
      static_cast<uint32_t>(Seed),     static_cast<uint32_t>(Seed >> 32),
      static_cast<uint32_t>(ArgIndex), 0x0B71u,
      static_cast<uint32_t>(Field),    0xF1E1Du};
  return std::mt19937_64(Seq);
}

/// The lanes one distribution fills: Count of them, of one type, from
/// lane First every Step lanes (every lane of a plain buffer; one field's
/// lanes of a buffer of vectors or structs).
struct Lanes {
  ElemType Type;
  uint64_t First, Step, Count;

  uint64_t at(uint64_t N) const { return First + N * Step; }
};

void fillUniform(const Lanes &L, const Distribution &D, std::mt19937_64 &Engine,
                 unsigned char *Data) {
  if (isFloatType(L.Type)) {
    std::uniform_real_distribution<double> U(D.Lo, D.Hi);
    for (uint64_t N = 0; N < L.Count; ++N)
      storeDouble(L.Type, D.Lo == D.Hi ? D.Lo : U(Engine), Data, L.at(N));
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
  for (uint64_t N = 0; N < L.Count; ++N)
    storeInt(L.Type, U(Engine), Data, L.at(N));
}

void fillInt(const Lanes &L, const Distribution &D, std::mt19937_64 &Engine,
             unsigned char *Data) {
  std::uniform_int_distribution<int64_t> U(D.IntLo, D.IntHi);
  for (uint64_t N = 0; N < L.Count; ++N)
    storeInt(L.Type, U(Engine), Data, L.at(N));
}

void fillNormal(const Lanes &L, const Distribution &D, std::mt19937_64 &Engine,
                unsigned char *Data) {
  if (D.Std == 0) {
    for (uint64_t N = 0; N < L.Count; ++N)
      storeDouble(L.Type, D.Mean, Data, L.at(N));
    return;
  }
  std::normal_distribution<double> Normal(D.Mean, D.Std);
  for (uint64_t N = 0; N < L.Count; ++N)
    storeDouble(L.Type, Normal(Engine), Data, L.at(N));
}

/// Element N of the buffer (not lane) gets (N mod Mod) * Scale + Offset.
void fillIndex(const Lanes &L, const Distribution &D, unsigned char *Data) {
  for (uint64_t N = 0; N < L.Count; ++N) {
    uint64_t K = D.Mod ? N % D.Mod : N;
    storeDouble(L.Type, static_cast<double>(K) * D.Scale + D.Offset, Data,
                L.at(N));
  }
}

void fillConstant(const Lanes &L, const Distribution &D, unsigned char *Data) {
  for (uint64_t N = 0; N < L.Count; ++N)
    storeDouble(L.Type, D.Value, Data, L.at(N));
}

/// 0, then each value the one before plus a gap drawn from [lo, hi]: the
/// row pointers of a sparse matrix whose rows have uneven lengths.
void fillOffsets(const Lanes &L, const Distribution &D, std::mt19937_64 &Engine,
                 unsigned char *Data) {
  std::uniform_int_distribution<int64_t> Gap(D.IntLo, D.IntHi);
  int64_t At = 0;
  for (uint64_t N = 0; N < L.Count; ++N) {
    storeInt(L.Type, At, Data, L.at(N));
    At += Gap(Engine);
  }
}

/// The element indices 0..Count-1, shuffled: a gather or scatter map.
void fillPermutation(const Lanes &L, std::mt19937_64 &Engine,
                     unsigned char *Data) {
  std::vector<int64_t> Order(L.Count);
  for (uint64_t N = 0; N < L.Count; ++N)
    Order[N] = static_cast<int64_t>(N);
  std::shuffle(Order.begin(), Order.end(), Engine);
  for (uint64_t N = 0; N < L.Count; ++N)
    storeInt(L.Type, Order[N], Data, L.at(N));
}

/// Uniform values in [lo, hi], ascending: keys a kernel searches.
void fillSorted(const Lanes &L, const Distribution &D, std::mt19937_64 &Engine,
                unsigned char *Data) {
  std::uniform_real_distribution<double> U(D.Lo, D.Hi);
  std::vector<double> Keys(L.Count);
  for (double &K : Keys)
    K = D.Lo == D.Hi ? D.Lo : U(Engine);
  std::sort(Keys.begin(), Keys.end());
  for (uint64_t N = 0; N < L.Count; ++N)
    storeDouble(L.Type, Keys[N], Data, L.at(N));
}

void fill(const Lanes &L, const Distribution &D, std::mt19937_64 &Engine,
          unsigned char *Data) {
  switch (D.K) {
  case Distribution::Kind::Offsets:
    fillOffsets(L, D, Engine, Data);
    break;
  case Distribution::Kind::Permutation:
    fillPermutation(L, Engine, Data);
    break;
  case Distribution::Kind::Sorted:
    fillSorted(L, D, Engine, Data);
    break;
  case Distribution::Kind::Uniform:
    fillUniform(L, D, Engine, Data);
    break;
  case Distribution::Kind::Int:
    fillInt(L, D, Engine, Data);
    break;
  case Distribution::Kind::Normal:
    fillNormal(L, D, Engine, Data);
    break;
  case Distribution::Kind::Index:
    fillIndex(L, D, Data);
    break;
  case Distribution::Kind::Constant:
    fillConstant(L, D, Data);
    break;
  }
}

/// The largest value uniform(lo, hi) draws for type \p T: the last one
/// below hi that the type holds (integer types draw up to floor(hi)).
double uniformTop(ElemType T, const Distribution &D) {
  if (!(D.Lo < D.Hi))
    return D.Lo;
  switch (T) {
  case ElemType::F32:
    return std::nextafter(static_cast<float>(D.Hi), static_cast<float>(D.Lo));
  case ElemType::F64:
    return std::nextafter(D.Hi, D.Lo);
  default:
    // A narrow float rounds a value close to hi up to hi: stay a step in.
    return isFloatType(T) ? D.Hi - (D.Hi - D.Lo) / 64 : std::floor(D.Hi);
  }
}

/// Values at the edges of what \p D draws for type \p T: the ends of its
/// range (the largest index of an int(0, n - 1) table), zero, plus and
/// minus one and the smallest subnormals where the range holds them, the
/// middle; for a normal distribution, six deviations out. None for index
/// and constant buffers, whose structure (sorted offsets, a fill value) is
/// their meaning.
std::vector<double> edgeValues(ElemType T, const Distribution &D) {
  std::vector<double> Out;
  auto Within = [&](double Lo, double Hi, double V, bool Open) {
    if (V >= Lo && (Open ? V < Hi : V <= Hi))
      Out.push_back(V);
  };
  bool Float = isFloatType(T);
  switch (D.K) {
  case Distribution::Kind::Uniform: {
    Out = {D.Lo, uniformTop(T, D), D.Lo + (D.Hi - D.Lo) / 2};
    for (double V : {0.0, 1.0, -1.0})
      Within(D.Lo, D.Hi, V, true);
    if (Float && (T == ElemType::F32 || T == ElemType::F64)) {
      double Tiny = T == ElemType::F32 ? 1.4e-45 : 4.9e-324;
      Within(D.Lo, D.Hi, Tiny, true);
      Within(D.Lo, D.Hi, -Tiny, true);
    }
    break;
  }
  case Distribution::Kind::Int:
    Out = {double(D.IntLo), double(D.IntHi)};
    for (double V : {0.0, 1.0, -1.0})
      Within(double(D.IntLo), double(D.IntHi), V, false);
    break;
  case Distribution::Kind::Normal:
    Out = {D.Mean, D.Mean - 6 * D.Std, D.Mean + 6 * D.Std, 0.0};
    break;
  case Distribution::Kind::Index:
  case Distribution::Kind::Constant:
  case Distribution::Kind::Offsets:
  case Distribution::Kind::Permutation:
  case Distribution::Kind::Sorted:
    break;
  }
  return Out;
}

/// Half of \p L's lanes, at random, replaced by edge values of \p D.
void putEdges(const Lanes &L, const Distribution &D, std::mt19937_64 &Engine,
              unsigned char *Data) {
  std::vector<double> Edges = edgeValues(L.Type, D);
  if (Edges.empty())
    return;
  std::uniform_int_distribution<size_t> Pick(0, 2 * Edges.size() - 1);
  for (uint64_t N = 0; N < L.Count; ++N)
    if (size_t K = Pick(Engine); K < Edges.size())
      storeDouble(L.Type, Edges[K], Data, L.at(N));
}

} // namespace

std::vector<unsigned char> generateEdgeBuffer(const Arg &A, unsigned ArgIndex,
                                              uint64_t Seed) {
  std::vector<unsigned char> Data = generateBuffer(A, ArgIndex, Seed);
  uint64_t K = A.Fields.empty() ? 1 : A.Fields.size();
  for (uint64_t F = 0; F < K; ++F) {
    std::mt19937_64 Engine = makeEngine(Seed, ArgIndex, F + 0xED6E);
    putEdges({A.typeAt(F), F, K, A.Count / K}, A.distributionAt(F), Engine,
             Data.data());
  }
  return Data;
}

std::vector<unsigned char> generateBuffer(const Arg &A, unsigned ArgIndex,
                                          uint64_t Seed) {
  std::vector<unsigned char> Data(A.bytes());
  if (A.Fields.empty()) {
    std::mt19937_64 Engine = makeEngine(Seed, ArgIndex);
    fill({A.Type, 0, 1, A.Count}, A.distributionAt(0), Engine, Data.data());
    return Data;
  }
  uint64_t K = A.Fields.size();
  for (uint64_t F = 0; F < K; ++F) {
    std::mt19937_64 Engine = makeEngine(Seed, ArgIndex, F);
    fill({A.Fields[F].Type, F, K, A.Count / K}, A.distributionAt(F), Engine,
         Data.data());
  }
  return Data;
}

HostInputs generateInputs(const Instance &I, uint64_t Seed, bool Edge) {
  HostInputs Inputs(I.Args.size());
  for (size_t K = 0; K < I.Args.size(); ++K) {
    const Arg &A = I.Args[K];
    if (protocol::hasInputs(A.Role))
      Inputs[K] = Edge ? generateEdgeBuffer(A, static_cast<unsigned>(K), Seed)
                       : generateBuffer(A, static_cast<unsigned>(K), Seed);
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

std::shared_ptr<const HostInputs> sharedInputs(const Instance &I, uint64_t Seed,
                                               bool Edge) {
  // Keyed by what the inputs are made from, not by the Instance's address:
  // a serving runner reads a new plan for every candidate.
  static std::map<std::tuple<std::string, uint64_t, bool>,
                  std::shared_ptr<const HostInputs>>
      Kept;
  static uint64_t KeptBytes = 0;
  auto Key = std::make_tuple(protocol::Json(I.Args).dump(), Seed, Edge);
  if (auto It = Kept.find(Key); It != Kept.end())
    return It->second;
  auto In = std::make_shared<const HostInputs>(generateInputs(I, Seed, Edge));
  uint64_t Bytes = bytesOf(*In);
  if (KeptBytes + Bytes <= MaxSharedInputBytes) {
    Kept.emplace(Key, In);
    KeptBytes += Bytes;
  }
  return In;
}

} // namespace optiml
