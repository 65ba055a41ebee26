//===- TimedChecker.cpp - What is timed is what was verified --------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "TimedChecker.h"
#include "CudaCheck.h"
#include "ElemAccess.h"
#include "Inputs.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace optiml {

namespace {

std::string hexByte(unsigned long long B) {
  char Buf[8];
  std::snprintf(Buf, sizeof(Buf), "0x%02llx", B & 0xFF);
  return Buf;
}

protocol::FailureValue valueOfBits(ElemType T, unsigned long long Bits) {
  unsigned char Bytes[8];
  std::memcpy(Bytes, &Bits, sizeof(Bytes));
  return elemValue(T, Bytes, 0);
}

std::string formatDouble(double V) {
  std::ostringstream OS;
  OS.precision(9);
  OS << V;
  return OS.str();
}

bool isBuffer(const Arg &A) { return A.isBuffer(); }

} // namespace

TimedChecker::TimedChecker(const Plan &P, const Instance &I,
                           cudaStream_t Stream)
    : P(P), I(I), Stream(Stream) {}

TimedChecker::~TimedChecker() {
  if (Counters)
    cudaFree(Counters);
}

Error TimedChecker::init(BufferSet &Work, const KernelLibrary &Ref) {
  const std::vector<unsigned char> &C = redZoneCanary();
  if (Error E = Canary.allocate(C.size()))
    return E;
  if (Error E = Canary.upload(C, Stream))
    return E;
  size_t N = I.Args.size();
  Inputs.clear();
  Expected.clear();
  Inputs.resize(P.Seeds.size());
  Expected.resize(P.Seeds.size());
  for (size_t S = 0; S < P.Seeds.size(); ++S) {
    Inputs[S].resize(N);
    Expected[S].resize(N);
    if (Error E = Work.prepare(*sharedInputs(I, P.Seeds[S]), 0xFF, Stream))
      return E;
    for (size_t K = 0; K < N; ++K) {
      const Arg &A = I.Args[K];
      if (!isBuffer(A) || A.Role == ArgRole::Out)
        continue;
      if (Error E = Inputs[S][K].allocate(A.bytes()))
        return E.withContext("timed-check copy of '" + A.Name + "'");
      if (Error E = Inputs[S][K].copyFrom(Work.buffer(K), Stream))
        return E;
    }
    // The reference passed verification on these inputs: its outputs are
    // the verified result.
    Error E = Ref.launch(I, Work, Stream);
    if (!E)
      E = syncKernels(Stream, "reference '" + Ref.kernelName() +
                                  "' (the timed launches' expected result)");
    if (E)
      return E;
    for (size_t K = 0; K < N; ++K) {
      const Arg &A = I.Args[K];
      if (!isBuffer(A) || !protocol::isOutput(A.Role))
        continue;
      if (Error E = Expected[S][K].allocate(A.bytes()))
        return E.withContext("timed-check result of '" + A.Name + "'");
      if (Error E = Expected[S][K].copyFrom(Work.buffer(K), Stream))
        return E;
    }
  }
  // prepare() reset the red zones; the reference does not touch them.
  LoadedSeed = -1;
  return checkCuda(cudaStreamSynchronize(Stream),
                   "cudaStreamSynchronize(timed-check set-up)");
}

Error TimedChecker::prepare(BufferSet &Work, unsigned SeedIndex,
                            unsigned char Poison) {
  // An in buffer the candidate changed is caught by the check after its
  // launch, which ends the run; so in buffers need reloading only when the
  // seed changes. Inout buffers are meant to change: always.
  bool Reload = LoadedSeed != static_cast<int>(SeedIndex);
  for (size_t K = 0; K < I.Args.size(); ++K) {
    const Arg &A = I.Args[K];
    if (!isBuffer(A))
      continue;
    DeviceBuffer &B = Work.buffer(K);
    Error E = Error::success();
    if (A.Role == ArgRole::Out)
      E = enqueuePoison(B.data(), B.bytes(), Poison, Stream);
    else if (A.Role == ArgRole::InOut || Reload)
      E = B.copyFrom(Inputs[SeedIndex][K], Stream);
    if (E)
      return E.withContext("buffer '" + A.Name + "'");
  }
  LoadedSeed = static_cast<int>(SeedIndex);
  return Error::success();
}

size_t TimedChecker::counterIndex(unsigned Slot, size_t K, bool Zones) const {
  return (static_cast<size_t>(Slot) * I.Args.size() + K) * 2 + (Zones ? 1 : 0);
}

Error TimedChecker::beginBatch(unsigned Slots) {
  size_t Need = counterIndex(Slots, 0, false);
  if (Need > CounterCapacity) {
    if (Counters)
      cudaFree(Counters);
    Counters = nullptr;
    CounterCapacity = 0;
    if (Error E =
            checkCuda(cudaMalloc(&Counters, Need * sizeof(CheckCounters)),
                      "cudaMalloc(timed-check counters)"))
      return E;
    CounterCapacity = Need;
  }
  // The runner's own kernel rather than a memset: nothing but kernels the
  // timer knows by name may run while it records.
  return enqueuePoison(Counters, Need * sizeof(CheckCounters), 0, Stream);
}

