//===- PipelinePrinter.cpp - the text of a pipelined tile loop ------------===//

#include "transforms/PipelineShared/PipelinePrinter.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"
#include "optiml/Rewrite/Indentation.h"
#include "optiml/Rewrite/SourceSnippet.h"

#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

/// \p E as written, on one line, without the parentheses around it.
static llvm::Expected<std::string> exprText(const Expr &E, ASTContext &Ctx) {
  const Expr *Inner = &E;
  while (const auto *P = dyn_cast<ParenExpr>(Inner->IgnoreImpCasts()))
    Inner = P->getSubExpr();
  auto Snip = SourceSnippet::ofExpr(*Inner, Ctx);
  if (!Snip)
    return Snip.takeError();
  return Snip->oneLine();
}

/// The location of the last character of \p S, its `;` included.
static llvm::Expected<SourceLocation> lastCharOf(const Stmt &S,
                                                 ASTContext &Ctx) {
  auto End = SourceSnippet::endOffset(S, Ctx);
  if (!End)
    return End.takeError();
  const SourceManager &SM = Ctx.getSourceManager();
  return SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(*End - 1);
}

PipelinePrinter::PipelinePrinter(const PipelineSharedPlan &Plan,
                                 PipelineNames Names, ASTContext &Ctx)
    : Plan(Plan), Names(std::move(Names)), Ctx(Ctx),
      Type(Plan.Loop.IV->getType().getUnqualifiedType().getAsString(
          Ctx.getPrintingPolicy())),
      Base(lineIndentOf(Plan.Loop.For->getBeginLoc(), Ctx)), Step("  ") {
  std::string Inner = lineIndentOf(Plan.FirstBarrier->getBeginLoc(), Ctx);
  if (Inner.size() > Base.size() && llvm::StringRef(Inner).starts_with(Base))
    Step = Inner.substr(Base.size());
}

void PipelinePrinter::line(unsigned Depth, llvm::StringRef Text) {
  std::string Indented;
  if (!Text.empty())
    for (unsigned I = 0; I < Depth; ++I)
      Indented += Step;
  Out.push_back(Indented + Text.str());
}

void PipelinePrinter::lines(unsigned Depth, llvm::ArrayRef<std::string> Texts) {
  for (size_t I = 0; I < Texts.size(); ++I) {
    llvm::StringRef Text = Texts[I];
    // A pragma takes the indentation of the statement it stands above.
    std::string Indent;
    if (Text.starts_with("#"))
      for (llvm::StringRef Next : Texts.drop_front(I + 1))
        if (!Next.starts_with("#")) {
          Indent =
              Next.take_while([](char C) { return C == ' ' || C == '\t'; });
          break;
        }
    line(Depth, Indent + Text.str());
  }
}

std::string PipelinePrinter::take() {
  std::string Text;
  for (size_t I = 0; I < Out.size(); ++I)
    Text += (I ? "\n" + (Out[I].empty() ? "" : Base) : "") + Out[I];
  Out.clear();
  return Text;
}

llvm::Expected<std::string>
PipelinePrinter::elementCopy(const ElementCopy &C, llvm::StringRef Slot,
                             llvm::StringRef Indent) {
  auto Target = SourceSnippet::ofExpr(*C.Target, Ctx);
  if (!Target)
    return Target.takeError();
  // The buffer's index goes right after the array's name.
  const Expr *Array = C.Target->IgnoreParenImpCasts();
  while (const auto *A = dyn_cast<ArraySubscriptExpr>(Array))
    Array = A->getBase()->IgnoreParenImpCasts();
  if (llvm::Error E =
          Target->insertAfter(Array->getEndLoc(), ("[" + Slot + "]").str()))
    return E;
  auto Source = exprText(*C.Source, Ctx);
  if (!Source)
    return Source.takeError();
  std::string To = Target->oneLine();
  std::string Size =
      "sizeof(" + C.Element.getAsString(Ctx.getPrintingPolicy()) + ")";
  std::string Copy =
      "__pipeline_memcpy_async(&" + To + ", &" + *Source + ", " + Size + ");";
  if (!C.Guard)
    return Copy;
  std::string Other;
  if (C.ZeroFill) {
    // Nothing is read from the buffer: cp.async writes Size zero bytes.
    Other = "__pipeline_memcpy_async(&" + To + ", " +
            C.SourceBuffer->getName().str() + ", " + Size + ", " + Size + ");";
  } else {
    auto Fill = SourceSnippet::ofExpr(*C.Fill, Ctx);
    if (!Fill)
      return Fill.takeError();
    Other = To + " = " + Fill->oneLine() + ";";
  }
  auto Guard = exprText(*C.Guard, Ctx);
  if (!Guard)
    return Guard.takeError();
  // Braced where it is the body of a loop or an if, whose `else` it must
  // not take.
  bool Braced =
      !parentOf(DynTypedNode::create(*C.Statement), Ctx).get<CompoundStmt>();
  std::string In = Indent.str() + (Braced ? Step : "");
  std::string Text = "if (" + *Guard + ")\n" + In + Step +
                     (C.Negated ? Other : Copy) + "\n" + In + "else\n" + In +
                     Step + (C.Negated ? Copy : Other);
  if (!Braced)
    return Text;
  return "{\n" + In + Text + "\n" + Indent.str() + "}";
}

