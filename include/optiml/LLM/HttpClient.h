//===- HttpClient.h - one JSON POST over libcurl ---------------*- C++ -*-===//
//
// The transport under every chat client: a POST with headers, a time
// limit and the answer's status, body and Retry-After. Failing to reach
// the endpoint is a result (its kind decides whether a retry may help),
// not an error: the caller owns the retry policy.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_HTTPCLIENT_H
#define OPTIML_LLM_HTTPCLIENT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace optiml {

struct HttpResponse {
  enum class Transport {
    Ok,          ///< An HTTP answer arrived (any status).
    TimedOut,    ///< No complete answer within the time limit.
    Unreachable, ///< Name not resolved or connection refused.
    Failed,      ///< Any other transport failure (reset, TLS, ...).
  };
  Transport Outcome = Transport::Failed;
  long Status = 0;
  std::string Body;
  std::optional<double> RetryAfterSeconds;
  std::string Error; ///< libcurl's words when Outcome is not Ok.
  double Seconds = 0;
};

class HttpClient {
public:
  /// POSTs \p Body (JSON) to \p Url with \p Headers ("Name: value").
  static HttpResponse postJson(const std::string &Url,
                               llvm::ArrayRef<std::string> Headers,
                               const std::string &Body, double TimeoutSeconds);
};

} // namespace optiml

#endif // OPTIML_LLM_HTTPCLIENT_H
