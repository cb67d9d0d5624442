# dl_annotate(): run dl-annotate over OpenCL C kernel files in a build.
#
#   dl_annotate(OUTPUT_VAR <var> SOURCES <a.cl> [<b.cl> ...]
#               [OPTIONS <dl-annotate options, e.g. -DN=4 -Iinc --layout=da>]
#               [OUTPUT_DIR <dir>]           # default: ${CMAKE_CURRENT_BINARY_DIR}/dl-annotated
#               [MARSHAL_VAR <var>]          # also write <name>.marshal.cl per source
#               [REPORT]                     # also write <name>.report.txt per source
#               [TARGET <name>]              # a target (built by ALL) producing the outputs
#               [DEPENDS <files...>])        # extra dependencies (included headers...)
#
# <var> receives the rewritten files (same file names, in OUTPUT_DIR). Each is produced
# by a custom command that depends on the tool and on its input, so editing a kernel
# or rebuilding dl-annotate regenerates it. Works in the DL source tree (target
# dl-annotate) and from an installed package (find_package(DL): dl::dl-annotate).
# See docs/annotation.md.
include_guard(GLOBAL)

function(dl_annotate)
  cmake_parse_arguments(DLA "REPORT" "OUTPUT_VAR;OUTPUT_DIR;MARSHAL_VAR;TARGET" "SOURCES;OPTIONS;DEPENDS"
                        ${ARGN})
  if(DLA_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "dl_annotate: unknown arguments: ${DLA_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT DLA_OUTPUT_VAR OR NOT DLA_SOURCES)
    message(FATAL_ERROR "dl_annotate: OUTPUT_VAR and SOURCES are required")
  endif()
  # The tool: the in-tree target, else the imported one of an installed DL package.
  set(tool "")
  if(TARGET dl-annotate)
    get_target_property(imported dl-annotate IMPORTED)
    if(NOT imported)
      set(tool dl-annotate)
      set(tool_dep dl-annotate)
    endif()
  endif()
  if(NOT tool AND TARGET dl::dl-annotate)
    set(tool dl::dl-annotate)
    set(tool_dep "$<TARGET_FILE:dl::dl-annotate>")
  endif()
  if(NOT tool)
    message(FATAL_ERROR "dl_annotate: dl-annotate is not available (configure DL with "
                        "DL_BUILD_ANNOTATOR=ON, or find_package(DL) an installation that has it). "
                        "Annotated kernels must not be used without it: the runtime would marshal "
                        "buffers for kernels that were not rewritten.")
  endif()
  if(NOT DLA_OUTPUT_DIR)
    set(DLA_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/dl-annotated")
  endif()
  file(MAKE_DIRECTORY "${DLA_OUTPUT_DIR}")
  set(outputs "")
  set(marshal_outputs "")
  foreach(src IN LISTS DLA_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(name "${src}" NAME)
    get_filename_component(stem "${src}" NAME_WLE)
    set(out "${DLA_OUTPUT_DIR}/${name}")
    set(byproducts "${out}")
    set(extra "")
    if(DLA_MARSHAL_VAR)
      set(m "${DLA_OUTPUT_DIR}/${stem}.marshal.cl")
      list(APPEND extra "--marshal-out=${m}")
      list(APPEND byproducts "${m}")
      list(APPEND marshal_outputs "${m}")
    endif()
    if(DLA_REPORT)
      set(r "${DLA_OUTPUT_DIR}/${stem}.report.txt")
      list(APPEND extra "--report-out=${r}")
      list(APPEND byproducts "${r}")
    endif()
    add_custom_command(
      OUTPUT ${byproducts}
      COMMAND "$<TARGET_FILE:${tool}>" ${DLA_OPTIONS} ${extra} -o "${out}" "${abs}"
      DEPENDS "${abs}" ${tool_dep} ${DLA_DEPENDS}
      COMMENT "dl-annotate ${name}"
      VERBATIM)
    list(APPEND outputs "${out}")
  endforeach()
  if(DLA_TARGET)
    add_custom_target(${DLA_TARGET} ALL DEPENDS ${outputs} ${marshal_outputs})
  endif()
  set(${DLA_OUTPUT_VAR} "${outputs}" PARENT_SCOPE)
  if(DLA_MARSHAL_VAR)
    set(${DLA_MARSHAL_VAR} "${marshal_outputs}" PARENT_SCOPE)
  endif()
endfunction()
