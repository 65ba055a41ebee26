//===- WmmaPrinter.cpp - the tiled tensor-core kernel body ---------------===//

#include "transforms/TensorCores/WmmaPrinter.h"
#include "optiml/Analysis/SourceText.h"
#include "optiml/Rewrite/SourceSnippet.h"
#include "optiml/Support/Error.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

namespace {

std::string num(unsigned N) { return std::to_string(N); }

/// \p E's text, parenthesized unless it is a name or a literal.
std::string operand(const Expr &E, const ASTContext &Ctx) {
  std::string Text = textOf(E.getSourceRange(), Ctx);
  const Expr *S = E.IgnoreParenImpCasts();
  if (isa<DeclRefExpr, IntegerLiteral, ParenExpr>(S) ||
      isa<ParenExpr>(E.IgnoreImpCasts()))
    return Text;
  return "(" + Text + ")";
}

} // namespace

std::string WmmaPrinter::typeOf(const VarDecl &V) const {
  return V.getType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
}

/// "[64][32 + 4]": the contiguous side padded by 16 bytes, which keeps
/// every fragment's rows 32-byte aligned and spreads them over the banks.
std::string WmmaPrinter::dims(unsigned Rows, unsigned Cols) const {
  return "[" + num(Rows) + "][" + num(Cols) + " + " + num(16 / P.Bytes) + "]";
}

WmmaPrinter::Layout WmmaPrinter::layoutOf(const MatmulOperand &O,
                                          bool Left) const {
  Layout L{&O, Left ? "optiml_ta" : "optiml_tb", Left, 0, 0, ""};
  // The left operand's element (r, k) and the right's (k, c): in shared
  // memory as global memory has them contiguous.
  bool KFirst = O.KContiguous;
  L.Rows = KFirst ? Plan.Tile : Plan.KTile;
  L.Cols = KFirst ? Plan.KTile : Plan.Tile;
  L.WmmaLayout = (KFirst == Left) ? "wmma::row_major" : "wmma::col_major";
  return L;
}

llvm::Expected<std::string> WmmaPrinter::print() {
  W.emplace(*Nest.Body, Ctx);
  Layout A = layoutOf(Nest.Left, true), B = layoutOf(Nest.Right, false);
  declarations(A, B);
  const CanonicalLoop &K = Nest.Bounds;
  W->line(1, "for (" + typeOf(*K.IV) + " optiml_k0 = " +
                 textOf(K.Lower->getSourceRange(), Ctx) + "; optiml_k0 " +
                 (K.Cmp == BO_LE ? "<=" : "<") + " " + operand(*K.Bound, Ctx) +
                 "; optiml_k0 += " + num(Plan.KTile) + ") {");
  stage(A);
  stage(B);
  multiply(A, B);
  W->line(1, "}");
  if (llvm::Error E = epilogue())
    return E;
  return W->finish();
}

/// The loops over the warp's fragments at \p Depth, fully unrolled so
/// that the fragment arrays stay in registers; \p Open ends the inner
/// header (" {" or nothing).
void WmmaPrinter::fragmentLoops(unsigned Depth, llvm::StringRef Open) {
  W->line(Depth, "#pragma unroll");
  W->line(Depth, "for (int optiml_i = 0; optiml_i < " + num(Plan.fragsY()) +
                     "; ++optiml_i)");
  W->line(Depth + 1, "#pragma unroll");
  W->line(Depth + 1, "for (int optiml_j = 0; optiml_j < " + num(Plan.fragsX()) +
                         "; ++optiml_j)" + Open.str());
}

/// The shared tiles, the warp's place in the block's tile and its
/// accumulators, zeroed.
void WmmaPrinter::declarations(const Layout &A, const Layout &B) {
  W->line(1, "// tensor-cores(precision=" + P.Name.str() +
                 ", tile=" + num(Plan.Tile) + "): the block computes " +
                 num(Plan.Tile) + " x " + num(Plan.Tile) + " outputs, each of");
  W->line(1, "// its " + num(Plan.warps()) + " warps " + num(Plan.fragsY()) +
                 " x " + num(Plan.fragsX()) +
                 " pieces of 16 x 16 on the tensor cores.");
  W->line(1, "namespace wmma = nvcuda::wmma;");
  for (const Layout *L : {&A, &B}) {
    std::string Decl =
        "__shared__ __align__(32) " + P.TileType.str() + " " + L->Array;
    W->line(1, Decl + dims(L->Rows, L->Cols) + ";");
    if (P.Split)
      W->line(1, Decl + "_lo" + dims(L->Rows, L->Cols) + ";");
  }
  W->line(1, "__shared__ __align__(32) float optiml_tc[" + num(Plan.warps()) +
                 "][16][16 + 4];");
  W->line(1, "const int optiml_tid = threadIdx.y * 32 + threadIdx.x;");
  W->line(1, "const int optiml_wr = threadIdx.y / " + num(Plan.WarpsX) + " * " +
                 num(Plan.Tile / Plan.WarpsY) + ", optiml_wc = threadIdx.y % " +
                 num(Plan.WarpsX) + " * " + num(Plan.Tile / Plan.WarpsX) + ";");
  W->line(1, "wmma::fragment<wmma::accumulator, 16, 16, " + num(P.K) +
                 ", float> optiml_acc[" + num(Plan.fragsY()) + "][" +
                 num(Plan.fragsX()) + "];");
  fragmentLoops(1, "");
  W->line(3, "wmma::fill_fragment(optiml_acc[optiml_i][optiml_j], 0.0f);");
}

