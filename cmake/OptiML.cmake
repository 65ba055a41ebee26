#===- OptiML.cmake - optiml_optimize_kernels() ---------------------------===#
#
# Included by OptiMLConfig.cmake (find_package(OptiML CONFIG)). Reference:
# docs/CMake.md.
#
#   optiml_optimize_kernels(<target> [SOURCES a.cu ...]
#                           [MODE auto|apply|optimize|off] [BUDGET n]
#                           [TIME_LIMIT s] [CACHE file.json] [ARCH sm_XX])
#
# For each CUDA source of <target> (or each listed) with a `#pragma optiml`
# mark, the target compiles a copy generated in the build tree,
# <build>/optiml/<target>/<path>, never one in the source tree. The copy is
# made by a custom command, rerun only when the source, its sidecar spec,
# the CACHE file or the tool changes:
#   apply     the CACHE file's results only; no GPU needed. The default.
#   optimize  a search (--optimize) for each marked kernel the cache
#             misses, then the results applied; searches and the CACHE
#             file's results are kept in <build>/optiml/results.sqlite.
#   auto      optimize when a GPU is present and the cache misses, else
#             apply.
#   off       the target compiles its sources as they are.
# -DOPTIML_MODE=off|apply|auto|optimize overrides every call's MODE.
#
# It never breaks a build: when the tool fails, times out or has no result
# for a kernel, that file is compiled as written and one message says why.
#
#===----------------------------------------------------------------------===#

set(OPTIML_MODE "" CACHE STRING
    "Overrides the MODE of every optiml_optimize_kernels() call: off, apply, auto or optimize (empty: each call's own)")
set_property(CACHE OPTIML_MODE PROPERTY STRINGS "" off apply auto optimize)

set(_OPTIML_STEP_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/OptimlKernelStep.cmake")

# Which mode a call runs in: the global override, else its own, else apply.
function(_optiml_mode out call_mode)
  # STREQUAL, not if(<var>): "off" is a false constant to if().
  set(mode "${call_mode}")
  if(NOT "${OPTIML_MODE}" STREQUAL "")
    set(mode "${OPTIML_MODE}")
  endif()
  if("${mode}" STREQUAL "")
    set(mode apply)
  endif()
  if(NOT mode MATCHES "^(off|apply|auto|optimize)$")
    message(FATAL_ERROR "optiml_optimize_kernels: MODE '${mode}' is not one "
                        "of off, apply, auto, optimize")
  endif()
  set(${out} "${mode}" PARENT_SCOPE)
endfunction()

# The CUDA sources of <target> with a `#pragma optiml` mark, as absolute
# paths; `listed` narrows them.
function(_optiml_marked_sources out target listed)
  if(listed)
    set(candidates ${listed})
  else()
    get_target_property(candidates ${target} SOURCES)
  endif()
  get_target_property(target_dir ${target} SOURCE_DIR)
  set(marked)
  foreach(src IN LISTS candidates)
    if(NOT src MATCHES "\\.cu$" OR src MATCHES "^\\$<")
      continue()
    endif()
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${target_dir}")
    if(NOT EXISTS "${abs}")
      continue() # A generated source: nothing to read at configure time.
    endif()
    file(STRINGS "${abs}" marks REGEX "^[ \t]*#[ \t]*pragma[ \t]+optiml")
    if(marks)
      list(APPEND marked "${abs}")
    endif()
  endforeach()
  set(${out} ${marked} PARENT_SCOPE)
endfunction()

function(optiml_optimize_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG ""
                        "MODE;BUDGET;TIME_LIMIT;CACHE;ARCH" "SOURCES")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "optiml_optimize_kernels: unknown arguments "
                        "${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "optiml_optimize_kernels: no target '${target}'")
  endif()
  _optiml_mode(mode "${ARG_MODE}")
  if(mode STREQUAL "off")
    return()
  endif()
  if(NOT OPTIML_EXECUTABLE OR NOT EXISTS "${OPTIML_EXECUTABLE}")
    message(WARNING "optiml_optimize_kernels(${target}): clang-optiml not "
                    "found (OPTIML_EXECUTABLE='${OPTIML_EXECUTABLE}'); "
                    "compiling the sources as written")
    return()
  endif()
  set(cache "")
  if(ARG_CACHE)
    get_filename_component(cache "${ARG_CACHE}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  set(arch "${ARG_ARCH}")
  if(NOT arch AND CMAKE_CUDA_ARCHITECTURES MATCHES "^([0-9]+)")
    set(arch "sm_${CMAKE_MATCH_1}")
  endif()

  _optiml_marked_sources(marked ${target} "${ARG_SOURCES}")
  get_target_property(sources ${target} SOURCES)
  get_target_property(target_dir ${target} SOURCE_DIR)
  set(db "${CMAKE_BINARY_DIR}/optiml/results.sqlite")
  foreach(src IN LISTS marked)
    file(RELATIVE_PATH rel "${CMAKE_SOURCE_DIR}" "${src}")
    if(rel MATCHES "^\\.\\./")
      get_filename_component(rel "${src}" NAME)
    endif()
    set(gen "${CMAKE_BINARY_DIR}/optiml/${target}/${rel}")
    # The call's settings as a file that changes only with them, so that a
    # new mode or cache reruns the command.
    set(settings "${gen}.settings")
    file(CONFIGURE OUTPUT "${settings}" @ONLY CONTENT
         "mode=${mode}\ncache=${cache}\narch=${arch}\nbudget=${ARG_BUDGET}\ntime_limit=${ARG_TIME_LIMIT}\n")
    set(depends "${src}" "${settings}" "${OPTIML_EXECUTABLE}"
                "${_OPTIML_STEP_SCRIPT}")
    if(EXISTS "${src}.optiml.json")
      list(APPEND depends "${src}.optiml.json")
    endif()
    if(cache)
      list(APPEND depends "${cache}")
    endif()
    add_custom_command(
      OUTPUT "${gen}"
      COMMAND "${CMAKE_COMMAND}"
              "-DOPTIML_EXECUTABLE=${OPTIML_EXECUTABLE}"
              "-DSOURCE=${src}" "-DOUTPUT=${gen}" "-DMODE=${mode}"
              "-DCACHE=${cache}" "-DDB=${db}" "-DARCH=${arch}"
              "-DBUDGET=${ARG_BUDGET}" "-DTIME_LIMIT=${ARG_TIME_LIMIT}"
              -P "${_OPTIML_STEP_SCRIPT}"
      DEPENDS ${depends}
      COMMENT "OptiML (${mode}): ${rel}"
      VERBATIM)
    # The copy includes its neighbours as the original does.
    get_filename_component(src_dir "${src}" DIRECTORY)
    set_property(SOURCE "${gen}" TARGET_DIRECTORY ${target} APPEND PROPERTY
                 INCLUDE_DIRECTORIES
                 "${src_dir}")
    set(replaced)
    foreach(s IN LISTS sources)
      get_filename_component(abs "${s}" ABSOLUTE BASE_DIR "${target_dir}")
      if(abs STREQUAL src)
        list(APPEND replaced "${gen}")
      else()
        list(APPEND replaced "${s}")
      endif()
    endforeach()
    set(sources ${replaced})
  endforeach()
  set_property(TARGET ${target} PROPERTY SOURCES ${sources})
endfunction()
