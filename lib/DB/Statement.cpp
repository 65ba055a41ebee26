//===- Statement.cpp - one prepared SQLite statement ----------------------===//

#include "optiml/DB/Statement.h"
#include "optiml/Support/Error.h"

#include <sqlite3.h>

using namespace optiml;

llvm::Error optiml::sqliteError(sqlite3 *Db, const llvm::Twine &What) {
  return makeError(ErrorKind::Internal,
                   "database: " + What + ": " + sqlite3_errmsg(Db));
}

llvm::Expected<Statement> Statement::prepare(sqlite3 *Db, llvm::StringRef SQL) {
  sqlite3_stmt *S = nullptr;
  if (sqlite3_prepare_v2(Db, SQL.data(), SQL.size(), &S, nullptr) != SQLITE_OK)
    return sqliteError(Db, "cannot prepare '" + SQL + "'");
  return Statement(Db, S);
}

Statement::~Statement() { sqlite3_finalize(S); }

Statement &Statement::bind(int I, llvm::StringRef Text) {
  sqlite3_bind_text(S, I, Text.data(), Text.size(), SQLITE_TRANSIENT);
  return *this;
}

Statement &Statement::bind(int I, int64_t Value) {
  sqlite3_bind_int64(S, I, Value);
  return *this;
}

Statement &Statement::bind(int I, double Value) {
  sqlite3_bind_double(S, I, Value);
  return *this;
}

Statement &Statement::bind(int I, std::optional<double> Value) {
  if (Value)
    sqlite3_bind_double(S, I, *Value);
  else
    sqlite3_bind_null(S, I);
  return *this;
}

llvm::Expected<bool> Statement::step() {
  int RC = sqlite3_step(S);
  if (RC == SQLITE_ROW)
    return true;
  if (RC == SQLITE_DONE)
    return false;
  return sqliteError(Db,
                     "cannot run '" + llvm::StringRef(sqlite3_sql(S)) + "'");
}

llvm::Error Statement::run() {
  auto Row = step();
  if (!Row)
    return Row.takeError();
  return llvm::Error::success();
}

std::string Statement::text(int Column) const {
  const unsigned char *T = sqlite3_column_text(S, Column);
  return T ? std::string(reinterpret_cast<const char *>(T),
                         sqlite3_column_bytes(S, Column))
           : std::string();
}

int64_t Statement::integer(int Column) const {
  return sqlite3_column_int64(S, Column);
}

double Statement::real(int Column) const {
  return sqlite3_column_double(S, Column);
}

std::optional<double> Statement::optionalReal(int Column) const {
  if (sqlite3_column_type(S, Column) == SQLITE_NULL)
    return std::nullopt;
  return sqlite3_column_double(S, Column);
}
