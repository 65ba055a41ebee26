//===- RangeProfiler.cpp - Hardware counters via CUPTI Range Profiler -----===//
//
// Part of OptiML. The call sequence follows the CUDA 13 headers
// (cupti_range_profiler.h, cupti_profiler_host.h, cupti_profiler_target.h,
// cupti_target.h) and NVIDIA's range_profiling sample:
//
//   cuptiProfilerInitialize, cuptiDeviceGetChipName,
//   cuptiProfilerGetCounterAvailability (size, then data),
//   cuptiProfilerHostInitialize -> ConfigAddMetrics -> GetConfigImage(Size),
//   cuptiRangeProfilerEnable -> GetCounterDataSize ->
//   CounterDataImageInitialize -> SetConfig,
//   { Start, launch, Stop } until isAllPassSubmitted,
//   DecodeData, GetCounterDataInfo, cuptiProfilerHostEvaluateToGpuValues,
//   cuptiRangeProfilerDisable, cuptiProfilerHostDeinitialize,
//   cuptiProfilerDeInitialize.
//
//===----------------------------------------------------------------------===//

#include "RangeProfiler.h"
#include "CuptiCheck.h"

#include <cuda_runtime.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

namespace optiml {

namespace {

/// Replays beyond this mean something is wrong (kernel replay needs one
/// Start/Stop; user replay of this metric set needs a handful).
constexpr size_t MaxPasses = 64;

using CtxGetCurrentFn = CUresult (*)(CUcontext *);

/// The current context, through the runtime's driver entry point so that the
/// runner does not link libcuda directly (it then starts, and reports "no
/// GPU" properly, on machines without a driver).
Error currentContext(CUcontext &Ctx) {
  void *Fn = nullptr;
  cudaDriverEntryPointQueryResult Query = cudaDriverEntryPointSymbolNotFound;
  cudaError_t E = cudaGetDriverEntryPointByVersion(
      "cuCtxGetCurrent", &Fn, 12000, cudaEnableDefault, &Query);
  if (E != cudaSuccess || Query != cudaDriverEntryPointSuccess || !Fn)
    return Error(Status::Error, "cannot resolve cuCtxGetCurrent: " +
                                    std::string(cudaGetErrorString(E)));
  if (reinterpret_cast<CtxGetCurrentFn>(Fn)(&Ctx) != CUDA_SUCCESS || !Ctx)
    return Error(Status::Error, "cuCtxGetCurrent: no current CUDA context");
  return Error::success();
}

/// A CUpti_Profiler_Host_Object. ConfigAddMetrics accumulates, so every
/// metric set gets a fresh one.
class HostObject {
public:
  HostObject() = default;
  HostObject(const HostObject &) = delete;
  HostObject &operator=(const HostObject &) = delete;
  ~HostObject() {
    if (!Obj)
      return;
    CUpti_Profiler_Host_Deinitialize_Params P{};
    P.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
    P.pHostObject = Obj;
    (void)cuptiProfilerHostDeinitialize(&P);
  }

  Error init(const std::string &Chip, const std::vector<uint8_t> &Avail) {
    CUpti_Profiler_Host_Initialize_Params P{};
    P.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
    P.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    P.pChipName = Chip.c_str();
    P.pCounterAvailabilityImage = Avail.data();
    if (Error E = checkCupti(cuptiProfilerHostInitialize(&P),
                             "cuptiProfilerHostInitialize"))
      return E;
    Obj = P.pHostObject;
    return Error::success();
  }

  CUpti_Profiler_Host_Object *get() const { return Obj; }

private:
  CUpti_Profiler_Host_Object *Obj = nullptr;
};

/// Range profiling enabled on a context; disabled again on destruction.
class EnabledProfiler {
public:
  EnabledProfiler() = default;
  EnabledProfiler(const EnabledProfiler &) = delete;
  EnabledProfiler &operator=(const EnabledProfiler &) = delete;
  ~EnabledProfiler() {
    if (!Obj)
      return;
    CUpti_RangeProfiler_Disable_Params P{};
    P.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE;
    P.pRangeProfilerObject = Obj;
    (void)cuptiRangeProfilerDisable(&P);
  }

  Error enable(CUcontext Ctx) {
    CUpti_RangeProfiler_Enable_Params P{};
    P.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
    P.ctx = Ctx;
    if (Error E = checkCupti(cuptiRangeProfilerEnable(&P),
                             "cuptiRangeProfilerEnable"))
      return E;
    Obj = P.pRangeProfilerObject;
    return Error::success();
  }

