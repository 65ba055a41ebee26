//===- HostChecksTest.cpp - The runner's verdict rules, without a GPU -----===//
//
// runtime/src/HostChecks.cpp and RedZone.cpp decide, from host copies of a
// run's buffers, whether the run is correct and what the failure report
// says. Each rule has a case that passes and one that fails: red-zone
// damage before and after a buffer, a changed 'in' buffer, an unwritten
// element, two runs that disagree, the candidate against the reference
// (mismatch, nan, norm), the per-field rules of struct elements, and the
// edge seed's reasons to say nothing.
//
//===----------------------------------------------------------------------===//

#include "HostChecks.h"
#include "ElemAccess.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <variant>
#include <vector>

using namespace optiml;
using protocol::Field;
using Bytes = std::vector<unsigned char>;

namespace {

constexpr double Inf = std::numeric_limits<double>::infinity();
const double NaN = std::nan("");

Bytes packed(ElemType T, std::vector<double> Values) {
  Bytes Data(Values.size() * elemSize(T));
  for (size_t I = 0; I < Values.size(); ++I)
    storeDouble(T, Values[I], Data.data(), I);
  return Data;
}

Bytes floats(std::vector<double> Values) {
  return packed(ElemType::F32, std::move(Values));
}

Arg buffer(std::string Name, ArgRole Role, ElemType T, uint64_t Count) {
  Arg A;
  A.Name = std::move(Name);
  A.Role = Role;
  A.Type = T;
  A.Count = Count;
  return A;
}

/// `struct { float t; int id; }`, \p N elements.
Arg hits(ArgRole Role, uint64_t N) {
  Arg A = buffer("hits", Role, ElemType::F32, 2 * N);
  A.Fields = {Field{"t", ElemType::F32, std::nullopt},
              Field{"id", ElemType::I32, std::nullopt}};
  return A;
}

/// A struct buffer's lanes: (t, id) pairs.
Bytes hitsData(std::vector<std::pair<double, int64_t>> Elements) {
  Bytes Data(Elements.size() * 8);
  for (size_t E = 0; E < Elements.size(); ++E) {
    storeDouble(ElemType::F32, Elements[E].first, Data.data(), 2 * E);
    storeInt(ElemType::I32, Elements[E].second, Data.data(), 2 * E + 1);
  }
  return Data;
}

/// Element \p E of \p Data (of \p Size bytes each) set to the poison byte.
Bytes poisoned(Bytes Data, size_t E, size_t Size, unsigned char Byte) {
  for (size_t B = 0; B < Size; ++B)
    Data[E * Size + B] = Byte;
  return Data;
}

/// One instance, its checks under seed 7, and what they recorded.
struct Checked {
  Instance I;
  FailureLog Log;
  HostChecks::SideCounts Counts;
  Tolerance Tol{1e-3, 1e-3, 1e-3};

  explicit Checked(std::vector<Arg> Args) {
    I.Name = "inst";
    I.Args = std::move(Args);
  }
  HostChecks checks() { return HostChecks(I, 7, Tol, Log); }
  const std::vector<Failure> &failures() const { return Log.kept(); }
  std::vector<std::string> kinds() const {
    std::vector<std::string> K;
    for (const Failure &F : Log.kept())
      K.push_back(F.Kind);
    return K;
  }
  /// The two runs of one side, one output buffer per argument.
  SideRuns runs(std::vector<Bytes> Run1, std::vector<Bytes> Run2) {
    SideRuns R;
    R.Out[0] = std::move(Run1);
    R.Out[1] = std::move(Run2);
    return R;
  }
};

/// Red zones whose canary is intact.
Bytes canary() { return redZoneCanary(); }

using Strings = std::vector<std::string>;

} // namespace

// --- red zones ---------------------------------------------------------------

TEST(HostChecksTest, TheCanaryIsDeadbeefOverTheWholeZone) {
  // Neither poison byte, nor a small number a kernel would write.
  const unsigned char Word[4] = {0xDE, 0xAD, 0xBE, 0xEF};
  ASSERT_EQ(canary().size(), RedZoneBytes);
  for (size_t I = 0; I < RedZoneBytes; ++I)
    ASSERT_EQ(canary()[I], Word[I % 4]) << I;
}

