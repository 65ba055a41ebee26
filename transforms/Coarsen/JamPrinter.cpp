//===- JamPrinter.cpp - print a coarsened kernel body --------------------===//

#include "JamPrinter.h"
#include "optiml/Rewrite/SourceSnippet.h"

#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/SourceText.h"
#include "optiml/Support/Error.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

namespace {

const Stmt *unwrap(const Stmt *S) {
  if (const auto *A = dyn_cast_or_null<AttributedStmt>(S))
    return A->getSubStmt();
  return S;
}

llvm::ArrayRef<const Stmt *> childrenOf(const CompoundStmt &C) {
  return llvm::ArrayRef<const Stmt *>(C.body_begin(), C.body_end());
}

const VarDecl *refVar(const Stmt *S) {
  const auto *R = dyn_cast_or_null<DeclRefExpr>(S);
  return R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
}

std::string collapse(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 8> Words;
  Text.split(Words, ' ', -1, /*KeepEmpty=*/false);
  std::string Joined = llvm::join(Words, " ");
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  llvm::StringRef(Joined).split(Lines, '\n');
  for (llvm::StringRef &L : Lines)
    L = L.trim();
  return llvm::join(Lines, " ");
}

/// A gap between statements: the comment closing the previous line, and
/// the comment lines before the next statement.
struct Gap {
  std::string Trailing;
  std::vector<std::string> Lines;
};

llvm::Expected<Gap> splitGap(llvm::StringRef Text) {
  Gap G;
  size_t NL = Text.find('\n');
  G.Trailing = Text.take_front(NL).trim().str();
  if (NL == llvm::StringRef::npos)
    return G;
  llvm::SmallVector<llvm::StringRef, 4> Lines;
  Text.drop_front(NL + 1).split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    L = L.trim();
    if (L.starts_with("#"))
      return makeError(ErrorKind::NotApplicable,
                       "a preprocessor directive between the kernel's "
                       "statements cannot be moved");
    if (!L.empty())
      G.Lines.push_back(L.str());
  }
  return G;
}

} // namespace

llvm::Expected<std::string> JamPrinter::print(const CompoundStmt &Body) {
  W.emplace(Body, Ctx);
  Pending.clear();
  InScope.clear();
  Guards.clear();
  Comments.clear();
  if (llvm::Error E = printList(childrenOf(Body), &Body, 1))
    return E;
  return W->finish();
}

llvm::Expected<JamPrinter::Gaps>
JamPrinter::gapsOf(llvm::ArrayRef<const Stmt *> Stmts,
                   const CompoundStmt &Braces) const {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  Gaps G;
  G.Leading.resize(Stmts.size());
  G.Trailing.resize(Stmts.size());
  auto Prev = SourceSnippet::offsetOf(Braces.getLBracLoc(), Ctx);
  if (!Prev)
    return Prev.takeError();
  unsigned From = *Prev + 1;
  for (size_t I = 0; I <= Stmts.size(); ++I) {
    SourceLocation To = I < Stmts.size()
                            ? SM.getExpansionLoc(Stmts[I]->getBeginLoc())
                            : Braces.getRBracLoc();
    auto ToOffset = SourceSnippet::offsetOf(To, Ctx);
    if (!ToOffset)
      return ToOffset.takeError();
    auto Split = splitGap(Buf.slice(From, *ToOffset));
    if (!Split)
      return Split.takeError();
    (I == 0 ? G.Opening : G.Trailing[I - 1]) = Split->Trailing;
    (I < Stmts.size() ? G.Leading[I] : G.Closing) = Split->Lines;
    if (I == Stmts.size())
      break;
    auto End = SourceSnippet::endOffset(*Stmts[I], Ctx);
    if (!End)
      return End.takeError();
    From = *End;
  }
  return G;
}

void JamPrinter::leading(unsigned Depth, const std::vector<std::string> &L) {
  W->lines(Depth, L);
}

