//===- EvaluationReport.cpp - print an evaluation for people -------------===//

#include "optiml/Driver/EvaluationReport.h"

#include "llvm/Support/Format.h"

using namespace optiml;
using nlohmann::json;

/// A number from \p J at \p Key, or NaN: the runner's document is read
/// defensively, a missing field must not stop the report.
static double num(const json &J, const char *Key) {
  if (!J.is_object() || !J.contains(Key) || !J[Key].is_number())
    return std::numeric_limits<double>::quiet_NaN();
  return J[Key].get<double>();
}

static const json &field(const json &J, const char *Key) {
  static const json Null;
  return J.is_object() && J.contains(Key) ? J[Key] : Null;
}

static void printUsage(const char *Side, const BuildResult &B,
                       llvm::raw_ostream &OS) {
  OS << "  " << llvm::left_justify(Side, 10);
  if (!B.Usage) {
    OS << (B.Succeeded ? "built (no ptxas report)" : "BUILD FAILED") << "\n";
    return;
  }
  const ResourceUsage &U = *B.Usage;
  OS << U.Registers << " registers, " << U.SharedBytes << " B shared, "
     << U.StackFrameBytes << " B stack, "
     << U.SpillStoreBytes + U.SpillLoadBytes << " B spills"
     << (B.Cached ? " (cached build)" : "") << "\n";
  if (B.Sass)
    OS << "  " << llvm::left_justify("", 10) << "SASS " << sassSummary(*B.Sass)
       << "\n";
}

static void printTime(const char *Side, const json &T, llvm::raw_ostream &OS) {
  OS << "  " << llvm::left_justify(Side, 10)
     << llvm::format("%10.4f ms  spread %5.2f%%  (%d reps)\n",
                     num(T, "median_ns") / 1e6, 100 * num(T, "spread"),
                     static_cast<int>(num(T, "reps")));
}

static void printVerify(const json &V, llvm::raw_ostream &OS) {
  bool Passed = V.is_object() && V.value("passed", false);
  OS << "verify:   " << (Passed ? "PASS" : "FAIL") << "\n";
  const json &Failures = field(V, "failures");
  if (!Failures.is_array())
    return;
  for (size_t I = 0; I < Failures.size() && I < 5; ++I)
    OS << "  - " << Failures[I].dump() << "\n";
}

/// The counters of the first profiled instance, side by side.
static void printMetrics(const json &M, llvm::raw_ostream &OS) {
  if (M.is_null())
    return;
  OS << "metrics:\n";
  if (!field(M, "error").is_null()) {
    OS << "  unavailable: " << field(M, "error").dump() << "\n";
    return;
  }
  const json &Instances = field(M, "instances");
  if (!Instances.is_array() || Instances.empty())
    return;
  const json &Ref = field(field(Instances[0], "reference"), "values");
  const json &Cand = field(field(Instances[0], "candidate"), "values");
  if (!Ref.is_object())
    return;
  OS << "  instance " << Instances[0].value("instance", "?") << "\n";
  for (auto &[Name, Value] : Ref.items()) {
    if (!Value.is_number())
      continue;
    OS << "  " << llvm::left_justify(Name, 66)
       << llvm::format("%14.4g", Value.get<double>());
    if (Cand.is_object() && Cand.contains(Name) && Cand[Name].is_number())
      OS << llvm::format("  %14.4g", Cand[Name].get<double>());
    OS << "\n";
  }
}

void optiml::printEvaluation(const Evaluation &E, llvm::StringRef Kernel,
                             llvm::raw_ostream &OS) {
  const json &R = E.Result;
  const json &Dev = field(R, "device");
  OS << "kernel " << Kernel;
  if (Dev.is_object())
    OS << " on " << Dev.value("name", "?");
  const char *Verdict = E.accepted()            ? "ACCEPTED"
                        : E.status() == "built" ? "BUILT"
                                                : "REJECTED";
  OS << ": " << Verdict << " (status " << E.status() << ")\n";
  OS << "build:\n";
  printUsage("reference", E.Reference, OS);
  printUsage("candidate", E.Candidate, OS);
  const json &Error = field(R, "error");
  if (E.status() != "ok" && !Error.is_null())
    OS << "error:    "
       << (Error.is_string() ? Error.get<std::string>() : Error.dump()) << "\n";
  const json &Log = field(R, "log");
  if (E.status() == "build_failed" && Log.is_string())
    OS << "log:\n" << Log.get<std::string>() << "\n";
  if (R.contains("verify"))
    printVerify(R["verify"], OS);
  const json &T = field(R, "timing");
  if (T.is_object()) {
    OS << "time (instance " << T.value("instance", "?") << "):\n";
    printTime("reference", field(T, "reference"), OS);
    printTime("candidate", field(T, "candidate"), OS);
    OS << llvm::format("speedup:  %.3fx  (noise +/- %.2f%%): ",
                       num(T, "speedup"), 100 * num(T, "noise"))
       << (T.value("significant", false) ? "significant" : "within noise")
       << "\n";
  }
  printMetrics(field(R, "metrics"), OS);
}
