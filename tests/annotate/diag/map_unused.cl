// EXIT: 0
// EXPECT: map_unused.cl:15:10: warning: this read of x[f(...)] stays as written: argument 2 of 'f': the kernel assigns parameter 'n'
// EXPECT: map_unused.cl:15:23: warning: this read of x[f(...)] stays as written: argument 2 of 'f': 'm' is not a parameter of the kernel
// EXPECT: map_unused.cl:16:10: warning: this read of x[f(...)] stays as written: argument 2 of 'f': parameter 'fl' is not an integer
// EXPECT: map_unused.cl:11:12: warning: kernel 'k' reads no x[f(...)] that DL can take from a mapped copy: the map is dropped
// UNTRANSFORMED
// A map whose reads all stay as written: the function's other argument a parameter the
// kernel assigns, a variable, a float; an address taken.
int f(int i, int n) { return i * n; }

//DL: map: x[f]
__kernel void k(__global const float* x, __global float* o, int n, float fl) {
  const int m = n + 1;
  o[0] = *&x[f(1, 2)];
  o[1] = x[f(0, n)] + x[f(1, m)];
  o[2] = x[f(2, (int)fl)];
  n = 3;
}
