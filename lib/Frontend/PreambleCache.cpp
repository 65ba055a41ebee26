//===- PreambleCache.cpp - parse a file's #includes once -----------------===//

#include "optiml/Frontend/PreambleCache.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Lex/Lexer.h"

#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

PreambleCache &PreambleCache::process() {
  static PreambleCache Cache;
  return Cache;
}

PreambleBounds PreambleCache::boundsOf(const LangOptions &LangOpts,
                                       const llvm::MemoryBuffer &Main) {
  PreambleBounds Full = ComputePreambleBounds(LangOpts, Main, 0);
  // The lexer needs the whole, null-terminated buffer; it stops at the end
  // of the preamble Clang found.
  llvm::StringRef Text = Main.getBuffer();
  llvm::StringRef Preamble = Text.take_front(Full.Size);
  // The raw lexer skips comments, so a commented-out #include does not
  // count; the preamble ends after the last real one.
  Lexer L(SourceLocation(), LangOpts, Text.begin(), Text.begin(), Text.end());
  unsigned End = 0;
  Token Tok;
  while (!L.LexFromRawLexer(Tok) &&
         L.getBufferLocation() - Text.begin() <=
             static_cast<ptrdiff_t>(Preamble.size())) {
    if (!Tok.is(tok::hash) || !Tok.isAtStartOfLine())
      continue;
    Token Name;
    if (L.LexFromRawLexer(Name) || !Name.is(tok::raw_identifier))
      break;
    llvm::StringRef Directive = Name.getRawIdentifier();
    if (Directive != "include" && Directive != "import" &&
        Directive != "include_next")
      continue;
    size_t Eol = Preamble.find('\n', L.getBufferLocation() - Text.begin());
    if (Eol == llvm::StringRef::npos)
      break; // The preamble ends on this line.
    End = static_cast<unsigned>(Eol + 1);
  }
  return PreambleBounds(End, /*PreambleEndsAtStartOfLine=*/true);
}

namespace {

std::string keyOf(const CompilerInvocation &Invocation) {
  std::string Key = Invocation.getFrontendOpts().Inputs[0].getFile().str();
  for (const std::string &Arg : Invocation.getCC1CommandLine())
    Key += "\n" + Arg;
  return Key;
}

} // namespace

const PrecompiledPreamble *
PreambleCache::preambleFor(const CompilerInvocation &Invocation,
                           const llvm::MemoryBuffer &Main,
                           llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
                           std::shared_ptr<PCHContainerOperations> PCHOps) {
  PreambleBounds Bounds = boundsOf(Invocation.getLangOpts(), Main);
  if (Bounds.Size == 0)
    return nullptr;
  std::lock_guard<std::mutex> Guard(Lock);
  Entry &E = Entries[keyOf(Invocation)];
  // Building a preamble costs about one more parse: a file parsed once or
  // twice (--list-kernels, one --apply step and its check) is parsed
  // plainly; from the third parse on (a chain of steps, a search) it pays.
  if (++E.Parses < 3)
    return nullptr;
  if (E.Current &&
      E.Current->CanReuse(Invocation, Main.getMemBufferRef(), Bounds, *VFS))
    return E.Current;

  // Only counts: a preamble with errors would hide them from the parses
  // that use it, so it is not used, and the plain parse reports them.
  DiagnosticOptions DiagOpts;
  DiagnosticConsumer Errors;
  IntrusiveRefCntPtr<DiagnosticsEngine> Diags =
      CompilerInstance::createDiagnostics(*VFS, DiagOpts, &Errors,
                                          /*ShouldOwnClient=*/false);
  PreambleCallbacks Callbacks;
  // The headers' pending template instantiations are done once, in the
  // preamble, instead of at the end of every parse that uses it (about a
  // quarter of a re-parse with the CUDA headers). The option is benign:
  // parses with and without it share the preamble.
  CompilerInvocation WithInstantiations(Invocation);
  WithInstantiations.getLangOpts().PCHInstantiateTemplates = true;
  llvm::ErrorOr<PrecompiledPreamble> Built = PrecompiledPreamble::Build(
      WithInstantiations, &Main, Bounds, Diags, VFS, std::move(PCHOps),
      /*StoreInMemory=*/true, /*StoragePath=*/"", Callbacks);
  if (!Built || Errors.getNumErrors() > 0) {
    E.Current = nullptr;
    return nullptr;
  }
  this->Built.push_back(
      std::make_unique<PrecompiledPreamble>(std::move(*Built)));
  E.Current = this->Built.back().get();
  return E.Current;
}
