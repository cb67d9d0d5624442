# Runs one libFuzzer target for a bounded time on a fresh corpus seeded from the test
# kernels, and fails on any crash, leak, timeout or broken invariant it finds.
#   -DFUZZER=<binary> -DCORPUS=<dir> -DSEEDS=<dir|file>|... -DSECONDS=<n> -DDICT=<file>
#   -DARTIFACTS=<dir> [-DEXTRA=<option>|...]
file(REMOVE_RECURSE "${CORPUS}")
file(MAKE_DIRECTORY "${CORPUS}" "${ARTIFACTS}")
string(REPLACE "|" ";" seeds "${SEEDS}")
set(n 0)
foreach(s IN LISTS seeds)
  if(IS_DIRECTORY "${s}")
    file(GLOB files "${s}/*.cl")
  else()
    set(files "${s}")
  endif()
  foreach(f IN LISTS files)
    math(EXPR n "${n} + 1")
    get_filename_component(name "${f}" NAME)
    configure_file("${f}" "${CORPUS}/seed-${n}-${name}" COPYONLY)
  endforeach()
endforeach()
if(n EQUAL 0)
  message(FATAL_ERROR "no seed inputs found in ${SEEDS}")
endif()
string(REPLACE "|" ";" extra "${EXTRA}")
execute_process(
  COMMAND "${FUZZER}" -max_total_time=${SECONDS} -print_final_stats=1 -dict=${DICT}
          -artifact_prefix=${ARTIFACTS}/ ${extra} "${CORPUS}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" runs "${out}")
string(REGEX MATCH "stat::new_units_added: *[0-9]+" added "${out}")
message(STATUS "${n} seeds; ${runs}; ${added}")
if(NOT rc EQUAL 0)
  string(LENGTH "${out}" len)
  if(len GREATER 12000)
    math(EXPR from "${len} - 12000")
    string(SUBSTRING "${out}" ${from} -1 out)
  endif()
  message(FATAL_ERROR "${FUZZER} found a problem (exit ${rc}); the input is in ${ARTIFACTS}:\n${out}")
endif()
