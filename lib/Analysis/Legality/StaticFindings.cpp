//===- StaticFindings.cpp - what a kernel's source says about speed -------===//
//
// The accesses studied are the elements of the kernel's pointer parameters,
// reached directly (`in[i]`) or through a local pointer set once from one
// (`const float *row = A + r * n; row[k]`). Each index is written as a
// polynomial over threadIdx, blockIdx, the loop variables and the
// parameters; an index the polynomial cannot express (a division, a call,
// a value read from memory) gives no finding rather than a guess.
//
//===----------------------------------------------------------------------===//

#include "optiml/Analysis/Legality/StaticFindings.h"
#include "optiml/Analysis/Legality/BufferAccess.h"
#include "optiml/Analysis/Legality/BufferRoot.h"
#include "optiml/Analysis/Legality/IndexPolynomial.h"
#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Analysis/Legality/PrivateHelpers.h"
#include "optiml/Analysis/Legality/VarUses.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

#include <map>
#include <set>

using namespace optiml;
using namespace clang;

namespace {

/// One element access through a pointer parameter.
struct Access {
  const ArraySubscriptExpr *Expr;
  const ParmVarDecl *Buffer;
  IndexPolynomial Index; ///< In elements from the parameter's address.
  bool IsStore;
  std::string Site;
  std::optional<int64_t> ElementBytes;
};

const IndexAtom LaneAtom = IndexAtom::of(BuiltinRef{BuiltinRef::ThreadIdx, 0});

/// Every element access through a pointer parameter of \p Kernel, in
/// source order, named "K/load:buf#n" / "K/store:buf#n".
std::vector<Access> accessesOf(const FunctionDecl &Kernel, ASTContext &Ctx) {
  std::vector<Access> Out;
  std::map<std::string, unsigned> Counts;
  std::string Name = Kernel.getQualifiedNameAsString();
  for (const auto *E : nodesOf<ArraySubscriptExpr>(Kernel.getBody())) {
    auto Root = bufferRootOf(*E->getBase(), Kernel, Ctx);
    if (!Root)
      continue;
    LvalueUse Use = lvalueUseOf(*E, Ctx);
    if (Use == LvalueUse::Escapes)
      continue;
    std::optional<IndexPolynomial> Index = elementIndexOf(*E, *Root, Ctx);
    if (!Index)
      continue;
    bool IsStore = Use != LvalueUse::Read;
    std::string Tag =
        (IsStore ? "store:" : "load:") + Root->Param->getName().str();
    std::string Site = Name + "/" + Tag + "#" + std::to_string(Counts[Tag]++);
    std::optional<int64_t> Bytes;
    if (!E->getType()->isDependentType() && !E->getType()->isIncompleteType())
      Bytes = Ctx.getTypeSizeInChars(E->getType()).getQuantity();
    Out.push_back(
        {E, Root->Param, std::move(*Index), IsStore, std::move(Site), Bytes});
  }
  return Out;
}

std::string bytesText(int64_t Elements, std::optional<int64_t> Bytes) {
  std::string S = std::to_string(Elements) + " elements";
  if (Bytes)
    S += " (" + std::to_string(Elements * *Bytes) + " bytes)";
  return S;
}

/// The index without its constant term: accesses that differ only in it
/// are neighbours in memory.
IndexPolynomial variablePart(const IndexPolynomial &P) {
  return P.select(
      [](const IndexPolynomial::Monomial &M) { return !M.empty(); });
}

/// Offsets of one thread's accesses that share a variable part; a run of
/// consecutive offsets is one wide access written as scalars.
struct Neighbours {
  std::set<int64_t> Offsets;
  const Access *First = nullptr;
};

bool isFloat(QualType T) {
  return !T.isNull() &&
         T.getCanonicalType()->isSpecificBuiltinType(BuiltinType::Float);
}

/// A single-precision call of the C library's exponentials, logarithms,
/// powers, trigonometric, hyperbolic or error functions or square root:
/// IEEE-exact, each is tens of instructions where a fast intrinsic or an
/// approximation is a few. A user's function of the same name is not one.
bool isTranscendentalCall(const CallExpr &Call, const ASTContext &Ctx) {
  const FunctionDecl *F = Call.getDirectCallee();
  if (!F || !F->getIdentifier() || !isFloat(Call.getType()))
    return false;
  const DeclContext *DC = F->getDeclContext()->getRedeclContext();
  if (!DC->isTranslationUnit() && !DC->isStdNamespace())
    return false;
  SourceLocation Loc = F->getFirstDecl()->getLocation();
  if (F->getBuiltinID() == 0 &&
      !(Loc.isValid() && Ctx.getSourceManager().isInSystemHeader(Loc)))
    return false;
  llvm::StringRef Name = F->getName();
  Name.consume_back("f");
  static const char *const Names[] = {
      "exp",  "exp2", "exp10", "expm1", "log",  "log2", "log10", "log1p",
      "pow",  "sin",  "cos",   "tan",   "sinh", "cosh", "tanh",  "asin",
      "acos", "atan", "atan2", "erf",   "erfc", "sqrt", "cbrt",  "hypot"};
  return llvm::is_contained(Names, Name);
}

/// A division computed in float by a value that is not a constant.
bool isFloatDivision(const Stmt &S) {
  const auto *Div = dyn_cast<BinaryOperator>(&S);
  if (!Div || (Div->getOpcode() != BO_Div && Div->getOpcode() != BO_DivAssign))
    return false;
  const Expr *Rhs = Div->getRHS()->IgnoreParenImpCasts();
  return isFloat(Div->getType()) && !isa<FloatingLiteral>(Rhs) &&
         !isa<IntegerLiteral>(Rhs);
}

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

/// Whether \p S lies in a loop of the function holding it.
bool inLoop(const Stmt &S, ASTContext &Ctx) {
  return llvm::any_of(enclosingStmts(S, Ctx), isLoop);
}

/// "1 call", "2 calls".
std::string counted(unsigned N, llvm::StringRef Noun) {
  return std::to_string(N) + " " + Noun.str() + (N == 1 ? "" : "s");
}

/// Whether consecutive threadIdx.x values access consecutive elements.
bool hasUnitLaneStride(const Access &A) {
  auto Lane = A.Index.coefficient(LaneAtom);
  auto C = Lane ? Lane->asConstant() : std::nullopt;
  return C && (*C == 1 || *C == -1);
}

/// Whether \p Offsets holds two consecutive values.
bool hasRun(const std::set<int64_t> &Offsets) {
  for (int64_t O : Offsets)
    if (Offsets.count(O + 1))
      return true;
  return false;
}

/// The length of the longest run of consecutive values in \p Offsets.
int64_t longestRun(const std::set<int64_t> &Offsets) {
  int64_t Best = 0;
  for (int64_t O : Offsets) {
    if (Offsets.count(O - 1))
      continue;
    int64_t N = 1;
    while (Offsets.count(O + N))
      ++N;
    Best = std::max(Best, N);
  }
  return Best;
}

class Finder {
public:
  Finder(const FunctionDecl &Kernel, ASTContext &Ctx)
      : Kernel(Kernel), Ctx(Ctx), Accesses(accessesOf(Kernel, Ctx)) {}

