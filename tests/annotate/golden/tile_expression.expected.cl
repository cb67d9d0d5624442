// A tile width given by the kernel's arguments (`-> ASTA(E)`): the rewrite reads it from
// them; a macro in it is expanded into the completed annotation (the runtime reads numbers
// and parameters only), and a constant one becomes ASTA(T).
#define HALF_NY (ny / 2)
#define TILE (64 / 2)

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
//DL: record flat_float_4 16 4 float*4:v@0
//DL: AoS: a[n][4] -> ASTA((( ny / 2 ))) AOS2ASTA_flat_float_4, b[n][4] -> ASTA(32) AOS2ASTA_flat_float_4
#ifdef DL_ASTA_T
__kernel void k(__global float *a, __global float *b, int n, int ny) {
  const dl_off dl_n_a = (dl_off)((long)(n));
  const dl_off dl_w_a = (dl_off)(((long)(ny) / (long)2));
  const dl_off dl_n_b = (dl_off)((long)(n));
  const dl_off dl_w_b = (dl_off)32;
  const int i = get_global_id(0);
  if (i < n) DL_REF(__global, float, a, dl_tiled(dl_w_a, dl_n_a, 16, (i), 0, 4)) = DL_REF(__global, float, b, dl_tiled(dl_w_b, dl_n_b, 16, (i), 4, 4));
}
#else
__kernel void k(__global float *a, __global float *b, int n, int ny) {
  const int i = get_global_id(0);
  if (i < n) a[i * 4] = b[i * 4 + 1];
}
#endif
