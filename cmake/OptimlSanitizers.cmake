#===- OptimlSanitizers.cmake - sanitizer and fuzzer builds ---------------===#
#
# Two kinds of build beside the normal one, each in its own build folder:
#
#  OPTIML_SANITIZE  everything (tool, libraries, unit tests) under
#                   AddressSanitizer and UndefinedBehaviorSanitizer; undefined
#                   behaviour stops the program, so a test that reaches it
#                   fails. scripts/sanitize.sh configures and runs it.
#  OPTIML_FUZZ      only the layers the spec readers need, with coverage
#                   instrumentation and AddressSanitizer, and the libFuzzer
#                   target tools/optiml-spec-fuzzer. Needs Clang (libFuzzer is
#                   Clang's); scripts/fuzz.sh configures and runs it.
#
# LLVM and Clang themselves are Debian's shared libraries, not instrumented:
# the sanitizers check OptiML's code and what it does with theirs.
#
#===----------------------------------------------------------------------===#

if(OPTIML_SANITIZE AND OPTIML_FUZZ)
  message(FATAL_ERROR "OPTIML_SANITIZE and OPTIML_FUZZ are separate builds: "
                      "configure one folder for each")
endif()

if(OPTIML_SANITIZE)
  # -O0, after the build type's -O3 so that it wins: most of the tool's time
  # is spent in Clang's own (optimized, uninstrumented) libraries, and
  # OptiML's code compiles much faster unoptimized under the sanitizers,
  # which on two cores is what decides whether the build is usable.
  add_compile_options(-O0 -fsanitize=address,undefined
                      -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
  message(STATUS "OptiML: AddressSanitizer and UndefinedBehaviorSanitizer build")
endif()

if(OPTIML_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "OPTIML_FUZZ needs Clang for libFuzzer; configure "
                        "with -DCMAKE_CXX_COMPILER=clang++-22 "
                        "(scripts/fuzz.sh does)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address
                      -fno-omit-frame-pointer -g1)
  add_link_options(-fsanitize=address)
  message(STATUS "OptiML: spec fuzzer build (libFuzzer, AddressSanitizer)")
endif()