TEST(HostChecksTest, IntactRedZonesAreNoFailure) {
  RedZoneReport Z = scanRedZones(canary(), canary(), 32);
  EXPECT_TRUE(Z.Intact);
  EXPECT_EQ(Z.DamagedBytes, 0u);
  Checked C({buffer("y", ArgRole::Out, ElemType::F32, 8)});
  C.checks().checkRedZone(Side::Candidate, 0, C.I.Args[0], Z, C.Counts);
  EXPECT_TRUE(C.Log.empty());
  EXPECT_TRUE(C.Counts.clean());
}

TEST(HostChecksTest, DamageBeforeTheBufferIsAnOutOfBoundsWrite) {
  Bytes Left = canary();
  Left[RedZoneBytes - 5] ^= 0xFF; // Byte -5: element -2 of a float buffer.
  Left[RedZoneBytes - 1] ^= 0xFF;
  RedZoneReport Z = scanRedZones(Left, canary(), 32);
  EXPECT_FALSE(Z.Intact);
  EXPECT_EQ(Z.FirstBadByte, -5);
  EXPECT_EQ(Z.DamagedBytes, 2u);
  EXPECT_EQ(Z.Expected, 0xEF);
  EXPECT_EQ(Z.Got, 0x10);

  Checked C({buffer("y", ArgRole::Out, ElemType::F32, 8)});
  C.checks().checkRedZone(Side::Candidate, 1, C.I.Args[0], Z, C.Counts);
  ASSERT_EQ(C.failures().size(), 1u);
  const Failure &F = C.failures()[0];
  EXPECT_EQ(F.Kind, "redzone");
  EXPECT_EQ(F.Instance, "inst");
  EXPECT_EQ(F.Seed, 7u);
  EXPECT_EQ(F.Buffer, "y");
  EXPECT_EQ(F.Index, -2);
  EXPECT_EQ(F.Expected, protocol::FailureValue(std::string("0xef")));
  EXPECT_EQ(F.Got, protocol::FailureValue(std::string("0x10")));
  EXPECT_EQ(F.Message, "out-of-bounds write: left red zone damaged at byte "
                       "offset -5 of a 32-byte buffer (2 bytes changed in "
                       "run 2)");
  EXPECT_EQ(C.Counts.RedZoneDamagedBytes, 2u);
}

TEST(HostChecksTest, DamageAfterTheBufferIsAnOutOfBoundsWrite) {
  Bytes Right = canary();
  Right[5] = 0; // Byte 37 of a 32-byte buffer: element 9.
  RedZoneReport Z = scanRedZones(canary(), Right, 32);
  EXPECT_EQ(Z.FirstBadByte, 37);
  EXPECT_EQ(Z.Expected, 0xAD);
  EXPECT_EQ(Z.Got, 0);

  Checked C({buffer("y", ArgRole::Out, ElemType::F32, 8)});
  C.checks().checkRedZone(Side::Reference, 0, C.I.Args[0], Z, C.Counts);
  ASSERT_EQ(C.failures().size(), 1u);
  EXPECT_EQ(C.failures()[0].Kind, "reference_redzone");
  EXPECT_EQ(C.failures()[0].Where, Side::Reference);
  EXPECT_EQ(C.failures()[0].Index, 9);
  EXPECT_NE(C.failures()[0].Message.find("right red zone"), std::string::npos);
  EXPECT_EQ(C.Counts.RedZoneDamagedBytes, 1u);
}

TEST(HostChecksTest, ARedZoneByteIsInTheElementItWouldBe) {
  // Byte offsets round down to elements: -4..-1 is element -1, 32..35 of
  // a 32-byte buffer element 8.
  Checked C({buffer("y", ArgRole::Out, ElemType::F32, 8)});
  for (long long Byte : {-4LL, -1LL, 32LL, 35LL}) {
    Bytes Left = canary(), Right = canary();
    if (Byte < 0)
      Left[RedZoneBytes + Byte] ^= 1;
    else
      Right[Byte - 32] ^= 1;
    RedZoneReport Z = scanRedZones(Left, Right, 32);
    EXPECT_EQ(Z.FirstBadByte, Byte);
    C.checks().checkRedZone(Side::Candidate, 0, C.I.Args[0], Z, C.Counts);
  }
  ASSERT_EQ(C.failures().size(), 4u);
  EXPECT_EQ(C.failures()[0].Index, -1);
  EXPECT_EQ(C.failures()[1].Index, -1);
  EXPECT_EQ(C.failures()[2].Index, 8);
  EXPECT_EQ(C.failures()[3].Index, 8);
}

