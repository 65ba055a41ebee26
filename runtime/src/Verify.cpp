//===- Verify.cpp - Correctness checks of a candidate ---------------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "Verify.h"
#include "Compare.h"
#include "DeviceVerifier.h"
#include "Inputs.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace optiml {

namespace {

/// Poison bytes of the two runs. 0xFF makes every float a NaN and every
/// integer all-ones; 0x5A makes large finite floats and ordinary integers, so
/// the two runs disagree on any element that is read before being written.
constexpr unsigned char Poison[2] = {0xFF, 0x5A};

std::string kindFor(Side S, const char *Kind) {
  return S == Side::Reference ? std::string("reference_") + Kind
                              : std::string(Kind);
}

bool holdsPoison(const std::vector<unsigned char> &Data, size_t Index,
                 size_t Size, unsigned char Byte) {
  for (size_t B = 0; B < Size; ++B)
    if (Data[Index * Size + B] != Byte)
      return false;
  return true;
}

long long floorDiv(long long A, long long B) {
  long long Q = A / B;
  return (A % B != 0 && (A < 0) != (B < 0)) ? Q - 1 : Q;
}

std::string hexByte(unsigned char B) {
  char Buf[8];
  std::snprintf(Buf, sizeof(Buf), "0x%02x", B);
  return Buf;
}

/// A failure of \p Kind (prefixed "reference_" for the reference) in
/// buffer \p A, at element \p Index when given.
Failure failureIn(Side S, const Instance &I, uint64_t Seed, const char *Kind,
                  const Arg &A, std::optional<int64_t> Index) {
  Failure F;
  F.Instance = I.Name;
  F.Seed = Seed;
  F.Where = S;
  F.Kind = kindFor(S, Kind);
  setElement(F, A, Index);
  return F;
}

std::string formatDouble(double V) {
  std::ostringstream OS;
  OS.precision(9);
  OS << V;
  return OS.str();
}

} // namespace

/// The out/inout contents after each of the two runs, by argument index, and
/// which elements must not be compared (unwritten or nondeterministic).
struct Verifier::SideRuns {
  std::vector<std::vector<unsigned char>> Out[2];
  std::vector<std::vector<bool>> Suspect;
};

Verifier::Verifier(const Plan &P, const KernelLibrary &Ref,
                   const KernelLibrary &Cand, cudaStream_t Stream,
                   FailureLog &Failures, ProgressFn Progress,
                   ReferenceCache *Cache)
    : P(P), Libs{&Ref, &Cand}, Stream(Stream), Failures(Failures),
      Progress(std::move(Progress)), Cache(Cache) {}

Error Verifier::run(std::vector<protocol::InstanceVerification> &Instances) {
  // The first failing instance ends verification: the candidate is rejected
  // either way, and its failures are already recorded.
  for (const Instance &I : P.Instances) {
    if (Error E = verifyInstance(I, Instances.emplace_back()))
      return E;
    if (!Instances.back().Passed)
      break;
  }
  return Error::success();
}

Error Verifier::verifyInstance(const Instance &I,
                               protocol::InstanceVerification &Out) {
  Out.Name = I.Name;
  Out.Passed = false;
  BufferSet Bufs;
  if (Error E = Bufs.allocate(I))
    return E.withContext("verify " + I.Name);
  bool InstancePassed = true;
  for (uint64_t Seed : P.Seeds) {
    protocol::SeedVerification &SeedOut = Out.Seeds.emplace_back();
    Error E = verifySeed(I, Bufs, Seed, SeedOut);
    InstancePassed = InstancePassed && !E && SeedOut.Passed;
    if (E)
      return E;
    if (!InstancePassed)
      break; // The first failing seed is enough to reject.
  }
  if (InstancePassed && P.EdgeSeed) {
    protocol::SeedVerification &SeedOut = Out.Seeds.emplace_back();
    SeedOut.Edge = true;
    if (Error E = verifySeed(I, Bufs, *P.EdgeSeed, SeedOut, /*Edge=*/true))
      return E;
    InstancePassed = SeedOut.Passed;
  }
  Out.Passed = InstancePassed;
  return Error::success();
}

