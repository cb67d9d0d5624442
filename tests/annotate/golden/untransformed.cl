// A kernel the tool cannot prove: left untransformed, its annotation disabled.
struct foo {
  float bar;
  int baz;
};

//DL: AoS: f[global_size(0)]
__kernel void raw(__global struct foo *f) {
  __global float *x = (__global float *)f;
  x[2 * get_global_id(0)] = 1.0f;
}
