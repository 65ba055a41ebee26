//===- SassMixRecordTest.cpp - the SASS mix kept in the database ----------===//
//
// A later run's proposer reads measurements back from the database: the
// mix must come back with them, and a damaged one must not cost the rest.
//
//===----------------------------------------------------------------------===//

#include "optiml/Search/ProfileGuidedPriors.h"
#include "optiml/Search/RecordingMeasurer.h"

#include "gtest/gtest.h"

#include <nlohmann/json.hpp>

using namespace optiml;
using nlohmann::json;

namespace {

Measurement measured() {
  Measurement M;
  M.Status = CandidateStatus::Ok;
  auto Runner = std::make_shared<protocol::RunResult>();
  Runner->Status = protocol::RunStatus::Ok;
  Runner->Device.emplace().Sms = 132;
  M.Runner = Runner;
  SassMix S;
  S.Function = "_Z5saxpyifPKfPf";
  S.Instructions = 19, S.Ffma = 1, S.Integer = 4;
  S.GlobalLoads.Bits32 = 2, S.LocalStores.Bits128 = 3;
  M.Sass = S;
  return M;
}

TEST(SassMixRecordTest, TheMixComesBackFromTheDatabase) {
  Candidate C;
  C.Hash = "h1";
  Measurement Back = fromRecord(toRecord(7, C, measured()));
  ASSERT_TRUE(Back.Sass.has_value());
  EXPECT_EQ(Back.Sass->Function, "_Z5saxpyifPKfPf");
  EXPECT_EQ(Back.Sass->Instructions, 19u);
  EXPECT_EQ(Back.Sass->GlobalLoads.Bits32, 2u);
  EXPECT_EQ(Back.Sass->LocalStores.Bits128, 3u);
  // And the proposer sees it.
  ProfileInput In = profileInput(Back);
  ASSERT_TRUE(In.Sass.has_value());
  EXPECT_EQ(In.Sass->Ffma, 1u);
}

TEST(SassMixRecordTest, ADamagedMixIsNoMix) {
  Candidate C;
  C.Hash = "h1";
  CandidateRecord R = toRecord(7, C, measured());
  json Metrics = json::parse(R.Metrics);
  Metrics["sass"]["global_loads"] = "many";
  R.Metrics = Metrics.dump();
  Measurement Back = fromRecord(R);
  EXPECT_FALSE(Back.Sass.has_value());
  ASSERT_NE(Back.Runner, nullptr);
  ASSERT_TRUE(Back.Runner->Device.has_value());
  EXPECT_EQ(Back.Runner->Device->Sms, 132);
}

} // namespace
