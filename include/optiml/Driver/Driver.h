//===- Driver.h - the actions of clang-optiml -----------------*- C++ -*-===//
//
// The command-line tool parses options and calls one action here; actions
// return llvm::Error so that the tool alone decides how errors are printed
// and which exit code they get.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_DRIVER_H
#define OPTIML_DRIVER_DRIVER_H

#include "optiml/Frontend/CudaToolchain.h"
#include "optiml/IR/KernelInfo.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace optiml {

enum class OutputFormat { Text, JSON };

class Driver {
public:
  Driver(const clang::tooling::CompilationDatabase &DB, CudaToolchain Toolchain,
         llvm::raw_ostream &Out, llvm::raw_ostream &Err)
      : DB(DB), Toolchain(std::move(Toolchain)), Out(Out), Err(Err) {}

  /// Parses \p File and lists its kernels; \p Kernel, when not empty,
  /// selects one. A file without kernels or an unknown kernel is BadInput.
  llvm::Error listKernels(llvm::StringRef File, llvm::StringRef Kernel,
                          OutputFormat Format);

private:
  llvm::Expected<KernelInventory> inventoryOf(llvm::StringRef File);
  llvm::Expected<std::vector<const KernelInfo *>>
  select(const KernelInventory &Inv, llvm::StringRef Kernel);

  const clang::tooling::CompilationDatabase &DB;
  CudaToolchain Toolchain;
  llvm::raw_ostream &Out;
  llvm::raw_ostream &Err;
};

} // namespace optiml

#endif // OPTIML_DRIVER_DRIVER_H