llvm::Expected<std::vector<std::string>>
PipelinePrinter::copies(llvm::StringRef Slot) {
  auto Last = lastCharOf(*Plan.CopyStmts.back(), Ctx);
  if (!Last)
    return Last.takeError();
  auto Snip = SourceSnippet::ofTokens(Plan.CopyStmts.front()->getBeginLoc(),
                                      *Last, Ctx);
  if (!Snip)
    return Snip.takeError();
  for (const ElementCopy &C : Plan.Copy.copies()) {
    auto End = lastCharOf(*C.Statement, Ctx);
    if (!End)
      return End.takeError();
    auto Text =
        elementCopy(C, Slot, lineIndentOf(C.Statement->getBeginLoc(), Ctx));
    if (!Text)
      return Text.takeError();
    if (llvm::Error E = Snip->replace(
            SourceRange(C.Statement->getBeginLoc(), *End), std::move(*Text)))
      return E;
  }
  return Snip->lines();
}

llvm::Error PipelinePrinter::guardedCopies(unsigned Depth,
                                           llvm::StringRef Slot) {
  auto Test = SourceSnippet::ofExpr(*Plan.Loop.For->getCond(), Ctx);
  if (!Test)
    return Test.takeError();
  auto Copies = copies(Slot);
  if (!Copies)
    return Copies.takeError();
  line(Depth, "if (" + Test->oneLine() + ") {");
  lines(Depth + 1, *Copies);
  line(Depth, "}");
  return llvm::Error::success();
}

/// The loop's first value as an operand of `+`.
std::string PipelinePrinter::lower() const {
  const Expr *Lower = Plan.Loop.Lower->IgnoreImplicit();
  if (const auto *List = dyn_cast<InitListExpr>(Lower);
      List && List->getNumInits() == 1)
    Lower = List->getInit(0)->IgnoreImplicit();
  std::string Text = textOf(Lower->getSourceRange(), Ctx);
  if (isa<IntegerLiteral, DeclRefExpr, ParenExpr>(Lower))
    return Text;
  return "(" + Text + ")";
}

llvm::Expected<std::string> PipelinePrinter::prologue() {
  std::string IV = Plan.Loop.IV->getName().str();
  std::string Stages = std::to_string(Plan.Stages);
  if (!Plan.InBlock)
    line(0, "{");
  unsigned D = Plan.InBlock ? 0 : 1;
  line(D, "int " + Names.Stage + " = 0;");
  if (Plan.Stages == 2) {
    line(D, "{");
    line(D + 1, "const " + Type + " " + IV + " = " + lower() + ";");
    if (llvm::Error E = guardedCopies(D + 1, "0"))
      return E;
    line(D, "}");
    line(D, "__pipeline_commit();");
  } else {
    std::string P = Names.First;
    std::string Offset =
        Plan.Loop.Step == 1 ? P : P + " * " + std::to_string(Plan.Loop.Step);
    line(D, "for (int " + P + " = 0; " + P + " < " +
                std::to_string(Plan.Stages - 1) + "; ++" + P + ") {");
    line(D + 1,
         "const " + Type + " " + IV + " = " + lower() + " + " + Offset + ";");
    if (llvm::Error E = guardedCopies(D + 1, P))
      return E;
    line(D + 1, "__pipeline_commit();");
    line(D, "}");
  }
  // The `for` follows on a line of its own.
  return take() + "\n" + Base + (Plan.InBlock ? "" : Step);
}

llvm::Expected<std::string> PipelinePrinter::issue() {
  std::string IV = Plan.Loop.IV->getName().str();
  int64_t Ahead = int64_t(Plan.Stages - 1) * Plan.Loop.Step;
  std::string Slot = "(" + Names.Stage + " + " +
                     std::to_string(Plan.Stages - 1) + ") % " +
                     std::to_string(Plan.Stages);
  line(0, "__pipeline_wait_prior(" + std::to_string(Plan.Stages - 2) + ");");
  line(1, "__syncthreads();");
  line(1, "{");
  line(2, "const " + Type + " " + Names.Next + " = " + IV + " + " +
              std::to_string(Ahead) + ";");
  line(2, "const " + Type + " " + IV + " = " + Names.Next + ";");
  if (llvm::Error E = guardedCopies(2, Slot))
    return E;
  line(1, "}");
  line(1, "__pipeline_commit();");
  // The first line starts where the first copy did, one level in.
  return take();
}

std::string PipelinePrinter::advance() const {
  return Names.Stage + " = (" + Names.Stage + " + 1) % " +
         std::to_string(Plan.Stages) + ";";
}
