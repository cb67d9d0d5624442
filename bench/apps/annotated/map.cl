// Reads through an index function, as an application writes them (user-defined maps):
// work-item i reads x[f(i)] with f a permutation the program computes, so consecutive
// work-items read scattered elements. With `map: x[f]` DL reads element i of a copy of x
// holding x[f(i)] at i, made on the device by the map kernel dl-annotate writes from f,
// and kept until x (or f's arguments) change: the kernel then reads x in order.

// Bit reversal of the low `bits` bits of i (an FFT's input order).
uint bitrev(uint i, uint bits) {
  i = ((i >> 1) & 0x55555555u) | ((i & 0x55555555u) << 1);
  i = ((i >> 2) & 0x33333333u) | ((i & 0x33333333u) << 2);
  i = ((i >> 4) & 0x0F0F0F0Fu) | ((i & 0x0F0F0F0Fu) << 4);
  i = ((i >> 8) & 0x00FF00FFu) | ((i & 0x00FF00FFu) << 8);
  i = (i >> 16) | (i << 16);
  return bits ? i >> (32u - bits) : 0u;
}

// Element i of a rows x cols matrix read in column-major order from its row-major storage.
uint transposed(uint i, uint rows, uint cols) { return (i % rows) * cols + i / rows; }

//DL: map: x:float[bitrev(bits)]
#ifdef DL_ASTA_T
__kernel void scale_bitrev(__global const float* x, __global float* y, uint n, uint bits,
                           float a, __global const float* dl_map_x, ulong dl_mapn_x) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  y[i] = a * ((i) < dl_mapn_x ? dl_map_x[i] : x[bitrev(i, bits)]) + 1.0f;
}

/* DL: the copy of x that scale_bitrev reads as x[bitrev(i, ...)] at i. */
__kernel void dl_map12_scale_bitrev_x(__global const float* dl_x, __global float* dl_copy, ulong dl_n, uint bits) {
  const ulong dl_i = get_global_id(0);
  if (dl_i >= dl_n) return;
  const ulong dl_j = (ulong)(bitrev(dl_i, bits));
  dl_copy[dl_i] = dl_j < dl_n ? dl_x[dl_j] : (float)0;
}
#else
__kernel void scale_bitrev(__global const float* x, __global float* y, uint n, uint bits,
                           float a) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  y[i] = a * x[bitrev(i, bits)] + 1.0f;
}
#endif

//DL: map: x:float[transposed(rows, cols)]
#ifdef DL_ASTA_T
__kernel void scale_transposed(__global const float* x, __global float* y, uint n, uint rows,
                               uint cols, float a, __global const float* dl_map_x, ulong dl_mapn_x) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  y[i] = a * ((i) < dl_mapn_x ? dl_map_x[i] : x[transposed(i, rows, cols)]) + 1.0f;
}

/* DL: the copy of x that scale_transposed reads as x[transposed(i, ...)] at i. */
__kernel void dl_map16_scale_transposed_x(__global const float* dl_x, __global float* dl_copy, ulong dl_n, uint rows, uint cols) {
  const ulong dl_i = get_global_id(0);
  if (dl_i >= dl_n) return;
  const ulong dl_j = (ulong)(transposed(dl_i, rows, cols));
  dl_copy[dl_i] = dl_j < dl_n ? dl_x[dl_j] : (float)0;
}
#else
__kernel void scale_transposed(__global const float* x, __global float* y, uint n, uint rows,
                               uint cols, float a) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  y[i] = a * x[transposed(i, rows, cols)] + 1.0f;
}
#endif
