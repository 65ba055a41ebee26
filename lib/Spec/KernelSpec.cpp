//===- KernelSpec.cpp - load a kernel spec and instantiate it ------------===//

#include "optiml/Spec/KernelSpec.h"
#include "Instantiator.h"
#include "optiml/Spec/ElementLayout.h"
#include "optiml/Spec/InstanceSizes.h"
#include "optiml/Spec/MarkLocator.h"
#include "optiml/Spec/PragmaSpecParser.h"
#include "optiml/Spec/SidecarSpecParser.h"
#include "optiml/Spec/SpecBuilder.h"
#include "optiml/Spec/SpecDiagnostic.h"
#include "optiml/Spec/SpecExprEvaluator.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

using namespace optiml;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

std::string KernelSpec::specialization() const {
  if (TemplateArgs.empty())
    return "";
  std::vector<std::string> Values;
  for (const auto &A : TemplateArgs)
    Values.push_back(A.second);
  return "<" + llvm::join(Values, ", ") + ">";
}

/// \p Text with each whole-word \p Name replaced by \p Value.
static std::string substitute(StringRef Text, StringRef Name, StringRef Value) {
  std::string Out;
  auto IsWord = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  for (size_t I = 0; I < Text.size();) {
    bool Starts = Text.substr(I).starts_with(Name) &&
                  (I == 0 || !IsWord(Text[I - 1])) &&
                  (I + Name.size() == Text.size() ||
                   !IsWord(Text[I + Name.size()]));
    if (Starts) {
      Out += Value;
      I += Name.size();
    } else {
      Out += Text[I++];
    }
  }
  return Out;
}

const DeviceGlobal *optiml::findGlobal(const KernelInfo &Kernel,
                                       StringRef Name) {
  for (const DeviceGlobal &G : Kernel.Globals)
    if (G.Element.Name == Name || G.QualifiedName == Name)
      return &G;
  return nullptr;
}

KernelInfo optiml::specializeKernel(
    const KernelInfo &Kernel,
    llvm::ArrayRef<std::pair<std::string, std::string>> TemplateArgs) {
  KernelInfo Out = Kernel;
  if (TemplateArgs.empty())
    return Out;
  std::vector<std::string> Values;
  for (ParamInfo &P : Out.Params) {
    for (const auto &[Name, Value] : TemplateArgs) {
      P.Type = substitute(P.Type, Name, Value);
      P.PointeeType = substitute(P.PointeeType, Name, Value);
    }
    // A dependent canonical type (`type-parameter-0-0`) is the written
    // one with the arguments in; a typedef's was resolved by Clang.
    if (!llvm::StringRef(P.CanonicalElement).contains("type-parameter"))
      continue;
    StringRef Element = P.IsPointer ? StringRef(P.PointeeType) : P.Type;
    Element.consume_front("const ");
    Element.consume_back(" const");
    P.CanonicalElement = Element.str();
  }
  for (const auto &A : TemplateArgs)
    Values.push_back(A.second);
  Out.Specialization = "<" + llvm::join(Values, ", ") + ">";
  return Out;
}

Expected<std::vector<ConcreteInstance>>
KernelSpec::instantiate(const KernelInfo &Generic) const {
  std::vector<ConcreteInstance> Out;
  KernelInfo Kernel = specializeKernel(Generic, TemplateArgs);
  Instantiator In(*this, Kernel);
  auto Default = In.run(nullptr);
  if (!Default)
    return Default.takeError();
  Out.push_back(std::move(*Default));
  for (const InstanceSpec &I : Instances) {
    auto Named = In.run(&I);
    if (!Named)
      return Named.takeError();
    Out.push_back(std::move(*Named));
  }
  return Out;
}

/// The mark's draft, with exact positions when its file can be read.
static Expected<SpecDraft> markDraft(const KernelMark &Mark,
                                     StringRef SourcePath) {
  StringRef File =
      Mark.Pos.File.empty() ? SourcePath : StringRef(Mark.Pos.File);
  auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
  if (!Buffer)
    return PragmaSpecParser::parse(Mark, MarkLocator(Mark));
  return PragmaSpecParser::parse(Mark,
                                 MarkLocator(Mark, (*Buffer)->getBuffer()));
}

static Error noSpec(const KernelInfo &Kernel, StringRef Sidecar) {
  std::string What = "kernel '" + Kernel.Name + "' has no spec";
  if (!Sidecar.empty())
    What += " (no mark, and no entry in '" + Sidecar.str() + "')";
  return specError(Kernel.Pos, What,
                   "a '#pragma optiml kernel sizes(...) in(...) out(...) "
                   "grid(...) block(...)' line before it, or --spec=FILE "
                   "with an entry \"kernels\": {\"" +
                       Kernel.Name + "\": {...}}");
}

/// The merged draft: the mark's, with the sidecar's fields over it.
static Expected<std::optional<SpecDraft>>
draftOf(const KernelInfo &Kernel, StringRef SourcePath, StringRef Sidecar) {
  std::optional<SpecDraft> Draft;
  if (Kernel.Mark) {
    auto Mark = markDraft(*Kernel.Mark, SourcePath);
    if (!Mark)
      return Mark.takeError();
    Draft = std::move(*Mark);
  }
  if (Sidecar.empty())
    return Draft;
  auto Over = SidecarSpecParser::load(Sidecar, Kernel);
  if (!Over)
    return Over.takeError();
  if (*Over && Draft)
    Draft->overrideWith(**Over);
  else if (*Over)
    Draft = std::move(*Over);
  return Draft;
}

/// \p SpecPath, else the source's `<file>.optiml.json` when it exists.
static std::string sidecarPath(StringRef SourcePath, StringRef SpecPath) {
  if (!SpecPath.empty() || SourcePath.empty())
    return SpecPath.str();
  std::string Beside = (SourcePath + ".optiml.json").str();
  return llvm::sys::fs::exists(Beside) ? Beside : "";
}

Expected<std::optional<KernelSpec>>
optiml::findKernelSpec(const KernelInfo &Kernel, StringRef SourcePath,
                       StringRef SpecPath) {
  std::string Sidecar = sidecarPath(SourcePath, SpecPath);
  auto Draft = draftOf(Kernel, SourcePath, Sidecar);
  if (!Draft)
    return Draft.takeError();
  if (!*Draft)
    return std::nullopt;
  auto Spec = SpecBuilder::build(**Draft, Kernel);
  if (!Spec)
    return Spec.takeError();
  // Instantiating every instance now reports a bad expression (an unknown
  // size, a division by zero, an empty buffer) when the spec is loaded.
  if (auto Instances = Spec->instantiate(Kernel); !Instances)
    return Instances.takeError();
  return std::optional<KernelSpec>(std::move(*Spec));
}

Expected<KernelSpec> optiml::loadKernelSpec(const KernelInfo &Kernel,
                                            StringRef SourcePath,
                                            StringRef SpecPath) {
  auto Spec = findKernelSpec(Kernel, SourcePath, SpecPath);
  if (!Spec)
    return Spec.takeError();
  if (*Spec)
    return std::move(**Spec);
  return noSpec(Kernel, sidecarPath(SourcePath, SpecPath));
}
