//===- CommandLine.cpp - reading the command line ------------------------===//

#include "CommandLine.h"

#include "OptimlVersion.inc"

#include "optiml/Frontend/CudaToolchain.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/WithColor.h"

#include <unistd.h>

using namespace optiml;
using namespace llvm;

const char optiml::Overview[] =
    "clang-optiml: verified, profile-guided optimization of CUDA kernels.\n\n"
    "Without a compilation database (-p, or compile_commands.json above the\n"
    "source) a .cu file is parsed as CUDA for --arch with the toolkit's\n"
    "headers; add compiler flags after --.\n";

/// The end of --help.
static const char ExitCodesAndExamples[] = R"(
EXIT CODES:
  0   done (--evaluate: the candidate was accepted)
  1   bad input: a missing or unparsable file, an unknown kernel, a bad or
      misplaced option, a spec that does not check
  2   a transform step is illegal or not applicable (--apply)
  3   a GPU is needed and none is usable
  4   --evaluate: the candidate was rejected (wrong, faulting or hanging);
      --from-prompt: the reference was not trusted (no two strategies'
      kernels agreed with it), so no kernel was written
  70  an internal error (a bug in OptiML: please report it)
  130 --optimize was interrupted (Ctrl-C, SIGTERM); the best verified kernel
      so far and the reports were written (interrupt twice to quit at once)

EXAMPLES:
  clang-optiml saxpy.cu --list-sites --kernel=saxpy
  clang-optiml saxpy.cu --apply='unroll(site=saxpy/for#0,factor=4)' -o out.cu
  clang-optiml saxpy.cu --optimize --budget=32 --exclude=fast-math -o opt.cu
)";

int optiml::fail(Error E) {
  ErrorSummary S = summarize(std::move(E));
  if (Regex("^[^ ]+:[0-9]+:[0-9]+: error: ").match(S.Message))
    errs() << S.Message << "\n";
  else
    WithColor::error(errs(), "clang-optiml") << S.Message << "\n";
  return exitCodeFor(S.Kind);
}

static std::string shellQuoted(StringRef Arg) {
  if (!Arg.empty() && Arg.find_first_not_of(
                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                          "0123456789-_=./:,+@%") == StringRef::npos)
    return Arg.str();
  std::string Out = "'";
  for (char C : Arg)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

std::string optiml::commandLineOf(int Argc, const char **Argv) {
  std::string Line;
  for (int I = 0; I < Argc; ++I)
    Line += (I ? " " : "") + shellQuoted(Argv[I]);
  return Line;
}

/// The toolkit's version from the CUDA_VERSION its cuda.h defines (13000
/// is "13.0"), or "of unknown version".
static std::string cudaVersion(StringRef CudaPath) {
  auto Header = MemoryBuffer::getFile(CudaPath + "/include/cuda.h");
  SmallVector<StringRef, 2> Match;
  if (!Header || !Regex("#define CUDA_VERSION ([0-9]+)")
                      .match((*Header)->getBuffer(), &Match))
    return "of unknown version";
  unsigned V = 0;
  Match[1].getAsInteger(10, V);
  return std::to_string(V / 1000) + "." + std::to_string(V % 1000 / 10);
}

/// The program's path, for --version's toolkit search.
static const char *ProgramPath = "clang-optiml";

static void printVersion(raw_ostream &OS) {
  CudaToolchain T =
      CudaToolchain::detect(ProgramPath, targetFlags().CudaPath, "");
  OS << "OptiML " << OPTIML_VERSION << " (git " << OPTIML_GIT_HASH << ")\n"
     << "  LLVM/Clang " << LLVM_VERSION_STRING << "\n"
     << "  CUDA " << cudaVersion(T.CudaPath) << " at " << T.CudaPath << "\n";
}

void optiml::setVersionPrinter(const char *Argv0) {
  ProgramPath = Argv0;
  cl::SetVersionPrinter(printVersion);
}

/// \p Arg is an option whose value is the next argument (`-o out.cu`), so
/// that argument is not a source file.
static bool takesValue(StringRef Arg) {
  if (!Arg.starts_with("-") || Arg.contains('='))
    return false;
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find(Arg.ltrim('-'));
  return It != Options.end() &&
         It->second->getValueExpectedFlag() == cl::ValueRequired;
}

std::vector<const char *> optiml::withQuietDefaultDatabase(int Argc,
                                                           const char **Argv) {
  std::vector<const char *> Args(Argv, Argv + Argc);
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--" || A == "-p" || A.starts_with("-p=") || A == "--p" ||
        A.starts_with("--p="))
      return Args;
  }
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A.starts_with("-") || takesValue(Argv[I - 1]) ||
        !sys::fs::is_regular_file(A))
      continue;
    std::string Ignored;
    if (clang::tooling::CompilationDatabase::autoDetectFromSource(A, Ignored))
      return Args;
  }
  Args.push_back("--");
  return Args;
}

