//===- EvaluationReport.cpp - print an evaluation for people -------------===//

#include "driver/Evaluate/EvaluationReport.h"
#include "optiml/Support/JsonText.h"

#include "llvm/Support/Format.h"

using namespace optiml;
namespace proto = optiml::protocol;

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
     << (U.Source == "driver" ? " (as loaded on the GPU)" : "")
     << (B.Cached ? " (cached build)" : "") << "\n";
  if (B.Sass)
    OS << "  " << llvm::left_justify("", 10) << "SASS " << sassSummary(*B.Sass)
       << "\n";
}

static void printTime(const char *Side, const proto::TimeSummary &T,
                      llvm::raw_ostream &OS) {
  OS << "  " << llvm::left_justify(Side, 10)
     << llvm::format("%10.4f ms  spread %5.2f%%  (%d reps)\n", T.MedianNs / 1e6,
                     100 * T.Spread, static_cast<int>(T.Reps));
}

/// PASS or FAIL, and the first failures as the runner listed them.
static void printVerify(const std::optional<proto::VerifyReport> &V,
                        llvm::raw_ostream &OS) {
  OS << "verify:   " << (V && V->Passed ? "PASS" : "FAIL") << "\n";
  if (!V)
    return;
  for (size_t I = 0; I < V->Failures.size() && I < 5; ++I)
    OS << "  - " << jsonText(proto::Json(V->Failures[I]), -1) << "\n";
}

static void printTiming(const proto::InstanceTiming &T, llvm::raw_ostream &OS) {
  OS << "time (instance " << T.Instance << "):\n";
  printTime("reference", T.Reference, OS);
  printTime("candidate", T.Candidate, OS);
  OS << llvm::format("speedup:  %.3fx  (noise +/- %.2f%%): ", T.Speedup,
                     100 * T.Noise)
     << (T.Significant ? "significant" : "within noise") << "\n";
}

/// The counters of the first profiled instance, side by side.
static void printMetrics(const std::optional<proto::MetricsReport> &M,
                         llvm::raw_ostream &OS) {
  if (!M)
    return;
  OS << "metrics:\n";
  if (M->Error) {
    OS << "  unavailable: " << jsonText(proto::Json(*M->Error), -1) << "\n";
    return;
  }
  if (!M->Instances || M->Instances->empty())
    return;
  const proto::InstanceMetrics &First = M->Instances->front();
  if (!First.Reference)
    return;
  OS << "  instance " << First.Instance << "\n";
  for (const auto &[Name, Value] : First.Reference->Values) {
    OS << "  " << llvm::left_justify(Name, 66) << llvm::format("%14.4g", Value);
    if (First.Candidate) {
      auto It = First.Candidate->Values.find(Name);
      if (It != First.Candidate->Values.end())
        OS << llvm::format("  %14.4g", It->second);
    }
    OS << "\n";
  }
}

void optiml::printEvaluation(const Evaluation &E, llvm::StringRef Kernel,
                             llvm::raw_ostream &OS) {
  const std::optional<proto::RunResult> &R = E.Run.Result;
  OS << "kernel " << Kernel;
  if (R && R->Device)
    OS << " on " << R->Device->Name;
  const char *Verdict = E.accepted()            ? "ACCEPTED"
                        : E.status() == "built" ? "BUILT"
                                                : "REJECTED";
  OS << ": " << Verdict << " (status " << E.status() << ")\n";
  OS << "build:\n";
  printUsage("reference", E.Reference, OS);
  printUsage("candidate", E.Candidate, OS);
  if (E.status() != "ok" && !E.Run.Error.empty())
    OS << "error:    " << E.Run.Error << "\n";
  if (const BuildResult *Failed = E.failedBuild())
    OS << "log:\n" << llvm::StringRef(Failed->Log).take_back(8000) << "\n";
  if (!R)
    return;
  printVerify(R->Verify, OS);
  if (const proto::InstanceTiming *T = R->firstTiming())
    printTiming(*T, OS);
  printMetrics(R->Metrics, OS);
}
