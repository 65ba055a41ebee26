#===- OptimlClang.cmake - find LLVM and Clang, define optiml::clang ------===#
#
# Prefers LLVM/Clang 22 and accepts 19 or newer. -DLLVM_DIR / -DClang_DIR
# override the search. The interface target `optiml_clang` carries include
# dirs, definitions and libraries: the shared libclang-cpp + libLLVM for
# development builds (fast links), or every static archive for the GPU bundle
# (OPTIML_STATIC), which must run on a machine without LLVM installed.
#
#===----------------------------------------------------------------------===#

set(_optiml_llvm_hints)
foreach(_v 22 21 20 19)
  list(APPEND _optiml_llvm_hints /usr/lib/llvm-${_v}/lib/cmake/llvm)
endforeach()
find_package(LLVM CONFIG REQUIRED HINTS ${_optiml_llvm_hints})
if(LLVM_PACKAGE_VERSION VERSION_LESS 19)
  message(FATAL_ERROR "OptiML needs LLVM/Clang 19 or newer; found ${LLVM_PACKAGE_VERSION} "
                      "at ${LLVM_DIR}. Pass -DLLVM_DIR=<prefix>/lib/cmake/llvm.")
endif()
find_package(Clang CONFIG REQUIRED HINTS "${LLVM_DIR}/../clang" "${LLVM_INSTALL_PREFIX}/lib/cmake/clang")
message(STATUS "OptiML: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")

# Clang's resource directory (builtin headers such as __clang_cuda_runtime_wrapper.h)
# as installed; the tool also looks beside its own binary, for the relocated bundle.
set(_optiml_clang_exe "${LLVM_TOOLS_BINARY_DIR}/clang")
execute_process(COMMAND "${_optiml_clang_exe}" -print-resource-dir
                OUTPUT_VARIABLE OPTIML_CLANG_RESOURCE_DIR
                OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0 OR NOT IS_DIRECTORY "${OPTIML_CLANG_RESOURCE_DIR}/include")
  set(OPTIML_CLANG_RESOURCE_DIR "${LLVM_LIBRARY_DIR}/clang/${LLVM_VERSION_MAJOR}")
endif()
set(OPTIML_CLANG_RESOURCE_DIR "${OPTIML_CLANG_RESOURCE_DIR}" CACHE PATH
    "Clang's resource directory (builtin headers)" FORCE)
message(STATUS "OptiML: Clang resource dir ${OPTIML_CLANG_RESOURCE_DIR}")
find_program(OPTIML_FILECHECK FileCheck HINTS "${LLVM_TOOLS_BINARY_DIR}" REQUIRED)
find_program(OPTIML_LIT NAMES lit llvm-lit HINTS "${LLVM_TOOLS_BINARY_DIR}" REQUIRED)

add_library(optiml_clang INTERFACE)
target_include_directories(optiml_clang SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
separate_arguments(_optiml_llvm_defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
target_compile_options(optiml_clang INTERFACE ${_optiml_llvm_defs})

set(OPTIML_CLANG_COMPONENTS
  clangTooling clangToolingCore clangTransformer clangRewrite clangFrontend
  clangDriver clangOptions clangSerialization clangParse clangSema clangAnalysis
  clangASTMatchers clangAST clangEdit clangLex clangBasic clangAPINotes
  clangSupport clangFormat clangToolingInclusions clangToolingInclusionsStdlib
  clangDependencyScanning clangAnalysisLifetimeSafety clangAnalysisFlowSensitive)

if(NOT OPTIML_STATIC AND TARGET clang-cpp AND TARGET LLVM)
  target_link_libraries(optiml_clang INTERFACE clang-cpp LLVM)
else()
  # Every archive by path, in one group: Clang's exported static targets name
  # the LLVM dylib as their dependency, which a static link cannot use.
  set(_archives)
  foreach(_c ${OPTIML_CLANG_COMPONENTS})
    if(TARGET ${_c})
      list(APPEND _archives "$<TARGET_FILE:${_c}>")
    endif()
  endforeach()
  file(GLOB _llvm_archives "${LLVM_LIBRARY_DIR}/libLLVM*.a")
  list(FILTER _llvm_archives EXCLUDE REGEX "libLLVM(BOLT|Exegesis|FuzzerCLI|FuzzMutate|CFIVerify|Polly|TableGen|Diff|LineEditor|Extensions|ABI|LTO|Interpreter|MCJIT|Orc|ExecutionEngine|JITLink).*\\.a$")
  target_link_libraries(optiml_clang INTERFACE
    -Wl,--start-group ${_archives} ${_llvm_archives} -Wl,--end-group
    z zstd pthread dl m)
  if(OPTIML_STATIC)
    target_link_options(optiml_clang INTERFACE -static -static-libgcc -static-libstdc++)
  endif()
endif()
