# Copies INPUT to OUTPUT without its //DL: lines (the kernels as nobody annotated them): each
# becomes an empty line. The text is never split into a CMake list (a ';' or a '[' in a
# line would change it).
file(READ "${INPUT}" text)
string(REGEX REPLACE "(^|\n)[ \t]*//DL:[^\n]*" "\\1" text "${text}")
file(WRITE "${OUTPUT}" "${text}")
