//===- PragmaSpecParser.h - a kernel spec from a pragma mark --*- C++ -*-===//
//
// Reads the clauses of `#pragma optiml kernel ...`:
//
//   sizes(N = 1 << 24)  in(x[N])  out(y[N])  inout(z[N])  scalar(n = N)
//   grid((N + 255) / 256)  block(256)  shmem(0)  dist(x = uniform(-1, 1))
//   tolerance(rtol = 1e-5, atol = 1e-6, norm = 1e-5)  seeds(1, 2)
//   instance(odd: N = 100003)
//
// in any order. Only the syntax is checked here (known clauses, balanced
// parentheses, one role per name); whether the spec fits the kernel is
// SpecBuilder's business, after a sidecar has had its say.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SPEC_PRAGMASPECPARSER_H
#define OPTIML_SPEC_PRAGMASPECPARSER_H

#include "optiml/Spec/MarkLocator.h"
#include "optiml/Spec/SpecDraft.h"

#include "llvm/Support/Error.h"

#include <functional>

namespace optiml {

class PragmaSpecParser {
public:
  /// Where the character at an offset of the parsed text was written.
  using Locator = std::function<SourcePos(size_t)>;

  /// The draft spec of \p Mark, whose clauses must start with `kernel`.
  static llvm::Expected<SpecDraft> parse(const KernelMark &Mark,
                                         const MarkLocator &Loc);

  /// One distribution such as "uniform(-1, 1)" or "index(1, 0, N)"; the
  /// sidecar accepts this form too.
  static llvm::Expected<DistributionDraft>
  parseDistribution(llvm::StringRef Text, const Locator &Loc);

private:
  /// A piece of the text and its offset in the whole clauses string.
  struct Piece {
    llvm::StringRef Text;
    size_t Offset = 0;
  };

  PragmaSpecParser(llvm::StringRef Text, Locator Loc)
      : Text(Text), Loc(std::move(Loc)) {}

  llvm::Error run(const KernelMark &Mark);
  llvm::Error clause(Piece Name, Piece Body);
  llvm::Error sizes(Piece Name, Piece Body);
  llvm::Error buffers(Piece Name, ArgRole Role, Piece Body);
  llvm::Error scalars(Piece Name, Piece Body);
  llvm::Error nulls(Piece Name, Piece Body);
  llvm::Error aliases(Piece Name, Piece Body);
  llvm::Error symbols(Piece Name, Piece Body);
  /// `NAME[LENGTH]` of a buffer clause; `NAME` alone too when
  /// \p LengthOptional.
  llvm::Expected<std::pair<Piece, std::optional<SpecExpr>>>
  sizedName(Piece Item, bool LengthOptional) const;
  llvm::Error templateArgs(Piece Name, Piece Body);
  llvm::Error dims(Piece Name, Piece Body, std::optional<DimsDraft> &Out,
                   size_t Max);
  llvm::Error shmem(Piece Name, Piece Body);
  llvm::Error dists(Piece Name, Piece Body);
  llvm::Error tolerance(Piece Name, Piece Body);
  llvm::Error instance(Piece Name, Piece Body);
  llvm::Error giveRole(Piece Name, ArgRole Role, SpecExpr Expr);
  // The sequence clauses (PragmaSequenceClauses.cpp).
  llvm::Error repeat(Piece Name, Piece Body);
  llvm::Error swap(Piece Name, Piece Body);
  llvm::Error cooperative(Piece Name, Piece Body);
  /// `then(...)` / `before(...)`: `[cooperative] KERNEL<<<GRID, BLOCK[,
  /// SHMEM]>>>(ARG, ...)`.
  llvm::Error launchStep(Piece Name, Piece Body);
  /// A grid or block of a launch: `dim3(X[, Y[, Z]])` or one expression.
  llvm::Expected<DimsDraft> launchDims(Piece Item) const;
  /// Remembers where the first sequence clause is.
  void sequenceClause(Piece Name);

  llvm::Expected<size_t> closingParen(size_t Open) const;
  llvm::Expected<std::vector<Piece>> items(Piece Name, Piece Body) const;
  /// `NAME = VALUE`; with \p FieldPath, NAME may go on into a field of the
  /// argument's elements (`opt.x`, `p.pos`, `s.v[1]`).
  llvm::Expected<std::pair<Piece, Piece>>
  assignment(Piece Item, bool FieldPath = false) const;
  /// items() of a clause whose every item is `NAME = VALUE`.
  llvm::Expected<std::vector<std::pair<Piece, Piece>>>
  assignments(Piece Name, Piece Body, bool FieldPath = false) const;
  llvm::Expected<DistributionDraft> distribution(Piece Item) const;
  llvm::Error checkName(Piece Name, llvm::StringRef What) const;
  SpecExpr expr(Piece P) const { return SpecExpr{P.Text.str(), Loc(P.Offset)}; }
  llvm::Error error(size_t Offset, const llvm::Twine &What,
                    const llvm::Twine &Expected) const;

  llvm::StringRef Text;
  Locator Loc;
  SpecDraft Draft;
};

} // namespace optiml

#endif // OPTIML_SPEC_PRAGMASPECPARSER_H
