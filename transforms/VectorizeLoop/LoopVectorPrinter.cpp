//===- LoopVectorPrinter.cpp - the text of a vectorized loop --------------===//

#include "transforms/VectorizeLoop/LoopVectorPrinter.h"
#include "optiml/Rewrite/LoopLines.h"
#include "optiml/Rewrite/SourceSnippet.h"

#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Support/Error.h"

#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

static const char *const Lanes[] = {"x", "y", "z", "w"};

LoopVectorPrinter::LoopVectorPrinter(const VectorizeLoopPlan &Plan,
                                     std::string Counter,
                                     std::vector<std::string> Vectors,
                                     ASTContext &Ctx)
    : Plan(Plan), L(Plan.Loop), Counter(std::move(Counter)),
      Vectors(std::move(Vectors)),
      Type(L.IV->getType().getUnqualifiedType().getAsString(
          Ctx.getPrintingPolicy())),
      Ctx(Ctx), Written(*L.For, Ctx) {}

llvm::Expected<std::string>
LoopVectorPrinter::conditionAt(llvm::StringRef Value) const {
  const Expr &Cond = *L.For->getCond();
  auto Snip = SourceSnippet::ofExpr(Cond, Ctx);
  if (!Snip)
    return Snip.takeError();
  std::vector<const DeclRefExpr *> Uses = usesOf(*L.IV, Cond, Ctx);
  if (Uses.size() != 1)
    return makeError(ErrorKind::Internal,
                     "the condition of a canonical loop names its induction "
                     "variable more than once");
  // `+` binds tighter than any comparison, and the IV is an operand of the
  // comparison itself (or parenthesized).
  if (llvm::Error E = Snip->replace(Uses.front()->getSourceRange(), Value.str()))
    return E;
  return Snip->oneLine();
}

llvm::Expected<std::string>
LoopVectorPrinter::addressOf(const WalkedRead &W) const {
  const ArraySubscriptExpr &A = *W.Reads.front();
  auto Snip = SourceSnippet::ofExpr(A, Ctx);
  if (!Snip)
    return Snip.takeError();
  for (const DeclRefExpr *U : usesOf(*L.IV, *A.getIdx(), Ctx))
    if (llvm::Error E = Snip->replace(U->getSourceRange(), Counter))
      return E;
  return "&" + Snip->oneLine();
}

/// Before the vector loop: a whole chunk is left, and every walk's first
/// element is aligned to its vector. size_t, not uintptr_t: nvcc declares
/// it in every translation unit.
llvm::Error LoopVectorPrinter::printGuard() {
  auto Chunk = conditionAt(Counter + " + " + std::to_string(Plan.Width - 1));
  if (!Chunk)
    return Chunk.takeError();
  std::vector<std::string> Parts = {*Chunk};
  for (const WalkedRead &W : Plan.Walks) {
    auto Address = addressOf(W);
    if (!Address)
      return Address.takeError();
    Parts.push_back("reinterpret_cast<size_t>(" + *Address + ") % sizeof(" +
                    W.Vector + ") == 0");
  }
  for (size_t I = 0; I < Parts.size(); ++I)
    line(0, (I ? "    " : "if (") + Parts[I] +
                (I + 1 < Parts.size() ? " &&" : ") {"));
  line(1, "for (; " + *Chunk + "; " + Counter +
              " += " + std::to_string(Plan.Width) + ") {");
  return llvm::Error::success();
}

llvm::Error LoopVectorPrinter::printLoads(unsigned Depth) {
  for (size_t I = 0; I < Plan.Walks.size(); ++I) {
    const WalkedRead &W = Plan.Walks[I];
    auto Address = addressOf(W);
    if (!Address)
      return Address.takeError();
    line(Depth, "const " + W.Vector + " " + Vectors[I] +
                    " = *reinterpret_cast<const " + W.Vector + " *>(" +
                    *Address + ");");
  }
  return llvm::Error::success();
}

