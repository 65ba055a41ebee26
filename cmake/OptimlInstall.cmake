#===- OptimlInstall.cmake - the installed package ------------------------===#
#
# `cmake --install build --prefix P` gives a prefix that works on its own:
#
#   P/bin/clang-optiml
#   P/share/optiml/runtime/            the runner's sources (built by nvcc at
#                                      first use on the GPU machine)
#   P/share/optiml/include/            what the runner includes: the protocol
#                                      headers and nlohmann/json.hpp
#   P/share/optiml/prompts/            the LLM prompt templates
#   P/lib/clang/<major>/include/       Clang's builtin headers, when
#                                      OPTIML_INSTALL_CLANG_HEADERS (the
#                                      static bundle: no LLVM where it runs)
#   P/lib/cmake/OptiML/                find_package(OptiML CONFIG) and
#                                      optiml_optimize_kernels()
#
# The tool finds each of these relative to its own binary, so the prefix
# can be moved; scripts/gpu-bundle.sh packs exactly this tree.
#
#===----------------------------------------------------------------------===#

include(CMakePackageConfigHelpers)

option(OPTIML_INSTALL_CLANG_HEADERS
       "Install Clang's builtin headers beside the tool (relocatable prefix)"
       ${OPTIML_STATIC})

set(OPTIML_INSTALL_DATADIR share/optiml)
set(OPTIML_INSTALL_CMAKEDIR lib/cmake/OptiML)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/
        DESTINATION ${OPTIML_INSTALL_DATADIR}/runtime
        USE_SOURCE_PERMISSIONS)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/optiml/Protocol
        DESTINATION ${OPTIML_INSTALL_DATADIR}/include/optiml)
# The whole folder: json.hpp includes its detail/ headers.
install(DIRECTORY ${OPTIML_JSON_INCLUDE_DIR}/nlohmann
        DESTINATION ${OPTIML_INSTALL_DATADIR}/include)
if(OPTIML_INSTALL_CLANG_HEADERS)
  get_filename_component(_optiml_clang_major "${OPTIML_CLANG_RESOURCE_DIR}" NAME)
  install(DIRECTORY ${OPTIML_CLANG_RESOURCE_DIR}/include
          DESTINATION lib/clang/${_optiml_clang_major})
endif()

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/OptiMLConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/OptiMLConfig.cmake
  INSTALL_DESTINATION ${OPTIML_INSTALL_CMAKEDIR})
# 0.x: a minor version may change the cache format or the CMake function.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/OptiMLConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/OptiMLConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/OptiMLConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/OptiML.cmake
              ${CMAKE_CURRENT_LIST_DIR}/OptimlKernelStep.cmake
        DESTINATION ${OPTIML_INSTALL_CMAKEDIR})
