//===- CommandLine.h - reading the command line and its sources -*- C++ -*-===//
//
// What main() needs around the one parse: the scans of argv that pick the
// path which needs no source file (--help, --from-prompt, the cache files,
// --list-transforms), the parse itself with LLVM's errors on one line,
// and the source files to run on.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TOOLS_CLANGOPTIML_COMMANDLINE_H
#define OPTIML_TOOLS_CLANGOPTIML_COMMANDLINE_H

#include "Flags.h"

#include "clang/Tooling/CommonOptionsParser.h"

#include <memory>
#include <string>
#include <vector>

namespace optiml {

extern const char Overview[];

/// One line on stderr and the exit code of \p E's kind. A message that
/// already carries its source position in clang's form
/// (`file:line:col: error: ...`) is printed as it is.
int fail(llvm::Error E);

/// The command line as typed, for the reports: each argument quoted for a
/// POSIX shell when it needs to be.
std::string commandLineOf(int Argc, const char **Argv);

/// --version: OptiML's version and commit, then what it parses and builds
/// with; \p Argv0 finds the toolkit.
void setVersionPrinter(const char *Argv0);

/// Without "--" or -p, and with no compile_commands.json to find above the
/// source, CommonOptionsParser would print a warning and run without flags;
/// an empty "--" gives the same database quietly, and our CUDA defaults fill
/// it in.
std::vector<const char *> withQuietDefaultDatabase(int Argc, const char **Argv);

/// The paths that take no source file, which CommonOptionsParser would
/// demand: --help (-h, --help-hidden, --help-list), --from-prompt,
/// --list-transforms alone and --import-cache or --export-cache alone.
bool wantsHelp(int Argc, const char **Argv);
bool wantsFromPrompt(int Argc, const char **Argv);
bool wantsTransformListOnly(int Argc, const char **Argv);
bool wantsCacheFilesOnly(int Argc, const char **Argv);
/// Whether \p Name (`--all`, `-all`) is among the options.
bool hasFlag(int Argc, const char **Argv, llvm::StringRef Name);

/// The options by action, the exit codes and examples.
int printHelp(int Argc, const char **Argv);

/// CommonOptionsParser's parse of \p Args, LLVM's messages made one line.
llvm::Expected<clang::tooling::CommonOptionsParser>
parseWithSources(int Argc, const char **Args, bool AllMarked);

/// The sources to run on and their compilation database.
struct SourceSet {
  const clang::tooling::CompilationDatabase *DB = nullptr;
  std::vector<std::string> Sources;
  /// The database of -p when --all comes without a source file, which the
  /// parser loads none for.
  std::unique_ptr<clang::tooling::CompilationDatabase> OwnDB;
};

/// The command line's sources and, with --all, the marked ones of the
/// compilation database; several only for the actions that take several.
llvm::Expected<SourceSet>
sourcesToRun(clang::tooling::CommonOptionsParser &Parsed, const TargetFlags &T,
             llvm::StringRef Action);

/// Where the result of \p Source goes: -o, or with several sources the -o
/// folder's file of the same name.
std::string outputFor(llvm::StringRef Source, const TargetFlags &T,
                      size_t SourceCount);

/// The flags nvcc needs from \p Source's compile command in \p DB.
std::vector<std::string>
projectNvccFlags(const clang::tooling::CompilationDatabase &DB,
                 llvm::StringRef Source);

} // namespace optiml

#endif // OPTIML_TOOLS_CLANGOPTIML_COMMANDLINE_H
