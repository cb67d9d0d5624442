// A flat array whose base pointer moves. By whole records (a constant multiple of S,
// through a macro too): record (g - base) / S + e, scalar c, as if it had not moved. By
// anything else (2 scalars, ++): dl_flat, and the report says why.
#define Q 20
#define MARGIN (2 * Q * 100)

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
/* Element x = s*i + c of a flat array: slot c of record i when c < s (a compare),
   else through dl_flat (a division) of x as the kernel computes it (a column
   that wrapped at its own width, x - 1 of a uint x = 0, is not below s). */
static inline ulong dl_flat_at(dl_off w, dl_off n, dl_off s, dl_off z, dl_off i,
                               dl_off c, dl_off x) {
  return c < s ? dl_tiled(w, n, s * z, i, c * z, z) : dl_flat(w, n, s, z, x);
}
#endif
//DL: record flat_float_20 80 4 float*20:v@0
//DL: AoS: const src[n][(20)] -> ASTA AOS2ASTA_flat_float_20, dst[n][(20)] -> ASTA AOS2ASTA_flat_float_20
#ifdef DL_ASTA_T
__kernel void by_records(__global const float *src, __global float *dst, int n) {
  const dl_off dl_n_src = (dl_off)((long)(n));
  const dl_off dl_w_src = (dl_off)(DL_ASTA_T);
  const __global float * const dl_b_src = src;
  const dl_off dl_n_dst = (dl_off)((long)(n));
  const dl_off dl_w_dst = (dl_off)(DL_ASTA_T);
  __global float * const dl_b_dst = dst;
  src += MARGIN;
  dst = dst + Q;
  const int c = get_global_id(0);
  float s = 0.0f;
  for (int q = 0; q < 19; ++q) s += DL_REF(__global, float, dl_b_src, dl_flat_at(dl_w_src, dl_n_src, 20, 4, (dl_off)(src - dl_b_src) / 20 + (c), (q), (src - dl_b_src) + (c * Q + q)));
  DL_REF(__global, float, dl_b_dst, dl_tiled(dl_w_dst, dl_n_dst, 80, (dl_off)(dst - dl_b_dst) / 20 + (c), 76, 4)) = s + DL_REF(__global, float, dl_b_src, dl_tiled(dl_w_src, dl_n_src, 80, (dl_off)(src - dl_b_src) / 20 + (c), 76, 4));
}
#else
__kernel void by_records(__global const float *src, __global float *dst, int n) {
  src += MARGIN;
  dst = dst + Q;
  const int c = get_global_id(0);
  float s = 0.0f;
  for (int q = 0; q < 19; ++q) s += src[c * Q + q];
  dst[c * Q + 19] = s + src[Q * c + 19];
}
#endif

//DL: AoS: g[n][(20)] -> ASTA AOS2ASTA_flat_float_20, h[n][(20)] -> ASTA AOS2ASTA_flat_float_20
#ifdef DL_ASTA_T
__kernel void by_scalars(__global float *g, __global float *h, int n) {
  const dl_off dl_n_g = (dl_off)((long)(n));
  const dl_off dl_w_g = (dl_off)(DL_ASTA_T);
  __global float * const dl_b_g = g;
  const dl_off dl_n_h = (dl_off)((long)(n));
  const dl_off dl_w_h = (dl_off)(DL_ASTA_T);
  __global float * const dl_b_h = h;
  g += 2;
  h++;
  const int c = get_global_id(0);
  DL_REF(__global, float, dl_b_g, dl_flat(dl_w_g, dl_n_g, 20, 4, (g - dl_b_g) + (c * Q + 1))) = DL_REF(__global, float, dl_b_h, dl_flat(dl_w_h, dl_n_h, 20, 4, (h - dl_b_h) + (c * Q)));
}
#else
__kernel void by_scalars(__global float *g, __global float *h, int n) {
  g += 2;
  h++;
  const int c = get_global_id(0);
  g[c * Q + 1] = h[c * Q];
}
#endif
