//===- Database.cpp - every measured candidate, kept across runs ----------===//

#include "optiml/DB/Database.h"
#include "optiml/DB/Statement.h"
#include "optiml/DB/Transaction.h"
#include "optiml/Support/CacheDir.h"
#include "optiml/Support/Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <sqlite3.h>

#include <ctime>

using namespace optiml;

static const char Schema[] = R"sql(
CREATE TABLE IF NOT EXISTS kernels (
  id INTEGER PRIMARY KEY,
  hash TEXT NOT NULL,
  name TEXT NOT NULL,
  spec TEXT NOT NULL,
  device TEXT NOT NULL,
  toolchain TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (hash, name, spec, device, toolchain));
CREATE TABLE IF NOT EXISTS candidates (
  id INTEGER PRIMARY KEY,
  kernel_id INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
  trace TEXT NOT NULL,
  source_hash TEXT NOT NULL,
  parent_hash TEXT NOT NULL,
  last_transform TEXT NOT NULL,
  status TEXT NOT NULL,
  speedup REAL NOT NULL,
  noise REAL NOT NULL,
  threshold REAL NOT NULL,
  significant INTEGER NOT NULL,
  time_ns REAL NOT NULL,
  reference_time_ns REAL NOT NULL,
  roofline REAL,
  metrics TEXT NOT NULL,
  log TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (kernel_id, source_hash));
CREATE INDEX IF NOT EXISTS candidates_by_status
  ON candidates (kernel_id, status);
CREATE TABLE IF NOT EXISTS llm_calls (
  id INTEGER PRIMARY KEY,
  cache_key TEXT NOT NULL,
  provider TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  model TEXT NOT NULL,
  prompt_version TEXT NOT NULL,
  prompt_hash TEXT NOT NULL,
  temperature REAL NOT NULL,
  max_tokens INTEGER NOT NULL,
  sample INTEGER NOT NULL,
  answer TEXT NOT NULL,
  finish_reason TEXT NOT NULL,
  tokens_in INTEGER NOT NULL,
  tokens_out INTEGER NOT NULL,
  latency_s REAL NOT NULL,
  cost REAL NOT NULL,
  created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS llm_calls_by_key ON llm_calls (cache_key);
CREATE TABLE IF NOT EXISTS llm_schema_refusals (
  endpoint TEXT NOT NULL,
  model TEXT NOT NULL,
  why TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (endpoint, model));
CREATE TABLE IF NOT EXISTS results (
  id INTEGER PRIMARY KEY,
  kernel TEXT NOT NULL,
  kernel_hash TEXT NOT NULL,
  spec_hash TEXT NOT NULL,
  arch TEXT NOT NULL,
  gpu TEXT NOT NULL,
  cuda TEXT NOT NULL,
  tool TEXT NOT NULL,
  flags TEXT NOT NULL,
  steps TEXT NOT NULL,
  result TEXT NOT NULL,
  speedup REAL NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (kernel_hash, spec_hash, arch, gpu, cuda, tool, flags));
)sql";

static const char LlmCallColumns[] =
    "id, cache_key, provider, endpoint, model, prompt_version, prompt_hash, "
    "temperature, max_tokens, sample, answer, finish_reason, tokens_in, "
    "tokens_out, latency_s, cost, created_at";

static const char CandidateColumns[] =
    "id, kernel_id, trace, source_hash, parent_hash, last_transform, status, "
    "speedup, noise, threshold, significant, time_ns, reference_time_ns, "
    "roofline, metrics, log, created_at";

void Database::Closer::operator()(sqlite3 *Db) const { sqlite3_close(Db); }

/// Schema 4 tells kernels apart by name too: two kernels of one file with
/// the same spec were one problem before, and the second was answered with
/// the first one's measurements. SQLite cannot change a table's constraint,
/// so the table is rebuilt, rows and ids kept, with foreign keys off so
/// that dropping the old table takes no candidate with it.
static const char KernelsByName[] = R"sql(
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE kernels_v4 (
  id INTEGER PRIMARY KEY,
  hash TEXT NOT NULL,
  name TEXT NOT NULL,
  spec TEXT NOT NULL,
  device TEXT NOT NULL,
  toolchain TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (hash, name, spec, device, toolchain));
