//===- JsonFields.h - Typed reads and writes of protocol JSON ---*- C++ -*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md). Every key of a plan or
// a result is read through field() or fieldOr(), which check the JSON type
// and say where a value is wrong ("instances[1].args[2].count: expected a
// non-negative integer"), so the tool and the runner reject a bad document
// with the same line. A struct's reader is an overload of read(); its writer
// is nlohmann's to_json hook, so `Json(S)` and vectors of structs work.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_JSONFIELDS_H
#define OPTIML_PROTOCOL_JSONFIELDS_H

#include "optiml/Protocol/ProtocolError.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace optiml::protocol {

/// Keys keep their insertion order, so documents read top-down in the order
/// the runner did its work.
using Json = nlohmann::ordered_json;

/// Throws a malformed-value error at \p Path, relative to the object being
/// read (empty: the object itself).
[[noreturn]] inline void fail(std::string Path, std::string Message) {
  throw ProtocolError(ProtocolError::Kind::Malformed, std::move(Path),
                      std::move(Message));
}

inline void expectObject(const Json &V) {
  if (!V.is_object())
    fail("", "expected an object");
}

inline void read(const Json &V, std::string &Out) {
  if (!V.is_string())
    fail("", "expected a string");
  Out = V.get<std::string>();
}

inline void read(const Json &V, bool &Out) {
  if (!V.is_boolean())
    fail("", "expected true or false");
  Out = V.get<bool>();
}

/// A number; also "nan", "inf" and "-inf", which number() writes for the
/// values JSON cannot hold.
inline void read(const Json &V, double &Out) {
  if (V.is_string()) {
    const std::string &S = V.get_ref<const std::string &>();
    if (S == "nan" || S == "inf" || S == "-inf") {
      Out = S == "nan"   ? std::numeric_limits<double>::quiet_NaN()
            : S == "inf" ? std::numeric_limits<double>::infinity()
                         : -std::numeric_limits<double>::infinity();
      return;
    }
  }
  if (!V.is_number())
    fail("", "expected a number");
  Out = V.get<double>();
}

/// A finite number (plans never carry anything else).
inline double readFinite(const Json &V) {
  double D = 0;
  read(V, D);
  if (!std::isfinite(D))
    fail("", "expected a finite number");
  return D;
}

