//===- Plan.h - The run plan: what to verify, time and profile --*- C++ -*-===//
//
// Part of OptiML. The C++ side evaluates every expression of a kernel spec and
// writes a plan of plain numbers; this file turns it into typed structs and
// rejects anything inconsistent up front, so later phases never second-guess
// the plan. The format is documented in docs/Runner.md.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_PLAN_H
#define OPTIML_RUNTIME_PLAN_H

#include "ElemType.h"
#include "Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace optiml {

enum class Role { In, Out, InOut };
const char *roleName(Role R);

/// How the contents of an input buffer are generated.
struct Distribution {
  enum class Kind { Uniform, Int, Normal, Index, Constant };
  Kind K = Kind::Uniform;
  double Lo = -1.0, Hi = 1.0;       ///< uniform
  int64_t IntLo = 0, IntHi = 100;   ///< int (inclusive)
  double Mean = 0.0, Std = 1.0;     ///< normal
  double Scale = 1.0, Offset = 0.0; ///< index
  uint64_t Mod = 0;                 ///< index; 0 means "no modulus"
  double Value = 0.0;               ///< constant
};

/// One kernel parameter, in declaration order.
struct Arg {
  std::string Name;
  bool IsBuffer = false;
  ElemType Type = ElemType::F32;
  // Buffers.
  Role BufferRole = Role::In;
  uint64_t Count = 0;
  Distribution Dist;
  // Scalars: the value's bytes, little-endian, in an 8-byte slot.
  unsigned char ScalarBytes[8] = {};

  size_t bytes() const { return static_cast<size_t>(Count) * elemSize(Type); }
};

/// One problem size with its launch geometry.
struct Instance {
  std::string Name;
  bool Time = false;
  unsigned Grid[3] = {1, 1, 1};
  unsigned Block[3] = {1, 1, 1};
  unsigned Shmem = 0;
  /// The candidate's own launch geometry, when a rewrite changed it (a new
  /// block size rescales the grid); otherwise it shares Grid/Block/Shmem.
  bool HasCandidateLaunch = false;
  unsigned CandidateGrid[3] = {1, 1, 1};
  unsigned CandidateBlock[3] = {1, 1, 1};
  unsigned CandidateShmem = 0;
  std::vector<Arg> Args;
};

struct Tolerance {
  double Rtol = 1e-5;
  double Atol = 1e-6;
  double Norm = 1e-5;
};

struct TimingOptions {
  unsigned Warmup = 3;
  unsigned MinReps = 10;
  unsigned MaxReps = 500;
  double NoiseTarget = 0.01;
  double MaxSeconds = 10.0;
  bool FlushL2 = true;
};

struct Plan {
  std::string Reference;
  std::string Candidate; ///< Empty: the reference is run against itself.
  std::vector<Instance> Instances;
  std::vector<uint64_t> Seeds;
  Tolerance Tol;
  TimingOptions Timing;
  bool Metrics = false;
  bool Energy = false;

  bool hasCandidate() const { return !Candidate.empty(); }
};

/// The instances that timing, metrics and energy look at: those with
/// "time": true, or the first instance when none is timed.
std::vector<const Instance *> profiledInstances(const Plan &P);

/// Reads and validates the plan at \p Path. Failures are Status::BadPlan with
/// a message naming the offending field ("instances[1].args[2].type: ...").
Error loadPlan(const std::string &Path, Plan &Out);

/// As loadPlan, from JSON text (used by loadPlan; handy for tests).
Error parsePlan(const std::string &Text, Plan &Out);

} // namespace optiml

#endif // OPTIML_RUNTIME_PLAN_H
