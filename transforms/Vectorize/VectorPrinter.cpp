//===- VectorPrinter.cpp - print a vectorized elementwise body -----------===//

#include "VectorPrinter.h"
#include "optiml/Rewrite/SourceSnippet.h"

#include "optiml/Analysis/SourceText.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

#include <functional>

using namespace optiml;
using namespace clang;

static const char *const Lanes[] = {"x", "y", "z", "w"};

static std::string bufferVar(const VectorBuffer &B) {
  return "optiml_" + B.Param->getName().str();
}

llvm::Expected<std::string> VectorPrinter::print(const CompoundStmt &Body) {
  W.emplace(Body, Ctx);
  if (llvm::Error E = printStmts(Plan.Prefix, 1))
    return E;
  if (Plan.Loop) {
    if (llvm::Error E = printGridStride(1))
      return E;
    return W->finish();
  }
  auto Type = indexType();
  if (!Type)
    return Type.takeError();
  auto Init = SourceSnippet::ofExpr(*Plan.Index->getInit(), Ctx);
  if (!Init)
    return Init.takeError();
  W->line(1, "const " + *Type + " optiml_base = (" + Init->text() + ") * " +
                 std::to_string(Plan.Width) + ";");
  auto Cond = vectorCondition();
  if (!Cond)
    return Cond.takeError();
  W->line(1, "if (" + *Cond + ") {");
  if (llvm::Error E = printVectorPath(2))
    return E;
  W->line(1, "} else {");
  if (llvm::Error E = printScalarPath(2))
    return E;
  W->line(1, "}");
  return W->finish();
}

llvm::Error VectorPrinter::printStmts(llvm::ArrayRef<const Stmt *> Stmts,
                                      unsigned Depth) {
  for (const Stmt *S : Stmts) {
    auto Snip = SourceSnippet::ofStmt(*S, Ctx);
    if (!Snip)
      return Snip.takeError();
    W->lines(Depth, Snip->lines());
  }
  return llvm::Error::success();
}

llvm::Expected<std::string> VectorPrinter::indexType() const {
  const VarDecl &I = *Plan.Index;
  std::string T =
      I.getTypeSourceInfo()
          ? textOf(I.getTypeSourceInfo()->getTypeLoc().getSourceRange(), Ctx)
          : "";
  if (T.empty())
    T = I.getType().getAsString(Ctx.getPrintingPolicy());
  llvm::StringRef R(T);
  R.consume_front("const ");
  return R.str();
}

/// All W lanes in range, and every buffer aligned for its vector type (the
/// base is a multiple of W, so p + base is aligned when p is). size_t, not
/// uintptr_t: nvcc declares it in every translation unit.
llvm::Expected<std::string> VectorPrinter::vectorCondition() const {
  std::vector<std::string> Parts;
  if (!Plan.Loop)
    Parts.push_back("optiml_base + " + std::to_string(Plan.Width - 1) + " < " +
                    boundText());
  for (const VectorBuffer &Buf : Plan.Buffers)
    Parts.push_back("reinterpret_cast<size_t>(" + Buf.Param->getName().str() +
                    ") % (" + std::to_string(Plan.Width) + " * sizeof(" +
                    Buf.Element + ")) == 0");
  for (const auto &[W, R] : Plan.Distinct)
    Parts.push_back("static_cast<const void *>(" + W->getName().str() +
                    ") != static_cast<const void *>(" + R->getName().str() +
                    ")");
  return llvm::join(Parts, " &&\n      ");
}

/// The bound, parenthesized unless it is a name or a number.
std::string VectorPrinter::boundText() const {
  std::string Bound = textOf(Plan.Bound->getSourceRange(), Ctx);
  const Expr *B = Plan.Bound->IgnoreImpCasts();
  if (!isa<DeclRefExpr, IntegerLiteral>(B))
    Bound = "(" + Bound + ")";
  return Bound;
}

/// A grid-stride loop over whole vectors, then the original loop over the
/// last n % W elements; the original loop alone where a buffer is not
/// aligned.
llvm::Error VectorPrinter::printGridStride(unsigned Depth) {
  auto Type = indexType();
  auto Start = SourceSnippet::ofExpr(*Plan.Index->getInit(), Ctx);
  auto Stride = SourceSnippet::ofExpr(*Plan.Stride, Ctx);
  auto Cond = vectorCondition();
  if (!Type)
    return Type.takeError();
  if (!Start)
    return Start.takeError();
  if (!Stride)
    return Stride.takeError();
  if (!Cond)
    return Cond.takeError();
  std::string Width = std::to_string(Plan.Width);
  std::string Vectors = boundText() + " / " + Width;
  W->line(Depth, "if (" + *Cond + ") {");
  W->line(Depth + 1, "for (" + *Type + " optiml_v = " + Start->text() +
                         "; optiml_v < " + Vectors +
                         "; optiml_v += " + Stride->text() + ") {");
  W->line(Depth + 2,
          "const " + *Type + " optiml_base = optiml_v * " + Width + ";");
  if (llvm::Error E = printVectorPath(Depth + 2))
    return E;
  W->line(Depth + 1, "}");
  std::string I = Plan.Index->getName().str();
  W->line(Depth + 1, "for (" + *Type + " " + I + " = " + Vectors + " * " +
                         Width + " + (" + Start->text() + "); " + I + " < " +
                         boundText() + "; " + I + " += " + Stride->text() +
                         ") {");
  if (llvm::Error E = printStmts(Plan.Body, Depth + 2))
    return E;
  W->line(Depth + 1, "}");
  W->line(Depth, "} else {");
  if (llvm::Error E = printStmts({Plan.Loop}, Depth + 1))
    return E;
  W->line(Depth, "}");
  return llvm::Error::success();
}

