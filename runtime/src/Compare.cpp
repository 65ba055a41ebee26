//===- Compare.cpp - Element-wise output comparison -----------------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "Compare.h"

#include <algorithm>
#include <cmath>

namespace optiml {

namespace {

bool withinTolerance(double Got, double Expected, const Tolerance &Tol) {
  return std::fabs(Got - Expected) <= Tol.Atol + Tol.Rtol * std::fabs(Expected);
}

/// Error magnitudes of the elements compared so far.
struct Magnitudes {
  double SumSqDiff = 0, SumSqRef = 0;

  void add(double R, double C, CompareStats &Stats) {
    double Diff = std::fabs(C - R);
    Stats.MaxAbsErr = std::max(Stats.MaxAbsErr, Diff);
    if (R != 0)
      Stats.MaxRelErr = std::max(Stats.MaxRelErr, Diff / std::fabs(R));
    SumSqDiff += Diff * Diff;
    SumSqRef += R * R;
  }
};

/// Classifies one float element; accumulates magnitudes for finite pairs.
bool floatElementOk(double R, double C, const Tolerance &Tol,
                    CompareStats &Stats, Magnitudes &M, ElemIssue &Issue) {
  Issue = ElemIssue::Mismatch;
  if (std::isnan(R))
    return std::isnan(C);
  if (std::isinf(R))
    return C == R;
  if (!std::isfinite(C)) {
    Issue = ElemIssue::NonFinite;
    return false;
  }
  M.add(R, C, Stats);
  return withinTolerance(C, R, Tol);
}

} // namespace

CompareStats compareBuffers(const Arg &A, const unsigned char *Ref,
                            const unsigned char *Cand, const Tolerance &Tol,
                            const std::vector<bool> *Skip,
                            const IssueFn &OnIssue) {
  CompareStats Stats;
  Magnitudes M;
  for (size_t I = 0; I < A.Count; ++I) {
    if (Skip && (*Skip)[I])
      continue;
    ++Stats.Compared;
    ElemType T = A.typeAt(I);
    double R = loadAsDouble(T, Ref, I);
    double C = loadAsDouble(T, Cand, I);
    ElemIssue Issue = ElemIssue::Mismatch;
    bool Ok;
    if (isFloatType(T)) {
      Ok = floatElementOk(R, C, Tol, Stats, M, Issue);
    } else {
      // Integers must match exactly; magnitudes are for the report only.
      Ok = elemBitsEqual(T, Ref, Cand, I);
      M.add(R, C, Stats);
    }
    if (Ok)
      continue;
    if (Issue == ElemIssue::NonFinite)
      ++Stats.NonFinite;
    else
      ++Stats.Mismatches;
    OnIssue(Issue, I);
  }
  Stats.NormErr = M.SumSqRef > 0
                      ? std::sqrt(M.SumSqDiff) / std::sqrt(M.SumSqRef)
                      : std::sqrt(M.SumSqDiff);
  return Stats;
}

bool runsAgree(ElemType T, const unsigned char *X, const unsigned char *Y,
               size_t Index, const Tolerance &Tol) {
  if (elemBitsEqual(T, X, Y, Index))
    return true;
  if (!isFloatType(T))
    return false;
  double A = loadAsDouble(T, X, Index), B = loadAsDouble(T, Y, Index);
  if (std::isnan(A) || std::isnan(B))
    return std::isnan(A) && std::isnan(B);
  if (std::isinf(A) || std::isinf(B))
    return A == B;
  return withinTolerance(B, A, Tol);
}

} // namespace optiml
