//===- ExchangeWriter.cpp - the text of a store exchange -----------------===//

#include "ExchangeWriter.h"
#include "StageText.h"

#include "optiml/Analysis/Legality/LoopInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace optiml;
using namespace clang;

/// The partner's half: after the barrier, thread (x, y) recomputes the
/// index of thread (y, x) and stores the value that thread left in the
/// tile.
static std::string partnerStore(const ExchangePlan &Plan,
                                const std::string &Tile, llvm::StringRef In,
                                ASTContext &Ctx) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "\n" << In << "__syncthreads();\n";
  if (Plan.Jam) {
    // The partner's copies: one per coarsening copy, like the stores.
    CanonicalLoop L = llvm::cantFail(analyzeLoop(*Plan.Jam, Ctx));
    std::string C = L.IV->getName().str();
    OS << In << "#pragma unroll\n"
       << In << "for (int " << C << " = 0; " << C << " < " << *L.TripCount
       << "; ++" << C << ") {\n";
  } else {
    OS << In << "{\n";
  }
  for (const auto &[Var, Def] : Plan.Partner)
    OS << In << "  const "
       << Var->getType().getUnqualifiedType().getAsString(
              Ctx.getPrintingPolicy())
       << " " << Var->getName() << " = " << Def << ";\n";
  std::string Store = Plan.Buffer->getName().str() + "[" + Plan.IndexText +
                      "] = " + Tile + "[threadIdx.x][" + Plan.RowText + "];";
  if (Plan.Guards.empty())
    OS << In << "  " << Store << "\n";
  else
    OS << In << "  if (" << llvm::join(Plan.Guards, " && ") << ")\n"
       << In << "    " << Store << "\n";
  OS << In << "}";
  return Out;
}

llvm::Expected<EditSet> optiml::writeExchange(const ExchangePlan &Plan,
                                              ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Tile = "optiml_" + Plan.Buffer->getName().str() + "_s";
  std::string Side = std::to_string(Plan.Side);
  std::string In = indentAt(Plan.Top->getBeginLoc(), Ctx);
  EditSet Edits;
  Edits.addNote("stage-shared: stores to '" + Plan.Buffer->getName().str() +
                "' go through a " + Side + "x" + Side +
                " shared tile, exchanged between partner threads");
  // The statement holding the store runs as before (under the folded
  // returns' guard), but writes the tile.
  ReturnFold Fold = Plan.Fold;
  if (!Fold.Live.empty())
    Fold.Guarded.push_back(Plan.Top);
  if (llvm::Error E = writeReturnFold(Fold, Edits, Ctx))
    return E;
  // The tile opens the kernel body, clear of the statements' guards.
  const auto *Body = cast<CompoundStmt>(Plan.Kernel->getBody());
  if (llvm::Error E =
          Edits.addText(SM, offsetOf(Body->getLBracLoc(), Ctx) + 1, 0,
                        "\n" + In + "__shared__ " + Plan.ElemType + " " + Tile +
                            "[" + Side + "][" + Side + " + 1];"))
    return E;
  unsigned Begin = offsetOf(Plan.Store->getBeginLoc(), Ctx);
  if (llvm::Error E =
          Edits.addText(SM, Begin, endOffsetOf(*Plan.Store, false, Ctx) - Begin,
                        Tile + "[" + Plan.RowText + "][threadIdx.x]"))
    return E;
  if (llvm::Error E = Edits.addText(SM, endOffsetOf(*Plan.Top, true, Ctx), 0,
                                    partnerStore(Plan, Tile, In, Ctx)))
    return E;
  return Edits;
}
