# ctest clapi.entry_points_def_is_current: regenerates entry_points.def from the installed
# CL/cl_icd.h into the build tree and compares it with the committed file.
#   cmake -DPYTHON=... -DHEADER=.../CL/cl_icd.h -DOUT=... -DCOMMITTED=... -P check_entry_points.cmake
execute_process(COMMAND ${PYTHON} ${CMAKE_CURRENT_LIST_DIR}/gen_entry_points.py ${HEADER} -o ${OUT}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gen_entry_points.py failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${COMMITTED} ${OUT} RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  execute_process(COMMAND diff -u ${COMMITTED} ${OUT})
  message(FATAL_ERROR "${COMMITTED} is not what gen_entry_points.py makes of ${HEADER}; "
                      "regenerate it: python3 src/clapi/gen_entry_points.py ${HEADER} -o src/clapi/entry_points.def")
endif()
