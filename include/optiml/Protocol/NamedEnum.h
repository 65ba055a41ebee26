//===- NamedEnum.h - Enums spelled by name in protocol documents -*- C++
//-*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md). Element types, roles,
// sides and statuses appear in plans and results by name; each enum lists
// its values once and names them once, and parsing is the inverse.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_NAMEDENUM_H
#define OPTIML_PROTOCOL_NAMEDENUM_H

#include <cstddef>
#include <optional>
#include <string_view>

namespace optiml::protocol {

/// The value of \p All that \p Name spells \p Text, if any.
template <typename E, size_t N>
std::optional<E> parseNamed(std::string_view Text, const E (&All)[N],
                            const char *(*Name)(E)) {
  for (E V : All)
    if (Text == Name(V))
      return V;
  return std::nullopt;
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_NAMEDENUM_H