  std::vector<StaticFinding> run() {
    std::set<const Access *> InRuns = scalarRuns();
    for (const Access &A : Accesses) {
      if (!InRuns.count(&A))
        strided(A);
      loopWalk(A);
    }
    missingRestrict();
    transcendental();
    strideLoops();
    llvm::stable_sort(Out, [&](const StaticFinding &L, const StaticFinding &R) {
      return Ctx.getSourceManager().isBeforeInTranslationUnit(L.Loc, R.Loc);
    });
    return std::move(Out);
  }

private:
  const FunctionDecl &Kernel;
  ASTContext &Ctx;
  std::vector<Access> Accesses;
  std::vector<StaticFinding> Out;

  void add(std::string Kind, std::string Site, std::string Message,
           SourceLocation Loc) {
    Out.push_back({std::move(Kind), std::move(Site), std::move(Message), Loc});
  }

  /// Neighbouring threads of a warp (consecutive threadIdx.x) whose
  /// elements are not neighbours in memory.
  void strided(const Access &A) {
    auto Stride = A.Index.coefficient(LaneAtom);
    if (!Stride || Stride->isZero())
      return;
    std::string Verb = A.IsStore ? "write" : "read";
    std::string Buf = "'" + A.Buffer->getName().str() + "'";
    if (auto C = Stride->asConstant()) {
      int64_t Apart = *C < 0 ? -*C : *C;
      if (Apart <= 1)
        return;
      add("strided-access", A.Site,
          "neighbouring threads (threadIdx.x) " + Verb + " elements of " + Buf +
              " " + bytesText(Apart, A.ElementBytes) +
              " apart: each warp request moves about " + std::to_string(Apart) +
              "x the bytes it uses",
          A.Expr->getExprLoc());
      return;
    }
    add("strided-access", A.Site,
        "neighbouring threads (threadIdx.x) " + Verb + " elements of " + Buf +
            " '" + Stride->str() +
            "' elements apart: each thread of a warp touches its own memory "
            "sector (uncoalesced); a block shape or staging in shared memory "
            "that makes threadIdx.x walk contiguous memory fixes it",
        A.Expr->getExprLoc());
  }

