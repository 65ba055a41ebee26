//===- Transaction.cpp - all or nothing -----------------------------------===//

#include "optiml/DB/Transaction.h"
#include "optiml/DB/Statement.h"

#include <sqlite3.h>

using namespace optiml;

/// IMMEDIATE takes the write lock at once, so two tools sharing the cache
/// wait on the busy timeout instead of failing with a deadlock at commit.
llvm::Expected<Transaction> Transaction::begin(sqlite3 *Db) {
  if (sqlite3_exec(Db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) !=
      SQLITE_OK)
    return sqliteError(Db, "cannot begin a transaction");
  return Transaction(Db);
}

llvm::Error Transaction::commit() {
  if (sqlite3_exec(Db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK)
    return sqliteError(Db, "cannot commit");
  Open = false;
  return llvm::Error::success();
}

Transaction::~Transaction() {
  if (Open)
    sqlite3_exec(Db, "ROLLBACK", nullptr, nullptr, nullptr);
}