TEST(HostChecksTest, TheFirstDamageIsReportedAndAllOfItCounted) {
  Bytes Left = canary(), Right = canary();
  Left[0] ^= 1;
  Right[0] ^= 1;
  Right[RedZoneBytes - 1] ^= 1;
  RedZoneReport Z = scanRedZones(Left, Right, 16);
  EXPECT_EQ(Z.FirstBadByte, -static_cast<long long>(RedZoneBytes));
  EXPECT_EQ(Z.Expected, 0xDE);
  EXPECT_EQ(Z.Got, 0xDF);
  EXPECT_EQ(Z.DamagedBytes, 3u);
}

// --- 'in' buffers ------------------------------------------------------------

TEST(HostChecksTest, AnInputBufferMustKeepItsBytes) {
  Checked C({buffer("x", ArgRole::In, ElemType::I32, 4)});
  Bytes Want = packed(ElemType::I32, {1, 2, 3, 4});
  C.checks().checkInputUnchanged(Side::Candidate, 0, C.I.Args[0], Want, Want,
                                 C.Counts);
  EXPECT_TRUE(C.Log.empty());

  Bytes Got = packed(ElemType::I32, {10, 2, 30, 4});
  C.checks().checkInputUnchanged(Side::Candidate, 0, C.I.Args[0], Want, Got,
                                 C.Counts);
  EXPECT_EQ(C.Counts.InputsModified, 2u);
  ASSERT_EQ(C.failures().size(), 2u);
  EXPECT_EQ(C.failures()[0].Index, 0);
  const Failure &F = C.failures()[1];
  EXPECT_EQ(F.Kind, "input_modified");
  EXPECT_EQ(F.Buffer, "x");
  EXPECT_EQ(F.Index, 2);
  EXPECT_EQ(F.Expected, protocol::FailureValue(int64_t(3)));
  EXPECT_EQ(F.Got, protocol::FailureValue(int64_t(30)));
  EXPECT_EQ(F.Message, "the kernel wrote into an 'in' buffer (run 1)");
}

// --- two runs ----------------------------------------------------------------

TEST(HostChecksTest, IdenticalRunsAreWrittenAndDeterministic) {
  Checked C({buffer("x", ArgRole::In, ElemType::F32, 2),
             buffer("y", ArgRole::Out, ElemType::F32, 3)});
  SideRuns R = C.runs({{}, floats({1, 2, 3})}, {{}, floats({1, 2, 3})});
  C.checks().checkRuns(Side::Candidate, R, C.Counts);
  EXPECT_TRUE(C.Log.empty());
  EXPECT_TRUE(C.Counts.clean());
  ASSERT_EQ(R.Suspect.size(), 2u);
  EXPECT_TRUE(R.Suspect[0].empty()); // Inputs have no outputs to suspect.
  EXPECT_EQ(R.Suspect[1], std::vector<bool>(3, false));
}

TEST(HostChecksTest, AnElementHoldingBothPoisonsIsUnwritten) {
  Checked C({buffer("y", ArgRole::Out, ElemType::F32, 3)});
  Bytes Ran = floats({1, 2, 3});
  SideRuns R = C.runs({poisoned(Ran, 1, 4, Poison[0])},
                      {poisoned(Ran, 1, 4, Poison[1])});
  C.checks().checkRuns(Side::Candidate, R, C.Counts);
  EXPECT_EQ(C.Counts.Unwritten, 1u);
  EXPECT_EQ(C.Counts.Nondeterministic, 0u);
  EXPECT_EQ(R.Suspect[0], (std::vector<bool>{false, true, false}));
  ASSERT_EQ(C.failures().size(), 1u);
  const Failure &F = C.failures()[0];
  EXPECT_EQ(F.Kind, "unwritten");
  EXPECT_EQ(F.Index, 1);
  EXPECT_TRUE(std::isnan(std::get<double>(F.Got))); // 0xFF bytes.
  EXPECT_EQ(F.Message, "element never written: it still holds the poison "
                       "(0xff in run 1, 0x5a in run 2)");
}

