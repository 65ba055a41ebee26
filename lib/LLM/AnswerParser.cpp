//===- AnswerParser.cpp - proposals out of a model's text ----------------===//

#include "optiml/LLM/AnswerParser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <nlohmann/json.hpp>

#include <algorithm>

using namespace optiml;
using nlohmann::json;

std::vector<CodeFence> AnswerParser::fences(llvm::StringRef Text) {
  std::vector<CodeFence> Out;
  llvm::SmallVector<llvm::StringRef> Lines;
  Text.split(Lines, '\n');
  std::optional<CodeFence> Open;
  for (llvm::StringRef Line : Lines) {
    llvm::StringRef T = Line.trim();
    if (!T.starts_with("```")) {
      if (Open)
        Open->Body += Line.rtrim("\r").str() + "\n";
      continue;
    }
    if (Open) {
      Out.push_back(std::move(*Open));
      Open.reset();
      continue;
    }
    Open = CodeFence{T.drop_front(3).trim().lower(), "", true};
  }
  if (Open) {
    Open->Closed = false;
    Out.push_back(std::move(*Open));
  }
  return Out;
}

static bool isCodeLanguage(llvm::StringRef L) {
  return L.empty() || L == "cuda" || L == "cu" || L == "cpp" || L == "c++" ||
         L == "c" || L == "cxx" || L == "cuh";
}

bool AnswerParser::isCode(const CodeFence &F) {
  return F.Closed && isCodeLanguage(F.Language);
}

namespace {

std::string stringField(const json &Item,
                        std::initializer_list<const char *> Keys) {
  for (const char *K : Keys)
    if (Item.contains(K) && Item[K].is_string())
      return llvm::StringRef(Item[K].get<std::string>()).trim().str();
  return "";
}

double confidenceOf(const json &Item) {
  double C = 0.5;
  if (Item.contains("confidence")) {
    const json &V = Item["confidence"];
    if (V.is_number())
      C = V.get<double>();
    else if (V.is_string() &&
             llvm::StringRef(V.get<std::string>()).trim().getAsDouble(C))
      C = 0.5;
  }
  if (C > 1 && C <= 100) // A percentage.
    C /= 100;
  return std::clamp(C, 0.0, 1.0);
}

/// `transform(site=S,k=v)` from {"transform", "site", "params"}.
std::string spelledStep(const json &Item) {
  std::string Name = stringField(Item, {"transform"});
  if (Name.empty())
    return "";
  std::string Out = Name + "(site=" + stringField(Item, {"site"});
  if (Item.contains("params") && Item["params"].is_object())
    for (const auto &[K, V] : Item["params"].items())
      Out += "," + K + "=" + (V.is_string() ? V.get<std::string>() : V.dump());
  return Out + ")";
}

/// The code of an edit, without the fence a model may have put around it.
std::string unfenced(const std::string &Code) {
  std::vector<CodeFence> F = AnswerParser::fences(Code);
  return F.empty() ? Code : F.front().Body;
}

void readItem(const json &Item, size_t Index, ParsedAnswer &Out) {
  std::string Where = "proposal " + std::to_string(Index + 1);
  if (!Item.is_object()) {
    Out.Notes.push_back(Where + " is not a JSON object");
    return;
  }
  RawProposal P;
  P.Confidence = confidenceOf(Item);
  P.Rationale = stringField(Item, {"rationale", "reason", "why"});
  std::string Kind = stringField(Item, {"kind"});
  P.Action = stringField(Item, {"action", "step"});
  if (P.Action.empty())
    P.Action = spelledStep(Item);
  P.Code = unfenced(stringField(Item, {"code", "kernel"}));
  P.Launch = stringField(Item, {"launch"});
  if (!llvm::StringRef(P.Code).trim().empty() &&
      (Kind != "structured" || P.Action.empty())) {
    P.Kind = ProposalKind::Edit;
    P.Action.clear();
  } else if (!P.Action.empty()) {
    P.Kind = ProposalKind::Structured;
    P.Code.clear();
    P.Launch.clear();
  } else {
    Out.Notes.push_back(Where + " names no action and holds no code");
    return;
  }
  Out.Proposals.push_back(std::move(P));
}

/// AnswerParser::findJSON, with the fences already found.
std::optional<json> findJSONIn(llvm::StringRef Text,
                               const std::vector<CodeFence> &Fences) {
  std::vector<std::string> Tries = {Text.trim().str()};
  for (const CodeFence &F : Fences)
    if (F.Language == "json")
      Tries.push_back(F.Body);
  for (auto [Open, Close] : {std::pair{'{', '}'}, std::pair{'[', ']'}}) {
    size_t B = Text.find(Open), E = Text.rfind(Close);
    if (B != llvm::StringRef::npos && E != llvm::StringRef::npos && B < E)
      Tries.push_back(Text.slice(B, E + 1).str());
  }
  for (const std::string &T : Tries) {
    json J = json::parse(T, nullptr, false);
    if (!J.is_discarded() && (J.is_object() || J.is_array()))
      return J;
  }
  return std::nullopt;
}

/// The end of the JSON object starting at \p Begin (its closing brace), or
/// npos when the text ends first.
size_t objectEnd(llvm::StringRef Text, size_t Begin) {
  int Depth = 0;
  bool InString = false, Escaped = false;
  for (size_t I = Begin; I < Text.size(); ++I) {
    char C = Text[I];
    if (InString) {
      if (Escaped)
        Escaped = false;
      else if (C == '\\')
        Escaped = true;
      else if (C == '"')
        InString = false;
    } else if (C == '"') {
      InString = true;
    } else if (C == '{') {
      ++Depth;
    } else if (C == '}' && --Depth == 0) {
      return I;
    }
  }
  return llvm::StringRef::npos;
}

/// The complete items of a proposal list that is not valid JSON as a
/// whole, typically one cut off at the token limit: `{"proposals": [{..},
/// {..}, {"act` gives the first two.
std::vector<json> completeItems(llvm::StringRef Text) {
  std::vector<json> Out;
  size_t Key = Text.find("\"proposals\"");
  size_t I = Text.find('[', Key == llvm::StringRef::npos ? 0 : Key);
  if (I == llvm::StringRef::npos)
    return Out;
  ++I;
  while (true) {
    I = Text.find_first_not_of(" \t\r\n,", I);
    if (I == llvm::StringRef::npos || Text[I] != '{')
      return Out;
    size_t End = objectEnd(Text, I);
    if (End == llvm::StringRef::npos)
      return Out;
    json Item = json::parse(Text.slice(I, End + 1), nullptr, false);
    if (Item.is_discarded())
      return Out;
    Out.push_back(std::move(Item));
    I = End + 1;
  }
}

std::string outsideFences(llvm::StringRef Text) {
  std::string Out;
  bool In = false;
  llvm::SmallVector<llvm::StringRef> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    if (L.trim().starts_with("```")) {
      In = !In;
      continue;
    }
    if (!In)
      Out += L.str() + "\n";
  }
  return llvm::StringRef(Out).trim().str();
}

} // namespace

