//===- ExplicitUnrollPrinter.cpp - the text of an unrolled loop ----------===//

#include "ExplicitUnrollPrinter.h"
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

ExplicitUnrollPrinter::ExplicitUnrollPrinter(const ExplicitUnrollPlan &Plan,
                                             std::string Counter,
                                             std::string Stride,
                                             ASTContext &Ctx)
    : Plan(Plan), L(Plan.Loop), Counter(std::move(Counter)),
      Stride(std::move(Stride)),
      Type(L.IV->getType().getUnqualifiedType().getAsString(
          Ctx.getPrintingPolicy())),
      Ctx(Ctx), Written(*L.For, Ctx) {}

std::string ExplicitUnrollPrinter::plusSteps(int64_t K) const {
  if (K == 0)
    return "";
  if (!L.ThreadStride)
    return " + " + std::to_string(K * L.Step);
  return " + " + (K == 1 ? Stride : std::to_string(K) + " * " + Stride);
}

llvm::Expected<std::string> ExplicitUnrollPrinter::unrolledCondition() const {
  const Expr &Cond = *L.For->getCond();
  auto Snip = SourceSnippet::ofExpr(Cond, Ctx);
  if (!Snip)
    return Snip.takeError();
  std::vector<const DeclRefExpr *> Uses = usesOf(*L.IV, Cond, Ctx);
  if (Uses.size() != 1)
    return makeError(ErrorKind::Internal,
                     "the condition of a canonical loop names its induction "
                     "variable more than once");
  // `i < n` becomes `c + K < n`: `+` binds tighter than any comparison, and
  // the IV is an operand of the comparison itself (or parenthesized).
  std::string Last = Counter + plusSteps(Plan.Factor - 1);
  if (llvm::Error E = Snip->replace(Uses.front()->getSourceRange(), Last))
    return E;
  return Snip->oneLine();
}

llvm::Error ExplicitUnrollPrinter::printCopy(int64_t J) {
  const Stmt &Body = *L.For->getBody();
  auto Snip = SourceSnippet::ofStmt(Body, Ctx);
  if (!Snip)
    return Snip.takeError();
  std::vector<std::string> Lines = Snip->lines();
  // A body that does not read the IV gets no copy of it (nvcc would warn
  // that it is unused).
  std::string Decl;
  if (!usesOf(*L.IV, Body, Ctx).empty())
    Decl = "const " + Type + " " + L.IV->getName().str() + " = " + Counter +
           plusSteps(J) + ";";
  std::string Opening = "{";
  std::vector<std::string> Head, Middle;
  if (!isa<CompoundStmt>(Body)) {
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
  line(1, Opening);
  if (!Decl.empty())
    line(2, Decl);
  lines(2, Head);
  // The body's own lines are indented one level inside its braces already.
  lines(1, Middle);
  line(1, "}");
  return llvm::Error::success();
}

llvm::Error ExplicitUnrollPrinter::printRemainder() {
  auto Snip = SourceSnippet::ofStmt(*L.For, Ctx);
  if (!Snip)
    return Snip.takeError();
  // `int i{lo}` keeps its braces.
  bool Braced = isa<InitListExpr>(L.Lower->IgnoreImplicit());
  if (llvm::Error E = Snip->replace(L.Lower->getSourceRange(),
                                    Braced ? "{" + Counter + "}" : Counter))
    return E;
  line(0, "#pragma unroll 1");
  lines(0, Snip->lines());
  return llvm::Error::success();
}

bool ExplicitUnrollPrinter::needsBlock() const {
  DynTypedNode Node = parentOf(DynTypedNode::create(*L.For), Ctx);
  if (!Node.get<CompoundStmt>())
    return true;
  for (; Node.get<Stmt>(); Node = parentOf(Node, Ctx))
    if (Node.get<SwitchStmt>())
      return true;
  const FunctionDecl *F = enclosingFunction(*L.For, Ctx);
  return !F || !nodesOf<LabelStmt>(F->getBody()).empty();
}

llvm::Expected<std::string> ExplicitUnrollPrinter::print() {
  Written.clear();
  auto Lower = SourceSnippet::ofExpr(*L.Lower, Ctx);
  if (!Lower)
    return Lower.takeError();
  auto Cond = unrolledCondition();
  if (!Cond)
    return Cond.takeError();
  // The counter is declared before the unrolled loop when something after
  // it needs its value: the remainder loop, or an IV visible after the loop.
  bool Declared = Plan.declaresIV();
  bool Outside = Plan.Remainder || !Declared || L.ThreadStride;
  if (L.ThreadStride) {
    auto Step = SourceSnippet::ofExpr(*L.ThreadStride, Ctx);
    if (!Step)
      return Step.takeError();
    line(0, "const " + Type + " " + Stride + " = " + Step->oneLine() + ";");
  }
  std::string Start = Type + " " + Counter + " = " + Lower->oneLine();
  if (Outside)
    line(0, Start + ";");
  // `c += F * s`: plusSteps(F) without its leading " + ".
  line(0, "for (" + (Outside ? "" : Start) + "; " + *Cond + "; " + Counter +
              " += " + plusSteps(Plan.Factor).substr(3) + ") {");
  for (int64_t J = 0; J < Plan.Factor; ++J)
    if (llvm::Error E = printCopy(J))
      return E;
  line(0, "}");
  if (Plan.Remainder) {
    if (llvm::Error E = printRemainder())
      return E;
  } else if (!Declared) {
    line(0, L.IV->getName().str() + " = " + Counter + ";");
  }
  if (Outside && needsBlock()) {
    Written.wrapInBlock();
  }
  return Written.text();
}
