//===- RecordingMeasurer.cpp - measure once, remember forever -------------===//

#include "optiml/Search/RecordingMeasurer.h"
#include "optiml/Protocol/Document.h"

#include <nlohmann/json.hpp>

using namespace optiml;
using nlohmann::json;

/// What of the runner's result the proposer needs again: the device with
/// its peaks, the timing, the counters and the energy (--objective energy
/// ranks by it), the resource usage and the SASS mix. The runner's parts
/// are stored as the runner wrote them.
static std::string metricsText(const Measurement &M) {
  json Kept = json::object();
  if (const protocol::RunResult *R = M.Runner.get()) {
    Kept["device"] = json(protocol::orNull(R->Device));
    Kept["timing"] = json(protocol::orNull(R->Timing));
    Kept["metrics"] = json(protocol::orNull(R->Metrics));
    if (R->Energy)
      Kept["energy"] = json(protocol::Json(*R->Energy));
  }
  if (M.Usage)
    Kept["usage"] = toJSON(*M.Usage);
  if (M.Sass)
    Kept["sass"] = toJSON(*M.Sass);
  // Replace invalid UTF-8 (a kernel name, a message) rather than throw.
  return Kept.dump(-1, ' ', false, json::error_handler_t::replace);
}

static std::optional<ResourceUsage> usageFrom(const json &Kept) {
  const json &U = Kept.value("usage", json());
  if (!U.is_object())
    return std::nullopt;
  ResourceUsage Usage;
  Usage.Function = U.value("function", "");
  Usage.Source = U.value("source", "ptxas");
  Usage.Registers = U.value("registers", 0u);
  Usage.SharedBytes = U.value("shared_bytes", 0u);
  Usage.StackFrameBytes = U.value("stack_frame_bytes", 0u);
  Usage.SpillStoreBytes = U.value("spill_store_bytes", 0u);
  Usage.SpillLoadBytes = U.value("spill_load_bytes", 0u);
  Usage.Barriers = U.value("barriers", 0u);
  return Usage;
}

/// The parts of a runner result that metricsText kept; a part that no
/// longer decodes (a record from another schema) is left out, as if the run
/// had not produced it.
static std::shared_ptr<const protocol::RunResult>
keptRunnerParts(const json &Kept) {
  auto Parts = std::make_shared<protocol::RunResult>();
  auto Part = [&](const char *Key, auto &Out) {
    if (!Kept.contains(Key) || Kept[Key].is_null())
      return;
    typename std::decay_t<decltype(Out)>::value_type Value;
    if (!protocol::decode(protocol::Json(Kept[Key]), Value))
      Out = std::move(Value);
  };
  Part("device", Parts->Device);
  Part("timing", Parts->Timing);
  Part("metrics", Parts->Metrics);
  Part("energy", Parts->Energy);
  return Parts;
}

CandidateRecord optiml::toRecord(int64_t Kernel, const Candidate &C,
                                 const Measurement &M) {
  CandidateRecord R;
  R.Kernel = Kernel;
  R.Trace = toString(C.Steps);
  R.SourceHash = C.Hash;
  R.ParentHash = C.ParentHash;
  // A chain's gain (or failure) is the chain's, not its last link's.
  R.LastTransform = !C.Move.empty()       ? C.Move
                    : C.Steps.empty() ? ""
                                      : C.Steps.back().Transform;
  R.Status = toString(M.Status).str();
  R.Speedup = M.Speedup;
  R.Noise = M.Noise;
  R.Threshold = M.Threshold;
  R.Significant = M.Significant;
  R.TimeNs = M.TimeNs;
  R.ReferenceTimeNs = M.ReferenceTimeNs;
  R.RooflineFraction = M.RooflineFraction;
  R.Metrics = metricsText(M);
  R.Log = M.Log;
  return R;
}

