// EXIT: 0
// EXPECT: gather_unused.cl:6:15: warning: kernel 'k' reads no x[col[...]] that DL can take from a gathered copy: the gather is dropped
// UNTRANSFORMED
// A gather whose array is read only through its address and another index: nothing to
// take from a copy, so the kernel stays as written.
//DL: gather: x[col]
__kernel void k(__global const float* x, __global const int* col, __global float* o) {
  const int i = get_global_id(0);
  o[i] = *(&x[col[i]] + 1) + x[col[i] + 1];
}