llvm::Error VectorPrinter::printVectorPath(unsigned Depth) {
  for (const VectorBuffer &B : Plan.Buffers) {
    std::string Decl =
        (B.Written ? "" : "const ") + B.Vector + " " + bufferVar(B);
    if (B.Load)
      Decl += " = *reinterpret_cast<const " + B.Vector + " *>(" +
              B.Param->getName().str() + " + optiml_base)";
    W->line(Depth, Decl + ";");
  }
  for (unsigned L = 0; L < Plan.Width; ++L)
    if (llvm::Error E = printLane(L, Depth))
      return E;
  std::vector<const VectorBuffer *> Stores;
  for (const VectorBuffer &B : Plan.Buffers)
    if (B.Written)
      Stores.push_back(&B);
  llvm::stable_sort(Stores, [](const VectorBuffer *A, const VectorBuffer *B) {
    return A->LastWrite < B->LastWrite;
  });
  for (const VectorBuffer *B : Stores)
    W->line(Depth, "*reinterpret_cast<" + B->Vector + " *>(" +
                       B->Param->getName().str() +
                       " + optiml_base) = " + bufferVar(*B) + ";");
  return llvm::Error::success();
}

/// The body for lane \p Lane: p[i] becomes optiml_p.<lane>, other uses of
/// i the lane's index.
llvm::Error VectorPrinter::printLane(unsigned Lane, unsigned Depth) {
  bool Braces =
      llvm::any_of(Plan.Body, [](const Stmt *S) { return isa<DeclStmt>(S); });
  if (Braces)
    W->line(Depth, "{");
  unsigned Inner = Depth + Braces;
  for (const Stmt *S : Plan.Body) {
    auto Snip = SourceSnippet::ofStmt(*S, Ctx);
    if (!Snip)
      return Snip.takeError();
    llvm::SmallPtrSet<const Expr *, 8> InAccess;
    for (const ArraySubscriptExpr *A : Plan.Accesses) {
      if (!S->getSourceRange().fullyContains(A->getSourceRange()))
        continue;
      const auto *Base = cast<DeclRefExpr>(A->getBase()->IgnoreParenImpCasts());
      const VectorBuffer *B = Plan.bufferOf(cast<ParmVarDecl>(Base->getDecl()));
      if (llvm::Error E = Snip->replace(A->getSourceRange(),
                                        bufferVar(*B) + "." + Lanes[Lane]))
        return E;
      InAccess.insert(A->getIdx()->IgnoreParenImpCasts());
    }
    std::string Index = "(optiml_base + " + std::to_string(Lane) + ")";
    llvm::Error Err = llvm::Error::success();
    std::function<void(const Stmt *)> Visit = [&](const Stmt *N) {
      if (!N || Err)
        return;
      if (const auto *R = dyn_cast<DeclRefExpr>(N);
          R && R->getDecl() == Plan.Index && !InAccess.contains(R))
        Err = Snip->replace(R->getSourceRange(), Index);
      for (const Stmt *C : N->children())
        Visit(C);
    };
    Visit(S);
    if (Err)
      return Err;
    W->lines(Inner, Snip->lines());
  }
  if (Braces)
    W->line(Depth, "}");
  return llvm::Error::success();
}

/// The original bounds check and body, once per lane: the end of the
/// array and unaligned buffers. Lanes go up, so an early return leaves
/// only lanes past the bound too.
llvm::Error VectorPrinter::printScalarPath(unsigned Depth) {
  W->line(Depth, "for (int optiml_l = 0; optiml_l < " +
                     std::to_string(Plan.Width) + "; ++optiml_l) {");
  auto Type = indexType();
  if (!Type)
    return Type.takeError();
  W->line(Depth + 1, "const " + *Type + " " + Plan.Index->getName().str() +
                         " = optiml_base + optiml_l;");
  std::vector<const Stmt *> Tail = {Plan.Guard};
  if (Plan.EarlyReturn)
    Tail.insert(Tail.end(), Plan.Body.begin(), Plan.Body.end());
  if (llvm::Error E = printStmts(Tail, Depth + 1))
    return E;
  W->line(Depth, "}");
  return llvm::Error::success();
}
