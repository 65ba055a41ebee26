//===- DevicePeaks.cpp - the roofline's ceilings --------------------------===//

#include "optiml/Profile/DevicePeaks.h"
#include "optiml/Support/Error.h"

#include <nlohmann/json.hpp>

using namespace optiml;
using nlohmann::json;

static llvm::Expected<DevicePeaks> readPeaks(const json &Result) {
  const json &Device = Result.value("device", json());
  if (!Device.is_object() || !Device.contains("peaks") ||
      !Device["peaks"].is_object())
    return makeError(ErrorKind::NotApplicable,
                     "the runner result has no device peaks");
  const json &Peaks = Device["peaks"];
  DevicePeaks P;
  P.DramBytesPerS = Peaks.value("dram_bytes_per_s", 0.0);
  P.Fp32FlopsPerS = Peaks.value("fp32_flops_per_s", 0.0);
  P.SMs = Device.value("sms", 0u);
  if (!P.valid())
    return makeError(ErrorKind::NotApplicable,
                     "the runner result's device peaks are not positive");
  return P;
}

llvm::Expected<DevicePeaks> DevicePeaks::fromRunnerResult(const json &Result) {
  try {
    return readPeaks(Result);
  } catch (const json::exception &E) {
    return makeError(ErrorKind::NotApplicable,
                     llvm::Twine("unreadable device peaks: ") + E.what());
  }
}
