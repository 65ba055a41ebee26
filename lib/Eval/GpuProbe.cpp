//===- GpuProbe.cpp - is there a GPU, and which --------------------------===//

#include "optiml/Eval/GpuProbe.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Subprocess.h"

#include "llvm/ADT/StringExtras.h"

using namespace optiml;

llvm::Expected<GpuInfo> optiml::probeGpu() {
  std::string Smi = findProgram("nvidia-smi");
  if (Smi.empty())
    return makeError(ErrorKind::NoGPU,
                     "no CUDA GPU found: nvidia-smi is not installed; "
                     "evaluation needs a machine with an NVIDIA GPU");
  auto Run = runSubprocess(
      Smi, {Smi, "--query-gpu=name,compute_cap", "--format=csv,noheader"}, 30);
  if (!Run)
    return Run.takeError();
  llvm::StringRef First = llvm::StringRef(Run->Output).split('\n').first.trim();
  auto [Name, Cap] = First.rsplit(',');
  if (!Run->succeeded() || Cap.trim().empty())
    return makeError(ErrorKind::NoGPU,
                     "no CUDA GPU found: nvidia-smi says: " +
                         (First.empty() ? llvm::StringRef("nothing") : First));
  GpuInfo Info;
  Info.Name = Name.trim().str();
  std::string Digits;
  for (char C : Cap.trim())
    if (llvm::isDigit(C))
      Digits.push_back(C);
  Info.Arch = "sm_" + Digits;
  return Info;
}
