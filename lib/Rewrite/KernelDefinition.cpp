//===- KernelDefinition.cpp - where a kernel is written ------------------===//

#include "optiml/Rewrite/KernelDefinition.h"
#include "optiml/Analysis/PragmaScanner.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace optiml;
using namespace clang;

namespace {

class KernelCollector : public RecursiveASTVisitor<KernelCollector> {
public:
  explicit KernelCollector(const SourceManager &SM) : SM(SM) {}

  bool VisitFunctionDecl(FunctionDecl *F) {
    if (F->hasAttr<CUDAGlobalAttr>() && F->doesThisDeclarationHaveABody() &&
        !F->isTemplateInstantiation() &&
        SM.isWrittenInMainFile(SM.getExpansionLoc(F->getLocation())))
      Kernels.push_back(F);
    return true;
  }

  std::vector<const FunctionDecl *> Kernels;

private:
  const SourceManager &SM;
};

} // namespace

std::vector<const FunctionDecl *> optiml::kernelDefinitions(ASTContext &Ctx) {
  KernelCollector C(Ctx.getSourceManager());
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  return C.Kernels;
}

static const FunctionDecl *kernelNamed(ASTContext &Ctx, llvm::StringRef Name) {
  std::vector<const FunctionDecl *> Simple;
  for (const FunctionDecl *F : kernelDefinitions(Ctx)) {
    if (F->getQualifiedNameAsString() == Name)
      return F;
    if (F->getName() == Name)
      Simple.push_back(F);
  }
  return Simple.size() == 1 ? Simple.front() : nullptr;
}

/// The offset of the line start of the last `#pragma optiml` between the
/// previous declaration's end (approximated by the previous `;` or `}` at
/// any depth) and \p Begin.
static std::optional<unsigned>
markBefore(llvm::StringRef Buffer, unsigned Begin, const LangOptions &LO) {
  std::optional<unsigned> Found;
  for (const PragmaScanner::Pragma &P : PragmaScanner::scan(Buffer, LO)) {
    if (P.Offset >= Begin)
      break;
    llvm::StringRef Between = Buffer.slice(P.Offset, Begin);
    // Continuation lines are part of the mark; a `;` or `}` after it means
    // another declaration came first.
    if (Between.find_first_of(";}") != llvm::StringRef::npos)
      continue;
    Found = Buffer.rfind('\n', P.Offset) == llvm::StringRef::npos
                ? 0
                : Buffer.rfind('\n', P.Offset) + 1;
  }
  return Found;
}

std::optional<KernelDefinition> KernelDefinition::find(ASTContext &Ctx,
                                                       llvm::StringRef Name) {
  const FunctionDecl *F = kernelNamed(Ctx, Name);
  if (!F)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  KernelDefinition D;
  D.Kernel = F;
  D.Outer = F;
  if (const FunctionTemplateDecl *T = F->getDescribedFunctionTemplate())
    D.Outer = T;
  SourceLocation B = SM.getExpansionLoc(D.Outer->getBeginLoc());
  SourceLocation E = SM.getExpansionLoc(D.Outer->getEndLoc());
  E = Lexer::getLocForEndOfToken(E, 0, SM, Ctx.getLangOpts());
  if (B.isInvalid() || E.isInvalid())
    return std::nullopt;
  D.Begin = SM.getFileOffset(B);
  D.End = SM.getFileOffset(E);
  llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  D.MarkLine = markBefore(Buffer, D.Begin, Ctx.getLangOpts());
  return D;
}
