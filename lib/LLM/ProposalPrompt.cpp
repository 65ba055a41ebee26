//===- ProposalPrompt.cpp - what a model is told about a state -----------===//

#include "optiml/LLM/ProposalPrompt.h"
#include "optiml/Transform/ActionSpace.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace optiml;

std::string ProposalPrompt::device(const std::optional<DeviceFacts> &D) {
  if (!D)
    return "unknown (the kernel has not been measured yet)";
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << D->Name;
  if (D->SMs)
    OS << ", " << D->SMs << " SMs";
  if (D->DramBytesPerSecond > 0)
    OS << llvm::format(", measured DRAM peak %.0f GB/s",
                       D->DramBytesPerSecond / 1e9);
  if (D->Fp32FlopsPerSecond > 0)
    OS << llvm::format(", FP32 peak %.1f TFLOP/s",
                       D->Fp32FlopsPerSecond / 1e12);
  return S;
}

std::string ProposalPrompt::findings(llvm::StringRef Bottleneck,
                                     const std::vector<Finding> &Findings) {
  if (Findings.empty())
    return "none yet (no profile of this kernel is recorded)";
  std::string S;
  llvm::raw_string_ostream OS(S);
  if (!Bottleneck.empty())
    OS << "Bottleneck class: " << Bottleneck << "\n";
  for (const Finding &F : Findings) {
    OS << "- " << F.Id << llvm::format(" (severity %.2f): ", F.Severity)
       << F.Guidance;
    if (!F.Evidence.empty()) {
      OS << " Evidence:";
      for (const auto &[Key, Value] : F.Evidence)
        OS << " " << Key << "=" << llvm::format("%g", Value);
    }
    OS << "\n";
  }
  return llvm::StringRef(S).rtrim().str();
}

std::string ProposalPrompt::actions(llvm::ArrayRef<Action> Actions,
                                    const TransformRegistry &Registry) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  std::set<std::string> Seen;
  for (const Action &A : Actions) {
    if (!A.Legal)
      continue;
    OS << "- " << A.Default.str();
    const Transform *T = Registry.find(A.Transform);
    std::vector<std::string> Ranges;
    for (const ParamSpec &P : T ? T->params() : llvm::ArrayRef<ParamSpec>())
      Ranges.push_back(P.Name + " in " + P.domainText());
    if (!Ranges.empty())
      OS << "   [" << llvm::join(Ranges, "; ") << "]";
    if (T && Seen.insert(A.Transform).second)
      OS << "   -- " << T->summary();
    OS << "\n";
  }
  if (S.empty())
    return "none: no registered transform applies to this kernel";
  return llvm::StringRef(S).rtrim().str();
}

std::string
ProposalPrompt::trajectory(const std::vector<TrajectoryEntry> &Steps) {
  if (Steps.empty())
    return "none: this is the original kernel";
  std::string S;
  for (size_t I = 0; I < Steps.size(); ++I)
    S += std::to_string(I + 1) + ". " + Steps[I].Step + " -> " +
         Steps[I].Outcome + "\n";
  return llvm::StringRef(S).rtrim().str();
}

std::map<std::string, std::string> ProposalPrompt::variables(
    const ProposalContext &C, const TransformRegistry &Registry,
    llvm::ArrayRef<Action> Actions, const nlohmann::json &Schema) {
  return {{"kernel_name", C.Kernel},
          {"source", C.State.source().text().str()},
          {"spec", C.Spec.empty() ? "(none given)" : C.Spec},
          {"device", device(C.Device)},
          {"findings", findings(C.Bottleneck, C.Findings)},
          {"actions", actions(Actions, Registry)},
          {"trajectory", trajectory(C.Trajectory)},
          {"count", std::to_string(C.Count)},
          {"schema", Schema.dump()}};
}
