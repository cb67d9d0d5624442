// Vector members (float4) and swizzles.
typedef struct {
  float4 pos;
  float4 vel;
} body;

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
//DL: record body 32 16 float4:pos@0 float4:vel@16
//DL: AoS: b[global_size(0)] -> ASTA AOS2ASTA_body
#ifdef DL_ASTA_T
__kernel void drift(__global body *b, float dt) {
  const ulong dl_n_b = (ulong)((long)get_global_size(0));
  const ulong dl_w_b = (ulong)(DL_ASTA_T);
  size_t i = get_global_id(0);
  DL_REF(__global, float4, b, dl_tiled(dl_w_b, dl_n_b, 32, (i), 0, 16)).xyz += DL_REF(__global, float4, b, dl_tiled(dl_w_b, dl_n_b, 32, (i), 16, 16)).xyz * dt;
}
#else
__kernel void drift(__global body *b, float dt) {
  size_t i = get_global_id(0);
  b[i].pos.xyz += b[i].vel.xyz * dt;
}
#endif
