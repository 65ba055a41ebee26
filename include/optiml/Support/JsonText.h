//===- JsonText.h - JSON text that never throws ---------------*- C++ -*-===//
//
// Kernel sources may hold bytes that are not UTF-8 (a Latin-1 comment in a
// loop header, a name in a message), and nlohmann's dump() throws on them:
// an uncaught type_error that aborts the tool. Everything OptiML writes as
// JSON goes through jsonText(), which writes such bytes as U+FFFD instead.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SUPPORT_JSONTEXT_H
#define OPTIML_SUPPORT_JSONTEXT_H

#include <string>

namespace optiml {

/// \p J as text, indented by \p Indent (-1: on one line).
template <typename JsonT> std::string jsonText(const JsonT &J, int Indent = 2) {
  return J.dump(Indent, ' ', /*ensure_ascii=*/false,
                JsonT::error_handler_t::replace);
}

} // namespace optiml

#endif // OPTIML_SUPPORT_JSONTEXT_H
