//===- DeviceVerifier.h - A candidate's runs checked on the GPU -*- C++ -*-===//
//
// Part of OptiML. The host-side checks of Verify.cpp copy every buffer back
// after every run and walk it element by element: on large buffers that
// costs far more than the kernel (1-1.5 s a candidate on a 4096^3 SGEMM).
// Once the reference's outputs for a seed are known, the candidate's two
// runs (the two poisons) are checked on the device instead, with the
// runner's check kernels (OutputCheck.h): every output within the tolerance
// of the reference's (elements still holding the poison counted as
// unwritten), the norm, the second run within the tolerance of the first,
// every 'in' buffer bit for bit as uploaded, every red zone intact. Only
// the counters come back.
//
// The verdict is the host checks' verdict: a candidate passes when every
// check is clean. When one is not, Verify.cpp runs its host-side checks on
// the seed for the failure report, and the seed fails either way.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_DEVICEVERIFIER_H
#define OPTIML_RUNTIME_DEVICEVERIFIER_H

#include "Buffers.h"
#include "KernelLibrary.h"
#include "OutputCheck.h"
#include "Plan.h"
#include "ReferenceCache.h"

#include "optiml/Protocol/VerifyReport.h"

#include <cuda_runtime.h>
#include <string>
#include <vector>

namespace optiml {

class DeviceVerifier {
public:
  DeviceVerifier(const Plan &P, const Instance &I, cudaStream_t Stream);
  DeviceVerifier(const DeviceVerifier &) = delete;
  DeviceVerifier &operator=(const DeviceVerifier &) = delete;
  ~DeviceVerifier();

  /// Runs \p Cand twice on \p Inputs in \p Bufs, out buffers poisoned with
  /// \p Poison[0] then \p Poison[1], and checks both runs against \p Want
  /// (the reference's outputs by argument index). \p Clean: every check
  /// passed; then \p Buffers has run 1's comparison of each output. When
  /// not, \p Why says what the first bad check found. Errors: a fault or
  /// launch error of the candidate, CUDA failures.
  Error run(const KernelLibrary &Cand, BufferSet &Bufs,
            const HostInputs &Inputs, const HostOutputs &Want,
            const unsigned char Poison[2], bool &Clean, std::string &Why,
            std::vector<protocol::BufferComparison> &Buffers);

private:
  /// Counters of check \p Check (content, zones, agreement) of argument
  /// \p K in run \p Run.
  size_t slot(int Run, size_t K, int Check) const;
  Error upload(const HostOutputs &Want, BufferSet &Bufs);
  Error enqueueChecks(BufferSet &Bufs, int Run, unsigned char Poison);
  /// The first finding of the counters, or "" when all are clean.
  std::string firstFinding(const std::vector<CheckCounters> &C) const;

  const Plan &P;
  const Instance &I;
  cudaStream_t Stream;
  std::vector<DeviceBuffer> Expected; ///< The reference's outputs, by arg.
  std::vector<DeviceBuffer> Pristine; ///< 'in' buffers as uploaded.
  std::vector<DeviceBuffer> FirstRun; ///< Outputs of run 1.
  DeviceBuffer Canary;
  CheckCounters *Counters = nullptr;
};

} // namespace optiml

#endif // OPTIML_RUNTIME_DEVICEVERIFIER_H
