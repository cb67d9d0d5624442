// ARGS: --Werror
// EXIT: 1
// EXPECT: werror.cl:9:21: error: pointer cast of buffer 'f'
struct foo { float bar; int baz; };

//DL: AoS: f[global_size(0)]
__kernel void k(__global struct foo *f) {
  size_t i = get_global_id(0);
  __global int *x = (__global int *)&f[i];
  *x = 1;
}
