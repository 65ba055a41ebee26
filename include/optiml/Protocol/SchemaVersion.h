//===- SchemaVersion.h - The version both ends must agree on ----*- C++ -*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md). Plans and results carry
// "schema_version"; the runner refuses a plan, and the tool a result, of any
// other version, so a runner built from other sources than the tool fails
// with one line instead of being misread. Bump it whenever a key is
// removed, becomes required or changes meaning (not for a new optional
// key), and update docs/Runner.md with it.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_SCHEMAVERSION_H
#define OPTIML_PROTOCOL_SCHEMAVERSION_H

#include "optiml/Protocol/JsonFields.h"

namespace optiml::protocol {

/// 2: buffers may carry "fields" (vector and struct elements) and the
/// narrow float types f16, bf16, f8e4m3, f8e5m2.
/// 3: an instance may be a "sequence" of launches (with "companions" in
/// the plan and "extra" buffers): a runner that ignored it would time one
/// launch where the spec asks for many.
inline constexpr int SchemaVersion = 3;
inline constexpr const char *SchemaVersionKey = "schema_version";

/// Throws a VersionMismatch error unless \p Doc (a \p What: "plan",
/// "result") says SchemaVersion.
inline void checkSchemaVersion(const Json &Doc, const char *What) {
  auto It = Doc.find(SchemaVersionKey);
  std::string Reads =
      "this build of OptiML reads version " + std::to_string(SchemaVersion);
  if (It == Doc.end() || It->is_null())
    throw ProtocolError(ProtocolError::Kind::VersionMismatch, SchemaVersionKey,
                        std::string("missing: the ") + What +
                            " comes from an older OptiML; " + Reads);
  if (!It->is_number_integer())
    throw ProtocolError(ProtocolError::Kind::VersionMismatch, SchemaVersionKey,
                        "expected an integer; " + Reads);
  int64_t Version = It->get<int64_t>();
  if (Version != SchemaVersion)
    throw ProtocolError(ProtocolError::Kind::VersionMismatch, SchemaVersionKey,
                        std::string("the ") + What + " has version " +
                            std::to_string(Version) + ", " + Reads);
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_SCHEMAVERSION_H
