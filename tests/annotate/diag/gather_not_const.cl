// EXIT: 1
// EXPECT: gather_not_const.cl:5:15: error: 'x' of the gather x[col] must point to const: the gathered copy holds what it held when the launch began, so the kernel may not write it
// EXPECT: gather_not_const.cl:10:15: error: 'idx' points to 'float': the index array of a gather holds integers
// A gathered array the kernel could write, an index array of floats.
//DL: gather: x[col]
__kernel void k(__global float* x, __global const int* col) {
  x[col[get_global_id(0)]] += 1.0f;
}

//DL: gather: y[idx]
__kernel void k2(__global const float* y, __global const float* idx, __global float* o) {
  o[0] = y[(int)idx[0]];
}
