//===- SourceParser.h - parse KernelSources with one command --*- C++ -*-===//
//
// Parses the original file and every rewrite of it the same way: through
// ClangTool (compilation database, `--` flags, nvcc flag translation, CUDA
// defaults) with the source's text mapped over its path.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_SOURCEPARSER_H
#define OPTIML_REWRITE_SOURCEPARSER_H

#include "optiml/Frontend/CudaToolchain.h"
#include "optiml/Rewrite/ParsedSource.h"
#include "optiml/Support/Error.h"

#include "clang/Tooling/CompilationDatabase.h"

namespace optiml {

class SourceParser {
public:
  SourceParser(const clang::tooling::CompilationDatabase &DB,
               CudaToolchain Toolchain)
      : DB(DB), Toolchain(std::move(Toolchain)) {}

  /// Parses \p Source. A source with errors is an error of kind \p OnError
  /// (BadInput for the user's file, Internal for a rewrite result) after
  /// clang's diagnostics have been printed, or given to \p Diagnostics
  /// when set (a candidate judged quietly).
  llvm::Expected<std::unique_ptr<ParsedSource>>
  parse(const KernelSource &Source, ErrorKind OnError = ErrorKind::BadInput,
        clang::DiagnosticConsumer *Diagnostics = nullptr) const;

  /// Parses \p Source without printing anything: a source with errors is
  /// an error of kind \p OnError whose message is clang's first error
  /// (`file.cu:3:7: error: ...`), to be shown to whoever wrote the source.
  /// A kernel launched from device code parses only as relocatable device
  /// code, which no build of OptiML's uses; when that is among the errors,
  /// \p DeviceLaunchAt (if given) is set to where (`file.cu:9:5`), so that
  /// a candidate check can refuse the launch for what it is.
  llvm::Expected<std::unique_ptr<ParsedSource>>
  parseQuietly(const KernelSource &Source, ErrorKind OnError,
               std::string *DeviceLaunchAt = nullptr) const;

private:
  const clang::tooling::CompilationDatabase &DB;
  CudaToolchain Toolchain;
};

} // namespace optiml

#endif // OPTIML_REWRITE_SOURCEPARSER_H
