//===- Driver.h - what every action of clang-optiml shares ----*- C++ -*-===//
//
// The command-line tool parses options and calls one action; each action
// is a class of its own (CheckActions, EvaluateAction, OptimizeAction,
// ProposeAction, FromPromptAction, CacheActions) built on this one: the
// tool's path, the compilation database, the CUDA toolchain, the output
// and error streams, and how a file's kernels, a chosen kernel and its spec
// are loaded. Actions return llvm::Error so that the tool alone decides how
// errors are printed and which exit code they get.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_DRIVER_H
#define OPTIML_DRIVER_DRIVER_H

#include "optiml/DB/Database.h"
#include "optiml/Frontend/CudaToolchain.h"
#include "optiml/IR/KernelInfo.h"
#include "optiml/IR/KernelSource.h"
#include "optiml/Spec/KernelSpec.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace optiml {

enum class OutputFormat { Text, JSON };

/// The database at \p Path, or at Database::defaultPath() when empty.
llvm::Expected<Database> openDatabaseAt(llvm::StringRef Path);

class Driver {
public:
  Driver(const char *ToolPath, const clang::tooling::CompilationDatabase &DB,
         CudaToolchain Toolchain, llvm::raw_ostream &Out,
         llvm::raw_ostream &Err)
      : ToolPath(ToolPath), DB(DB), Toolchain(std::move(Toolchain)), Out(Out),
        Err(Err) {}

  /// The kernels of \p File that have a spec, in the file's order; a spec
  /// that does not load is an error.
  llvm::Expected<std::vector<std::string>>
  specifiedKernels(llvm::StringRef File, llvm::StringRef SpecPath);

protected:
  /// What --evaluate and --optimize work on: the file's inventory, the
  /// chosen kernel, its spec and its source.
  struct Target {
    KernelInventory Inventory;
    size_t Index;
    KernelSpec Spec;
    KernelSource Source;
    const KernelInfo &kernel() const { return Inventory.Kernels[Index]; }
  };
  llvm::Expected<Target> loadTarget(llvm::StringRef File,
                                    llvm::StringRef Kernel,
                                    llvm::StringRef SpecPath,
                                    llvm::StringRef StartText = "");

  llvm::Expected<KernelInventory> inventoryOf(llvm::StringRef File);
  llvm::Expected<KernelInventory> inventoryOfText(const KernelSource &Source);
  /// The spec errors of \p Kernels as warnings ("file:l:c: warning: ..."),
  /// also printed on the error stream: a listing shows a mark that does
  /// not check instead of accepting it silently.
  std::vector<std::string>
  specWarnings(const std::vector<const KernelInfo *> &Kernels,
               llvm::StringRef File);
  llvm::Expected<const KernelInfo *> selectOne(const KernelInventory &Inv,
                                               llvm::StringRef Kernel);
  llvm::Expected<std::vector<const KernelInfo *>>
  select(const KernelInventory &Inv, llvm::StringRef Kernel);
  /// The kernels of \p File to handle one by one (evaluateEach,
  /// optimizeEach): none when \p Kernel names one or the file has at most
  /// one spec (the single-kernel action decides, with its own errors).
  llvm::Expected<std::vector<std::string>>
  kernelsToRun(llvm::StringRef File, llvm::StringRef Kernel,
               llvm::StringRef SpecPath);

  const char *ToolPath;
  const clang::tooling::CompilationDatabase &DB;
  CudaToolchain Toolchain;
  llvm::raw_ostream &Out;
  llvm::raw_ostream &Err;
};

} // namespace optiml

#endif // OPTIML_DRIVER_DRIVER_H
