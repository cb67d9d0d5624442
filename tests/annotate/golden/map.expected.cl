// map: reads x[fn(e, ...)] take element e of a copy of x that the map kernel
// dl_map<len>_<kernel>_<x> fills with x[fn(i, ...)] at i; past the copy (e not below
// dl_mapn_x) the read stays x[fn(e, ...)]. Other reads of x stay as written.

// Bit reversal of the low `bits` bits of i: an FFT's input order.
uint bitrev(uint i, uint bits) {
  uint r = 0;
  for (uint b = 0; b < bits; ++b) r |= ((i >> b) & 1u) << (bits - 1u - b);
  return r;
}

//DL: map: x:float2[bitrev(bits)]
#ifdef DL_ASTA_T
__kernel void reorder(__global const float2* x, __global float2* y, uint bits, __global const float2* dl_map_x, ulong dl_mapn_x) {
  const uint i = get_global_id(0);
  y[i] = ((i) < dl_mapn_x ? dl_map_x[i] : x[bitrev(i, bits)]) + x[i];  // x[i]: not through bitrev, as written
}

/* DL: the copy of x that reorder reads as x[bitrev(i, ...)] at i. */
__kernel void dl_map7_reorder_x(__global const float2* dl_x, __global float2* dl_copy, ulong dl_n, uint bits) {
  const ulong dl_i = get_global_id(0);
  if (dl_i >= dl_n) return;
  const ulong dl_j = (ulong)(bitrev(dl_i, bits));
  dl_copy[dl_i] = dl_j < dl_n ? dl_x[dl_j] : (float2)0;
}
#else
__kernel void reorder(__global const float2* x, __global float2* y, uint bits) {
  const uint i = get_global_id(0);
  y[i] = x[bitrev(i, bits)] + x[i];  // x[i]: not through bitrev, as written
}
#endif

// A transposed read of an n x m matrix, with an AoS: clause; the map's arguments are
// literals and parameters; an address taken, a read with other arguments and one whose
// index has side effects stay as written (each with a warning).
inline int column_major(int i, int n, int m) { return (i % n) * m + i / n; }

struct pt {
  float x, y;
};

#ifdef DL_ASTA_T
/* dl-annotate: address helpers of the ASTA/DA layouts (docs/annotation.md). */
#ifndef DL_ANNOTATE_HELPERS
#define DL_ANNOTATE_HELPERS
/* Indices, divisions and compares in 32 bits unless DL_OFFSET64 is defined (64-bit
   integer arithmetic costs GPUs several instructions per operation, yet some
   kernels run faster with it: DL's runtime builds both and keeps the faster per
   kernel; a buffer of 4 GiB or more needs DL_OFFSET64). Byte offsets are 64-bit,
   each term widened before its multiply, so that address arithmetic in loops
   needs no zero extension of a 32-bit sum. */
#ifdef DL_OFFSET64
typedef ulong dl_off;
#else
typedef uint dl_off;
#endif
/* Byte offset of the slot (offset o, size z) of record i of n records of r bytes,
   tiles of w records; the last, partial tile holds n % w records. Records i >= n
   are outside the marshaled range and keep their AoS address. Linear in o with
   factors fixed per record, which a loop over o strength-reduces. */
static inline ulong dl_tiled(dl_off w, dl_off n, dl_off r, dl_off i, dl_off o,
                             dl_off z) {
  const dl_off b = i < n ? i / w * w : i, m = i < n ? (n - b < w ? n - b : w) : 1;
  return (ulong)b * r + (ulong)m * o + (ulong)(i - b) * z;
}
/* The same for one tile of all n records (DA). */
static inline ulong dl_da(dl_off n, dl_off r, dl_off i, dl_off o, dl_off z) {
  return (ulong)(i < n ? n : 1) * o + (ulong)i * (i < n ? z : r);
}
/* Element x of a flat array of records of s scalars of z bytes. */
static inline ulong dl_flat(dl_off w, dl_off n, dl_off s, dl_off z, dl_off x) {
  const dl_off i = x / s;
  return dl_tiled(w, n, s * z, i, (x - i * s) * z, z);
}
#define DL_REF(AS, TYPE, BASE, OFF) (*(AS TYPE *)((AS uchar *)(BASE) + (OFF)))
#define DL_UREF(AS, TYPE, BASE, OFF) \
  (((AS dl_unaligned_##TYPE *)((AS uchar *)(BASE) + (OFF)))->v)
#endif
#endif
//DL: record pt 8 4 float:x@0 float:y@4
//DL: AoS: const p[*] -> ASTA AOS2ASTA_pt
//DL: map: a:float[column_major(n, m)]
#ifdef DL_ASTA_T
__kernel void sums(__global const float* a, __global const struct pt* p, __global float* out,
                   int n, int m, int k, ulong dl_whole_p, __global const float* dl_map_a, ulong dl_mapn_a) {
  const dl_off dl_n_p = (dl_off)((long)(dl_whole_p));
  const dl_off dl_w_p = (dl_off)(DL_ASTA_T);
  int i = get_global_id(0);
  __global const float* q = &a[column_major(i, n, m)];
  out[i] = DL_REF(__global, float, p, dl_tiled(dl_w_p, dl_n_p, 8, (i), 4, 4)) + ((i) < dl_mapn_a ? dl_map_a[i] : a[column_major(i, n, m)]) + ((i + 1) < dl_mapn_a ? dl_map_a[i + 1] : a[column_major(i + 1, n, m)]) + *q +
           a[column_major(i, n, 2 * m)];
  float s = a[column_major(i++, n, m)];
  out[i] += s + (float)k;
}

/* DL: the copy of a that sums reads as a[column_major(i, ...)] at i. */
__kernel void dl_map4_sums_a(__global const float* dl_x, __global float* dl_copy, ulong dl_n, int n, int m) {
  const ulong dl_i = get_global_id(0);
  if (dl_i >= dl_n) return;
  const ulong dl_j = (ulong)(column_major(dl_i, n, m));
  dl_copy[dl_i] = dl_j < dl_n ? dl_x[dl_j] : (float)0;
}
#else
__kernel void sums(__global const float* a, __global const struct pt* p, __global float* out,
                   int n, int m, int k) {
  int i = get_global_id(0);
  __global const float* q = &a[column_major(i, n, m)];
  out[i] = p[i].y + a[column_major(i, n, m)] + a[column_major(i + 1, n, m)] + *q +
           a[column_major(i, n, 2 * m)];
  float s = a[column_major(i++, n, m)];
  out[i] += s + (float)k;
}
#endif
