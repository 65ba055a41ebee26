//===- LanesTest.cpp - the runner's inputs and comparisons, lane by lane --===//
//
// The runner's host code that decides what a candidate is fed and whether
// its outputs match: narrow floats through the toolkit's conversions,
// buffers of vectors and structs walked as lanes each with its own type and
// distribution, and the edge seed's inputs. No GPU is needed to decide.
//
//===----------------------------------------------------------------------===//

#include "Compare.h"
#include "ElemAccess.h"
#include "Failure.h"
#include "Inputs.h"

#include "gtest/gtest.h"

#include <cmath>
#include <set>

using namespace optiml;
using protocol::Field;

namespace {

Distribution uniform(double Lo, double Hi) {
  Distribution D;
  D.K = Distribution::Kind::Uniform;
  D.Lo = Lo;
  D.Hi = Hi;
  return D;
}

Distribution ints(int64_t Lo, int64_t Hi) {
  Distribution D;
  D.K = Distribution::Kind::Int;
  D.IntLo = Lo;
  D.IntHi = Hi;
  return D;
}

/// A buffer of `struct { float t; int id; }`, \p N elements.
Arg hits(uint64_t N) {
  Arg A;
  A.Name = "hits";
  A.Role = ArgRole::In;
  A.Type = ElemType::F32;
  A.Count = 2 * N;
  A.Fields = {Field{"t", ElemType::F32, uniform(5, 30)},
              Field{"id", ElemType::I32, ints(0, 7)}};
  return A;
}

} // namespace

TEST(LanesTest, NarrowFloatsRoundTripThroughTheToolkitsConversions) {
  unsigned char Buf[8] = {};
  storeDouble(ElemType::F16, 0.5, Buf, 0);
  EXPECT_EQ(Buf[0] | Buf[1] << 8, 0x3800); // binary16 0.5
  EXPECT_EQ(loadAsDouble(ElemType::F16, Buf, 0), 0.5);
  storeDouble(ElemType::F16, 1e9, Buf, 1); // Beyond the range: its largest.
  EXPECT_EQ(loadAsDouble(ElemType::F16, Buf, 1), 65504.0);
  storeDouble(ElemType::BF16, -3.0, Buf, 0);
  EXPECT_EQ(loadAsDouble(ElemType::BF16, Buf, 0), -3.0);
  storeDouble(ElemType::F8E4M3, 1000.0, Buf, 0);
  EXPECT_EQ(loadAsDouble(ElemType::F8E4M3, Buf, 0), 448.0);
  EXPECT_EQ(std::get<double>(elemValue(ElemType::F16, Buf, 1)), 65504.0);
  unsigned char Fp8[2] = {};
  storeDouble(ElemType::F8E5M2, 0.25, Fp8, 1);
  EXPECT_EQ(loadAsDouble(ElemType::F8E5M2, Fp8, 1), 0.25);
}

