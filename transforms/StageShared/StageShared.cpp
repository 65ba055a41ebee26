//===- StageShared.cpp - stage a buffer's tiles in shared memory ---------===//
//
// Turns the reads of a buffer in a loop into reads of a __shared__ copy of
// the block's tile, loaded cooperatively and coalesced once per T
// iterations: the step that makes a naive SGEMM the classic tiled one.
// Applied to a second buffer of the same loop, it joins the first one's
// tiles (one pair of barriers per tile). On a buffer site outside loops
// it routes stores through a tile exchanged between partner threads (a
// transpose), or loads a stencil's block with its halo into a tile that
// the neighbour reads share. The analysis is StageSharedLegality; this
// file only writes text.
//
//===----------------------------------------------------------------------===//

#include "ExchangeWriter.h"
#include "HaloWriter.h"
#include "StageText.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/StageShared/StageSharedLegality.h"
#include "transforms/TransformFactories.h"

#include "optiml/Analysis/Legality/BufferAccess.h"
#include "optiml/Analysis/Legality/KernelBlock.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/VarUses.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

static llvm::Expected<StagePlan> loopTiles(const Site &S, const ParamValues &P,
                                           ASTContext &Ctx);

static llvm::Expected<ExchangePlan> exchange(const Site &S, ASTContext &Ctx);

static llvm::Expected<HaloPlan> halo(const Site &S, ASTContext &Ctx);

/// Whether the kernel stores to the site's buffer (exchange) rather than
/// only reading it (halo).
static bool writes(const Site &S, ASTContext &Ctx);

static llvm::Expected<StagePlan> loopTiles(const Site &S, const ParamValues &P,
                                           ASTContext &Ctx) {
  const auto *For = dyn_cast<ForStmt>(S.Loop);
  if (!For)
    return notApplicableAt(S.Loop->getBeginLoc(), Ctx,
                           "stage-shared works on for-loops");
  auto Block = kernelBlock(*S.Kernel, Ctx);
  if (!Block)
    return Block.takeError();
  return StageSharedLegality::analyze(*S.Kernel, *For, *S.Buffer,
                                      uint64_t(P.getInt("tile")), *Block, Ctx);
}

/// A loop that is already staged takes more buffers with its own tile.
static ParamValues defaults(const TransformDescriptor &, ParamValues V,
                            const Site &S, ASTContext &Ctx) {
  if (const auto *For = dyn_cast_or_null<ForStmt>(S.Loop))
    if (uint64_t T = StageSharedLegality::stagedTile(*For, Ctx))
      V.set("tile", std::to_string(T));
  return V;
}

static bool writes(const Site &S, ASTContext &Ctx) {
  return BufferAccess(*S.Kernel, Ctx).mayWrite(*S.Buffer);
}

static llvm::Expected<HaloPlan> halo(const Site &S, ASTContext &Ctx) {
  auto Block = kernelBlock(*S.Kernel, Ctx);
  if (!Block)
    return Block.takeError();
  return StageSharedLegality::analyzeHalo(*S.Kernel, *S.Buffer, *Block, Ctx);
}

static llvm::Expected<ExchangePlan> exchange(const Site &S, ASTContext &Ctx) {
  auto Block = kernelBlock(*S.Kernel, Ctx);
  if (!Block)
    return Block.takeError();
  return StageSharedLegality::analyzeExchange(*S.Kernel, *S.Buffer, *Block,
                                              Ctx);
}

namespace {

/// Writes the text of one staging from its plan.
class StageWriter {
public:
  StageWriter(const StagePlan &Plan, ASTContext &Ctx)
      : Plan(Plan), Ctx(Ctx), SM(Ctx.getSourceManager()),
        Name("optiml_" + Plan.Buffer->getName().str() + "_s") {}

  llvm::Expected<EditSet> write();

private:
  unsigned offset(SourceLocation L) const { return offsetOf(L, Ctx); }
  unsigned endOffset(const Stmt &S, bool WithSemi) const {
    return endOffsetOf(S, WithSemi, Ctx);
  }
  std::string indentAt(SourceLocation L) const {
    return optiml::indentAt(L, Ctx);
  }
  std::string declaration() const;
  std::string load(llvm::StringRef Indent) const;
  std::string access(llvm::StringRef IV) const;
  std::string body(const ForStmt &Copy, llvm::StringRef Indent) const;
  std::string tileLoop(llvm::StringRef Indent) const;
  unsigned statementStart(const ForStmt &L) const;
  llvm::Error join(EditSet &Edits) const;

  const StagePlan &Plan;
  ASTContext &Ctx;
  const SourceManager &SM;
  std::string Name;
};

} // namespace

std::string StageWriter::declaration() const {
  uint64_t D0 = Plan.RowMajor ? Plan.Rows : Plan.Tile;
  uint64_t D1 = Plan.RowMajor ? Plan.Tile + Plan.Pad : Plan.Rows;
  return "__shared__ " + Plan.ElemType + " " + Name + "[" + std::to_string(D0) +
         "][" + std::to_string(D1) + "];";
}