/// The guards on the operand's coordinate and the loop's own bound.
std::string WmmaPrinter::loadCondition(const MatmulOperand &O) const {
  std::vector<std::string> Terms = O.Guards;
  const CanonicalLoop &K = Nest.Bounds;
  Terms.push_back(K.IV->getName().str() + (K.Cmp == BO_LE ? " <= " : " < ") +
                  operand(*K.Bound, Ctx));
  return llvm::join(Terms, " && ");
}

/// The whole block loads one operand's tile, element e at row e / Cols and
/// column e % Cols, with the coordinate and the loop variable redeclared
/// under their own names so that the load and its guards read as written.
void WmmaPrinter::stage(const Layout &L) {
  unsigned Threads = 32 * Plan.warps();
  std::string Cols = num(L.Cols);
  W->line(2, "#pragma unroll");
  W->line(2, "for (int optiml_e = optiml_tid; optiml_e < " + num(L.Rows) +
                 " * " + Cols + "; optiml_e += " + num(Threads) + ") {");
  std::string Row = "optiml_e / " + Cols, Col = "optiml_e % " + Cols;
  bool KFirst = L.Op->KContiguous;
  const VarDecl &C = *L.Op->Coord, &IV = *Nest.Bounds.IV;
  W->line(3, "const " + typeOf(C) + " " + C.getName().str() + " = blockIdx." +
                 (L.Left ? "y" : "x") + " * " + num(Plan.Tile) + " + " +
                 (KFirst ? Row : Col) + ";");
  W->line(3, "const " + typeOf(IV) + " " + IV.getName().str() +
                 " = optiml_k0 + " + (KFirst ? Col : Row) + ";");
  stageElement(L, Row, Col);
  W->line(2, "}");
}

void WmmaPrinter::stageElement(const Layout &L, llvm::StringRef Row,
                               llvm::StringRef Col) {
  std::string Cond = loadCondition(*L.Op);
  std::string Load = textOf(L.Op->Load->getSourceRange(), Ctx);
  std::string At = "[" + Row.str() + "][" + Col.str() + "]";
  std::string Zero =
      P.TileType == "float" ? "0.0f" : P.FromFloat.str() + "(0.0f)";
  if (P.Split) {
    W->line(3, "const float optiml_x = " + Cond + " ? " + Load + " : 0.0f;");
    W->line(3, "const float optiml_hi = wmma::__float_to_tf32(optiml_x);");
    W->line(3, L.Array + At + " = optiml_hi;");
    W->line(3, L.Array + "_lo" + At +
                   " = wmma::__float_to_tf32(optiml_x - optiml_hi);");
    return;
  }
  if (L.Op->ElemType == "float")
    Load = P.FromFloat.str() + "(" + Load + ")";
  W->line(3, L.Array + At + " = " + Cond + " ? " + Load + " : " + Zero + ";");
}

/// &tile[row][k] (or [k][row]) of the fragment's first element.
std::string WmmaPrinter::fragmentPtr(const Layout &L, llvm::StringRef Lane,
                                     llvm::StringRef Suffix) const {
  std::string Off =
      (L.Left ? "optiml_wr + 16 * " : "optiml_wc + 16 * ") + Lane.str();
  std::string At = L.Op->KContiguous ? "[" + Off + "][optiml_ks]"
                                     : "[optiml_ks][" + Off + "]";
  return "&" + L.Array + Suffix.str() + At;
}

void WmmaPrinter::multiply(const Layout &A, const Layout &B) {
  W->line(2, "__syncthreads();");
  W->line(2, "for (int optiml_ks = 0; optiml_ks < " + num(Plan.KTile) +
                 "; optiml_ks += " + num(P.K) + ") {");
  struct Side {
    const Layout *L;
    std::string Kind, Frag, Lane;
    unsigned Count;
  } Sides[] = {{&A, "matrix_a", "optiml_fa", "optiml_i", Plan.fragsY()},
               {&B, "matrix_b", "optiml_fb", "optiml_j", Plan.fragsX()}};
  std::vector<std::string> Suffixes = {""};
  if (P.Split)
    Suffixes.push_back("_lo");
  for (const Side &S : Sides)
    for (const std::string &Sfx : Suffixes)
      W->line(3, "wmma::fragment<wmma::" + S.Kind + ", 16, 16, " + num(P.K) +
                     ", " + P.FragType.str() + ", " + S.L->WmmaLayout + "> " +
                     S.Frag + Sfx + "[" + num(S.Count) + "];");
  for (const Side &S : Sides) {
    W->line(3, "#pragma unroll");
    W->line(3, "for (int " + S.Lane + " = 0; " + S.Lane + " < " + num(S.Count) +
                   "; ++" + S.Lane + ")" + (P.Split ? " {" : ""));
    for (const std::string &Sfx : Suffixes)
      W->line(4, "wmma::load_matrix_sync(" + S.Frag + Sfx + "[" + S.Lane +
                     "], " + fragmentPtr(*S.L, S.Lane, Sfx) + ", " +
                     num(S.L->Cols + 16 / P.Bytes) + ");");
    if (P.Split)
      W->line(3, "}");
  }
  std::string Acc = "optiml_acc[optiml_i][optiml_j]";
  auto Mma = [&](llvm::StringRef FA, llvm::StringRef FB) {
    return "wmma::mma_sync(" + Acc + ", " + FA.str() + "[optiml_i], " +
           FB.str() + "[optiml_j], " + Acc + ");";
  };
  fragmentLoops(3, P.Split ? " {" : "");
  if (P.Split) {
    // The small terms first, so that they are not lost against the large.
    W->line(5, Mma("optiml_fa_lo", "optiml_fb"));
    W->line(5, Mma("optiml_fa", "optiml_fb_lo"));
  }
  W->line(5, Mma("optiml_fa", "optiml_fb"));
  if (P.Split)
    W->line(4, "}");
  W->line(2, "}");
  W->line(2, "__syncthreads();");
}

