//===- MicroProfiler.cpp - stage one, then the analyzers that fit ---------===//

#include "optiml/Profile/MicroProfiler.h"
#include "optiml/Profile/Analyzers.h"

#include <nlohmann/json.hpp>

using namespace optiml;
using nlohmann::json;

MicroProfiler MicroProfiler::standard() {
  MicroProfiler P;
  P.add(occupancyAnalyzer());
  P.add(spillAnalyzer());
  P.add(cacheAnalyzer());
  P.add(coalescingAnalyzer());
  P.add(bankConflictAnalyzer());
  P.add(divergenceAnalyzer());
  P.add(instructionMixAnalyzer());
  P.add(staticHintAnalyzer());
  return P;
}

ProfileReport MicroProfiler::profile(const ProfileInput &In) const {
  ProfileReport R;
  R.Stage1 = Classifier.classify(In);
  R.Findings = R.Stage1.Findings;
  for (const Analyzer &A : Analyzers) {
    if (!A.appliesTo(R.Stage1, In))
      continue;
    R.AnalyzersRun.push_back(A.name().str());
    for (Finding &F : A.analyze(R.Stage1, In))
      R.Findings.push_back(std::move(F));
  }
  R.Prior = mergePriors(R.Findings);
  return R;
}

template <typename T> static json orNull(const std::optional<T> &V) {
  return V ? json(*V) : json(nullptr);
}

static json toJSON(const Bottleneck &B) {
  json J = {{"kind", toString(B.Kind).str()},
            {"sm_pct", orNull(B.SmPct)},
            {"mem_pct", orNull(B.MemPct)},
            {"waves", orNull(B.Waves)},
            {"roofline", nullptr},
            {"occupancy", nullptr}};
  if (B.Roof)
    J["roofline"] = {{"arithmetic_intensity", B.Roof->ArithmeticIntensity},
                     {"ridge_point", B.Roof->RidgePoint},
                     {"dram_fraction", B.Roof->DramFraction},
                     {"compute_fraction", B.Roof->ComputeFraction},
                     {"memory_side", B.Roof->MemorySide},
                     {"fraction", B.Roof->Fraction}};
  if (B.Occ)
    J["occupancy"] = {{"blocks_per_sm", B.Occ->BlocksPerSM},
                      {"limiter", B.Occ->Limiter},
                      {"theoretical", B.Occ->Theoretical}};
  return J;
}

json optiml::toJSON(const ProfileReport &R) {
  json Findings = json::array();
  for (const Finding &F : R.Findings)
    Findings.push_back(toJSON(F));
  return {{"bottleneck", ::toJSON(R.Stage1)},
          {"analyzers", R.AnalyzersRun},
          {"findings", Findings},
          {"prior", R.Prior}};
}
