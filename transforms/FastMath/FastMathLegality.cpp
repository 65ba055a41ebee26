//===- FastMathLegality.cpp - what fast-math may rewrite in a kernel -----===//

#include "transforms/FastMath/FastMathLegality.h"
#include "optiml/Analysis/Legality/PrivateHelpers.h"
#include "optiml/Analysis/Legality/LegalityError.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"

using namespace optiml;
using namespace clang;
using namespace clang::ast_matchers;

namespace {

/// A single-precision library function and the intrinsic that replaces it.
/// Both spellings are the same function for a float argument: CUDA's
/// headers declare `float exp(float)` next to `expf`.
struct MathFunction {
  llvm::StringLiteral Name, FloatName, Intrinsic;
  FastMathOps Group;
  unsigned Arity;
};

const MathFunction MathFunctions[] = {
    {"exp", "expf", "__expf", FastMathOps::ExpLog, 1},
    {"log", "logf", "__logf", FastMathOps::ExpLog, 1},
    {"log2", "log2f", "__log2f", FastMathOps::ExpLog, 1},
    {"log10", "log10f", "__log10f", FastMathOps::ExpLog, 1},
    {"pow", "powf", "__powf", FastMathOps::ExpLog, 2},
    {"sin", "sinf", "__sinf", FastMathOps::Trig, 1},
    {"cos", "cosf", "__cosf", FastMathOps::Trig, 1},
    {"tan", "tanf", "__tanf", FastMathOps::Trig, 1},
};

bool selects(FastMathOps Ops, FastMathOps Group) {
  return Ops == FastMathOps::All || Ops == Group;
}

bool isFloat(QualType T) {
  return !T.isNull() &&
         T.getCanonicalType()->isSpecificBuiltinType(BuiltinType::Float);
}

/// The C library's function (or the float overload CUDA's headers add), not
/// a user's function of the same name: declared at global or std scope in a
/// system header, or a compiler builtin.
bool isLibraryFunction(const FunctionDecl &F, const ASTContext &Ctx) {
  const DeclContext *DC = F.getDeclContext()->getRedeclContext();
  if (!DC->isTranslationUnit() && !DC->isStdNamespace())
    return false;
  if (F.getBuiltinID() != 0)
    return true;
  SourceLocation Loc = F.getFirstDecl()->getLocation();
  return Loc.isValid() && Ctx.getSourceManager().isInSystemHeader(Loc);
}

/// float(float...) with \p Arity float arguments: the single-precision
/// variant, never the double one.
bool isFloatCall(const CallExpr &Call, const FunctionDecl &F, unsigned Arity) {
  if (F.getNumParams() != Arity || Call.getNumArgs() != Arity ||
      !isFloat(F.getReturnType()))
    return false;
  for (unsigned I = 0; I < Arity; ++I)
    if (!isFloat(F.getParamDecl(I)->getType()) ||
        !isFloat(Call.getArg(I)->getType()))
      return false;
  return true;
}

const MathFunction *mathFunction(const FunctionDecl &F) {
  if (!F.getIdentifier())
    return nullptr;
  for (const MathFunction &M : MathFunctions)
    if (F.getName() == M.Name || F.getName() == M.FloatName)
      return &M;
  return nullptr;
}

bool isOne(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *F = dyn_cast<FloatingLiteral>(E))
    return F->getValue().isExactlyValue(1.0);
  if (const auto *I = dyn_cast<IntegerLiteral>(E))
    return I->getValue() == 1;
  return false;
}

/// The callee as written (`expf`, `std::exp`), or null for an indirect call.
const DeclRefExpr *calleeRef(const CallExpr &Call) {
  return dyn_cast<DeclRefExpr>(Call.getCallee()->IgnoreParenImpCasts());
}

bool writtenPlainly(const DeclRefExpr *Ref, const SourceManager &SM) {
  return Ref && !Ref->getBeginLoc().isMacroID() &&
         !Ref->getEndLoc().isMacroID() &&
         SM.isWrittenInMainFile(Ref->getBeginLoc());
}

SourceLocation locationOf(const FastMathCandidate &C) {
  return C.What == FastMathCandidate::Intrinsic ? C.Call->getBeginLoc()
                                                : C.Div->getBeginLoc();
}

std::string candidatesText(FastMathOps Ops) {
  switch (Ops) {
  case FastMathOps::ExpLog:
    return "single-precision call of expf, logf, log2f, log10f or powf";
  case FastMathOps::Trig:
    return "single-precision call of sinf, cosf or tanf";
  case FastMathOps::Div:
    return "float division (other than by a constant power of two)";
  case FastMathOps::Rsqrt:
    return "float '1.0f / sqrtf(x)'";
  case FastMathOps::All:
    break;
  }
  return "single-precision call of expf, logf, log2f, log10f, powf, sinf, "
         "cosf or tanf, or float division";
}

} // namespace

std::optional<FastMathOps> FastMathLegality::parseOps(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<FastMathOps>>(Name)
      .Case("all", FastMathOps::All)
      .Case("exp-log", FastMathOps::ExpLog)
      .Case("trig", FastMathOps::Trig)
      .Case("div", FastMathOps::Div)
      .Case("rsqrt", FastMathOps::Rsqrt)
      .Default(std::nullopt);
}

