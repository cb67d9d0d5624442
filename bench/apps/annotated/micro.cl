// Figure 1 micro-benchmark as an application writes it: records of S floats in AoS.
// Build with -DS=<fields>.
typedef struct {
  float f[S];
} rec_t;

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
//DL: record rec_t 64 4 float*16:f@0
//DL: AoS: const a[n] -> ASTA AOS2ASTA_rec_t, b[n] -> ASTA AOS2ASTA_rec_t
#ifdef DL_ASTA_T
__kernel void reduce_dup(__global const rec_t* a, __global rec_t* b, uint n) {
  const ulong dl_n_a = (ulong)((long)(n));
  const ulong dl_w_a = (ulong)(DL_ASTA_T);
  const ulong dl_n_b = (ulong)((long)(n));
  const ulong dl_w_b = (ulong)(DL_ASTA_T);
  const uint i = get_global_id(0);
  if (i >= n) return;
  float s = 0.0f;
  for (uint k = 0; k < S; ++k) s += DL_REF(__global, float, a, dl_tiled(dl_w_a, dl_n_a, 64, (i), 0 + (ulong)(k) * 4, 4));
  for (uint k = 0; k < S; ++k) DL_REF(__global, float, b, dl_tiled(dl_w_b, dl_n_b, 64, (i), 0 + (ulong)(k) * 4, 4)) = s;
}
#else
__kernel void reduce_dup(__global const rec_t* a, __global rec_t* b, uint n) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  float s = 0.0f;
  for (uint k = 0; k < S; ++k) s += a[i].f[k];
  for (uint k = 0; k < S; ++k) b[i].f[k] = s;
}
#endif
