# Finds the libFuzzer toolchain for DL_BUILD_FUZZERS: clang++-14 (or DL_FUZZ_CXX) that
# links a -fsanitize=fuzzer,address,undefined program (Debian: clang-14 and
# libclang-rt-14-dev). Sets DL_FUZZ_FOUND; the check runs once per build tree.
find_program(DL_FUZZ_CXX NAMES clang++-14 DOC "C++ compiler of the libFuzzer sub-build")
find_program(DL_FUZZ_CC NAMES clang-14 DOC "C compiler of the libFuzzer sub-build")
if(NOT DEFINED CACHE{DL_FUZZ_WORKS})
  set(works OFF)
  if(DL_FUZZ_CXX AND DL_FUZZ_CC)
    set(dir ${CMAKE_BINARY_DIR}/CMakeFiles/dl_fuzz_check)
    file(WRITE ${dir}/check.cpp
         "#include <cstddef>\n#include <cstdint>\n"
         "extern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n")
    execute_process(COMMAND ${DL_FUZZ_CXX} -fsanitize=fuzzer,address,undefined ${dir}/check.cpp
                            -o ${dir}/check RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    if(rc EQUAL 0)
      set(works ON)
    endif()
  endif()
  set(DL_FUZZ_WORKS ${works} CACHE INTERNAL "clang++-14 links libFuzzer programs")
  if(works)
    message(STATUS "libFuzzer: ${DL_FUZZ_CXX} (DL_BUILD_FUZZERS defaults to ON)")
  else()
    message(STATUS "libFuzzer: not found (needs clang-14 and libclang-rt-14-dev); no fuzzers")
  endif()
endif()
set(DL_FUZZ_FOUND ${DL_FUZZ_WORKS})
