//===- CompareTest.cpp - The runner's element-wise comparison rules -------===//
//
// Each numeric rule of DESIGN.md section 3, as runtime/src/Compare.cpp
// applies it, with a case that passes and one that fails: the relative and
// the absolute tolerance (their bound included), NaN and infinities in the
// candidate where the reference is finite and where it is not, the norm's
// figures, integer exactness, and two runs of one kernel agreeing. The
// bounds are exact binary fractions, so "just inside" and "just outside"
// are one float apart.
//
//===----------------------------------------------------------------------===//

#include "Compare.h"
#include "ElemAccess.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

using namespace optiml;

namespace {

constexpr double Inf = std::numeric_limits<double>::infinity();
const double NaN = std::nan("");

/// Packed elements of type \p T with the values \p Values.
std::vector<unsigned char> packed(ElemType T, std::vector<double> Values) {
  std::vector<unsigned char> Data(Values.size() * elemSize(T));
  for (size_t I = 0; I < Values.size(); ++I)
    storeDouble(T, Values[I], Data.data(), I);
  return Data;
}

std::vector<unsigned char> floats(std::vector<double> Values) {
  return packed(ElemType::F32, std::move(Values));
}

/// The float one step above \p V towards +infinity.
double justAbove(float V) {
  return std::nextafter(V, std::numeric_limits<float>::infinity());
}

Arg output(ElemType T, uint64_t Count) {
  Arg A;
  A.Name = "y";
  A.Role = ArgRole::Out;
  A.Type = T;
  A.Count = Count;
  return A;
}

Tolerance tol(double Rtol, double Atol, double Norm = 1e9) {
  return Tolerance{Rtol, Atol, Norm};
}

/// What compareBuffers found: its figures and each failing lane.
struct Found {
  CompareStats Stats;
  std::vector<std::pair<ElemIssue, size_t>> Issues;
};

Found compare(ElemType T, const std::vector<unsigned char> &Ref,
              const std::vector<unsigned char> &Cand, const Tolerance &Tol,
              const std::vector<bool> *Skip = nullptr) {
  Found F;
  Arg A = output(T, Ref.size() / elemSize(T));
  F.Stats = compareBuffers(A, Ref.data(), Cand.data(), Tol, Skip,
                           [&](ElemIssue Issue, size_t Lane) {
                             F.Issues.emplace_back(Issue, Lane);
                           });
  return F;
}

std::vector<std::pair<ElemIssue, size_t>> mismatchesAt(std::vector<size_t> L) {
  std::vector<std::pair<ElemIssue, size_t>> Out;
  for (size_t Lane : L)
    Out.emplace_back(ElemIssue::Mismatch, Lane);
  return Out;
}

bool agree(ElemType T, double X, double Y, const Tolerance &Tol) {
  std::vector<unsigned char> A = packed(T, {X}), B = packed(T, {Y});
  return runsAgree(T, A.data(), B.data(), 0, Tol);
}

} // namespace

TEST(CompareTest, RelativeToleranceScalesWithTheReference) {
  // rtol 0.25: within 1 of 4 and of -4, within 2 of 8, the bound included.
  std::vector<unsigned char> Ref = floats({4, -4, 8});
  Found Inside = compare(ElemType::F32, Ref, floats({5, -5, 6}), tol(0.25, 0));
  EXPECT_TRUE(Inside.Issues.empty());
  EXPECT_EQ(Inside.Stats.Compared, 3u);
  EXPECT_EQ(Inside.Stats.Mismatches, 0u);
  Found Outside =
      compare(ElemType::F32, Ref, floats({justAbove(5), -justAbove(5), 10.5}),
              tol(0.25, 0));
  EXPECT_EQ(Outside.Issues, mismatchesAt({0, 1, 2}));
  EXPECT_EQ(Outside.Stats.Mismatches, 3u);
  EXPECT_EQ(Outside.Stats.NonFinite, 0u);
}

TEST(CompareTest, AbsoluteToleranceCoversValuesNearZero) {
  // atol 0.5: a zero reference admits 0.5 and no more.
  std::vector<unsigned char> Ref = floats({0, -3});
  EXPECT_TRUE(compare(ElemType::F32, Ref, floats({0.5, -3.5}), tol(0, 0.5))
                  .Issues.empty());
  EXPECT_EQ(
      compare(ElemType::F32, Ref, floats({justAbove(0.5), -2}), tol(0, 0.5))
          .Issues,
      mismatchesAt({0, 1}));
}