llvm::Error JamPrinter::printList(llvm::ArrayRef<const Stmt *> Stmts,
                                  const CompoundStmt *Braces, unsigned Depth) {
  size_t Mark = InScope.size();
  Gaps G;
  G.Leading.resize(Stmts.size());
  G.Trailing.resize(Stmts.size());
  if (Braces) {
    auto Found = gapsOf(Stmts, *Braces);
    if (!Found)
      return Found.takeError();
    G = std::move(*Found);
  }
  W->appendToLast(G.Opening);
  for (size_t I = 0; I < Stmts.size(); ++I)
    if (llvm::Error E =
            printStmt(Stmts[I], Depth,
                      Item{nullptr, nullptr, G.Leading[I], G.Trailing[I]}))
      return E;
  if (llvm::Error E = flush(Depth))
    return E;
  leading(Depth, Comments);
  leading(Depth, G.Closing);
  Comments.clear();
  InScope.resize(Mark);
  return llvm::Error::success();
}

llvm::Error JamPrinter::printBlock(const Stmt *Body, unsigned Depth) {
  if (const auto *C = dyn_cast<CompoundStmt>(Body))
    return printList(childrenOf(*C), C, Depth);
  return printList(Body, nullptr, Depth);
}

llvm::Error JamPrinter::printStmt(const Stmt *S, unsigned Depth, Item Where) {
  auto Remember = [&] {
    Comments.insert(Comments.end(), Where.Leading.begin(), Where.Leading.end());
    if (!Where.Trailing.empty())
      Comments.push_back(Where.Trailing);
  };
  switch (Plan.actionOf(S)) {
  case JamAction::Keep:
    if (llvm::Error E = flush(Depth))
      return E;
    return printKeep(S, Depth, Where);
  case JamAction::Drop:
    for (const Decl *D : cast<DeclStmt>(S)->decls())
      InScope.push_back(cast<VarDecl>(D));
    Remember();
    return llvm::Error::success();
  case JamAction::Guard:
    Guards.push_back({cast<IfStmt>(unwrap(S))->getCond(), /*Exits=*/true});
    Remember();
    return llvm::Error::success();
  case JamAction::GuardBlock: {
    // Its statements take its place, each re-checking the condition.
    const auto *If = cast<IfStmt>(unwrap(S));
    Guards.push_back({If->getCond(), /*Exits=*/false});
    Remember();
    return printBlock(If->getThen(), Depth);
  }
  case JamAction::Privatize:
    return printPrivate(*cast<DeclStmt>(S), Depth, std::move(Where));
  case JamAction::Descend:
    if (llvm::Error E = flush(Depth))
      return E;
    leading(Depth, Comments);
    leading(Depth, Where.Leading);
    Comments.clear();
    return printDescend(S, Depth, Where.Trailing);
  case JamAction::Jam:
    Where.S = S;
    Where.Leading.insert(Where.Leading.begin(), Comments.begin(),
                         Comments.end());
    Comments.clear();
    Pending.push_back(std::move(Where));
    return llvm::Error::success();
  }
  llvm_unreachable("covered switch");
}

llvm::Error JamPrinter::printKeep(const Stmt *S, unsigned Depth,
                                  const Item &Where) {
  auto Snip = SourceSnippet::ofStmt(*S, Ctx);
  if (!Snip)
    return Snip.takeError();
  leading(Depth, Comments);
  leading(Depth, Where.Leading);
  Comments.clear();
  W->lines(Depth, Snip->lines());
  W->appendToLast(Where.Trailing);
  return llvm::Error::success();
}

llvm::Error JamPrinter::printPrivate(const DeclStmt &D, unsigned Depth,
                                     Item Where) {
  if (llvm::Error E = flush(Depth))
    return E;
  leading(Depth, Comments);
  leading(Depth, Where.Leading);
  Comments.clear();
  const auto *V = cast<VarDecl>(D.getSingleDecl());
  QualType T = V->getType();
  if (T->getContainedDeducedType())
    T = T.getDesugaredType(Ctx);
  QualType Array = Ctx.getConstantArrayType(
      T.getUnqualifiedType(), llvm::APInt(32, Plan.Factor), nullptr,
      ArraySizeModifier::Normal, 0);
  std::string Decl;
  llvm::raw_string_ostream OS(Decl);
  Array.print(OS, Ctx.getPrintingPolicy(), V->getName());
  W->line(Depth, Decl + ";");
  W->appendToLast(Where.Trailing);
  if (V->getInit())
    Pending.push_back(Item{&D, V, {}, ""});
  return llvm::Error::success();
}

