//===- RunPlan.h - What the runner is asked to do ---------------*- C++ -*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md, "The plan"). The tool
// instantiates a kernel spec into numbers and encodes this plan; the runner
// decodes it. Decoding checks everything the runner relies on (positive
// counts, integral values that fit their type, a buffer to compare), so
// later phases never second-guess the plan, and an error names the field:
// "instances[1].args[2].type: unknown type 'f16' (...)".
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_RUNPLAN_H
#define OPTIML_PROTOCOL_RUNPLAN_H

#include "optiml/Protocol/ArgRole.h"
#include "optiml/Protocol/ElemType.h"
#include "optiml/Protocol/JsonFields.h"
#include "optiml/Protocol/SchemaVersion.h"
#include "optiml/Protocol/Side.h"

#include <algorithm>
#include <array>
#include <set>
#include <variant>

namespace optiml::protocol {

/// How the contents of an input buffer are generated.
struct Distribution {
  enum class Kind {
    Uniform,
    Int,
    Normal,
    Index,
    Constant,
    Offsets,
    Permutation,
    Sorted
  };
  Kind K = Kind::Uniform;
  double Lo = -1.0, Hi = 1.0;       ///< uniform
  int64_t IntLo = 0, IntHi = 100;   ///< int (inclusive)
  double Mean = 0.0, Std = 1.0;     ///< normal
  double Scale = 1.0, Offset = 0.0; ///< index
  uint64_t Mod = 0;                 ///< index; 0 means "no modulus"
  double Value = 0.0;               ///< constant
  /// offsets: element 0 is 0, each next the one before plus an integer gap
  /// drawn from [IntLo, IntHi] (CSR row pointers with uneven rows).
  /// permutation: the element indices 0..n-1 in a random order.
  /// sorted: uniform [Lo, Hi] values in ascending order (search keys).

  /// What a buffer without "dist" gets: uniform [-1, 1) for floats, the
  /// integers 0 to 100 otherwise.
  static Distribution defaultFor(ElemType T) {
    Distribution D;
    D.K = isFloatType(T) ? Kind::Uniform : Kind::Int;
    return D;
  }
};

inline const char *kindName(Distribution::Kind K) {
  static constexpr const char *Names[] = {"uniform",     "int",      "normal",
                                          "index",       "constant", "offsets",
                                          "permutation", "sorted"};
  return Names[static_cast<int>(K)];
}

/// A scalar's value, exact for its type: floats as double, u64 as uint64_t,
/// the other integer types as int64_t.
using ScalarValue = std::variant<double, int64_t, uint64_t>;

/// One number of a buffer's element when the element is a vector type or a
/// struct (`float2`'s x and y, a struct's members in memory order).
struct Field {
  std::string Name;                 ///< "x", "pos.y".
  ElemType Type = ElemType::F32;    ///< Of the same size in every field.
  std::optional<Distribution> Dist; ///< Absent: the buffer's.
};

/// One kernel parameter, in declaration order.
///
/// A buffer is a run of Count lanes, each a number of its type. An element
/// of several numbers (float2, a struct) gives Fields: lane L is field
/// L % Fields.size() of element L / Fields.size(), and Type is the first
/// field's. The fields have one size and no padding between them, so every
/// lane-wise rule (poison, red zones, comparison) holds lane by lane.
///
/// Two kinds are not parameters of their own. A symbol (a `__constant__` or
/// `__device__` table of the library) is an `in` buffer that is copied into
/// the library's variable of that name before every launch, and is not
/// passed; symbols follow the parameters. An alias is a parameter that is
/// passed the device pointer of parameter AliasOf (a kernel launched with
/// one buffer twice); it has the role Scalar, so that nothing fills,
/// poisons or compares it twice. An extra buffer is one that only the
/// other kernels of the instance's sequence take (the final result of a
/// two-pass reduction); like a symbol, it follows the parameters and is
/// not passed to the plan's kernel.
struct Arg {
  std::string Name;
  ArgRole Role = ArgRole::In; ///< Scalar: passed by value.
  ElemType Type = ElemType::F32;
  uint64_t Count = 0;               ///< Buffers: lanes.
  std::optional<Distribution> Dist; ///< Buffers; absent: defaultFor(Type).
  std::vector<Field> Fields;        ///< Buffers of vectors or structs.
  ScalarValue Value = 0.0;          ///< Scalars.
  bool Symbol = false;              ///< A device variable, not a parameter.
  bool Extra = false;               ///< A buffer of the sequence only.
  std::optional<size_t> AliasOf;    ///< The parameter whose pointer it gets.

