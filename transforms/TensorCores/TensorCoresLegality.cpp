//===- TensorCoresLegality.cpp - when the rewrite may run -----------------===//

#include "transforms/TensorCores/TensorCoresLegality.h"
#include "optiml/Analysis/Legality/KernelBlock.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/MarkTolerance.h"
#include "optiml/Analysis/Legality/GpuTarget.h"
#include "optiml/Analysis/SourceText.h"
#include "optiml/Rewrite/KernelIdentifiers.h"

#include "clang/AST/Attr.h"
#include "llvm/Support/Format.h"

using namespace optiml;
using namespace clang;

/// Static shared memory a block may declare.
static constexpr unsigned SharedLimit = 48 * 1024;

/// The names the rewrite declares in the kernel body.
static const char *const Declared[] = {
    "wmma",      "optiml_ta",  "optiml_tb",    "optiml_ta_lo", "optiml_tb_lo",
    "optiml_tc", "optiml_tid", "optiml_wr",    "optiml_wc",    "optiml_acc",
    "optiml_i",  "optiml_j",   "optiml_k0",    "optiml_e",     "optiml_ks",
    "optiml_fa", "optiml_fb",  "optiml_fa_lo", "optiml_fb_lo", "optiml_x",
    "optiml_hi", "optiml_sum", "optiml_row",   "optiml_col"};

/// "1e-04", as a spec writes it.
static std::string number(double X) {
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format("%g", X);
  return S;
}

/// Each input is float, rounded to the precision, or already of its type.
static llvm::Error checkTypes(const MatmulNest &Nest, const WmmaPrecision &P,
                              ASTContext &Ctx) {
  for (const MatmulOperand *O : {&Nest.Left, &Nest.Right}) {
    std::string Name = O->Load->getType().getUnqualifiedType().getAsString();
    std::string Buffer = textOf(O->Load->getBase()->getSourceRange(), Ctx);
    if (O->ElemType.empty())
      return notApplicableAt(O->Load->getBeginLoc(), Ctx,
                             "'" + Buffer + "' holds '" + Name +
                                 "'; tensor-cores takes float, __half or "
                                 "__nv_bfloat16 inputs");
    if (O->ElemType != "float" && O->ElemType != P.TileType)
      return notApplicableAt(O->Load->getBeginLoc(), Ctx,
                             "'" + Buffer + "' holds " + O->ElemType +
                                 ", which precision=" + P.Name +
                                 " does not take as it is; use precision=" +
                                 (O->ElemType == "__half" ? "half" : "bf16"));
  }
  return llvm::Error::success();
}

static llvm::Error checkArch(const FunctionDecl &Kernel, const WmmaPrecision &P,
                             ASTContext &Ctx) {
  std::optional<unsigned> Sm = targetSmVersion(Ctx);
  if (Sm && *Sm >= P.MinSm)
    return llvm::Error::success();
  return notApplicableAt(Kernel.getLocation(), Ctx,
                         "precision=" + P.Name + " needs sm_" +
                             llvm::Twine(P.MinSm) + " or newer; the target " +
                             (Sm ? "is sm_" + llvm::Twine(*Sm)
                                 : llvm::Twine("is not a known GPU")));
}

/// Float inputs rounded to the precision must fit the spec's tolerance.
static llvm::Error checkTolerance(const MatmulNest &Nest,
                                  const WmmaPrecision &P, ASTContext &Ctx) {
  bool Rounds = Nest.Left.ElemType == "float" || Nest.Right.ElemType == "float";
  if (!Rounds)
    return llvm::Error::success();
  SpecTolerance T = markTolerance(*Nest.Kernel, Ctx);
  if (T.RTol >= P.MinRTol && T.Norm >= P.MinNorm)
    return llvm::Error::success();
  const WmmaPrecision &Split = *WmmaPrecision::named("tf32x3");
  std::string Other =
      P.Split ? "" : "; precision=tf32x3 needs rtol >= " +
                         number(Split.MinRTol) +
                         " and norm >= " + number(Split.MinNorm);
  return notApplicableAt(
      Nest.Kernel->getLocation(), Ctx,
      "the spec's tolerance (rtol = " + number(T.RTol) +
          ", norm = " + number(T.Norm) + (T.FromMark ? "" : ", the defaults") +
          ") is tighter than float inputs rounded to " + P.Name + " (" +
          P.Bits + ") keep: it needs rtol >= " + number(P.MinRTol) +
          " and norm >= " + number(P.MinNorm) + Other);
}

/// Bytes of one staged tile with \p Rows x \p Cols elements, the
/// contiguous side padded by 16 bytes.
static unsigned tileBytes(unsigned Rows, unsigned Cols,
                          const WmmaPrecision &P) {
  return Rows * (Cols + 16 / P.Bytes) * P.Bytes * (P.Split ? 2 : 1);
}

/// The largest KTile (32, 16, 8 down to the fragment's k) whose tiles fit
/// in static shared memory; 0 when none does.
static unsigned chooseKTile(const TensorCoresPlan &Plan) {
  const WmmaPrecision &P = *Plan.Precision;
  unsigned Out = Plan.warps() * 16 * (16 + 4) * 4;
  for (unsigned KT = 32; KT >= P.K; KT /= 2) {
    auto Side = [&](const MatmulOperand &O) {
      return O.KContiguous ? tileBytes(Plan.Tile, KT, P)
                           : tileBytes(KT, Plan.Tile, P);
    };
    if (Side(Plan.Nest.Left) + Side(Plan.Nest.Right) + Out <= SharedLimit)
      return KT;
  }
  return 0;
}