/// Why the edge seed says nothing of the candidate, or "": the original
/// itself fails its checks on edge values, or gives a NaN or an infinity
/// there (values the spec's ranges allow but the kernel was not written
/// for).
static std::string edgeSkipReason(const Instance &I, const HostOutputs &Ref,
                                  bool RefOk) {
  if (!RefOk)
    return "skipped: the original fails its own checks on edge values";
  for (size_t K = 0; K < I.Args.size(); ++K) {
    const Arg &A = I.Args[K];
    if (!protocol::isOutput(A.Role) || !A.anyFloat())
      continue;
    for (uint64_t E = 0; E < A.Count; ++E)
      if (isFloatType(A.typeAt(E)) &&
          !std::isfinite(loadAsDouble(A.typeAt(E), Ref[K].data(), E)))
        return "skipped: the original's outputs are not all finite on edge "
               "values ('" +
               A.Name + "'" + A.laneName(E) + ")";
  }
  return "";
}

Error Verifier::verifySeed(const Instance &I, BufferSet &Bufs, uint64_t Seed,
                           protocol::SeedVerification &Out, bool Edge) {
  Out.Seed = Seed;
  Out.Passed = false;
  std::shared_ptr<const HostInputs> Shared = sharedInputs(I, Seed, Edge);
  const HostInputs &Inputs = *Shared;
  SideRuns Runs[2];
  SideCounts Counts[2];
  const HostOutputs *RefOut = nullptr;
  if (Error E = referenceSide(I, Bufs, Inputs, Seed, Runs[0], Counts[0], RefOut,
                              Edge))
    return E;
  Out.Reference = Counts[0];
  bool RefOk = Counts[0].clean();
  if (Edge) {
    std::string Skip =
        edgeSkipReason(I, RefOk ? *RefOut : HostOutputs(), RefOk);
    if (!Skip.empty()) {
      Out.Comparison = Skip;
      Out.Passed = true;
      return Error::success();
    }
  }
  // With the reference's outputs known, the candidate is checked on the
  // device; the host checks below run only to report what it found.
  std::string DeviceFinding;
  if (RefOk) {
    DeviceVerifier DV(P, I, Stream);
    bool Clean = false;
    std::vector<protocol::BufferComparison> Buffers;
    if (Error E = DV.run(*Libs[1], Bufs, Inputs, *RefOut, Poison, Clean,
                         DeviceFinding, Buffers)) {
      // The candidate's fault or rejected launch is its failure; a CUDA
      // failure of the runner's own (out of memory) is not.
      if (E.status() == Status::Fault || E.status() == Status::LaunchError)
        recordFatal(Side::Candidate, I, Seed, E);
      return E.withContext("verify " + I.Name + " seed " +
                           std::to_string(Seed) + " candidate");
    }
    if (Clean) {
      Out.Candidate = SideCounts();
      Out.Buffers = std::move(Buffers);
      Out.Passed = true;
      ++OnDevice;
      return Error::success();
    }
  }
  if (Error E = runSide(Side::Candidate, I, Bufs, Inputs, Seed, Runs[1],
                        Counts[1]))
    return E;
  checkRuns(Side::Candidate, I, Seed, Runs[1], Counts[1]);
  Out.Candidate = Counts[1];

  bool CandOk = Counts[1].clean();
  Out.Buffers.emplace();
  if (RefOk)
    CandOk = compareSides(I, Seed, *RefOut, Runs[1], *Out.Buffers) && CandOk;
  else
    Out.Comparison = "skipped: the reference failed its own checks";
  if (RefOk && CandOk) {
    // The device saw a bad run that the host's runs did not repeat: the
    // candidate's results vary from run to run.
    Failure F = failureIn(Side::Candidate, I, Seed, "nondeterministic",
                          I.Args.front(), std::nullopt);
    F.Buffer.reset();
    F.Message = "the device-side checks found " + DeviceFinding +
                "; two more runs for the report did not repeat it, so the "
                "candidate's results vary between runs";
    Failures.add(std::move(F));
    CandOk = false;
  }
  Out.Passed = RefOk && CandOk;
  Passed = Passed && RefOk && CandOk;
  return Error::success();
}

Error Verifier::referenceSide(const Instance &I, BufferSet &Bufs,
                              const HostInputs &Inputs, uint64_t Seed,
                              SideRuns &Runs, SideCounts &Counts,
                              const HostOutputs *&RefOut, bool Edge) {
  std::string Key = Cache ? ReferenceCache::keyOf(P, I, Seed, Edge) : "";
  if (Cache) {
    bool Damaged = false;
    RefOut = Cache->find(Key, Inputs, Damaged);
    if (Damaged)
      Progress("verify " + I.Name + " seed " + std::to_string(Seed) +
               ": the kept reference outputs changed since they were made; "
               "running the reference again");
    if (RefOut) {
      ++Reused;
      return Error::success();
    }
  }
  if (Error E = runSide(Side::Reference, I, Bufs, Inputs, Seed, Runs, Counts))
    return E;
  checkRuns(Side::Reference, I, Seed, Runs, Counts);
  RefOut = &Runs.Out[0];
  if (Cache && Counts.clean())
    Cache->store(Key, Runs.Out[0], Inputs);
  return Error::success();
}

