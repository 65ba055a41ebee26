//===- WarpScan.cpp - a Hillis-Steele block scan done by warp shuffles ----===//
//
// The naive block scan spends log2(blockDim.x) steps, each a shared-memory
// read, write and block-wide barrier (WarpScanLegality shows the loop).
// Warps scan 32 elements in registers with __shfl_up_sync instead; one
// barrier hands each warp's total to the first warp, which scans the
// totals the same way; each thread then adds the totals of the warps
// before it and stores its sum where the last step stored it:
//
//   {
//     float optiml_v = (float)0;
//     for (int offset = 1; offset < blockDim.x; offset *= 2) {
//       pout = 1 - pout;          // the halves end where the loop left them
//       pin = 1 - pout;
//       if (offset == 1)
//         optiml_v = temp[pin * n + t];   // what the first step read
//     }
//     ... shuffles ...
//     temp[pout * n + t] = optiml_v;
//     __syncthreads();
//   }
//
// Sums are added in another order, so floating-point results may differ in
// the last bits: the transform changes numerics.
//
//===----------------------------------------------------------------------===//

#include "optiml/Analysis/SourceText.h"
#include "optiml/Rewrite/Indentation.h"
#include "optiml/Rewrite/ReturnFoldText.h"
#include "optiml/Rewrite/TestedAlternative.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/TransformFactories.h"
#include "transforms/WarpScan/WarpScanLegality.h"

#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

static llvm::Expected<EditSet> emit(const Site &S, const WarpScanPlan &Plan,
                                    ASTContext &Ctx);

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &,
                                    ASTContext &Ctx) {
  return Rewrite::of(
      WarpScanLegality::check(S, Ctx),
      [S, &Ctx](const auto &Plan) { return emit(S, Plan, Ctx); });
}

/// An inclusive scan of \p V across each warp's lanes, in registers.
static std::vector<std::string> warpScanLines(llvm::StringRef T,
                                              llvm::StringRef V) {
  return {"for (int optiml_d = 1; optiml_d < 32; optiml_d *= 2) {",
          "  " + T.str() + " optiml_up = __shfl_up_sync(0xffffffffu, " +
              V.str() + ", optiml_d);",
          "  if (optiml_lane >= optiml_d)", "    " + V.str() + " += optiml_up;",
          "}"};
}

/// The loop keeping only the statements that choose the halves, reading
/// the thread's own element where the first step read it.
static std::vector<std::string> stateLoop(const WarpScanPlan &Plan,
                                          ASTContext &Ctx) {
  const ForStmt &For = *Plan.Loop;
  const auto *Counter =
      cast<VarDecl>(cast<DeclStmt>(For.getInit())->getSingleDecl());
  std::vector<std::string> Lines = {
      textOf(SourceRange(For.getBeginLoc(), For.getRParenLoc()), Ctx) + " {"};
  for (const Stmt *S : Plan.State)
    Lines.push_back("  " + textOf(S->getSourceRange(), Ctx) + ";");
  Lines.push_back("  if (" + Counter->getName().str() + " == " +
                  textOf(Counter->getInit()->getSourceRange(), Ctx) + ")");
  Lines.push_back(
      "    optiml_v = " + textOf(Plan.OwnRead->getSourceRange(), Ctx) + ";");
  Lines.push_back("}");
  return Lines;
}

/// The scan in a block of its own, at no indentation.
static std::string scanText(const WarpScanPlan &Plan, ASTContext &Ctx) {
  std::string T = Plan.Buffer->getType()
                      ->getAsArrayTypeUnsafe()
                      ->getElementType()
                      .getUnqualifiedType()
                      .getAsString(Ctx.getPrintingPolicy());
  std::vector<std::string> Lines = {"{"};
  auto Add = [&](const std::vector<std::string> &More) {
    for (const std::string &L : More)
      Lines.push_back("  " + L);
  };
  if (Plan.State.empty()) {
    // One buffer: the thread's element is where the loop starts from.
    Add({T + " optiml_v = " + textOf(Plan.OwnRead->getSourceRange(), Ctx) +
         ";"});
  } else {
    Add({T + " optiml_v = (" + T + ")0;"});
    Add(stateLoop(Plan, Ctx));
  }
  Add({"const unsigned optiml_lane = threadIdx.x % 32, optiml_warp = "
       "threadIdx.x / 32;"});
  Add(warpScanLines(T, "optiml_v"));
  Add({"__shared__ " + T + " optiml_warp_sums[32];", "if (optiml_lane == 31)",
       "  optiml_warp_sums[optiml_warp] = optiml_v;", "__syncthreads();",
       "if (optiml_warp == 0) {",
       "  " + T + " optiml_s = optiml_lane < blockDim.x / 32",
       "      ? optiml_warp_sums[optiml_lane] : (" + T + ")0;"});
  for (const std::string &L : warpScanLines(T, "optiml_s"))
    Lines.push_back("    " + L);
  Add({"  optiml_warp_sums[optiml_lane] = optiml_s;", "}", "__syncthreads();",
       "if (optiml_warp > 0)",
       "  optiml_v += optiml_warp_sums[optiml_warp - 1];",
       textOf(Plan.Store->getSourceRange(), Ctx) + " = optiml_v;",
       "__syncthreads();"});
  Lines.push_back("}");
  return llvm::join(Lines, "\n");
}

static llvm::Expected<EditSet> emit(const Site &S, const WarpScanPlan &Plan,
                                    ASTContext &Ctx) {
  EditSet Edits;
  std::string Scan = scanText(Plan, Ctx);
  if (Plan.TestBlockAtRunTime) {
    std::string In = lineIndentOf(Plan.Loop->getBeginLoc(), Ctx);
    if (llvm::Error E =
            writeTestedAlternative(*Plan.Loop, WarpScanLegality::BlockTest,
                                   indentedBy(Scan, In), Edits, Ctx))
      return E;
    Edits.addNote("some blocks of '" + S.kernelName() +
                  "' are not known here: the warps' scan runs for blocks "
                  "(32k, 1, 1), tested at run time, the loop as written for "
                  "others");
    return Edits;
  }
  // The loop's pragma goes with it: the loop left is the halves' state.
  if (llvm::Error E =
          replaceWritten(*Plan.Loop, Scan, /*WithPragma=*/true, Edits, Ctx))
    return E;
  return Edits;
}

std::unique_ptr<Transform> optiml::createWarpScan(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan);
}
