// ARGS: --auto
// Zero-touch maps: a kernel nobody annotated that reads x[fn(e, ...)], x const, fn a
// function of the program returning an integer and e stepping with the work-item, gets
// `map: x[fn]`. A read whose e does not step with the work-item, of an array the kernel
// may write, or through a built-in function, gets no map; a map whose other arguments
// are not fixed for the launch is dropped (a remark says why).

uint bitrev(uint i, uint bits) {
  uint r = 0;
  for (uint b = 0; b < bits; ++b) r |= ((i >> b) & 1u) << (bits - 1u - b);
  return r;
}
int wrap(int i, int n) { return (i + n / 2) % n; }

// Through a bit reversal and a wrap: both mapped.
//DL: map: x:float[bitrev(bits)], z:float2[wrap(n)]
#ifdef DL_ASTA_T
__kernel void reorder(__global const float *x, __global const float2 *z, __global float *y,
                      uint bits, int n, __global const float* dl_map_x, ulong dl_mapn_x, __global const float2* dl_map_z, ulong dl_mapn_z) {
  const uint i = get_global_id(0);
  y[i] = ((i) < dl_mapn_x ? dl_map_x[i] : x[bitrev(i, bits)]) + ((i + 1) < dl_mapn_z ? dl_map_z[i + 1] : z[wrap(i + 1, n)]).y;
}

/* DL: the copy of x that reorder reads as x[bitrev(i, ...)] at i. */
__kernel void dl_map7_reorder_x(__global const float* dl_x, __global float* dl_copy, ulong dl_n, uint bits) {
  const ulong dl_i = get_global_id(0);
  if (dl_i >= dl_n) return;
  const ulong dl_j = (ulong)(bitrev(dl_i, bits));
  dl_copy[dl_i] = dl_j < dl_n ? dl_x[dl_j] : (float)0;
}

/* DL: the copy of z that reorder reads as z[wrap(i, ...)] at i. */
__kernel void dl_map7_reorder_z(__global const float2* dl_x, __global float2* dl_copy, ulong dl_n, int n) {
  const ulong dl_i = get_global_id(0);
  if (dl_i >= dl_n) return;
  const ulong dl_j = (ulong)(wrap(dl_i, n));
  dl_copy[dl_i] = dl_j < dl_n ? dl_x[dl_j] : (float2)0;
}
#else
__kernel void reorder(__global const float *x, __global const float2 *z, __global float *y,
                      uint bits, int n) {
  const uint i = get_global_id(0);
  y[i] = x[bitrev(i, bits)] + z[wrap(i + 1, n)].y;
}
#endif

// No map: e is a loop counter, the array is written, a built-in function.
__kernel void none(__global const float *x, __global float *w, __global const float *v,
                   __global float *y, uint bits, int n) {
  const uint i = get_global_id(0);
  float s = 0.0f;
  for (uint k = 0; k < bits; ++k) s += x[bitrev(k, bits)];
  w[wrap(i, n)] += 1.0f;
  y[i] = s + v[min(i, (uint)n)];
}

// The map's other argument changes in the kernel: dropped, the kernel as written.
__kernel void moving(__global const float *x, __global float *y, int n) {
  const int i = get_global_id(0);
  n = n + 1;
  y[i] = x[wrap(i, n)];
}