Error Verifier::runSide(Side S, const Instance &I, BufferSet &Bufs,
                        const HostInputs &Inputs, uint64_t Seed, SideRuns &Runs,
                        SideCounts &Counts) {
  const KernelLibrary &Lib = *Libs[static_cast<int>(S)];
  std::string Where =
      "verify " + I.Name + " seed " + std::to_string(Seed) + " " + sideName(S);
  for (int Run = 0; Run < 2; ++Run) {
    Progress(Where + " run " + std::to_string(Run + 1) + "/2");
    Runs.Out[Run].assign(I.Args.size(), {});
    if (Error E = Bufs.prepare(Inputs, Poison[Run], Stream))
      return E.withContext(Where);
    Error E = Lib.launch(I, Bufs.launchArgs(), Stream);
    if (!E)
      E = syncKernels(Stream, "kernel '" + Lib.kernelName() + "'");
    if (E) {
      recordFatal(S, I, Seed, E);
      return E.withContext(Where);
    }
    // Red zones and inputs are checked per run; a damaged zone is reported
    // once per run at most, which the FailureLog folds together.
    SideCounts RunCounts;
    for (size_t K = 0; K < I.Args.size(); ++K) {
      const Arg &A = I.Args[K];
      if (!A.isBuffer())
        continue;
      std::vector<unsigned char> Host;
      RedZoneReport Zones;
      if (Error DownloadErr = Bufs.buffer(K).download(Host, Zones, Stream))
        return DownloadErr.withContext(Where);
      checkRedZone(S, I, Seed, Run, A, Zones, RunCounts);
      if (A.Role == ArgRole::In)
        checkInputUnchanged(S, I, Seed, Run, A, Inputs[K], Host, RunCounts);
      else
        Runs.Out[Run][K] = std::move(Host);
    }
    Counts.RedZoneDamagedBytes =
        std::max(Counts.RedZoneDamagedBytes, RunCounts.RedZoneDamagedBytes);
    Counts.InputsModified =
        std::max(Counts.InputsModified, RunCounts.InputsModified);
  }
  return Error::success();
}

void Verifier::checkRedZone(Side S, const Instance &I, uint64_t Seed, int Run,
                            const Arg &A, const RedZoneReport &Z,
                            SideCounts &Counts) {
  if (Z.Intact)
    return;
  Counts.RedZoneDamagedBytes += Z.DamagedBytes;
  bool Left = Z.FirstBadByte < 0;
  Failure F = failureIn(
      S, I, Seed, "redzone", A,
      floorDiv(Z.FirstBadByte, static_cast<long long>(elemSize(A.Type))));
  F.Expected = hexByte(Z.Expected);
  F.Got = hexByte(Z.Got);
  F.Message = std::string("out-of-bounds write: ") + (Left ? "left" : "right") +
              " red zone damaged at byte offset " +
              std::to_string(Z.FirstBadByte) + " of a " +
              std::to_string(A.bytes()) + "-byte buffer (" +
              std::to_string(Z.DamagedBytes) + " bytes changed in run " +
              std::to_string(Run + 1) + ")";
  Failures.add(std::move(F));
}

void Verifier::checkInputUnchanged(Side S, const Instance &I, uint64_t Seed,
                                   int Run, const Arg &A,
                                   const std::vector<unsigned char> &Want,
                                   const std::vector<unsigned char> &Got,
                                   SideCounts &Counts) {
  // One memcmp for the usual case; the element walk only names the damage.
  if (Want == Got)
    return;
  for (uint64_t E = 0; E < A.Count; ++E) {
    if (elemBitsEqual(A.Type, Want.data(), Got.data(), E))
      continue;
    ++Counts.InputsModified;
    Failure F = failureIn(S, I, Seed, "input_modified", A, E);
    F.Expected = elemValue(A.typeAt(E), Want.data(), E);
    F.Got = elemValue(A.typeAt(E), Got.data(), E);
    F.Message = "the kernel wrote into an 'in' buffer (run " +
                std::to_string(Run + 1) + ")";
    Failures.add(std::move(F));
  }
}