  /// Neither a symbol nor an extra buffer: passed to the plan's kernel.
  bool isParameter() const { return !Symbol && !Extra; }

  bool isBuffer() const { return Role != ArgRole::Scalar; }
  size_t bytes() const { return static_cast<size_t>(Count) * elemSize(Type); }
  /// The type of lane \p Lane.
  ElemType typeAt(uint64_t Lane) const {
    return Fields.empty() ? Type : Fields[Lane % Fields.size()].Type;
  }
  /// True when some lane is a float: the buffer has a norm to check.
  bool anyFloat() const {
    for (const Field &F : Fields)
      if (isFloatType(F.Type))
        return true;
    return isFloatType(Type);
  }
  /// True when every lane has Type: one comparison rule for the buffer.
  bool uniform() const {
    for (const Field &F : Fields)
      if (F.Type != Type)
        return false;
    return true;
  }
  /// How lane \p Lane is drawn: its field's distribution, else the buffer's,
  /// else its type's default.
  Distribution distributionAt(uint64_t Lane) const {
    if (!Fields.empty()) {
      const Field &F = Fields[Lane % Fields.size()];
      if (F.Dist)
        return *F.Dist;
    }
    return Dist ? *Dist : Distribution::defaultFor(typeAt(Lane));
  }
  /// Where lane \p Lane is in C terms: "[12]" or "[12].y".
  std::string laneName(uint64_t Lane) const {
    if (Fields.empty())
      return "[" + std::to_string(Lane) + "]";
    return "[" + std::to_string(Lane / Fields.size()) + "]." +
           Fields[Lane % Fields.size()].Name;
  }
};

/// A launch geometry; missing dimensions are 1.
struct Launch {
  std::array<unsigned, 3> Grid{1, 1, 1};
  std::array<unsigned, 3> Block{1, 1, 1};
  unsigned Shmem = 0; ///< Dynamic shared memory, bytes.
};

/// One argument of a launch in a sequence: a buffer of the instance (its
/// index in Instance::Args), a null pointer, or a scalar of its type.
struct StepArg {
  std::optional<size_t> Buffer;
  bool Null = false;
  ElemType Type = ElemType::I32; ///< Scalars.
  ScalarValue Value = int64_t(0);
};

/// One launch of a sequence: the plan's kernel (Kernel 0) or one of its
/// companions (Kernel K is RunPlan::Companions[K - 1]), with its own
/// geometry and arguments. A cooperative launch
/// (cudaLaunchCooperativeKernel) may synchronize its whole grid.
struct Step {
  size_t Kernel = 0;
  Launch Geometry;
  bool Cooperative = false;
  std::vector<StepArg> Args;
};

/// One problem size with its launch geometry.
struct Instance {
  std::string Name;
  bool Time = false;
  Launch Geometry;
  /// The candidate's own geometry, when a rewrite changed it (a new block
  /// size rescales the grid); otherwise both sides use Geometry.
  std::optional<Launch> CandidateGeometry;
  std::vector<Arg> Args;
  /// When not empty, one run of the instance is these launches in order
  /// (an iteration that swaps buffers, a launch per anti-diagonal, several
  /// kernels of the file), verified and timed as a whole; Geometry is then
  /// the first launch of the plan's kernel. Empty: one launch of the plan's
  /// kernel with Args.
  std::vector<Step> Sequence;
  /// The candidate's own sequence, when a rewrite changed its geometry.
  std::optional<std::vector<Step>> CandidateSequence;

