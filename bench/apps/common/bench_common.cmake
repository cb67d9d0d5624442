# Shared by DL's benchmarks: the header-only helpers (dl_bench_common) and nlohmann_json,
# found as a CMake package or, where only the headers were carried to a machine, as a
# header under CMAKE_PREFIX_PATH (<prefix>/include/nlohmann/json.hpp).
if(NOT TARGET dl_bench_common)
  add_library(dl_bench_common INTERFACE)
  target_include_directories(dl_bench_common INTERFACE ${CMAKE_CURRENT_LIST_DIR})
  target_link_libraries(dl_bench_common INTERFACE OpenCL::OpenCL)
endif()
if(NOT TARGET nlohmann_json::nlohmann_json)
  find_package(nlohmann_json 3 CONFIG QUIET)
endif()
if(NOT TARGET nlohmann_json::nlohmann_json)
  find_path(DL_NLOHMANN_JSON_INCLUDE nlohmann/json.hpp)
  if(DL_NLOHMANN_JSON_INCLUDE)
    add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED GLOBAL)
    target_include_directories(nlohmann_json::nlohmann_json INTERFACE ${DL_NLOHMANN_JSON_INCLUDE})
  endif()
endif()
