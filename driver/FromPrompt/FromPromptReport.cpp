//===- FromPromptReport.cpp - what --from-prompt did, for people ---------===//

#include "driver/FromPrompt/FromPromptReport.h"
#include "optiml/Search/HtmlReport.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace optiml;

nlohmann::json optiml::toJSON(const FromPromptReport &R) {
  nlohmann::json Entries = nlohmann::json::array();
  for (const GeneratedEntry &E : R.Entries)
    Entries.push_back({{"label", E.Label},
                       {"strategy", E.Strategy},
                       {"plan", E.Plan},
                       {"status", E.Status},
                       {"reason", E.Reason},
                       {"repaired", E.Repaired},
                       {"file", E.File},
                       {"launch", E.Launch},
                       {"time_ns", E.TimeNs}});
  return {{"description", R.Description},
          {"kernel", R.Kernel},
          {"model", R.Model},
          {"gpu", R.Gpu},
          {"outcome", R.Outcome},
          {"cross_checked", R.Matrix.has_value()},
          {"summary", R.Summary},
          {"kernels", Entries},
          {"agreement", R.Matrix ? R.Matrix->toJSON() : nlohmann::json()},
          {"chosen", R.Chosen},
          {"reference_ns", R.ReferenceNs},
          {"llm",
           {{"calls", R.Usage.Calls},
            {"cache_hits", R.Usage.CacheHits},
            {"tokens_in", R.Usage.TokensIn},
            {"tokens_out", R.Usage.TokensOut},
            {"cost", R.Usage.Cost},
            {"seconds", R.Usage.Seconds},
            {"answers", R.Answered.Calls},
            {"answers_tokens_in", R.Answered.TokensIn},
            {"answers_tokens_out", R.Answered.TokensOut},
            {"answers_cost", R.Answered.Cost}}},
          {"seconds", R.Seconds},
          {"notes", R.Notes}};
}

static std::string timeOf(double Ns) {
  if (Ns <= 0)
    return "";
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format("%.4f ms", Ns / 1e6);
  return S;
}

static std::string speedupOf(double Ref, double Ns) {
  if (Ref <= 0 || Ns <= 0)
    return "";
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format("%.2fx", Ref / Ns);
  return S;
}

/// A table cell: one line, no pipe.
static std::string cell(std::string S) {
  for (char &C : S)
    if (C == '\n' || C == '|')
      C = ' ';
  return S;
}

std::string optiml::toMarkdown(const FromPromptReport &R) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "# clang-optiml --from-prompt: " << R.Kernel << "\n\n";
  OS << "> " << cell(R.Description) << "\n\n";
  OS << "**Outcome: " << R.Outcome << ".** " << R.Summary << "\n\n";
  if (!R.Matrix)
    OS << "**The outputs were not cross-checked on a GPU**: every kernel "
          "below passed the static checks only.\n\n";
  OS << "Model " << R.Model << "; GPU " << (R.Gpu.empty() ? "none" : R.Gpu)
     << "; " << R.Usage.Calls << " calls (" << R.Usage.CacheHits
     << " from the database), " << R.Usage.TokensIn << " tokens in, "
     << R.Usage.TokensOut << " out, estimated cost "
     << llvm::format("%.4f", R.Usage.Cost) << "; "
     << llvm::format("%.1f s", R.Seconds) << ". The " << R.Answered.Calls
     << " answers used took " << R.Answered.TokensIn << " tokens in, "
     << R.Answered.TokensOut << " out, estimated cost "
     << llvm::format("%.4f", R.Answered.Cost) << " when they were asked.\n\n";
  OS << "## Kernels\n\n| | strategy | status | repaired | launch | time | "
        "vs reference | reason |\n|---|---|---|---|---|---|---|---|\n";
  for (const GeneratedEntry &E : R.Entries)
    OS << "| " << E.Label << (E.Label == R.Chosen ? " (chosen)" : "") << " | "
       << cell(E.Strategy) << " | " << E.Status << " | "
       << (E.Repaired ? "yes" : "") << " | `" << cell(E.Launch) << "` | "
       << timeOf(E.TimeNs) << " | " << speedupOf(R.ReferenceNs, E.TimeNs)
       << " | " << cell(E.Reason) << " |\n";
  OS << "\n## Strategies\n\n";
  for (const GeneratedEntry &E : R.Entries)
    if (!E.Strategy.empty())
      OS << "- **" << E.Label << ", " << cell(E.Strategy)
         << "**: " << cell(E.Plan) << "\n";
  if (R.Matrix)
    OS << "\n## Agreement\n\n"
       << R.Matrix->toMarkdown() << "\n"
       << R.Matrix->explain() << ".\n";
  if (!R.Notes.empty()) {
    OS << "\n## Notes\n\n";
    for (const std::string &N : R.Notes)
      OS << "- " << cell(N) << "\n";
  }
  return Out;
}

