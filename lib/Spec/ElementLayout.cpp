//===- ElementLayout.cpp - a buffer element as the runner sees it ---------===//

#include "optiml/Spec/ElementLayout.h"
#include "optiml/Spec/SpecDiagnostic.h"

#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using llvm::Expected;
using llvm::StringRef;

std::vector<const LaneField *> ElementLayout::select(StringRef Name) const {
  std::vector<const LaneField *> Out;
  for (const LaneField &F : Fields) {
    StringRef N = F.Name;
    if (N == Name || (N.starts_with(Name) && N.size() > Name.size() &&
                      (N[Name.size()] == '.' || N[Name.size()] == '[')))
      Out.push_back(&F);
  }
  return Out;
}

/// CUDA's vector types by name (`float2`, `uchar4`, `half2`), for a
/// template argument that the spec put in as text: their layout is the
/// toolkit's (vector_types.h), x, y, z, w in order without padding.
static std::optional<std::vector<ElementField>> cudaVectorType(StringRef Name) {
  Name.consume_front("::");
  static const std::pair<StringRef, StringRef> Bases[] = {
      {"uchar", "unsigned char"},
      {"char", "signed char"},
      {"ushort", "unsigned short"},
      {"short", "short"},
      {"uint", "unsigned int"},
      {"int", "int"},
      {"ulonglong", "unsigned long long"},
      {"longlong", "long long"},
      {"ulong", "unsigned long"},
      {"long", "long"},
      {"float", "float"},
      {"double", "double"},
      {"__half", "__half"},
      {"half", "__half"},
      {"__nv_bfloat16", "__nv_bfloat16"},
      {"nv_bfloat16", "__nv_bfloat16"}};
  for (const auto &[Base, CType] : Bases) {
    StringRef Rest = Name;
    unsigned N = 0;
    if (!Rest.consume_front(Base) || Rest.getAsInteger(10, N) || N < 1 || N > 4)
      continue;
    bool Narrow = Base.contains("half") || Base.contains("bfloat16");
    if (Narrow && N != 2)
      continue;
    std::vector<ElementField> Out;
    for (unsigned I = 0; I < N; ++I)
      Out.push_back({std::string(1, "xyzw"[I]), CType.str(), 0, 0});
    return Out;
  }
  return std::nullopt;
}

static Expected<ElementLayout>
fromFields(const ParamInfo &P, StringRef Element,
           const std::vector<ElementField> &Fields, const SourcePos &Pos) {
  std::string Quoted =
      "parameter '" + P.Name + "' has element type '" + Element.str() + "'";
  ElementLayout L;
  for (const ElementField &F : Fields) {
    auto T = ElementType::fromC(F.Type);
    if (!T)
      return specError(Pos,
                       Quoted + ", whose field '" + F.Name + "' is a '" +
                           F.Type + "', which the runner cannot fill",
                       "fields of float, double, an integer type, __half, "
                       "__nv_bfloat16 or an fp8 type");
    L.Fields.push_back({F.Name, *T});
  }
  const LaneField &First = L.Fields.front();
  for (size_t I = 0; I < Fields.size(); ++I) {
    const LaneField &F = L.Fields[I];
    if (F.Type.Bytes != First.Type.Bytes)
      return specError(Pos,
                       Quoted + ", whose fields differ in size ('" +
                           First.Name + "' is " + First.Type.Name + ", '" +
                           F.Name + "' is " + F.Type.Name + ")",
                       "an element whose fields all have one size: the "
                       "runner walks it as lanes of one size");
    // The offsets of a layout Clang computed; a name-made one has none.
    bool Laid = P.ElementBytes > 0;
    if (Laid && Fields[I].Offset != I * First.Type.Bytes)
      return specError(Pos,
                       Quoted + ", with padding before field '" + F.Name +
                           "' (at byte " + llvm::Twine(Fields[I].Offset) + ")",
                       "an element without padding between its fields");
  }
  if (P.ElementBytes > 0 && P.ElementBytes != Fields.size() * First.Type.Bytes)
    return specError(
        Pos,
        Quoted + ", with " +
            llvm::Twine(P.ElementBytes - Fields.size() * First.Type.Bytes) +
            " bytes of padding at its end",
        "an element without padding");
  if (L.Fields.size() > ElementLayout::MaxFields)
    return specError(
        Pos, Quoted + " with " + llvm::Twine(L.Fields.size()) + " fields",
        "at most " + llvm::Twine(ElementLayout::MaxFields) +
            " numbers per element");
  L.Lane = First.Type;
  return L;
}

Expected<ElementLayout> ElementLayout::of(const ParamInfo &P,
                                          const SourcePos &Pos) {
  StringRef Element = P.IsPointer ? StringRef(P.PointeeType) : P.Type;
  for (StringRef Name : {Element, StringRef(P.CanonicalElement)})
    if (auto T = ElementType::fromC(Name)) {
      ElementLayout L;
      L.Lane = *T;
      return L;
    }
  if (P.IsPointer && !P.Fields.empty())
    return fromFields(P, Element, P.Fields, Pos);
  if (P.IsPointer && !P.LayoutProblem.empty())
    return specError(Pos,
                     "parameter '" + P.Name + "' has element type '" + Element +
                         "', a struct with " + P.LayoutProblem +
                         ", which the runner cannot fill number by number",
                     "a struct of numbers (float, int, __half, vector types, "
                     "nested structs and arrays of them)");
  if (P.IsPointer)
    for (StringRef Name : {Element, StringRef(P.CanonicalElement)})
      if (auto Fields = cudaVectorType(Name))
        return fromFields(P, Element, *Fields, Pos);
  return specError(Pos,
                   "parameter '" + P.Name + "' has type '" + P.Type +
                       "', and element type '" + Element +
                       "' is not supported by the runner yet",
                   P.IsPointer ? "float, double, an integer type, __half, "
                                 "__nv_bfloat16, an fp8 type, a CUDA vector "
                                 "type or a struct of these"
                               : "a scalar of float, double, an integer "
                                 "type, __half, __nv_bfloat16 or an fp8 type");
}
