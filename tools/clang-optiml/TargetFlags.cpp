//===- TargetFlags.cpp - the options every kernel action shares ----------===//
//
// The kernel, its spec, the GPU, the toolkit, the flags and where results
// go: declared once here, read by every action through TargetFlags.
//
//===----------------------------------------------------------------------===//

#include "Flags.h"

using namespace optiml;
using namespace llvm;

cl::OptionCategory &optiml::optimlCategory() {
  static cl::OptionCategory Category("clang-optiml options");
  return Category;
}

cl::OptionCategory &optiml::commonHeading() {
  static cl::OptionCategory Heading(
      "Common options",
      "Each goes with the actions named in brackets (every action when none "
      "are).");
  return Heading;
}

static cl::opt<std::string>
    OutputFile("o",
               cl::desc("Where the result goes, never the input file: "
                        "--apply's and --use-cache's rewritten file "
                        "(default: stdout), --optimize's and --from-prompt's "
                        "kernel (required), --propose's folder for the "
                        "accepted edits and proposals.json"),
               cl::value_desc("file.cu"), cl::cat(optimlCategory()));
static cl::opt<std::string>
    SpecFile("spec",
             cl::desc("Kernel spec (JSON); default: the #pragma optiml mark "
                      "and <file>.optiml.json"),
             cl::value_desc("file.json"), cl::cat(optimlCategory()));
static cl::opt<unsigned> RunTimeout("timeout",
                                    cl::desc("Seconds before the runner is "
                                             "killed (default 300)"),
                                    cl::init(300), cl::cat(optimlCategory()));
static cl::opt<double>
    NoiseTarget("noise-target",
                cl::desc("Relative spread of the median at "
                         "which timing stops (default 0.01)"),
                cl::init(0.01), cl::cat(optimlCategory()));
static cl::list<std::string>
    NvccFlags("Xnvcc", cl::desc("Pass a flag to nvcc when building candidates"),
              cl::value_desc("flag"), cl::cat(optimlCategory()));
static cl::opt<std::string>
    KernelName("kernel", cl::desc("Select one kernel by (qualified) name"),
               cl::value_desc("name"), cl::cat(optimlCategory()));
static cl::opt<OutputFormat> Format(
    "format", cl::desc("Output format"),
    cl::values(clEnumValN(OutputFormat::Text, "text", "for people (default)"),
               clEnumValN(OutputFormat::JSON, "json", "for tools")),
    cl::init(OutputFormat::Text), cl::cat(optimlCategory()));
static cl::opt<std::string>
    GpuArch("arch", cl::desc("GPU architecture to parse for (default sm_90)"),
            cl::value_desc("sm_NN"), cl::cat(optimlCategory()));
static cl::opt<std::string>
    CudaPath("cuda-path",
             cl::desc("CUDA toolkit root (default: $CUDA_PATH, the one found "
                      "at build time, /usr/local/cuda)"),
             cl::value_desc("dir"), cl::cat(optimlCategory()));
static cl::opt<std::string>
    DbPath("db",
           cl::desc("The database of measurements, LLM calls and results "
                    "(default: <cache>/search.sqlite)"),
           cl::value_desc("file.sqlite"), cl::cat(optimlCategory()));
static cl::opt<bool> AllMarked(
    "all",
    cl::desc("Every source of the compilation database (-p) with a marked "
             "kernel, in turn (--optimize: -o names a folder)"),
    cl::cat(optimlCategory()));

TargetFlags optiml::targetFlags(std::vector<std::string> ProjectNvccFlags) {
  TargetFlags T;
  T.Kernel = KernelName;
  T.SpecPath = SpecFile;
  T.Arch = GpuArch;
  T.CudaPath = CudaPath;
  T.NvccFlags = std::move(ProjectNvccFlags);
  T.NvccFlags.insert(T.NvccFlags.end(), NvccFlags.begin(), NvccFlags.end());
  T.Output = OutputFile;
  T.DbPath = DbPath;
  T.Format = Format;
  T.AllMarked = AllMarked;
  T.NoiseTarget = NoiseTarget;
  T.TimeoutSeconds = RunTimeout;
  return T;
}

Error optiml::checkTargetFlags() {
  // The runner refuses a target of 0 or less, but only on the GPU machine,
  // after every build; 1 or more would call any speedup below 2x noise.
  if (NoiseTarget.getNumOccurrences() && !(NoiseTarget > 0 && NoiseTarget < 1))
    return makeError(ErrorKind::BadInput,
                     "--noise-target is a relative spread: give a fraction "
                     "above 0 and below 1 (0.01 is 1%)");
  if (RunTimeout.getNumOccurrences() && RunTimeout == 0)
    return makeError(ErrorKind::BadInput,
                     "--timeout=0 would kill every run: give 1 second or "
                     "more");
  return Error::success();
}

std::vector<OptionTable::Row> optiml::targetRows() {
  static const OptionGroup Common{commonHeading(), {}};
  static const std::vector<StringRef> SourceActions = {
      "check",    "list-kernels", "list-sites", "apply",      "evaluate",
      "optimize", "propose",      "use-cache",  "from-prompt"};
  static const std::vector<StringRef> Builders = {
      "evaluate", "optimize", "propose", "from-prompt", "use-cache"};
  static const std::vector<StringRef> Measurers = {"evaluate", "optimize",
                                                   "from-prompt"};
  return {
      {OutputFile,
       Common,
       {"apply", "optimize", "propose", "from-prompt", "use-cache"}},
      {KernelName,
       Common,
       {"check", "list-kernels", "list-sites", "evaluate", "optimize",
        "propose"}},
      {SpecFile,
       Common,
       {"check", "evaluate", "optimize", "propose", "use-cache"}},
      {Format,
       Common,
       {"check", "list-kernels", "list-transforms", "list-sites", "evaluate",
        "propose"},
       [] { return Format == OutputFormat::JSON; }},
      {AllMarked,
       Common,
       {"check", "list-kernels", "list-sites", "evaluate", "optimize"}},
      {GpuArch, Common, SourceActions},
      {CudaPath, Common, SourceActions},
      {NvccFlags, Common, Builders},
      {DbPath,
       Common,
       {"optimize", "propose", "use-cache", "from-prompt", "import-cache",
        "export-cache"}},
      {RunTimeout, Common, Measurers},
      {NoiseTarget, Common, Measurers},
  };
}
