//===- LauncherGenerator.cpp - the C-ABI entry of a candidate ------------===//

#include "optiml/Eval/LauncherGenerator.h"
#include "optiml/Support/Error.h"

#include "llvm/Support/FormatVariadic.h"

using namespace optiml;

static const char LauncherTemplate[] = R"cu(
#undef main
// ---- OptiML launcher (generated): the C ABI the runner calls ----
#include <cuda_runtime.h>

extern "C" int optiml_launch(const unsigned grid[3], const unsigned block[3],
                             unsigned shmem, cudaStream_t stream,
                             void **args) {{
  const void *kernel = reinterpret_cast<const void *>(&{0});
  if (shmem > 48u * 1024u) {{
    cudaError_t err = cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shmem);
    if (err != cudaSuccess)
      return (int)err;
  }
  cudaError_t err = cudaLaunchKernel(kernel, dim3(grid[0], grid[1], grid[2]),
                                     dim3(block[0], block[1], block[2]), args,
                                     shmem, stream);
  if (err != cudaSuccess)
    return (int)err;
  return (int)cudaGetLastError();
}

extern "C" const char *optiml_kernel_name(void) {{ return "{1}"; }
)cu";

llvm::Expected<std::string> optiml::generateLauncher(const KernelSource &Source,
                                                     const KernelInfo &Kernel) {
  if (Kernel.isTemplate() && Kernel.Specialization.empty())
    return makeError(ErrorKind::BadInput,
                     "kernel '" + Kernel.QualifiedName +
                         "' is a template; give its arguments in its spec, "
                         "e.g. template(T = float)");
  std::string Out;
  // The user's program keeps its main, renamed; the #line keeps compiler
  // messages pointing into the user's file.
  Out += "#define main optiml_user_main_\n";
  Out += "#line 1 \"" + Source.path().str() + "\"\n";
  Out += Source.text().str();
  if (!Source.text().ends_with("\n"))
    Out += "\n";
  Out +=
      llvm::formatv(LauncherTemplate,
                    "::" + Kernel.QualifiedName + Kernel.Specialization,
                    Kernel.Name)
          .str();
  return Out;
}