TEST(CompareTest, TheTwoTolerancesAdd) {
  // atol 0.5 + rtol 0.25 * 4 = 1.5.
  std::vector<unsigned char> Ref = floats({4});
  EXPECT_TRUE(compare(ElemType::F32, Ref, floats({5.5}), tol(0.25, 0.5))
                  .Issues.empty());
  EXPECT_EQ(
      compare(ElemType::F32, Ref, floats({justAbove(5.5)}), tol(0.25, 0.5))
          .Issues,
      mismatchesAt({0}));
}

TEST(CompareTest, NaNOrInfinityWhereTheReferenceIsFiniteFails) {
  std::vector<unsigned char> Ref = floats({1, 1, 1});
  Found Bad =
      compare(ElemType::F32, Ref, floats({NaN, Inf, -Inf}), tol(1e9, 1e9));
  EXPECT_EQ(Bad.Stats.NonFinite, 3u);
  EXPECT_EQ(Bad.Stats.Mismatches, 0u);
  ASSERT_EQ(Bad.Issues.size(), 3u);
  for (size_t L = 0; L < 3; ++L)
    EXPECT_EQ(Bad.Issues[L], std::make_pair(ElemIssue::NonFinite, L));
  Found Good = compare(ElemType::F32, Ref, floats({1, 1, 1}), tol(0, 0));
  EXPECT_EQ(Good.Stats.NonFinite, 0u);
  EXPECT_TRUE(Good.Issues.empty());
}

TEST(CompareTest, NaNInTheReferenceWantsNaN) {
  std::vector<unsigned char> Ref = floats({NaN, NaN});
  std::vector<unsigned char> Cand = floats({NaN, 1});
  Cand[0] ^= 1; // Another NaN payload is still a NaN.
  Found F = compare(ElemType::F32, Ref, Cand, tol(1e9, 1e9));
  EXPECT_EQ(F.Issues, mismatchesAt({1}));
  EXPECT_EQ(F.Stats.NonFinite, 0u);
  EXPECT_EQ(F.Stats.NormErr, 0); // Non-finite pairs have no magnitude.
}

TEST(CompareTest, InfinitiesMustMatchExactly) {
  std::vector<unsigned char> Ref = floats({Inf, -Inf, Inf, Inf, -Inf});
  Found F = compare(ElemType::F32, Ref, floats({Inf, -Inf, -Inf, NaN, -3e38}),
                    tol(1e9, 1e9));
  EXPECT_EQ(F.Issues, mismatchesAt({2, 3, 4}));
  EXPECT_EQ(F.Stats.NonFinite, 0u);
}

TEST(CompareTest, TheNormIsRelativeToTheReference) {
  // ||(0, 0.5)|| / ||(3, 4)|| = 0.1.
  Found F = compare(ElemType::F32, floats({3, 4}), floats({3, 4.5}), tol(1, 0));
  EXPECT_DOUBLE_EQ(F.Stats.NormErr, 0.1);
  EXPECT_DOUBLE_EQ(F.Stats.MaxAbsErr, 0.5);
  EXPECT_DOUBLE_EQ(F.Stats.MaxRelErr, 0.125);
  // A reference of norm below 1 still scales: 0.25 / 0.5.
  F = compare(ElemType::F32, floats({0.5}), floats({0.75}), tol(1, 0));
  EXPECT_DOUBLE_EQ(F.Stats.NormErr, 0.5);
  // An all-zero reference has no scale: the norm is absolute.
  F = compare(ElemType::F32, floats({0, 0}), floats({3, 4}), tol(0, 9));
  EXPECT_DOUBLE_EQ(F.Stats.NormErr, 5);
  // Equal outputs have no error at all.
  F = compare(ElemType::F32, floats({3, 4}), floats({3, 4}), tol(0, 0));
  EXPECT_EQ(F.Stats.NormErr, 0);
  EXPECT_EQ(F.Stats.MaxAbsErr, 0);
}

TEST(CompareTest, RelativeErrorSkipsZeroReferences) {
  Found F =
      compare(ElemType::F32, floats({0, 2, 8}), floats({1, 2.5, 9}), tol(1, 1));
  EXPECT_DOUBLE_EQ(F.Stats.MaxAbsErr, 1);
  EXPECT_DOUBLE_EQ(F.Stats.MaxRelErr, 0.25); // Not 1 / 0.
  EXPECT_DOUBLE_EQ(F.Stats.NormErr, std::sqrt(1 + 0.25 + 1) / std::sqrt(68.0));
}

