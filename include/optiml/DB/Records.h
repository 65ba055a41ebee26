//===- Records.h - rows of the search database ------------------*- C++ -*-===//
//
// Plain rows, independent of the search's types, so the database can be
// read by a report or a script without the search linked in. Statuses and
// JSON are stored as text.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DB_RECORDS_H
#define OPTIML_DB_RECORDS_H

#include <cstdint>
#include <optional>
#include <string>

namespace optiml {

/// One problem: a kernel's original source under one spec, on one device
/// with one toolchain. Measurements are only comparable within it.
struct KernelRecord {
  int64_t Id = 0;
  std::string Hash; ///< Content hash of the original source.
  std::string Name;
  std::string Spec; ///< The kernel spec, as JSON text.
  std::string Device;
  std::string Toolchain; ///< nvcc version, architecture, flags.
};

/// One measured candidate, failures included: (Kernel, SourceHash) is
/// unique, so a source is never built or run twice.
struct CandidateRecord {
  int64_t Id = 0;
  int64_t Kernel = 0;
  std::string Trace; ///< The first trace that produced the source.
  std::string SourceHash;
  std::string ParentHash;
  /// The transform of the move that made it, or the chain's name for a
  /// chain (`chain:register-block`); "" for the original.
  std::string LastTransform;
  std::string Status;        ///< "ok", "build_failed", "verify_failed", ...
  double Speedup = 0;
  double Noise = 0;
  double Threshold = 0;
  bool Significant = false;
  double TimeNs = 0;
  double ReferenceTimeNs = 0;
  std::optional<double> RooflineFraction;
  std::string Metrics;   ///< JSON text: the runner's device, timing, metrics.
  std::string Log;       ///< Build log or runner error.
  int64_t CreatedAt = 0; ///< Unix seconds; set on insertion when 0.
};

/// One answer a language model gave, with what it cost. Rows are the
/// accounting (every call that reached an endpoint) and the cache:
/// CacheKey hashes the endpoint, model, prompt and sampling parameters and
/// the sample index, so a replay gets the same answer back. Never the API
/// key.
struct LlmCallRecord {
  int64_t Id = 0;
  std::string CacheKey;
  std::string Provider; ///< "openai" or "anthropic".
  std::string Endpoint; ///< The base URL.
  std::string Model;
  std::string PromptVersion; ///< "propose/1".
  std::string PromptHash;    ///< Of the rendered prompt.
  double Temperature = 0;
  int64_t MaxTokens = 0;
  int64_t Sample = 0;
  std::string Answer;       ///< The model's text.
  std::string FinishReason; ///< "stop", "length", ...
  int64_t TokensIn = 0;
  int64_t TokensOut = 0;
  double LatencySeconds = 0;
  double Cost = 0; ///< Estimated, in the prices' currency (0: unknown).
  int64_t CreatedAt = 0;
};

/// The best verified version of one marked kernel for one key: the results
/// cache that a build applies without a GPU (docs/CMake.md). The key is
/// (KernelHash, SpecHash, Arch, Gpu, Cuda, Tool, Flags); the value is the
/// steps that rewrite the kernel and the definition they give, which a
/// build replays and compares before it uses them.
struct ResultRecord {
  int64_t Id = 0;
  std::string Kernel;     ///< Qualified name.
  std::string KernelHash; ///< Of the original definition, its mark included.
  std::string SpecHash;   ///< Of the instantiated spec.
  std::string Arch;       ///< "sm_90".
  std::string Gpu;        ///< The device it was measured on.
  std::string Cuda;       ///< The toolkit's release, "12.8".
  std::string Tool;       ///< OptiML's version.
  std::string Flags;      ///< The nvcc flags candidates were built with.
  std::string Steps;      ///< "a(..); b(..)"; "" when the original is best.
  std::string ResultText; ///< The rewritten definition, its mark included.
  double Speedup = 1;
  int64_t CreatedAt = 0; ///< Unix seconds; set on insertion when 0.
};

} // namespace optiml

#endif // OPTIML_DB_RECORDS_H
