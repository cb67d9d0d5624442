# dl_embed_kernels(<output.cpp> <namespace> <files...>)
# Turns OpenCL C sources into a C++ translation unit holding each file as a string:
#   namespace <ns> { extern const char* const <stem>; }
# so the marshaling kernels travel inside the library.
function(dl_embed_kernels out ns)
  set(inputs ${ARGN})
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DNS=${ns} "-DINPUTS=${inputs}" -P ${PROJECT_SOURCE_DIR}/cmake/DLEmbedScript.cmake
    DEPENDS ${inputs} ${PROJECT_SOURCE_DIR}/cmake/DLEmbedScript.cmake
    COMMENT "Embedding OpenCL kernels into ${out}"
    VERBATIM)
endfunction()
