//===- KernelCounters.cpp - one kernel's hardware counters ----------------===//

#include "optiml/Profile/KernelCounters.h"
#include "optiml/Support/Error.h"

#include <algorithm>
#include <cmath>

using namespace optiml;

static llvm::Error noMetrics(const llvm::Twine &Why) {
  return makeError(ErrorKind::NotApplicable, "no hardware counters: " + Why);
}

llvm::Expected<KernelCounters>
KernelCounters::fromRunnerResult(const protocol::RunResult &Result,
                                 protocol::Side Side, unsigned Instance) {
  const std::optional<protocol::MetricsReport> &M = Result.Metrics;
  if (!M)
    return noMetrics("the run did not collect metrics");
  if (M->Error)
    return noMetrics(*M->Error);
  if (!M->Instances || Instance >= M->Instances->size())
    return noMetrics("no instance " + llvm::Twine(Instance));
  const auto &S = (*M->Instances)[Instance].of(Side);
  std::map<std::string, double> Out;
  if (S)
    for (const auto &[Name, Value] : S->Values)
      if (std::isfinite(Value)) // A counter without a value is absent.
        Out[Name] = Value;
  if (Out.empty())
    return noMetrics(llvm::Twine("no values for the ") +
                     protocol::sideName(Side) + " side");
  return KernelCounters(std::move(Out));
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

/// \p Num / \p Den when both are known and \p Den is positive: a ratio over
/// zero events (a kernel without global stores) says nothing.
static std::optional<double> ratio(std::optional<double> Num,
                                   std::optional<double> Den) {
  if (!Num || !Den || *Den <= 0)
    return std::nullopt;
  return *Num / *Den;
}

/// The sum of \p A and \p B, absent unless both are known.
static std::optional<double> both(std::optional<double> A,
                                  std::optional<double> B) {
  if (!A || !B)
    return std::nullopt;
  return *A + *B;
}

std::optional<double> KernelCounters::globalSectorsPerRequest(MemOp Op) const {
  if (Op == MemOp::Load)
    return ratio(get(metric::GlobalLoadSectors),
                 get(metric::GlobalLoadRequests));
  return ratio(get(metric::GlobalStoreSectors),
               get(metric::GlobalStoreRequests));
}

/// Wavefronts minus instructions, never below zero: an instruction whose
/// lanes are all predicated off may issue no wavefront at all.
static std::optional<double> excessPerInst(std::optional<double> Wavefronts,
                                           std::optional<double> Insts) {
  auto R = ratio(Wavefronts, Insts);
  if (!R)
    return std::nullopt;
  return std::max(0.0, *R - 1);
}

std::optional<double>
KernelCounters::sharedExcessWavefrontsPerInst(MemOp Op) const {
  if (Op == MemOp::Load)
    return excessPerInst(get(metric::SharedLoadWavefronts),
                         get(metric::SharedLoadInsts));
  return excessPerInst(get(metric::SharedStoreWavefronts),
                       get(metric::SharedStoreInsts));
}

std::optional<double> KernelCounters::sharedExcessWavefrontsPerInst() const {
  return excessPerInst(
      both(get(metric::SharedLoadWavefronts),
           get(metric::SharedStoreWavefronts)),
      both(get(metric::SharedLoadInsts), get(metric::SharedStoreInsts)));
}

std::optional<double>
KernelCounters::sharedBankConflictsPerInst(MemOp Op) const {
  if (Op == MemOp::Load)
    return ratio(get(metric::SharedLoadBankConflicts),
                 get(metric::SharedLoadInsts));
  return ratio(get(metric::SharedStoreBankConflicts),
               get(metric::SharedStoreInsts));
}

std::optional<double> KernelCounters::sharedBankConflictsPerInst() const {
  return ratio(
      both(get(metric::SharedLoadBankConflicts),
           get(metric::SharedStoreBankConflicts)),
      both(get(metric::SharedLoadInsts), get(metric::SharedStoreInsts)));
}

std::optional<double> KernelCounters::threadsPerWarpInst() const {
  return ratio(get(metric::ThreadInsts), get(metric::WarpInsts));
}

std::optional<double> KernelCounters::predicatedOnThreadsPerWarpInst() const {
  return ratio(get(metric::ThreadInstsPredOn), get(metric::WarpInsts));
}
