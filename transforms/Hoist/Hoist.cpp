//===- Hoist.cpp - compute loop-invariant index arithmetic once ----------===//
//
// `for (...) acc += A[row * k + i] * ...;` becomes
//
//   const int optiml_inv0 = row * k;
//   for (...) acc += A[optiml_inv0 + i] * ...;
//
// for every maximal invariant, non-trivial integer or pointer expression
// the loop evaluates on every iteration (HoistLegality). nvcc often does
// this itself; written out, it survives transforms that make the loop
// harder for the compiler to see through (tiling, coarsening), and later
// source-level steps see one name instead of repeated arithmetic.
//
//===----------------------------------------------------------------------===//

#include "optiml/Rewrite/KernelIdentifiers.h"
#include "optiml/Rewrite/StmtSurround.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/Hoist/HoistLegality.h"
#include "transforms/TransformFactories.h"

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

static llvm::Expected<EditSet>
emit(const Site &S, const std::vector<HoistCandidate> &Candidates,
     ASTContext &Ctx);

/// `const int optiml_inv0 = row * k;`, one per candidate.
static std::vector<std::string>
declarations(llvm::ArrayRef<HoistCandidate> Candidates,
             llvm::ArrayRef<std::string> Names, ASTContext &Ctx);

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &,
                                    ASTContext &Ctx) {
  return Rewrite::of(HoistLegality::check(*S.Loop, S.Name, Ctx),
                     [S, &Ctx](const auto &C) { return emit(S, C, Ctx); });
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

static std::vector<std::string>
declarations(llvm::ArrayRef<HoistCandidate> Candidates,
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

static llvm::Expected<EditSet>
emit(const Site &S, const std::vector<HoistCandidate> &Candidates,
     ASTContext &Ctx) {
  std::vector<std::string> Names =
      freshNames(*S.Kernel, Candidates.size(), Ctx);
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

std::unique_ptr<Transform> optiml::createHoist(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan);
}
