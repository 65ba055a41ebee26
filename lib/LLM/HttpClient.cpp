//===- HttpClient.cpp - one JSON POST over libcurl -----------------------===//

#include "optiml/LLM/HttpClient.h"

#include "llvm/ADT/StringRef.h"

#include <curl/curl.h>

#include <chrono>
#include <memory>
#include <mutex>

using namespace optiml;

namespace {

size_t appendBody(char *Data, size_t Size, size_t Count, void *Out) {
  static_cast<std::string *>(Out)->append(Data, Size * Count);
  return Size * Count;
}

/// Reads `Retry-After: N` (seconds; the HTTP-date form is ignored).
size_t readHeader(char *Data, size_t Size, size_t Count, void *Out) {
  llvm::StringRef Line(Data, Size * Count);
  auto [Name, Value] = Line.split(':');
  double Seconds;
  if (Name.trim().equals_insensitive("retry-after") &&
      !Value.trim().getAsDouble(Seconds))
    *static_cast<std::optional<double> *>(Out) = Seconds;
  return Size * Count;
}

struct CurlDeleter {
  void operator()(CURL *C) const { curl_easy_cleanup(C); }
};
struct ListDeleter {
  void operator()(curl_slist *L) const { curl_slist_free_all(L); }
};

HttpResponse::Transport transportOf(CURLcode Code) {
  switch (Code) {
  case CURLE_OK:
    return HttpResponse::Transport::Ok;
  case CURLE_OPERATION_TIMEDOUT:
    return HttpResponse::Transport::TimedOut;
  case CURLE_COULDNT_RESOLVE_HOST:
  case CURLE_COULDNT_RESOLVE_PROXY:
  case CURLE_COULDNT_CONNECT:
    return HttpResponse::Transport::Unreachable;
  default:
    return HttpResponse::Transport::Failed;
  }
}

} // namespace

HttpResponse HttpClient::postJson(const std::string &Url,
                                  llvm::ArrayRef<std::string> Headers,
                                  const std::string &Body,
                                  double TimeoutSeconds) {
  static std::once_flag Init;
  std::call_once(Init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  HttpResponse R;
  std::unique_ptr<CURL, CurlDeleter> C(curl_easy_init());
  if (!C) {
    R.Error = "libcurl could not start";
    return R;
  }
  std::unique_ptr<curl_slist, ListDeleter> List;
  curl_slist *Raw =
      curl_slist_append(nullptr, "Content-Type: application/json");
  for (const std::string &H : Headers)
    Raw = curl_slist_append(Raw, H.c_str());
  List.reset(Raw);
  char ErrorText[CURL_ERROR_SIZE] = "";
  long TimeoutMs = std::max(1L, long(TimeoutSeconds * 1000));
  curl_easy_setopt(C.get(), CURLOPT_URL, Url.c_str());
  curl_easy_setopt(C.get(), CURLOPT_HTTPHEADER, List.get());
  curl_easy_setopt(C.get(), CURLOPT_POSTFIELDS, Body.c_str());
  curl_easy_setopt(C.get(), CURLOPT_POSTFIELDSIZE_LARGE,
                   curl_off_t(Body.size()));
  curl_easy_setopt(C.get(), CURLOPT_TIMEOUT_MS, TimeoutMs);
  curl_easy_setopt(C.get(), CURLOPT_CONNECTTIMEOUT_MS,
                   std::min(TimeoutMs, 30000L));
  curl_easy_setopt(C.get(), CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(C.get(), CURLOPT_WRITEFUNCTION, appendBody);
  curl_easy_setopt(C.get(), CURLOPT_WRITEDATA, &R.Body);
  curl_easy_setopt(C.get(), CURLOPT_HEADERFUNCTION, readHeader);
  curl_easy_setopt(C.get(), CURLOPT_HEADERDATA, &R.RetryAfterSeconds);
  curl_easy_setopt(C.get(), CURLOPT_ERRORBUFFER, ErrorText);
  // Only http(s), and no redirects: a key must not follow one elsewhere.
  curl_easy_setopt(C.get(), CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(C.get(), CURLOPT_FOLLOWLOCATION, 0L);

  auto Start = std::chrono::steady_clock::now();
  CURLcode Code = curl_easy_perform(C.get());
  R.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  R.Outcome = transportOf(Code);
  if (Code != CURLE_OK) {
    R.Error = *ErrorText ? ErrorText : curl_easy_strerror(Code);
    return R;
  }
  curl_easy_getinfo(C.get(), CURLINFO_RESPONSE_CODE, &R.Status);
  return R;
}