TEST(HostChecksTest, OnePoisonOrAPartOfOneIsARaceNotAnUnwrittenElement) {
  Checked C({buffer("y", ArgRole::Out, ElemType::F32, 3)});
  Bytes Ran = floats({1, 2, 3});
  Bytes Partly = poisoned(Ran, 2, 4, Poison[1]);
  Partly[8] = 0x00; // Three of element 2's four bytes hold the poison.
  SideRuns R =
      C.runs({poisoned(poisoned(Ran, 1, 4, Poison[0]), 2, 4, Poison[0])},
             {poisoned(Partly, 0, 4, Poison[1])});
  C.checks().checkRuns(Side::Candidate, R, C.Counts);
  EXPECT_EQ(C.Counts.Unwritten, 0u);
  EXPECT_EQ(C.Counts.Nondeterministic, 3u);
  EXPECT_EQ(C.kinds(), Strings(3, "nondeterministic"));
}

TEST(HostChecksTest, AnInOutBufferHoldingThePoisonsWasWritten) {
  // Only out buffers start from the poison; an inout one starts from its
  // inputs, so poison bytes there are values the kernel wrote.
  Checked C({buffer("y", ArgRole::InOut, ElemType::F32, 1)});
  SideRuns R = C.runs({poisoned(floats({0}), 0, 4, Poison[0])},
                      {poisoned(floats({0}), 0, 4, Poison[1])});
  C.checks().checkRuns(Side::Candidate, R, C.Counts);
  EXPECT_EQ(C.Counts.Unwritten, 0u);
  EXPECT_EQ(C.kinds(), Strings{"nondeterministic"});
}

TEST(HostChecksTest, RunsThatDisagreeAreNondeterministic) {
  Checked C({buffer("y", ArgRole::Out, ElemType::F32, 3),
             buffer("n", ArgRole::Out, ElemType::I32, 2)});
  // Element 0 within the tolerance (atomics in another order), 2 not.
  SideRuns R =
      C.runs({floats({1, 2, 3}), packed(ElemType::I32, {5, 6})},
             {floats({1.0005, 2, 3.5}), packed(ElemType::I32, {5, 7})});
  C.checks().checkRuns(Side::Reference, R, C.Counts);
  EXPECT_EQ(C.Counts.Nondeterministic, 2u);
  EXPECT_EQ(R.Suspect[0], (std::vector<bool>{false, false, true}));
  EXPECT_EQ(R.Suspect[1], (std::vector<bool>{false, true}));
  ASSERT_EQ(C.failures().size(), 2u);
  const Failure &F = C.failures()[0];
  EXPECT_EQ(F.Kind, "reference_nondeterministic");
  EXPECT_EQ(F.Buffer, "y");
  EXPECT_EQ(F.Index, 2);
  EXPECT_EQ(F.Expected, protocol::FailureValue(3.0));
  EXPECT_EQ(F.Got, protocol::FailureValue(3.5));
  EXPECT_NE(F.Message.find("two runs on identical inputs disagree"),
            std::string::npos);
  EXPECT_EQ(C.failures()[1].Buffer, "n");
  EXPECT_EQ(C.failures()[1].Index, 1);
}

// --- the candidate against the reference -------------------------------------

TEST(HostChecksTest, OutputsWithinTheToleranceMatch) {
  Checked C({buffer("x", ArgRole::In, ElemType::F32, 2),
             buffer("y", ArgRole::Out, ElemType::F32, 3)});
  SideRuns Cand = C.runs({{}, floats({1.0005, 2, 3})}, {});
  Cand.Suspect = {{}, std::vector<bool>(3, false)};
  std::vector<protocol::BufferComparison> Buffers;
  EXPECT_TRUE(
      C.checks().compareWithReference({{}, floats({1, 2, 3})}, Cand, Buffers));
  EXPECT_TRUE(C.Log.empty());
  ASSERT_EQ(Buffers.size(), 1u); // Outputs only.
  EXPECT_EQ(Buffers[0].Name, "y");
  EXPECT_EQ(Buffers[0].Compared, 3u);
  EXPECT_NEAR(Buffers[0].MaxAbsErr, 0.0005, 1e-6);
}

