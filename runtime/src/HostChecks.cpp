//===- HostChecks.cpp - The verdict rules over host copies ----------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "HostChecks.h"
#include "Compare.h"
#include "ElemAccess.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace optiml {

namespace {

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

/// \p A / \p B rounded down, for \p B > 0: byte -1 is in element -1.
long long floorDiv(long long A, long long B) {
  long long Q = A / B;
  return A % B < 0 ? Q - 1 : Q;
}

std::string hexByte(unsigned char B) {
  char Buf[8];
  std::snprintf(Buf, sizeof(Buf), "0x%02x", B);
  return Buf;
}

std::string formatDouble(double V) {
  std::ostringstream OS;
  OS.precision(9);
  OS << V;
  return OS.str();
}

} // namespace

HostChecks::HostChecks(const Instance &I, uint64_t Seed, const Tolerance &Tol,
                       FailureLog &Failures)
    : I(I), Seed(Seed), Tol(Tol), Failures(Failures) {}

Failure HostChecks::failureIn(Side S, const char *Kind, const Arg &A,
                              std::optional<int64_t> Index) const {
  Failure F;
  F.Instance = I.Name;
  F.Seed = Seed;
  F.Where = S;
  F.Kind = kindFor(S, Kind);
  setElement(F, A, Index);
  return F;
}

void HostChecks::checkRedZone(Side S, int Run, const Arg &A,
                              const RedZoneReport &Z, SideCounts &Counts) {
  if (Z.Intact)
    return;
  Counts.RedZoneDamagedBytes += Z.DamagedBytes;
  bool Left = Z.FirstBadByte < 0;
  Failure F = failureIn(
      S, "redzone", A,
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

void HostChecks::checkInputUnchanged(Side S, int Run, const Arg &A,
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
    Failure F = failureIn(S, "input_modified", A, E);
    F.Expected = elemValue(A.typeAt(E), Want.data(), E);
    F.Got = elemValue(A.typeAt(E), Got.data(), E);
    F.Message = "the kernel wrote into an 'in' buffer (run " +
                std::to_string(Run + 1) + ")";
    Failures.add(std::move(F));
  }
}

void HostChecks::checkRuns(Side S, SideRuns &Runs, SideCounts &Counts) {
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
          !Unwritten && !runsAgree(A.typeAt(E), R0.data(), R1.data(), E, Tol);
      if (!Unwritten && !Differ)
        continue;
      Suspect[E] = true;
      disagreement(S, A, Runs, K, E, Unwritten, Counts);
    }
  }
}

/// Records element \p E of argument \p K, unwritten or nondeterministic.
void HostChecks::disagreement(Side S, const Arg &A, const SideRuns &Runs,
                              size_t K, uint64_t E, bool Unwritten,
                              SideCounts &Counts) {
  const std::vector<unsigned char> &R0 = Runs.Out[0][K];
  const std::vector<unsigned char> &R1 = Runs.Out[1][K];
  Failure F = failureIn(S, Unwritten ? "unwritten" : "nondeterministic", A, E);
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

bool HostChecks::compareWithReference(
    const HostOutputs &Ref, const SideRuns &Cand,
    std::vector<protocol::BufferComparison> &Buffers) {
  bool Ok = true;
  for (size_t K = 0; K < I.Args.size(); ++K) {
    const Arg &A = I.Args[K];
    if (!protocol::isOutput(A.Role))
      continue;
    protocol::BufferComparison St;
    bool BufferOk =
        bufferMatches(A, Ref[K], Cand.Out[0][K], Cand.Suspect[K], St);
    Ok = Ok && BufferOk;
    St.Name = A.Name;
    Buffers.push_back(std::move(St));
  }
  return Ok;
}

/// One output buffer: each element, then the norm of the whole.
bool HostChecks::bufferMatches(const Arg &A,
                               const std::vector<unsigned char> &R,
                               const std::vector<unsigned char> &C,
                               const std::vector<bool> &Skip,
                               protocol::BufferComparison &Stats) {
  auto OnIssue = [&](ElemIssue Issue, size_t E) {
    bool NonFinite = Issue == ElemIssue::NonFinite;
    Failure F =
        failureIn(Side::Candidate, NonFinite ? "nan" : "mismatch", A, E);
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
  Stats = compareBuffers(A, R.data(), C.data(), Tol, &Skip, OnIssue);
  bool NormOk = normWithin(A, Stats.NormErr);
  return NormOk && Stats.Mismatches == 0 && Stats.NonFinite == 0;
}

/// The relative-norm bound, for buffers with float lanes.
bool HostChecks::normWithin(const Arg &A, double NormErr) {
  if (!A.anyFloat() || NormErr <= Tol.Norm)
    return true;
  Failure F = failureIn(Side::Candidate, "norm", A, std::nullopt);
  F.Expected = Tol.Norm;
  F.Got = NormErr;
  F.Message = "relative L2 error " + formatDouble(NormErr) +
              " exceeds the norm tolerance " + formatDouble(Tol.Norm);
  Failures.add(std::move(F));
  return false;
}

std::string HostChecks::edgeSkipReason(const HostOutputs &Ref,
                                       bool RefOk) const {
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

void HostChecks::unrepeatedDeviceFinding(const std::string &Finding) {
  Failure F = failureIn(Side::Candidate, "nondeterministic", I.Args.front(),
                        std::nullopt);
  F.Buffer.reset();
  F.Message = "the device-side checks found " + Finding +
              "; two more runs for the report did not repeat it, so the "
              "candidate's results vary between runs";
  Failures.add(std::move(F));
}

} // namespace optiml
