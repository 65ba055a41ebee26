//===- ResultCache.cpp - keys and choices of the results cache ------------===//

#include "driver/Cache/ResultCache.h"
#include "optiml/Eval/RunPlan.h"
#include "optiml/Protocol/JsonFields.h"
#include "optiml/Rewrite/KernelDefinition.h"
#include "optiml/Search/Trace.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/JsonText.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

#include <tuple>

using namespace optiml;

llvm::Expected<std::string>
optiml::kernelDefinitionText(ParsedSource &Parsed, llvm::StringRef Kernel) {
  return kernelDefinitionText(Parsed.context(), Parsed.source().text(),
                              Parsed.source().path(), Kernel);
}

llvm::Expected<std::string>
optiml::kernelDefinitionText(clang::ASTContext &Ctx, llvm::StringRef Text,
                             llvm::StringRef Path, llvm::StringRef Kernel) {
  auto Def = KernelDefinition::find(Ctx, Kernel);
  if (!Def)
    return makeError(ErrorKind::Internal,
                     "no definition of kernel '" + Kernel + "' in " + Path);
  unsigned Begin = Def->insertionPoint();
  if (Begin > Def->End || Def->End > Text.size())
    return makeError(ErrorKind::Internal,
                     "kernel '" + Kernel + "' lies outside its file");
  return Text.slice(Begin, Def->End).str();
}

llvm::Expected<std::string> optiml::specHash(const KernelSpec &Spec,
                                             const KernelInfo &Kernel) {
  KernelInfo Specialized = Kernel;
  Specialized.Specialization = Spec.specialization();
  auto Instances = Spec.instantiate(Specialized);
  if (!Instances)
    return Instances.takeError();
  // Default measurement options: the key is the problem, not how long the
  // search timed it.
  auto Plan = makeRunPlan(Spec, *Instances, "", "", MeasureOptions());
  if (!Plan)
    return Plan.takeError();
  return KernelSource("", jsonText(protocol::Json(*Plan), -1)).hash().str();
}

std::string optiml::flagsKey(llvm::ArrayRef<std::string> NvccFlags) {
  return llvm::join(NvccFlags, " ");
}

llvm::StringRef optiml::toolVersion() { return OPTIML_VERSION; }

std::string optiml::cudaRelease(llvm::StringRef NvccRelease) {
  llvm::SmallVector<llvm::StringRef, 2> Match;
  if (llvm::Regex("release ([0-9]+(\\.[0-9]+)*)").match(NvccRelease, &Match))
    return Match[1].str();
  return NvccRelease.trim().str();
}

llvm::Expected<CacheKey>
optiml::cacheKeyOf(ParsedSource &Parsed, const KernelInfo &Kernel,
                   llvm::StringRef File, llvm::StringRef SpecPath,
                   llvm::StringRef Arch,
                   llvm::ArrayRef<std::string> NvccFlags) {
  return cacheKeyOf(Parsed.context(), Parsed.source().text(), Kernel, File,
                    SpecPath, Arch, NvccFlags);
}

llvm::Expected<CacheKey>
optiml::cacheKeyOf(clang::ASTContext &Ctx, llvm::StringRef Source,
                   const KernelInfo &Kernel, llvm::StringRef File,
                   llvm::StringRef SpecPath, llvm::StringRef Arch,
                   llvm::ArrayRef<std::string> NvccFlags) {
  auto Text = kernelDefinitionText(Ctx, Source, File, Kernel.QualifiedName);
  if (!Text)
    return Text.takeError();
  auto Spec = loadKernelSpec(Kernel, File, SpecPath);
  if (!Spec)
    return Spec.takeError();
  auto Hash = specHash(*Spec, Kernel);
  if (!Hash)
    return Hash.takeError();
  return CacheKey{Kernel.QualifiedName, KernelSource("", *Text).hash().str(),
                  *Hash, Arch.str(), flagsKey(NvccFlags)};
}

const ResultRecord *optiml::chooseResult(llvm::ArrayRef<ResultRecord> Found,
                                         const CacheKey &Key,
                                         llvm::StringRef Gpu,
                                         llvm::StringRef Cuda) {
  // Larger is better, compared in order.
  auto Rank = [&](const ResultRecord &R) {
    return std::make_tuple(!Gpu.empty() && R.Gpu == Gpu,
                           !Cuda.empty() && R.Cuda == Cuda,
                           R.Tool == toolVersion(), R.Speedup);
  };
  const ResultRecord *Best = nullptr;
  for (const ResultRecord &R : Found) {
    if (R.KernelHash != Key.KernelHash || R.SpecHash != Key.SpecHash ||
        R.Arch != Key.Arch || R.Flags != Key.Flags)
      continue;
    if (!Best || Rank(R) > Rank(*Best))
      Best = &R;
  }
  return Best;
}

//===----------------------------------------------------------------------===//
// --optimize fills the cache
//===----------------------------------------------------------------------===//

void optiml::recordCachedResult(Database &Db, const SourceParser &Parser,
                                const KernelSource &Original,
                                const KernelInfo &Kernel,
                                llvm::StringRef SpecPath,
                                const ResultRecord &Origin,
                                llvm::StringRef BestText,
                                llvm::raw_ostream &Log) {
  // A model's free-form edit (`edit(site=..,id=..)`) lives in the search's
  // guide only: a build could not replay it.
  if (auto Steps = parseTrace(Origin.Steps)) {
    if (llvm::any_of(*Steps,
                     [](const Step &S) { return S.Transform == "edit"; })) {
      Log << "clang-optiml: note: the best version has a free-form edit, "
             "which --use-cache cannot replay; it was not cached\n";
      return;
    }
  } else {
    llvm::consumeError(Steps.takeError());
  }
  auto Stored = [&]() -> llvm::Expected<bool> {
    auto Parsed = Parser.parse(Original);
    if (!Parsed)
      return Parsed.takeError();
    auto Key = cacheKeyOf(**Parsed, Kernel, Original.path(), SpecPath,
                          Origin.Arch, {});
    if (!Key)
      return Key.takeError();
    auto Best =
        Parser.parse(KernelSource(Original.path().str(), BestText.str()),
                     ErrorKind::Internal);
    if (!Best)
      return Best.takeError();
    auto Text = kernelDefinitionText(**Best, Kernel.QualifiedName);
    if (!Text)
      return Text.takeError();
    ResultRecord R = Origin;
    R.Kernel = Kernel.QualifiedName;
    R.KernelHash = Key->KernelHash;
    R.SpecHash = Key->SpecHash;
    R.Tool = toolVersion().str();
    R.ResultText = std::move(*Text);
    return Db.putResult(R);
  }();
  if (!Stored)
    Log << "clang-optiml: warning: the result was not cached: "
        << llvm::toString(Stored.takeError()) << "\n";
}
