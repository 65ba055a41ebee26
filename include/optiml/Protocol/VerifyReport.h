//===- VerifyReport.h - What verification found -----------------*- C++ -*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md, "Verification"): the
// result's "verify". Counts per instance, seed and side; a comparison per
// output buffer; and the failures themselves, each naming where it happened
// and what was expected, so the tool can store it and a person or an LLM can
// act on it.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_VERIFYREPORT_H
#define OPTIML_PROTOCOL_VERIFYREPORT_H

#include "optiml/Protocol/JsonFields.h"
#include "optiml/Protocol/RunPlan.h"
#include "optiml/Protocol/Side.h"

#include <variant>

namespace optiml::protocol {

/// What the checks of one side found in one seed: elements, except bytes
/// for red zones.
struct SideCounts {
  uint64_t Unwritten = 0;
  uint64_t Nondeterministic = 0;
  uint64_t RedZoneDamagedBytes = 0;
  uint64_t InputsModified = 0;

  bool clean() const {
    return Unwritten == 0 && Nondeterministic == 0 &&
           RedZoneDamagedBytes == 0 && InputsModified == 0;
  }
};

/// Candidate against reference on one out or inout buffer.
struct BufferComparison {
  std::string Name;
  uint64_t Compared = 0;
  uint64_t Mismatches = 0;
  uint64_t NonFinite = 0;
  double MaxAbsErr = 0;
  double MaxRelErr = 0;
  double NormErr = 0;
};

/// One instance under one seed. A side's counts are absent when the run
/// ended (a fault) before that side was checked.
struct SeedVerification {
  uint64_t Seed = 0;
  /// True for the plan's edge seed: inputs at the edges of their
  /// distributions.
  std::optional<bool> Edge;
  bool Passed = false;
  std::optional<SideCounts> Reference;
  std::optional<SideCounts> Candidate;
  /// Why the comparison did not happen ("skipped: ..."), when it did not.
  std::optional<std::string> Comparison;
  /// Absent when the run ended before the comparison.
  std::optional<std::vector<BufferComparison>> Buffers;

