# Copies INPUT to OUTPUT without its //DL: lines (the kernels as nobody annotated them).
file(STRINGS "${INPUT}" lines)
set(text "")
foreach(l IN LISTS lines)
  if(NOT l MATCHES "^[ \t]*//DL:")
    string(APPEND text "${l}\n")
  endif()
endforeach()
file(WRITE "${OUTPUT}" "${text}")
