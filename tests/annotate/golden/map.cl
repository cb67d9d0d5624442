// map: reads x[fn(e, ...)] take element e of a copy of x that the map kernel
// dl_map<len>_<kernel>_<x> fills with x[fn(i, ...)] at i; past the copy (e not below
// dl_mapn_x) the read stays x[fn(e, ...)]. Other reads of x stay as written.

// Bit reversal of the low `bits` bits of i: an FFT's input order.
uint bitrev(uint i, uint bits) {
  uint r = 0;
  for (uint b = 0; b < bits; ++b) r |= ((i >> b) & 1u) << (bits - 1u - b);
  return r;
}

//DL: map: x[bitrev]
__kernel void reorder(__global const float2* x, __global float2* y, uint bits) {
  const uint i = get_global_id(0);
  y[i] = x[bitrev(i, bits)] + x[i];  // x[i]: not through bitrev, as written
}

// A transposed read of an n x m matrix, with an AoS: clause; the map's arguments are
// literals and parameters; an address taken, a read with other arguments and one whose
// index has side effects stay as written (each with a warning).
inline int column_major(int i, int n, int m) { return (i % n) * m + i / n; }

struct pt {
  float x, y;
};

//DL: AoS: const p[*]; map: a[column_major]
__kernel void sums(__global const float* a, __global const struct pt* p, __global float* out,
                   int n, int m, int k) {
  int i = get_global_id(0);
  __global const float* q = &a[column_major(i, n, m)];
  out[i] = p[i].y + a[column_major(i, n, m)] + a[column_major(i + 1, n, m)] + *q +
           a[column_major(i, n, 2 * m)];
  float s = a[column_major(i++, n, m)];
  out[i] += s + (float)k;
}