/// An integer; also an integral float (8191.0), as expression evaluators
/// write them.
inline int64_t readInteger(const Json &V) {
  if (V.is_number_unsigned()) {
    uint64_t U = V.get<uint64_t>();
    if (U > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      fail("", "integer too large");
    return static_cast<int64_t>(U);
  }
  if (V.is_number_integer())
    return V.get<int64_t>();
  if (!V.is_number())
    fail("", "expected a number");
  double D = readFinite(V);
  if (D != std::floor(D) || std::fabs(D) > 9007199254740992.0)
    fail("", "expected an integer");
  return static_cast<int64_t>(D);
}

inline uint64_t readUnsigned(const Json &V) {
  if (V.is_number_unsigned())
    return V.get<uint64_t>();
  int64_t I = readInteger(V);
  if (I < 0)
    fail("", "expected a non-negative integer");
  return static_cast<uint64_t>(I);
}

inline void read(const Json &V, int64_t &Out) { Out = readInteger(V); }
inline void read(const Json &V, uint64_t &Out) { Out = readUnsigned(V); }

inline void read(const Json &V, unsigned &Out) {
  uint64_t U = readUnsigned(V);
  if (U > std::numeric_limits<unsigned>::max())
    fail("", "too large");
  Out = static_cast<unsigned>(U);
}

inline void read(const Json &V, int &Out) {
  int64_t I = readInteger(V);
  if (I < std::numeric_limits<int>::min() ||
      I > std::numeric_limits<int>::max())
    fail("", "out of range");
  Out = static_cast<int>(I);
}

template <typename T> void read(const Json &V, std::vector<T> &Out) {
  if (!V.is_array())
    fail("", "expected an array");
  Out.clear();
  Out.resize(V.size());
  for (size_t I = 0; I < V.size(); ++I) {
    try {
      read(V[I], Out[I]);
    } catch (ProtocolError &E) {
      E.inElement(I);
      throw;
    }
  }
}

template <typename T> void read(const Json &V, std::map<std::string, T> &Out) {
  expectObject(V);
  Out.clear();
  for (auto It = V.begin(); It != V.end(); ++It) {
    try {
      read(It.value(), Out[It.key()]);
    } catch (ProtocolError &E) {
      E.inKey(It.key());
      throw;
    }
  }
}

/// Reads \p V into \p Out, naming \p Key in any error.
template <typename T> void readAt(const Json &V, const char *Key, T &Out) {
  try {
    read(V, Out);
  } catch (ProtocolError &E) {
    E.inKey(Key);
    throw;
  }
}

/// The required key \p Key of the object \p Obj; absent or null is
/// "<Key>: missing".
template <typename T> void field(const Json &Obj, const char *Key, T &Out) {
  auto It = Obj.find(Key);
  if (It == Obj.end() || It->is_null())
    fail(Key, "missing");
  readAt(*It, Key, Out);
}

/// An optional key: absent or null is std::nullopt.
template <typename T>
void field(const Json &Obj, const char *Key, std::optional<T> &Out) {
  auto It = Obj.find(Key);
  if (It == Obj.end() || It->is_null()) {
    Out.reset();
    return;
  }
  readAt(*It, Key, Out.emplace());
}

/// A key with a default: absent or null leaves \p Out as it is.
template <typename T> void fieldOr(const Json &Obj, const char *Key, T &Out) {
  auto It = Obj.find(Key);
  if (It != Obj.end() && !It->is_null())
    readAt(*It, Key, Out);
}

/// A double as JSON, with non-finite values as "nan", "inf" or "-inf".
inline Json number(double V) {
  if (std::isnan(V))
    return "nan";
  if (std::isinf(V))
    return V > 0 ? "inf" : "-inf";
  return V;
}

/// \p V, or null when absent.
template <typename T> Json orNull(const std::optional<T> &V) {
  return V ? Json(*V) : Json();
}

/// One key of a struct that is written and read as a plain list of keys:
/// the list is spelled once (a constexpr `keysOf(const S &)` beside the
/// struct, returning a std::tuple of key() entries) and serves both the
/// writer and the reader below, so they cannot drift apart. A std::optional
/// member is left out when absent and may be absent when read; every other key
/// is required.
template <typename S, typename M> struct Key {
  const char *Name;
  M S::*Member;
};

template <typename S, typename M>
constexpr Key<S, M> key(const char *Name, M S::*Member) {
  return {Name, Member};
}

/// A value as JSON: doubles through number().
inline Json toValue(double V) { return number(V); }
template <typename T> Json toValue(const T &V) { return Json(V); }

template <typename S, typename M>
void writeKey(Json &J, const S &Obj, const Key<S, M> &K) {
  J[K.Name] = toValue(Obj.*(K.Member));
}

template <typename S, typename M>
void writeKey(Json &J, const S &Obj, const Key<S, std::optional<M>> &K) {
  if (const std::optional<M> &V = Obj.*(K.Member))
    J[K.Name] = toValue(*V);
}

template <typename S, typename... M>
void writeKeys(Json &J, const S &Obj, const std::tuple<Key<S, M>...> &Keys) {
  J = Json::object();
  std::apply([&](const auto &...K) { (writeKey(J, Obj, K), ...); }, Keys);
}

template <typename S, typename... M>
void readKeys(const Json &V, S &Obj, const std::tuple<Key<S, M>...> &Keys) {
  expectObject(V);
  std::apply(
      [&](const auto &...K) { (field(V, K.Name, Obj.*(K.Member)), ...); },
      Keys);
}

/// nlohmann's writer hook for every struct with a keysOf() list.
template <typename S, typename = decltype(keysOf(std::declval<const S &>()))>
void to_json(Json &J, const S &Obj) {
  writeKeys(J, Obj, keysOf(Obj));
}

/// The reader of every struct with a keysOf() list.
template <typename S, typename = decltype(keysOf(std::declval<const S &>()))>
void read(const Json &V, S &Obj) {
  readKeys(V, Obj, keysOf(Obj));
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_JSONFIELDS_H