llvm::Error JamPrinter::printDescend(const Stmt *S, unsigned Depth,
                                     const std::string &Trailing) {
  const Stmt *Inner = unwrap(S);
  const Stmt *Body = nullptr, *Else = nullptr;
  SourceLocation HeaderEnd;
  if (const auto *C = dyn_cast<CompoundStmt>(Inner)) {
    W->line(Depth, "{");
    if (llvm::Error E = printList(childrenOf(*C), C, Depth + 1))
      return E;
  } else {
    if (const auto *F = dyn_cast<ForStmt>(Inner))
      Body = F->getBody(), HeaderEnd = F->getRParenLoc();
    else if (const auto *Wh = dyn_cast<WhileStmt>(Inner))
      Body = Wh->getBody(), HeaderEnd = Wh->getRParenLoc();
    else if (const auto *If = dyn_cast<IfStmt>(Inner))
      Body = If->getThen(), Else = If->getElse(),
      HeaderEnd = If->getRParenLoc();
    else
      return makeError(ErrorKind::Internal, "cannot descend into this "
                                            "statement");
    auto Header = SourceSnippet::ofTokens(S->getBeginLoc(), HeaderEnd, Ctx);
    if (!Header)
      return Header.takeError();
    std::vector<std::string> Lines = Header->lines();
    Lines.back() += " {";
    W->lines(Depth, Lines);
    if (llvm::Error E = printBlock(Body, Depth + 1))
      return E;
    if (Else) {
      W->line(Depth, "} else {");
      if (llvm::Error E = printBlock(Else, Depth + 1))
        return E;
    }
  }
  W->line(Depth, "}");
  W->appendToLast(Trailing);
  return llvm::Error::success();
}

llvm::Error JamPrinter::flush(unsigned Depth) {
  if (Pending.empty())
    return llvm::Error::success();
  std::string C = Plan.copyVar();
  W->line(Depth, "#pragma unroll");
  W->line(Depth, "for (int " + C + " = 0; " + C + " < " +
                     std::to_string(Plan.Factor) + "; ++" + C + ") {");
  auto Remat = rematerialized();
  if (!Remat)
    return Remat.takeError();
  W->lines(Depth + 1, *Remat);
  for (const Item &I : Pending)
    if (llvm::Error E = printItem(I, Depth + 1))
      return E;
  W->line(Depth, "}");
  Pending.clear();
  return llvm::Error::success();
}

llvm::Error JamPrinter::printItem(const Item &I, unsigned Depth) {
  leading(Depth, I.Leading);
  auto Lines = itemLines(I);
  if (!Lines)
    return Lines.takeError();
  if (!Plan.Guarded.contains(I.S) || Guards.empty()) {
    W->lines(Depth, *Lines);
    W->appendToLast(I.Trailing);
    return llvm::Error::success();
  }
  auto Guard = guardText();
  if (!Guard)
    return Guard.takeError();
  // Braces keep a loop pragma first in its statement and an else with
  // its own if.
  bool Braces = llvm::StringRef(Lines->front()).starts_with("#") ||
                (!I.Init && isa<IfStmt>(unwrap(I.S)));
  W->line(Depth, "if (" + *Guard + ")" + (Braces ? " {" : ""));
  W->lines(Depth + 1, *Lines);
  W->appendToLast(I.Trailing);
  if (Braces)
    W->line(Depth, "}");
  return llvm::Error::success();
}

llvm::Error JamPrinter::substitute(SourceSnippet &Snip,
                                   const Stmt *Root) const {
  std::string C = Plan.copyVar();
  std::string Block = std::string("blockIdx.") + "xyz"[Plan.Dim];
  std::string Virtual =
      "(" + Block + " * " + std::to_string(Plan.Factor) + " + " + C + ")";
  llvm::Error Err = llvm::Error::success();
  auto F = [&](const Stmt *N) {
    if (Err)
      return;
    if (const VarDecl *V = refVar(N); V && Plan.Private.contains(V))
      Err =
          Snip.insertAfter(cast<DeclRefExpr>(N)->getLocation(), "[" + C + "]");
    if (std::optional<BuiltinRef> B =
            isBuiltinRefNode(N) ? asBuiltinRef(cast<Expr>(N)) : std::nullopt;
        B && B->Which == BuiltinRef::BlockIdx && B->Dim == Plan.Dim)
      Err = Snip.replace(N->getSourceRange(), Virtual);
  };
  forEachNode(Root, F);
  return Err;
}

