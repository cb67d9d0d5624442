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
  message(STATUS "DL_SANITIZE: building with -fsanitize=${DL_SANITIZE}")
endif()