  /// One thread reading or writing consecutive elements as separate
  /// scalars (`p[4*i]`, `p[4*i+1]`, ...). Returns the accesses involved,
  /// whose constant thread stride is the width of their run, not a gap.
  std::set<const Access *> scalarRuns() {
    std::map<std::tuple<const ParmVarDecl *, bool, std::string>, Neighbours>
        Groups;
    std::map<std::tuple<const ParmVarDecl *, bool, std::string>,
             std::vector<const Access *>>
        Members;
    for (const Access &A : Accesses) {
      // Neighbouring threads at neighbouring elements (a stencil's
      // i-1, i, i+1): the warp's requests are wide already.
      if (hasUnitLaneStride(A))
        continue;
      auto Key =
          std::make_tuple(A.Buffer, A.IsStore, variablePart(A.Index).str());
      Neighbours &N = Groups[Key];
      N.Offsets.insert(
          (A.Index - variablePart(A.Index)).asConstant().value_or(0));
      if (!N.First)
        N.First = &A;
      Members[Key].push_back(&A);
    }
    std::set<const Access *> InRuns;
    for (auto &[Key, N] : Groups) {
      if (!hasRun(N.Offsets))
        continue;
      int64_t Run = longestRun(N.Offsets);
      const Access &A = *N.First;
      std::string Bytes =
          A.ElementBytes
              ? " (" + std::to_string(Run * *A.ElementBytes) + " bytes)"
              : "";
      add("contiguous-scalar-access", A.Site,
          "each thread " + std::string(A.IsStore ? "writes " : "reads ") +
              std::to_string(Run) + " consecutive elements of '" +
              A.Buffer->getName().str() + "' as separate scalars: one " +
              "vector access" + Bytes + " moves them at once when aligned",
          A.Expr->getExprLoc());
      for (const Access *M : Members[Key])
        InRuns.insert(M);
    }
    return InRuns;
  }

  /// One thread walking consecutive elements as a loop advances, one
  /// scalar an iteration, while its warp neighbours are not its memory
  /// neighbours (else the warp's requests are already wide).
  void loopWalk(const Access &A) {
    if (hasUnitLaneStride(A))
      return;
    for (const Stmt *S : enclosingStmts(*A.Expr, Ctx)) {
      const auto *For = dyn_cast<ForStmt>(S);
      if (!For)
        continue;
      auto Loop = analyzeLoop(*For, Ctx);
      if (!Loop) {
        llvm::consumeError(Loop.takeError());
        continue;
      }
      auto Step = A.Index.coefficient(IndexAtom::of(*Loop->IV));
      if (!Step || Step->asConstant() != 1 || Loop->Step != 1)
        continue;
      add("contiguous-scalar-access", A.Site,
          "each thread " + std::string(A.IsStore ? "writes" : "reads") +
              " consecutive elements of '" + A.Buffer->getName().str() +
              "' as '" + Loop->IV->getName().str() +
              "' advances, one scalar an iteration: unrolled, wide loads "
              "move several at once",
          A.Expr->getExprLoc());
      return;
    }
  }

  /// Single-precision transcendental calls and divisions in the kernel and
  /// in the helpers only it calls (a force between two bodies): reported
  /// when one runs in a loop, or a call stands in a kernel without loops
  /// (an elementwise tanhf); one square root or division per thread after
  /// a loop (a row's norm) costs nothing worth a change.
  void transcendental() {
    std::vector<const FunctionDecl *> Bodies = {&Kernel};
    llvm::append_range(Bodies, privateHelpers(Kernel, Ctx));
    std::set<const FunctionDecl *> Looped = loopedHelpers(Bodies);
    unsigned Calls = 0, CallsInLoops = 0, Divisions = 0;
    const Stmt *First = nullptr;
    for (const FunctionDecl *F : Bodies) {
      forEachNode(F->getBody(), [&](const Stmt *S) {
        const auto *Call = dyn_cast<CallExpr>(S);
        bool IsCall = Call && isTranscendentalCall(*Call, Ctx);
        if (!IsCall && !isFloatDivision(*S))
          return;
        bool Loop = Looped.count(F) || inLoop(*S, Ctx);
        if (!IsCall && !Loop)
          return;
        ++(IsCall ? Calls : Divisions);
        CallsInLoops += IsCall && Loop;
        if (!First && (Loop || !IsCall))
          First = S;
      });
    }
    bool KernelLoops = !nodesOf<ForStmt>(Kernel.getBody()).empty() ||
                       !nodesOf<WhileStmt>(Kernel.getBody()).empty() ||
                       !nodesOf<DoStmt>(Kernel.getBody()).empty();
    if (CallsInLoops + Divisions == 0 && (Calls == 0 || KernelLoops))
      return;
    if (!First)
      First = firstTranscendentalCall(Bodies);
    add("transcendental", Kernel.getQualifiedNameAsString(),
        counted(Calls, "single-precision math call") +
            " (expf, sqrtf, tanhf, ...), " + std::to_string(CallsInLoops) +
            " in loops, and " + counted(Divisions, "float division") +
            " in loops, in the kernel and the helpers only it calls: "
            "IEEE-exact, each takes tens of instructions where a fast "
            "intrinsic takes a few",
        First->getBeginLoc());
  }

