//===- KernelCounters.cpp - one kernel's hardware counters ----------------===//

#include "optiml/Profile/KernelCounters.h"
#include "optiml/Support/Error.h"

#include <nlohmann/json.hpp>

using namespace optiml;
using nlohmann::json;

static llvm::Error noMetrics(const llvm::Twine &Why) {
  return makeError(ErrorKind::NotApplicable, "no hardware counters: " + Why);
}

/// Reads `metrics.instances[I].<Side>.values`; nlohmann's exceptions stay
/// here, a malformed document is just "no counters".
static llvm::Expected<KernelCounters>
readCounters(const json &Result, llvm::StringRef Side, unsigned Instance) {
  const json *M = Result.is_object() && Result.contains("metrics")
                      ? &Result["metrics"]
                      : nullptr;
  if (!M || M->is_null())
    return noMetrics("the run did not collect metrics");
  if (M->contains("error") && (*M)["error"].is_string())
    return noMetrics((*M)["error"].get<std::string>());
  const json &Instances = M->value("instances", json::array());
  if (!Instances.is_array() || Instance >= Instances.size())
    return noMetrics("no instance " + llvm::Twine(Instance));
  const json &S = Instances[Instance].value(Side.str(), json::object());
  const json &Values = S.value("values", json::object());
  std::map<std::string, double> Out;
  for (auto It = Values.begin(); It != Values.end(); ++It)
    if (It->is_number())
      Out[It.key()] = It->get<double>();
  if (Out.empty())
    return noMetrics("no values for the " + Side + " side");
  return KernelCounters(std::move(Out));
}

llvm::Expected<KernelCounters>
KernelCounters::fromRunnerResult(const json &Result, llvm::StringRef Side,
                                 unsigned Instance) {
  try {
    return readCounters(Result, Side, Instance);
  } catch (const json::exception &E) {
    return noMetrics(E.what());
  }
}

std::optional<double> KernelCounters::get(llvm::StringRef Name) const {
  auto It = Values.find(Name.str());
  if (It == Values.end())
    return std::nullopt;
  return It->second;
}

std::optional<double> KernelCounters::dramBytes() const {
  auto R = get(metric::DramRead), W = get(metric::DramWrite);
  if (!R || !W)
    return std::nullopt;
  return *R + *W;
}

std::optional<double> KernelCounters::fp32Flops() const {
  auto A = get(metric::FAdd), M = get(metric::FMul), F = get(metric::FFma);
  if (!A || !M || !F)
    return std::nullopt;
  return *A + *M + 2 * *F;
}