Measurement optiml::fromRecord(const CandidateRecord &R) {
  Measurement M;
  M.Status = parseCandidateStatus(R.Status).value_or(CandidateStatus::Error);
  M.Speedup = R.Speedup;
  M.Noise = R.Noise;
  M.Threshold = R.Threshold;
  M.Significant = R.Significant;
  M.TimeNs = R.TimeNs;
  M.ReferenceTimeNs = R.ReferenceTimeNs;
  M.RooflineFraction = R.RooflineFraction;
  M.Log = R.Log;
  M.Cached = true;
  json Runner = json::parse(R.Metrics, nullptr, /*allow_exceptions=*/false);
  if (!Runner.is_object())
    return M;
  try {
    M.Usage = usageFrom(Runner);
  } catch (const json::exception &) {
    // A malformed usage is no usage.
  }
  if (Runner.contains("sass")) {
    auto Sass = sassMixFromJSON(Runner["sass"]);
    if (Sass)
      M.Sass = std::move(*Sass);
    else
      llvm::consumeError(Sass.takeError()); // A malformed mix is no mix.
  }
  M.Runner = keptRunnerParts(Runner);
  if (M.ok())
    readEnergy(*M.Runner, M);
  return M;
}

void RecordingMeasurer::note(llvm::Error E) {
  std::string Message = llvm::toString(std::move(E));
  if (DbError.empty())
    DbError = Message;
}

std::optional<Measurement> RecordingMeasurer::lookup(const Candidate &C) {
  auto Found = Db.find(Kernel, C.Hash);
  if (!Found) {
    note(Found.takeError());
    return std::nullopt;
  }
  if (!*Found)
    return std::nullopt;
  return fromRecord(**Found);
}

Measurement RecordingMeasurer::measure(const Candidate &C) {
  return measureAll(C).front();
}

std::vector<Measurement>
RecordingMeasurer::measureAll(llvm::ArrayRef<Candidate> Batch) {
  std::vector<Measurement> Out(Batch.size());
  std::vector<Candidate> Misses;
  std::vector<size_t> Where;
  for (size_t I = 0; I < Batch.size(); ++I) {
    if (auto Known = lookup(Batch[I])) {
      Out[I] = std::move(*Known);
      continue;
    }
    Misses.push_back(Batch[I]);
    Where.push_back(I);
  }
  if (Misses.empty())
    return ranked(std::move(Out));
  std::vector<Measurement> Measured = Inner.measureAll(Misses);
  if (Discard && Discard())
    return ranked(std::move(Out));
  std::vector<CandidateRecord> Records;
  for (size_t I = 0; I < Misses.size() && I < Measured.size(); ++I) {
    Records.push_back(toRecord(Kernel, Misses[I], Measured[I]));
    Out[Where[I]] = std::move(Measured[I]);
  }
  if (llvm::Error E = Db.addAll(Records))
    note(std::move(E));
  return ranked(std::move(Out));
}

void RecordingMeasurer::submit(const Candidate &C) {
  if (auto Known = lookup(C)) {
    Known->Goal = Goal;
    Answered.emplace_back(C, std::move(*Known));
    return;
  }
  Inner.submit(C);
}

std::pair<Candidate, Measurement> RecordingMeasurer::collect() {
  if (!Answered.empty()) {
    auto Out = std::move(Answered.front());
    Answered.pop_front();
    return Out;
  }
  auto Out = Inner.collect();
  Out.second.Goal = Goal;
  if (Discard && Discard())
    return Out;
  if (llvm::Error E = Db.addAll({toRecord(Kernel, Out.first, Out.second)}))
    note(std::move(E));
  return Out;
}

std::vector<Measurement>
RecordingMeasurer::ranked(std::vector<Measurement> Out) const {
  for (Measurement &M : Out)
    M.Goal = Goal;
  return Out;
}

llvm::Error optiml::loadFailureHistory(Database &Db, int64_t Kernel,
                                       FailureTracker &Failures) {
  auto Records = Db.candidates(Kernel);
  if (!Records)
    return Records.takeError();
  for (const CandidateRecord &R : *Records) {
    if (R.LastTransform.empty())
      continue;
    if (R.Status == "ok")
      Failures.recordSuccess(R.LastTransform);
    else
      Failures.recordFailure(R.LastTransform);
  }
  return llvm::Error::success();
}
