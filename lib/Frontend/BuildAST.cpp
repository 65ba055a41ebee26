//===- BuildAST.cpp - one file parsed the way the tool parses -------------===//

#include "optiml/Frontend/BuildAST.h"
#include "optiml/Frontend/NvccFlags.h"
#include "optiml/Frontend/PreambleCache.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Tooling/Tooling.h"

using namespace optiml;
using namespace clang;

namespace {

/// ClangTool's AST builder, with the file's #includes taken from the
/// process's PreambleCache when its text is given: ClangTool still turns the
/// compile command into the invocation, so both paths parse alike.
class PreambleASTBuilder : public tooling::ToolAction {
public:
  PreambleASTBuilder(std::optional<llvm::StringRef> Contents)
      : Contents(Contents) {}

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHOps,
                     DiagnosticConsumer *Consumer) override {
    IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS =
        Files->getVirtualFileSystemPtr();
    IntrusiveRefCntPtr<FileManager> FileMgr(Files);
    if (Contents) {
      auto Main = llvm::MemoryBuffer::getMemBufferCopy(
          *Contents, Invocation->getFrontendOpts().Inputs[0].getFile());
      if (const PrecompiledPreamble *P = PreambleCache::process().preambleFor(
              *Invocation, *Main, VFS, PCHOps)) {
        // The ASTUnit owns the remapped main buffer from here on.
        P->AddImplicitPreamble(*Invocation, VFS, Main.release());
        FileMgr = llvm::makeIntrusiveRefCnt<FileManager>(
            Invocation->getFileSystemOpts(), VFS);
      }
    }
    AST = ASTUnit::LoadFromCompilerInvocation(
        Invocation, std::move(PCHOps), nullptr,
        CompilerInstance::createDiagnostics(
            *VFS, Invocation->getDiagnosticOpts(), Consumer,
            /*ShouldOwnClient=*/false),
        FileMgr);
    return AST != nullptr;
  }

  std::unique_ptr<ASTUnit> AST;

private:
  std::optional<llvm::StringRef> Contents;
};

/// Everything OptiML reads is in the main file, so AST matchers, visitors
/// and the parent map walk its top-level declarations only. The CUDA
/// headers' tens of thousands of declarations would cost more than the
/// parse saved by the preamble, and deserializing them from it too.
void limitTraversalToMainFile(ASTUnit &AST) {
  SourceManager &SM = AST.getSourceManager();
  TranslationUnitDecl *TU = AST.getASTContext().getTranslationUnitDecl();
  std::vector<Decl *> Scope;
  // The parser also hands over declarations that are not the unit's own
  // children (an explicit instantiation's specialization): a walk of the
  // whole unit would reach them through their template only, and so must
  // this one.
  for (auto It = AST.top_level_begin(); It != AST.top_level_end(); ++It)
    if (TU->containsDecl(*It) &&
        SM.isWrittenInMainFile(SM.getExpansionLoc((*It)->getLocation())))
      Scope.push_back(*It);
  AST.getASTContext().setTraversalScope(Scope);
}

} // namespace

llvm::Expected<std::unique_ptr<ASTUnit>>
optiml::buildAST(const tooling::CompilationDatabase &DB, llvm::StringRef File,
                 const CudaToolchain &Toolchain,
                 std::optional<llvm::StringRef> Contents, ErrorKind OnError,
                 llvm::StringRef Name, DiagnosticConsumer *Diagnostics) {
  tooling::ClangTool Tool(DB, {File.str()});
  Tool.setPrintErrorMessage(false);
  if (Diagnostics)
    Tool.setDiagnosticConsumer(Diagnostics);
  if (Contents)
    Tool.mapVirtualFile(File, *Contents);
  Tool.mapVirtualFile(CudaToolchain::CompatHeaderPath,
                      CudaToolchain::compatHeader());
  Tool.appendArgumentsAdjuster(
      [](const tooling::CommandLineArguments &Args, llvm::StringRef) {
        return translateNvccArgs(Args);
      });
  Tool.appendArgumentsAdjuster(Toolchain.defaultsAdjuster());
  Tool.appendArgumentsAdjuster(CudaToolchain::compatAdjuster());

  PreambleASTBuilder Builder(Contents);
  int Status = Tool.run(&Builder);
  if (!Builder.AST)
    return makeError(OnError, Name + ": clang could not run on this file");
  std::unique_ptr<ASTUnit> AST = std::move(Builder.AST);
  limitTraversalToMainFile(*AST);
  unsigned Errors = AST->getDiagnostics().getClient()->getNumErrors();
  if (Status != 0 || AST->getDiagnostics().hasErrorOccurred())
    return makeError(OnError, Name + ": the source does not parse (" +
                                  llvm::Twine(Errors) + " error" +
                                  (Errors == 1 ? "" : "s") + " above)");
  return AST;
}
