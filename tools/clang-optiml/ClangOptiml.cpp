//===- ClangOptiml.cpp - the clang-optiml command-line tool --------------===//
//
// Thin on purpose: parses options the way every clang tool does, picks the
// action and maps errors to one line on stderr and a distinct exit code.
//
//===----------------------------------------------------------------------===//

#include "optiml/Driver/Driver.h"
#include "optiml/Support/Error.h"

#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"

using namespace optiml;
using namespace llvm;

static cl::OptionCategory OptimlCategory("clang-optiml options");

static cl::opt<bool> ListKernels("list-kernels",
                                 cl::desc("List the kernels defined in the file"),
                                 cl::cat(OptimlCategory));
static cl::opt<std::string>
    KernelName("kernel", cl::desc("Select one kernel by (qualified) name"),
               cl::value_desc("name"), cl::cat(OptimlCategory));
static cl::opt<OutputFormat> Format(
    "format", cl::desc("Output format"),
    cl::values(clEnumValN(OutputFormat::Text, "text", "for people (default)"),
               clEnumValN(OutputFormat::JSON, "json", "for tools")),
    cl::init(OutputFormat::Text), cl::cat(OptimlCategory));
static cl::opt<std::string>
    GpuArch("arch", cl::desc("GPU architecture to parse for (default sm_90)"),
            cl::value_desc("sm_NN"), cl::cat(OptimlCategory));
static cl::opt<std::string>
    CudaPath("cuda-path",
             cl::desc("CUDA toolkit root (default: $CUDA_PATH, the one found "
                      "at build time, /usr/local/cuda)"),
             cl::value_desc("dir"), cl::cat(OptimlCategory));

static const char Overview[] =
    "clang-optiml: verified, profile-guided optimization of CUDA kernels.\n\n"
    "Without a compilation database (-p, or compile_commands.json above the\n"
    "source) a .cu file is parsed as CUDA for --arch with the toolkit's\n"
    "headers; add compiler flags after --.\n";

static int fail(Error E) {
  ErrorSummary S = summarize(std::move(E));
  WithColor::error(errs(), "clang-optiml") << S.Message << "\n";
  return exitCodeFor(S.Kind);
}

/// Without "--" or -p, and with no compile_commands.json to find above the
/// source, CommonOptionsParser would print a warning and run without flags;
/// an empty "--" gives the same database quietly, and our CUDA defaults fill
/// it in.
static std::vector<const char *> withQuietDefaultDatabase(int Argc,
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
    if (A.starts_with("-") || !sys::fs::is_regular_file(A))
      continue;
    std::string Ignored;
    if (clang::tooling::CompilationDatabase::autoDetectFromSource(A, Ignored))
      return Args;
  }
  Args.push_back("--");
  return Args;
}

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  std::vector<const char *> Args = withQuietDefaultDatabase(Argc, Argv);
  int ArgCount = static_cast<int>(Args.size());
  auto Parser = clang::tooling::CommonOptionsParser::create(
      ArgCount, Args.data(), OptimlCategory, cl::OneOrMore, Overview);
  if (!Parser)
    return fail(makeError(ErrorKind::BadInput, toString(Parser.takeError())));

  const auto &Sources = Parser->getSourcePathList();
  if (Sources.size() != 1)
    return fail(makeError(ErrorKind::BadInput,
                          "expected exactly one source file, got " +
                              Twine(Sources.size())));
  if (!sys::fs::exists(Sources[0]))
    return fail(makeError(ErrorKind::BadInput, Sources[0] + ": no such file"));

  CudaToolchain Toolchain = CudaToolchain::detect(Argv[0], CudaPath, GpuArch);
  Driver D(Parser->getCompilations(), Toolchain, outs(), errs());
  if (ListKernels) {
    if (Error E = D.listKernels(Sources[0], KernelName, Format))
      return fail(std::move(E));
    return ExitOK;
  }
  return fail(makeError(ErrorKind::BadInput,
                        "nothing to do: pass --list-kernels (see --help)"));
}
