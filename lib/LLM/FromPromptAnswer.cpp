//===- FromPromptAnswer.cpp - what a model wrote for --from-prompt -------===//

#include "optiml/LLM/FromPromptAnswer.h"
#include "optiml/LLM/AnswerParser.h"
#include "optiml/Support/Error.h"

using namespace optiml;
using nlohmann::json;

static llvm::Error unreadable(const llvm::Twine &Why) {
  return makeError(ErrorKind::BadInput, Why);
}

static std::string field(const json &Item, const char *Key) {
  return Item.contains(Key) && Item[Key].is_string()
             ? llvm::StringRef(Item[Key].get<std::string>()).trim().str()
             : "";
}

/// Field \p Key of the JSON object \p Text is (or holds), without the
/// fence a model may have put inside it; empty when there is none.
static std::string jsonField(llvm::StringRef Text, const char *Key) {
  std::optional<json> J = AnswerParser::findJSON(Text);
  if (!J || !J->is_object())
    return "";
  std::string Value = field(*J, Key);
  std::vector<CodeFence> Fences = AnswerParser::fences(Value);
  return Fences.empty() ? Value : Fences.front().Body;
}

llvm::Expected<std::string> FromPromptAnswer::interface(llvm::StringRef Text) {
  if (std::string Code = jsonField(Text, "interface"); !Code.empty())
    return Code;
  for (const CodeFence &F : AnswerParser::fences(Text))
    if (AnswerParser::isCode(F))
      return F.Body;
  if (Text.contains("#pragma optiml"))
    return Text.str();
  return unreadable("the answer holds no ```cuda block with the "
                    "#pragma optiml line and the kernel's declaration");
}

llvm::Expected<std::vector<Strategy>>
FromPromptAnswer::strategies(llvm::StringRef Text, unsigned Count) {
  std::optional<json> J = AnswerParser::findJSON(Text);
  const json *Items = J ? &*J : nullptr;
  if (J && J->is_object() && J->contains("strategies"))
    Items = &(*J)["strategies"];
  if (!Items || !Items->is_array())
    return unreadable("the answer is not a JSON object with a "
                      "\"strategies\" list");
  std::vector<Strategy> Out;
  for (const json &Item : *Items) {
    if (Out.size() == Count)
      break;
    if (!Item.is_object())
      continue;
    Strategy S{field(Item, "name"), field(Item, "plan")};
    if (!S.Name.empty() && !S.Plan.empty())
      Out.push_back(std::move(S));
  }
  if (Out.empty())
    return unreadable("the answer lists no strategy with a \"name\" and a "
                      "\"plan\"");
  return Out;
}

/// `launch: grid(...) block(...)` outside the fences, when there is one.
static std::string launchLine(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    llvm::StringRef T = L.trim().ltrim("*`- ");
    if (T.consume_front_insensitive("launch:"))
      return T.trim(" \t*`").str();
  }
  return "";
}

llvm::Expected<KernelAnswer> FromPromptAnswer::kernel(llvm::StringRef Text) {
  KernelAnswer A;
  A.Code = jsonField(Text, "code");
  if (!A.Code.empty()) {
    A.Launch = jsonField(Text, "launch");
    return A;
  }
  for (const CodeFence &F : AnswerParser::fences(Text)) {
    if (F.Language == "launch" && A.Launch.empty())
      A.Launch = llvm::StringRef(F.Body).trim().str();
    else if (AnswerParser::isCode(F) && A.Code.empty())
      A.Code = F.Body;
  }
  if (A.Launch.empty())
    A.Launch = launchLine(Text);
  if (llvm::StringRef(A.Code).trim().empty())
    return unreadable("the answer holds no ```cuda block with the kernel's "
                      "definition");
  return A;
}

/// An object of string properties \p Names, all required.
static json strictObject(std::initializer_list<const char *> Names) {
  json Properties = json::object(), Required = json::array();
  for (const char *N : Names) {
    Properties[N] = {{"type", "string"}};
    Required.push_back(N);
  }
  return {{"type", "object"},
          {"properties", Properties},
          {"required", Required},
          {"additionalProperties", false}};
}

json FromPromptAnswer::interfaceSchema() { return strictObject({"interface"}); }

json FromPromptAnswer::strategiesSchema() {
  return {{"type", "object"},
          {"properties",
           {{"strategies",
             {{"type", "array"}, {"items", strictObject({"name", "plan"})}}}}},
          {"required", json::array({"strategies"})},
          {"additionalProperties", false}};
}

json FromPromptAnswer::kernelSchema() {
  return strictObject({"code", "launch"});
}
