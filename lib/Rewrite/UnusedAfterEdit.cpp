//===- UnusedAfterEdit.cpp - locals a rewrite leaves unused --------------===//

#include "optiml/Rewrite/UnusedAfterEdit.h"
#include "optiml/Rewrite/Indentation.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"

using namespace optiml;
using namespace clang;

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

static bool hasHiddenEffects(const Stmt *S, ASTContext &Ctx, unsigned Depth);

/// Whether \p E computes a value and nothing else.
static bool onlyComputes(const Expr *E, ASTContext &Ctx, unsigned Depth = 0) {
  return !E->isInstantiationDependent() &&
         !E->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false) &&
         callsOnlyPureFunctions(E) && !hasHiddenEffects(E, Ctx, Depth);
}

/// Whether constructing with \p C only stores values: a trivial
/// constructor, or one with an empty body whose member and base
/// initializers only compute (dim3's, float4's).
static bool onlyInitializes(const CXXConstructorDecl &C, ASTContext &Ctx,
                            unsigned Depth) {
  if (C.isTrivial())
    return true;
  const FunctionDecl *Def = nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(C.getBody(Def));
  if (!Body || !Body->body_empty() || Depth > 4 ||
      cast<CXXConstructorDecl>(Def)->getParent()->getNumVBases())
    return false;
  return llvm::all_of(cast<CXXConstructorDecl>(Def)->inits(),
                      [&](const CXXCtorInitializer *I) {
                        return onlyComputes(I->getInit(), Ctx, Depth + 1);
                      });
}

/// Whether \p S reads a volatile object or runs a constructor that does
/// more than store values: effects HasSideEffects() does not count unless
/// asked for every possible one (which counts CUDA's index getters too).
static bool hasHiddenEffects(const Stmt *S, ASTContext &Ctx, unsigned Depth) {
  if (!S)
    return false;
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S))
    if (Cast->getCastKind() == CK_LValueToRValue &&
        Cast->getSubExpr()->getType().isVolatileQualified())
      return true;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S))
    if (!onlyInitializes(*Construct->getConstructor(), Ctx, Depth))
      return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) {
    return hasHiddenEffects(C, Ctx, Depth);
  });
}

/// Whether running \p V's declaration does nothing observable, so that
/// removing it changes nothing but the variable's existence.
static bool declarationDoesNothing(const VarDecl &V, ASTContext &Ctx) {
  QualType T = V.getType();
  if (isa<ParmVarDecl, DecompositionDecl>(V) || V.isImplicit() ||
      !V.isLocalVarDecl() || V.hasExternalStorage() ||
      V.hasAttr<UnusedAttr>() || T->isDependentType() || T.isDestructedType())
    return false;
  const Expr *Init = V.getInit();
  if (!Init)
    return T.isTrivialType(Ctx);
  return onlyComputes(Init, Ctx);
}

namespace {

/// The locals of one function definition and who references them.
struct FunctionLocals {
  std::vector<const VarDecl *> Vars; ///< In source order.
  /// References (DeclRefExprs) to each local, anywhere in the function.
  llvm::DenseMap<const VarDecl *, unsigned> Refs;
  /// The locals each local's initializer references, once per reference.
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const VarDecl *, 4>>
      InitRefs;
  /// The declaration statement of each local that is a statement of its own
  /// in a block (`int a = 1;`, `dim3 block(32, 8), grid(n);`).
  llvm::DenseMap<const VarDecl *, const DeclStmt *> OwnStatement;

  /// Whether something references \p V: a reference seen here, or one
  /// Sema saw elsewhere (an unevaluated operand in a type).
  bool referenced(const VarDecl *V) const {
    return Refs.lookup(V) > 0 || V->isReferenced();
  }
};

} // namespace

static void collectVarRefs(const Stmt *S,
                           llvm::SmallVectorImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *R = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
      Out.push_back(V);
  for (const Stmt *C : S->children())
    collectVarRefs(C, Out);
}

