//===- Transaction.h - all or nothing ---------------------------*- C++ -*-===//
//
// A batch of candidates is recorded in one transaction: one fsync instead
// of one per row, and a crash mid-batch leaves no half-written batch.
// Rolled back unless committed.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DB_TRANSACTION_H
#define OPTIML_DB_TRANSACTION_H

#include "llvm/Support/Error.h"

struct sqlite3;

namespace optiml {

class Transaction {
public:
  static llvm::Expected<Transaction> begin(sqlite3 *Db);

  Transaction(Transaction &&Other) : Db(Other.Db), Open(Other.Open) {
    Other.Open = false;
  }
  Transaction &operator=(Transaction &&) = delete;
  ~Transaction();

  llvm::Error commit();

private:
  explicit Transaction(sqlite3 *Db) : Db(Db), Open(true) {}

  sqlite3 *Db;
  bool Open;
};

} // namespace optiml

#endif // OPTIML_DB_TRANSACTION_H
