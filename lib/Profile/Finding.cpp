//===- Finding.cpp - one profiler observation and what it suggests --------===//

#include "optiml/Profile/Finding.h"

#include <nlohmann/json.hpp>

using namespace optiml;

double Finding::evidence(const std::string &Key, double Default) const {
  for (const auto &[Name, Value] : Evidence)
    if (Name == Key)
      return Value;
  return Default;
}

TransformPrior optiml::normalized(const TransformPrior &Prior) {
  double Sum = 0;
  for (const auto &[Name, Weight] : Prior)
    Sum += Weight;
  if (Sum <= 0)
    return Prior;
  TransformPrior Out;
  for (const auto &[Name, Weight] : Prior)
    Out[Name] = Weight / Sum;
  return Out;
}

TransformPrior optiml::mergePriors(const std::vector<Finding> &Findings) {
  TransformPrior Sum;
  for (const Finding &F : Findings)
    for (const auto &[Name, Weight] : normalized(F.Prior))
      Sum[Name] += F.Severity * Weight;
  return normalized(Sum);
}

nlohmann::json optiml::toJSON(const Finding &F) {
  nlohmann::json Evidence = nlohmann::json::object();
  for (const auto &[Name, Value] : F.Evidence)
    Evidence[Name] = Value;
  return {{"id", F.Id},
          {"stage", F.Stage},
          {"severity", F.Severity},
          {"evidence", Evidence},
          {"guidance", F.Guidance},
          {"prior", F.Prior}};
}
