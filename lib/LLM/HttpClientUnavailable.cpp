//===- HttpClientUnavailable.cpp - the transport of the static bundle ----===//
//
// The statically linked GPU bundle leaves libcurl out (OptimlDeps.cmake):
// GPU machines are often offline, and take proposals from a folder made
// elsewhere (--propose -o DIR). Asking a model from there says so.
//
//===----------------------------------------------------------------------===//

#include "optiml/LLM/HttpClient.h"

using namespace optiml;

HttpResponse HttpClient::postJson(const std::string &,
                                  llvm::ArrayRef<std::string>,
                                  const std::string &, double) {
  HttpResponse R;
  R.Outcome = HttpResponse::Transport::Unreachable;
  R.Error = "this clang-optiml is the static GPU bundle, built without "
            "libcurl; run --propose with the full tool and pass its -o "
            "folder here";
  return R;
}
