#===- OptimlKernelStep.cmake - one source through OptiML, at build time --===#
#
# The custom command of optiml_optimize_kernels() (OptiML.cmake):
#   cmake -DOPTIML_EXECUTABLE=... -DSOURCE=a.cu -DOUTPUT=<build>/.../a.cu
#         -DMODE=apply|auto|optimize -DCACHE=file.json -DDB=results.sqlite
#         [-DARCH=sm_90] [-DBUDGET=n] [-DTIME_LIMIT=s] -P OptimlKernelStep.cmake
# OUTPUT is always written: the tool's result, or SOURCE itself with one
# message saying why. It never fails the build.
#
#===----------------------------------------------------------------------===#

cmake_minimum_required(VERSION 3.20)

get_filename_component(_name "${SOURCE}" NAME)
get_filename_component(_out_dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${_out_dir}")

# apply takes the cache file's results only: a database made from it afresh
# (so an emptied cache applies nothing). The other modes keep the build
# tree's database, where searches leave their results.
if(MODE STREQUAL "apply")
  set(DB "${OUTPUT}.results.sqlite")
  file(REMOVE "${DB}")
endif()
set(_common "--db=${DB}")
if(ARCH)
  list(APPEND _common "--arch=${ARCH}")
endif()

# The original, as it is, and one line saying why (a macro, so that its
# return() leaves the calling function).
macro(_optiml_fallback why)
  configure_file("${SOURCE}" "${OUTPUT}" COPYONLY)
  file(TOUCH "${OUTPUT}")
  message("optiml: ${_name}: ${why}; compiling it as written")
  return()
endmacro()

# The last non-empty line of \p text, for a one-line reason.
function(_optiml_last_line out text)
  string(STRIP "${text}" text)
  string(REGEX REPLACE ".*\n" "" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# --use-cache into OUTPUT; sets `missed` to the kernels without a result.
function(_optiml_apply import)
  set(args "${SOURCE}" --use-cache ${_common} -o "${OUTPUT}")
  if(import AND CACHE)
    list(APPEND args "--import-cache=${CACHE}")
  endif()
  execute_process(COMMAND "${OPTIML_EXECUTABLE}" ${args}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err
                  TIMEOUT 600)
  if(NOT rc EQUAL 0)
    _optiml_last_line(why "${err}")
    _optiml_fallback("clang-optiml --use-cache failed (${rc}): ${why}")
  endif()
  set(missed)
  string(REPLACE "\n" ";" lines "${err}")
  foreach(line IN LISTS lines)
    if(line MATCHES "^clang-optiml: (.+): cache (hit|miss):")
      message("${line}")
      if(CMAKE_MATCH_2 STREQUAL "miss")
        list(APPEND missed "${CMAKE_MATCH_1}")
      endif()
    endif()
  endforeach()
  set(missed ${missed} PARENT_SCOPE)
endfunction()

# --optimize for \p kernel: the search stores its best verified result (or
# that the original is best) in DB for the next --use-cache.
function(_optiml_search kernel)
  set(args "${SOURCE}" --optimize "--kernel=${kernel}" ${_common}
           -o "${OUTPUT}.${kernel}.best.cu")
  set(timeout 3600)
  if(BUDGET)
    list(APPEND args "--budget=${BUDGET}")
  endif()
  if(TIME_LIMIT)
    list(APPEND args "--time-limit=${TIME_LIMIT}")
    math(EXPR timeout "${TIME_LIMIT} + 600")
  endif()
  execute_process(COMMAND "${OPTIML_EXECUTABLE}" ${args}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err
                  TIMEOUT ${timeout})
  if(rc EQUAL 0)
    message("optiml: ${_name}: searched ${kernel} on the GPU")
    return()
  endif()
  _optiml_last_line(why "${err}")
  # The tool asks the CUDA runtime before it builds anything (so
  # CUDA_VISIBLE_DEVICES counts) and says "no CUDA GPU found" at once.
  if(why MATCHES "no CUDA GPU found")
    set(no_gpu "${why}" PARENT_SCOPE)
    return()
  endif()
  message("optiml: ${_name}: the search of ${kernel} failed (${rc}): "
          "${why}; its original is kept")
endfunction()

function(_optiml_step)
  if(NOT EXISTS "${OPTIML_EXECUTABLE}")
    _optiml_fallback("clang-optiml not found at '${OPTIML_EXECUTABLE}'")
  endif()
  _optiml_apply(TRUE)
  if(MODE STREQUAL "apply" OR NOT missed)
    return()
  endif()
  set(no_gpu "")
  foreach(kernel IN LISTS missed)
    _optiml_search("${kernel}")
    if(no_gpu)
      if(MODE STREQUAL "optimize")
        message("optiml: ${_name}: no GPU to search on (${no_gpu}); the "
                "cached results are applied, the rest compiled as written")
      endif()
      return()
    endif()
  endforeach()
  _optiml_apply(FALSE)
endfunction()

_optiml_step()
