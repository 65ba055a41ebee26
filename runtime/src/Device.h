//===- Device.h - The GPU and its roofline peaks ----------------*- C++ -*-===//
//
// Part of OptiML. Peaks are computed from attributes the driver reports, and
// the result says how, because a roofline is only as good as its roof.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_DEVICE_H
#define OPTIML_RUNTIME_DEVICE_H

#include "Status.h"

#include "optiml/Protocol/DeviceReport.h"

#include <cstddef>
#include <string>

namespace optiml {

struct DeviceInfo {
  int Ordinal = 0;
  std::string Name;
  int Major = 0, Minor = 0;
  int Sms = 0;
  size_t L2Bytes = 0;
  int ClockKHz = 0;    ///< cudaDevAttrClockRate: peak SM clock.
  int MemClockKHz = 0; ///< cudaDevAttrMemoryClockRate: peak memory clock.
  int BusWidthBits = 0;
  std::string PciBusId;
};

/// NoGpu when cudaGetDeviceCount fails or finds nothing; the message is
/// "no CUDA GPU found: <cuda error string>".
Error checkGpuPresent();

/// Makes \p Ordinal current, creates its primary context, and reads its
/// properties.
Error queryDevice(int Ordinal, DeviceInfo &Out);

/// FP32 lanes per SM for compute capability \p Major.\p Minor.
int fp32LanesPerSm(int Major, int Minor);

/// The result's "device", peaks included, each with how it was computed.
protocol::DeviceReport describeDevice(const DeviceInfo &D);

} // namespace optiml

#endif // OPTIML_RUNTIME_DEVICE_H
