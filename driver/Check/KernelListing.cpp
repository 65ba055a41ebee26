//===- KernelListing.cpp - print a kernel inventory ----------------------===//

#include "driver/Check/KernelListing.h"

#include "llvm/ADT/StringExtras.h"

using namespace optiml;

static std::string paramText(const ParamInfo &P) {
  std::string T = P.Type;
  if (!T.empty() && T.back() != '*' && T.back() != '&')
    T += " ";
  return T + P.Name;
}

static void printLaunch(const LaunchSite &L, llvm::raw_ostream &OS) {
  OS << "    " << L.Pos.str() << " in " << (L.Caller.empty() ? "?" : L.Caller)
     << ": " << L.Callee << "<<<" << L.Grid << ", " << L.Block;
  if (!L.SharedMemory.empty() || !L.Stream.empty())
    OS << ", " << (L.SharedMemory.empty() ? "0" : L.SharedMemory);
  if (!L.Stream.empty())
    OS << ", " << L.Stream;
  OS << ">>>\n";
}

static void printKernel(const KernelInfo &K, llvm::raw_ostream &OS) {
  OS << "kernel " << K.QualifiedName << " (" << K.Pos.str() << ")\n";
  if (K.isTemplate()) {
    OS << "  template <" << llvm::join(K.TemplateParameters, ", ") << ">\n";
    for (const Instantiation &I : K.Instantiations)
      OS << "    instantiation " << K.Name << I.Arguments << " (" << I.Kind
         << ")\n";
  }
  if (K.Bounds)
    OS << "  __launch_bounds__(" << K.Bounds->MaxThreads
       << (K.Bounds->MinBlocks.empty() ? "" : ", " + K.Bounds->MinBlocks)
       << ")\n";
  OS << "  params:";
  if (K.Params.empty())
    OS << " (none)";
  for (const ParamInfo &P : K.Params)
    OS << "\n    " << paramText(P);
  OS << "\n";
  if (K.Mark)
    OS << "  mark: #pragma optiml " << K.Mark->Clauses << " (line "
       << K.Mark->Pos.Line << ")\n";
  else
    OS << "  mark: none\n";
  OS << "  loops:" << (K.Loops.empty() ? " none" : "") << "\n";
  for (const LoopSite &L : K.Loops)
    OS << "    " << L.Site << "  line " << L.Pos.Line << ": " << L.Header
       << "\n";
  OS << "  launch sites:" << (K.Launches.empty() ? " none" : "") << "\n";
  for (const LaunchSite &L : K.Launches)
    printLaunch(L, OS);
  if (K.AddressTaken)
    OS << "  address taken: yes (launch geometry cannot be rewritten)\n";
}

void optiml::printKernelListing(const KernelInventory &Inv,
                                const std::vector<const KernelInfo *> &Selected,
                                llvm::raw_ostream &OS) {
  OS << Inv.File << ": " << Selected.size() << " kernel"
     << (Selected.size() == 1 ? "" : "s") << "\n";
  for (const KernelInfo *K : Selected) {
    OS << "\n";
    printKernel(*K, OS);
  }
}
