//===- UnusedAfterEdit.cpp - locals a rewrite leaves unused --------------===//

#include "optiml/Rewrite/UnusedAfterEdit.h"
#include "optiml/Rewrite/Indentation.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace optiml;
using namespace clang;

static void collectRefs(const Stmt *S,
                        llvm::SmallPtrSetImpl<const DeclRefExpr *> &Out) {
  if (!S)
    return;
  if (const auto *R = dyn_cast<DeclRefExpr>(S))
    Out.insert(R);
  for (const Stmt *C : S->children())
    collectRefs(C, Out);
}

/// Whether \p V is used by a reference outside \p Replaced in its function.
static bool
usedElsewhere(const VarDecl &V,
              const llvm::SmallPtrSetImpl<const DeclRefExpr *> &Replaced) {
  const auto *F = dyn_cast<FunctionDecl>(V.getDeclContext());
  if (!F || !F->getBody())
    return true;
  llvm::SmallPtrSet<const DeclRefExpr *, 32> All;
  collectRefs(F->getBody(), All);
  return llvm::any_of(All, [&](const DeclRefExpr *R) {
    return R->getDecl() == &V && !Replaced.contains(R);
  });
}

/// Whether every call in \p S reads a CUDA index variable (blockIdx.y is a
/// property getter of a __cuda_builtin_ type) or is declared const or
/// pure: a call to anything else may have effects that must stay.
static bool callsOnlyPureFunctions(const Stmt *S) {
  if (!S)
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const auto *F = dyn_cast_or_null<FunctionDecl>(Call->getCalleeDecl());
    const auto *Record =
        F ? dyn_cast<CXXRecordDecl>(F->getDeclContext()) : nullptr;
    bool Builtin = Record && Record->getName().starts_with("__cuda_builtin_");
    if (!Builtin &&
        !(F && (F->hasAttr<ConstAttr>() || F->hasAttr<PureAttr>())))
      return false;
  }
  return llvm::all_of(S->children(), callsOnlyPureFunctions);
}

/// \p V's declaration when it is a statement of its own that can go.
static const DeclStmt *removableDeclaration(const VarDecl &V, ASTContext &Ctx) {
  const Expr *Init = V.getInit();
  if (!V.isLocalVarDecl() || V.isStaticLocal() || !Init ||
      Init->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false) ||
      !callsOnlyPureFunctions(Init))
    return nullptr;
  for (const DynTypedNode &P : Ctx.getParents(V))
    if (const auto *DS = P.get<DeclStmt>())
      return DS->isSingleDecl() ? DS : nullptr;
  return nullptr;
}

std::vector<const DeclStmt *>
optiml::declarationsLeftUnused(llvm::ArrayRef<const Expr *> Replaced,
                               ASTContext &Ctx) {
  llvm::SmallPtrSet<const DeclRefExpr *, 16> Refs;
  for (const Expr *E : Replaced)
    collectRefs(E, Refs);
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
  std::vector<const DeclStmt *> Out;
  for (const DeclRefExpr *R : Refs) {
    const auto *V = dyn_cast<VarDecl>(R->getDecl());
    if (!V || !Seen.insert(V).second || usedElsewhere(*V, Refs))
      continue;
    if (const DeclStmt *DS = removableDeclaration(*V, Ctx))
      Out.push_back(DS);
  }
  return Out;
}

std::pair<unsigned, unsigned> optiml::removalRange(const DeclStmt &Decl,
                                                   ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  unsigned Begin = offsetOf(Decl.getBeginLoc(), Ctx);
  // A DeclStmt ends at its semicolon.
  unsigned End =
      offsetOf(Lexer::getLocForEndOfToken(SM.getExpansionLoc(Decl.getEndLoc()),
                                          0, SM, Ctx.getLangOpts()),
               Ctx);
  size_t LineStart = Buf.rfind('\n', Begin);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  size_t LineEnd = Buf.find('\n', End);
  LineEnd = LineEnd == llvm::StringRef::npos ? Buf.size() : LineEnd + 1;
  bool Alone = Buf.slice(LineStart, Begin).trim().empty() &&
               Buf.slice(End, LineEnd).trim().empty();
  return Alone ? std::make_pair(unsigned(LineStart), unsigned(LineEnd))
               : std::make_pair(Begin, End);
}
