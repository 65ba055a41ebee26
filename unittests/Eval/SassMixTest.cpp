//===- SassMixTest.cpp - instruction mixes from cuobjdump -sass ----------===//
//
// The Inputs/*.sass files are `cuobjdump -sass` (CUDA 13.0) of sm_90 builds,
// trimmed to fewer NOPs and encoding lines; every count below was checked
// with grep on them. spill.sass and sgemm-tiled.sass come from
// Inputs/sass-kernels.cu built as the Builder does (-shared, -fPIC), the
// first with -maxrregcount=24, and keep only some of their lines.
//
//===----------------------------------------------------------------------===//

#include "optiml/Eval/SassMix.h"
#include "optiml/Support/Error.h"

#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <nlohmann/json.hpp>

using namespace optiml;

namespace {

std::string input(const char *Name) {
  auto Buf = llvm::MemoryBuffer::getFile(std::string(OPTIML_UNITTEST_INPUTS) +
                                         "/" + Name);
  if (!Buf) {
    ADD_FAILURE() << "missing input " << Name;
    return "";
  }
  return (*Buf)->getBuffer().str();
}

void expectWidths(const WidthCounts &W, unsigned B32, unsigned B64,
                  unsigned B128) {
  EXPECT_EQ(W.Bits32, B32);
  EXPECT_EQ(W.Bits64, B64);
  EXPECT_EQ(W.Bits128, B128);
}

/// Every instruction lands in exactly one class.
unsigned classified(const SassMix &M) {
  unsigned Memory = 0;
  for (const WidthCounts *W : {&M.GlobalLoads, &M.GlobalStores, &M.SharedLoads,
                               &M.SharedStores, &M.LocalLoads, &M.LocalStores})
    Memory += W->total();
  return Memory + M.fp32() + M.Fp64 + M.Integer + M.Control + M.Barriers +
         M.Shuffles + M.Special + M.Atomics + M.Other;
}

TEST(SassMixTest, SharedLibraryDumpWithEmptyElfSections) {
  // A -shared build: two ELF sections without functions, then the kernel.
  auto Mixes = parseSass(input("saxpy-so.sass"));
  ASSERT_EQ(Mixes.size(), 1u);
  const SassMix &M = Mixes[0];
  EXPECT_EQ(M.Function, "_Z5saxpyifPKfPf");
  // 22 instruction lines, less 2 NOPs and the final `BRA 0x130` to itself.
  EXPECT_EQ(M.Instructions, 19u);
  EXPECT_EQ(M.Predicated, 1u); // @P0 EXIT
  expectWidths(M.GlobalLoads, 2, 0, 0);
  expectWidths(M.GlobalStores, 1, 0, 0);
  EXPECT_EQ(M.Ffma, 1u);
  EXPECT_EQ(M.Integer, 4u); // IMAD, 2 x IMAD.WIDE, ISETP
  EXPECT_EQ(M.Control, 2u); // 2 x EXIT
  EXPECT_EQ(M.Other, 9u);   // LDC, ULDC, S2R, S2UR
  EXPECT_EQ(classified(M), M.Instructions);
}

TEST(SassMixTest, NaiveSgemmIsScalarLoadsAndAddressArithmetic) {
  auto M = parseSassMix(input("sgemm.sass"), "sgemm");
  ASSERT_TRUE(M.has_value());
  EXPECT_EQ(M->Function, "_Z5sgemmPKfS0_Pfiii");
  EXPECT_EQ(M->Instructions, 201u);
  EXPECT_EQ(M->Predicated, 11u);
  expectWidths(M->GlobalLoads, 58, 0, 0);
  expectWidths(M->GlobalStores, 1, 0, 0);
  EXPECT_EQ(M->Ffma, 29u);
  EXPECT_EQ(M->Integer, 72u);
  EXPECT_EQ(M->Control, 12u); // 2 EXIT, 10 BRA (the one to itself excluded)
  EXPECT_EQ(M->SharedLoads.total(), 0u);
  EXPECT_EQ(M->LocalLoads.total() + M->LocalStores.total(), 0u);
  EXPECT_EQ(M->Other, 29u); // MOV, LDC, S2R, PLOP3, HFMA2.MMA (a move)...
  EXPECT_EQ(classified(*M), M->Instructions);
}

TEST(SassMixTest, WideAndPredicatedAccessesPerFunction) {
  auto Mixes = parseSass(input("vec.sass"));
  ASSERT_EQ(Mixes.size(), 2u);
  const SassMix &Tile = Mixes[0];
  EXPECT_EQ(Tile.Function, "_Z4tilePKfPfi");
  EXPECT_EQ(Tile.Instructions, 29u);
  EXPECT_EQ(Tile.Predicated, 3u);          // @!P0 FADD, STG.E, EXIT
  expectWidths(Tile.GlobalLoads, 1, 0, 1); // LDG.E, LDG.E.128.CONSTANT
  expectWidths(Tile.GlobalStores, 2, 0, 0);
  expectWidths(Tile.SharedLoads, 0, 0, 1);
  expectWidths(Tile.SharedStores, 0, 0, 1);
  EXPECT_EQ(Tile.Barriers, 1u);
  EXPECT_EQ(Tile.Fadd, 1u);
  EXPECT_EQ(Tile.Ffma, 1u);
  EXPECT_EQ(Tile.Integer, 9u); // ULEA counts: uniform address arithmetic.
  EXPECT_DOUBLE_EQ(Tile.GlobalLoads.wideShare(), 0.5);
  EXPECT_EQ(classified(Tile), Tile.Instructions);

  const SassMix &Copy = Mixes[1];
  EXPECT_EQ(Copy.Function, "_Z5vcopyPK6float4PS_i");
  EXPECT_EQ(Copy.Instructions, 19u);
  expectWidths(Copy.GlobalLoads, 0, 0, 1);
  expectWidths(Copy.GlobalStores, 0, 0, 1);
  EXPECT_EQ(classified(Copy), Copy.Instructions);
}

TEST(SassMixTest, SharedReductionWithBarriers) {
  auto M = parseSassMix(input("block_sum.sass"), "block_sum");
  ASSERT_TRUE(M.has_value());
  EXPECT_EQ(M->Instructions, 42u);
  EXPECT_EQ(M->Predicated, 11u);
  expectWidths(M->SharedLoads, 3, 0, 0);
  expectWidths(M->SharedStores, 2, 0, 0);
  EXPECT_EQ(M->Barriers, 2u);
  EXPECT_EQ(M->Fadd, 1u);
  EXPECT_EQ(M->Control, 4u);
  EXPECT_EQ(M->Integer, 16u);
  EXPECT_EQ(classified(*M), M->Instructions);
}

TEST(SassMixTest, LocalLoadsAndStoresOfASpillingKernel) {
  // ptxas: 176 bytes stack frame, 36 bytes spill stores, 44 bytes spill
  // loads at 24 registers.
  auto M = parseSassMix(input("spill.sass"), "spill");
  ASSERT_TRUE(M.has_value());
  EXPECT_EQ(M->Instructions, 35u);
  expectWidths(M->LocalLoads, 4, 0, 2);  // LDL, LDL.LU, LDL.LU.128
  expectWidths(M->LocalStores, 5, 0, 9); // STL, STL.128
  EXPECT_EQ(M->Special, 2u);             // MUFU.SIN
  EXPECT_EQ(M->Fmul, 2u);                // FMUL.RZ
  EXPECT_EQ(M->Control, 1u);
  EXPECT_EQ(classified(*M), M->Instructions);
}

TEST(SassMixTest, SharedTiledSgemmLoadsOperandsFromShared) {
  auto M = parseSassMix(input("sgemm-tiled.sass"), "sgemm_tiled");
  ASSERT_TRUE(M.has_value());
  EXPECT_EQ(M->Function, "_Z11sgemm_tiledPKfS0_Pfi");
  EXPECT_EQ(M->Instructions, 81u);
  EXPECT_EQ(M->Predicated, 2u);
  // As[ty][k] comes as LDS.128, Bs[k][tx] as one LDS per k.
  expectWidths(M->SharedLoads, 16, 0, 4);
  expectWidths(M->SharedStores, 2, 0, 0);
  expectWidths(M->GlobalLoads, 2, 0, 0);
  EXPECT_EQ(M->Ffma, 12u);
  EXPECT_EQ(M->Barriers, 2u);
  EXPECT_EQ(M->Integer, 22u);
  EXPECT_EQ(M->Control, 3u);
  EXPECT_EQ(classified(*M), M->Instructions);
  // "sgemm" is another kernel: its mangled name would be "5sgemm".
  EXPECT_FALSE(parseSassMix(input("sgemm-tiled.sass"), "sgemm").has_value());
}

TEST(SassMixTest, PicksTheKernelByItsMangledName) {
  std::string Dump = input("vec.sass");
  auto Copy = parseSassMix(Dump, "vcopy");
  ASSERT_TRUE(Copy.has_value());
  EXPECT_EQ(Copy->Function, "_Z5vcopyPK6float4PS_i");
  // Mangling spells the kernel "5vcopy": "copy" alone names no function.
  EXPECT_FALSE(parseSassMix(Dump, "copy").has_value());
  EXPECT_FALSE(parseSassMix(Dump, "saxpy").has_value());
}

TEST(SassMixTest, NotADumpGivesNothing) {
  EXPECT_TRUE(parseSass("").empty());
  EXPECT_TRUE(parseSass("cuobjdump fatal   : Could not open input file "
                        "'x.so'\n")
                  .empty());
  // Instruction-like lines outside any function are not counted anywhere.
  EXPECT_TRUE(parseSass("        /*0000*/   FFMA R1, R2, R3, R4 ;\n").empty());
}

TEST(SassMixTest, JsonRoundTrip) {
  auto M = parseSassMix(input("vec.sass"), "tile");
  ASSERT_TRUE(M.has_value());
  nlohmann::json J = toJSON(*M);
  EXPECT_EQ(J["function"], "_Z4tilePKfPfi");
  EXPECT_EQ(J["global_loads"]["128"], 1);
  EXPECT_EQ(J["global_loads"]["32"], 1);
  EXPECT_EQ(J["barriers"], 1);
  auto Back = sassMixFromJSON(J);
  ASSERT_TRUE(static_cast<bool>(Back)) << summarize(Back.takeError()).Message;
  EXPECT_EQ(toJSON(*Back), J);

  J["ffma"] = -1;
  auto Bad = sassMixFromJSON(J);
  ASSERT_FALSE(static_cast<bool>(Bad));
  EXPECT_EQ(summarize(Bad.takeError()).Message,
            "SASS mix: 'ffma' is not a count");
  auto NotObject = sassMixFromJSON(nlohmann::json::array());
  EXPECT_FALSE(static_cast<bool>(NotObject));
  llvm::consumeError(NotObject.takeError());
}

} // namespace