llvm::Error LoopVectorPrinter::printCopy(unsigned Lane, unsigned Depth) {
  const Stmt &Body = *L.For->getBody();
  auto Snip = SourceSnippet::ofStmt(Body, Ctx);
  if (!Snip)
    return Snip.takeError();
  std::vector<SourceRange> Replaced;
  for (size_t I = 0; I < Plan.Walks.size(); ++I)
    for (const ArraySubscriptExpr *A : Plan.Walks[I].Reads) {
      if (llvm::Error E = Snip->replace(A->getSourceRange(),
                                        Vectors[I] + "." + Lanes[Lane]))
        return E;
      Replaced.push_back(A->getSourceRange());
    }
  // The IV is declared only where the copy still reads it (nvcc would warn
  // about an unused one).
  bool ReadsIV = llvm::any_of(usesOf(*L.IV, Body, Ctx), [&](const auto *U) {
    return llvm::none_of(Replaced, [&](SourceRange R) {
      return R.fullyContains(U->getSourceRange());
    });
  });
  std::vector<std::string> Lines = Snip->lines();
  const auto *Compound = dyn_cast<CompoundStmt>(&Body);
  std::string Opening = "{";
  std::vector<std::string> Head, Middle;
  if (!Compound) {
    Head = Lines;
  } else if (Lines.size() == 1) {
    // `{ a; b; }` on one line.
    llvm::StringRef Inner =
        llvm::StringRef(Lines.front()).drop_front().drop_back().trim();
    if (!Inner.empty())
      Head.push_back(Inner.str());
  } else {
    // Code after `{` runs after the IV's declaration; a comment stays there.
    llvm::StringRef Tail = llvm::StringRef(Lines.front()).drop_front().trim();
    if (Tail.starts_with("//") || Tail.starts_with("/*"))
      Opening += " " + Tail.str();
    else if (!Tail.empty())
      Head.push_back(Tail.str());
    Middle.assign(Lines.begin() + 1, Lines.end() - 1);
    llvm::StringRef Close = llvm::StringRef(Lines.back()).drop_back().rtrim();
    if (!Close.trim().empty())
      Middle.push_back(Close.str());
  }
  // Declarations would clash between copies without braces of their own,
  // and a comment after the body's `{` stays after one.
  bool Declares =
      Compound && llvm::any_of(Compound->body(),
                               [](const Stmt *S) { return isa<DeclStmt>(S); });
  bool Braces = ReadsIV || Declares || Opening != "{";
  unsigned Inner = Depth + Braces;
  if (Braces)
    line(Depth, Opening);
  if (ReadsIV)
    line(Inner, "const " + Type + " " + L.IV->getName().str() + " = " +
                    Counter + (Lane ? " + " + std::to_string(Lane) : "") +
                    ";");
  lines(Inner, Head);
  // The body's own lines are indented one level inside its braces already.
  lines(Inner - 1, Middle);
  if (Braces)
    line(Depth, "}");
  return llvm::Error::success();
}

llvm::Error LoopVectorPrinter::printScalarLoop() {
  auto Snip = SourceSnippet::ofStmt(*L.For, Ctx);
  if (!Snip)
    return Snip.takeError();
  // `int i{lo}` keeps its braces.
  bool Braced = isa<InitListExpr>(L.Lower->IgnoreImplicit());
  if (llvm::Error E = Snip->replace(L.Lower->getSourceRange(),
                                    Braced ? "{" + Counter + "}" : Counter))
    return E;
  lines(0, Snip->lines());
  return llvm::Error::success();
}

bool LoopVectorPrinter::needsBlock() const {
  DynTypedNode Node = parentOf(DynTypedNode::create(*L.For), Ctx);
  if (!Node.get<CompoundStmt>())
    return true;
  for (; Node.get<Stmt>(); Node = parentOf(Node, Ctx))
    if (Node.get<SwitchStmt>())
      return true;
  const FunctionDecl *F = enclosingFunction(*L.For, Ctx);
  return !F || !nodesOf<LabelStmt>(F->getBody()).empty();
}

llvm::Expected<std::string> LoopVectorPrinter::print() {
  Written.clear();
  auto Lower = SourceSnippet::ofExpr(*L.Lower, Ctx);
  if (!Lower)
    return Lower.takeError();
  line(0, Type + " " + Counter + " = " + Lower->oneLine() + ";");
  if (llvm::Error E = printGuard())
    return E;
  if (llvm::Error E = printLoads(2))
    return E;
  for (unsigned Lane = 0; Lane < Plan.Width; ++Lane)
    if (llvm::Error E = printCopy(Lane, 2))
      return E;
  line(1, "}");
  line(0, "}");
  if (llvm::Error E = printScalarLoop())
    return E;
  if (needsBlock()) {
    Written.wrapInBlock();
  }
  return Written.text();
}
