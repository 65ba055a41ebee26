//===- KernelRemarks.cpp - the plugin's report on a compile ---------------===//

#include "KernelRemarks.h"
#include "CachedResults.h"

#include "driver/Cache/ResultCache.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Analysis/Legality/StaticFindings.h"
#include "optiml/Spec/KernelSpec.h"
#include "optiml/Support/ErrorMessages.h"
#include "optiml/Transform/ActionSpace.h"
#include "optiml/Transform/SiteIndex.h"
#include "transforms/RegisterTransforms.h"

#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <set>

using namespace optiml;
using namespace clang;

namespace {

/// One line of the report, where it belongs.
struct Remark {
  SourceLocation Loc;
  std::string Text;
};

std::string plural(size_t N, llvm::StringRef One, llvm::StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

/// "file:line:col: error: what" as its parts; nothing when \p Line is not
/// in that form.
std::optional<std::tuple<std::string, unsigned, unsigned, std::string>>
splitPosition(llvm::StringRef Line) {
  llvm::SmallVector<llvm::StringRef, 6> M;
  if (!llvm::Regex("^(.+):([0-9]+):([0-9]+): (error|warning): (.*)$")
           .match(Line, &M))
    return std::nullopt;
  unsigned L = 0, C = 0;
  M[2].getAsInteger(10, L);
  M[3].getAsInteger(10, C);
  return std::make_tuple(M[1].str(), L, C, M[5].str());
}

/// The kernel of this compile that \p K describes.
const FunctionDecl *declOf(const KernelInfo &K, const SiteIndex &Index) {
  for (const FunctionDecl *F : Index.kernels())
    if (kernelNamed(*F, K.QualifiedName))
      return F;
  return nullptr;
}

} // namespace

KernelRemarks::KernelRemarks(CompilerInstance &CI, PluginOptions Options)
    : CI(CI), Options(std::move(Options)) {
  DiagnosticsEngine &D = CI.getDiagnostics();
  RemarkId = D.getCustomDiagID(DiagnosticsEngine::Remark, "optiml: %0");
  WarningId = D.getCustomDiagID(DiagnosticsEngine::Warning, "optiml: %0");
  Arch = CI.getLangOpts().CUDAIsDevice ? CI.getTarget().getTargetOpts().CPU
                                       : this->Options.Arch;
}

bool KernelRemarks::HandleTopLevelDecl(DeclGroupRef Group) {
  SourceManager &SM = CI.getSourceManager();
  for (Decl *D : Group)
    if (D->getDeclContext()->isTranslationUnit() &&
        SM.isWrittenInMainFile(SM.getExpansionLoc(D->getLocation())))
      MainFileDecls.push_back(D);
  return true;
}

void KernelRemarks::HandleTranslationUnit(ASTContext &Ctx) {
  const LangOptions &LO = CI.getLangOpts();
  bool Reports =
      Options.ReportIn == PluginOptions::Pass::All ||
      (Options.ReportIn == PluginOptions::Pass::Device) == LO.CUDAIsDevice;
  // A broken AST tells nothing reliable; the compile reports its errors.
  if (!LO.CUDA || !Reports || CI.getDiagnostics().hasErrorOccurred())
    return;
  for (const std::string &P : Options.Problems)
    warning(SourceLocation(), P);
  SourceManager &SM = CI.getSourceManager();
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  if (!Main)
    return;
  File = Main->getName().str();

  // OptiML's analyses walk the main file only, as in clang-optiml's own
  // parse; the compile's traversal scope is put back afterwards.
  std::vector<Decl *> Saved = Ctx.getTraversalScope();
  Ctx.setTraversalScope(MainFileDecls);
  KernelInventory Inv = KernelFinder::find(Ctx);
  for (const std::string &W : Inv.Warnings)
    warningFrom(W, SourceLocation());
  CachedResults Cache(Options);
  TransformRegistry Registry = makeTransformRegistry();
  SiteIndex Index(Ctx);
  for (const KernelInfo &K : Inv.Kernels)
    if (K.Mark)
      reportKernel(K, Ctx, Index, Registry, Cache);
  for (const std::string &P : Cache.problems())
    warning(SourceLocation(), P);
  Ctx.setTraversalScope(Saved);
}

void KernelRemarks::reportKernel(const KernelInfo &K, ASTContext &Ctx,
                                 const SiteIndex &Index,
                                 const TransformRegistry &Registry,
                                 CachedResults &Cache) {
  const FunctionDecl *F = declOf(K, Index);
  if (!F)
    return;
  SourceLocation At = F->getLocation();
  bool SpecLoads = reportSpec(K, At);

  std::vector<Remark> Lines;
  size_t Findings = 0;
  for (const StaticFinding &S : StaticFindings::of(*F, Ctx)) {
    Lines.push_back({S.Loc, S.Kind + ": " + S.Message + " [" + S.Site + "]"});
    ++Findings;
  }
  size_t Legal = 0;
  std::set<std::string> Sites;
  for (const Action &A :
       ActionSpace::enumerate(Registry, Ctx, K.QualifiedName)) {
    if (A.Legal) {
      ++Legal;
      Sites.insert(A.Default.Site);
      Lines.push_back(
          {A.SiteLoc, "legal: " + A.Default.str() +
                          (A.Reason.empty() ? "" : " (" + A.Reason + ")")});
    } else if (Options.ShowRefused) {
      Lines.push_back(
          {A.SiteLoc, A.Kind + ": " + A.Default.str() + ": " + A.Reason});
    }
  }

  remark(At, "kernel '" + K.QualifiedName +
                 "': " + plural(Findings, "finding", "findings") + ", " +
                 plural(Legal, "legal transform", "legal transforms") + " at " +
                 plural(Sites.size(), "site", "sites") + "; " +
                 (SpecLoads ? cachedResult(K, Ctx, Cache)
                            : "not measurable until its spec is fixed"));
  for (const Remark &R : Lines)
    remark(R.Loc, R.Text);
}

bool KernelRemarks::reportSpec(const KernelInfo &K, SourceLocation At) {
  auto Spec = findKernelSpec(K, File, Options.SpecPath);
  if (Spec)
    return true;
  for (const std::string &M : messagesOf(Spec.takeError()))
    warningFrom(M, At);
  return false;
}

std::string KernelRemarks::cachedResult(const KernelInfo &K, ASTContext &Ctx,
                                        CachedResults &Cache) {
  SourceManager &SM = CI.getSourceManager();
  auto Key = cacheKeyOf(Ctx, SM.getBufferData(SM.getMainFileID()), K, File,
                        Options.SpecPath, Arch, {});
  if (!Key)
    return "no cached result (" + llvm::toString(Key.takeError()) + ")";
  std::optional<ResultRecord> R = Cache.best(*Key, Arch);
  std::string Name = llvm::sys::path::filename(File).str();
  if (!R)
    return "no cached result ('clang-optiml " + Name +
           " --optimize' on a GPU machine finds one)";
  std::string Where = R->Gpu + " (" + R->Arch + ", CUDA " + R->Cuda + ")";
  std::string Other =
      !Arch.empty() && R->Arch != Arch
          ? "; measured for " + R->Arch + ", this compile is for " + Arch
          : "";
  if (R->Steps.empty())
    return "cached: no rewrite beat it on " + Where + Other;
  std::string Speedup;
  llvm::raw_string_ostream(Speedup) << llvm::format("%.2fx", R->Speedup);
  return "cached: " + Speedup + " faster on " + Where + " by " + R->Steps +
         Other + "; 'clang-optiml " + Name +
         " --use-cache' or optiml_optimize_kernels() compiles it";
}

void KernelRemarks::remark(SourceLocation At, const std::string &Text) {
  CI.getDiagnostics().Report(At, RemarkId) << Text;
}

void KernelRemarks::warning(SourceLocation At, const std::string &Text) {
  DiagnosticsEngine &D = CI.getDiagnostics();
  // The plugin never fails a compile, -Werror or not.
  D.Report(At, D.getWarningsAsErrors() ? RemarkId : WarningId) << Text;
}

void KernelRemarks::warningFrom(llvm::StringRef Line, SourceLocation Else) {
  auto Parts = splitPosition(Line);
  if (!Parts)
    return warning(Else, Line.str());
  auto &[Path, L, C, What] = *Parts;
  auto Entry = CI.getFileManager().getOptionalFileRef(Path);
  SourceLocation Loc =
      Entry ? CI.getSourceManager().translateFileLineCol(*Entry, L, C)
            : SourceLocation();
  // A place this compile has not read (a sidecar) stays in the text.
  if (Loc.isInvalid())
    return warning(Else, Line.str());
  warning(Loc, What);
}
