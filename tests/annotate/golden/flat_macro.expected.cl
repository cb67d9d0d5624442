// A flat array with interleaved fields, accessed through macros (LBM style).
#define NQ 3
#define AT(g, e, q) (g[(q) + NQ * (e)])

#ifdef DL_ASTA_T
/* dl-annotate: address helpers of the ASTA/DA layouts (docs/annotation.md). */
#ifndef DL_ANNOTATE_HELPERS
#define DL_ANNOTATE_HELPERS
/* Byte offset of the slot (offset o, size z) of record i of n records of r bytes,
   tiles of w records; the last, partial tile holds n % w records. Records i >= n
   are outside the marshaled range and keep their AoS address. */
static inline ulong dl_tiled(ulong w, ulong n, ulong r, ulong i, ulong o, ulong z) {
  if (i >= n) return i * r + o;
  const ulong b = i / w * w;
  return b * r + (n - b < w ? n - b : w) * o + (i - b) * z;
}
/* The same for one tile of all n records (DA). */
static inline ulong dl_da(ulong n, ulong r, ulong i, ulong o, ulong z) {
  return i < n ? n * o + i * z : i * r + o;
}
/* Element x of a flat array of records of s scalars of z bytes. */
static inline ulong dl_flat(ulong w, ulong n, ulong s, ulong z, ulong x) {
  const ulong i = x / s;
  return dl_tiled(w, n, s * z, i, (x - i * s) * z, z);
}
#define DL_REF(AS, TYPE, BASE, OFF) (*(AS TYPE *)((AS uchar *)(BASE) + (OFF)))
#define DL_UREF(AS, TYPE, BASE, OFF) \
  (((AS dl_unaligned_##TYPE *)((AS uchar *)(BASE) + (OFF)))->v)
#endif
#endif
//DL: record flat_float_3 12 4 float*3:v@0
//DL: AoS: g[nx][3] -> ASTA AOS2ASTA_flat_float_3
#ifdef DL_ASTA_T
__kernel void collide(__global float *g, int nx) {
  const ulong dl_n_g = (ulong)((long)(nx));
  const ulong dl_w_g = (ulong)(DL_ASTA_T);
  int e = get_global_id(0);
  if (e >= nx) return;
  float rho = ((DL_REF(__global, float, g, dl_tiled(dl_w_g, dl_n_g, 12, (((e))), 0, 4)))) + ((DL_REF(__global, float, g, dl_tiled(dl_w_g, dl_n_g, 12, (((e))), 4, 4)))) + DL_REF(__global, float, g, dl_tiled(dl_w_g, dl_n_g, 12, (e), 8, 4));
  ((DL_REF(__global, float, g, dl_tiled(dl_w_g, dl_n_g, 12, (((e))), 0, 4)))) = rho;
}
#else
__kernel void collide(__global float *g, int nx) {
  int e = get_global_id(0);
  if (e >= nx) return;
  float rho = AT(g, e, 0) + AT(g, e, 1) + g[NQ * e + 2];
  AT(g, e, 0) = rho;
}
#endif
