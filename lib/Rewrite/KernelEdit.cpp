//===- KernelEdit.cpp - a new kernel definition, as edits ----------------===//

#include "optiml/Rewrite/KernelEdit.h"
#include "optiml/Rewrite/EditSet.h"
#include "optiml/Rewrite/KernelDefinition.h"
#include "optiml/Rewrite/RawTokens.h"
#include "optiml/Support/Error.h"

using namespace optiml;
using namespace clang;

namespace {

/// A top-level declaration of the code: from its first token through the
/// `;` or the closing brace of its body at depth zero.
struct Chunk {
  unsigned Begin = 0, End = 0;
  bool HasBody = false;
  bool NamesKernel = false;
};

/// The top-level declarations of \p Toks; directive lines between them
/// belong to none.
std::vector<Chunk> topLevelChunks(const std::vector<RawToken> &Toks,
                                  llvm::StringRef Kernel) {
  std::vector<Chunk> Out;
  std::optional<Chunk> Open;
  int Depth = 0;
  for (size_t I = 0; I < Toks.size(); ++I) {
    const RawToken &T = Toks[I];
    if (T.InDirective)
      continue;
    if (!Open)
      Open = Chunk{T.Offset, T.End};
    Open->End = T.End;
    bool Closes = false;
    switch (T.Kind) {
    case tok::l_brace:
      if (Depth == 0)
        Open->HasBody = true;
      [[fallthrough]];
    case tok::l_paren:
    case tok::l_square:
      ++Depth;
      break;
    case tok::r_brace:
      Depth = std::max(0, Depth - 1);
      Closes = Depth == 0 && Open->HasBody;
      break;
    case tok::r_paren:
    case tok::r_square:
      Depth = std::max(0, Depth - 1);
      break;
    case tok::semi:
      Closes = Depth == 0;
      break;
    case tok::raw_identifier:
      if (Depth == 0 && T.Text == Kernel && I + 1 < Toks.size() &&
          Toks[I + 1].Kind == tok::l_paren)
        Open->NamesKernel = true;
      break;
    default:
      break;
    }
    if (Closes) {
      Out.push_back(*Open);
      Open.reset();
    }
  }
  if (Open)
    Out.push_back(*Open);
  return Out;
}

} // namespace

llvm::Expected<KernelEdit> KernelEdit::fromCode(llvm::StringRef Code,
                                                llvm::StringRef Kernel) {
  llvm::StringRef Simple =
      Kernel.rsplit("::").second.empty() ? Kernel : Kernel.rsplit("::").second;
  RawTokens Toks(Code);
  std::optional<Chunk> Found;
  for (const Chunk &C : topLevelChunks(Toks.tokens(), Simple))
    if (C.HasBody && C.NamesKernel)
      Found = C;
  if (!Found)
    return makeError(ErrorKind::Illegal,
                     "the code does not define kernel '" + Simple + "'");
  return KernelEdit(Code.take_front(Found->Begin).trim().str(),
                    Code.slice(Found->Begin, Found->End).str(),
                    Code.drop_front(Found->End).trim().str());
}

llvm::Expected<KernelSource> KernelEdit::applyTo(ParsedSource &Original,
                                                 llvm::StringRef Kernel) const {
  auto Def = KernelDefinition::find(Original.context(), Kernel);
  if (!Def)
    return makeError(ErrorKind::BadInput,
                     "no definition of kernel '" + Kernel + "' to edit");
  std::string NewDefinition = Definition;
  if (!After.empty())
    NewDefinition += "\n\n" + After;
  const SourceManager &SM = Original.sourceManager();
  EditSet Edits;
  if (!Before.empty() && Def->MarkLine) {
    if (llvm::Error E = Edits.addText(SM, *Def->MarkLine, 0, Before + "\n\n"))
      return E;
  } else if (!Before.empty()) {
    NewDefinition = Before + "\n\n" + NewDefinition;
  }
  if (llvm::Error E =
          Edits.addText(SM, Def->Begin, Def->End - Def->Begin, NewDefinition))
    return E;
  return Edits.applyTo(Original.source());
}
