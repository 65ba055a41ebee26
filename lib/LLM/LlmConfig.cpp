//===- LlmConfig.cpp - which model, where, and what it may cost ----------===//

#include "optiml/LLM/LlmConfig.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <optional>
#include <tuple>
#include <type_traits>

using namespace optiml;

llvm::StringRef optiml::toString(LlmProvider P) {
  switch (P) {
  case LlmProvider::None:
    return "none";
  case LlmProvider::OpenAI:
    return "openai";
  case LlmProvider::Anthropic:
    return "anthropic";
  }
  llvm_unreachable("unknown provider");
}

namespace {

/// One setting's value and where it came from, for error messages.
struct Given {
  std::string Value;
  std::string From; ///< "--llm-model", "OPTIML_LLM_MODEL", "FILE: llm-model"
  /// False for a config file's value that is not a JSON string (a number,
  /// an object): a name or a path must be written as one.
  bool IsText = true;
};

std::string variableFor(llvm::StringRef Name) {
  std::string Var = "OPTIML_" + Name.upper();
  std::replace(Var.begin(), Var.end(), '-', '_');
  return Var;
}

class Sources {
public:
  static llvm::Expected<Sources>
  load(const std::map<std::string, std::string> &Flags) {
    Sources S;
    S.Flags = Flags;
    std::string Path;
    if (auto It = Flags.find("llm-config"); It != Flags.end())
      Path = It->second;
    else if (const char *V = std::getenv("OPTIML_LLM_CONFIG"))
      Path = V;
    if (Path.empty())
      return S;
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    if (!Buffer)
      return makeError(ErrorKind::BadInput, "--llm-config " + Path + ": " +
                                                Buffer.getError().message());
    S.File = nlohmann::json::parse((*Buffer)->getBuffer(), nullptr, false);
    if (!S.File.is_object())
      return makeError(ErrorKind::BadInput,
                       "--llm-config " + Path + ": not a JSON object");
    S.FilePath = Path;
    return S;
  }

  std::optional<Given> get(llvm::StringRef Name) const {
    if (auto It = Flags.find(Name.str()); It != Flags.end())
      return Given{It->second, "--" + Name.str()};
    std::string Var = variableFor(Name);
    if (const char *V = std::getenv(Var.c_str()); V && *V)
      return Given{V, Var};
    if (File.is_object() && File.contains(Name.str())) {
      const nlohmann::json &V = File[Name.str()];
      return Given{V.is_string() ? V.get<std::string>() : V.dump(),
                   FilePath + ": " + Name.str(), V.is_string()};
    }
    return std::nullopt;
  }

private:
  std::map<std::string, std::string> Flags;
  nlohmann::json File;
  std::string FilePath;
};

llvm::Error badValue(const Given &G, llvm::StringRef Expected) {
  return makeError(ErrorKind::BadInput,
                   G.From + "='" + G.Value + "' is not " + Expected);
}

/// Setting \p Name, when given, into \p Out: a number (double) or a whole
/// number (unsigned), at least \p Min.
template <typename T>
llvm::Error readAtLeast(const Sources &S, llvm::StringRef Name, T &Out, T Min) {
  auto G = S.get(Name);
  if (!G)
    return llvm::Error::success();
  constexpr bool Real = std::is_floating_point_v<T>;
  llvm::StringRef Text = llvm::StringRef(G->Value).trim();
  T V;
  bool Bad;
  if constexpr (Real)
    Bad = Text.getAsDouble(V);
  else
    Bad = Text.getAsInteger(10, V);
  if (Bad || V < Min)
    return badValue(*G, (Real ? "a number >= " : "a whole number >= ") +
                            std::to_string((long long)Min));
  Out = V;
  return llvm::Error::success();
}

llvm::Error readProvider(const Sources &S, LlmProvider &Out) {
  auto G = S.get("llm");
  if (!G)
    return llvm::Error::success();
  std::string V = llvm::StringRef(G->Value).trim().lower();
  if (V == "none" || V.empty())
    Out = LlmProvider::None;
  else if (V == "openai")
    Out = LlmProvider::OpenAI;
  else if (V == "anthropic")
    Out = LlmProvider::Anthropic;
  else
    return badValue(*G, "a provider (none, openai or anthropic)");
  return llvm::Error::success();
}

llvm::Error readSchema(const Sources &S, bool &Out) {
  auto G = S.get("llm-schema");
  if (!G)
    return llvm::Error::success();
  std::string V = llvm::StringRef(G->Value).trim().lower();
  if (V != "auto" && V != "off")
    return badValue(*G, "auto or off");
  Out = V == "auto";
  return llvm::Error::success();
}

llvm::Error readBool(const Sources &S, llvm::StringRef Name, bool &Out) {
  auto G = S.get(Name);
  if (!G)
    return llvm::Error::success();
  std::string V = llvm::StringRef(G->Value).trim().lower();
  if (V == "1" || V == "true" || V == "yes" || V.empty())
    Out = true;
  else if (V == "0" || V == "false" || V == "no")
    Out = false;
  else
    return badValue(*G, "true or false");
  return llvm::Error::success();
}

} // namespace