TEST(HostChecksTest, AnOutputOutsideTheToleranceIsAMismatch) {
  Checked C({buffer("y", ArgRole::Out, ElemType::F32, 3),
             buffer("z", ArgRole::Out, ElemType::F32, 1)});
  SideRuns Cand = C.runs({floats({1, 2.5, 3}), floats({4})}, {});
  Cand.Suspect = {std::vector<bool>(3, false), std::vector<bool>(1, false)};
  std::vector<protocol::BufferComparison> Buffers;
  EXPECT_FALSE(C.checks().compareWithReference({floats({1, 2, 3}), floats({4})},
                                               Cand, Buffers));
  ASSERT_EQ(Buffers.size(), 2u); // A failing buffer does not hide the next.
  EXPECT_EQ(Buffers[0].Mismatches, 1u);
  EXPECT_EQ(Buffers[1].Name, "z");
  ASSERT_EQ(C.kinds(), (Strings{"mismatch", "norm"}));
  const Failure &F = C.failures()[0];
  EXPECT_EQ(F.Where, Side::Candidate);
  EXPECT_EQ(F.Index, 1);
  EXPECT_EQ(F.Expected, protocol::FailureValue(2.0));
  EXPECT_EQ(F.Got, protocol::FailureValue(2.5));
  EXPECT_EQ(F.Message, "outside |got - expected| <= atol + rtol * |expected|");
}

TEST(HostChecksTest, NaNInTheCandidateFailsAsNan) {
  Checked C({buffer("y", ArgRole::Out, ElemType::F32, 2)});
  C.Tol = Tolerance{1e9, 1e9, 1e9};
  SideRuns Cand = C.runs({floats({1, NaN})}, {});
  Cand.Suspect = {std::vector<bool>(2, false)};
  std::vector<protocol::BufferComparison> Buffers;
  EXPECT_FALSE(
      C.checks().compareWithReference({floats({1, 2})}, Cand, Buffers));
  EXPECT_EQ(C.kinds(), Strings{"nan"});
  EXPECT_EQ(C.failures()[0].Index, 1);
  EXPECT_EQ(C.failures()[0].Message,
            "non-finite value where the reference is finite");
  EXPECT_EQ(Buffers[0].NonFinite, 1u);
  // Where the reference is NaN too, it passes.
  Checked D({buffer("y", ArgRole::Out, ElemType::F32, 2)});
  EXPECT_TRUE(
      D.checks().compareWithReference({floats({1, NaN})}, Cand, Buffers));
  EXPECT_TRUE(D.Log.empty());
}

TEST(HostChecksTest, InfinityMustMatchTheReferences) {
  Checked C({buffer("y", ArgRole::Out, ElemType::F32, 2)});
  C.Tol = Tolerance{1e9, 1e9, 1e9};
  SideRuns Cand = C.runs({floats({Inf, -Inf})}, {});
  Cand.Suspect = {std::vector<bool>(2, false)};
  std::vector<protocol::BufferComparison> Buffers;
  EXPECT_FALSE(
      C.checks().compareWithReference({floats({Inf, Inf})}, Cand, Buffers));
  EXPECT_EQ(C.kinds(), Strings{"mismatch"});
  EXPECT_EQ(C.failures()[0].Index, 1);
  Checked D({buffer("y", ArgRole::Out, ElemType::F32, 2)});
  EXPECT_TRUE(
      D.checks().compareWithReference({floats({Inf, -Inf})}, Cand, Buffers));
}

TEST(HostChecksTest, IntegerOutputsMustMatchExactly) {
  Checked C({buffer("n", ArgRole::Out, ElemType::I32, 2)});
  C.Tol = Tolerance{1, 1, 0};
  SideRuns Cand = C.runs({packed(ElemType::I32, {5, 7})}, {});
  Cand.Suspect = {std::vector<bool>(2, false)};
  std::vector<protocol::BufferComparison> Buffers;
  EXPECT_TRUE(C.checks().compareWithReference({packed(ElemType::I32, {5, 7})},
                                              Cand, Buffers));
  EXPECT_FALSE(C.checks().compareWithReference({packed(ElemType::I32, {5, 6})},
                                               Cand, Buffers));
  // An integer buffer has no norm to check: one failure, not two.
  EXPECT_EQ(C.kinds(), Strings{"mismatch"});
  EXPECT_EQ(C.failures()[0].Expected, protocol::FailureValue(int64_t(6)));
  EXPECT_EQ(C.failures()[0].Got, protocol::FailureValue(int64_t(7)));
  EXPECT_EQ(C.failures()[0].Message, "integers differ (exact match required)");
}

