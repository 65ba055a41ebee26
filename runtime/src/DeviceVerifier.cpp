//===- DeviceVerifier.cpp - A candidate's runs checked on the GPU ---------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "DeviceVerifier.h"
#include "CudaCheck.h"

namespace optiml {

namespace {

/// Checks per (run, argument): content (against the reference, or an 'in'
/// buffer against its upload), red zones, and the second run against the
/// first.
constexpr int ChecksPerArg = 3;
constexpr int Content = 0, Zones = 1, Agreement = 2;

} // namespace

DeviceVerifier::DeviceVerifier(const Plan &P, const Instance &I,
                               cudaStream_t Stream)
    : P(P), I(I), Stream(Stream) {}

DeviceVerifier::~DeviceVerifier() {
  if (Counters)
    cudaFree(Counters);
}

size_t DeviceVerifier::slot(int Run, size_t K, int Check) const {
  return (static_cast<size_t>(Run) * I.Args.size() + K) * ChecksPerArg + Check;
}

Error DeviceVerifier::upload(const HostOutputs &Want, BufferSet &Bufs) {
  size_t N = I.Args.size();
  Expected.resize(N);
  Pristine.resize(N);
  FirstRun.resize(N);
  for (size_t K = 0; K < N; ++K) {
    const Arg &A = I.Args[K];
    if (!A.isBuffer())
      continue;
    if (protocol::isOutput(A.Role)) {
      if (Error E = Expected[K].allocate(A.bytes()))
        return E;
      if (Error E = Expected[K].upload(Want[K], Stream))
        return E;
      if (Error E = FirstRun[K].allocate(A.bytes()))
        return E;
    } else {
      // Bufs holds the inputs just uploaded by prepare().
      if (Error E = Pristine[K].allocate(A.bytes()))
        return E;
      if (Error E = Pristine[K].copyFrom(Bufs.buffer(K), Stream))
        return E;
    }
  }
  const std::vector<unsigned char> &C = redZoneCanary();
  if (Error E = Canary.allocate(C.size()))
    return E;
  if (Error E = Canary.upload(C, Stream))
    return E;
  size_t Bytes = slot(2, 0, 0) * sizeof(CheckCounters);
  if (Error E = checkCuda(cudaMalloc(&Counters, Bytes),
                          "cudaMalloc(verification counters)"))
    return E;
  return checkCuda(cudaMemsetAsync(Counters, 0, Bytes, Stream),
                   "cudaMemsetAsync(verification counters)");
}

Error DeviceVerifier::enqueueChecks(BufferSet &Bufs, int Run,
                                    unsigned char Poison) {
  for (size_t K = 0; K < I.Args.size(); ++K) {
    const Arg &A = I.Args[K];
    if (!A.isBuffer())
      continue;
    DeviceBuffer &B = Bufs.buffer(K);
    bool Output = protocol::isOutput(A.Role);
    Error E =
        Output ? enqueueOutputCheck(A, B.data(), Expected[K].data(), P.Tol,
                                    A.Role == ArgRole::Out ? Poison : -1,
                                    Counters + slot(Run, K, Content), Stream)
               : enqueueBitsCheck(B.data(), Pristine[K].data(), A.Count,
                                  static_cast<unsigned>(elemSize(A.Type)), -1,
                                  Counters + slot(Run, K, Content), Stream);
    if (!E)
      E = enqueueZoneCheck(B.leftZone(), B.rightZone(), Canary.data(),
                           RedZoneBytes, Counters + slot(Run, K, Zones),
                           Stream);
    if (!E && Output && Run == 0)
      E = FirstRun[K].copyFrom(B, Stream);
    // The runs must agree as Verify.cpp's host check has them agree: the
    // second within the tolerance of the first.
    if (!E && Output && Run == 1)
      E = enqueueOutputCheck(A, B.data(), FirstRun[K].data(), P.Tol, -1,
                             Counters + slot(Run, K, Agreement), Stream);
    if (E)
      return E.withContext("device check of '" + A.Name + "'");
  }
  return Error::success();
}

std::string
DeviceVerifier::firstFinding(const std::vector<CheckCounters> &C) const {
  static const char *const What[ChecksPerArg] = {
      "elements outside the tolerance of the reference (or, for an 'in' "
      "buffer, changed)",
      "red-zone bytes changed", "elements that differ between the two runs"};
  for (int Run = 0; Run < 2; ++Run)
    for (size_t K = 0; K < I.Args.size(); ++K) {
      const Arg &A = I.Args[K];
      if (!A.isBuffer())
        continue;
      for (int Check = 0; Check < ChecksPerArg; ++Check) {
        const CheckCounters &Got = C[slot(Run, K, Check)];
        bool NormBad = Check == Content && protocol::isOutput(A.Role) &&
                       A.anyFloat() && Got.normErr() > P.Tol.Norm;
        if (!Got.anyBad() && !NormBad)
          continue;
        return "run " + std::to_string(Run + 1) + ", buffer '" + A.Name +
               "': " +
               (Got.anyBad()
                    ? std::to_string(Got.Bad) + " " + What[Check]
                    : "relative L2 error " + std::to_string(Got.normErr()) +
                          " over the norm tolerance") +
               (Got.anyBad()
                    ? ", the first at " + std::to_string(Got.firstBad())
                    : "");
      }
    }
  return "";
}

Error DeviceVerifier::run(const KernelLibrary &Cand, BufferSet &Bufs,
                          const HostInputs &Inputs, const HostOutputs &Want,
                          const unsigned char Poison[2], bool &Clean,
                          std::string &Why,
                          std::vector<protocol::BufferComparison> &Buffers) {
  Clean = false;
  for (int Run = 0; Run < 2; ++Run) {
    if (Error E = Bufs.prepare(Inputs, Poison[Run], Stream))
      return E;
    if (Run == 0)
      if (Error E = upload(Want, Bufs))
        return E;
    if (Error E = Cand.launch(I, Bufs, Stream))
      return E;
    if (Error E = syncKernels(Stream, "kernel '" + Cand.kernelName() + "'"))
      return E;
    if (Error E = enqueueChecks(Bufs, Run, Poison[Run]))
      return E;
  }
  std::vector<CheckCounters> C(slot(2, 0, 0));
  if (Error E = checkCuda(cudaMemcpyAsync(C.data(), Counters,
                                          C.size() * sizeof(CheckCounters),
                                          cudaMemcpyDeviceToHost, Stream),
                          "cudaMemcpyAsync(verification counters)"))
    return E;
  if (Error E = syncKernels(Stream, "the device-side checks"))
    return E;
  Why = firstFinding(C);
  Clean = Why.empty();
  for (size_t K = 0; K < I.Args.size(); ++K) {
    const Arg &A = I.Args[K];
    if (!A.isBuffer() || !protocol::isOutput(A.Role))
      continue;
    const CheckCounters &Run1 = C[slot(0, K, Content)];
    protocol::BufferComparison B;
    B.Name = A.Name;
    B.Compared = A.Count;
    B.Mismatches = Run1.Bad - Run1.NonFinite;
    B.NonFinite = Run1.NonFinite;
    if (A.anyFloat()) {
      B.MaxAbsErr = Run1.maxAbsErr();
      B.MaxRelErr = Run1.maxRelErr();
      B.NormErr = Run1.normErr();
    }
    Buffers.push_back(std::move(B));
  }
  return Error::success();
}

} // namespace optiml
