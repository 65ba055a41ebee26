//===- HtmlReportTest.cpp - the trajectory page and its plot --------------===//

#include "optiml/Search/HtmlReport.h"
#include "SearchTestUtil.h"
#include "optiml/Search/MctsStrategy.h"
#include "optiml/Search/SearchLoop.h"

#include <map>
#include <regex>

using namespace optiml;
using namespace optiml::test;
using nlohmann::json;

namespace {

Trajectory searchSgemm() {
  auto Env = llvm::cantFail(SimulatedEnvironment::fromFile(
      OPTIML_SEARCH_TEST_INPUTS "/sgemm-landscape.json"));
  MctsStrategy S(*Env);
  SearchLoop(S, *Env, SearchBudget{32, 0, 4}).run();
  return buildTrajectory(S.graph(), *Env, "sgemm", "mcts");
}

/// data-eval number -> the mark's class, for every mark of the plot.
std::map<unsigned, std::string> marks(const std::string &Svg, unsigned &Count) {
  static const std::regex Mark(R"re(class="([a-z ]+)" data-eval="(\d+)")re");
  std::map<unsigned, std::string> Out;
  Count = 0;
  for (std::sregex_iterator It(Svg.begin(), Svg.end(), Mark), End; It != End;
       ++It, ++Count)
    Out[std::stoul((*It)[2])] = (*It)[1];
  return Out;
}

/// The best-so-far line's vertices in pixels.
std::vector<std::pair<double, double>> bestLine(const std::string &Svg) {
  static const std::regex Line(
      R"re(<polyline class="best" points="([^"]*)")re");
  std::smatch M;
  std::vector<std::pair<double, double>> Points;
  if (!std::regex_search(Svg, M, Line))
    return Points;
  std::string Text = M[1];
  std::istringstream In(Text);
  std::string Pair;
  while (In >> Pair) {
    size_t Comma = Pair.find(',');
    Points.push_back(
        {std::stod(Pair.substr(0, Comma)), std::stod(Pair.substr(Comma + 1))});
  }
  return Points;
}

TEST(HtmlReportTest, EscapesTextForElementsAndAttributes) {
  EXPECT_EQ(escapeHtml("a < b && c > \"d\" 'e'"),
            "a &lt; b &amp;&amp; c &gt; &quot;d&quot; &#39;e&#39;");
  EXPECT_EQ(escapeHtml("plain"), "plain");
}

TEST(HtmlReportTest, TheDiffIsEscapedInsideAPre) {
  json States = {
      {"r", state(100, {move("mask", "k", 1, "A")})},
      {"A", state(50)},
  };
  States["r"]["source"] = "for (i = 0; i < n; ++i)\n  y[i] = x[i] & 1;\n";
  States["A"]["source"] = "for (i = 0; i < n; ++i)\n  y[i] = x[i] & 3;\n";
  States["r"]["actions"][0]["motivation"] = "<b>bold</b> & co";
  auto Env = env({{"root", "r"}, {"noise", 0.0}, {"states", States}});
  MctsStrategy S(*Env);
  SearchLoop(S, *Env, SearchBudget{4, 0, 4}).run();
  Trajectory T = buildTrajectory(S.graph(), *Env, "k", "mcts");
  ASSERT_TRUE(T.Improved);
  std::string Html = toHtml(T);
  EXPECT_NE(Html.find("<pre class=\"diff\">"), std::string::npos);
  EXPECT_NE(Html.find("<span class=\"del\">-  y[i] = x[i] &amp; 1;</span>"),
            std::string::npos)
      << Html;
  EXPECT_NE(Html.find("<span class=\"add\">+  y[i] = x[i] &amp; 3;</span>"),
            std::string::npos);
  EXPECT_NE(Html.find("i &lt; n"), std::string::npos);
  EXPECT_EQ(Html.find("i < n"), std::string::npos);
  EXPECT_EQ(Html.find("x[i] & "), std::string::npos);
  EXPECT_NE(Html.find("Motivated by &lt;b&gt;bold&lt;/b&gt; &amp; co"),
            std::string::npos);
  EXPECT_EQ(Html.find("<b>"), std::string::npos);
}

TEST(HtmlReportTest, OneMarkPerEvaluationAndAMonotoneBestLine) {
  Trajectory T = searchSgemm();
  ASSERT_GT(T.Failed, 0u); // fast-math never verifies.
  std::string Svg = speedupPlotSvg(T);
  unsigned Count = 0;
  std::map<unsigned, std::string> Marks = marks(Svg, Count);
  ASSERT_EQ(Count, T.Series.size());
  ASSERT_EQ(Marks.size(), T.Series.size()); // No evaluation drawn twice.
  unsigned FailedMarks = 0;
  for (const TrajectoryPoint &P : T.Series) {
    ASSERT_TRUE(Marks.count(P.Evaluation)) << P.Evaluation;
    bool Failed = P.Status != CandidateStatus::Ok;
    EXPECT_EQ(Marks[P.Evaluation], Failed ? "failed" : "ok") << P.Evaluation;
    FailedMarks += Failed;
  }
  EXPECT_EQ(FailedMarks, T.Failed);

  auto Line = bestLine(Svg);
  ASSERT_EQ(Line.size(), 2 * T.Series.size() - 1);
  for (unsigned I = 1; I < Line.size(); ++I) {
    EXPECT_GE(Line[I].first, Line[I - 1].first) << I;
    EXPECT_LE(Line[I].second, Line[I - 1].second) << I; // Up is smaller y.
  }
  // It climbs from the original to the best: not a flat line.
  EXPECT_LT(Line.back().second, Line.front().second);
  // Self-contained: nothing fetched from elsewhere.
  std::string Html = toHtml(T);
  for (const char *External : {"<script", "<link", "src=", "@import", "url("})
    EXPECT_EQ(Html.find(External), std::string::npos) << External;
  EXPECT_EQ(Html.find(Svg), Html.find("<svg"));
}

TEST(HtmlReportTest, RendersWhenNothingSucceeded) {
  // The original itself fails: one evaluation, a failure, nothing better.
  class Failing : public Measurer {
  public:
    Measurement measure(const Candidate &) override {
      Measurement M;
      M.Status = CandidateStatus::VerifyFailed;
      M.Log = "mismatch";
      return M;
    }
  } M;
  auto Env = env(treeTable(1, 2));
  MctsStrategy S(*Env);
  SearchLoop(S, M, SearchBudget{8, 0, 4}).run();
  Trajectory T = buildTrajectory(S.graph(), *Env, "k", "mcts");
  ASSERT_EQ(T.Series.size(), 1u);
  EXPECT_FALSE(T.Improved);
  std::string Html = toHtml(T);
  EXPECT_NE(Html.find("the original is kept"), std::string::npos);
  EXPECT_NE(Html.find("class=\"failed\" data-eval=\"1\""), std::string::npos);
  EXPECT_EQ(Html.find("class=\"ok"), std::string::npos);
  EXPECT_NE(Html.find("</html>"), std::string::npos);

  // And nothing evaluated at all.
  Trajectory Empty;
  Empty.Kernel = "k";
  std::string Page = toHtml(Empty);
  EXPECT_NE(Page.find("no candidate was evaluated"), std::string::npos);
  EXPECT_EQ(Page.find("data-eval"), std::string::npos);
  EXPECT_NE(Page.find("</html>"), std::string::npos);
}

TEST(HtmlReportTest, SummaryStatesDeviceRooflineAndCounts) {
  // The runner's result names the GPU; the simulated runner has none.
  class WithDevice : public Measurer {
  public:
    explicit WithDevice(SimulatedEnvironment &E) : E(E) {}
    Measurement measure(const Candidate &C) override {
      Measurement M = E.measure(C);
      auto Runner = std::make_shared<protocol::RunResult>();
      Runner->Device.emplace().Name = "NVIDIA H200";
      M.Runner = Runner;
      return M;
    }
    SimulatedEnvironment &E;
  };
  auto Env = llvm::cantFail(SimulatedEnvironment::fromFile(
      OPTIML_SEARCH_TEST_INPUTS "/sgemm-landscape.json"));
  WithDevice M(*Env);
  MctsStrategy S(*Env);
  SearchLoop(S, M, SearchBudget{16, 0, 4}).run();
  Trajectory T = buildTrajectory(S.graph(), *Env, "sgemm", "mcts");
  EXPECT_EQ(T.Device, "NVIDIA H200");
  ASSERT_TRUE(T.RooflineOriginal && T.RooflineBest);
  std::string Html = toHtml(T);
  EXPECT_NE(Html.find("<th>Device</th><td>NVIDIA H200</td>"),
            std::string::npos);
  EXPECT_NE(Html.find("<th>Roofline reached, original</th><td>8.2%</td>"),
            std::string::npos);
  EXPECT_NE(Html.find("<th>Roofline reached, best</th><td>" +
                      formatRoofline(T.RooflineBest) + "</td>"),
            std::string::npos);
  EXPECT_NE(Html.find("<th>Candidates</th><td>" + describeCounts(T) + "</td>"),
            std::string::npos);
  EXPECT_NE(toMarkdown(T).find("- Device: NVIDIA H200\n"), std::string::npos);
  EXPECT_EQ(toJSON(T)["device"], "NVIDIA H200");
  // Without a runner result the device is unknown, not invented.
  EXPECT_NE(toHtml(searchSgemm()).find("<th>Device</th><td>unknown</td>"),
            std::string::npos);
}

} // namespace