  const Launch &launchOf(Side S) const {
    return S == Side::Candidate && CandidateGeometry ? *CandidateGeometry
                                                     : Geometry;
  }
  const std::vector<Step> &sequenceOf(Side S) const {
    return S == Side::Candidate && CandidateSequence ? *CandidateSequence
                                                     : Sequence;
  }
};

struct Tolerance {
  double Rtol = 1e-5;
  double Atol = 1e-6;
  double Norm = 1e-5;
};

struct TimingOptions {
  unsigned Warmup = 3;
  unsigned MinReps = 10;
  unsigned MaxReps = 500;
  double NoiseTarget = 0.01; ///< Relative spread of the median to reach.
  double MaxSeconds = 10;    ///< Time cap per timed instance.
  bool FlushL2 = true;
  /// Screening: after min_reps pairs, a candidate whose speedup is below
  /// this even at the top of its interval stops being timed ("screened"):
  /// it cannot be the best, so a rough number is enough. 0: off.
  double ScreenBelow = 0;
};

struct RunPlan {
  std::string Reference;
  std::string Candidate; ///< Empty: the reference is run against itself.
  std::vector<Instance> Instances;
  std::vector<uint64_t> Seeds{1, 2};
  /// Also verify every instance under this seed with inputs at the edges of
  /// their distributions (Inputs.h); absent: not.
  std::optional<uint64_t> EdgeSeed;
  Tolerance Tol;
  TimingOptions Timing;
  bool Metrics = false;
  /// Counters only for a candidate timed at least this fast (its speedup);
  /// 0: whenever metrics are asked for. The search uses counters where it
  /// expands a state, and a slow state is rarely expanded.
  double MetricsMinSpeedup = 0;
  bool Energy = false;
  /// The other kernels a sequence launches, by name (a step's Kernel K is
  /// Companions[K - 1]); each library exports them through
  /// optiml_kernel_companion(K - 1).
  std::vector<std::string> Companions;