/// Each launch's block is a constant with z = 1, and its grid is
/// ceil(N / B) in x and y; the mark's block has z = 1 when it stands for
/// the launches.
static llvm::Expected<std::vector<LaunchShape>>
tileableLaunches(const FunctionDecl &Kernel, ASTContext &Ctx) {
  auto Calls = launchesInReach(Kernel, "its launch configuration", Ctx);
  if (!Calls)
    return Calls.takeError();
  std::vector<LaunchShape> Shapes;
  for (const CUDAKernelCallExpr *Call : *Calls) {
    auto S = LaunchShape::read(*Call, Ctx);
    if (!S)
      return S.takeError();
    std::optional<int64_t> GridZ =
        S->Grid.Dims.size() > 2 ? LaunchConfig::constant(S->Grid.Dims[2], Ctx)
                                : 1;
    if (S->OldBlock[2] != 1 || GridZ != 1)
      return notApplicableAt(Call->getBeginLoc(), Ctx,
                             "this launch is not flat in z; the rewrite "
                             "launches a 2-D grid of tiles");
    for (unsigned D = 0; D < 2; ++D)
      if (llvm::Error E =
              S->matchGrid(D, {"rescale", "follow the tiles"}, Ctx, true))
        return E;
    Shapes.push_back(std::move(*S));
  }
  if (Calls->empty()) {
    auto Mark = markBlock(Kernel, Ctx);
    if (!Mark)
      return Mark.takeError();
    if ((*Mark)->Dims[2] != 1)
      return notApplicableAt((*Mark)->Where, Ctx,
                             "the mark's block is not flat in z; the rewrite "
                             "launches a 2-D grid of tiles");
  }
  return Shapes;
}

static llvm::Error checkLaunchBounds(const FunctionDecl &Kernel,
                                     unsigned Threads, ASTContext &Ctx) {
  const auto *LB = Kernel.getAttr<CUDALaunchBoundsAttr>();
  if (!LB)
    return llvm::Error::success();
  std::optional<int64_t> Max = LaunchConfig::constant(LB->getMaxThreads(), Ctx);
  if (Max && *Max >= int64_t(Threads))
    return llvm::Error::success();
  return illegalAt(LB->getLocation(), Ctx,
                   "the kernel's __launch_bounds__ allows fewer than the " +
                       llvm::Twine(Threads) +
                       " threads per block the rewrite launches");
}

static llvm::Error checkNames(const FunctionDecl &Kernel, ASTContext &Ctx) {
  llvm::StringSet<> Names = identifiersOf(Kernel, Ctx);
  for (const char *N : Declared)
    if (Names.contains(N))
      return notApplicableAt(Kernel.getLocation(), Ctx,
                             "'" + Kernel.getName() + "' already spells '" + N +
                                 "', a name the rewrite declares");
  return llvm::Error::success();
}

llvm::Expected<TensorCoresPlan> TensorCoresLegality::check(const Site &S,
                                                           const ParamValues &P,
                                                           ASTContext &Ctx) {
  const FunctionDecl &K = *S.Kernel;
  auto Nest = MatmulNest::analyze(K, *S.Loop, S.Name, Ctx);
  if (!Nest)
    return Nest.takeError();
  TensorCoresPlan Plan;
  Plan.Nest = std::move(*Nest);
  Plan.Precision = WmmaPrecision::named(P.get("precision"));
  Plan.Tile = unsigned(P.getInt("tile"));
  if (!Plan.Precision || Plan.Tile % 32 != 0 || Plan.Tile == 0)
    return makeError(ErrorKind::Internal,
                     "tensor-cores: a precision or tile outside the domain");
  Plan.WarpsX = Plan.Tile >= 128 ? 4 : 2;
  if (llvm::Error E = checkTypes(Plan.Nest, *Plan.Precision, Ctx))
    return E;
  if (llvm::Error E = checkArch(K, *Plan.Precision, Ctx))
    return E;
  Plan.KTile = chooseKTile(Plan);
  if (!Plan.KTile)
    return illegalAt(K.getLocation(), Ctx,
                     "the tiles of tile=" + llvm::Twine(Plan.Tile) +
                         " do not fit in 48 KiB of shared memory");
  auto Launches = tileableLaunches(K, Ctx);
  if (!Launches)
    return Launches.takeError();
  Plan.Launches = std::move(*Launches);
  if (llvm::Error E = checkLaunchBounds(K, 32 * Plan.warps(), Ctx))
    return E;
  if (llvm::Error E = checkNames(K, Ctx))
    return E;
  // Last: a kernel that could take the rewrite hears what its tolerance
  // would have to be.
  if (llvm::Error E = checkTolerance(Plan.Nest, *Plan.Precision, Ctx))
    return E;
  return Plan;
}

llvm::StringRef TensorCoresLegality::suggestedPrecision(const MatmulNest &Nest,
                                                        ASTContext &Ctx) {
  for (const MatmulOperand *O : {&Nest.Left, &Nest.Right}) {
    if (O->ElemType == "__half")
      return "half";
    if (O->ElemType == "__nv_bfloat16")
      return "bf16";
  }
  const WmmaPrecision &Tf32 = *WmmaPrecision::named("tf32");
  SpecTolerance T = markTolerance(*Nest.Kernel, Ctx);
  return T.RTol >= Tf32.MinRTol && T.Norm >= Tf32.MinNorm ? "tf32" : "tf32x3";
}
