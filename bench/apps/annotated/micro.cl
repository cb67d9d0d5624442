// Figure 1 micro-benchmark as an application writes it: records of S floats in AoS.
// Build with -DS=<fields>.
typedef struct {
  float f[S];
} rec_t;

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
//DL: record rec_t 64 4 float*16:f@0
//DL: AoS: const a[n] -> ASTA AOS2ASTA_rec_t, write_only b[n] -> ASTA AOS2ASTA_rec_t
#ifdef DL_ASTA_T
__kernel void reduce_dup(__global const rec_t* a, __global rec_t* b, uint n) {
  const dl_off dl_n_a = (dl_off)((long)(n));
  const dl_off dl_w_a = (dl_off)(DL_ASTA_T);
  const dl_off dl_n_b = (dl_off)((long)(n));
  const dl_off dl_w_b = (dl_off)(DL_ASTA_T);
  const uint i = get_global_id(0);
  if (i >= n) return;
  float s = 0.0f;
  for (uint k = 0; k < S; ++k) s += DL_REF(__global, float, a, dl_tiled(dl_w_a, dl_n_a, 64, (i), 0 + (dl_off)(k) * 4, 4));
  for (uint k = 0; k < S; ++k) DL_REF(__global, float, b, dl_tiled(dl_w_b, dl_n_b, 64, (i), 0 + (dl_off)(k) * 4, 4)) = s;
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