  bool hasCandidate() const { return !Candidate.empty(); }
};

/// The instances that timing, metrics and energy look at: those with
/// "time": true, or the first instance when none is timed.
inline std::vector<const Instance *> profiledInstances(const RunPlan &P) {
  std::vector<const Instance *> Out;
  for (const Instance &I : P.Instances)
    if (I.Time)
      Out.push_back(&I);
  if (Out.empty() && !P.Instances.empty())
    Out.push_back(&P.Instances.front());
  return Out;
}

//===----------------------------------------------------------------------===//
// Encoding
//===----------------------------------------------------------------------===//

inline void to_json(Json &J, const Distribution &D) {
  using K = Distribution::Kind;
  J = Json{{"kind", kindName(D.K)}};
  switch (D.K) {
  case K::Uniform:
    J["lo"] = D.Lo;
    J["hi"] = D.Hi;
    break;
  case K::Int:
    J["lo"] = D.IntLo;
    J["hi"] = D.IntHi;
    break;
  case K::Normal:
    J["mean"] = D.Mean;
    J["std"] = D.Std;
    break;
  case K::Index:
    J["scale"] = D.Scale;
    J["offset"] = D.Offset;
    if (D.Mod)
      J["mod"] = D.Mod;
    break;
  case K::Constant:
    J["value"] = D.Value;
    break;
  case K::Offsets:
    J["lo"] = D.IntLo;
    J["hi"] = D.IntHi;
    break;
  case K::Permutation:
    break;
  case K::Sorted:
    J["lo"] = D.Lo;
    J["hi"] = D.Hi;
    break;
  }
}

inline void to_json(Json &J, const Arg &A) {
  J = Json{{"name", A.Name}};
  if (A.AliasOf) {
    J["kind"] = "alias";
    J["of"] = *A.AliasOf;
    return;
  }
  if (!A.isBuffer()) {
    J["kind"] = "scalar";
    J["type"] = elemTypeName(A.Type);
    std::visit([&](auto V) { J["value"] = V; }, A.Value);
    return;
  }
  J["kind"] = A.Symbol ? "symbol" : A.Extra ? "extra" : "buffer";
  J["role"] = roleName(A.Role);
  J["type"] = elemTypeName(A.Type);
  J["count"] = A.Count;
  if (A.Dist)
    J["dist"] = *A.Dist;
  if (A.Fields.empty())
    return;
  Json &Fields = J["fields"] = Json::array();
  for (const Field &F : A.Fields) {
    Json FJ{{"name", F.Name}, {"type", elemTypeName(F.Type)}};
    if (F.Dist)
      FJ["dist"] = *F.Dist;
    Fields.push_back(std::move(FJ));
  }
}

inline void to_json(Json &J, const Launch &L) {
  J = Json{{"grid", L.Grid}, {"block", L.Block}, {"shmem", L.Shmem}};
}

inline void to_json(Json &J, const StepArg &A) {
  if (A.Buffer) {
    J = Json{{"buffer", *A.Buffer}};
    return;
  }
  if (A.Null) {
    J = Json{{"null", true}};
    return;
  }
  J = Json{{"type", elemTypeName(A.Type)}};
  std::visit([&](auto V) { J["value"] = V; }, A.Value);
}

inline void to_json(Json &J, const Step &S) {
  J = Json{{"kernel", S.Kernel}};
  J.update(Json(S.Geometry));
  if (S.Cooperative)
    J["cooperative"] = true;
  J["args"] = S.Args;
}

inline void to_json(Json &J, const Instance &I) {
  J = Json{{"name", I.Name}, {"time", I.Time}};
  J.update(Json(I.Geometry));
  if (I.CandidateGeometry)
    J["candidate_launch"] = *I.CandidateGeometry;
  J["args"] = I.Args;
  if (!I.Sequence.empty())
    J["sequence"] = I.Sequence;
  if (I.CandidateSequence)
    J["candidate_sequence"] = *I.CandidateSequence;
}

inline void to_json(Json &J, const Tolerance &T) {
  J = Json{{"rtol", T.Rtol}, {"atol", T.Atol}, {"norm", T.Norm}};
}

inline void to_json(Json &J, const TimingOptions &T) {
  J = Json{{"warmup", T.Warmup},          {"min_reps", T.MinReps},
           {"max_reps", T.MaxReps},       {"noise_target", T.NoiseTarget},
           {"max_seconds", T.MaxSeconds}, {"flush_l2", T.FlushL2}};
  // Written only when set: a plan without screening keeps the text (and
  // so the database's and the results cache's keys) it had before.
  if (T.ScreenBelow > 0)
    J["screen_below"] = T.ScreenBelow;
}

inline void to_json(Json &J, const RunPlan &P) {
  J = Json{{SchemaVersionKey, SchemaVersion}, {"reference", P.Reference}};
  if (P.hasCandidate())
    J["candidate"] = P.Candidate;
  J["instances"] = P.Instances;
  J["seeds"] = P.Seeds;
  if (P.EdgeSeed)
    J["edge_seed"] = *P.EdgeSeed;
  J["tolerance"] = P.Tol;
  J["timing"] = P.Timing;
  J["metrics"] = P.Metrics;
  if (P.MetricsMinSpeedup > 0)
    J["metrics_min_speedup"] = P.MetricsMinSpeedup;
  J["energy"] = P.Energy;
  if (!P.Companions.empty())
    J["companions"] = P.Companions;
}

//===----------------------------------------------------------------------===//
// Decoding, with the checks the runner relies on
//===----------------------------------------------------------------------===//

namespace detail {

/// A finite number at \p Key, or \p Out unchanged when absent.
inline void finiteOr(const Json &Obj, const char *Key, double &Out) {
  auto It = Obj.find(Key);
  if (It == Obj.end() || It->is_null())
    return;
  try {
    Out = readFinite(*It);
  } catch (ProtocolError &E) {
    E.inKey(Key);
    throw;
  }
}

inline void integerOr(const Json &Obj, const char *Key, int64_t &Out) {
  auto It = Obj.find(Key);
  if (It != Obj.end() && !It->is_null())
    readAt(*It, Key, Out);
}

/// "grid": [x, y, z] with 1 to 3 positive 32-bit integers.
inline void readDims(const Json &Obj, const char *Key,
                     std::array<unsigned, 3> &Out) {
  auto It = Obj.find(Key);
  if (It == Obj.end() || It->is_null())
    fail(Key, "missing");
  const Json &V = *It;
  if (!V.is_array() || V.empty() || V.size() > 3)
    fail(Key, "expected an array of 1 to 3 positive integers");
  Out = {1, 1, 1};
  for (size_t I = 0; I < V.size(); ++I) {
    std::string Where = std::string(Key) + "[" + std::to_string(I) + "]";
    uint64_t D = 0;
    try {
      D = readUnsigned(V[I]);
    } catch (ProtocolError &E) {
      fail(Where, E.message());
    }
    if (D == 0 || D > std::numeric_limits<unsigned>::max())
      fail(Where, "must be a positive 32-bit integer");
    Out[I] = static_cast<unsigned>(D);
  }
}

/// Throws unless \p Key of \p Obj, when present, is a non-empty array.
inline void expectNonEmptyArray(const Json &Obj, const char *Key) {
  auto It = Obj.find(Key);
  if (It != Obj.end() && !It->is_null() && (!It->is_array() || It->empty()))
    fail(Key, "expected a non-empty array");
}

/// The range of an integer type other than u64, for scalar values.
inline void intRange(ElemType T, int64_t &Lo, int64_t &Hi) {
  visitElemType(T, [&](auto V) {
    using Ty = decltype(V);
    if constexpr (std::is_integral_v<Ty> && sizeof(Ty) < 8) {
      Lo = std::numeric_limits<Ty>::min();
      Hi = std::numeric_limits<Ty>::max();
    } else {
      Lo = std::numeric_limits<int64_t>::min();
      Hi = std::numeric_limits<int64_t>::max();
    }
  });
}

inline ScalarValue readScalar(const Json &V, ElemType T) {
  if (isFloatType(T))
    return readFinite(V);
  if (T == ElemType::U64)
    return readUnsigned(V);
  int64_t I = readInteger(V);
  int64_t Lo, Hi;
  intRange(T, Lo, Hi);
  if (I < Lo || I > Hi)
    fail("",
         "value " + std::to_string(I) + " does not fit in " + elemTypeName(T));
  return I;
}

} // namespace detail

inline void read(const Json &V, Distribution &D) {
  using K = Distribution::Kind;
  expectObject(V);
  std::string Kind;
  field(V, "kind", Kind);
  D = Distribution();
  if (Kind == "uniform") {
    D.K = K::Uniform;
    detail::finiteOr(V, "lo", D.Lo);
    detail::finiteOr(V, "hi", D.Hi);
    if (D.Lo > D.Hi)
      fail("", "uniform needs lo <= hi");
  } else if (Kind == "int") {
    D.K = K::Int;
    detail::integerOr(V, "lo", D.IntLo);
    detail::integerOr(V, "hi", D.IntHi);
    if (D.IntLo > D.IntHi)
      fail("", "int needs lo <= hi");
  } else if (Kind == "normal") {
    D.K = K::Normal;
    detail::finiteOr(V, "mean", D.Mean);
    detail::finiteOr(V, "std", D.Std);
    if (D.Std < 0)
      fail("std", "must be >= 0");
  } else if (Kind == "index") {
    D.K = K::Index;
    detail::finiteOr(V, "scale", D.Scale);
    detail::finiteOr(V, "offset", D.Offset);
    fieldOr(V, "mod", D.Mod);
    if (V.contains("mod") && !V["mod"].is_null() && D.Mod == 0)
      fail("mod", "must be >= 1");
  } else if (Kind == "offsets") {
    D.K = K::Offsets;
    detail::integerOr(V, "lo", D.IntLo);
    detail::integerOr(V, "hi", D.IntHi);
    if (D.IntLo < 0 || D.IntLo > D.IntHi)
      fail("", "offsets needs 0 <= lo <= hi");
  } else if (Kind == "permutation") {
    D.K = K::Permutation;
  } else if (Kind == "sorted") {
    D.K = K::Sorted;
    detail::finiteOr(V, "lo", D.Lo);
    detail::finiteOr(V, "hi", D.Hi);
    if (D.Lo > D.Hi)
      fail("", "sorted needs lo <= hi");
  } else if (Kind == "constant") {
    D.K = K::Constant;
    if (!V.contains("value") || V["value"].is_null())
      fail("value", "missing");
    detail::finiteOr(V, "value", D.Value);
  } else {
    fail("kind", "unknown distribution '" + Kind +
                     "' (uniform, int, normal, index, constant, offsets, "
                     "permutation, sorted)");
  }
}

namespace detail {

inline ElemType readType(const Json &V) {
  std::string Type;
  field(V, "type", Type);
  auto T = parseElemType(Type);
  if (!T)
    fail("type",
         "unknown type '" + Type + "' (expected " + elemTypeNames() + ")");
  return *T;
}

} // namespace detail

inline void read(const Json &V, Field &F) {
  expectObject(V);
  F = Field();
  field(V, "name", F.Name);
  if (F.Name.empty())
    fail("name", "empty field name");
  F.Type = detail::readType(V);
  field(V, "dist", F.Dist);
}

inline void read(const Json &V, Arg &A) {
  expectObject(V);
  A = Arg();
  field(V, "name", A.Name);
  std::string Kind;
  field(V, "kind", Kind);
  if (Kind == "alias") {
    A.Role = ArgRole::Scalar;
    A.AliasOf.emplace();
    field(V, "of", *A.AliasOf);
    return;
  }
  A.Type = detail::readType(V);
  if (Kind == "scalar") {
    A.Role = ArgRole::Scalar;
    if (!V.contains("value") || V["value"].is_null())
      fail("value", "missing");
    try {
      A.Value = detail::readScalar(V["value"], A.Type);
    } catch (ProtocolError &E) {
      E.inKey("value");
      throw;
    }
    return;
  }
  if (Kind != "buffer" && Kind != "symbol" && Kind != "extra")
    fail("kind", "expected \"buffer\", \"scalar\", \"symbol\", "
                 "\"extra\" or \"alias\"");
  A.Symbol = Kind == "symbol";
  A.Extra = Kind == "extra";
  std::string Role;
  field(V, "role", Role);
  auto R = parseRole(Role);
  if (!R || *R == ArgRole::Scalar)
    fail("role", "unknown role '" + Role + "' (in, out, inout)");
  A.Role = *R;
  if (A.Symbol && A.Role != ArgRole::In)
    fail("role", "a symbol is an input (in)");
  field(V, "count", A.Count);
  if (A.Count == 0)
    fail("count", "must be >= 1");
  if (A.Count > (uint64_t(1) << 40) / elemSize(A.Type))
    fail("count", "buffer larger than 1 TiB");
  field(V, "dist", A.Dist);
  fieldOr(V, "fields", A.Fields);
  if (A.Fields.empty())
    return;
  if (A.Fields.front().Type != A.Type)
    fail("fields[0].type", "must be the buffer's type");
  for (size_t K = 0; K < A.Fields.size(); ++K)
    if (elemSize(A.Fields[K].Type) != elemSize(A.Type))
      fail("fields[" + std::to_string(K) + "].type",
           "every field must have the size of the buffer's type");
  if (A.Count % A.Fields.size() != 0)
    fail("count", "must be a multiple of the number of fields");
}

inline void read(const Json &V, Launch &L) {
  expectObject(V);
  detail::readDims(V, "grid", L.Grid);
  detail::readDims(V, "block", L.Block);
  L.Shmem = 0;
  fieldOr(V, "shmem", L.Shmem);
}

inline void read(const Json &V, StepArg &A) {
  expectObject(V);
  A = StepArg();
  field(V, "buffer", A.Buffer);
  fieldOr(V, "null", A.Null);
  if (A.Buffer || A.Null)
    return;
  A.Type = detail::readType(V);
  if (!V.contains("value") || V["value"].is_null())
    fail("value", "missing: a step's argument is a buffer, null or a value");
  try {
    A.Value = detail::readScalar(V["value"], A.Type);
  } catch (ProtocolError &E) {
    E.inKey("value");
    throw;
  }
}

inline void read(const Json &V, Step &S) {
  expectObject(V);
  S = Step();
  field(V, "kernel", S.Kernel);
  read(V, S.Geometry);
  fieldOr(V, "cooperative", S.Cooperative);
  field(V, "args", S.Args);
}

namespace detail {

/// Most launches one run of an instance may make: a sequence longer than
/// this is a spec that expanded a loop it should not have.
inline constexpr size_t MaxSequence = size_t(1) << 16;

/// A sequence's launches name buffers that exist and kernels the plan has.
inline void checkSequence(const std::vector<Step> &Seq,
                          const std::vector<Arg> &Args, const char *Key) {
  if (Seq.size() > MaxSequence)
    fail(Key, "more than " + std::to_string(MaxSequence) + " launches");
  for (size_t K = 0; K < Seq.size(); ++K)
    for (size_t A = 0; A < Seq[K].Args.size(); ++A) {
      const StepArg &SA = Seq[K].Args[A];
      if (SA.Buffer &&
          (*SA.Buffer >= Args.size() || !Args[*SA.Buffer].isBuffer() ||
           Args[*SA.Buffer].Symbol))
        fail(std::string(Key) + "[" + std::to_string(K) + "].args[" +
                 std::to_string(A) + "].buffer",
             "must be the index of a buffer of the instance");
    }
}

} // namespace detail

inline void read(const Json &V, Instance &I) {
  expectObject(V);
  I = Instance();
  field(V, "name", I.Name);
  fieldOr(V, "time", I.Time);
  read(V, I.Geometry);
  field(V, "candidate_launch", I.CandidateGeometry);
  field(V, "args", I.Args);
  fieldOr(V, "sequence", I.Sequence);
  field(V, "candidate_sequence", I.CandidateSequence);
  detail::checkSequence(I.Sequence, I.Args, "sequence");
  if (I.CandidateSequence) {
    if (I.Sequence.empty())
      fail("candidate_sequence", "given without a sequence");
    detail::checkSequence(*I.CandidateSequence, I.Args, "candidate_sequence");
  }
  bool HasOutput = false, SymbolSeen = false;
  for (size_t K = 0; K < I.Args.size(); ++K) {
    const Arg &A = I.Args[K];
    std::string Where = "args[" + std::to_string(K) + "]";
    HasOutput = HasOutput || isOutput(A.Role);
    if (SymbolSeen && A.isParameter())
      fail(Where, "a parameter after a symbol or an extra buffer: they come "
                  "last");
    if (A.Extra && I.Sequence.empty())
      fail(Where, "an extra buffer without a sequence to take it");
    SymbolSeen = SymbolSeen || !A.isParameter();
    if (A.AliasOf &&
        (*A.AliasOf >= I.Args.size() || !I.Args[*A.AliasOf].isBuffer() ||
         !I.Args[*A.AliasOf].isParameter()))
      fail(Where + ".of", "must be the index of a buffer parameter");
  }
  if (!HasOutput)
    fail("args", "no out or inout buffer: nothing to verify");
}

inline void read(const Json &V, Tolerance &T) {
  expectObject(V);
  detail::finiteOr(V, "rtol", T.Rtol);
  detail::finiteOr(V, "atol", T.Atol);
  detail::finiteOr(V, "norm", T.Norm);
  if (T.Rtol < 0 || T.Atol < 0 || T.Norm < 0)
    fail("", "tolerances must be >= 0");
}

inline void read(const Json &V, TimingOptions &T) {
  expectObject(V);
  fieldOr(V, "warmup", T.Warmup);
  fieldOr(V, "min_reps", T.MinReps);
  fieldOr(V, "max_reps", T.MaxReps);
  detail::finiteOr(V, "noise_target", T.NoiseTarget);
  detail::finiteOr(V, "max_seconds", T.MaxSeconds);
  fieldOr(V, "flush_l2", T.FlushL2);
  detail::finiteOr(V, "screen_below", T.ScreenBelow);
  if (T.ScreenBelow < 0)
    fail("screen_below", "must be >= 0");
  if (T.MinReps < 1)
    fail("min_reps", "must be >= 1");
  if (T.MaxReps < T.MinReps)
    fail("max_reps", "must be >= min_reps");
  if (T.NoiseTarget <= 0)
    fail("noise_target", "must be > 0");
  if (T.MaxSeconds <= 0)
    fail("max_seconds", "must be > 0");
}

inline void read(const Json &V, RunPlan &P) {
  if (!V.is_object())
    fail("plan", "expected an object");
  checkSchemaVersion(V, "plan");
  P = RunPlan();
  field(V, "reference", P.Reference);
  if (P.Reference.empty())
    fail("reference", "empty path");
  fieldOr(V, "candidate", P.Candidate);
  detail::expectNonEmptyArray(V, "instances");
  field(V, "instances", P.Instances);
  std::set<std::string> Names;
  for (size_t K = 0; K < P.Instances.size(); ++K)
    if (!Names.insert(P.Instances[K].Name).second)
      fail("instances[" + std::to_string(K) + "]",
           "duplicate instance name '" + P.Instances[K].Name + "'");
  detail::expectNonEmptyArray(V, "seeds");
  fieldOr(V, "seeds", P.Seeds);
  field(V, "edge_seed", P.EdgeSeed);
  if (P.EdgeSeed &&
      std::find(P.Seeds.begin(), P.Seeds.end(), *P.EdgeSeed) != P.Seeds.end())
    fail("edge_seed", "must differ from every seed");
  fieldOr(V, "tolerance", P.Tol);
  fieldOr(V, "timing", P.Timing);
  fieldOr(V, "metrics", P.Metrics);
  detail::finiteOr(V, "metrics_min_speedup", P.MetricsMinSpeedup);
  if (P.MetricsMinSpeedup < 0)
    fail("metrics_min_speedup", "must be >= 0");
  fieldOr(V, "energy", P.Energy);
  fieldOr(V, "companions", P.Companions);
  for (size_t K = 0; K < P.Instances.size(); ++K)
    for (const std::vector<Step> *Seq :
         {&P.Instances[K].Sequence, P.Instances[K].CandidateSequence
                                        ? &*P.Instances[K].CandidateSequence
                                        : nullptr})
      for (size_t S = 0; Seq && S < Seq->size(); ++S)
        if ((*Seq)[S].Kernel > P.Companions.size())
          fail("instances[" + std::to_string(K) + "].sequence[" +
                   std::to_string(S) + "].kernel",
               "no such kernel: the plan has " +
                   std::to_string(P.Companions.size()) + " companion(s)");
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_RUNPLAN_H