TEST(LanesTest, EachFieldIsDrawnFromItsOwnDistributionAndStream) {
  Arg A = hits(1000);
  std::vector<unsigned char> Data = generateBuffer(A, 0, 1);
  ASSERT_EQ(Data.size(), 8000u);
  std::set<int64_t> Ids;
  for (uint64_t E = 0; E < 1000; ++E) {
    double T = loadAsDouble(ElemType::F32, Data.data(), 2 * E);
    EXPECT_GE(T, 5);
    EXPECT_LT(T, 30);
    Ids.insert(
        std::get<int64_t>(elemValue(ElemType::I32, Data.data(), 2 * E + 1)));
  }
  EXPECT_EQ(Ids, (std::set<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  // Another distribution for `id` leaves `t` as it was.
  Arg B = A;
  B.Fields[1].Dist = ints(100, 200);
  std::vector<unsigned char> Other = generateBuffer(B, 0, 1);
  for (uint64_t E = 0; E < 1000; ++E)
    EXPECT_EQ(loadAsDouble(ElemType::F32, Data.data(), 2 * E),
              loadAsDouble(ElemType::F32, Other.data(), 2 * E));
}

TEST(LanesTest, LanesCompareByTheirOwnType) {
  Arg A = hits(4);
  A.Role = ArgRole::Out;
  std::vector<unsigned char> Ref = generateBuffer(A, 0, 1), Cand = Ref;
  Tolerance Tol{1e-3, 1e-3, 1e-3};
  // A float field a little off is within the tolerance ...
  storeDouble(ElemType::F32, loadAsDouble(ElemType::F32, Ref.data(), 2) + 1e-4,
              Cand.data(), 2);
  std::vector<size_t> Bad;
  auto OnIssue = [&](ElemIssue, size_t Lane) { Bad.push_back(Lane); };
  CompareStats S =
      compareBuffers(A, Ref.data(), Cand.data(), Tol, nullptr, OnIssue);
  EXPECT_EQ(S.Mismatches, 0u);
  // ... an int field off by one never is.
  storeInt(ElemType::I32,
           std::get<int64_t>(elemValue(ElemType::I32, Ref.data(), 5)) + 1,
           Cand.data(), 5);
  S = compareBuffers(A, Ref.data(), Cand.data(), Tol, nullptr, OnIssue);
  EXPECT_EQ(S.Mismatches, 1u);
  EXPECT_EQ(Bad, std::vector<size_t>{5});
  // The failure names the element and its field.
  Failure F;
  setElement(F, A, 5);
  EXPECT_EQ(F.Index, 2);
  EXPECT_EQ(F.Field, "id");
  setElement(F, A, -3); // A red zone before the buffer: a lane.
  EXPECT_EQ(F.Index, -3);
  EXPECT_FALSE(F.Field.has_value());
}

TEST(LanesTest, HalfOutputsCompareAsFloats) {
  Arg A;
  A.Name = "h";
  A.Role = ArgRole::Out;
  A.Type = ElemType::F16;
  A.Count = 2;
  unsigned char Ref[4], Cand[4];
  storeDouble(ElemType::F16, 100.0, Ref, 0);
  storeDouble(ElemType::F16, 1.0, Ref, 1);
  storeDouble(ElemType::F16, 100.0625, Cand, 0); // One ulp at 100.
  storeDouble(ElemType::F16, 1.0, Cand, 1);
  auto Count = [&](double Rtol) {
    return compareBuffers(A, Ref, Cand, Tolerance{Rtol, 0, 1}, nullptr,
                          [](ElemIssue, size_t) {})
        .Mismatches;
  };
  EXPECT_EQ(Count(1e-3), 0u);
  EXPECT_EQ(Count(1e-4), 1u);
}

TEST(LanesTest, EdgeInputsReachTheEndsOfTheirRanges) {
  Arg A = hits(4000);
  std::vector<unsigned char> Edge = generateEdgeBuffer(A, 0, 3);
  std::vector<unsigned char> Plain = generateBuffer(A, 0, 3);
  std::set<double> T, Id;
  size_t Changed = 0;
  for (uint64_t E = 0; E < 4000; ++E) {
    double V = loadAsDouble(ElemType::F32, Edge.data(), 2 * E);
    EXPECT_GE(V, 5);
    EXPECT_LT(V, 30);
    T.insert(V);
    Id.insert(loadAsDouble(ElemType::I32, Edge.data(), 2 * E + 1));
    Changed += V != loadAsDouble(ElemType::F32, Plain.data(), 2 * E);
  }
  EXPECT_TRUE(T.count(5.0));
  EXPECT_TRUE(T.count(double(std::nextafter(30.0f, 5.0f))));
  EXPECT_TRUE(Id.count(0) && Id.count(7) && Id.count(1));
  EXPECT_GT(Changed, 1000u); // About half of the lanes.
  EXPECT_LT(Changed, 3000u);
  // Zero, one, minus one and subnormals where the range holds them.
  Arg F;
  F.Name = "x";
  F.Role = ArgRole::In;
  F.Type = ElemType::F32;
  F.Count = 4000;
  F.Dist = uniform(-1, 1);
  std::vector<unsigned char> X = generateEdgeBuffer(F, 1, 3);
  std::set<double> Seen;
  for (uint64_t E = 0; E < 4000; ++E)
    Seen.insert(loadAsDouble(ElemType::F32, X.data(), E));
  for (double V : {-1.0, 0.0, 1.4e-45f * 1.0, -1.4e-45f * 1.0})
    EXPECT_TRUE(Seen.count(V)) << V;
  // An index table keeps its structure.
  F.Dist = Distribution();
  F.Dist->K = Distribution::Kind::Index;
  F.Dist->Scale = 4;
  EXPECT_EQ(generateEdgeBuffer(F, 1, 3), generateBuffer(F, 1, 3));
}

/// The index tables programs pass: row pointers of uneven rows, gather
/// maps, sorted keys.
TEST(LanesTest, IndexTablesHaveTheirStructure) {
  Arg A;
  A.Name = "t";
  A.Role = ArgRole::In;
  A.Type = ElemType::I32;
  A.Count = 1001;
  A.Dist = Distribution();
  A.Dist->K = Distribution::Kind::Offsets;
  A.Dist->IntLo = 0;
  A.Dist->IntHi = 40;
  std::vector<unsigned char> D = generateBuffer(A, 0, 1);
  std::set<int64_t> Gaps;
  EXPECT_EQ(loadAsDouble(ElemType::I32, D.data(), 0), 0);
  for (uint64_t I = 1; I < A.Count; ++I) {
    double Gap = loadAsDouble(ElemType::I32, D.data(), I) -
                 loadAsDouble(ElemType::I32, D.data(), I - 1);
    EXPECT_GE(Gap, 0);
    EXPECT_LE(Gap, 40);
    Gaps.insert(int64_t(Gap));
  }
  EXPECT_GT(Gaps.size(), 30u); // Uneven rows, empty ones among them.
  EXPECT_TRUE(Gaps.count(0));
  EXPECT_EQ(generateEdgeBuffer(A, 0, 1), D); // Structure is kept.

  A.Dist->K = Distribution::Kind::Permutation;
  D = generateBuffer(A, 0, 1);
  std::set<int64_t> Seen;
  bool Moved = false;
  for (uint64_t I = 0; I < A.Count; ++I) {
    auto V = int64_t(loadAsDouble(ElemType::I32, D.data(), I));
    Seen.insert(V);
    Moved = Moved || V != int64_t(I);
  }
  EXPECT_EQ(Seen.size(), A.Count);
  EXPECT_EQ(*Seen.begin(), 0);
  EXPECT_EQ(*Seen.rbegin(), 1000);
  EXPECT_TRUE(Moved);

  A.Type = ElemType::F32;
  A.Dist->K = Distribution::Kind::Sorted;
  A.Dist->Lo = -5;
  A.Dist->Hi = 5;
  D = generateBuffer(A, 0, 1);
  for (uint64_t I = 1; I < A.Count; ++I)
    EXPECT_LE(loadAsDouble(ElemType::F32, D.data(), I - 1),
              loadAsDouble(ElemType::F32, D.data(), I));
  EXPECT_GE(loadAsDouble(ElemType::F32, D.data(), 0), -5);
  EXPECT_LE(loadAsDouble(ElemType::F32, D.data(), 1000), 5);
}
