//===- HostChecks.h - The verdict rules over host copies --------*- C++ -*-===//
//
// Part of OptiML. The rules of Verify.h that decide whether a run is
// correct, applied to host copies of its buffers: red-zone damage, a changed
// 'in' buffer, elements left unwritten, two runs that disagree, and the
// candidate's outputs against the reference's (Compare.h). Verify.cpp moves
// the bytes between the GPU and the host; this class only reads them, so the
// rules are unit-tested without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_HOSTCHECKS_H
#define OPTIML_RUNTIME_HOSTCHECKS_H

#include "Failure.h"
#include "Plan.h"
#include "RedZone.h"
#include "ReferenceCache.h"

#include "optiml/Protocol/VerifyReport.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace optiml {

/// Poison bytes of the two runs. 0xFF makes every float a NaN and every
/// integer all-ones; 0x5A makes large finite floats and ordinary integers, so
/// the two runs disagree on any element that is read before being written.
constexpr unsigned char Poison[2] = {0xFF, 0x5A};

/// The out/inout contents after each of the two runs of one side, by
/// argument index, and which elements must not be compared (unwritten or
/// nondeterministic).
struct SideRuns {
  std::vector<std::vector<unsigned char>> Out[2];
  std::vector<std::vector<bool>> Suspect;
};

/// The checks of one instance under one seed. Each failure goes to the
/// FailureLog, named by instance, seed, side, buffer and element; a
/// reference's failures are spec errors and get a "reference_" prefix.
class HostChecks {
public:
  using SideCounts = protocol::SideCounts;

  HostChecks(const Instance &I, uint64_t Seed, const Tolerance &Tol,
             FailureLog &Failures);

  /// An out-of-bounds write: \p A's red zones damaged in run \p Run.
  void checkRedZone(Side S, int Run, const Arg &A, const RedZoneReport &Z,
                    SideCounts &Counts);

  /// 'in' buffer \p A holds \p Got after run \p Run, and must still hold
  /// \p Want, the bytes uploaded.
  void checkInputUnchanged(Side S, int Run, const Arg &A,
                           const std::vector<unsigned char> &Want,
                           const std::vector<unsigned char> &Got,
                           SideCounts &Counts);

  /// The two runs of side \p S: an element of an out buffer holding the
  /// poison of each run is unwritten (a legitimate value equals at most one
  /// of two different poisons); any other element on which the runs
  /// disagree is nondeterministic. Sets \p Runs.Suspect to both.
  void checkRuns(Side S, SideRuns &Runs, SideCounts &Counts);

  /// The candidate's first run against the reference's outputs \p Ref,
  /// suspect elements left out: per element (mismatch, nan) and per buffer
  /// (norm). Appends each output's figures to \p Buffers; true when all
  /// pass.
  bool compareWithReference(const HostOutputs &Ref, const SideRuns &Cand,
                            std::vector<protocol::BufferComparison> &Buffers);

  /// Why the edge seed says nothing of the candidate, or "": the original
  /// itself fails its checks on edge values (\p RefOk false), or gives a NaN
  /// or an infinity there (values the spec's ranges allow but the kernel
  /// was not written for).
  std::string edgeSkipReason(const HostOutputs &Ref, bool RefOk) const;

  /// The device-side checks found \p Finding in the candidate's runs and
  /// the host's two runs found nothing: its results vary between runs.
  void unrepeatedDeviceFinding(const std::string &Finding);

private:
  /// A failure of \p Kind in buffer \p A, at lane \p Index when given.
  Failure failureIn(Side S, const char *Kind, const Arg &A,
                    std::optional<int64_t> Index) const;
  void disagreement(Side S, const Arg &A, const SideRuns &Runs, size_t K,
                    uint64_t E, bool Unwritten, SideCounts &Counts);
  bool bufferMatches(const Arg &A, const std::vector<unsigned char> &Ref,
                     const std::vector<unsigned char> &Cand,
                     const std::vector<bool> &Skip,
                     protocol::BufferComparison &Stats);
  bool normWithin(const Arg &A, double NormErr);

  const Instance &I;
  uint64_t Seed;
  const Tolerance &Tol;
  FailureLog &Failures;
};

} // namespace optiml

#endif // OPTIML_RUNTIME_HOSTCHECKS_H