  std::optional<SideCounts> &counts(Side S) {
    return S == Side::Reference ? Reference : Candidate;
  }
};

struct InstanceVerification {
  std::string Name;
  bool Passed = false;
  std::vector<SeedVerification> Seeds;
};

/// An element value or byte in a failure: none, an exact integer, a float
/// (non-finite ones written "nan", "inf", "-inf"), or text ("0xde").
using FailureValue =
    std::variant<std::monostate, int64_t, uint64_t, double, std::string>;

struct Failure {
  std::string Instance;
  uint64_t Seed = 0;
  Side Where = Side::Candidate;
  /// mismatch, nan, norm, unwritten, nondeterministic, redzone,
  /// input_modified (prefixed "reference_" for the reference), fault,
  /// launch_error; found while timing: timed_mismatch, timed_unwritten,
  /// timed_nan, timed_norm, timed_input_modified, timed_redzone,
  /// timed_unexpected_kernel.
  std::string Kind;
  std::optional<std::string> Buffer; ///< When about one buffer.
  /// The element, when about one; red zones: negative before the buffer,
  /// >= its count after it.
  std::optional<int64_t> Index;
  /// The field of that element, for buffers of vectors or structs ("y").
  std::optional<std::string> Field;
  FailureValue Expected;
  FailureValue Got;
  std::string Message;
};

struct VerifyReport {
  bool Passed = false;
  std::vector<uint64_t> Seeds;
  Tolerance Tol;
  std::vector<InstanceVerification> Instances;
  std::vector<Failure> Failures; ///< The first few of each kind.
  uint64_t FailuresTotal = 0;    ///< Listed or not.
};

/// The keys of a SideCounts, in the order they are written.
inline constexpr auto keysOf(const SideCounts &) {
  return std::make_tuple(
      key("unwritten", &SideCounts::Unwritten),
      key("nondeterministic", &SideCounts::Nondeterministic),
      key("redzone_damaged_bytes", &SideCounts::RedZoneDamagedBytes),
      key("inputs_modified", &SideCounts::InputsModified));
}

/// The keys of a BufferComparison, in the order they are written.
inline constexpr auto keysOf(const BufferComparison &) {
  return std::make_tuple(key("name", &BufferComparison::Name),
                         key("compared", &BufferComparison::Compared),
                         key("mismatches", &BufferComparison::Mismatches),
                         key("nonfinite", &BufferComparison::NonFinite),
                         key("max_abs_err", &BufferComparison::MaxAbsErr),
                         key("max_rel_err", &BufferComparison::MaxRelErr),
                         key("norm_err", &BufferComparison::NormErr));
}

/// The keys of a SeedVerification, in the order they are written.
inline constexpr auto keysOf(const SeedVerification &) {
  return std::make_tuple(key("seed", &SeedVerification::Seed),
                         key("edge", &SeedVerification::Edge),
                         key("passed", &SeedVerification::Passed),
                         key("reference", &SeedVerification::Reference),
                         key("candidate", &SeedVerification::Candidate),
                         key("comparison", &SeedVerification::Comparison),
                         key("buffers", &SeedVerification::Buffers));
}

/// The keys of a InstanceVerification, in the order they are written.
inline constexpr auto keysOf(const InstanceVerification &) {
  return std::make_tuple(key("name", &InstanceVerification::Name),
                         key("passed", &InstanceVerification::Passed),
                         key("seeds", &InstanceVerification::Seeds));
}

inline Json failureValue(const FailureValue &V) {
  return std::visit(
      [](const auto &X) -> Json {
        using T = std::decay_t<decltype(X)>;
        if constexpr (std::is_same_v<T, std::monostate>)
          return nullptr;
        else if constexpr (std::is_same_v<T, double>)
          return number(X);
        else
          return X;
      },
      V);
}

inline void to_json(Json &J, const Failure &F) {
  J = Json{{"instance", F.Instance},
           {"seed", F.Seed},
           {"side", sideName(F.Where)},
           {"kind", F.Kind},
           {"buffer", orNull(F.Buffer)},
           {"index", orNull(F.Index)},
           {"expected", failureValue(F.Expected)},
           {"got", failureValue(F.Got)},
           {"message", F.Message}};
  if (F.Field)
    J["field"] = *F.Field;
}

/// The keys of a VerifyReport, in the order they are written.
inline constexpr auto keysOf(const VerifyReport &) {
  return std::make_tuple(key("passed", &VerifyReport::Passed),
                         key("seeds", &VerifyReport::Seeds),
                         key("tolerance", &VerifyReport::Tol),
                         key("instances", &VerifyReport::Instances),
                         key("failures", &VerifyReport::Failures),
                         key("failures_total", &VerifyReport::FailuresTotal));
}

/// Not an overload of read(): FailureValue holds standard types only, so
/// argument-dependent lookup would not find it from the templates.
inline void readFailureValue(const Json &V, FailureValue &Out) {
  bool NonFinite = V == "nan" || V == "inf" || V == "-inf";
  if (V.is_null()) {
    Out = std::monostate();
  } else if (V.is_number_unsigned()) {
    Out = V.get<uint64_t>();
  } else if (V.is_number_integer()) {
    Out = V.get<int64_t>();
  } else if (V.is_string() && !NonFinite) {
    Out = V.get<std::string>();
  } else {
    double D = 0;
    read(V, D);
    Out = D;
  }
}

inline void read(const Json &V, Failure &F) {
  expectObject(V);
  field(V, "instance", F.Instance);
  field(V, "seed", F.Seed);
  std::string Where;
  field(V, "side", Where);
  auto S = parseSide(Where);
  if (!S)
    fail("side", "expected \"reference\" or \"candidate\"");
  F.Where = *S;
  field(V, "kind", F.Kind);
  field(V, "buffer", F.Buffer);
  field(V, "index", F.Index);
  field(V, "field", F.Field);
  for (auto [Key, Out] :
       {std::pair{"expected", &F.Expected}, std::pair{"got", &F.Got}}) {
    auto It = V.find(Key);
    if (It == V.end())
      continue;
    try {
      readFailureValue(*It, *Out);
    } catch (ProtocolError &E) {
      E.inKey(Key);
      throw;
    }
  }
  field(V, "message", F.Message);
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_VERIFYREPORT_H
