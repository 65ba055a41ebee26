//===- Hoist.cpp - compute loop-invariant index arithmetic once ----------===//

#include "Hoist.h"
#include "optiml/Rewrite/KernelIdentifiers.h"

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

static unsigned offsetOf(SourceLocation Loc, const SourceManager &SM) {
  return SM.getFileOffset(SM.getExpansionLoc(Loc));
}

/// The offset where \p Offset's line starts, and its leading blanks.
static unsigned lineStart(llvm::StringRef Buffer, unsigned Offset,
                          llvm::StringRef &Indent) {
  size_t Start = Buffer.rfind('\n', Offset);
  Start = Start == llvm::StringRef::npos ? 0 : Start + 1;
  Indent = Buffer.slice(Start, Offset).take_while([](char C) {
    return C == ' ' || C == '\t';
  });
  return Start;
}

llvm::Error Hoist::insertBefore(const Stmt &Loop,
                                llvm::ArrayRef<std::string> Decls,
                                EditSet &Edits, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  bool InBlock = HoistLegality::inBlock(Loop, Ctx);
  const Stmt *Anchor = &Loop;
  llvm::StringRef Indent;
  unsigned LoopOffset = offsetOf(Loop.getBeginLoc(), SM);
  unsigned LoopLine = lineStart(Buffer, LoopOffset, Indent);
  unsigned Pos = LoopOffset;
  bool OwnLine = Buffer.slice(LoopLine, LoopOffset).trim().empty();
  // A loop pragma must stay right above its loop: go above the pragma.
  if (const auto *A =
          parentOf(DynTypedNode::create(Loop), Ctx).get<AttributedStmt>()) {
    Anchor = A;
    llvm::StringRef PragmaIndent;
    Pos = lineStart(Buffer, offsetOf(A->getBeginLoc(), SM), PragmaIndent);
    if (!Buffer.substr(Pos).ltrim(" \t").starts_with("#"))
      return notApplicableAt(A->getBeginLoc(), Ctx,
                             "the loop's pragma is not on a line of its own");
    OwnLine = true;
  } else if (OwnLine) {
    Pos = LoopLine;
  }
  std::string Text;
  if (InBlock && OwnLine)
    for (const std::string &D : Decls)
      Text += Indent.str() + D + "\n";
  else if (InBlock)
    Text = llvm::join(Decls, " ") + " ";
  else
    Text = (OwnLine ? Indent.str() : "") + "{ " + llvm::join(Decls, " ") +
           (OwnLine ? "\n" : " ");
  if (llvm::Error E = Edits.addText(SM, Pos, 0, Text))
    return E;
  if (InBlock)
    return llvm::Error::success();
  // The declarations and the loop become one block where one statement was.
  return Edits.add(*Anchor,
                   changeTo(after(node(EditSet::Root.str())), cat(" }")), Ctx);
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
  if (llvm::Error E = insertBefore(
          *S.Loop, declarations(Candidates, Names, Ctx), Edits, Ctx))
    return E;
  return Edits;
}