/// The cooperative load of one tile: element e of the W x T tile goes to
/// thread e mod (threads per block), the contiguous side fastest.
std::string StageWriter::load(llvm::StringRef In) const {
  const auto &B = Plan.Block;
  std::string Tid = blockThreadIndex(B);
  std::string W = std::to_string(Plan.Rows), T = std::to_string(Plan.Tile);
  std::string Fast = Plan.RowMajor ? T : W;
  std::string Slow = Plan.RowMajor ? "optiml_w" : "optiml_t";
  std::string Quick = Plan.RowMajor ? "optiml_t" : "optiml_w";
  std::string IV = Plan.IV->getName().str();
  std::vector<std::string> Conds = {IV + " < " + Plan.Upper};
  llvm::append_range(Conds, Plan.LoadGuards);

  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << In << "for (int optiml_e = " << Tid << "; optiml_e < " << W << " * "
     << T << "; optiml_e += " << B[0] * B[1] * B[2] << ") {\n";
  OS << In << "  const int " << Slow << " = optiml_e / " << Fast << ";\n";
  OS << In << "  const int " << Quick << " = optiml_e % " << Fast << ";\n";
  OS << In << "  const " << Plan.IVType << " " << IV << " = " << Plan.TileVar
     << " + optiml_t;\n";
  for (const auto &[Var, Base] : Plan.RowVars)
    OS << In << "  const "
       << Var->getType().getUnqualifiedType().getAsString(
              Ctx.getPrintingPolicy())
       << " " << Var->getName() << " = " << Base << " + optiml_w;\n";
  OS << In << "  " << Name << "[" << Slow << "][" << Quick << "] =\n"
     << In << "      (" << llvm::join(Conds, " && ") << ") ? "
     << Plan.Buffer->getName() << "[" << Plan.IndexText
     << "] : " << Plan.ElemType << "(0);\n";
  OS << In << "}\n";
  return Out;
}

std::string StageWriter::access(llvm::StringRef IV) const {
  std::string Col = (IV + " - " + Plan.TileVar).str();
  return Plan.RowMajor ? Name + "[" + Plan.RowText + "][" + Col + "]"
                       : Name + "[" + Col + "][" + Plan.RowText + "]";
}

/// The original loop body with the buffer's reads redirected, re-indented
/// to \p In (one level deeper than the loop it was in). The declarations
/// that only the redirected reads and the dropped guards used are left
/// unused: StepRunner removes them after the step, as after any.
std::string StageWriter::body(const ForStmt &Copy, llvm::StringRef In) const {
  const Stmt &Body = *Copy.getBody();
  unsigned Begin = offset(Body.getBeginLoc());
  unsigned End = endOffset(Body, !isa<CompoundStmt>(Body));
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  // Redirected reads, and dropped guards (their `if (...)` prefix).
  std::vector<std::pair<unsigned, std::pair<unsigned, std::string>>> Edits;
  for (const ArraySubscriptExpr *A : Plan.Accesses)
    Edits.push_back({offset(A->getBeginLoc()),
                     {endOffset(*A, false), access(Plan.IV->getName())}});
  for (const IfStmt *If : Plan.DeadGuards)
    Edits.push_back({offset(If->getBeginLoc()),
                     {offset(If->getThen()->getBeginLoc()), ""}});
  llvm::sort(Edits);
  std::string Out;
  unsigned At = Begin;
  for (const auto &[From, To] : Edits) {
    if (From < Begin || From >= End)
      continue;
    Out += Buf.slice(At, From);
    Out += To.second;
    At = To.first;
  }
  Out += Buf.slice(At, End);
  // Lines after the first keep their indentation relative to the loop.
  std::string Old = indentAt(Copy.getBeginLoc());
  std::string Shifted;
  for (char C : Out) {
    Shifted += C;
    if (C == '\n')
      Shifted += In.size() > Old.size()
                     ? std::string(In.size() - Old.size(), ' ')
                     : "";
  }
  return Shifted;
}

std::string StageWriter::tileLoop(llvm::StringRef In) const {
  std::string IV = Plan.IV->getName().str(), TV = Plan.TileVar;
  std::string T = std::to_string(Plan.Tile);
  const std::string &Live = Plan.Split.Live;
  std::string Guarded = Live.empty() ? "" : "  ";
  std::string In1 = In.str() + "  ", In2 = In1 + Guarded, In3 = In2 + "  ";
  const ForStmt &L = *Plan.Loop;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << declaration() << "\n";
  OS << In << "for (" << Plan.IVType << " " << TV << " = " << Plan.Lower << "; "
     << TV << " < " << Plan.Upper << "; " << TV << " += " << T << ") {\n";
  OS << load(In1);
  OS << In1 << "__syncthreads();\n";
  if (!Live.empty())
    OS << In1 << "if (" << Live << ") {\n";
  OS << In2 << "if (" << TV << " + " << T << " <= " << Plan.Upper << ") {\n";
  OS << In3 << "#pragma unroll\n";
  OS << In3 << "for (" << Plan.IVType << " " << IV << " = " << TV << "; " << IV
     << " < " << TV << " + " << T << "; ++" << IV << ")"
     << (isa<CompoundStmt>(L.getBody()) ? " " : "\n" + In3 + "  ")
     << body(L, In3) << "\n";
  OS << In2 << "} else {\n";
  OS << In3 << "for (" << Plan.IVType << " " << IV << " = " << TV << "; " << IV
     << " < " << Plan.Upper << "; ++" << IV << ")"
     << (isa<CompoundStmt>(L.getBody()) ? " " : "\n" + In3 + "  ")
     << body(L, In3) << "\n";
  OS << In2 << "}\n";
  if (!Live.empty())
    OS << In1 << "}\n";
  OS << In1 << "__syncthreads();\n";
  OS << In << "}";
  return Out;
}

