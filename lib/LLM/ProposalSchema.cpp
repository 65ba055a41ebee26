//===- ProposalSchema.cpp - the answer's shape at one state ---------------===//

#include "optiml/LLM/ProposalSchema.h"

#include "llvm/ADT/MapVector.h"

using namespace optiml;
using nlohmann::json;

static json stringOf(const std::vector<std::string> &Values) {
  return {{"type", "string"}, {"enum", Values}};
}

/// Properties every item has besides what it proposes.
static void addCommon(json &Properties, json &Required) {
  Properties["confidence"] = {{"type", "number"}};
  Properties["rationale"] = {{"type", "string"}};
  Required.push_back("confidence");
  Required.push_back("rationale");
}

/// One structured item: \p T at one of \p Sites, every parameter given.
static json structuredItem(const Transform &T,
                           const std::vector<std::string> &Sites) {
  json Params = json::object(), ParamNames = json::array();
  for (const ParamSpec &P : T.params()) {
    Params[P.Name] = stringOf(P.Domain);
    ParamNames.push_back(P.Name);
  }
  json Properties = {{"kind", stringOf({"structured"})},
                     {"transform", stringOf({T.name().str()})},
                     {"site", stringOf(Sites)},
                     {"params",
                      {{"type", "object"},
                       {"properties", Params},
                       {"required", ParamNames},
                       {"additionalProperties", false}}}};
  json Required = json::array({"kind", "transform", "site", "params"});
  addCommon(Properties, Required);
  return {{"type", "object"},
          {"properties", Properties},
          {"required", Required},
          {"additionalProperties", false}};
}

static json editItem() {
  // An empty launch keeps the mark's.
  json Properties = {{"kind", stringOf({"edit"})},
                     {"code", {{"type", "string"}}},
                     {"launch", {{"type", "string"}}}};
  json Required = json::array({"kind", "code", "launch"});
  addCommon(Properties, Required);
  return {{"type", "object"},
          {"properties", Properties},
          {"required", Required},
          {"additionalProperties", false}};
}

json ProposalSchema::forActions(llvm::ArrayRef<Action> Actions,
                                const TransformRegistry &Registry,
                                unsigned Count) {
  // The legal sites of each transform, in the order the actions list them.
  llvm::MapVector<const Transform *, std::vector<std::string>> Sites;
  for (const Action &A : Actions)
    if (A.Legal)
      if (const Transform *T = Registry.find(A.Transform))
        if (llvm::find(Sites[T], A.Default.Site) == Sites[T].end())
          Sites[T].push_back(A.Default.Site);
  json Items = json::array();
  for (const auto &[T, TSites] : Sites)
    Items.push_back(structuredItem(*T, TSites));
  Items.push_back(editItem());
  return {
      {"type", "object"},
      {"properties",
       {{"proposals",
         {{"type", "array"},
          {"maxItems", Count},
          {"items", Items.size() == 1 ? Items[0] : json{{"anyOf", Items}}}}}}},
      {"required", json::array({"proposals"})},
      {"additionalProperties", false}};
}
