//===- DevicePeaks.cpp - the roofline's ceilings --------------------------===//

#include "optiml/Profile/DevicePeaks.h"
#include "optiml/Support/Error.h"

using namespace optiml;

llvm::Expected<DevicePeaks>
DevicePeaks::fromRunnerResult(const protocol::RunResult &Result) {
  if (!Result.Device)
    return makeError(ErrorKind::NotApplicable,
                     "the runner result has no device peaks");
  DevicePeaks P;
  P.DramBytesPerS = Result.Device->Peaks.DramBytesPerS;
  P.Fp32FlopsPerS = Result.Device->Peaks.Fp32FlopsPerS;
  P.SMs = static_cast<unsigned>(Result.Device->Sms);
  if (!P.valid())
    return makeError(ErrorKind::NotApplicable,
                     "the runner result's device peaks are not positive");
  return P;
}