static void walkLocals(const Stmt *S, const Stmt *Parent, FunctionLocals &L) {
  if (!S)
    return;
  if (const auto *R = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
      ++L.Refs[V];
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V || isa<ParmVarDecl>(V) || V->isImplicit())
        continue;
      L.Vars.push_back(V);
      collectVarRefs(V->getInit(), L.InitRefs[V]);
      if (isa_and_nonnull<CompoundStmt>(Parent) &&
          llvm::all_of(DS->decls(), [](const Decl *D) {
            return isa<VarDecl>(D) && !isa<DecompositionDecl>(D);
          }))
        L.OwnStatement[V] = DS;
    }
  }
  for (const Stmt *C : S->children())
    walkLocals(C, S, L);
}

/// The function definitions written in the main file, in source order:
/// at namespace scope, in classes, in templates (their patterns only).
static void collectDefinitions(const DeclContext &DC, const SourceManager &SM,
                               std::vector<const FunctionDecl *> &Out) {
  for (const Decl *D : DC.decls()) {
    if (!SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      continue;
    if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
      D = T->getTemplatedDecl();
    else if (const auto *C = dyn_cast<ClassTemplateDecl>(D))
      D = C->getTemplatedDecl();
    if (const auto *F = dyn_cast<FunctionDecl>(D)) {
      if (F->doesThisDeclarationHaveABody() && F->getBody())
        Out.push_back(F);
    } else if (isa<NamespaceDecl, LinkageSpecDecl, CXXRecordDecl>(D)) {
      collectDefinitions(*cast<DeclContext>(D), SM, Out);
    }
  }
}

/// Each main-file function definition under its qualified name and its
/// rank among the definitions of that name (overloads, in source order).
static std::vector<std::pair<std::string, const FunctionDecl *>>
keyedDefinitions(ASTContext &Ctx) {
  std::vector<const FunctionDecl *> Defs;
  collectDefinitions(*Ctx.getTranslationUnitDecl(), Ctx.getSourceManager(),
                     Defs);
  llvm::StringMap<unsigned> Rank;
  std::vector<std::pair<std::string, const FunctionDecl *>> Out;
  for (const FunctionDecl *F : Defs) {
    std::string Name = F->getQualifiedNameAsString();
    Out.push_back({Name + "#" + std::to_string(Rank[Name]++), F});
  }
  return Out;
}

static FunctionLocals localsOf(const FunctionDecl &F) {
  FunctionLocals L;
  walkLocals(F.getBody(), nullptr, L);
  return L;
}

/// The offset just past the token at \p Loc.
static unsigned endOfToken(SourceLocation Loc, ASTContext &Ctx) {
  return offsetOf(Lexer::getLocForEndOfToken(Loc, 0, Ctx.getSourceManager(),
                                             Ctx.getLangOpts()),
                  Ctx);
}

/// Whether the first declarator of \p DS is its name and what follows
/// (no `*`, `&` or parenthesis before the name), so that removing it from
/// the name to the next declarator leaves the others their own types.
static bool firstDeclaratorIsBare(const DeclStmt &DS, ASTContext &Ctx) {
  const auto *V = cast<VarDecl>(*DS.decl_begin());
  const SourceManager &SM = Ctx.getSourceManager();
  std::optional<Token> Prev = Lexer::findPreviousToken(
      V->getLocation(), SM, Ctx.getLangOpts(), /*IncludeComments=*/false);
  return Prev && !Prev->isOneOf(tok::star, tok::amp, tok::ampamp, tok::l_paren,
                                tok::coloncolon, tok::caret);
}

/// The main-file ranges that remove \p Gone from \p DS: the whole
/// statement when it declares nothing else, else each run of removed
/// declarators with the comma before it (or after it, for the first).
static void declaratorRanges(const DeclStmt &DS,
                             const llvm::SmallPtrSetImpl<const VarDecl *> &Gone,
                             ASTContext &Ctx,
                             std::vector<std::pair<unsigned, unsigned>> &Out) {
  std::vector<const VarDecl *> Vars;
  for (const Decl *D : DS.decls())
    Vars.push_back(cast<VarDecl>(D));
  if (llvm::all_of(Vars, [&](const VarDecl *V) { return Gone.contains(V); })) {
    Out.push_back(removalRange(DS, Ctx));
    return;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  for (size_t A = 0; A < Vars.size(); ++A) {
    if (!Gone.contains(Vars[A]))
      continue;
    size_t B = A;
    while (B + 1 < Vars.size() && Gone.contains(Vars[B + 1]))
      ++B;
    if (A > 0) {
      Out.push_back({endOfToken(Vars[A - 1]->getEndLoc(), Ctx),
                     endOfToken(Vars[B]->getEndLoc(), Ctx)});
    } else {
      // Up to the token after the comma that ends the last removed one.
      std::optional<Token> Comma =
          Lexer::findNextToken(Vars[B]->getEndLoc(), SM, Ctx.getLangOpts());
      std::optional<Token> Next =
          Comma ? Lexer::findNextToken(Comma->getLocation(), SM,
                                       Ctx.getLangOpts())
                : std::nullopt;
      if (Next)
        Out.push_back({offsetOf(Vars[0]->getLocation(), Ctx),
                       offsetOf(Next->getLocation(), Ctx)});
    }
    A = B;
  }
}

std::vector<std::pair<unsigned, unsigned>>
optiml::declarationsMadeUnused(ASTContext &Before, ASTContext &After) {
  // Before: for each function, whether every local of a name was referenced.
  llvm::StringMap<llvm::StringMap<bool>> WasReferenced;
  for (const auto &[Key, F] : keyedDefinitions(Before)) {
    FunctionLocals L = localsOf(*F);
    llvm::StringMap<bool> &Names = WasReferenced[Key];
    for (const VarDecl *V : L.Vars) {
      auto [It, New] = Names.try_emplace(V->getName(), true);
      It->second = It->second && L.referenced(V);
    }
  }

  const SourceManager &SM = After.getSourceManager();
  std::vector<std::pair<unsigned, unsigned>> Ranges;
  for (const auto &[Key, F] : keyedDefinitions(After)) {
    auto Old = WasReferenced.find(Key);
    if (Old == WasReferenced.end())
      continue;
    FunctionLocals L = localsOf(*F);
    llvm::DenseMap<const VarDecl *, unsigned> Live = L.Refs;
    auto Removable = [&](const VarDecl *V) {
      const DeclStmt *DS = L.OwnStatement.lookup(V);
      // A reference Sema saw and this walk did not: keep it.
      if (!DS || (V->isReferenced() && L.Refs.lookup(V) == 0))
        return false;
      if (!DS->getBeginLoc().isFileID() || !DS->getEndLoc().isFileID() ||
          !SM.isInMainFile(DS->getBeginLoc()) ||
          llvm::any_of(DS->decls(),
                       [](const Decl *D) {
                         return !D->getLocation().isFileID() ||
                                !D->getEndLoc().isFileID();
                       }) ||
          (!DS->isSingleDecl() && V == *DS->decl_begin() &&
           !firstDeclaratorIsBare(*DS, After)))
        return false;
      return Old->second.lookup(V->getName()) &&
             declarationDoesNothing(*V, After);
    };
    llvm::SmallPtrSet<const VarDecl *, 8> Removed;
    std::vector<const VarDecl *> Work;
    for (const VarDecl *V : L.Vars)
      if (Live.lookup(V) == 0 && Removable(V))
        Work.push_back(V);
    while (!Work.empty()) {
      const VarDecl *V = Work.back();
      Work.pop_back();
      if (!Removed.insert(V).second)
        continue;
      // What only its initializer read is unused now too.
      for (const VarDecl *R : L.InitRefs.lookup(V))
        if (R != V && --Live[R] == 0 && !Removed.contains(R) && Removable(R))
          Work.push_back(R);
    }
    llvm::SmallPtrSet<const DeclStmt *, 8> Statements;
    for (const VarDecl *V : L.Vars)
      if (Removed.contains(V) && Statements.insert(L.OwnStatement[V]).second)
        declaratorRanges(*L.OwnStatement[V], Removed, After, Ranges);
  }
  llvm::sort(Ranges);
  std::vector<std::pair<unsigned, unsigned>> Disjoint;
  for (auto R : Ranges)
    if (Disjoint.empty() || R.first >= Disjoint.back().second)
      Disjoint.push_back(R);
  return Disjoint;
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