INSERT INTO kernels_v4 SELECT id, hash, name, spec, device, toolchain,
  created_at FROM kernels;
DROP TABLE kernels;
ALTER TABLE kernels_v4 RENAME TO kernels;
COMMIT;
PRAGMA foreign_keys = ON;
)sql";

llvm::Expected<std::string> Database::defaultPath() {
  auto Dir = cacheDir("");
  if (!Dir)
    return Dir.takeError();
  llvm::SmallString<256> Path(*Dir);
  llvm::sys::path::append(Path, "search.sqlite");
  return std::string(Path);
}

llvm::Expected<Database> Database::open(llvm::StringRef Path) {
  if (Path != ":memory:") {
    llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
    if (!Dir.empty())
      if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
        return makeError(ErrorKind::BadInput,
                         "cannot create " + Dir + ": " + EC.message());
    if (!Dir.empty() && !llvm::sys::fs::is_directory(Dir))
      return makeError(ErrorKind::BadInput, "cannot open database " + Path +
                                                ": " + Dir +
                                                " is not a folder");
  }
  sqlite3 *Raw = nullptr;
  int RC = sqlite3_open_v2(Path.str().c_str(), &Raw,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  Database Db(Raw); // Closes Raw on every path below.
  if (RC != SQLITE_OK)
    return makeError(ErrorKind::BadInput,
                     "cannot open database " + Path + ": " +
                         (Raw ? sqlite3_errmsg(Raw) : "out of memory"));
  // Several builds may share the cache: wait for a writer, do not fail.
  sqlite3_busy_timeout(Raw, 10000);
  // Write-ahead logging: a tool killed mid-search (kill -9, a power cut)
  // leaves every committed candidate readable, and readers never wait for
  // the writer.
  if (llvm::Error E = Db.exec("PRAGMA journal_mode = WAL"))
    return E;
  if (llvm::Error E = Db.exec("PRAGMA foreign_keys = ON"))
    return E;
  if (llvm::Error E = Db.migrate())
    return E;
  return Db;
}

llvm::Error Database::exec(llvm::StringRef SQL) {
  char *Message = nullptr;
  if (sqlite3_exec(Db.get(), SQL.str().c_str(), nullptr, nullptr, &Message) ==
      SQLITE_OK)
    return llvm::Error::success();
  std::string Why = Message ? Message : "unknown error";
  sqlite3_free(Message);
  return makeError(ErrorKind::Internal, "database: " + Why);
}

/// The schema version written in the file (0 for a new one).
static llvm::Expected<int64_t> userVersion(sqlite3 *Db) {
  auto Version = Statement::prepare(Db, "PRAGMA user_version");
  if (!Version)
    return Version.takeError();
  auto Row = Version->step();
  if (!Row)
    return Row.takeError();
  return *Row ? Version->integer(0) : 0;
}

llvm::Error Database::migrate() {
  // Read in a statement of its own, finished before any table changes (an
  // open statement would lock the tables a migration drops).
  auto Read = userVersion(Db.get());
  if (!Read)
    return Read.takeError();
  int64_t Found = *Read;
  if (Found > SchemaVersion)
    return makeError(ErrorKind::BadInput,
                     "the database was written by a newer OptiML (schema " +
                         llvm::Twine(Found) + ", this one reads " +
                         llvm::Twine(SchemaVersion) + ")");
  if (Found == SchemaVersion)
    return llvm::Error::success();
  if (Found >= 1 && Found < 4)
    if (llvm::Error E = exec(KernelsByName))
      return E;
  if (llvm::Error E = exec(Schema))
    return E;
  return exec("PRAGMA user_version = " + std::to_string(SchemaVersion));
}

llvm::Expected<int64_t> Database::kernelId(const KernelRecord &K) {
  auto Insert = Statement::prepare(
      Db.get(), "INSERT INTO kernels (hash, name, spec, device, toolchain, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
  if (!Insert)
    return Insert.takeError();
  Insert->bind(1, K.Hash).bind(2, K.Name).bind(3, K.Spec).bind(4, K.Device);
  Insert->bind(5, K.Toolchain).bind(6, int64_t(std::time(nullptr)));
  if (llvm::Error E = Insert->run())
    return E;
  auto Select = Statement::prepare(
      Db.get(), "SELECT id FROM kernels WHERE hash = ? AND name = ? AND "
                "spec = ? AND device = ? AND toolchain = ?");
  if (!Select)
    return Select.takeError();
  Select->bind(1, K.Hash).bind(2, K.Name).bind(3, K.Spec).bind(4, K.Device);
  Select->bind(5, K.Toolchain);
  auto Row = Select->step();
  if (!Row)
    return Row.takeError();
  if (!*Row)
    return makeError(ErrorKind::Internal, "database: kernel row vanished");
  return Select->integer(0);
}

llvm::Expected<std::vector<KernelRecord>> Database::kernels() {
  auto Select =
      Statement::prepare(Db.get(), "SELECT id, hash, name, spec, device, "
                                   "toolchain FROM kernels ORDER BY id");
  if (!Select)
    return Select.takeError();
  return Select->collect<KernelRecord>([](const Statement &S) {
    return KernelRecord{S.integer(0), S.text(1), S.text(2),
                        S.text(3),    S.text(4), S.text(5)};
  });
}

static CandidateRecord readCandidate(const Statement &S) {
  CandidateRecord C;
  C.Id = S.integer(0);
  C.Kernel = S.integer(1);
  C.Trace = S.text(2);
  C.SourceHash = S.text(3);
  C.ParentHash = S.text(4);
  C.LastTransform = S.text(5);
  C.Status = S.text(6);
  C.Speedup = S.real(7);
  C.Noise = S.real(8);
  C.Threshold = S.real(9);
  C.Significant = S.integer(10) != 0;
  C.TimeNs = S.real(11);
  C.ReferenceTimeNs = S.real(12);
  C.RooflineFraction = S.optionalReal(13);
  C.Metrics = S.text(14);
  C.Log = S.text(15);
  C.CreatedAt = S.integer(16);
  return C;
}

llvm::Expected<std::optional<CandidateRecord>>
Database::find(int64_t Kernel, llvm::StringRef SourceHash) {
  auto Select = Statement::prepare(
      Db.get(), std::string("SELECT ") + CandidateColumns +
                    " FROM candidates WHERE kernel_id = ? AND source_hash = ?");
  if (!Select)
    return Select.takeError();
  Select->bind(1, Kernel).bind(2, SourceHash);
  auto Row = Select->step();
  if (!Row)
    return Row.takeError();
  if (!*Row)
    return std::nullopt;
  return readCandidate(*Select);
}

llvm::Expected<bool> Database::add(const CandidateRecord &C) {
  auto Insert = Statement::prepare(
      Db.get(),
      "INSERT INTO candidates (kernel_id, trace, source_hash, parent_hash, "
      "last_transform, status, speedup, noise, threshold, significant, "
      "time_ns, reference_time_ns, roofline, metrics, log, created_at) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
      "ON CONFLICT (kernel_id, source_hash) DO NOTHING");
  if (!Insert)
    return Insert.takeError();
  Statement &S = *Insert;
  S.bind(1, C.Kernel).bind(2, C.Trace).bind(3, C.SourceHash);
  S.bind(4, C.ParentHash).bind(5, C.LastTransform).bind(6, C.Status);
  S.bind(7, C.Speedup).bind(8, C.Noise).bind(9, C.Threshold);
  S.bind(10, int64_t(C.Significant)).bind(11, C.TimeNs);
  S.bind(12, C.ReferenceTimeNs).bind(13, C.RooflineFraction);
  S.bind(14, C.Metrics).bind(15, C.Log);
  S.bind(16, C.CreatedAt ? C.CreatedAt : int64_t(std::time(nullptr)));
  if (llvm::Error E = S.run())
    return E;
  return sqlite3_changes(Db.get()) > 0;
}

llvm::Error Database::addAll(llvm::ArrayRef<CandidateRecord> Records) {
  auto T = Transaction::begin(Db.get());
  if (!T)
    return T.takeError();
  for (const CandidateRecord &C : Records)
    if (auto Added = add(C); !Added)
      return Added.takeError(); // Rolled back by T.
  return T->commit();
}

llvm::Expected<std::vector<CandidateRecord>>
Database::candidates(int64_t Kernel) {
  auto Select = Statement::prepare(
      Db.get(), std::string("SELECT ") + CandidateColumns +
                    " FROM candidates WHERE kernel_id = ? ORDER BY id");
  if (!Select)
    return Select.takeError();
  Select->bind(1, Kernel);
  return Select->collect<CandidateRecord>(readCandidate);
}

static LlmCallRecord readLlmCall(const Statement &S) {
  LlmCallRecord R;
  R.Id = S.integer(0);
  R.CacheKey = S.text(1);
  R.Provider = S.text(2);
  R.Endpoint = S.text(3);
  R.Model = S.text(4);
  R.PromptVersion = S.text(5);
  R.PromptHash = S.text(6);
  R.Temperature = S.real(7);
  R.MaxTokens = S.integer(8);
  R.Sample = S.integer(9);
  R.Answer = S.text(10);
  R.FinishReason = S.text(11);
  R.TokensIn = S.integer(12);
  R.TokensOut = S.integer(13);
  R.LatencySeconds = S.real(14);
  R.Cost = S.real(15);
  R.CreatedAt = S.integer(16);
  return R;
}

llvm::Expected<std::optional<LlmCallRecord>>
Database::findLlmCall(llvm::StringRef CacheKey) {
  auto Select = Statement::prepare(
      Db.get(), std::string("SELECT ") + LlmCallColumns +
                    " FROM llm_calls WHERE cache_key = ? ORDER BY id DESC "
                    "LIMIT 1");
  if (!Select)
    return Select.takeError();
  Select->bind(1, CacheKey);
  auto Row = Select->step();
  if (!Row)
    return Row.takeError();
  if (!*Row)
    return std::nullopt;
  return readLlmCall(*Select);
}

llvm::Expected<std::optional<std::string>>
Database::schemaRefusal(llvm::StringRef BaseUrl, llvm::StringRef Model) {
  auto Select = Statement::prepare(
      Db.get(), "SELECT why FROM llm_schema_refusals WHERE endpoint = ? AND "
                "model = ?");
  if (!Select)
    return Select.takeError();
  Select->bind(1, BaseUrl).bind(2, Model);
  auto Row = Select->step();
  if (!Row)
    return Row.takeError();
  if (!*Row)
    return std::nullopt;
  return Select->text(0);
}

llvm::Error Database::setSchemaRefusal(llvm::StringRef BaseUrl,
                                       llvm::StringRef Model,
                                       llvm::StringRef Why) {
  auto Insert = Statement::prepare(
      Db.get(), "INSERT OR REPLACE INTO llm_schema_refusals (endpoint, model, "
                "why, created_at) VALUES (?, ?, ?, ?)");
  if (!Insert)
    return Insert.takeError();
  Insert->bind(1, BaseUrl).bind(2, Model).bind(3, Why);
  Insert->bind(4, int64_t(std::time(nullptr)));
  return Insert->run();
}

llvm::Expected<int64_t> Database::addLlmCall(const LlmCallRecord &R) {
  auto Insert = Statement::prepare(
      Db.get(),
      "INSERT INTO llm_calls (cache_key, provider, endpoint, model, "
      "prompt_version, prompt_hash, temperature, max_tokens, sample, answer, "
      "finish_reason, tokens_in, tokens_out, latency_s, cost, created_at) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!Insert)
    return Insert.takeError();
  Statement &S = *Insert;
  S.bind(1, R.CacheKey).bind(2, R.Provider).bind(3, R.Endpoint);
  S.bind(4, R.Model).bind(5, R.PromptVersion).bind(6, R.PromptHash);
  S.bind(7, R.Temperature).bind(8, R.MaxTokens).bind(9, R.Sample);
  S.bind(10, R.Answer).bind(11, R.FinishReason).bind(12, R.TokensIn);
  S.bind(13, R.TokensOut).bind(14, R.LatencySeconds).bind(15, R.Cost);
  S.bind(16, R.CreatedAt ? R.CreatedAt : int64_t(std::time(nullptr)));
  if (llvm::Error E = S.run())
    return E;
  return int64_t(sqlite3_last_insert_rowid(Db.get()));
}

llvm::Expected<std::vector<LlmCallRecord>> Database::llmCalls() {
  auto Select =
      Statement::prepare(Db.get(), std::string("SELECT ") + LlmCallColumns +
                                       " FROM llm_calls ORDER BY id");
  if (!Select)
    return Select.takeError();
  return Select->collect<LlmCallRecord>(readLlmCall);
}
