//===- LauncherGenerator.cpp - the C-ABI entry of a candidate ------------===//

#include "optiml/Eval/LauncherGenerator.h"
#include "optiml/Support/Error.h"

#include "llvm/Support/FormatVariadic.h"

using namespace optiml;

// Appended to the candidate's own text: the kernel's address and name,
// nothing else. The launch, timing and checks are the runner's code, in a
// translation unit the candidate cannot reach.
static const char EntryTemplate[] = R"cu(
#undef main
// ---- OptiML entry (generated): the kernel the runner launches ----
extern "C" const void *optiml_kernel_entry(void) {{
  return reinterpret_cast<const void *>(&{0});
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
      llvm::formatv(EntryTemplate,
                    "::" + Kernel.QualifiedName + Kernel.Specialization,
                    Kernel.Name)
          .str();
  return Out;
}
