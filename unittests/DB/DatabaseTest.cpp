//===- DatabaseTest.cpp - the search database -----------------------------===//

#include "optiml/DB/Database.h"
#include "optiml/Support/Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <sqlite3.h>

#include <cstdlib>

using namespace optiml;

namespace {

KernelRecord saxpy(std::string Device = "NVIDIA H200") {
  return {0,      "ab12",           "saxpy", R"({"sizes":{"N":16777216}})",
          Device, "nvcc 13.0 sm_90"};
}

CandidateRecord record(int64_t Kernel, std::string Hash, std::string Status) {
  CandidateRecord C;
  C.Kernel = Kernel;
  C.Trace = "vectorize(site=saxpy/load:x#0,width=4)";
  C.SourceHash = std::move(Hash);
  C.ParentHash = "ab12";
  C.LastTransform = "vectorize";
  C.Status = std::move(Status);
  C.Speedup = 1.08;
  C.Noise = 0.004;
  C.Threshold = 0.01;
  C.Significant = true;
  C.TimeNs = 56850;
  C.ReferenceTimeNs = 61400;
  C.RooflineFraction = 0.75;
  C.Metrics = R"({"metrics":{"instances":[]}})";
  C.Log = "";
  return C;
}

Database memory() { return llvm::cantFail(Database::open(":memory:")); }

TEST(DatabaseTest, KernelsOfOneFileAndSpecAreTwoProblems) {
  // Two kernels of one file with the same mark: each has its own
  // measurements.
  Database Db = memory();
  KernelRecord Other = saxpy();
  Other.Name = "saxpy_shared";
  int64_t A = llvm::cantFail(Db.kernelId(saxpy()));
  int64_t B = llvm::cantFail(Db.kernelId(Other));
  EXPECT_NE(A, B);
  llvm::cantFail(Db.add(record(A, "cd34", "ok")));
  EXPECT_TRUE(llvm::cantFail(Db.find(A, "cd34")).has_value());
  EXPECT_FALSE(llvm::cantFail(Db.find(B, "cd34")).has_value());
}

TEST(DatabaseTest, KernelsAreKeyedByHashSpecDeviceAndToolchain) {
  Database Db = memory();
  int64_t A = llvm::cantFail(Db.kernelId(saxpy()));
  EXPECT_EQ(llvm::cantFail(Db.kernelId(saxpy())), A);
  int64_t B = llvm::cantFail(Db.kernelId(saxpy("NVIDIA H100")));
  EXPECT_NE(A, B);
  auto All = llvm::cantFail(Db.kernels());
  ASSERT_EQ(All.size(), 2u);
  EXPECT_EQ(All[1].Device, "NVIDIA H100");
  EXPECT_EQ(All[0].Spec, saxpy().Spec);
}

TEST(DatabaseTest, CandidateRoundTrip) {
  Database Db = memory();
  int64_t K = llvm::cantFail(Db.kernelId(saxpy()));
  EXPECT_TRUE(llvm::cantFail(Db.add(record(K, "cd34", "ok"))));
  auto Found = llvm::cantFail(Db.find(K, "cd34"));
  ASSERT_TRUE(Found.has_value());
  CandidateRecord Want = record(K, "cd34", "ok");
  EXPECT_GT(Found->Id, 0);
  EXPECT_EQ(Found->Trace, Want.Trace);
  EXPECT_EQ(Found->ParentHash, "ab12");
  EXPECT_EQ(Found->LastTransform, "vectorize");
  EXPECT_EQ(Found->Status, "ok");
  EXPECT_DOUBLE_EQ(Found->Speedup, 1.08);
  EXPECT_TRUE(Found->Significant);
  EXPECT_DOUBLE_EQ(Found->ReferenceTimeNs, 61400);
  EXPECT_EQ(Found->RooflineFraction, 0.75);
  EXPECT_EQ(Found->Metrics, Want.Metrics);
  EXPECT_GT(Found->CreatedAt, 0);
  EXPECT_FALSE(llvm::cantFail(Db.find(K, "ef56")).has_value());
  // The same source on another problem is another record.
  int64_t Other = llvm::cantFail(Db.kernelId(saxpy("NVIDIA H100")));
  EXPECT_FALSE(llvm::cantFail(Db.find(Other, "cd34")).has_value());
}

TEST(DatabaseTest, AbsentRooflineIsNull) {
  Database Db = memory();
  int64_t K = llvm::cantFail(Db.kernelId(saxpy()));
  CandidateRecord C = record(K, "cd34", "build_failed");
  C.RooflineFraction.reset();
  C.Log = "error: identifier \"float5\" is undefined";
  llvm::cantFail(Db.add(C));
  auto Found = llvm::cantFail(Db.find(K, "cd34"));
  EXPECT_FALSE(Found->RooflineFraction.has_value());
  EXPECT_EQ(Found->Log, C.Log);
}

TEST(DatabaseTest, TheFirstRecordOfASourceStands) {
  Database Db = memory();
  int64_t K = llvm::cantFail(Db.kernelId(saxpy()));
  EXPECT_TRUE(llvm::cantFail(Db.add(record(K, "cd34", "verify_failed"))));
  EXPECT_FALSE(llvm::cantFail(Db.add(record(K, "cd34", "ok"))));
  EXPECT_EQ(llvm::cantFail(Db.find(K, "cd34"))->Status, "verify_failed");
}

TEST(DatabaseTest, ABatchIsAllOrNothing) {
  Database Db = memory();
  int64_t K = llvm::cantFail(Db.kernelId(saxpy()));
  // The second row names a kernel that does not exist.
  std::vector<CandidateRecord> Batch = {record(K, "a1", "ok"),
                                        record(K + 7, "a2", "ok")};
  llvm::Error E = Db.addAll(Batch);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("FOREIGN KEY"),
            std::string::npos);
  EXPECT_TRUE(llvm::cantFail(Db.candidates(K)).empty());
  llvm::cantFail(Db.addAll({record(K, "a1", "ok"), record(K, "a2", "ok")}));
  auto All = llvm::cantFail(Db.candidates(K));
  ASSERT_EQ(All.size(), 2u);
  EXPECT_EQ(All[0].SourceHash, "a1"); // Oldest first.
}

class DatabaseFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("optiml-db", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  std::string path(llvm::StringRef Name) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }
  llvm::SmallString<256> Dir;
};

TEST_F(DatabaseFileTest, PersistsAcrossOpens) {
  std::string Path = path("sub/dir/search.sqlite");
  {
    Database Db = llvm::cantFail(Database::open(Path));
    int64_t K = llvm::cantFail(Db.kernelId(saxpy()));
    llvm::cantFail(Db.add(record(K, "cd34", "ok")));
  }
  Database Db = llvm::cantFail(Database::open(Path));
  int64_t K = llvm::cantFail(Db.kernelId(saxpy()));
  EXPECT_EQ(llvm::cantFail(Db.candidates(K)).size(), 1u);
}

TEST_F(DatabaseFileTest, MigratesSchema3KeepingKernelsAndCandidates) {
  // A schema-3 database: kernels unique by (hash, spec, device, toolchain).
  std::string Path = path("v3.sqlite");
  sqlite3 *Raw = nullptr;
  ASSERT_EQ(sqlite3_open(Path.c_str(), &Raw), SQLITE_OK);
  const char *V3 = R"sql(
    CREATE TABLE kernels (id INTEGER PRIMARY KEY, hash TEXT NOT NULL,
      name TEXT NOT NULL, spec TEXT NOT NULL, device TEXT NOT NULL,
      toolchain TEXT NOT NULL, created_at INTEGER NOT NULL,
      UNIQUE (hash, spec, device, toolchain));
    CREATE TABLE candidates (id INTEGER PRIMARY KEY,
      kernel_id INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
      trace TEXT NOT NULL, source_hash TEXT NOT NULL,
      parent_hash TEXT NOT NULL, last_transform TEXT NOT NULL,
      status TEXT NOT NULL, speedup REAL NOT NULL, noise REAL NOT NULL,
      threshold REAL NOT NULL, significant INTEGER NOT NULL,
      time_ns REAL NOT NULL, reference_time_ns REAL NOT NULL, roofline REAL,
      metrics TEXT NOT NULL, log TEXT NOT NULL, created_at INTEGER NOT NULL,
      UNIQUE (kernel_id, source_hash));
    INSERT INTO kernels VALUES (7, 'ab12', 'saxpy',
      '{"sizes":{"N":16777216}}', 'NVIDIA H200', 'nvcc 13.0 sm_90', 1);
    INSERT INTO candidates VALUES (1, 7, '', 'cd34', 'ab12', '', 'ok', 1.5,
      0.01, 0.02, 1, 10, 15, NULL, '{}', '', 1);
    PRAGMA user_version = 3;)sql";
  ASSERT_EQ(sqlite3_exec(Raw, V3, nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(Raw);

  auto Opened = Database::open(Path);
  ASSERT_TRUE(bool(Opened)) << llvm::toString(Opened.takeError());
  Database Db = std::move(*Opened);
  auto Id = Db.kernelId(saxpy());
  ASSERT_TRUE(bool(Id)) << llvm::toString(Id.takeError());
  EXPECT_EQ(*Id, 7);
  EXPECT_EQ(llvm::cantFail(Db.candidates(7)).size(), 1u);
  KernelRecord Other = saxpy();
  Other.Name = "saxpy_shared";
  EXPECT_NE(llvm::cantFail(Db.kernelId(Other)), 7);
  // Schema 5's table of endpoints that refused a JSON schema is there.
  llvm::cantFail(Db.setSchemaRefusal("http://x/v1", "m", "HTTP 400"));
  EXPECT_EQ(llvm::cantFail(Db.schemaRefusal("http://x/v1", "m")),
            std::optional<std::string>("HTTP 400"));
}

TEST_F(DatabaseFileTest, RefusesANewerSchema) {
  std::string Path = path("new.sqlite");
  sqlite3 *Raw = nullptr;
  ASSERT_EQ(sqlite3_open(Path.c_str(), &Raw), SQLITE_OK);
  sqlite3_exec(Raw, "PRAGMA user_version = 99", nullptr, nullptr, nullptr);
  sqlite3_close(Raw);
  auto Db = Database::open(Path);
  ASSERT_FALSE(bool(Db));
  ErrorSummary E = summarize(Db.takeError());
  EXPECT_EQ(E.Kind, ErrorKind::BadInput);
  EXPECT_EQ(E.Message, "the database was written by a newer OptiML (schema "
                       "99, this one reads 5)");
}

TEST_F(DatabaseFileTest, DefaultPathIsInTheCacheFolder) {
  const char *Old = std::getenv("OPTIML_CACHE_DIR");
  std::string Saved = Old ? Old : "";
  setenv("OPTIML_CACHE_DIR", path("cache").c_str(), 1);
  auto P = Database::defaultPath();
  if (Old)
    setenv("OPTIML_CACHE_DIR", Saved.c_str(), 1);
  else
    unsetenv("OPTIML_CACHE_DIR");
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(*P, path("cache/search.sqlite"));
}

} // namespace
