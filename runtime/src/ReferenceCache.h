//===- ReferenceCache.h - The reference's outputs across plans --*- C++ -*-===//
//
// Part of OptiML. A serving runner (--serve) verifies one candidate after
// another against the same reference on the same inputs, so it keeps what
// the reference's verification runs produced per (library, instance, seed)
// and runs only the candidate. Only outputs that passed the reference's own
// checks are kept.
//
// The candidates run in this process, and a wild write (through the host
// memory a GPU with HMM can reach, or a bug of ours) must not turn a
// rejection into an acceptance: every entry carries a checksum of its
// outputs and of the inputs they were computed from, checked at each use.
// An entry that no longer matches is dropped and the reference runs again.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_REFERENCECACHE_H
#define OPTIML_RUNTIME_REFERENCECACHE_H

#include "Inputs.h"
#include "Plan.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace optiml {

/// Output contents by argument index (empty for in buffers and scalars).
using HostOutputs = std::vector<std::vector<unsigned char>>;

class ReferenceCache {
public:
  /// What the reference's runs depend on: its library, the instance's
  /// arguments and geometry, the seed, and the tolerance its two runs were
  /// compared under.
  static std::string keyOf(const Plan &P, const Instance &I, uint64_t Seed,
                           bool Edge = false);

  /// The kept outputs for \p Key computed from \p Inputs, or null when there
  /// are none or they fail their checksum (then they are dropped and
  /// \p Damaged is set).
  const HostOutputs *find(const std::string &Key, const HostInputs &Inputs,
                          bool &Damaged);

  /// Keeps a copy of \p Outputs, unless that would pass the byte budget.
  void store(const std::string &Key, const HostOutputs &Outputs,
             const HostInputs &Inputs);

  size_t entries() const { return Entries.size(); }

private:
  struct Entry {
    HostOutputs Outputs;
    uint64_t Sum = 0;
  };
  std::map<std::string, Entry> Entries;
  uint64_t Bytes = 0;
};

/// A 64-bit checksum of every byte of \p Buffers, eight at a time (a few
/// GB/s: a 256 MiB buffer costs tens of milliseconds).
uint64_t checksumOf(const std::vector<std::vector<unsigned char>> &Buffers,
                    uint64_t Sum = 0);

} // namespace optiml

#endif // OPTIML_RUNTIME_REFERENCECACHE_H
