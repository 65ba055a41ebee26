//===- SourceParser.cpp - parse KernelSources with one command -----------===//

#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Frontend/BuildAST.h"

#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace optiml;
using namespace clang;

llvm::Expected<std::unique_ptr<ParsedSource>>
SourceParser::parse(const KernelSource &Source, ErrorKind OnError,
                    clang::DiagnosticConsumer *Diagnostics) const {
  llvm::SmallString<256> Path(Source.path());
  if (std::error_code EC = llvm::sys::fs::make_absolute(Path))
    return makeError(ErrorKind::BadInput, Source.path() + ": " + EC.message());
  if (DB.getCompileCommands(Path).empty())
    return makeError(ErrorKind::BadInput,
                     Source.path() + ": no compile command for this file in "
                                     "the compilation database");

  std::unique_ptr<ParsedSource> Parsed(new ParsedSource(Source));
  // The AST keeps referring to the mapped text, which Parsed owns.
  auto AST = buildAST(DB, Path, Toolchain, Parsed->Source.text(), OnError,
                      Source.path(), Diagnostics);
  if (!AST)
    return AST.takeError();
  Parsed->AST = std::move(*AST);
  return Parsed;
}

namespace {

/// `file.cu:3:7` for a diagnostic, or "" without a valid location.
std::string where(const Diagnostic &Info) {
  if (!Info.hasSourceManager() || !Info.getLocation().isValid())
    return "";
  PresumedLoc P = Info.getSourceManager().getPresumedLoc(Info.getLocation());
  if (!P.isValid())
    return "";
  return (llvm::sys::path::filename(P.getFilename()) + ":" +
          llvm::Twine(P.getLine()) + ":" + llvm::Twine(P.getColumn()))
      .str();
}

/// Keeps the first error, in clang's `file:line:col: error: ...` form,
/// instead of printing every diagnostic, and where a kernel is launched
/// from device code.
class FirstError : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Info.getID() == diag::err_cuda_device_kernel_launch_require_rdc &&
        DeviceLaunchAt.empty())
      DeviceLaunchAt = where(Info);
    if (Level < DiagnosticsEngine::Error || !Message.empty())
      return;
    llvm::SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    std::string At = where(Info);
    Message = (At.empty() ? "" : At + ": ") + "error: " + Text.str().str();
  }

  std::string Message;
  std::string DeviceLaunchAt;
};

} // namespace

llvm::Expected<std::unique_ptr<ParsedSource>>
SourceParser::parseQuietly(const KernelSource &Source, ErrorKind OnError,
                           std::string *DeviceLaunchAt) const {
  FirstError Errors;
  auto Parsed = parse(Source, OnError, &Errors);
  if (Parsed)
    return Parsed;
  llvm::consumeError(Parsed.takeError());
  if (DeviceLaunchAt)
    *DeviceLaunchAt = Errors.DeviceLaunchAt;
  return makeError(OnError, Errors.Message.empty() ? "clang could not run on it"
                                                   : Errors.Message);
}
