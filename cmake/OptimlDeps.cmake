#===- OptimlDeps.cmake - third-party dependencies ------------------------===#
#
# The CUDA toolkit (CUDA_PATH overrides), nlohmann_json, CURL and SQLite3.
# The static GPU bundle links SQLite statically and leaves CURL out (the
# LLM client is not part of it); the full tool requires both.
#
#===----------------------------------------------------------------------===#

if(DEFINED ENV{CUDA_PATH} AND NOT CUDAToolkit_ROOT)
  set(CUDAToolkit_ROOT "$ENV{CUDA_PATH}")
endif()
find_package(CUDAToolkit REQUIRED)
get_filename_component(OPTIML_CUDA_PATH "${CUDAToolkit_BIN_DIR}/.." ABSOLUTE)
message(STATUS "OptiML: CUDA ${CUDAToolkit_VERSION} at ${OPTIML_CUDA_PATH}")

find_package(nlohmann_json 3.9 REQUIRED)
find_package(SQLite3 REQUIRED)
if(OPTIML_STATIC)
  # FindSQLite3 picks the shared library, which a -static link cannot use.
  find_library(OPTIML_SQLITE3_ARCHIVE NAMES libsqlite3.a REQUIRED)
  set_target_properties(SQLite::SQLite3 PROPERTIES
                        IMPORTED_LOCATION "${OPTIML_SQLITE3_ARCHIVE}")
endif()
if(NOT OPTIML_STATIC)
  find_package(CURL REQUIRED)
endif()
# The runner is built on the GPU machine and needs the same header there.
get_target_property(OPTIML_JSON_INCLUDE_DIR nlohmann_json::nlohmann_json
                    INTERFACE_INCLUDE_DIRECTORIES)
list(GET OPTIML_JSON_INCLUDE_DIR 0 OPTIML_JSON_INCLUDE_DIR)
