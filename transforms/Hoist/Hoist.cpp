//===- Hoist.cpp - compute loop-invariant index arithmetic once ----------===//

#include "Hoist.h"
#include "optiml/Rewrite/KernelIdentifiers.h"
#include "optiml/Rewrite/StmtSurround.h"

#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/Stencil.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

std::unique_ptr<Transform> optiml::createHoist(TransformDescriptor D) {
  return std::make_unique<Hoist>(std::move(D));
}

llvm::Expected<Rewrite> Hoist::plan(const Site &S, const ParamValues &,
                                    ASTContext &Ctx) const {
  auto Candidates = HoistLegality::check(*S.Loop, S.Name, Ctx);
  if (!Candidates)
    return Candidates.takeError();
  return Rewrite([S, C = std::move(*Candidates), &Ctx] {
    return emit(S, C, Ctx);
  });
}

/// \p Count fresh names `optiml_invN`, the smallest N the kernel does not
/// use yet.
static std::vector<std::string> freshNames(const FunctionDecl &Kernel,
                                           size_t Count, ASTContext &Ctx) {
  llvm::StringSet<> Used = identifiersOf(Kernel, Ctx);
  std::vector<std::string> Names;
  for (unsigned N = 0; Names.size() < Count; ++N)
    if (!Used.contains("optiml_inv" + std::to_string(N)))
      Names.push_back("optiml_inv" + std::to_string(N));
  return Names;
}

std::vector<std::string>
Hoist::declarations(llvm::ArrayRef<HoistCandidate> Candidates,
                    llvm::ArrayRef<std::string> Names, ASTContext &Ctx) {
  std::vector<std::string> Decls;
  for (size_t I = 0; I < Candidates.size(); ++I) {
    QualType T = Candidates[I].Type.getUnqualifiedType();
    std::string Type = T.getAsString(Ctx.getPrintingPolicy());
    // `const int x` for a value, `const float *const p` for a pointer.
    std::string Decl =
        T->isPointerType()
            ? Type +
                  (llvm::StringRef(Type).ends_with("*") ? "const " : " const ")
            : "const " + Type + " ";
    Decls.push_back(
        Decl + Names[I] + " = " +
        textOf(Candidates[I].Uses.front()->IgnoreParens()->getSourceRange(),
               Ctx) +
        ";");
  }
  return Decls;
}

llvm::Expected<EditSet>
Hoist::emit(const Site &S, const std::vector<HoistCandidate> &Candidates,
            ASTContext &Ctx) {
  std::vector<std::string> Names = freshNames(*S.Kernel, Candidates.size(), Ctx);
  EditSet Edits;
  for (size_t I = 0; I < Candidates.size(); ++I)
    for (const Expr *Use : Candidates[I].Uses)
      if (llvm::Error E = Edits.add(
              *Use, changeTo(node(EditSet::Root.str()), cat(Names[I])), Ctx))
        return E;
  if (llvm::Error E = surroundStmt(
          *S.Loop, declarations(Candidates, Names, Ctx), {}, "", Edits, Ctx))
    return E;
  return Edits;
}