bool optiml::wantsTransformListOnly(int Argc, const char **Argv) {
  bool List = false;
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--")
      break;
    if (A == "--list-transforms" || A == "-list-transforms")
      List = true;
    else if (!A.starts_with("-"))
      return false; // A source file: the usual path handles it.
  }
  return List;
}

bool optiml::wantsCacheFilesOnly(int Argc, const char **Argv) {
  bool CacheFile = false;
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--")
      break;
    if (A.contains("-import-cache") || A.contains("-export-cache"))
      CacheFile = true;
    else if (!A.starts_with("-") && !takesValue(Argv[I - 1]))
      return false; // A source file.
  }
  return CacheFile;
}

bool optiml::wantsFromPrompt(int Argc, const char **Argv) {
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--")
      break;
    if (A.ltrim('-').starts_with("from-prompt"))
      return true;
  }
  return false;
}

bool optiml::wantsHelp(int Argc, const char **Argv) {
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--")
      break;
    StringRef Name = A.ltrim('-');
    if (A.starts_with("-") && (Name == "h" || Name.starts_with("help")))
      return true;
  }
  return false;
}

bool optiml::hasFlag(int Argc, const char **Argv, StringRef Name) {
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--")
      break;
    if (A.starts_with("-") && A.ltrim('-') == Name)
      return true;
  }
  return false;
}

/// CommonOptionsParser registers -p, --extra-arg and the source list at its
/// first parse, which a parse of no argument at all does without needing a
/// file; LLVM prints the help while parsing, then exits.
int optiml::printHelp(int Argc, const char **Argv) {
  int Bare = 1;
  auto Registered = clang::tooling::CommonOptionsParser::create(
      Bare, Argv, optimlCategory(), cl::ZeroOrMore, Overview);
  if (!Registered)
    return fail(
        makeError(ErrorKind::Internal, toString(Registered.takeError())));
  optionTable().groupForHelp(optimlCategory(), commonHeading());
  // Added after that parse, which forgets the extra help it was given.
  static cl::extrahelp More(ExitCodesAndExamples);
  if (!cl::ParseCommandLineOptions(Argc, Argv, Overview, &errs()))
    return ExitBadInput;
  return ExitOK; // Not reached: printing the help exits.
}

/// LLVM's command-line errors as one line: each of its lines starts with
/// the program's name, which fail() writes once already.
static std::string oneLine(StringRef Message, StringRef Program) {
  SmallVector<StringRef, 4> Lines;
  Message.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Kept;
  for (StringRef L : Lines) {
    L = L.trim();
    for (StringRef Name : {Program, sys::path::filename(Program)})
      if (L.consume_front((Name + ": ").str()))
        break;
    if (!L.empty())
      Kept.push_back(L.str());
  }
  return join(Kept, " ");
}

/// Runs \p Parse with file descriptor 2 sent to a temporary file and
/// returns what was written there: LLVM's parser prints a bad value of an
/// option with named values (`--format=xml`) to stderr itself, where the
/// one-line error could not include it.
static std::string capturingStderr(function_ref<void()> Parse) {
  errs().flush();
  SmallString<64> Path;
  int FD = -1;
  int Saved = ::dup(2);
  if (Saved < 0 ||
      sys::fs::createTemporaryFile("optiml-options", "txt", FD, Path)) {
    if (Saved >= 0)
      ::close(Saved);
    Parse();
    return "";
  }
  // Unlinked at once: --version exits inside the parse, and leaves nothing.
  sys::fs::remove(Path);
  ::dup2(FD, 2);
  Parse();
  errs().flush();
  ::dup2(Saved, 2);
  ::close(Saved);
  std::string Written;
  char Chunk[4096];
  ::lseek(FD, 0, SEEK_SET);
  for (ssize_t N; (N = ::read(FD, Chunk, sizeof Chunk)) > 0;)
    Written.append(Chunk, static_cast<size_t>(N));
  ::close(FD);
  return Written;
}

Expected<clang::tooling::CommonOptionsParser>
optiml::parseWithSources(int Argc, const char **Args, bool AllMarked) {
  std::optional<Expected<clang::tooling::CommonOptionsParser>> Parser;
  std::string Printed = capturingStderr([&] {
    Parser.emplace(clang::tooling::CommonOptionsParser::create(
        Argc, Args, optimlCategory(),
        AllMarked ? cl::ZeroOrMore : cl::OneOrMore, Overview));
  });
  if (!*Parser)
    return makeError(
        ErrorKind::BadInput,
        oneLine(Printed + "\n" + toString(Parser->takeError()), Args[0]));
  errs() << Printed;
  return std::move(*Parser);
}
