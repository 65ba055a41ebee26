//===- Document.h - Decode and encode whole protocol documents --*- C++ -*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md). The entry points for
// both ends: decodeText() turns JSON text (comments allowed) into a plan, a
// result or one of their parts, decode() does the same from parsed JSON, and
// both return what went wrong as a value; encode() writes the text. Nothing
// thrown inside the protocol headers leaves through them.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_DOCUMENT_H
#define OPTIML_PROTOCOL_DOCUMENT_H

#include "optiml/Protocol/JsonFields.h"

#include <optional>
#include <string>

namespace optiml::protocol {

/// Decodes \p J into \p Out; std::nullopt on success. \p Out is unchanged on
/// failure.
template <typename T>
std::optional<ProtocolError> decode(const Json &J, T &Out) {
  try {
    T Value;
    read(J, Value);
    Out = std::move(Value);
    return std::nullopt;
  } catch (const ProtocolError &E) {
    return E;
  } catch (const nlohmann::json::exception &E) {
    // The readers check types before every access; this is a bug, but
    // still an answer, not a crash.
    return ProtocolError(std::string("unreadable: ") + E.what());
  }
}

/// Parses \p Text and decodes it into \p Out; std::nullopt on success.
template <typename T>
std::optional<ProtocolError> decodeText(const std::string &Text, T &Out) {
  Json J;
  try {
    J = Json::parse(Text, /*cb=*/nullptr, /*allow_exceptions=*/true,
                    /*ignore_comments=*/true);
  } catch (const nlohmann::json::exception &E) {
    return ProtocolError(std::string("invalid JSON: ") + E.what());
  }
  return decode(J, Out);
}

/// \p Value as indented JSON text; invalid UTF-8 (in a kernel name or a
/// dlerror() message) is replaced rather than thrown.
template <typename T> std::string encode(const T &Value) {
  return Json(Value).dump(2, ' ', false, Json::error_handler_t::replace);
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_DOCUMENT_H