static void matrixHtml(const AgreementMatrix &M, std::string &Out) {
  Out += "<table class=\"matrix\"><tr><th></th>";
  for (size_t I = 0; I < M.size(); ++I)
    Out += "<th>" + escapeHtml(M.label(I)) + "</th>";
  Out += "</tr>\n";
  for (size_t A = 0; A < M.size(); ++A) {
    Out += "<tr><th>" + escapeHtml(M.label(A)) + "</th>";
    for (size_t B = 0; B < M.size(); ++B)
      Out += "<td class=\"" + toString(M.at(A, B)).str() + "\">" +
             toString(M.at(A, B)).str() + "</td>";
    Out += "</tr>\n";
  }
  Out += "</table>\n<p>" + escapeHtml(M.explain()) + ".</p>\n";
}

std::string optiml::toHtml(const FromPromptReport &R) {
  std::string Out =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"
      "clang-optiml --from-prompt: " +
      escapeHtml(R.Kernel) +
      "</title><style>body{font-family:sans-serif;max-width:72em;margin:"
      "auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
      "padding:.2em .5em;text-align:left}.agree{background:#cfc}"
      ".disagree{background:#fcc}.failed{background:#fd9}.unknown{color:"
      "#999}</style></head><body>\n<h1>" +
      escapeHtml(R.Kernel) + "</h1>\n<blockquote>" + escapeHtml(R.Description) +
      "</blockquote>\n<p><b>Outcome: " + escapeHtml(R.Outcome) + ".</b> " +
      escapeHtml(R.Summary) + "</p>\n";
  if (!R.Matrix)
    Out += "<p><b>The outputs were not cross-checked on a GPU.</b></p>\n";
  Out += "<h2>Kernels</h2>\n<table><tr><th></th><th>strategy</th><th>plan"
         "</th><th>status</th><th>repaired</th><th>launch</th><th>time</th>"
         "<th>vs reference</th><th>reason</th></tr>\n";
  for (const GeneratedEntry &E : R.Entries)
    Out += "<tr><td>" + escapeHtml(E.Label) +
           (E.Label == R.Chosen ? " (chosen)" : "") + "</td><td>" +
           escapeHtml(E.Strategy) + "</td><td>" + escapeHtml(E.Plan) +
           "</td><td>" + escapeHtml(E.Status) + "</td><td>" +
           (E.Repaired ? "yes" : "") + "</td><td><code>" +
           escapeHtml(E.Launch) + "</code></td><td>" + timeOf(E.TimeNs) +
           "</td><td>" + speedupOf(R.ReferenceNs, E.TimeNs) + "</td><td>" +
           escapeHtml(E.Reason) + "</td></tr>\n";
  Out += "</table>\n";
  if (R.Matrix) {
    Out += "<h2>Agreement</h2>\n";
    matrixHtml(*R.Matrix, Out);
  }
  Out += "<h2>Language model</h2>\n<p>" + escapeHtml(R.Model) + ": " +
         std::to_string(R.Usage.Calls) + " calls (" +
         std::to_string(R.Usage.CacheHits) + " from the database); " +
         std::to_string(R.Answered.Calls) + " answers used, " +
         std::to_string(R.Answered.TokensIn) + " tokens in, " +
         std::to_string(R.Answered.TokensOut) + " out.</p>\n";
  return Out + "</body></html>\n";
}
