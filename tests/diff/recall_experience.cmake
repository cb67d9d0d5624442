# The differential tester's chunk for the controller's experience (docs/runtime.md,
# "Experience"). A first pass of the cases under DL_POLICY=auto leaves experience.json in
# DL_CACHE_DIR (every kernel launched there has its AoS time); every entry is then made to
# say "converting pays from the first launch of an epoch", with an AoS time no measurement
# can overturn; a second pass of the same cases recalls it, so every kernel DL knows
# converts at its first launch, its program built in the background and waited for (on a
# device calibrated as one where converting may pay). The driver compares bytes as in
# every chunk. The ENVIRONMENT of the test sets DL_POLICY and
# DL_CACHE_DIR.
#   cmake -DDRIVER=<dl_diff_driver> -DARGS=<its arguments, a list> -DCACHE=<dir>
#         -DWORK=<dir> -P recall_experience.cmake
file(REMOVE_RECURSE ${CACHE} ${WORK})

function(pass name)
  execute_process(COMMAND ${DRIVER} ${ARGS} --work ${WORK}/${name} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the tester's ${name} pass failed (${rc})")
  endif()
endfunction()

# Calls `body` (a macro name) for each entry: with `dev` and `key` set.
macro(for_each_entry body)
  string(JSON ndev LENGTH "${text}" devices)
  math(EXPR lastdev "${ndev} - 1")
  foreach(d RANGE ${lastdev})
    string(JSON dev MEMBER "${text}" devices ${d})
    string(JSON nkey LENGTH "${text}" devices "${dev}")
    math(EXPR lastkey "${nkey} - 1")
    foreach(k RANGE ${lastkey})
      string(JSON key MEMBER "${text}" devices "${dev}" ${k})
      cmake_language(CALL ${body})
    endforeach()
  endforeach()
endmacro()

pass(learn)
file(READ ${CACHE}/experience.json text)
set(entries 0)
macro(make_it_pay)
  string(JSON text SET "${text}" devices "${dev}" "${key}"
         [[{"aos_ns": 1e9, "transformed_ns": 1, "round_trip_ns": 1, "epoch_launches": 100, "never": false}]])
  math(EXPR entries "${entries} + 1")
endmacro()
for_each_entry(make_it_pay)
if(entries EQUAL 0)
  message(FATAL_ERROR "the first pass left no experience to recall: ${text}")
endif()
file(WRITE ${CACHE}/experience.json "${text}")
message(STATUS "${entries} kernels recalled as paying from their first launch")
# And a calibration of each device that lets DL build (a loaded machine may measure its
# probe kernel too close on both layouts, and then DL builds nothing at all) but makes
# conversions cost days: a rule without experience never converts, so the kernels that
# run transformed in the second pass are the recalled ones.
set(calibration [[{"format": 1, "devices": {}}]])
string(JSON ndev LENGTH "${text}" devices)
math(EXPR lastdev "${ndev} - 1")
foreach(d RANGE ${lastdev})
  string(JSON dev MEMBER "${text}" devices ${d})
  string(JSON calibration SET "${calibration}" devices "${dev}"
         [[{"may_pay": true, "tile": 32, "to_layout_bytes_per_ns": 1e-6, "to_aos_bytes_per_ns": 1e-6,
            "aos_probe_ns": 2, "asta_probe_ns": 1, "seconds": 0}]])
endforeach()
file(WRITE ${CACHE}/calibration.json "${calibration}")

pass(recall)
# The kernels that ran transformed in the second pass measured their own t.
file(READ ${CACHE}/experience.json text)
set(measured 0)
macro(count_measured)
  string(JSON t GET "${text}" devices "${dev}" "${key}" transformed_ns)
  if(NOT t EQUAL 1)
    math(EXPR measured "${measured} + 1")
  endif()
endmacro()
for_each_entry(count_measured)
if(measured EQUAL 0)
  message(FATAL_ERROR "no kernel ran transformed in the recalling pass: ${text}")
endif()
message(STATUS "${measured} of them ran transformed and were measured")