namespace {

/// \p Dump with its first occurrence of \p From replaced by \p To.
std::string replaced(std::string Dump, llvm::StringRef From,
                     llvm::StringRef To) {
  size_t At = Dump.find(From.str());
  EXPECT_NE(At, std::string::npos) << From.str();
  if (At != std::string::npos)
    Dump.replace(At, From.size(), To.str());
  return Dump;
}

} // namespace

TEST(SassMixTest, CodeHashIsTheInstructionsNotTheHeaders) {
  std::string Dump = input("saxpy-so.sass");
  std::string Hash = sassCodeHash(Dump);
  EXPECT_EQ(Hash.size(), 64u);
  // Headers and blank lines say nothing of the code.
  EXPECT_EQ(sassCodeHash(
                replaced(Dump, "code version = [1,8]", "code version = [1,9]")),
            Hash);
  EXPECT_EQ(sassCodeHash("\n\n" + Dump + "\n"), Hash);
  // An operand, an encoding, the function's name each make other code.
  EXPECT_NE(sassCodeHash(
                replaced(Dump, "LDC R1, c[0x0][0x28]", "LDC R1, c[0x0][0x2c]")),
            Hash);
  EXPECT_NE(
      sassCodeHash(replaced(Dump, "0x000fe20000000800", "0x000fe20000000801")),
      Hash);
  EXPECT_NE(sassCodeHash(replaced(Dump, "_Z5saxpyifPKfPf", "_Z5saxpzifPKfPf")),
            Hash);
  EXPECT_NE(sassCodeHash(""), Hash);
}
