// EXIT: 0
// EXPECT: map_unused.cl:17:10: warning: this read of x[f(...)] stays as written: argument 2 of 'f': the kernel assigns parameter 'n'
// EXPECT: map_unused.cl:17:23: warning: this read of x[f(...)] stays as written: argument 2 of 'f': 'm' is not a parameter of the kernel
// EXPECT: map_unused.cl:18:10: warning: this read of x[f(...)] stays as written: argument 2 of 'f': parameter 'fl' is not an integer
// EXPECT: map_unused.cl:13:12: warning: kernel 'k' reads no x[f(...)] that DL can take from a mapped copy: the map is dropped
// EXPECT: map_unused.cl:26:10: warning: this read of x[at(...)] stays as written: the first parameter of 'at' is not an integer (the map kernel passes i)
// EXPECT: map_unused.cl:24:12: warning: kernel 'k2' reads no x[at(...)] that DL can take from a mapped copy: the map is dropped
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

// The first parameter of the function is not an integer: the map kernel could not call it.
int at(__global const float* p, int n) { return n; }
//DL: map: x[at]
__kernel void k2(__global const float* x, __global float* o) {
  o[0] = x[at(x, 1)];
}