  CUpti_RangeProfiler_Object *get() const { return Obj; }

private:
  CUpti_RangeProfiler_Object *Obj = nullptr;
};

std::vector<const char *> cStrings(const std::vector<std::string> &Names) {
  std::vector<const char *> Out;
  for (const std::string &N : Names)
    Out.push_back(N.c_str());
  return Out;
}

Error buildConfigImage(HostObject &Host, std::vector<const char *> &Names,
                       std::vector<uint8_t> &Image) {
  CUpti_Profiler_Host_ConfigAddMetrics_Params Add{};
  Add.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
  Add.pHostObject = Host.get();
  Add.ppMetricNames = Names.data();
  Add.numMetrics = Names.size();
  if (Error E = checkCupti(cuptiProfilerHostConfigAddMetrics(&Add),
                           "cuptiProfilerHostConfigAddMetrics"))
    return E;
  CUpti_Profiler_Host_GetConfigImageSize_Params Size{};
  Size.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
  Size.pHostObject = Host.get();
  if (Error E = checkCupti(cuptiProfilerHostGetConfigImageSize(&Size),
                           "cuptiProfilerHostGetConfigImageSize"))
    return E;
  Image.assign(Size.configImageSize, 0);
  CUpti_Profiler_Host_GetConfigImage_Params Get{};
  Get.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
  Get.pHostObject = Host.get();
  Get.configImageSize = Image.size();
  Get.pConfigImage = Image.data();
  return checkCupti(cuptiProfilerHostGetConfigImage(&Get),
                    "cuptiProfilerHostGetConfigImage");
}

Error buildCounterDataImage(const EnabledProfiler &Prof,
                            std::vector<const char *> &Names,
                            std::vector<uint8_t> &Image) {
  CUpti_RangeProfiler_GetCounterDataSize_Params Size{};
  Size.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
  Size.pRangeProfilerObject = Prof.get();
  Size.pMetricNames = Names.data();
  Size.numMetrics = Names.size();
  Size.maxNumOfRanges = 1;       // One kernel per session.
  Size.maxNumRangeTreeNodes = 1; // Must be >= maxNumOfRanges.
  if (Error E = checkCupti(cuptiRangeProfilerGetCounterDataSize(&Size),
                           "cuptiRangeProfilerGetCounterDataSize"))
    return E;
  Image.assign(Size.counterDataSize, 0);
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params Init{};
  Init.structSize =
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
  Init.pRangeProfilerObject = Prof.get();
  Init.counterDataSize = Image.size();
  Init.pCounterData = Image.data();
  return checkCupti(cuptiRangeProfilerCounterDataImageInitialize(&Init),
                    "cuptiRangeProfilerCounterDataImageInitialize");
}

Error setConfig(const EnabledProfiler &Prof, const std::vector<uint8_t> &Config,
                std::vector<uint8_t> &CounterData) {
  CUpti_RangeProfiler_SetConfig_Params P{};
  P.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
  P.pRangeProfilerObject = Prof.get();
  P.configSize = Config.size();
  P.pConfig = Config.data();
  P.counterDataImageSize = CounterData.size();
  P.pCounterDataImage = CounterData.data();
  P.range = CUPTI_AutoRange;
  P.replayMode = CUPTI_KernelReplay;
  P.maxRangesPerPass = 1;
  P.numNestingLevels = 1; // The header: "For Auto range mode, this should be
  P.minNestingLevel = 1;  // set to 1."
  P.passIndex = 0;
  P.targetNestingLevel = 1;
  return checkCupti(cuptiRangeProfilerSetConfig(&P),
                    "cuptiRangeProfilerSetConfig");
}

/// One Start / launch / Stop round; \p AllSubmitted tells whether CUPTI needs
/// no further replay.
Error runPass(const EnabledProfiler &Prof, const std::function<Error()> &Launch,
              const std::function<Error()> &Sync, bool &AllSubmitted) {
  CUpti_RangeProfiler_Start_Params Start{};
  Start.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
  Start.pRangeProfilerObject = Prof.get();
  if (Error E = checkCupti(cuptiRangeProfilerStart(&Start),
                           "cuptiRangeProfilerStart"))
    return E;
  Error LaunchErr = Launch();
  if (!LaunchErr)
    LaunchErr = Sync();
  // Stop even after a failed launch so the profiler is left consistent.
  CUpti_RangeProfiler_Stop_Params Stop{};
  Stop.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
  Stop.pRangeProfilerObject = Prof.get();
  Error StopErr =
      checkCupti(cuptiRangeProfilerStop(&Stop), "cuptiRangeProfilerStop");
  if (LaunchErr)
    return LaunchErr;
  if (StopErr)
    return StopErr;
  AllSubmitted = Stop.isAllPassSubmitted != 0;
  return Error::success();
}

Error decodeAndCount(const EnabledProfiler &Prof,
                     const std::vector<uint8_t> &CounterData, size_t &Ranges) {
  CUpti_RangeProfiler_DecodeData_Params Decode{};
  Decode.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
  Decode.pRangeProfilerObject = Prof.get();
  if (Error E = checkCupti(cuptiRangeProfilerDecodeData(&Decode),
                           "cuptiRangeProfilerDecodeData"))
    return E;
  if (Decode.numOfRangeDropped != 0)
    return Error(Status::Error, "the range profiler dropped " +
                                    std::to_string(Decode.numOfRangeDropped) +
                                    " range(s)");
  CUpti_RangeProfiler_GetCounterDataInfo_Params Info{};
  Info.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
  Info.pCounterDataImage = CounterData.data();
  Info.counterDataImageSize = CounterData.size();
  if (Error E = checkCupti(cuptiRangeProfilerGetCounterDataInfo(&Info),
                           "cuptiRangeProfilerGetCounterDataInfo"))
    return E;
  Ranges = Info.numTotalRanges;
  return Error::success();
}

Error evaluate(const HostObject &Host, const std::vector<uint8_t> &CounterData,
               std::vector<const char *> &Names, std::vector<double> &Values) {
  Values.assign(Names.size(), 0.0);
  CUpti_Profiler_Host_EvaluateToGpuValues_Params P{};
  P.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
  P.pHostObject = Host.get();
  P.pCounterDataImage = CounterData.data();
  P.counterDataImageSize = CounterData.size();
  P.rangeIndex = 0;
  P.ppMetricNames = Names.data();
  P.numMetrics = Names.size();
  P.pMetricValues = Values.data();
  return checkCupti(cuptiProfilerHostEvaluateToGpuValues(&P),
                    "cuptiProfilerHostEvaluateToGpuValues");
}

const char *supportLevelName(CUpti_Profiler_Support_Level L) {
  switch (L) {
  case CUPTI_PROFILER_CONFIGURATION_SUPPORTED:
    return "supported";
  case CUPTI_PROFILER_CONFIGURATION_DISABLED:
    return "disabled";
  case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED:
    return "unsupported";
  default:
    return "unknown";
  }
}

/// Explains up front why profiling cannot work (vGPU without profiling,
/// confidential compute, old architecture...), instead of a later opaque
/// failure.
Error checkDeviceSupported(int Ordinal) {
  CUpti_Profiler_DeviceSupported_Params P{};
  P.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
  P.cuDevice = static_cast<CUdevice>(Ordinal);
  P.api = CUPTI_PROFILER_RANGE_PROFILING;
  if (Error E = checkCupti(cuptiProfilerDeviceSupported(&P),
                           "cuptiProfilerDeviceSupported"))
    return E;
  // "Unknown" is let through: the later calls give the real answer.
  if (P.isSupported != CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED &&
      P.isSupported != CUPTI_PROFILER_CONFIGURATION_DISABLED)
    return Error::success();
  return Error(Status::Error,
               std::string("range profiling is not supported on this device "
                           "configuration: architecture ") +
                   supportLevelName(P.architecture) + ", sli " +
                   supportLevelName(P.sli) + ", vGPU " +
                   supportLevelName(P.vGpu) + ", confidential compute " +
                   supportLevelName(P.confidentialCompute) + ", cmp " +
                   supportLevelName(P.cmp) + ", wsl " +
                   supportLevelName(P.wsl));
}

} // namespace

const std::vector<std::string> &defaultMetrics() {
  static const std::vector<std::string> Metrics = {
      "gpu__time_duration.sum",
      "dram__bytes_read.sum",
      "dram__bytes_write.sum",
      "sm__throughput.avg.pct_of_peak_sustained_elapsed",
      "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
      "sm__warps_active.avg.pct_of_peak_sustained_active",
      "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
      "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
      "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
      "l1tex__t_sector_hit_rate.pct",
      "lts__t_sector_hit_rate.pct",
      // Coalescing: sectors per request, computed by the tool.
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
      // Bank conflicts: wavefronts beyond one per shared instruction.
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
      "smsp__inst_executed_op_shared_ld.sum",
      "smsp__inst_executed_op_shared_st.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
      // Divergence: active and not-predicated-off threads per executed warp
      // instruction.
      "smsp__thread_inst_executed.sum",
      "smsp__thread_inst_executed_pred_on.sum",
      "smsp__inst_executed.sum",
      "smsp__sass_average_branch_targets_threads_uniform.pct",
  };
  return Metrics;
}

RangeProfiler::~RangeProfiler() {
  if (!Initialized)
    return;
  CUpti_Profiler_DeInitialize_Params P{};
  P.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE;
  (void)cuptiProfilerDeInitialize(&P);
}

Error RangeProfiler::create(int Ordinal, std::unique_ptr<RangeProfiler> &Out) {
  std::unique_ptr<RangeProfiler> RP(new RangeProfiler());
  if (Error E = currentContext(RP->Ctx))
    return E;
  CUpti_Profiler_Initialize_Params Init{};
  Init.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
  if (Error E =
          checkCupti(cuptiProfilerInitialize(&Init), "cuptiProfilerInitialize"))
    return E;
  RP->Initialized = true;
  if (Error E = checkDeviceSupported(Ordinal))
    return E;

  CUpti_Device_GetChipName_Params Chip{};
  Chip.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
  Chip.deviceIndex = static_cast<size_t>(Ordinal);
  if (Error E =
          checkCupti(cuptiDeviceGetChipName(&Chip), "cuptiDeviceGetChipName"))
    return E;
  RP->ChipName = Chip.pChipName ? Chip.pChipName : "";

  // Counter availability: first call sizes the image, second fills it.
  CUpti_Profiler_GetCounterAvailability_Params Avail{};
  Avail.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
  Avail.ctx = RP->Ctx;
  if (Error E = checkCupti(cuptiProfilerGetCounterAvailability(&Avail),
                           "cuptiProfilerGetCounterAvailability(size)"))
    return E;
  RP->CounterAvailability.assign(Avail.counterAvailabilityImageSize, 0);
  Avail.pCounterAvailabilityImage = RP->CounterAvailability.data();
  if (Error E = checkCupti(cuptiProfilerGetCounterAvailability(&Avail),
                           "cuptiProfilerGetCounterAvailability(image)"))
    return E;
  Out = std::move(RP);
  return Error::success();
}

Error RangeProfiler::partition(const std::vector<std::string> &Wanted,
                               std::vector<std::string> &Supported,
                               std::vector<std::string> &Unsupported) {
  HostObject Host;
  if (Error E = Host.init(ChipName, CounterAvailability))
    return E;
  for (const std::string &Name : Wanted) {
    CUpti_Profiler_Host_GetMetricProperties_Params P{};
    P.structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE;
    P.pHostObject = Host.get();
    P.pMetricName = Name.c_str();
    CUptiResult R = cuptiProfilerHostGetMetricProperties(&P);
    if (R == CUPTI_SUCCESS)
      Supported.push_back(Name);
    else if (R == CUPTI_ERROR_INVALID_METRIC_NAME)
      Unsupported.push_back(Name);
    else
      return checkCupti(R,
                        "cuptiProfilerHostGetMetricProperties(" + Name + ")");
  }
  return Error::success();
}

Error RangeProfiler::profile(const std::vector<std::string> &Metrics,
                             const std::function<Error()> &Prepare,
                             const std::function<Error()> &Launch,
                             const std::function<Error()> &Sync,
                             std::map<std::string, double> &Values,
                             size_t &Passes) {
  std::vector<const char *> Names = cStrings(Metrics);
  HostObject Host;
  if (Error E = Host.init(ChipName, CounterAvailability))
    return E;
  std::vector<uint8_t> Config;
  if (Error E = buildConfigImage(Host, Names, Config))
    return E;

  EnabledProfiler Prof;
  if (Error E = Prof.enable(Ctx))
    return E;
  std::vector<uint8_t> CounterData;
  if (Error E = buildCounterDataImage(Prof, Names, CounterData))
    return E;
  if (Error E = setConfig(Prof, Config, CounterData))
    return E;

  bool AllSubmitted = false;
  for (Passes = 0; !AllSubmitted; ++Passes) {
    if (Passes == MaxPasses)
      return Error(Status::Error, "range profiler still wants passes after " +
                                      std::to_string(MaxPasses));
    if (Error E = Prepare())
      return E;
    if (Error E = Sync())
      return E;
    if (Error E = runPass(Prof, Launch, Sync, AllSubmitted))
      return E;
  }

  size_t Ranges = 0;
  if (Error E = decodeAndCount(Prof, CounterData, Ranges))
    return E;
  if (Ranges != 1)
    return Error(Status::Error, "expected one profiled range (one kernel), "
                                "got " +
                                    std::to_string(Ranges));
  std::vector<double> Raw;
  if (Error E = evaluate(Host, CounterData, Names, Raw))
    return E;
  for (size_t K = 0; K < Metrics.size(); ++K)
    Values[Metrics[K]] = Raw[K];
  return Error::success();
}

} // namespace optiml
