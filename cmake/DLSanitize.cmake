# DL_SANITIZE=address,undefined | thread (setup.sh sanitize): every target of the build
# is instrumented, test programs and examples included. The one exception to "no
# directory-wide flags": libdl_interpose.so needs the sanitizer runtime loaded before it,
# and an instrumented executable brings it.
if(DL_SANITIZE)
  string(REPLACE "," ";" dl_sanitizers "${DL_SANITIZE}")
  foreach(s ${dl_sanitizers})
    if(NOT s MATCHES "^(address|undefined|thread)$")
      message(FATAL_ERROR "DL_SANITIZE: '${s}' is not one of address, undefined, thread")
    endif()
  endforeach()
  if("thread" IN_LIST dl_sanitizers AND "address" IN_LIST dl_sanitizers)
    message(FATAL_ERROR "DL_SANITIZE: address and thread cannot be combined")
  endif()
  add_compile_options(-fsanitize=${DL_SANITIZE} -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${DL_SANITIZE})
  # Clang links its ASan runtime statically into executables by default; libdl_interpose.so
  # and the test programs that load it must share one runtime, a shared one, as with GCC.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND "address" IN_LIST dl_sanitizers)
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libclang_rt.asan-x86_64.so
                    OUTPUT_VARIABLE asan_rt OUTPUT_STRIP_TRAILING_WHITESPACE)
    get_filename_component(asan_rt_dir "${asan_rt}" DIRECTORY)
    add_link_options(-shared-libasan "LINKER:-rpath,${asan_rt_dir}")
  endif()
  message(STATUS "DL_SANITIZE: building with -fsanitize=${DL_SANITIZE}")
endif()