llvm::Expected<std::vector<std::string>>
JamPrinter::itemLines(const Item &I) const {
  const Stmt *Root =
      I.Init ? static_cast<const Stmt *>(I.Init->getInit()) : I.S;
  auto Snip = I.Init ? SourceSnippet::ofExpr(*I.Init->getInit(), Ctx)
                     : SourceSnippet::ofStmt(*I.S, Ctx);
  if (!Snip)
    return Snip.takeError();
  if (llvm::Error E = substitute(*Snip, Root))
    return E;
  std::vector<std::string> Lines = Snip->lines();
  if (I.Init) {
    Lines.front() =
        I.Init->getName().str() + "[" + Plan.copyVar() + "] = " + Lines.front();
    Lines.back() += ";";
  }
  return Lines;
}

llvm::Expected<std::vector<std::string>> JamPrinter::rematerialized() const {
  llvm::SmallPtrSet<const VarDecl *, 8> Needed;
  auto Note = [&](const Stmt *N) {
    if (const VarDecl *V = refVar(N); V && llvm::is_contained(InScope, V))
      Needed.insert(V);
  };
  bool AnyGuarded = false;
  for (const Item &I : Pending) {
    forEachNode(I.Init ? I.Init->getInit() : I.S, Note);
    AnyGuarded |= Plan.Guarded.contains(I.S);
  }
  if (AnyGuarded)
    for (const Guard &G : Guards)
      forEachNode(G.Cond, Note);
  // Index variables computed from others need those first.
  for (auto It = Plan.IndexVars.rbegin(); It != Plan.IndexVars.rend(); ++It)
    if (Needed.contains(*It))
      forEachNode((*It)->getInit(), Note);
  std::vector<std::string> Out;
  for (const VarDecl *V : Plan.IndexVars) {
    if (!Needed.contains(V))
      continue;
    auto Snip = SourceSnippet::ofExpr(*V->getInit(), Ctx);
    if (!Snip)
      return Snip.takeError();
    if (llvm::Error E = substitute(*Snip, V->getInit()))
      return E;
    std::string Type =
        V->getTypeSourceInfo()
            ? textOf(V->getTypeSourceInfo()->getTypeLoc().getSourceRange(), Ctx)
            : "";
    if (Type.empty())
      Type = V->getType().getAsString(Ctx.getPrintingPolicy());
    if (!V->getType().isConstQualified())
      Type = "const " + Type;
    std::vector<std::string> Lines = Snip->lines();
    Lines.front() = Type + " " + V->getName().str() + " = " + Lines.front();
    Lines.back() += ";";
    Out.insert(Out.end(), Lines.begin(), Lines.end());
  }
  return Out;
}

llvm::Expected<std::string> JamPrinter::guardText() const {
  std::vector<std::string> Parts;
  for (const Guard &G : Guards) {
    // `if (!(c)) return;` is re-checked as `(c)`, not `!(!(c))`.
    const Expr *Cond = G.Cond->IgnoreParens();
    bool Negate = G.Exits;
    if (const auto *Not = dyn_cast<UnaryOperator>(Cond);
        Not && Not->getOpcode() == UO_LNot) {
      Cond = Not->getSubExpr()->IgnoreParens();
      Negate = !Negate;
    }
    auto Snip = SourceSnippet::ofExpr(*Cond, Ctx);
    if (!Snip)
      return Snip.takeError();
    if (llvm::Error E = substitute(*Snip, Cond))
      return E;
    std::string Text = collapse(Snip->text());
    // Alone and not negated it needs no parentheses of its own.
    bool Bare = Guards.size() == 1 && !Negate;
    if (!Bare)
      Text = "(" + Text + ")";
    Parts.push_back((Negate ? "!" : "") + Text);
  }
  return llvm::join(Parts, " && ");
}
