//===- HttpChatClient.cpp - a chat endpoint over HTTP, with retries ------===//

#include "optiml/LLM/HttpChatClient.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/JsonText.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <thread>

using namespace optiml;

ChatClient::~ChatClient() = default;

bool optiml::succeeded(const HttpResponse &R) {
  return R.Outcome == HttpResponse::Transport::Ok && R.Status >= 200 &&
         R.Status < 300;
}

bool optiml::retryable(const HttpResponse &R) {
  using T = HttpResponse::Transport;
  if (R.Outcome == T::TimedOut || R.Outcome == T::Failed)
    return true;
  return R.Outcome == T::Ok && (R.Status == 429 || R.Status >= 500);
}

std::string HttpChatClient::errorMessage(const std::string &Body) {
  nlohmann::json J = nlohmann::json::parse(Body, nullptr, false);
  std::string Text;
  if (J.is_object() && J.contains("error")) {
    const nlohmann::json &E = J["error"];
    if (E.is_object() && E.contains("message") && E["message"].is_string())
      Text = E["message"].get<std::string>();
    else if (E.is_string())
      Text = E.get<std::string>();
  }
  if (Text.empty())
    Text = Body;
  // One line, and short.
  std::replace(Text.begin(), Text.end(), '\n', ' ');
  if (Text.size() > 200)
    Text = Text.substr(0, 200) + "...";
  return Text;
}

llvm::Error HttpChatClient::failure(const HttpResponse &R,
                                    unsigned Attempts) const {
  std::string Where = "the LLM endpoint " + Config.BaseUrl;
  std::string Tries =
      Attempts == 1 ? "" : " (" + std::to_string(Attempts) + " tries)";
  std::string Message;
  using T = HttpResponse::Transport;
  switch (R.Outcome) {
  case T::Unreachable:
    Message = "cannot reach " + Where + ": " + R.Error;
    break;
  case T::TimedOut:
    Message =
        Where + " did not answer within " +
        llvm::formatv("{0}", llvm::format("%g", Config.TimeoutSeconds)).str() +
        " s (--llm-timeout)" + Tries;
    break;
  case T::Failed:
    Message = Where + " failed: " + R.Error + Tries;
    break;
  case T::Ok:
    if (R.Status == 429)
      Message = Where + " is rate limiting (HTTP 429)" + Tries + ": " +
                errorMessage(R.Body);
    else
      Message = Where + " answered HTTP " + std::to_string(R.Status) + Tries +
                ": " + errorMessage(R.Body);
    break;
  }
  return makeError(ErrorKind::BadInput, Config.Key.redact(Message));
}

HttpResponse HttpChatClient::post(const ChatRequest &Req,
                                  unsigned &Attempts) const {
  std::string Body = jsonText(Dialect.Body(Req, Config), -1);
  double Wait = Config.BackoffSeconds;
  for (Attempts = 1;; ++Attempts) {
    HttpResponse R = HttpClient::postJson(Config.BaseUrl + Dialect.Path,
                                          Dialect.Headers(Config), Body,
                                          Config.TimeoutSeconds);
    if (succeeded(R) || !retryable(R) || Attempts > Config.Retries)
      return R;
    double Delay =
        R.RetryAfterSeconds ? std::min(*R.RetryAfterSeconds, 60.0) : Wait;
    std::this_thread::sleep_for(std::chrono::duration<double>(Delay));
    Wait *= 2;
  }
}

llvm::Expected<ChatAnswer> HttpChatClient::read(const HttpResponse &R) const {
  nlohmann::json J = nlohmann::json::parse(R.Body, nullptr, false);
  auto Answer = J.is_object()
                    ? Dialect.Parse(J)
                    : llvm::Expected<ChatAnswer>(makeError(
                          ErrorKind::BadInput, "the body is not JSON"));
  if (!Answer)
    return makeError(ErrorKind::BadInput,
                     Config.Key.redact("the LLM endpoint " + Config.BaseUrl +
                                       " answered something that is not a "
                                       "chat completion: " +
                                       llvm::toString(Answer.takeError())));
  return Answer;
}

/// A request the endpoint refuses as written (400 Bad Request, 422
/// Unprocessable), which one that does not enforce a schema may accept.
static bool refused(const HttpResponse &R) {
  return R.Outcome == HttpResponse::Transport::Ok &&
         (R.Status == 400 || R.Status == 422);
}

llvm::Expected<ChatAnswer> HttpChatClient::complete(const ChatRequest &Req) {
  unsigned Attempts = 0;
  HttpResponse R = post(Req, Attempts);
  std::string Refusal;
  if (Req.Schema && refused(R)) {
    // Not every server takes response_format or tools: ask once more with
    // the prompt alone carrying the answer's shape.
    Refusal = "HTTP " + std::to_string(R.Status) + ": " + errorMessage(R.Body);
    ChatRequest Plain = Req;
    Plain.Schema.reset();
    unsigned More = 0;
    R = post(Plain, More);
    Attempts += More;
  }
  if (!succeeded(R))
    return failure(R, Attempts);
  auto Answer = read(R);
  if (!Answer)
    return Answer.takeError();
  Answer->Seconds = R.Seconds;
  Answer->Attempts = Attempts;
  Answer->Mode = Req.Schema && Refusal.empty() ? "schema" : "prompt";
  Answer->SchemaRefused = Config.Key.redact(Refusal);
  if (Answer->Model.empty())
    Answer->Model = Config.Model;
  return Answer;
}