void Verifier::checkRuns(Side S, const Instance &I, uint64_t Seed,
                         SideRuns &Runs, SideCounts &Counts) {
  Runs.Suspect.assign(I.Args.size(), {});
  for (size_t K = 0; K < I.Args.size(); ++K) {
    const Arg &A = I.Args[K];
    if (!protocol::isOutput(A.Role))
      continue;
    const std::vector<unsigned char> &R0 = Runs.Out[0][K];
    const std::vector<unsigned char> &R1 = Runs.Out[1][K];
    std::vector<bool> &Suspect = Runs.Suspect[K];
    Suspect.assign(A.Count, false);
    // Identical bytes in both runs: deterministic, and written everywhere,
    // since the two runs' poisons differ and an unwritten element would
    // hold a different byte in each.
    if (R0 == R1)
      continue;
    size_t Size = elemSize(A.Type);
    for (uint64_t E = 0; E < A.Count; ++E) {
      // Only out buffers are poisoned; inout buffers start from the inputs.
      bool Unwritten = A.Role == ArgRole::Out &&
                       holdsPoison(R0, E, Size, Poison[0]) &&
                       holdsPoison(R1, E, Size, Poison[1]);
      bool Differ =
          !Unwritten && !runsAgree(A.typeAt(E), R0.data(), R1.data(), E, P.Tol);
      if (!Unwritten && !Differ)
        continue;
      Suspect[E] = true;
      Failure F = failureIn(S, I, Seed,
                            Unwritten ? "unwritten" : "nondeterministic", A, E);
      if (Unwritten) {
        ++Counts.Unwritten;
        F.Got = elemValue(A.typeAt(E), R0.data(), E);
        F.Message = "element never written: it still holds the poison (" +
                    hexByte(Poison[0]) + " in run 1, " + hexByte(Poison[1]) +
                    " in run 2)";
      } else {
        ++Counts.Nondeterministic;
        F.Expected = elemValue(A.typeAt(E), R0.data(), E);
        F.Got = elemValue(A.typeAt(E), R1.data(), E);
        F.Message = "two runs on identical inputs disagree (a race, or a read "
                    "of output memory before it is written)";
      }
      Failures.add(std::move(F));
    }
  }
}

bool Verifier::compareSides(const Instance &I, uint64_t Seed,
                            const HostOutputs &Ref, const SideRuns &Cand,
                            std::vector<protocol::BufferComparison> &Buffers) {
  bool Ok = true;
  for (size_t K = 0; K < I.Args.size(); ++K) {
    const Arg &A = I.Args[K];
    if (!protocol::isOutput(A.Role))
      continue;
    const std::vector<unsigned char> &R = Ref[K];
    const std::vector<unsigned char> &C = Cand.Out[0][K];
    auto OnIssue = [&](ElemIssue Issue, size_t E) {
      bool NonFinite = Issue == ElemIssue::NonFinite;
      Failure F = failureIn(Side::Candidate, I, Seed,
                            NonFinite ? "nan" : "mismatch", A, E);
      F.Expected = elemValue(A.typeAt(E), R.data(), E);
      F.Got = elemValue(A.typeAt(E), C.data(), E);
      if (NonFinite) {
        F.Message = "non-finite value where the reference is finite";
      } else {
        F.Message = isFloatType(A.typeAt(E))
                        ? "outside |got - expected| <= atol + rtol * |expected|"
                        : "integers differ (exact match required)";
      }
      Failures.add(std::move(F));
    };
    CompareStats St =
        compareBuffers(A, R.data(), C.data(), P.Tol, &Cand.Suspect[K], OnIssue);
    bool NormOk = !A.anyFloat() || St.NormErr <= P.Tol.Norm;
    if (!NormOk) {
      Failure F = failureIn(Side::Candidate, I, Seed, "norm", A, std::nullopt);
      F.Expected = P.Tol.Norm;
      F.Got = St.NormErr;
      F.Message = "relative L2 error " + formatDouble(St.NormErr) +
                  " exceeds the norm tolerance " + formatDouble(P.Tol.Norm);
      Failures.add(std::move(F));
    }
    Ok = Ok && NormOk && St.Mismatches == 0 && St.NonFinite == 0;

    St.Name = A.Name;
    Buffers.push_back(std::move(St));
  }
  return Ok;
}

void Verifier::recordFatal(Side S, const Instance &I, uint64_t Seed,
                           const Error &E) {
  // Not prefixed for the reference: a fault ends the run whichever side hit
  // it.
  Failure F;
  F.Instance = I.Name;
  F.Seed = Seed;
  F.Where = S;
  F.Kind = E.status() == Status::LaunchError ? "launch_error" : "fault";
  F.Message = E.message();
  Failures.add(std::move(F));
  Passed = false;
}

} // namespace optiml
