//===- Statement.h - one prepared SQLite statement --------------*- C++ -*-===//
//
// RAII over sqlite3_stmt with typed binds and columns, so queries in
// Database.cpp read as SQL plus a few calls and no statement leaks on an
// early error return.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DB_STATEMENT_H
#define OPTIML_DB_STATEMENT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace optiml {

class Statement {
public:
  static llvm::Expected<Statement> prepare(sqlite3 *Db, llvm::StringRef SQL);

  Statement(Statement &&Other) : Db(Other.Db), S(Other.S) { Other.S = nullptr; }
  Statement &operator=(Statement &&) = delete;
  ~Statement();

  /// Binds are 1-based, as in SQLite.
  Statement &bind(int I, llvm::StringRef Text);
  Statement &bind(int I, int64_t Value);
  Statement &bind(int I, double Value);
  Statement &bind(int I, std::optional<double> Value);

  /// True while a row is available; an error for anything but a row or
  /// the end.
  llvm::Expected<bool> step();

  /// Steps through every remaining row, turning each into a T with \p Read
  /// (given this statement, positioned on the row).
  template <typename T, typename ReadFn>
  llvm::Expected<std::vector<T>> collect(ReadFn Read) {
    std::vector<T> Out;
    while (true) {
      auto Row = step();
      if (!Row)
        return Row.takeError();
      if (!*Row)
        return Out;
      Out.push_back(Read(*this));
    }
  }
  /// Steps once and expects no row.
  llvm::Error run();

  std::string text(int Column) const;
  int64_t integer(int Column) const;
  double real(int Column) const;
  std::optional<double> optionalReal(int Column) const;

private:
  Statement(sqlite3 *Db, sqlite3_stmt *S) : Db(Db), S(S) {}

  sqlite3 *Db;
  sqlite3_stmt *S;
};

/// An Internal error with SQLite's message for \p Db.
llvm::Error sqliteError(sqlite3 *Db, const llvm::Twine &What);

} // namespace optiml

#endif // OPTIML_DB_STATEMENT_H
