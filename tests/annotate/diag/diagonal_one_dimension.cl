// EXIT: 1
// EXPECT: error: a diagonal target diagonalizes the two fastest dimensions of a flat array of scalars, all dimensions given: a:float[nz][ny][nx] -> DIAG
// A diagonal layout needs the plane's two dimensions.

//DL: AoS: a:float[n] -> DIAG
__kernel void k(__global float *a, int n) { a[get_global_id(0)] = 1.0f; }
