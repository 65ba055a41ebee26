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

/// `tables::(anonymous namespace)::coef` as code spells it from the global
/// scope: an anonymous namespace's members are found through it.
static std::string spelledFromGlobalScope(llvm::StringRef Qualified) {
  std::string Out;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Qualified.split(Parts, "::");
  for (llvm::StringRef Part : Parts)
    if (!Part.starts_with("("))
      Out += "::" + Part.str();
  return Out;
}

/// optiml_kernel_symbol(name): the device variables the kernel reads, by
/// the name a spec gives them (as written or qualified), so the runner can
/// fill the tables a program uploads with cudaMemcpyToSymbol.
static std::string symbolLookup(const KernelInfo &Kernel) {
  std::string Out = "extern \"C\" const void *optiml_kernel_symbol(const "
                    "char *Name) {\n";
  for (const DeviceGlobal &G : Kernel.Globals) {
    std::string Address = "reinterpret_cast<const void *>(&" +
                          spelledFromGlobalScope(G.QualifiedName) + ")";
    for (const std::string &Name : {G.Element.Name, G.QualifiedName})
      Out += "  if (!__builtin_strcmp(Name, \"" + Name + "\"))\n    return " +
             Address + ";\n";
  }
  Out += "  (void)Name;\n  return nullptr;\n}\n";
  return Out;
}

/// optiml_kernel_companion(k): the other kernels of the file that the
/// spec's sequence launches, in the spec's order.
static std::string companionLookup(const KernelInfo &Kernel) {
  std::string Out = "extern \"C\" const void *optiml_kernel_companion("
                    "unsigned Index) {\n";
  for (size_t K = 0; K < Kernel.Companions.size(); ++K)
    Out += "  if (Index == " + std::to_string(K) +
           "u)\n    return reinterpret_cast<const void *>(&" +
           spelledFromGlobalScope(Kernel.Companions[K]) + ");\n";
  Out += "  (void)Index;\n  return nullptr;\n}\n";
  return Out;
}

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
  Out += symbolLookup(Kernel);
  // Only where a sequence needs it: other launchers stay byte for byte
  // what they were, and so do their build cache keys.
  if (!Kernel.Companions.empty())
    Out += companionLookup(Kernel);
  return Out;
}