std::optional<json> AnswerParser::findJSON(llvm::StringRef Text) {
  return findJSONIn(Text, fences(Text));
}

ParsedAnswer AnswerParser::parse(llvm::StringRef Text, bool Truncated) {
  ParsedAnswer Out;
  if (Truncated)
    Out.Notes.push_back("the answer was cut off at the token limit "
                        "(--llm-max-tokens)");
  std::vector<CodeFence> Fences = fences(Text);
  std::optional<json> J = findJSONIn(Text, Fences);
  if (J) {
    const json *Items = &*J;
    json One = json::array();
    if (J->is_object() && J->contains("proposals") &&
        (*J)["proposals"].is_array())
      Items = &(*J)["proposals"];
    else if (J->is_object()) {
      One.push_back(*J);
      Items = &One;
    }
    for (size_t I = 0; I < Items->size(); ++I)
      readItem((*Items)[I], I, Out);
  } else if (std::vector<json> Items = completeItems(Text); !Items.empty()) {
    Out.Notes.push_back("the answer is not valid JSON; its " +
                        std::to_string(Items.size()) +
                        " complete proposal(s) were read");
    for (size_t I = 0; I < Items.size(); ++I)
      readItem(Items[I], I, Out);
    J = json(Items);
  }
  bool Edits = false;
  for (const CodeFence &F : Fences) {
    if (!isCodeLanguage(F.Language) || llvm::StringRef(F.Body).trim().empty())
      continue;
    if (!F.Closed) {
      Out.Notes.push_back("a code block is not closed; it is ignored");
      continue;
    }
    RawProposal P;
    P.Kind = ProposalKind::Edit;
    P.Code = F.Body;
    std::string Why = outsideFences(Text);
    P.Rationale = Why.size() > 600 ? Why.substr(0, 600) + "..." : Why;
    Out.Proposals.push_back(std::move(P));
    Edits = true;
  }
  if (!J && !Edits) {
    bool LooksLikeJSON = Text.contains('{') || Text.contains('[');
    Out.Notes.push_back(LooksLikeJSON
                            ? "the answer is not valid JSON and holds no "
                              "fenced code block"
                            : "the answer is neither JSON nor a fenced code "
                              "block");
  }
  return Out;
}