TEST(HostChecksTest, TheNormBoundsSmallErrorsEverywhere) {
  // Each element within rtol = 1 of its reference; the whole 0.25 away.
  Checked C({buffer("y", ArgRole::Out, ElemType::F32, 1)});
  C.Tol = Tolerance{1, 0, 0.25};
  SideRuns Cand = C.runs({floats({5})}, {});
  Cand.Suspect = {std::vector<bool>(1, false)};
  std::vector<protocol::BufferComparison> Buffers;
  EXPECT_TRUE(C.checks().compareWithReference({floats({4})}, Cand, Buffers));
  EXPECT_DOUBLE_EQ(Buffers[0].NormErr, 0.25);
  C.Tol.Norm = 0.125;
  EXPECT_FALSE(C.checks().compareWithReference({floats({4})}, Cand, Buffers));
  ASSERT_EQ(C.kinds(), Strings{"norm"});
  const Failure &F = C.failures()[0];
  EXPECT_EQ(F.Buffer, "y");
  EXPECT_FALSE(F.Index.has_value());
  EXPECT_EQ(F.Expected, protocol::FailureValue(0.125));
  EXPECT_EQ(F.Got, protocol::FailureValue(0.25));
  EXPECT_EQ(F.Message,
            "relative L2 error 0.25 exceeds the norm tolerance 0.125");
  // The report gives the error to nine digits, enough to see how far over.
  EXPECT_FALSE(C.checks().compareWithReference({floats({3})}, Cand, Buffers));
  EXPECT_EQ(C.failures().back().Message,
            "relative L2 error 0.666666667 exceeds the norm tolerance 0.125");
}

TEST(HostChecksTest, SuspectElementsAreLeftOutOfTheComparison) {
  // Already reported as unwritten or nondeterministic.
  Checked C({buffer("y", ArgRole::Out, ElemType::F32, 2)});
  SideRuns Cand = C.runs({floats({1, 99})}, {});
  Cand.Suspect = {std::vector<bool>{false, true}};
  std::vector<protocol::BufferComparison> Buffers;
  EXPECT_TRUE(C.checks().compareWithReference({floats({1, 2})}, Cand, Buffers));
  EXPECT_EQ(Buffers[0].Compared, 1u);
  Cand.Suspect = {std::vector<bool>{false, false}};
  EXPECT_FALSE(
      C.checks().compareWithReference({floats({1, 2})}, Cand, Buffers));
}

// --- struct elements ---------------------------------------------------------

TEST(HostChecksTest, EachFieldOfAStructFollowsItsOwnTypesRule) {
  Checked C({hits(ArgRole::Out, 2)});
  C.Tol = Tolerance{1e-3, 1e-3, 1};
  Bytes Ref = hitsData({{1.5, 3}, {2.5, 4}});
  // The float field a little off is within the tolerance ...
  SideRuns Cand = C.runs({hitsData({{1.5005, 3}, {2.5, 4}})}, {});
  Cand.Suspect = {std::vector<bool>(4, false)};
  std::vector<protocol::BufferComparison> Buffers;
  EXPECT_TRUE(C.checks().compareWithReference({Ref}, Cand, Buffers));
  EXPECT_TRUE(C.Log.empty());
  // ... the int field off by one is not; the failure names element and field.
  Cand.Out[0][0] = hitsData({{1.5, 3}, {2.5, 5}});
  EXPECT_FALSE(C.checks().compareWithReference({Ref}, Cand, Buffers));
  ASSERT_EQ(C.kinds(), Strings{"mismatch"});
  const Failure &F = C.failures()[0];
  EXPECT_EQ(F.Buffer, "hits");
  EXPECT_EQ(F.Index, 1);
  EXPECT_EQ(F.Field, "id");
  EXPECT_EQ(F.Message, "integers differ (exact match required)");
}

TEST(HostChecksTest, AStructsFloatFieldHasTheFloatRules) {
  Checked C({hits(ArgRole::Out, 2)});
  C.Tol = Tolerance{1e-3, 1e-3, 1};
  SideRuns Cand = C.runs({hitsData({{1.5, 3}, {NaN, 4}})}, {});
  Cand.Suspect = {std::vector<bool>(4, false)};
  std::vector<protocol::BufferComparison> Buffers;
  EXPECT_FALSE(C.checks().compareWithReference({hitsData({{1.5, 3}, {2.5, 4}})},
                                               Cand, Buffers));
  ASSERT_EQ(C.kinds(), Strings{"nan"});
  EXPECT_EQ(C.failures()[0].Index, 1);
  EXPECT_EQ(C.failures()[0].Field, "t");
}

