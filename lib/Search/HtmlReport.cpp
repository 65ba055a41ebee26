//===- HtmlReport.cpp - the trajectory as one self-contained page ---------===//

#include "optiml/Search/HtmlReport.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace optiml;

std::string optiml::escapeHtml(llvm::StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (char C : Text) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// The plot
//===----------------------------------------------------------------------===//

namespace {

/// Pixel geometry of the plot and its two scales.
struct PlotFrame {
  static constexpr double Width = 720, Height = 300;
  static constexpr double Left = 60, Right = 20, Top = 30, Bottom = 44;
  unsigned Evaluations = 0;
  double YMax = 1, YStep = 0.2;

  double plotWidth() const { return Width - Left - Right; }
  double plotHeight() const { return Height - Top - Bottom; }
  double bottom() const { return Height - Bottom; }
  /// Evaluation \p I (1-based) in the middle of its slot.
  double x(double I) const {
    return Left + (I - 0.5) * plotWidth() / std::max(1u, Evaluations);
  }
  double y(double Speedup) const {
    double V = std::clamp(Speedup, 0.0, YMax);
    return Top + plotHeight() * (1 - V / YMax);
  }
};

} // namespace

/// 1, 2, 2.5 or 5 times a power of ten, at least \p Raw.
static double niceStep(double Raw) {
  double Power = std::pow(10, std::floor(std::log10(Raw)));
  for (double M : {1.0, 2.0, 2.5, 5.0})
    if (M * Power >= Raw)
      return M * Power;
  return 10 * Power;
}

static PlotFrame frameFor(const Trajectory &T) {
  PlotFrame F;
  F.Evaluations = T.Series.size();
  double Top = 1;
  for (const TrajectoryPoint &P : T.Series)
    Top = std::max({Top, P.BestSpeedup, P.Measured.value_or(0.0)});
  double Raw = Top * 1.08; // Headroom so the highest dot is not clipped.
  F.YStep = niceStep(Raw / 5);
  F.YMax = std::ceil(Raw / F.YStep - 1e-9) * F.YStep;
  return F;
}

static std::string num(double V) { return llvm::formatv("{0:F1}", V).str(); }

/// A tick label with as many decimals as the step needs (2.5 -> "7.5x").
static std::string tickLabel(double V, double Step) {
  unsigned Decimals = 0;
  for (double Scaled = Step;
       Decimals < 2 && std::abs(Scaled - std::round(Scaled)) > 1e-6;
       Scaled *= 10)
    ++Decimals;
  std::string Out;
  llvm::raw_string_ostream(Out)
      << llvm::format("%.*f", int(Decimals), V) << "x";
  return Out;
}

static void axes(const PlotFrame &F, std::string &Out) {
  double X0 = F.Left, X1 = F.Width - F.Right, Y0 = F.bottom();
  for (unsigned K = 0; K * F.YStep <= F.YMax + 1e-9; ++K) {
    double V = K * F.YStep;
    std::string Y = num(F.y(V));
    Out += "<line class=\"grid\" x1=\"" + num(X0) + "\" y1=\"" + Y +
           "\" x2=\"" + num(X1) + "\" y2=\"" + Y + "\"/>\n";
    Out += llvm::formatv("<text class=\"tick\" x=\"{0}\" y=\"{1}\" "
                         "text-anchor=\"end\">{2}</text>\n",
                         num(X0 - 6), num(F.y(V) + 4), tickLabel(V, F.YStep));
  }
  unsigned XStep = F.Evaluations <= 10
                       ? 1
                       : unsigned(niceStep(std::ceil(F.Evaluations / 10.0)));
  for (unsigned I = 1; I <= F.Evaluations; ++I)
    if (I == 1 || I % XStep == 0)
      Out += llvm::formatv("<text class=\"tick\" x=\"{0}\" y=\"{1}\" "
                           "text-anchor=\"middle\">{2}</text>\n",
                           num(F.x(I)), num(Y0 + 16), I);
  Out += "<line class=\"axis\" x1=\"" + num(X0) + "\" y1=\"" + num(Y0) +
         "\" x2=\"" + num(X1) + "\" y2=\"" + num(Y0) + "\"/>\n";
  Out += "<line class=\"axis\" x1=\"" + num(X0) + "\" y1=\"" + num(F.Top) +
         "\" x2=\"" + num(X0) + "\" y2=\"" + num(Y0) + "\"/>\n";
  Out += llvm::formatv("<line class=\"baseline\" x1=\"{0}\" y1=\"{1}\" "
                       "x2=\"{2}\" y2=\"{1}\"/>\n",
                       num(X0), num(F.y(1)), num(X1));
  Out += llvm::formatv("<text class=\"label\" x=\"{0}\" y=\"{1}\" "
                       "text-anchor=\"middle\">evaluation</text>\n",
                       num(X0 + F.plotWidth() / 2), num(F.Height - 6));
  Out += llvm::formatv("<text class=\"label\" x=\"14\" y=\"{0}\" "
                       "text-anchor=\"middle\" transform=\"rotate(-90 14 "
                       "{0})\">speedup over the original</text>\n",
                       num(F.Top + F.plotHeight() / 2));
}

static void legend(const PlotFrame &F, std::string &Out) {
  double X = F.Left + 8, Y = 14;
  Out += "<g class=\"legend\">\n";
  Out += llvm::formatv("<circle class=\"key-ok\" cx=\"{0}\" cy=\"{1}\" "
                       "r=\"4\"/><text x=\"{2}\" y=\"{3}\">verified "
                       "candidate</text>\n",
                       num(X), num(Y - 4), num(X + 8), num(Y));
  X += 130;
  Out += llvm::formatv("<path class=\"key-failed\" d=\"M{0} {1}l8 8m0 -8l-8 "
                       "8\"/><text x=\"{2}\" y=\"{3}\">failed</text>\n",
                       num(X - 4), num(Y - 8), num(X + 8), num(Y));
  X += 70;
  Out +=
      llvm::formatv("<line class=\"best\" x1=\"{0}\" y1=\"{1}\" "
                    "x2=\"{2}\" y2=\"{1}\"/><text x=\"{3}\" y=\"{4}\">best "
                    "so far</text>\n",
                    num(X - 6), num(Y - 4), num(X + 10), num(X + 14), num(Y));
  X += 100;
  Out +=
      llvm::formatv("<line class=\"baseline\" x1=\"{0}\" y1=\"{1}\" "
                    "x2=\"{2}\" y2=\"{1}\"/><text x=\"{3}\" y=\"{4}\">the "
                    "original (1x)</text>\n",
                    num(X - 6), num(Y - 4), num(X + 10), num(X + 14), num(Y));
  Out += "</g>\n";
}

/// Horizontal while nothing improves, up where a candidate did: the best
/// so far can only rise, so the line is a staircase.
static void bestLine(const PlotFrame &F, const Trajectory &T,
                     std::string &Out) {
  if (T.Series.empty())
    return;
  std::string Points;
  for (unsigned I = 0; I < T.Series.size(); ++I) {
    double X = F.x(I + 1);
    if (I > 0)
      Points += num(X) + "," + num(F.y(T.Series[I - 1].BestSpeedup)) + " ";
    Points += num(X) + "," + num(F.y(T.Series[I].BestSpeedup)) + " ";
  }
  Points.pop_back();
  Out += "<polyline class=\"best\" points=\"" + Points + "\"/>\n";
}

static void pointMark(const PlotFrame &F, const TrajectoryPoint &P,
                      std::string &Out) {
  std::string Title =
      escapeHtml(llvm::formatv("#{0} {1}: {2}{3}", P.Evaluation,
                               P.Trace.empty() ? "the original" : P.Trace,
                               describeOutcome(P), answeredBy(P))
                     .str());
  double X = F.x(P.Evaluation);
  if (P.Status == CandidateStatus::Ok && P.Measured) {
    Out += llvm::formatv("<circle class=\"ok{0}\" data-eval=\"{1}\" "
                         "cx=\"{2}\" cy=\"{3}\" r=\"4\"><title>{4}</title>"
                         "</circle>\n",
                         P.Cached ? " cached" : "", P.Evaluation, num(X),
                         num(F.y(*P.Measured)), Title);
    return;
  }
  // A failure has no speedup: a cross on the axis, where 0x would be.
  Out += llvm::formatv("<path class=\"failed\" data-eval=\"{0}\" "
                       "d=\"M{1} {2}l8 8m0 -8l-8 8\"><title>{3}</title>"
                       "</path>\n",
                       P.Evaluation, num(X - 4), num(F.bottom() - 4), Title);
}

std::string optiml::speedupPlotSvg(const Trajectory &T) {
  PlotFrame F = frameFor(T);
  std::string Out = llvm::formatv(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" "
      "viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" role=\"img\">\n"
      "<title>Best speedup over evaluations</title>\n",
      num(F.Width), num(F.Height));
  axes(F, Out);
  legend(F, Out);
  bestLine(F, T, Out);
  for (const TrajectoryPoint &P : T.Series)
    pointMark(F, P, Out);
  if (T.Series.empty())
    Out += llvm::formatv("<text class=\"label\" x=\"{0}\" y=\"{1}\" "
                         "text-anchor=\"middle\">no candidate was "
                         "evaluated</text>\n",
                         num(F.Left + F.plotWidth() / 2),
                         num(F.Top + F.plotHeight() / 2));
  return Out + "</svg>\n";
}

//===----------------------------------------------------------------------===//
// The page
//===----------------------------------------------------------------------===//

static const char Style[] = R"css(
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto;
       padding: 0 1rem; color: #1b1b1b; line-height: 1.45; }
code, pre { font-family: ui-monospace, monospace; font-size: 0.9em; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.6rem; text-align: left; }
td.num { text-align: right; }
pre.diff { background: #f6f8fa; padding: 0.6rem; overflow-x: auto; }
pre.diff .add { color: #116329; background: #e6ffec; }
pre.diff .del { color: #82071e; background: #ffebe9; }
pre.diff .hunk { color: #0550ae; }
pre.diff .hdr { font-weight: bold; }
.plot .grid { stroke: #e4e4e4; }
.plot .axis { stroke: #555; }
.plot .baseline { stroke: #888; stroke-dasharray: 4 3; }
.plot .best { fill: none; stroke: #0a6ebd; stroke-width: 2; }
.plot .ok, .plot .key-ok { fill: #2e7d32; }
.plot .ok.cached { fill: #fff; stroke: #2e7d32; }
.plot .failed, .plot .key-failed { stroke: #c62828; stroke-width: 2; fill: none; }
.plot text { font-size: 12px; fill: #333; }
tr.failed td { color: #c62828; }
)css";

static void row(llvm::StringRef Key, llvm::StringRef Html, std::string &Out) {
  Out +=
      "<tr><th>" + escapeHtml(Key) + "</th><td>" + Html.str() + "</td></tr>\n";
}

static std::string code(llvm::StringRef Text) {
  return "<code>" + escapeHtml(Text) + "</code>";
}

static void summary(const Trajectory &T, std::string &Out) {
  if (T.Improved)
    Out +=
        llvm::formatv("<p><strong>Best: {0}</strong> with {1}, found by "
                      "{2}.</p>\n",
                      escapeHtml(describeBest(T)), code(T.BestTrace),
                      escapeHtml(T.Strategy));
  else
    Out += "<p><strong>No verified candidate beat the original beyond the "
           "noise: the original is kept.</strong></p>\n";
  Out += "<table class=\"summary\">\n";
  row("Kernel", code(T.Kernel), Out);
  const ReportProvenance &P = T.Provenance;
  if (!P.Date.empty())
    row("Made", escapeHtml(P.Date), Out);
  if (!P.Tool.empty())
    row("Tool", escapeHtml(P.Tool), Out);
  if (!P.Nvcc.empty())
    row("nvcc", escapeHtml(P.Nvcc), Out);
  if (!P.CommandLine.empty())
    row("Command", code(P.CommandLine), Out);
  std::string Strategy = escapeHtml(T.Strategy);
  if (T.Seed)
    Strategy += llvm::formatv(" (seed {0})", *T.Seed).str();
  row("Strategy", Strategy, Out);
  row("Device", escapeHtml(T.Device.empty() ? "unknown" : T.Device), Out);
  row("Best speedup", llvm::formatv("{0:F2}x", T.BestSpeedup).str(), Out);
  if (T.Goal != Objective::Time)
    row("Objective",
        escapeHtml(toString(T.Goal).str() + "; energy per launch: original " +
                   formatJoules(T.JoulesOriginal) + ", best " +
                   formatJoules(T.JoulesBest)),
        Out);
  row("Candidates", escapeHtml(describeCounts(T)), Out);
  row("Wall time",
      T.WallSeconds ? llvm::formatv("{0:F0} s", *T.WallSeconds).str() : "n/a",
      Out);
  if (!T.Stopped.empty())
    row("Stopped", escapeHtml(T.Stopped), Out);
  row("Roofline reached, original", formatRoofline(T.RooflineOriginal), Out);
  row("Roofline reached, best", formatRoofline(T.RooflineBest), Out);
  if (T.Llm) {
    std::string Notes;
    for (const std::string &N : T.Llm->Notes)
      Notes += "<br>" + escapeHtml(N);
    row("Language model", escapeHtml(describeUsage(*T.Llm)) + Notes, Out);
  }
  Out += "</table>\n";
}

static llvm::StringRef diffClass(llvm::StringRef Line) {
  if (Line.starts_with("+++") || Line.starts_with("---"))
    return "hdr";
  if (Line.starts_with("@@"))
    return "hunk";
  if (Line.starts_with("+"))
    return "add";
  if (Line.starts_with("-"))
    return "del";
  return "";
}

static std::string diffHtml(llvm::StringRef Diff) {
  std::string Out = "<pre class=\"diff\">";
  llvm::SmallVector<llvm::StringRef> Lines;
  Diff.split(Lines, '\n');
  if (!Lines.empty() && Lines.back().empty())
    Lines.pop_back();
  for (llvm::StringRef Line : Lines) {
    llvm::StringRef Class = diffClass(Line);
    if (Class.empty())
      Out += escapeHtml(Line) + "\n";
    else
      Out += "<span class=\"" + Class.str() + "\">" + escapeHtml(Line) +
             "</span>\n";
  }
  return Out + "</pre>\n";
}

static void steps(const Trajectory &T, std::string &Out) {
  if (T.Steps.empty())
    return;
  bool Energy = T.JoulesOriginal.has_value();
  Out += std::string("<h2>Steps</h2>\n<table>\n<tr><th>#</th><th>Step</th>"
                     "<th>Kernel time</th>") +
         (Energy ? "<th>Energy per launch</th>" : "") +
         "<th>Speedup</th><th>This step</th></tr>\n";
  for (unsigned I = 0; I < T.Steps.size(); ++I) {
    const TrajectoryStep &S = T.Steps[I];
    std::string Joules =
        Energy ? "<td class=\"num\">" + formatEnergy(S.Joules, S.EnergySpread) + "</td>" : "";
    Out += llvm::formatv("<tr><td class=\"num\">{0}</td><td>{1}</td>"
                         "<td class=\"num\">{2}</td>{3}"
                         "<td class=\"num\">{4:F2}x</td>"
                         "<td class=\"num\">{5:F2}x</td></tr>\n",
                         I + 1, code(S.Step), formatKernelTime(S.TimeNs),
                         Joules, S.SpeedupAfter,
                         S.SpeedupAfter / S.SpeedupBefore);
  }
  Out += "</table>\n";
  for (unsigned I = 0; I < T.Steps.size(); ++I) {
    const TrajectoryStep &S = T.Steps[I];
    Out += llvm::formatv("<section class=\"step\">\n<h3>{0}. {1}</h3>\n", I + 1,
                         code(S.Step));
    if (!S.Motivation.empty())
      Out += "<p>Motivated by " + escapeHtml(S.Motivation) + "</p>\n";
    Out += "<p>Effect: " + escapeHtml(describeEffect(S)) + ".</p>\n";
    if (!S.Diff.empty())
      Out += diffHtml(S.Diff);
    Out += "</section>\n";
  }
}

static void evaluations(const Trajectory &T, std::string &Out) {
  if (T.Series.empty())
    return;
  Out += llvm::formatv("<details><summary>All {0} evaluations</summary>\n"
                       "<table>\n<tr><th>#</th><th>Candidate</th>"
                       "<th>Outcome</th><th>Roofline</th><th>Best so far</th>"
                       "</tr>\n",
                       T.Series.size());
  for (const TrajectoryPoint &P : T.Series)
    Out += llvm::formatv(
        "<tr{0}><td class=\"num\">{1}</td><td>{2}</td><td>{3}{4}</td>"
        "<td class=\"num\">{5}</td><td class=\"num\">{6:F2}x</td></tr>\n",
        P.Status == CandidateStatus::Ok ? "" : " class=\"failed\"",
        P.Evaluation, P.Trace.empty() ? "the original" : code(P.Trace),
        escapeHtml(describeOutcome(P)), answeredBy(P),
        formatRoofline(P.Roofline), P.BestSpeedup);
  Out += "</table>\n</details>\n";
}

std::string optiml::toHtml(const Trajectory &T) {
  std::string Title = escapeHtml("OptiML search: " + T.Kernel);
  std::string Out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
                    "charset=\"utf-8\">\n<title>" +
                    Title + "</title>\n<style>" + Style +
                    "</style>\n</head>\n<body>\n<h1>" + Title + "</h1>\n";
  summary(T, Out);
  Out += "<h2>Best speedup over evaluations</h2>\n";
  Out += speedupPlotSvg(T);
  steps(T, Out);
  evaluations(T, Out);
  return Out + "</body>\n</html>\n";
}