llvm::Expected<LlmConfig>
LlmConfig::resolve(const std::map<std::string, std::string> &Flags) {
  auto S = Sources::load(Flags);
  if (!S)
    return S.takeError();
  LlmConfig C;
  if (llvm::Error E = readProvider(*S, C.Provider))
    return E;
  llvm::Error E = llvm::Error::success();
  for (auto [Name, Field] : {std::pair{"llm-base-url", &C.BaseUrl},
                             {"llm-model", &C.Model},
                             {"prompts-dir", &C.PromptsDir}})
    if (auto G = S->get(Name)) {
      if (!G->IsText)
        E = llvm::joinErrors(std::move(E), badValue(*G, "a string"));
      *Field = llvm::StringRef(G->Value).trim().str();
    }
  for (auto [Name, Field] : {std::pair{"llm-temperature", &C.Temperature},
                             {"llm-timeout", &C.TimeoutSeconds},
                             {"llm-max-cost", &C.MaxCost},
                             {"llm-price-in", &C.PriceIn},
                             {"llm-price-out", &C.PriceOut}})
    E = llvm::joinErrors(std::move(E), readAtLeast(*S, Name, *Field, 0.0));
  for (auto [Name, Field, Min] :
       {std::tuple{"llm-max-tokens", &C.MaxTokens, 1u},
        {"llm-retries", &C.Retries, 0u},
        {"llm-max-calls", &C.MaxCalls, 0u}})
    E = llvm::joinErrors(std::move(E), readAtLeast(*S, Name, *Field, Min));
  E = llvm::joinErrors(std::move(E), readBool(*S, "llm-replay", C.Replay));
  E = llvm::joinErrors(std::move(E), readSchema(*S, C.SendSchema));
  if (E) {
    // One line: the first bad setting.
    std::string First;
    llvm::handleAllErrors(std::move(E), [&](const llvm::ErrorInfoBase &I) {
      if (First.empty())
        First = I.message();
    });
    return makeError(ErrorKind::BadInput, First);
  }
  if (C.TimeoutSeconds <= 0)
    C.TimeoutSeconds = 120;
  while (llvm::StringRef(C.BaseUrl).ends_with("/"))
    C.BaseUrl.pop_back();

  if (!C.enabled())
    return C;
  // The key: ours first, then the provider's own; every one is removed
  // from the environment whatever the provider.
  const char *Own = C.Provider == LlmProvider::Anthropic ? "ANTHROPIC_API_KEY"
                                                         : "OPENAI_API_KEY";
  C.Key = ApiKey::fromEnvironment({"OPTIML_LLM_API_KEY", Own});
  ApiKey::fromEnvironment({"OPENAI_API_KEY", "ANTHROPIC_API_KEY"});
  if (C.BaseUrl.empty())
    C.BaseUrl = C.Provider == LlmProvider::Anthropic
                    ? "https://api.anthropic.com/v1"
                    : "https://api.openai.com/v1";
  if (C.Model.empty())
    return makeError(ErrorKind::BadInput,
                     "--llm=" + toString(C.Provider) +
                         " needs a model: --llm-model=NAME or "
                         "OPTIML_LLM_MODEL");
  return C;
}
