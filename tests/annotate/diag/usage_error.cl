// ARGS: --layout=diagonal
// EXIT: 2
// EXPECT: dl-annotate: error: unknown layout 'diagonal'
__kernel void k(__global float *g) { g[0] = 1.0f; }
