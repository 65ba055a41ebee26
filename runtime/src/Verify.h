//===- Verify.h - Correctness checks of a candidate -------------*- C++ -*-===//
//
// Part of OptiML. For every instance and seed, each side runs twice with two
// different poison patterns in its out buffers. From the two runs we learn:
//  - red zones damaged -> out-of-bounds write ("redzone");
//  - an in buffer changed -> "input_modified";
//  - an element that holds the poison after *both* runs -> "unwritten" (a
//    legitimate value equals at most one of two different poisons);
//  - the runs disagree -> "nondeterministic" (a race, or a read of
//    uninitialized output, since the poison differs between the runs);
// and then compare the candidate's first run with the reference's
// ("mismatch", "nan", "norm"). Reference problems are spec errors and get a
// "reference_" prefix. The rules themselves are HostChecks.h's, over host
// copies of the buffers. Once the reference's outputs are known, the
// candidate's two runs are checked on the device first (DeviceVerifier.h);
// the host-side checks then run only to report what was found there.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_VERIFY_H
#define OPTIML_RUNTIME_VERIFY_H

#include "Buffers.h"
#include "Failure.h"
#include "HostChecks.h"
#include "KernelLibrary.h"
#include "Plan.h"
#include "Progress.h"
#include "ReferenceCache.h"

#include "optiml/Protocol/VerifyReport.h"

#include <cuda_runtime.h>

namespace optiml {

class Verifier {
public:
  Verifier(const Plan &P, const KernelLibrary &Ref, const KernelLibrary &Cand,
           cudaStream_t Stream, FailureLog &Failures, ProgressFn Progress,
           ReferenceCache *Cache = nullptr);

  /// Verifies every instance under every seed, appending one entry per
  /// instance to \p Instances. Verification failures go to the FailureLog and
  /// clear passed(); the returned Error is for problems that stop the run
  /// (fault, launch error, CUDA or memory failure).
  Error run(std::vector<protocol::InstanceVerification> &Instances);

  bool passed() const { return Passed; }

  /// The (instance, seed) pairs whose reference outputs came from the cache.
  unsigned reused() const { return Reused; }

  /// The (instance, seed) pairs the candidate passed on the device alone.
  unsigned onDevice() const { return OnDevice; }

private:
  using SideCounts = protocol::SideCounts;

  Error verifyInstance(const Instance &I, protocol::InstanceVerification &Out);
  /// \p Edge: the plan's edge seed, inputs at the edges of their
  /// distributions; skipped (passed, with the reason) where the original
  /// itself fails or gives non-finite outputs on them.
  Error verifySeed(const Instance &I, BufferSet &Bufs, uint64_t Seed,
                   protocol::SeedVerification &Out, bool Edge = false);
  Error runSide(Side S, const Instance &I, BufferSet &Bufs,
                const HostInputs &Inputs, uint64_t Seed, SideRuns &Runs,
                SideCounts &Counts);
  /// Runs the reference, or takes its outputs from the cache. Sets
  /// \p RefOut to the outputs to compare with.
  Error referenceSide(const Instance &I, BufferSet &Bufs,
                      const HostInputs &Inputs, uint64_t Seed, SideRuns &Runs,
                      SideCounts &Counts, const HostOutputs *&RefOut,
                      bool Edge);
  void recordFatal(Side S, const Instance &I, uint64_t Seed, const Error &E);

  const Plan &P;
  const KernelLibrary *Libs[2];
  cudaStream_t Stream;
  FailureLog &Failures;
  ProgressFn Progress;
  ReferenceCache *Cache;
  bool Passed = true;
  unsigned Reused = 0;
  unsigned OnDevice = 0;
};

} // namespace optiml

#endif // OPTIML_RUNTIME_VERIFY_H