/// Each warp stores one 16 x 16 piece at a time and its lanes hand its
/// sums to the kernel's statements, consecutive lanes on consecutive
/// output elements.
llvm::Error WmmaPrinter::epilogue() {
  auto Body = elementBody();
  if (!Body)
    return Body.takeError();
  bool X = Nest.OutputXContiguous;
  std::string R = X ? "optiml_e / 16" : "optiml_e % 16";
  std::string C = X ? "optiml_e % 16" : "optiml_e / 16";
  fragmentLoops(1, " {");
  W->line(3, "wmma::store_matrix_sync(&optiml_tc[threadIdx.y][0][0], "
             "optiml_acc[optiml_i][optiml_j], 16 + 4, wmma::mem_row_major);");
  W->line(3, "__syncwarp();");
  W->line(3, "for (int optiml_e = threadIdx.x; optiml_e < 16 * 16; "
             "optiml_e += 32) {");
  W->line(4, "const int optiml_row = blockIdx.y * " + num(Plan.Tile) +
                 " + optiml_wr + 16 * optiml_i + " + R + ";");
  W->line(4, "const int optiml_col = blockIdx.x * " + num(Plan.Tile) +
                 " + optiml_wc + 16 * optiml_j + " + C + ";");
  W->line(4, "const float optiml_sum = optiml_tc[threadIdx.y][" + R + "][" + C +
                 "];");
  W->lines(4, *Body);
  W->line(3, "}");
  W->line(3, "__syncwarp();");
  W->line(2, "}");
  return llvm::Error::success();
}

/// The kernel's statements for one element: the coordinates set to the
/// element's, early returns continuing to the next element, and the loop
/// replaced by adding the sum.
llvm::Expected<std::vector<std::string>> WmmaPrinter::elementBody() const {
  const Stmt &First = *Nest.Body->body_front(), &Last = *Nest.Body->body_back();
  auto S = SourceSnippet::ofTokens(First.getBeginLoc(), Last.getEndLoc(), Ctx);
  if (!S)
    return S.takeError();
  const char *Names[2] = {"optiml_col", "optiml_row"};
  for (unsigned D = 0; D < 2; ++D)
    if (llvm::Error E =
            S->replace(Nest.Coord[D]->getInit()->getSourceRange(), Names[D]))
      return E;
  for (const ReturnStmt *R : Nest.Returns)
    if (llvm::Error E = S->replace(R->getSourceRange(), "continue"))
      return E;
  bool Braced = isa<CompoundStmt>(Nest.Loop->getBody());
  if (llvm::Error E = S->replace(Nest.Loop->getSourceRange(),
                                 Nest.Accumulate + (Braced ? ";" : "")))
    return E;
  // The last statement's `;`, which its tokens end before.
  const SourceManager &SM = Ctx.getSourceManager();
  auto End = SourceSnippet::endOffset(Last, Ctx);
  auto LastTok = SourceSnippet::offsetOf(Last.getEndLoc(), Ctx);
  if (!End || !LastTok) {
    llvm::consumeError(End.takeError());
    llvm::consumeError(LastTok.takeError());
    return makeError(ErrorKind::NotApplicable,
                     "the kernel's last statement is not written in the "
                     "file");
  }
  unsigned TokEnd =
      *LastTok + Lexer::MeasureTokenLength(SM.getExpansionLoc(Last.getEndLoc()),
                                           SM, Ctx.getLangOpts());
  std::vector<std::string> Lines = S->lines();
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  if (*End > TokEnd)
    Lines.back() += Buf.slice(TokEnd, *End).trim().str();
  // A comment that ends the last statement's line comes along.
  llvm::StringRef Rest = Buf.substr(*End);
  Rest = Rest.take_until([](char C) { return C == '\n'; }).trim();
  if (Rest.starts_with("//"))
    Lines.back() += " " + Rest.str();
  return Lines;
}
