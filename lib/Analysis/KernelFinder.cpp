//===- KernelFinder.cpp - inventory of a file's kernels ------------------===//

#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Analysis/DeviceGlobalFinder.h"
#include "optiml/Analysis/ElementFields.h"
#include "optiml/Analysis/LaunchSiteFinder.h"
#include "optiml/Analysis/LoopSiteNamer.h"
#include "optiml/Analysis/PerContext.h"
#include "optiml/Analysis/PragmaScanner.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <set>

using namespace optiml;
using namespace clang;

namespace {

/// Collects the main file's kernel definitions (template patterns, not
/// their instantiations) and every declaration written there, which decides
/// whether a pragma stands right before a kernel.
class MainFileDecls : public RecursiveASTVisitor<MainFileDecls> {
public:
  explicit MainFileDecls(const SourceManager &SM) : SM(SM) {}

  bool VisitDecl(Decl *D) {
    // extern "C" { ... } only wraps declarations; the kernel inside is the
    // one a mark before `extern "C" __global__ ...` means.
    if (!isa<LinkageSpecDecl>(D) && !D->isImplicit() &&
        D->getBeginLoc().isValid() &&
        SM.isWrittenInMainFile(SM.getExpansionLoc(D->getBeginLoc())))
      Decls.push_back(D);
    return true;
  }

  bool VisitFunctionDecl(FunctionDecl *F) {
    if (F->hasAttr<CUDAGlobalAttr>() && F->doesThisDeclarationHaveABody() &&
        SM.isWrittenInMainFile(SM.getExpansionLoc(F->getLocation())))
      Kernels.push_back(F);
    return true;
  }

  std::vector<const Decl *> Decls;
  std::vector<const FunctionDecl *> Kernels;

private:
  const SourceManager &SM;
};

std::string typeText(QualType T, const ASTContext &Ctx) {
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  return T.getAsString(Policy);
}

const char *instantiationKind(TemplateSpecializationKind K) {
  switch (K) {
  case TSK_ExplicitInstantiationDefinition:
    return "explicit";
  case TSK_ExplicitInstantiationDeclaration:
    return "explicit-declaration";
  case TSK_ExplicitSpecialization:
    return "specialization";
  default:
    return "implicit";
  }
}

} // namespace

std::vector<ParamInfo> KernelFinder::paramsOf(const FunctionDecl &F) const {
  std::vector<ParamInfo> Params;
  for (const ParmVarDecl *P : F.parameters()) {
    ParamInfo Info;
    Info.Name = P->getNameAsString();
    QualType T = P->getType();
    Info.Type = typeText(T, Ctx);
    Info.IsRestrict = T.isRestrictQualified();
    if (const auto *Ptr = T->getAs<PointerType>()) {
      Info.IsPointer = true;
      ElementFields(Ctx).describePointee(Ptr->getPointeeType(), Info);
    } else {
      Info.IsConst = T.isConstQualified();
      Info.CanonicalElement = ElementFields(Ctx).canonicalNumber(T);
    }
    Params.push_back(std::move(Info));
  }
  return Params;
}

/// "for (init; cond; inc)" for a for-loop, "while (cond)" and "do ... while
/// (cond)" for the others: enough for a user to recognize the loop.
static std::string loopHeader(const Stmt *Loop, const ASTContext &Ctx) {
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    return textBetween(F->getBeginLoc(), F->getRParenLoc().getLocWithOffset(1),
                       Ctx);
  if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    return textBetween(R->getBeginLoc(), R->getRParenLoc().getLocWithOffset(1),
                       Ctx);
  if (const auto *W = dyn_cast<WhileStmt>(Loop))
    return textBetween(W->getBeginLoc(), W->getRParenLoc().getLocWithOffset(1),
                       Ctx);
  if (const auto *D = dyn_cast<DoStmt>(Loop))
    return "do ... " + textBetween(D->getWhileLoc(),
                                   D->getRParenLoc().getLocWithOffset(1), Ctx);
  return "";
}

std::vector<LoopSite> KernelFinder::loopsOf(const FunctionDecl &F) const {
  std::vector<LoopSite> Loops;
  for (const auto &Named : LoopSiteNamer::name(F)) {
    LoopSite L;
    L.Site = Named.Site;
    L.Kind = Named.Kind;
    L.Pos = positionOf(Named.Loop->getBeginLoc(), Ctx.getSourceManager());
    L.Header = loopHeader(Named.Loop, Ctx);
    Loops.push_back(std::move(L));
  }
  return Loops;
}

void KernelFinder::addTemplateFacts(const FunctionTemplateDecl &T,
                                    KernelInfo &K) const {
  for (const NamedDecl *P : *T.getTemplateParameters()) {
    K.TemplateParameters.push_back(textOf(P->getSourceRange(), Ctx));
    K.TemplateParameterNames.push_back(P->getNameAsString());
  }
  PrintingPolicy Policy(Ctx.getLangOpts());
  for (const FunctionDecl *Spec : T.specializations()) {
    Instantiation I;
    llvm::raw_string_ostream OS(I.Arguments);
    if (const TemplateArgumentList *Args =
            Spec->getTemplateSpecializationArgs())
      printTemplateArgumentList(OS, Args->asArray(), Policy);
    I.Kind = instantiationKind(Spec->getTemplateSpecializationKind());
    K.Instantiations.push_back(std::move(I));
  }
}

