//===- Json.h - The JSON type used for plans and results --------*- C++ -*-===//
//
// Part of OptiML. nlohmann's ordered_json keeps keys in insertion order, so
// result files read top-down in the order the runner did its work.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_JSON_H
#define OPTIML_RUNTIME_JSON_H

#include <nlohmann/json.hpp>

namespace optiml {
using Json = nlohmann::ordered_json;
} // namespace optiml

#endif // OPTIML_RUNTIME_JSON_H