TEST(HostChecksTest, AnUnwrittenFieldIsNamed) {
  Checked C({hits(ArgRole::Out, 2)});
  Bytes Ran = hitsData({{1.5, 3}, {2.5, 4}});
  SideRuns R = C.runs({poisoned(Ran, 3, 4, Poison[0])},
                      {poisoned(Ran, 3, 4, Poison[1])});
  C.checks().checkRuns(Side::Candidate, R, C.Counts);
  ASSERT_EQ(C.kinds(), Strings{"unwritten"});
  EXPECT_EQ(C.failures()[0].Index, 1);
  EXPECT_EQ(C.failures()[0].Field, "id");
  EXPECT_EQ(C.failures()[0].Got, protocol::FailureValue(int64_t(-1)));
}

TEST(HostChecksTest, StructRunsAgreeFieldByField) {
  Checked C({hits(ArgRole::Out, 1)});
  // The float within the tolerance agrees; the int must be identical.
  SideRuns R = C.runs({hitsData({{1.5, 3}})}, {hitsData({{1.5005, 4}})});
  C.checks().checkRuns(Side::Candidate, R, C.Counts);
  ASSERT_EQ(C.kinds(), Strings{"nondeterministic"});
  EXPECT_EQ(C.failures()[0].Field, "id");
  EXPECT_EQ(R.Suspect[0], (std::vector<bool>{false, true}));
}

// --- the edge seed -----------------------------------------------------------

TEST(HostChecksTest, TheEdgeSeedIsSkippedWhereTheOriginalFails) {
  Checked C({buffer("y", ArgRole::Out, ElemType::F32, 2)});
  EXPECT_EQ(C.checks().edgeSkipReason({floats({1, 2})}, /*RefOk=*/false),
            "skipped: the original fails its own checks on edge values");
  EXPECT_EQ(C.checks().edgeSkipReason({floats({1, 2})}, /*RefOk=*/true), "");
}

TEST(HostChecksTest, TheEdgeSeedIsSkippedWhereTheOriginalIsNotFinite) {
  Checked C({buffer("x", ArgRole::In, ElemType::F32, 1),
             buffer("n", ArgRole::Out, ElemType::I32, 1),
             buffer("y", ArgRole::Out, ElemType::F32, 3)});
  // An input's values and an integer output say nothing.
  HostOutputs Ref = {floats({Inf}), packed(ElemType::I32, {-1}),
                     floats({1, 2, 3})};
  EXPECT_EQ(C.checks().edgeSkipReason(Ref, true), "");
  Ref[2] = floats({1, 2, -Inf});
  EXPECT_EQ(C.checks().edgeSkipReason(Ref, true),
            "skipped: the original's outputs are not all finite on edge "
            "values ('y'[2])");
  Ref[2] = floats({NaN, 2, 3});
  EXPECT_NE(C.checks().edgeSkipReason(Ref, true).find("('y'[0])"),
            std::string::npos);
}

TEST(HostChecksTest, TheEdgeSeedNamesTheFieldThatIsNotFinite) {
  Checked C({hits(ArgRole::Out, 2)});
  EXPECT_EQ(C.checks().edgeSkipReason({hitsData({{1, 3}, {2, 4}})}, true), "");
  EXPECT_EQ(C.checks().edgeSkipReason({hitsData({{1, 3}, {Inf, 4}})}, true),
            "skipped: the original's outputs are not all finite on edge "
            "values ('hits'[1].t)");
}

// --- what the device saw and the host did not --------------------------------

TEST(HostChecksTest, AFindingTheHostRunsDoNotRepeatIsNondeterminism) {
  Checked C({buffer("y", ArgRole::Out, ElemType::F32, 2)});
  C.checks().unrepeatedDeviceFinding("run 2, buffer 'y': 1 elements");
  ASSERT_EQ(C.kinds(), Strings{"nondeterministic"});
  const Failure &F = C.failures()[0];
  EXPECT_EQ(F.Where, Side::Candidate);
  EXPECT_FALSE(F.Buffer.has_value());
  EXPECT_FALSE(F.Index.has_value());
  EXPECT_EQ(F.Message,
            "the device-side checks found run 2, buffer 'y': 1 elements; two "
            "more runs for the report did not repeat it, so the candidate's "
            "results vary between runs");
}
