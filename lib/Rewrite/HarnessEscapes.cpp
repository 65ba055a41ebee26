//===- HarnessEscapes.cpp - code that would act outside the kernel -------===//

#include "optiml/Rewrite/HarnessEscapes.h"
#include "optiml/Support/Error.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

using namespace optiml;
using namespace clang;

namespace {

/// Library functions that end, fork or replace the process, or run code
/// beside it.
bool isProcessControl(llvm::StringRef Name) {
  static const llvm::StringSet<> Names = {
      "exit",          "_exit",        "_Exit",       "quick_exit",
      "abort",         "atexit",       "at_quick_exit", "std::terminate",
      "raise",         "kill",         "signal",      "sigaction",
      "fork",          "vfork",        "system",      "popen",
      "execl",         "execlp",       "execle",      "execv",
      "execvp",        "execve",       "execvpe",     "posix_spawn",
      "posix_spawnp",  "pthread_create", "pthread_kill", "dlopen",
      "dlsym",         "std::async"};
  return Names.contains(Name);
}

bool isThreadClass(llvm::StringRef Name) {
  return Name == "std::thread" || Name == "std::jthread";
}

bool runsOnDevice(const FunctionDecl *F) {
  return F && (F->hasAttr<CUDAGlobalAttr>() ||
               (F->hasAttr<CUDADeviceAttr>() && !F->hasAttr<CUDAHostAttr>()));
}

} // namespace

namespace optiml {

/// Walks the declarations written in the main file and counts each escape.
class EscapeCollector : public RecursiveASTVisitor<EscapeCollector> {
public:
  EscapeCollector(HarnessEscapes &Out, ASTContext &Ctx)
      : Out(Out), SM(Ctx.getSourceManager()) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl *D) {
    auto *F = dyn_cast_or_null<FunctionDecl>(D);
    const FunctionDecl *Saved = Current;
    if (F)
      Current = F;
    bool Result = RecursiveASTVisitor::TraverseDecl(D);
    Current = Saved;
    return Result;
  }

  bool VisitFunctionDecl(FunctionDecl *F) {
    static const llvm::Regex CudaName("^cu(da)?[A-Z]");
    std::string Name = F->getNameAsString();
    if (inMainFile(F->getLocation()) && CudaName.match(Name))
      add("declares:" + Name,
          "it declares `" + Name +
              "`, a name of the CUDA runtime or driver API: a candidate may "
              "not stand in for the functions that launch, allocate or "
              "synchronize");
    return true;
  }

  /// Visits the declarations written in the main file, also inside
  /// namespaces and extern "C" blocks, whichever file opened them.
  void collect(DeclContext *DC) {
    for (Decl *D : DC->decls()) {
      if (isa<NamespaceDecl, LinkageSpecDecl>(D))
        collect(cast<DeclContext>(D));
      else if (inMainFile(D->getLocation()))
        TraverseDecl(D);
    }
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const auto *F = dyn_cast<FunctionDecl>(E->getDecl());
    if (!F || inMainFile(F->getLocation()) || !inMainFile(E->getBeginLoc()))
      return true;
    std::string Name = F->getQualifiedNameAsString();
    if (isProcessControl(Name))
      add("calls:" + Name,
          "it calls `" + Name +
              "`, which ends, forks or replaces the process or runs code "
              "beside it: the runner loads the candidate into its own "
              "process");
    else if (declaredIn(F, "cuda.h"))
      add("calls:" + Name,
          "it names `" + Name +
              "`, a CUDA driver API function: a candidate may not launch, "
              "allocate or synchronize");
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (!inMainFile(E->getBeginLoc()))
      return true;
    std::string Class = E->getConstructor()->getParent()->getQualifiedNameAsString();
    if (isThreadClass(Class))
      add("thread:" + Class,
          "it starts a host thread (`" + Class +
              "`), which would run beside the measurement in the runner's "
              "process");
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *E) {
    if (!runsOnDevice(Current))
      return true;
    std::string Callee = "a kernel";
    if (const FunctionDecl *F = E->getDirectCallee())
      Callee = "kernel '" + F->getNameAsString() + "'";
    add("device-launch:" + Callee,
        "it launches " + Callee + " from device code ('" +
            Current->getNameAsString() +
            "'): dynamic parallelism runs work outside the timed window of "
            "the kernel");
    return true;
  }

private:
  bool inMainFile(SourceLocation L) const {
    return L.isValid() && SM.isWrittenInMainFile(SM.getExpansionLoc(L));
  }

  bool declaredIn(const FunctionDecl *F, llvm::StringRef File) const {
    return llvm::sys::path::filename(
               SM.getFilename(SM.getExpansionLoc(F->getLocation()))) == File;
  }

  void add(const std::string &Key, const std::string &Why) {
    ++Out.Counts[Key];
    Out.Reasons.emplace(Key, Why);
  }

  HarnessEscapes &Out;
  const SourceManager &SM;
  const FunctionDecl *Current = nullptr;
};

} // namespace optiml

HarnessEscapes::HarnessEscapes(ParsedSource &P) {
  EscapeCollector C(*this, P.context());
  C.collect(P.context().getTranslationUnitDecl());
}

llvm::Error HarnessEscapes::checkCandidate(const HarnessEscapes &Cand) const {
  for (const auto &[Key, N] : Cand.Counts) {
    auto It = Counts.find(Key);
    if (It == Counts.end() || It->second < N)
      return makeError(ErrorKind::Illegal, Cand.Reasons.at(Key));
  }
  return llvm::Error::success();
}
