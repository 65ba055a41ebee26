//===- Sources.cpp - the source files to run on --------------------------===//
//
// The command line's sources, or with --all the marked ones of the
// compilation database, and what each one's compile command says nvcc
// needs.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"

#include "optiml/Frontend/NvccFlags.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

using namespace optiml;
using namespace llvm;
using clang::tooling::CompilationDatabase;

/// The actions that take several source files (or --all), each in turn.
static bool takesSeveralSources(StringRef Action) {
  return is_contained(std::initializer_list<StringRef>{"check", "list-kernels",
                                                       "list-sites", "evaluate",
                                                       "optimize"},
                      Action);
}

/// A source with a `#pragma optiml` mark, or a sidecar spec beside it.
static bool isMarked(StringRef Source) {
  if (sys::fs::exists(Source + ".optiml.json"))
    return true;
  auto Text = MemoryBuffer::getFile(Source, /*IsText=*/true);
  static const Regex Mark("^[ \t]*#[ \t]*pragma[ \t]+optiml", Regex::Newline);
  return Text && Mark.match((*Text)->getBuffer());
}

/// --all: the sources of the compilation database that have a mark.
static Expected<std::vector<std::string>>
markedSources(const CompilationDatabase &DB) {
  std::vector<std::string> All = DB.getAllFiles();
  if (All.empty())
    return makeError(ErrorKind::BadInput,
                     "--all: the compilation database lists no source");
  std::vector<std::string> Marked;
  for (std::string &F : All)
    if (isMarked(F))
      Marked.push_back(std::move(F));
  if (Marked.empty())
    return makeError(ErrorKind::BadInput,
                     "--all: none of the " + Twine(All.size()) +
                         " sources of the compilation database has a "
                         "'#pragma optiml' mark or a <file>.optiml.json");
  return Marked;
}

/// The compilation database: the parser's, or with --all and no source
/// file the one of -p, kept in \p Set.
static Error findCompilations(clang::tooling::CommonOptionsParser &Parsed,
                              SourceSet &Set) {
  if (!Parsed.getSourcePathList().empty()) {
    Set.DB = &Parsed.getCompilations();
    return Error::success();
  }
  auto &Options = cl::getRegisteredOptions();
  auto *BuildPath = Options.count("p")
                        ? static_cast<cl::opt<std::string> *>(Options["p"])
                        : nullptr;
  if (!BuildPath || BuildPath->empty())
    return makeError(ErrorKind::BadInput,
                     "--all takes the sources of a compilation database: "
                     "give -p BUILD_DIR (the folder of compile_commands.json)");
  std::string Why;
  Set.OwnDB =
      CompilationDatabase::autoDetectFromDirectory(BuildPath->getValue(), Why);
  if (!Set.OwnDB)
    return makeError(ErrorKind::BadInput,
                     "-p " + BuildPath->getValue() + ": " + Why);
  Set.DB = Set.OwnDB.get();
  return Error::success();
}

Expected<SourceSet>
optiml::sourcesToRun(clang::tooling::CommonOptionsParser &Parsed,
                     const TargetFlags &T, StringRef Action) {
  SourceSet Set;
  if (Error E = findCompilations(Parsed, Set))
    return std::move(E);
  std::vector<std::string> &Sources = Set.Sources;
  Sources = Parsed.getSourcePathList();
  if (T.AllMarked) {
    auto Marked = markedSources(*Set.DB);
    if (!Marked)
      return Marked.takeError();
    for (std::string &M : *Marked)
      if (!is_contained(Sources, M))
        Sources.push_back(std::move(M));
  }
  if (Sources.empty())
    return makeError(ErrorKind::BadInput, "no source file given");
  for (const std::string &S : Sources) {
    if (!sys::fs::exists(S))
      return makeError(ErrorKind::BadInput, S + ": no such file");
    if (sys::fs::is_directory(S))
      return makeError(ErrorKind::BadInput,
                       S + ": a folder, not a source file");
  }
  if (Sources.size() == 1)
    return std::move(Set);
  if (!Action.empty() && !takesSeveralSources(Action))
    return makeError(ErrorKind::BadInput, "--" + Action +
                                              " takes one source file, got " +
                                              Twine(Sources.size()));
  if (Action == "optimize")
    if (Error E = checkOutputFolder(Sources, T))
      return std::move(E);
  return std::move(Set);
}

std::string optiml::outputFor(StringRef Source, const TargetFlags &T,
                              size_t SourceCount) {
  if (SourceCount == 1 || T.Output.empty())
    return T.Output;
  SmallString<256> Path(T.Output);
  sys::path::append(Path, sys::path::filename(Source));
  return std::string(Path);
}

std::vector<std::string> optiml::projectNvccFlags(const CompilationDatabase &DB,
                                                  StringRef Source) {
  SmallString<256> Path(Source);
  sys::fs::make_absolute(Path);
  std::vector<clang::tooling::CompileCommand> Commands =
      DB.getCompileCommands(Path);
  if (Commands.empty())
    return {};
  return buildFlagsOf(Commands.front().CommandLine, Commands.front().Directory);
}