/// A second buffer of a staged loop: its declaration above the loop, its
/// load before the first barrier, its reads redirected in both copies.
llvm::Error StageWriter::join(EditSet &Edits) const {
  std::string LoopIn = indentAt(Plan.Loop->getBeginLoc());
  if (llvm::Error E = Edits.addText(SM, offset(Plan.Loop->getBeginLoc()), 0,
                                    declaration() + "\n" + LoopIn))
    return E;
  std::string In = indentAt(Plan.FirstBarrier->getBeginLoc());
  std::string Load = load(In);
  Load = Load.substr(In.size()) + In; // Starts at the barrier's column.
  if (llvm::Error E =
          Edits.addText(SM, offset(Plan.FirstBarrier->getBeginLoc()), 0, Load))
    return E;
  for (const ArraySubscriptExpr *A : Plan.Accesses) {
    unsigned Begin = offset(A->getBeginLoc());
    // Each copy has its own loop variable of the same name.
    if (llvm::Error E = Edits.addText(SM, Begin, endOffset(*A, false) - Begin,
                                      access(Plan.IV->getName())))
      return E;
  }
  for (const IfStmt *If : Plan.DeadGuards) {
    unsigned Begin = offset(If->getBeginLoc());
    if (llvm::Error E = Edits.addText(
            SM, Begin, offset(If->getThen()->getBeginLoc()) - Begin, ""))
      return E;
  }
  return llvm::Error::success();
}

/// Where the loop's statement starts: at its first `#pragma` line when
/// loop pragmas (`#pragma unroll`) precede it, which the tiles replace with
/// their own, else at the loop. The pragma is found where its attribute
/// was spelled, so comments or blank lines between it and the loop stay
/// inside the replaced text instead of splitting pragma from loop.
unsigned StageWriter::statementStart(const ForStmt &L) const {
  unsigned Start = offset(L.getBeginLoc());
  const auto *Pragma =
      parentOf(DynTypedNode::create(L), Ctx).get<AttributedStmt>();
  if (!Pragma)
    return Start;
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  for (const Attr *A : Pragma->getAttrs()) {
    SourceLocation At = SM.getExpansionLoc(A->getLocation());
    if (!At.isValid() || !SM.isInMainFile(At))
      continue;
    unsigned Offset = offset(At);
    size_t LineStart = Buf.rfind('\n', Offset);
    LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
    size_t Hash = Buf.find_first_not_of(" \t", LineStart);
    if (Hash < Offset && Buf.substr(Hash).starts_with("#pragma"))
      Start = std::min(Start, unsigned(Hash));
  }
  return Start;
}

llvm::Expected<EditSet> StageWriter::write() {
  EditSet Edits;
  Edits.addNote(
      "stage-shared: '" + Plan.Buffer->getName().str() +
      "' is read through a " + std::to_string(Plan.Rows) + "x" +
      std::to_string(Plan.Tile) +
      " shared tile; the kernel must run with block (" +
      llvm::join(llvm::map_range(Plan.Block,
                                 [](uint64_t D) { return std::to_string(D); }),
                 ", ") +
      ")");
  if (Plan.Join) {
    if (llvm::Error E = join(Edits))
      return E;
    return Edits;
  }
  const ForStmt &L = *Plan.Loop;
  unsigned Begin = statementStart(L);
  unsigned End = endOffset(*L.getBody(), !isa<CompoundStmt>(L.getBody()));
  if (llvm::Error E = Edits.addText(SM, Begin, End - Begin,
                                    tileLoop(indentAt(L.getBeginLoc()))))
    return E;
  if (llvm::Error E = writeReturnFold(Plan.Fold, Edits, Ctx))
    return E;
  if (llvm::Error E = writeGuardSplit(Plan.Split, Edits, Ctx))
    return E;
  return Edits;
}

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                                    ASTContext &Ctx) {
  if (!S.Loop && writes(S, Ctx)) {
    return Rewrite::of(exchange(S, Ctx), [&Ctx](const auto &Plan) {
      return writeExchange(Plan, Ctx);
    });
  }
  if (!S.Loop) {
    return Rewrite::of(halo(S, Ctx), [&Ctx](const auto &Plan) {
      return writeHalo(Plan, Ctx);
    });
  }
  return Rewrite::of(loopTiles(S, P, Ctx), [&Ctx](const auto &Plan) {
    return StageWriter(Plan, Ctx).write();
  });
}

std::unique_ptr<Transform> optiml::createStageShared(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan, defaults);
}
