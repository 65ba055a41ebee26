//===- Bottleneck.cpp - stage one: what bounds the kernel -----------------===//

#include "optiml/Profile/Bottleneck.h"

using namespace optiml;

llvm::StringRef optiml::toString(BottleneckKind K) {
  switch (K) {
  case BottleneckKind::Unknown:
    return "unknown";
  case BottleneckKind::MemoryBound:
    return "memory-bound";
  case BottleneckKind::ComputeBound:
    return "compute-bound";
  case BottleneckKind::LatencyBound:
    return "latency-bound";
  case BottleneckKind::TooFewWaves:
    return "too-few-waves";
  }
  return "unknown";
}
