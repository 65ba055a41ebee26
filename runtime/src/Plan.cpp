//===- Plan.cpp - The run plan: parsing and validation --------------------===//
//
// Part of OptiML. Validation errors are thrown as PlanError inside this file
// only (nlohmann's accessors throw too) and leave it as a BadPlan Error.
//
//===----------------------------------------------------------------------===//

#include "Plan.h"
#include "Json.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace optiml {

const char *roleName(Role R) {
  switch (R) {
  case Role::In:
    return "in";
  case Role::Out:
    return "out";
  case Role::InOut:
    return "inout";
  }
  return "?";
}

namespace {

struct PlanError {
  std::string Message;
};

[[noreturn]] void fail(const std::string &Path, const std::string &Message) {
  throw PlanError{Path + ": " + Message};
}

std::string child(const std::string &Path, const std::string &Key) {
  return Path.empty() ? Key : Path + "." + Key;
}

std::string element(const std::string &Path, size_t Index) {
  return Path + "[" + std::to_string(Index) + "]";
}

const Json *find(const Json &Obj, const char *Key) {
  auto It = Obj.find(Key);
  if (It == Obj.end() || It->is_null())
    return nullptr;
  return &*It;
}

const Json &require(const Json &Obj, const char *Key, const std::string &Path) {
  const Json *V = find(Obj, Key);
  if (!V)
    fail(child(Path, Key), "missing");
  return *V;
}

void requireObject(const Json &V, const std::string &Path) {
  if (!V.is_object())
    fail(Path, "expected an object");
}

std::string getString(const Json &V, const std::string &Path) {
  if (!V.is_string())
    fail(Path, "expected a string");
  return V.get<std::string>();
}

double getNumber(const Json &V, const std::string &Path) {
  if (!V.is_number())
    fail(Path, "expected a number");
  double D = V.get<double>();
  if (!std::isfinite(D))
    fail(Path, "expected a finite number");
  return D;
}

bool getBool(const Json &V, const std::string &Path) {
  if (!V.is_boolean())
    fail(Path, "expected true or false");
  return V.get<bool>();
}

/// Integers may arrive as 8191 or, from an expression evaluator, as 8191.0.
int64_t getInteger(const Json &V, const std::string &Path) {
  if (V.is_number_unsigned()) {
    uint64_t U = V.get<uint64_t>();
    if (U > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      fail(Path, "integer too large");
    return static_cast<int64_t>(U);
  }
  if (V.is_number_integer())
    return V.get<int64_t>();
  double D = getNumber(V, Path);
  if (D != std::floor(D) || std::fabs(D) > 9007199254740992.0)
    fail(Path, "expected an integer");
  return static_cast<int64_t>(D);
}

uint64_t getUnsigned(const Json &V, const std::string &Path) {
  if (V.is_number_unsigned())
    return V.get<uint64_t>();
  int64_t I = getInteger(V, Path);
  if (I < 0)
    fail(Path, "expected a non-negative integer");
  return static_cast<uint64_t>(I);
}

double numberOr(const Json &Obj, const char *Key, double Default,
                const std::string &Path) {
  const Json *V = find(Obj, Key);
  return V ? getNumber(*V, child(Path, Key)) : Default;
}

unsigned unsignedOr(const Json &Obj, const char *Key, unsigned Default,
                    const std::string &Path) {
  const Json *V = find(Obj, Key);
  if (!V)
    return Default;
  uint64_t U = getUnsigned(*V, child(Path, Key));
  if (U > std::numeric_limits<unsigned>::max())
    fail(child(Path, Key), "too large");
  return static_cast<unsigned>(U);
}

bool boolOr(const Json &Obj, const char *Key, bool Default,
            const std::string &Path) {
  const Json *V = find(Obj, Key);
  return V ? getBool(*V, child(Path, Key)) : Default;
}

ElemType parseType(const Json &Obj, const std::string &Path) {
  std::string Name = getString(require(Obj, "type", Path), child(Path, "type"));
  ElemType T;
  if (!parseElemType(Name, T))
    fail(child(Path, "type"), "unknown type '" + Name +
                                  "' (expected f32 f64 i8 u8 i16 u16 i32 "
                                  "u32 i64 u64)");
  return T;
}

Role parseRole(const Json &Obj, const std::string &Path) {
  std::string Name = getString(require(Obj, "role", Path), child(Path, "role"));
  if (Name == "in")
    return Role::In;
  if (Name == "out")
    return Role::Out;
  if (Name == "inout")
    return Role::InOut;
  fail(child(Path, "role"), "unknown role '" + Name + "' (in, out, inout)");
}

Distribution defaultDistribution(ElemType T) {
  Distribution D;
  D.K = isFloatType(T) ? Distribution::Kind::Uniform : Distribution::Kind::Int;
  return D;
}

Distribution parseDistribution(const Json &V, ElemType T,
                               const std::string &Path) {
  requireObject(V, Path);
  Distribution D = defaultDistribution(T);
  std::string Kind = getString(require(V, "kind", Path), child(Path, "kind"));
  if (Kind == "uniform") {
    D.K = Distribution::Kind::Uniform;
    D.Lo = numberOr(V, "lo", -1.0, Path);
    D.Hi = numberOr(V, "hi", 1.0, Path);
    if (D.Lo > D.Hi)
      fail(Path, "uniform needs lo <= hi");
  } else if (Kind == "int") {
    D.K = Distribution::Kind::Int;
    if (const Json *Lo = find(V, "lo"))
      D.IntLo = getInteger(*Lo, child(Path, "lo"));
    if (const Json *Hi = find(V, "hi"))
      D.IntHi = getInteger(*Hi, child(Path, "hi"));
    if (D.IntLo > D.IntHi)
      fail(Path, "int needs lo <= hi");
  } else if (Kind == "normal") {
    D.K = Distribution::Kind::Normal;
    D.Mean = numberOr(V, "mean", 0.0, Path);
    D.Std = numberOr(V, "std", 1.0, Path);
    if (D.Std < 0)
      fail(child(Path, "std"), "must be >= 0");
  } else if (Kind == "index") {
    D.K = Distribution::Kind::Index;
    D.Scale = numberOr(V, "scale", 1.0, Path);
    D.Offset = numberOr(V, "offset", 0.0, Path);
    if (const Json *Mod = find(V, "mod")) {
      D.Mod = getUnsigned(*Mod, child(Path, "mod"));
      if (D.Mod == 0)
        fail(child(Path, "mod"), "must be >= 1");
    }
  } else if (Kind == "constant") {
    D.K = Distribution::Kind::Constant;
    D.Value = getNumber(require(V, "value", Path), child(Path, "value"));
  } else {
    fail(child(Path, "kind"), "unknown distribution '" + Kind +
                                  "' (uniform, int, normal, index, constant)");
  }
  return D;
}

/// Smallest and largest value of an integer type other than u64, as int64.
void intRange(ElemType T, int64_t &Lo, int64_t &Hi) {
  switch (T) {
  case ElemType::I8:
    Lo = INT8_MIN, Hi = INT8_MAX;
    return;
  case ElemType::U8:
    Lo = 0, Hi = UINT8_MAX;
    return;
  case ElemType::I16:
    Lo = INT16_MIN, Hi = INT16_MAX;
    return;
  case ElemType::U16:
    Lo = 0, Hi = UINT16_MAX;
    return;
  case ElemType::I32:
    Lo = INT32_MIN, Hi = INT32_MAX;
    return;
  case ElemType::U32:
    Lo = 0, Hi = UINT32_MAX;
    return;
  default:
    Lo = INT64_MIN, Hi = INT64_MAX;
    return;
  }
}

void encodeScalar(const Json &V, ElemType T, unsigned char *Out,
                  const std::string &Path) {
  if (isFloatType(T)) {
    storeDouble(T, getNumber(V, Path), Out, 0);
    return;
  }
  if (T == ElemType::U64) {
    uint64_t U = getUnsigned(V, Path);
    std::memcpy(Out, &U, sizeof(U));
    return;
  }
  int64_t I = getInteger(V, Path);
  int64_t Lo, Hi;
  intRange(T, Lo, Hi);
  if (I < Lo || I > Hi)
    fail(Path,
         "value " + std::to_string(I) + " does not fit in " + elemTypeName(T));
  storeInt(T, I, Out, 0);
}

Arg parseArg(const Json &V, const std::string &Path) {
  requireObject(V, Path);
  Arg A;
  A.Name = getString(require(V, "name", Path), child(Path, "name"));
  std::string Kind = getString(require(V, "kind", Path), child(Path, "kind"));
  A.Type = parseType(V, Path);
  if (Kind == "scalar") {
    A.IsBuffer = false;
    encodeScalar(require(V, "value", Path), A.Type, A.ScalarBytes,
                 child(Path, "value"));
    return A;
  }
  if (Kind != "buffer")
    fail(child(Path, "kind"), "expected \"buffer\" or \"scalar\"");
  A.IsBuffer = true;
  A.BufferRole = parseRole(V, Path);
  A.Count = getUnsigned(require(V, "count", Path), child(Path, "count"));
  if (A.Count == 0)
    fail(child(Path, "count"), "must be >= 1");
  if (A.Count > (uint64_t(1) << 40) / elemSize(A.Type))
    fail(child(Path, "count"), "buffer larger than 1 TiB");
  const Json *Dist = find(V, "dist");
  A.Dist = Dist ? parseDistribution(*Dist, A.Type, child(Path, "dist"))
                : defaultDistribution(A.Type);
  return A;
}

void parseDim3(const Json &Obj, const char *Key, unsigned Out[3],
               const std::string &Path) {
  std::string P = child(Path, Key);
  const Json &V = require(Obj, Key, Path);
  if (!V.is_array() || V.empty() || V.size() > 3)
    fail(P, "expected an array of 1 to 3 positive integers");
  for (size_t I = 0; I < 3; ++I) {
    Out[I] = 1;
    if (I >= V.size())
      continue;
    uint64_t D = getUnsigned(V[I], element(P, I));
    if (D == 0 || D > std::numeric_limits<unsigned>::max())
      fail(element(P, I), "must be a positive 32-bit integer");
    Out[I] = static_cast<unsigned>(D);
  }
}

Instance parseInstance(const Json &V, const std::string &Path) {
  requireObject(V, Path);
  Instance I;
  I.Name = getString(require(V, "name", Path), child(Path, "name"));
  I.Time = boolOr(V, "time", false, Path);
  parseDim3(V, "grid", I.Grid, Path);
  parseDim3(V, "block", I.Block, Path);
  I.Shmem = unsignedOr(V, "shmem", 0, Path);
  if (V.contains("candidate_launch") && !V["candidate_launch"].is_null()) {
    const Json &C = V["candidate_launch"];
    std::string CPath = child(Path, "candidate_launch");
    requireObject(C, CPath);
    parseDim3(C, "grid", I.CandidateGrid, CPath);
    parseDim3(C, "block", I.CandidateBlock, CPath);
    I.CandidateShmem = unsignedOr(C, "shmem", 0, CPath);
    I.HasCandidateLaunch = true;
  }
  const Json &Args = require(V, "args", Path);
  if (!Args.is_array())
    fail(child(Path, "args"), "expected an array");
  bool HasOutput = false;
  for (size_t K = 0; K < Args.size(); ++K) {
    I.Args.push_back(parseArg(Args[K], element(child(Path, "args"), K)));
    const Arg &A = I.Args.back();
    HasOutput |= A.IsBuffer && A.BufferRole != Role::In;
  }
  if (!HasOutput)
    fail(child(Path, "args"), "no out or inout buffer: nothing to verify");
  return I;
}

void parseTolerance(const Json &V, Tolerance &T, const std::string &Path) {
  requireObject(V, Path);
  T.Rtol = numberOr(V, "rtol", T.Rtol, Path);
  T.Atol = numberOr(V, "atol", T.Atol, Path);
  T.Norm = numberOr(V, "norm", T.Norm, Path);
  if (T.Rtol < 0 || T.Atol < 0 || T.Norm < 0)
    fail(Path, "tolerances must be >= 0");
}

void parseTiming(const Json &V, TimingOptions &T, const std::string &Path) {
  requireObject(V, Path);
  T.Warmup = unsignedOr(V, "warmup", T.Warmup, Path);
  T.MinReps = unsignedOr(V, "min_reps", T.MinReps, Path);
  T.MaxReps = unsignedOr(V, "max_reps", T.MaxReps, Path);
  T.NoiseTarget = numberOr(V, "noise_target", T.NoiseTarget, Path);
  T.MaxSeconds = numberOr(V, "max_seconds", T.MaxSeconds, Path);
  T.FlushL2 = boolOr(V, "flush_l2", T.FlushL2, Path);
  if (T.MinReps < 1)
    fail(child(Path, "min_reps"), "must be >= 1");
  if (T.MaxReps < T.MinReps)
    fail(child(Path, "max_reps"), "must be >= min_reps");
  if (T.NoiseTarget <= 0)
    fail(child(Path, "noise_target"), "must be > 0");
  if (T.MaxSeconds <= 0)
    fail(child(Path, "max_seconds"), "must be > 0");
}

void parseTop(const Json &V, Plan &P) {
  // Top-level fields have no path prefix. A named string rather than "":
  // binding require()'s result to a reference with a temporary argument
  // would look dangling to -Wdangling-reference.
  const std::string Top;
  requireObject(V, "plan");
  P.Reference = getString(require(V, "reference", Top), "reference");
  if (P.Reference.empty())
    fail("reference", "empty path");
  if (const Json *C = find(V, "candidate"))
    P.Candidate = getString(*C, "candidate");

  const Json &Instances = require(V, "instances", Top);
  if (!Instances.is_array() || Instances.empty())
    fail("instances", "expected a non-empty array");
  std::set<std::string> Names;
  for (size_t K = 0; K < Instances.size(); ++K) {
    P.Instances.push_back(parseInstance(Instances[K], element("instances", K)));
    if (!Names.insert(P.Instances.back().Name).second)
      fail(element("instances", K),
           "duplicate instance name '" + P.Instances.back().Name + "'");
  }

  if (const Json *Seeds = find(V, "seeds")) {
    if (!Seeds->is_array() || Seeds->empty())
      fail("seeds", "expected a non-empty array");
    for (size_t K = 0; K < Seeds->size(); ++K)
      P.Seeds.push_back(getUnsigned((*Seeds)[K], element("seeds", K)));
  } else {
    P.Seeds = {1, 2};
  }

  if (const Json *T = find(V, "tolerance"))
    parseTolerance(*T, P.Tol, "tolerance");
  if (const Json *T = find(V, "timing"))
    parseTiming(*T, P.Timing, "timing");
  P.Metrics = boolOr(V, "metrics", false, Top);
  P.Energy = boolOr(V, "energy", false, Top);
}

} // namespace

std::vector<const Instance *> profiledInstances(const Plan &P) {
  std::vector<const Instance *> Out;
  for (const Instance &I : P.Instances)
    if (I.Time)
      Out.push_back(&I);
  if (Out.empty() && !P.Instances.empty())
    Out.push_back(&P.Instances.front());
  return Out;
}

Error parsePlan(const std::string &Text, Plan &Out) {
  Plan P;
  try {
    Json V = Json::parse(Text, /*cb=*/nullptr, /*allow_exceptions=*/true,
                         /*ignore_comments=*/true);
    parseTop(V, P);
  } catch (const PlanError &E) {
    return Error(Status::BadPlan, E.Message);
  } catch (const nlohmann::json::exception &E) {
    return Error(Status::BadPlan, std::string("invalid JSON: ") + E.what());
  }
  Out = std::move(P);
  return Error::success();
}

Error loadPlan(const std::string &Path, Plan &Out) {
  std::ifstream In(Path);
  if (!In)
    return Error(Status::BadPlan, "cannot read plan file '" + Path + "'");
  std::stringstream Text;
  Text << In.rdbuf();
  if (Error E = parsePlan(Text.str(), Out))
    return E.withContext(Path);
  return Error::success();
}

} // namespace optiml
