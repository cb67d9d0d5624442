// EXIT: 0
// UNTRANSFORMED
// EXPECT: pointer_cast.cl:9:23: warning: pointer cast of buffer 'f'
// EXPECT: warning: kernel 'k' is left untransformed
struct foo { float bar; int baz; };

//DL: AoS: f[global_size(0)]
__kernel void k(__global struct foo *f) {
  __global float *x = (__global float *)f;
  x[2 * get_global_id(0)] = 1.0f;
}