Error TimedChecker::enqueueCheck(BufferSet &Work, unsigned Slot,
                                 unsigned SeedIndex, unsigned char Poison) {
  for (size_t K = 0; K < I.Args.size(); ++K) {
    const Arg &A = I.Args[K];
    if (!isBuffer(A))
      continue;
    const DeviceBuffer &B = Work.buffer(K);
    CheckCounters *Content = Counters + counterIndex(Slot, K, false);
    Error E =
        protocol::isOutput(A.Role)
            ? enqueueOutputCheck(A, B.data(), Expected[SeedIndex][K].data(),
                                 P.Tol, A.Role == ArgRole::Out ? Poison : -1,
                                 Content, Stream)
            : enqueueBitsCheck(B.data(), Inputs[SeedIndex][K].data(), A.Count,
                               static_cast<unsigned>(elemSize(A.Type)), -1,
                               Content, Stream);
    if (!E)
      E = enqueueZoneCheck(B.leftZone(), B.rightZone(), Canary.data(),
                           RedZoneBytes,
                           Counters + counterIndex(Slot, K, true), Stream);
    if (E)
      return E.withContext("timed check of '" + A.Name + "'");
  }
  return Error::success();
}

Error TimedChecker::collect(const std::vector<PlannedLaunch> &Launches,
                            FailureLog &Failures, size_t &Found) {
  Found = 0;
  unsigned Slots = 0;
  for (const PlannedLaunch &L : Launches)
    if (L.Slot >= 0)
      Slots = std::max(Slots, static_cast<unsigned>(L.Slot) + 1);
  if (Slots == 0)
    return Error::success();
  std::vector<CheckCounters> Host(counterIndex(Slots, 0, false));
  if (Error E = checkCuda(cudaMemcpy(Host.data(), Counters,
                                     Host.size() * sizeof(CheckCounters),
                                     cudaMemcpyDeviceToHost),
                          "cudaMemcpy(timed-check counters)"))
    return E;
  for (const PlannedLaunch &L : Launches) {
    if (L.Slot < 0)
      continue;
    for (size_t K = 0; K < I.Args.size(); ++K)
      if (isBuffer(I.Args[K]))
        report(L, I.Args[K], Host[counterIndex(L.Slot, K, false)],
               Host[counterIndex(L.Slot, K, true)], Failures, Found);
  }
  return Error::success();
}

void TimedChecker::report(const PlannedLaunch &L, const Arg &A,
                          const CheckCounters &Content,
                          const CheckCounters &Zones, FailureLog &Failures,
                          size_t &Found) const {
  std::string Launch = "timed launch " + std::to_string(L.Number + 1) +
                       " (seed " + std::to_string(P.Seeds[L.SeedIndex]) +
                       ", out buffers poisoned with " + hexByte(L.Poison) +
                       ")";
  auto add = [&](const char *Kind, std::optional<int64_t> Index,
                 std::string Message) {
    Failure F;
    F.Instance = I.Name;
    F.Seed = P.Seeds[L.SeedIndex];
    F.Where = Side::Candidate;
    F.Kind = Kind;
    setElement(F, A, Index);
    F.Message = Launch + ": " + Message;
    ++Found;
    return F;
  };
  bool Output = protocol::isOutput(A.Role);
  if (Content.anyBad()) {
    // The most specific kind that explains every bad element.
    const char *Kind = "timed_mismatch";
    if (!Output)
      Kind = "timed_input_modified";
    else if (Content.Unwritten == Content.Bad)
      Kind = "timed_unwritten";
    else if (Content.NonFinite > 0)
      Kind = "timed_nan";
    std::string What =
        !Output ? "elements of an 'in' buffer changed"
        : A.anyFloat()
            ? "elements outside |got - expected| <= atol + rtol * |expected| "
              "of the verified result (" +
                  std::to_string(Content.Unwritten) + " still poison, " +
                  std::to_string(Content.NonFinite) + " non-finite)"
            : "elements differ from the verified result (" +
                  std::to_string(Content.Unwritten) + " still poison)";
    Failure F = add(Kind, static_cast<int64_t>(Content.firstBad()),
                    std::to_string(Content.Bad) + " of " +
                        std::to_string(A.Count) + " " + What +
                        "; the first is shown");
    F.Expected = valueOfBits(A.typeAt(Content.firstBad()), Content.WantBits);
    F.Got = valueOfBits(A.typeAt(Content.firstBad()), Content.GotBits);
    Failures.add(std::move(F));
  }
  if (Output && A.anyFloat()) {
    double Norm = Content.normErr();
    if (Norm > P.Tol.Norm) {
      Failure F = add("timed_norm", std::nullopt,
                      "relative L2 error " + formatDouble(Norm) +
                          " against the verified result exceeds the norm "
                          "tolerance " +
                          formatDouble(P.Tol.Norm));
      F.Expected = P.Tol.Norm;
      F.Got = Norm;
      Failures.add(std::move(F));
    }
  }
  if (Zones.anyBad()) {
    auto Pos = static_cast<long long>(Zones.firstBad());
    long long Zone = static_cast<long long>(RedZoneBytes);
    long long Offset = Pos < Zone ? Pos - Zone
                                  : static_cast<long long>(A.bytes()) +
                                        (Pos - Zone);
    auto Size = static_cast<long long>(elemSize(A.Type));
    long long Elem = Offset >= 0 ? Offset / Size : -((-Offset + Size - 1) / Size);
    Failure F = add("timed_redzone", Elem,
                    "out-of-bounds write: " + std::to_string(Zones.Bad) +
                        " red-zone bytes changed, the first at byte offset " +
                        std::to_string(Offset) + " of a " +
                        std::to_string(A.bytes()) + "-byte buffer");
    F.Expected = hexByte(Zones.WantBits);
    F.Got = hexByte(Zones.GotBits);
    Failures.add(std::move(F));
  }
}

} // namespace optiml