TEST(CompareTest, NonFinitePairsStayOutOfTheNorm) {
  Found F = compare(ElemType::F32, floats({1, 2}), floats({NaN, 2}), tol(1, 1));
  EXPECT_EQ(F.Stats.NonFinite, 1u);
  EXPECT_EQ(F.Stats.NormErr, 0);
  EXPECT_EQ(F.Stats.MaxAbsErr, 0);
}

TEST(CompareTest, IntegersMustMatchExactly) {
  std::vector<unsigned char> Ref = packed(ElemType::I32, {1000000, -5});
  Found Equal = compare(ElemType::I32, Ref, Ref, tol(0, 0));
  EXPECT_TRUE(Equal.Issues.empty());
  // Off by one fails whatever the tolerance; the error is still reported.
  Found Off = compare(ElemType::I32, Ref, packed(ElemType::I32, {1000001, -5}),
                      tol(1, 1));
  EXPECT_EQ(Off.Issues, mismatchesAt({0}));
  EXPECT_EQ(Off.Stats.Mismatches, 1u);
  EXPECT_DOUBLE_EQ(Off.Stats.MaxAbsErr, 1);
  // 64-bit integers that a double cannot tell apart are still different.
  std::vector<unsigned char> Big(8), Bigger(8);
  storeInt(ElemType::I64, int64_t(1) << 60, Big.data(), 0);
  storeInt(ElemType::I64, (int64_t(1) << 60) + 1, Bigger.data(), 0);
  EXPECT_EQ(compare(ElemType::I64, Big, Bigger, tol(1, 1)).Issues,
            mismatchesAt({0}));
}

TEST(CompareTest, SkippedLanesAreNotCompared) {
  std::vector<unsigned char> Ref = floats({1, 2, 3}), Cand = floats({9, 2, 9});
  std::vector<bool> Skip = {true, false, true};
  Found Skipped = compare(ElemType::F32, Ref, Cand, tol(0, 0), &Skip);
  EXPECT_EQ(Skipped.Stats.Compared, 1u);
  EXPECT_TRUE(Skipped.Issues.empty());
  EXPECT_EQ(Skipped.Stats.NormErr, 0);
  Found All = compare(ElemType::F32, Ref, Cand, tol(0, 0));
  EXPECT_EQ(All.Stats.Compared, 3u);
  EXPECT_EQ(All.Issues, mismatchesAt({0, 2}));
}

TEST(CompareTest, RunsAgreeOnIdenticalBits) {
  EXPECT_TRUE(agree(ElemType::F32, 1.5, 1.5, tol(0, 0)));
  EXPECT_TRUE(agree(ElemType::I32, 7, 7, tol(0, 0)));
  EXPECT_TRUE(agree(ElemType::F32, Inf, Inf, tol(0, 0)));
  EXPECT_FALSE(agree(ElemType::F32, 1.5, justAbove(1.5), tol(0, 0)));
}

TEST(CompareTest, RunsAgreeWhenBothAreNaN) {
  std::vector<unsigned char> A = floats({NaN}), B = A;
  B[0] ^= 1; // Another payload.
  EXPECT_TRUE(runsAgree(ElemType::F32, A.data(), B.data(), 0, tol(0, 0)));
  EXPECT_FALSE(agree(ElemType::F32, NaN, 1, tol(1e9, 1e9)));
  EXPECT_FALSE(agree(ElemType::F32, 1, NaN, tol(1e9, 1e9)));
}

TEST(CompareTest, RunsAgreeOnInfinitiesOnlyWhenEqual) {
  // With a relative tolerance, |3e38 - inf| <= rtol * inf would hold.
  EXPECT_FALSE(agree(ElemType::F32, Inf, 3e38, tol(1e-5, 0)));
  EXPECT_FALSE(agree(ElemType::F32, 3e38, Inf, tol(1e-5, 0)));
  EXPECT_FALSE(agree(ElemType::F32, Inf, -Inf, tol(1e9, 1e9)));
}

TEST(CompareTest, FloatRunsAgreeWithinTheTolerance) {
  // Floating-point atomics may sum in another order.
  EXPECT_TRUE(agree(ElemType::F32, 4, 5.5, tol(0.25, 0.5)));
  EXPECT_FALSE(agree(ElemType::F32, 4, justAbove(5.5), tol(0.25, 0.5)));
  EXPECT_TRUE(agree(ElemType::F32, -4, -5, tol(0.25, 0)));
}

TEST(CompareTest, IntegerRunsMustBeIdentical) {
  EXPECT_FALSE(agree(ElemType::I32, 7, 8, tol(1, 1)));
  EXPECT_FALSE(agree(ElemType::U8, 7, 8, tol(1, 1)));
}
