//===- LlmFlags.cpp - the options of the model ---------------------------===//
//
// The endpoint, the model and its limits, for --propose, --optimize and
// --from-prompt; LlmConfig::resolve() merges them with their OPTIML_*
// variables and the --llm-config file (docs/LLM.md).
//
//===----------------------------------------------------------------------===//

#include "Flags.h"

using namespace optiml;
using namespace llvm;

static cl::OptionCategory ModelHeading(
    "Options of the model (--propose, --optimize, --from-prompt)",
    "Each is also read from OPTIML_<NAME> (OPTIML_LLM_MODEL, ...) and from "
    "the --llm-config file; the key only from OPTIML_LLM_API_KEY, else "
    "OPENAI_API_KEY or ANTHROPIC_API_KEY.");

static cl::opt<std::string>
    LlmProviderName("llm",
                    cl::desc("The model's protocol: none (default), openai "
                             "(any OpenAI-compatible endpoint: OpenAI, vLLM, "
                             "llama.cpp, Ollama) or anthropic"),
                    cl::value_desc("none|openai|anthropic"),
                    cl::cat(optimlCategory()));
static cl::opt<std::string>
    LlmBaseUrl("llm-base-url",
               cl::desc("Endpoint base URL (default: the provider's; "
                        "http://127.0.0.1:8080/v1 for scripts/llm-server.sh)"),
               cl::value_desc("url"), cl::cat(optimlCategory()));
static cl::opt<std::string> LlmModel("llm-model", cl::desc("Model name"),
                                     cl::value_desc("name"),
                                     cl::cat(optimlCategory()));
static cl::opt<std::string>
    LlmTemperature("llm-temperature",
                   cl::desc("Sampling temperature (default 0.2)"),
                   cl::value_desc("t"), cl::cat(optimlCategory()));
static cl::opt<std::string>
    LlmMaxTokens("llm-max-tokens",
                 cl::desc("Most tokens in one answer (default 2048)"),
                 cl::value_desc("n"), cl::cat(optimlCategory()));
static cl::opt<std::string>
    LlmTimeout("llm-timeout",
               cl::desc("Seconds one request may take (default 120)"),
               cl::value_desc("s"), cl::cat(optimlCategory()));
static cl::opt<std::string>
    LlmRetries("llm-retries",
               cl::desc("Retries on 429, 5xx and time-outs, with "
                        "exponential backoff (default 3)"),
               cl::value_desc("n"), cl::cat(optimlCategory()));
static cl::opt<std::string>
    LlmMaxCalls("llm-max-calls",
                cl::desc("Stop asking after this many calls in one run "
                         "(default: no cap)"),
                cl::value_desc("n"), cl::cat(optimlCategory()));
static cl::opt<std::string>
    LlmMaxCost("llm-max-cost",
               cl::desc("Stop asking once the estimated cost reaches this "
                        "(default: no cap)"),
               cl::value_desc("amount"), cl::cat(optimlCategory()));
static cl::opt<std::string>
    LlmPriceIn("llm-price-in",
               cl::desc("Price of a million input tokens, for the cost "
                        "estimate (default 0: unknown)"),
               cl::value_desc("amount"), cl::cat(optimlCategory()));
static cl::opt<std::string>
    LlmPriceOut("llm-price-out", cl::desc("Price of a million output tokens"),
                cl::value_desc("amount"), cl::cat(optimlCategory()));
static cl::opt<bool>
    LlmReplay("llm-replay",
              cl::desc("Answer from the database's recorded calls only: "
                       "offline and deterministic; a prompt never asked "
                       "before is an error"),
              cl::cat(optimlCategory()));
static cl::opt<std::string>
    LlmSchema("llm-schema",
              cl::desc("auto (default): requests carry the answer's JSON "
                       "schema for the endpoint to enforce, and go without "
                       "one where the endpoint refused it; off: never"),
              cl::value_desc("auto|off"), cl::cat(optimlCategory()));
static cl::opt<std::string>
    LlmConfigFile("llm-config",
                  cl::desc("A JSON file of these settings "
                           "({\"llm\": \"openai\", \"llm-model\": ...})"),
                  cl::value_desc("file.json"), cl::cat(optimlCategory()));
static cl::opt<std::string>
    PromptsDir("prompts-dir",
               cl::desc("Folder of *.prompt templates (default: the "
                        "installed prompts/)"),
               cl::value_desc("dir"), cl::cat(optimlCategory()));

/// The settings given as text, --llm first, by the names resolve() reads.
static std::vector<cl::opt<std::string> *> textSettings() {
  return {&LlmProviderName, &LlmBaseUrl, &LlmModel,    &LlmTemperature,
          &LlmMaxTokens,    &LlmTimeout, &LlmRetries,  &LlmMaxCalls,
          &LlmMaxCost,      &LlmPriceIn, &LlmPriceOut, &LlmSchema,
          &LlmConfigFile,   &PromptsDir};
}

Expected<LlmConfig> optiml::llmConfig() {
  std::map<std::string, std::string> Given;
  for (cl::opt<std::string> *O : textSettings())
    if (O->getNumOccurrences())
      Given[O->ArgStr.str()] = *O;
  if (LlmReplay.getNumOccurrences())
    Given["llm-replay"] = LlmReplay ? "1" : "0";
  return LlmConfig::resolve(Given);
}

const cl::Option *optiml::givenModelSetting() {
  for (const cl::Option *O : std::initializer_list<const cl::Option *>{
           &LlmBaseUrl, &LlmModel, &LlmTemperature, &LlmMaxTokens, &LlmTimeout,
           &LlmRetries, &LlmMaxCalls, &LlmMaxCost, &LlmPriceIn, &LlmPriceOut,
           &LlmReplay, &LlmSchema, &LlmConfigFile, &PromptsDir})
    if (O->getNumOccurrences())
      return O;
  return nullptr;
}

std::vector<OptionTable::Row> optiml::modelRows() {
  static const OptionGroup Model{ModelHeading,
                                 {"propose", "optimize", "from-prompt"}};
  return {
      {LlmProviderName, Model}, {LlmBaseUrl, Model},    {LlmModel, Model},
      {LlmTemperature, Model},  {LlmMaxTokens, Model},  {LlmTimeout, Model},
      {LlmRetries, Model},      {LlmMaxCalls, Model},   {LlmMaxCost, Model},
      {LlmPriceIn, Model},      {LlmPriceOut, Model},   {LlmReplay, Model},
      {LlmSchema, Model},       {LlmConfigFile, Model}, {PromptsDir, Model},
  };
}
