//===- Device.cpp - The GPU and its roofline peaks ------------------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "Device.h"
#include "CudaCheck.h"

#include <cuda_runtime.h>

namespace optiml {

namespace {

Error getAttribute(int &Out, cudaDeviceAttr Attr, int Ordinal,
                   const char *Name) {
  return checkCuda(cudaDeviceGetAttribute(&Out, Attr, Ordinal),
                   std::string("cudaDeviceGetAttribute(") + Name + ")");
}

} // namespace

Error checkGpuPresent() {
  int Count = 0;
  cudaError_t E = cudaGetDeviceCount(&Count);
  if (E != cudaSuccess)
    return Error(Status::NoGpu,
                 std::string("no CUDA GPU found: ") + cudaGetErrorString(E));
  if (Count == 0)
    return Error(Status::NoGpu,
                 "no CUDA GPU found: cudaGetDeviceCount returned 0 devices");
  return Error::success();
}

Error queryDevice(int Ordinal, DeviceInfo &Out) {
  DeviceInfo D;
  D.Ordinal = Ordinal;
  if (Error E = checkCuda(cudaSetDevice(Ordinal), "cudaSetDevice"))
    return E;
  // cudaFree(0) forces creation of the primary context now, so that later
  // failures are about kernels and not about context setup.
  if (Error E = checkCuda(cudaFree(nullptr), "context creation (cudaFree(0))"))
    return E;
  cudaDeviceProp Prop;
  if (Error E = checkCuda(cudaGetDeviceProperties(&Prop, Ordinal),
                          "cudaGetDeviceProperties"))
    return E;
  D.Name = Prop.name;
  D.Major = Prop.major;
  D.Minor = Prop.minor;
  D.Sms = Prop.multiProcessorCount;
  D.L2Bytes = static_cast<size_t>(Prop.l2CacheSize);
  // CUDA 13 dropped clockRate and memoryClockRate from cudaDeviceProp; the
  // attributes remain.
  if (Error E =
          getAttribute(D.ClockKHz, cudaDevAttrClockRate, Ordinal, "ClockRate"))
    return E;
  if (Error E = getAttribute(D.MemClockKHz, cudaDevAttrMemoryClockRate, Ordinal,
                             "MemoryClockRate"))
    return E;
  if (Error E = getAttribute(D.BusWidthBits, cudaDevAttrGlobalMemoryBusWidth,
                             Ordinal, "GlobalMemoryBusWidth"))
    return E;
  char Bus[32] = {};
  if (Error E = checkCuda(cudaDeviceGetPCIBusId(Bus, sizeof(Bus), Ordinal),
                          "cudaDeviceGetPCIBusId"))
    return E;
  D.PciBusId = Bus;
  Out = D;
  return Error::success();
}

int fp32LanesPerSm(int Major, int Minor) {
  // From the CUDA C++ Programming Guide's throughput table: Volta, Turing and
  // GA100 have 64 FP32 lanes per SM; GA10x, Ada, Hopper and Blackwell 128.
  if (Major < 8 || (Major == 8 && Minor == 0))
    return 64;
  return 128;
}

protocol::DeviceReport describeDevice(const DeviceInfo &D) {
  protocol::DeviceReport R;
  R.Name = D.Name;
  R.ComputeCapability = std::to_string(D.Major) + "." + std::to_string(D.Minor);
  R.Sms = D.Sms;
  R.L2Bytes = D.L2Bytes;
  R.PciBusId = D.PciBusId;
  R.Ordinal = D.Ordinal;

  int Lanes = fp32LanesPerSm(D.Major, D.Minor);
  protocol::RooflinePeaks &P = R.Peaks;
  // Double data rate: two transfers per memory clock (true for GDDR6/HBM as
  // reported by the driver's memory clock).
  P.DramBytesPerS =
      2.0 * D.MemClockKHz * 1e3 * (static_cast<double>(D.BusWidthBits) / 8);
  P.DramMethod = "2 (double data rate) x cudaDevAttrMemoryClockRate (" +
                 std::to_string(D.MemClockKHz) +
                 " kHz) x cudaDevAttrGlobalMemoryBusWidth (" +
                 std::to_string(D.BusWidthBits) + " bits) / 8";
  P.Fp32FlopsPerS = static_cast<double>(D.Sms) * Lanes * 2.0 *
                    (static_cast<double>(D.ClockKHz) * 1e3);
  P.Fp32Method = "SMs (" + std::to_string(D.Sms) + ") x FP32 lanes per SM (" +
                 std::to_string(Lanes) + ", from compute capability " +
                 R.ComputeCapability + ") x 2 (FMA) x cudaDevAttrClockRate (" +
                 std::to_string(D.ClockKHz) + " kHz, the peak boost clock)";
  P.SmClockKHz = D.ClockKHz;
  P.MemClockKHz = D.MemClockKHz;
  P.BusWidthBits = D.BusWidthBits;
  P.Fp32LanesPerSm = Lanes;
  return R;
}

} // namespace optiml
