//===- Database.h - every measured candidate, kept across runs --*- C++ -*-===//
//
// The search's memory (DESIGN.md: failures are records): a SQLite file in
// the user's cache folder by default. A source is looked up by (kernel,
// source hash) before it is built, so a failure is never retried and a
// later run on the same kernel (--resume) gets every known result for
// free.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DB_DATABASE_H
#define OPTIML_DB_DATABASE_H

#include "optiml/DB/Records.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

struct sqlite3;

namespace optiml {

class Database {
public:
  /// Opens (creating it and its folder) the database at \p Path;
  /// ":memory:" gives a private in-memory one.
  static llvm::Expected<Database> open(llvm::StringRef Path);
  /// <cache folder>/search.sqlite (Support/CacheDir.h).
  static llvm::Expected<std::string> defaultPath();

  /// The id of \p K's problem (source hash, kernel name, spec, device,
  /// toolchain), added when new.
  llvm::Expected<int64_t> kernelId(const KernelRecord &K);
  llvm::Expected<std::vector<KernelRecord>> kernels();

  /// The record of \p SourceHash for \p Kernel, if any.
  llvm::Expected<std::optional<CandidateRecord>>
  find(int64_t Kernel, llvm::StringRef SourceHash);
  /// Adds \p C; false when its source was already recorded (the first
  /// record stands).
  llvm::Expected<bool> add(const CandidateRecord &C);
  /// Adds several in one transaction.
  llvm::Error addAll(llvm::ArrayRef<CandidateRecord> Records);
  /// Every record of \p Kernel, oldest first.
  llvm::Expected<std::vector<CandidateRecord>> candidates(int64_t Kernel);

  /// The newest call recorded under \p CacheKey (an LLM answer), if any.
  llvm::Expected<std::optional<LlmCallRecord>>
  findLlmCall(llvm::StringRef CacheKey);
  /// Records one call to a language model; returns its id.
  llvm::Expected<int64_t> addLlmCall(const LlmCallRecord &R);
  /// Every recorded call, oldest first.
  llvm::Expected<std::vector<LlmCallRecord>> llmCalls();
  /// Why the endpoint at \p BaseUrl refused a JSON schema for \p Model,
  /// when it did once (later requests then go without one).
  llvm::Expected<std::optional<std::string>>
  schemaRefusal(llvm::StringRef BaseUrl, llvm::StringRef Model);
  /// Records that the endpoint refused a JSON schema for \p Model.
  llvm::Error setSchemaRefusal(llvm::StringRef BaseUrl, llvm::StringRef Model,
                               llvm::StringRef Why);

  /// Stores \p R unless a result with its key and at least its speedup is
  /// there already; true when stored.
  llvm::Expected<bool> putResult(const ResultRecord &R);
  /// Every result for the kernel definition \p KernelHash under the spec
  /// \p SpecHash, any device or toolchain.
  llvm::Expected<std::vector<ResultRecord>>
  resultsFor(llvm::StringRef KernelHash, llvm::StringRef SpecHash);
  /// Every cached result, oldest first (for --export-cache).
  llvm::Expected<std::vector<ResultRecord>> results();

  /// 2: LLM calls (accounting and answer cache). 3: the results cache.
  /// 4: kernels told apart by name. 5: endpoints that refuse a schema.
  static constexpr int SchemaVersion = 5;

private:
  struct Closer {
    void operator()(sqlite3 *Db) const;
  };

  explicit Database(sqlite3 *Db) : Db(Db) {}
  llvm::Error exec(llvm::StringRef SQL);
  llvm::Error migrate();

  std::unique_ptr<sqlite3, Closer> Db;
};

} // namespace optiml

#endif // OPTIML_DB_DATABASE_H
