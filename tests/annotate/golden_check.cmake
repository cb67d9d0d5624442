# Runs dl-annotate on INPUT and compares its output with EXPECTED, byte for byte.
# A line `// ARGS: <options>` in INPUT passes options (-D...) to dl-annotate.
get_filename_component(dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
file(STRINGS "${INPUT}" lines REGEX "^// ARGS: ")
set(args "")
foreach(l IN LISTS lines)
  string(REGEX REPLACE "^// ARGS: " "" l "${l}")
  separate_arguments(a UNIX_COMMAND "${l}")
  list(APPEND args ${a})
endforeach()
execute_process(COMMAND "${TOOL}" ${args} -o "${OUTPUT}" "${INPUT}" RESULT_VARIABLE rc
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dl-annotate failed (${rc}) on ${INPUT}:\n${err}")
endif()
file(READ "${OUTPUT}" got)
file(READ "${EXPECTED}" want)
if(NOT got STREQUAL want)
  execute_process(COMMAND diff -u "${EXPECTED}" "${OUTPUT}" OUTPUT_VARIABLE d)
  message(FATAL_ERROR "output differs from ${EXPECTED} (regenerate with tests/annotate/update-goldens.sh "
                      "if the change is intended):\n${d}")
endif()
