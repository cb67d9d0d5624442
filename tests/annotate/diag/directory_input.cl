// INPUT: .
// EXIT: 1
// EXPECT: dl-annotate: error: cannot read '.': it is a directory
// A directory as the input is an error, and no output file is written.
__kernel void k(__global float *g) { g[0] = 1.0f; }
