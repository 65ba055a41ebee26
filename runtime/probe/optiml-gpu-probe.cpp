//===- optiml-gpu-probe.cpp - Which GPUs this process can use -------------===//
//
// Part of OptiML. clang-optiml builds this with nvcc (host code only, any
// architecture) and runs it to learn whether there is a GPU and which,
// before it builds anything for measurement. It asks the CUDA runtime, so
// the answer is the one the runner will get: CUDA_VISIBLE_DEVICES and
// CUDA_DEVICE_ORDER are honoured.
//
//   optiml-gpu-probe
//     stdout, exit 0: {"devices": [{"ordinal": 0, "name": "NVIDIA H100 ...",
//                      "arch": "sm_90", "sms": 132, "memory_bytes": N,
//                      "pci_bus_id": "0000:..."}, ...]}
//     stderr, exit 4: no CUDA GPU found: <why>
//
//===----------------------------------------------------------------------===//

#include <cuda_runtime.h>

#include <cstdio>
#include <string>

namespace {

/// \p S as a JSON string: device names are plain ASCII, but a quote or a
/// control byte must still not break the line.
std::string quoted(const char *S) {
  std::string Out = "\"";
  for (; *S; ++S) {
    unsigned char C = static_cast<unsigned char>(*S);
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += static_cast<char>(C);
    } else if (C < 0x20) {
      char Buf[8];
      std::snprintf(Buf, sizeof(Buf), "\\u%04x", C);
      Out += Buf;
    } else {
      Out += static_cast<char>(C);
    }
  }
  return Out + "\"";
}

int noGpu(const std::string &Why) {
  std::fprintf(stderr, "no CUDA GPU found: %s\n", Why.c_str());
  return 4;
}

} // namespace

int main() {
  int Count = 0;
  cudaError_t E = cudaGetDeviceCount(&Count);
  if (E != cudaSuccess)
    return noGpu(cudaGetErrorString(E));
  if (Count == 0)
    return noGpu("the CUDA runtime sees no device (CUDA_VISIBLE_DEVICES?)");
  std::string Json = "{\"devices\": [";
  for (int Ordinal = 0; Ordinal < Count; ++Ordinal) {
    cudaDeviceProp Prop;
    E = cudaGetDeviceProperties(&Prop, Ordinal);
    if (E != cudaSuccess)
      return noGpu("cudaGetDeviceProperties(" + std::to_string(Ordinal) +
                   "): " + cudaGetErrorString(E));
    char Bus[32] = "";
    if (cudaDeviceGetPCIBusId(Bus, sizeof(Bus), Ordinal) != cudaSuccess)
      Bus[0] = '\0';
    if (Ordinal)
      Json += ", ";
    Json += "{\"ordinal\": " + std::to_string(Ordinal) +
            ", \"name\": " + quoted(Prop.name) + ", \"arch\": \"sm_" +
            std::to_string(Prop.major) + std::to_string(Prop.minor) +
            "\", \"sms\": " + std::to_string(Prop.multiProcessorCount) +
            ", \"memory_bytes\": " + std::to_string(Prop.totalGlobalMem) +
            ", \"pci_bus_id\": " + quoted(Bus) + "}";
  }
  std::printf("%s]}\n", Json.c_str());
  return 0;
}