KernelInfo KernelFinder::describe(const FunctionDecl &F,
                                  const LaunchSiteFinder &Launches) const {
  KernelInfo K;
  K.Name = F.getNameAsString();
  K.QualifiedName = F.getQualifiedNameAsString();
  K.Pos = positionOf(F.getLocation(), Ctx.getSourceManager());
  if (const FunctionTemplateDecl *T = F.getDescribedFunctionTemplate())
    addTemplateFacts(*T, K);
  if (const auto *LB = F.getAttr<CUDALaunchBoundsAttr>()) {
    K.Bounds.emplace();
    K.Bounds->MaxThreads = textOf(LB->getMaxThreads()->getSourceRange(), Ctx);
    if (LB->getMinBlocks())
      K.Bounds->MinBlocks = textOf(LB->getMinBlocks()->getSourceRange(), Ctx);
  }
  K.Params = paramsOf(F);
  K.Loops = loopsOf(F);
  auto Sites = Launches.launchesOf(K.QualifiedName);
  K.Launches.assign(Sites.begin(), Sites.end());
  K.AddressTaken = Launches.isAddressTaken(K.QualifiedName);
  K.Globals = DeviceGlobalFinder(Ctx).globalsOf(F);
  return K;
}

/// A mark belongs to the declaration that starts first after it, which must
/// be a kernel; any other mark is reported and ignored.
/// Each pragma goes to the first declaration after it, which must be a
/// kernel defined in the file. Declarations are sorted by offset once, so
/// a file with thousands of kernels is not quadratic.
KernelFinder::MarkTable
KernelFinder::marks(const std::vector<const Decl *> &Decls,
                    const std::vector<const FunctionDecl *> &Kernels,
                    llvm::StringRef File) const {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<std::pair<unsigned, const Decl *>> ByOffset;
  for (const Decl *D : Decls)
    ByOffset.push_back(
        {SM.getFileOffset(SM.getExpansionLoc(D->getBeginLoc())), D});
  llvm::stable_sort(ByOffset, llvm::less_first());
  std::set<std::string> KernelNames;
  for (const FunctionDecl *K : Kernels)
    KernelNames.insert(K->getQualifiedNameAsString());
  MarkTable Table;
  for (const auto &P : PragmaScanner::scan(SM.getBufferData(SM.getMainFileID()),
                                           Ctx.getLangOpts())) {
    auto Next = llvm::upper_bound(
        ByOffset, P.Offset,
        [](unsigned Offset, const auto &E) { return Offset < E.first; });
    const FunctionDecl *F =
        Next == ByOffset.end() ? nullptr : Next->second->getAsFunction();
    std::string Name = F ? F->getQualifiedNameAsString() : "";
    SourcePos Pos{File.str(), P.Line, P.Column};
    if (!F || !F->hasAttr<CUDAGlobalAttr>() || !KernelNames.count(Name)) {
      Table.Warnings.push_back(Pos.str() + ": warning: '#pragma optiml' is not "
                                           "followed by a __global__ function "
                                           "definition; ignored");
      continue;
    }
    auto [It, New] =
        Table.ByKernel.try_emplace(Name, KernelMark{Pos, P.Clauses});
    if (New)
      continue;
    Table.Warnings.push_back(Pos.str() +
                             ": warning: second '#pragma optiml' "
                             "for kernel '" +
                             F->getNameAsString() +
                             "'; merge the clauses into one mark");
    It->second.Clauses += " " + P.Clauses;
  }
  return Table;
}

KernelInventory KernelFinder::find(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  KernelInventory Inv;
  if (auto Entry = SM.getFileEntryRefForID(SM.getMainFileID()))
    Inv.File = Entry->getName().str();
  MainFileDecls Collector(SM);
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
  LaunchSiteFinder Launches(Ctx);
  KernelFinder Finder(Ctx);
  for (const FunctionDecl *F : Collector.Kernels)
    Inv.Kernels.push_back(Finder.describe(*F, Launches));
  // One list for all: a kernel's spec may launch any other in a sequence.
  auto All = std::make_shared<std::vector<SiblingKernel>>();
  for (const KernelInfo &K : Inv.Kernels)
    All->push_back({K.Name, K.QualifiedName, K.isTemplate(), K.Params});
  for (KernelInfo &K : Inv.Kernels)
    K.FileKernels = All;
  MarkTable Marks = Finder.marks(Collector.Decls, Collector.Kernels, Inv.File);
  for (KernelInfo &K : Inv.Kernels)
    if (auto It = Marks.ByKernel.find(K.QualifiedName);
        It != Marks.ByKernel.end())
      K.Mark = It->second;
  Inv.Warnings = std::move(Marks.Warnings);
  return Inv;
}

std::optional<KernelMark> KernelFinder::markOf(const FunctionDecl &F,
                                               ASTContext &Ctx) {
  using Marks = std::map<std::string, KernelMark>;
  static auto &Cache = *new PerContext<Marks>;
  const Marks &ByKernel = Cache.get(Ctx, [](ASTContext &Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    MainFileDecls Collector(SM);
    Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
    std::string File;
    if (auto Entry = SM.getFileEntryRefForID(SM.getMainFileID()))
      File = Entry->getName().str();
    return KernelFinder(Ctx)
        .marks(Collector.Decls, Collector.Kernels, File)
        .ByKernel;
  });
  auto It = ByKernel.find(F.getQualifiedNameAsString());
  if (It == ByKernel.end())
    return std::nullopt;
  return It->second;
}
