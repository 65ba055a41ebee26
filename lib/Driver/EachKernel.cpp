//===- EachKernel.cpp - --evaluate and --optimize over a file's kernels --===//
//
// A file with several marked kernels is handled like run-clang-tidy handles
// a project: each kernel in turn, a report each, one summary at the end.
// --optimize chains them: each search starts from the file as the searches
// before it left it, so that -o ends with every kernel's best version.
//
//===----------------------------------------------------------------------===//

#include "optiml/Driver/Driver.h"
#include "optiml/Driver/OptimizeSearch.h"
#include "optiml/IR/KernelSource.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Interrupt.h"

#include "llvm/ADT/StringExtras.h"

using namespace optiml;

/// The kernels to handle one by one: none when \p Kernel names one or the
/// file has at most one spec (the single-kernel action decides, with its
/// own errors).
static llvm::Expected<std::vector<std::string>>
kernelsToRun(Driver &D, llvm::StringRef File, llvm::StringRef Kernel,
             llvm::StringRef SpecPath) {
  if (!Kernel.empty())
    return std::vector<std::string>();
  auto Names = D.specifiedKernels(File, SpecPath);
  if (!Names)
    return Names.takeError();
  if (Names->size() < 2)
    Names->clear();
  return Names;
}

/// A kernel's name as part of a file name ("ns::k" -> "ns_k").
static std::string fileNamePart(llvm::StringRef Kernel) {
  std::string Out;
  for (char C : Kernel)
    Out += llvm::isAlnum(C) || C == '_' || C == '-' ? C : '_';
  return Out;
}

llvm::Expected<int> Driver::evaluateEach(llvm::StringRef File,
                                         const EvaluateOptions &Options,
                                         OutputFormat Format) {
  auto Names = kernelsToRun(*this, File, Options.Kernel, Options.SpecPath);
  if (!Names)
    return Names.takeError();
  if (Names->empty())
    return evaluate(File, Options, Format);
  int Code = ExitOK;
  std::vector<std::string> Rejected;
  for (const std::string &Name : *Names) {
    Err << "clang-optiml: evaluating " << Name << " (" << File << ")\n";
    EvaluateOptions One = Options;
    One.Kernel = Name;
    auto C = evaluate(File, One, Format);
    if (!C)
      return C.takeError();
    if (*C != ExitOK)
      Rejected.push_back(Name);
    Code = worseExitCode(Code, *C);
  }
  Err << "clang-optiml: " << File << ": " << Names->size() << " kernels, "
      << Names->size() - Rejected.size()
      << (Options.BuildOnly ? " built" : " accepted");
  if (!Rejected.empty())
    Err << "; " << (Options.BuildOnly ? "not built: " : "rejected: ")
        << llvm::join(Rejected, ", ");
  Err << "\n";
  return Code;
}

llvm::Expected<int> Driver::optimizeEach(llvm::StringRef File,
                                         const OptimizeOptions &Options) {
  auto Names = kernelsToRun(*this, File, Options.Kernel, Options.SpecPath);
  if (!Names)
    return Names.takeError();
  if (Names->empty())
    return optimize(File, Options);
  std::string Prefix = reportPrefix(Options);
  int Code = ExitOK;
  std::string Text;
  size_t I = 0;
  for (; I < Names->size() && Code != ExitInterrupted; ++I) {
    const std::string &Name = (*Names)[I];
    Err << "clang-optiml: optimizing " << Name << " (" << I + 1 << " of "
        << Names->size() << " kernels of " << File << ")\n";
    OptimizeOptions One = Options;
    One.Kernel = Name;
    One.StartText = Text;
    One.ReportPrefix = Prefix + "." + fileNamePart(Name);
    auto C = optimize(File, One);
    if (!C)
      return C.takeError();
    Code = worseExitCode(Code, *C);
    // -o holds the file with this kernel's best version: the next search
    // starts there.
    auto Written = KernelSource::fromFile(Options.OutputPath);
    if (!Written)
      return Written.takeError();
    Text = Written->text().str();
  }
  Err << "clang-optiml: " << File << ": " << I << " of " << Names->size()
      << " kernels optimized in turn; " << Options.OutputPath
      << " has each one's best version, the reports are " << Prefix
      << ".<kernel>.md\n";
  return Code;
}
