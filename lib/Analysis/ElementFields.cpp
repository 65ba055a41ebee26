//===- ElementFields.cpp - the numbers a buffer's element holds -----------===//

#include "optiml/Analysis/ElementFields.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecordLayout.h"

using namespace optiml;
using namespace clang;

bool ElementFields::isNarrowFloatRecord(llvm::StringRef Name) {
  return Name == "__half" || Name == "__nv_bfloat16" ||
         Name == "__nv_fp8_e4m3" || Name == "__nv_fp8_e5m2";
}

static std::string typeName(QualType T, const ASTContext &Ctx) {
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  return T.getAsString(Policy);
}

std::string ElementFields::canonicalNumber(QualType T) const {
  QualType C = T.getCanonicalType().getUnqualifiedType();
  if (const auto *E = C->getAs<EnumType>(); E && E->getDecl()->isComplete())
    C = E->getDecl()->getIntegerType().getCanonicalType();
  return typeName(C, Ctx);
}

void ElementFields::describePointee(QualType Element, ParamInfo &P) const {
  P.IsConst = Element.isConstQualified();
  P.PointeeType = typeName(Element.getUnqualifiedType(), Ctx);
  P.CanonicalElement = canonicalNumber(Element);
  describe(Element, P);
}

void ElementFields::describe(QualType Element, ParamInfo &P) const {
  QualType T = Element.getCanonicalType().getUnqualifiedType();
  const auto *R = T->getAsRecordDecl();
  if (!R || T->isDependentType() || T->isIncompleteType() ||
      isNarrowFloatRecord(R->getName()))
    return;
  std::vector<ElementField> Fields;
  std::string Problem;
  if (!flattenRecord(*R, "", 0, Fields, Problem)) {
    P.LayoutProblem = Problem;
    return;
  }
  if (Fields.empty()) {
    P.LayoutProblem = "a struct without fields";
    return;
  }
  P.Fields = std::move(Fields);
  P.ElementBytes = Ctx.getTypeSizeInChars(T).getQuantity();
}

bool ElementFields::flatten(QualType T, const std::string &Prefix,
                            uint64_t Offset, std::vector<ElementField> &Out,
                            std::string &Problem) const {
  T = T.getCanonicalType().getUnqualifiedType();
  uint64_t Bytes = Ctx.getTypeSizeInChars(T).getQuantity();
  if (const auto *E = T->getAs<EnumType>())
    T = E->getDecl()->getIntegerType().getCanonicalType();
  const RecordDecl *R = T->getAsRecordDecl();
  if (T->isBuiltinType() || (R && isNarrowFloatRecord(R->getName()))) {
    Out.push_back({Prefix, typeName(T, Ctx), Offset, Bytes});
    return true;
  }
  if (const auto *A = Ctx.getAsConstantArrayType(T)) {
    uint64_t N = A->getSize().getZExtValue();
    uint64_t Step = Ctx.getTypeSizeInChars(A->getElementType()).getQuantity();
    for (uint64_t I = 0; I < N; ++I)
      if (!flatten(A->getElementType(), Prefix + "[" + std::to_string(I) + "]",
                   Offset + I * Step, Out, Problem))
        return false;
    return true;
  }
  if (R)
    return flattenRecord(*R, Prefix, Offset, Out, Problem);
  Problem = (T->isPointerType() ? "a pointer field '" : "a field '") + Prefix +
            "' of type '" + typeName(T, Ctx) + "'";
  return false;
}

bool ElementFields::flattenRecord(const RecordDecl &R,
                                  const std::string &Prefix, uint64_t Offset,
                                  std::vector<ElementField> &Out,
                                  std::string &Problem) const {
  if (R.isUnion()) {
    Problem = "a union" + (Prefix.empty() ? "" : " '" + Prefix + "'");
    return false;
  }
  if (const auto *C = dyn_cast<CXXRecordDecl>(&R);
      C && (C->getNumBases() > 0 || C->isPolymorphic())) {
    Problem = "a class with bases or virtual functions";
    return false;
  }
  const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(&R);
  for (const FieldDecl *F : R.fields()) {
    std::string Name = Prefix.empty() ? F->getNameAsString()
                                      : Prefix + "." + F->getNameAsString();
    if (F->isBitField()) {
      Problem = "a bit-field '" + Name + "'";
      return false;
    }
    uint64_t At =
        Offset + Layout.getFieldOffset(F->getFieldIndex()) / Ctx.getCharWidth();
    if (!flatten(F->getType(), Name, At, Out, Problem))
      return false;
  }
  return true;
}