std::optional<CharSourceRange>
FastMathLegality::writtenRange(const Expr &E, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E.getSourceRange()), SM,
      Ctx.getLangOpts());
  if (R.isInvalid() || !SM.isWrittenInMainFile(R.getBegin()))
    return std::nullopt;
  return R;
}

std::optional<FastMathCandidate>
FastMathLegality::reciprocalSqrt(const BinaryOperator &Div, ASTContext &Ctx) {
  if (!isFloat(Div.getType()) || !isOne(Div.getLHS()))
    return std::nullopt;
  const auto *Call = dyn_cast<CallExpr>(Div.getRHS()->IgnoreParenImpCasts());
  const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  if (!F || !F->getIdentifier() ||
      (F->getName() != "sqrtf" && F->getName() != "sqrt") ||
      !isLibraryFunction(*F, Ctx) || !isFloatCall(*Call, *F, 1))
    return std::nullopt;
  return FastMathCandidate{FastMathCandidate::ReciprocalSqrt, Call, &Div,
                           "rsqrtf"};
}

std::optional<FastMathCandidate>
FastMathLegality::divide(const BinaryOperator &Div, ASTContext &Ctx) {
  if (!isFloat(Div.getType()) || Div.isValueDependent())
    return std::nullopt;
  // A constant quotient is folded by the compiler, and __fdividef cannot
  // appear where a constant expression is required.
  if (Div.isEvaluatable(Ctx))
    return std::nullopt;
  // x / 2^k is already compiled to an exact multiply by 2^-k.
  llvm::APFloat Divisor(0.0f);
  const Expr *RHS = Div.getRHS();
  if (RHS->getType()->isRealFloatingType() &&
      RHS->EvaluateAsFloat(Divisor, Ctx) && Divisor.getExactInverse(nullptr))
    return std::nullopt;
  return FastMathCandidate{FastMathCandidate::Divide, nullptr, &Div,
                           "__fdividef"};
}

std::optional<FastMathCandidate>
FastMathLegality::intrinsic(const CallExpr &Call, FastMathOps Ops,
                            ASTContext &Ctx) {
  const FunctionDecl *F = Call.getDirectCallee();
  const MathFunction *M = F ? mathFunction(*F) : nullptr;
  if (!M || !selects(Ops, M->Group) || !isLibraryFunction(*F, Ctx) ||
      !isFloatCall(Call, *F, M->Arity))
    return std::nullopt;
  return FastMathCandidate{FastMathCandidate::Intrinsic, &Call, nullptr,
                           M->Intrinsic.str()};
}

bool FastMathLegality::editable(const FastMathCandidate &C, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (C.What == FastMathCandidate::Intrinsic)
    return writtenPlainly(calleeRef(*C.Call), SM);
  // The operator must be written in the file; whole operands may be macros
  // (`x / SCALE`), whose expansions are kept as they are.
  if (C.Div->getOperatorLoc().isMacroID() ||
      !writtenRange(*C.Div->getLHS(), Ctx) ||
      !writtenRange(*C.Div->getRHS(), Ctx))
    return false;
  return C.What == FastMathCandidate::Divide ||
         (writtenPlainly(calleeRef(*C.Call), SM) && writtenRange(*C.Call, Ctx));
}

llvm::Expected<std::vector<FastMathCandidate>>
FastMathLegality::candidates(const FunctionDecl &Kernel, FastMathOps Ops,
                             ASTContext &Ctx) {
  std::vector<FastMathCandidate> Found;
  // The helpers only this kernel calls are part of it; shared ones are not.
  std::vector<const FunctionDecl *> Scope = privateHelpers(Kernel, Ctx);
  Scope.push_back(&Kernel);
  const auto Division = binaryOperator(hasOperatorName("/")).bind("d");
  for (const FunctionDecl *F : Scope) {
    const Stmt &Body = *F->getBody();
    for (const BoundNodes &N : match(findAll(Division), Body, Ctx)) {
      const auto &Div = *N.getNodeAs<BinaryOperator>("d");
      std::optional<FastMathCandidate> C;
      if (selects(Ops, FastMathOps::Rsqrt))
        C = reciprocalSqrt(Div, Ctx);
      if (!C && selects(Ops, FastMathOps::Div))
        C = divide(Div, Ctx);
      if (C)
        Found.push_back(std::move(*C));
    }
    for (const BoundNodes &N : match(findAll(callExpr().bind("c")), Body, Ctx))
      if (auto C = intrinsic(*N.getNodeAs<CallExpr>("c"), Ops, Ctx))
        Found.push_back(std::move(*C));
  }
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::stable_sort(Found, [&](const auto &A, const auto &B) {
    return SM.isBeforeInTranslationUnit(locationOf(A), locationOf(B));
  });
  if (Found.empty())
    return notApplicableAt(Kernel.getLocation(), Ctx,
                           "'" + Kernel.getName() + "' has no " +
                               candidatesText(Ops) +
                               " to replace, nor do the helpers only it "
                               "calls");
  std::vector<FastMathCandidate> Editable;
  llvm::copy_if(Found, std::back_inserter(Editable),
                [&](const FastMathCandidate &C) { return editable(C, Ctx); });
  if (Editable.empty())
    return notApplicableAt(locationOf(Found.front()), Ctx,
                           "every " + candidatesText(Ops) + " in '" +
                               Kernel.getName() +
                               "' is written inside a macro, which is left "
                               "alone");
  return Editable;
}