  const Stmt *firstTranscendentalCall(llvm::ArrayRef<const FunctionDecl *> In) {
    for (const FunctionDecl *F : In)
      for (const auto *Call : nodesOf<CallExpr>(F->getBody()))
        if (isTranscendentalCall(*Call, Ctx))
          return Call;
    return nullptr;
  }

  /// The helpers among \p Bodies (the kernel first) whose every statement
  /// runs in a loop: called from a loop, or from such a helper.
  std::set<const FunctionDecl *>
  loopedHelpers(llvm::ArrayRef<const FunctionDecl *> Bodies) {
    std::set<const FunctionDecl *> Looped;
    for (bool Grew = true; Grew;) {
      Grew = false;
      for (const FunctionDecl *F : Bodies)
        for (const auto *Call : nodesOf<CallExpr>(F->getBody())) {
          const FunctionDecl *Callee = Call->getDirectCallee();
          if (!Callee || !llvm::is_contained(Bodies, Callee->getDefinition()))
            continue;
          if ((Looped.count(F) || inLoop(*Call, Ctx)) &&
              Looped.insert(Callee->getDefinition()).second)
            Grew = true;
        }
    }
    return Looped;
  }

  /// Loops stepping by the grid's or the block's thread count that load
  /// from memory: the compiler cannot count their trips, so it does not
  /// unroll them without a test between iterations, and each thread waits
  /// for one iteration's loads before it starts the next.
  void strideLoops() {
    for (const ForStmt *For : nodesOf<ForStmt>(Kernel.getBody())) {
      auto L = analyzeLoop(*For, Ctx, /*AllowThreadStride=*/true);
      if (!L) {
        llvm::consumeError(L.takeError());
        continue;
      }
      if (!L->ThreadStride)
        continue;
      const SourceManager &SM = Ctx.getSourceManager();
      auto Load = llvm::find_if(Accesses, [&](const Access &A) {
        return !A.IsStore && spans(For, A.Expr->getExprLoc(), SM);
      });
      if (Load == Accesses.end())
        continue;
      add("stride-loop", Load->Site,
          "the loop steps by the threads' count ('" + L->IV->getName().str() +
              "'): the compiler does not know its trip count and unrolls "
              "it only with a test between iterations, so each thread has "
              "one iteration's loads in flight at a time",
          For->getBeginLoc());
    }
  }

  /// Pointer parameters without __restrict__ in a kernel that writes
  /// through one of its pointers: the compiler must assume they alias.
  void missingRestrict() {
    std::vector<const ParmVarDecl *> Pointers;
    for (const ParmVarDecl *P : Kernel.parameters())
      if (P->getType()->isPointerType())
        Pointers.push_back(P);
    if (Pointers.size() < 2)
      return;
    BufferAccess Writes(Kernel, Ctx);
    const ParmVarDecl *Written = nullptr;
    for (const ParmVarDecl *P : Pointers)
      if (Writes.mayWrite(*P)) {
        Written = P;
        break;
      }
    if (!Written)
      return;
    std::string Name = Kernel.getQualifiedNameAsString();
    for (const ParmVarDecl *P : Pointers) {
      if (P->getType().isRestrictQualified())
        continue;
      std::string Why =
          P == Written || Writes.mayWrite(*P)
              ? "its stores may change what the other pointers read, so "
                "their loads cannot move across them"
              : "a store through '" + Written->getName().str() +
                    "' may change it, so its loads are repeated after "
                    "stores and cannot use the read-only data cache";
      add("missing-restrict", Name + "/" + P->getName().str(),
          "'" + P->getName().str() + "' is not __restrict__: " + Why,
          P->getLocation());
    }
  }
};

} // namespace

std::vector<StaticFinding> StaticFindings::of(const FunctionDecl &Kernel,
                                              ASTContext &Ctx) {
  if (!Kernel.hasBody())
    return {};
  return Finder(*Kernel.getDefinition(), Ctx).run();
}
