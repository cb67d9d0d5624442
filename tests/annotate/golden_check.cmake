# Runs dl-annotate on INPUT and compares its output with EXPECTED, byte for byte.
get_filename_component(dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
execute_process(COMMAND "${TOOL}" -o "${OUTPUT}" "${INPUT}" RESULT_VARIABLE rc ERROR_VARIABLE err)
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
