//===- ResultsTable.cpp - the results cache in the database ---------------===//
//
// The `results` table: one best verified version per kernel and key, kept
// beside the search's records so that --optimize fills it and --use-cache,
// --export-cache and --import-cache read and write the same store.
//
//===----------------------------------------------------------------------===//

#include "optiml/DB/Database.h"
#include "optiml/DB/Statement.h"

#include <sqlite3.h>

#include <ctime>

using namespace optiml;

static const char ResultColumns[] =
    "id, kernel, kernel_hash, spec_hash, arch, gpu, cuda, tool, flags, steps, "
    "result, speedup, created_at";

static ResultRecord readResult(const Statement &S) {
  ResultRecord R;
  R.Id = S.integer(0);
  R.Kernel = S.text(1);
  R.KernelHash = S.text(2);
  R.SpecHash = S.text(3);
  R.Arch = S.text(4);
  R.Gpu = S.text(5);
  R.Cuda = S.text(6);
  R.Tool = S.text(7);
  R.Flags = S.text(8);
  R.Steps = S.text(9);
  R.ResultText = S.text(10);
  R.Speedup = S.real(11);
  R.CreatedAt = S.integer(12);
  return R;
}

llvm::Expected<bool> Database::putResult(const ResultRecord &R) {
  // A slower result never replaces a faster one for the same key, so
  // importing an older export or a worse run loses nothing.
  auto Upsert = Statement::prepare(
      Db.get(),
      "INSERT INTO results (kernel, kernel_hash, spec_hash, arch, gpu, cuda, "
      "tool, flags, steps, result, speedup, created_at) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
      "ON CONFLICT (kernel_hash, spec_hash, arch, gpu, cuda, tool, flags) "
      "DO UPDATE SET kernel = excluded.kernel, steps = excluded.steps, "
      "result = excluded.result, speedup = excluded.speedup, "
      "created_at = excluded.created_at "
      "WHERE excluded.speedup > results.speedup");
  if (!Upsert)
    return Upsert.takeError();
  Statement &S = *Upsert;
  S.bind(1, R.Kernel).bind(2, R.KernelHash).bind(3, R.SpecHash);
  S.bind(4, R.Arch).bind(5, R.Gpu).bind(6, R.Cuda).bind(7, R.Tool);
  S.bind(8, R.Flags).bind(9, R.Steps).bind(10, R.ResultText);
  S.bind(11, R.Speedup);
  S.bind(12, R.CreatedAt ? R.CreatedAt : int64_t(std::time(nullptr)));
  if (llvm::Error E = S.run())
    return E;
  return sqlite3_changes(Db.get()) > 0;
}

llvm::Expected<std::vector<ResultRecord>>
Database::resultsFor(llvm::StringRef KernelHash, llvm::StringRef SpecHash) {
  auto Select = Statement::prepare(
      Db.get(), std::string("SELECT ") + ResultColumns +
                    " FROM results WHERE kernel_hash = ? AND spec_hash = ? "
                    "ORDER BY id");
  if (!Select)
    return Select.takeError();
  Select->bind(1, KernelHash).bind(2, SpecHash);
  return Select->collect<ResultRecord>(readResult);
}

llvm::Expected<std::vector<ResultRecord>> Database::results() {
  auto Select =
      Statement::prepare(Db.get(), std::string("SELECT ") + ResultColumns +
                                       " FROM results ORDER BY id");
  if (!Select)
    return Select.takeError();
  return Select->collect<ResultRecord>(readResult);
}
