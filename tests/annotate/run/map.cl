// Run-equivalence: reads x[fn(e, ...)] from the copy the DL build's map kernel makes.
struct edge {
  float w;
  int to;
};

uint bitrev(uint i, uint bits) {
  uint r = 0;
  for (uint b = 0; b < bits; ++b) r |= ((i >> b) & 1u) << (bits - 1u - b);
  return r;
}

//TEST: reorder 1024 args: fbuf:1024 fbuf:1024 uint:10
//DL: map: x[bitrev]
__kernel void reorder(__global const float* x, __global float* y, uint bits) {
  const uint i = get_global_id(0);
  y[i] = x[bitrev(i, bits)] * 2.0f + x[i];
}

// More work-items than x has elements: reads past the copy take x itself; the map's
// arguments are an expression of two parameters and a literal; with an AoS: clause.
int wrap(int i, int n, int s) { return (i * s + 3) % n; }

//TEST: wrapped 1500 args: buf fbuf:1000 fbuf:1500 int:500 int:7
//DL: AoS: const e[global_size(0)]; map: v[wrap]
__kernel void wrapped(__global const struct edge* e, __global const float* v, __global float* out,
                      int h, int s) {
  const int i = get_global_id(0);
  out[i] = e[i].w * v[wrap(i, 2 * h, s + 1)] + v[wrap(e[i].to % 100, 2 * h, s + 1)];
}

// Names that met before: the map kernels of kernels a_b (array c) and a (array b_c) were
// both dl_map_a_b_c, and the count of y and the copy of n_y both dl_map_n_y.
int shift1(int i, int n) { return (i + 1) % n; }

//TEST: a_b 64 args: fbuf:64 fbuf:64 int:64
//DL: map: c[shift1]
__kernel void a_b(__global const float* c, __global float* o, int n) {
  const int i = get_global_id(0);
  o[i] = c[shift1(i, n)] + 1.0f;
}

//TEST: a 64 args: fbuf:64 fbuf:64 fbuf:64 int:64
//DL: map: b_c[shift1], n_y[shift1]
__kernel void a(__global const float* b_c, __global const float* n_y, __global float* o, int n) {
  const int i = get_global_id(0);
  o[i] = b_c[shift1(i, n)] * n_y[shift1(i + 1, n)];
}

//TEST: two 64 args: fbuf:64 fbuf:64 fbuf:64 int:64
//DL: map: y[shift1], n_y[shift1]
__kernel void two(__global const float* y, __global const float* n_y, __global float* o, int n) {
  const int i = get_global_id(0);
  o[i] = y[shift1(i, n)] - n_y[shift1(i, n)];
}
