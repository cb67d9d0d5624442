// ARGS: --layout=DA
// INPUT: ../golden/diagonal.cl
// EXIT: 1
// EXPECT: error: 'a': --layout cannot replace a diagonal target (its rows are the annotation's dimensions)
