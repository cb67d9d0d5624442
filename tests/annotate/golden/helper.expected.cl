// &f[e] passed to a helper: the helper is specialised for the tiled layout.
typedef struct {
  float m;
  float v;
} atom;

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
#ifdef DL_ASTA_T
void kick__dl1(__global atom *a, float f, const __global atom * dl_b_a, dl_off dl_w_a, dl_off dl_n_a) { DL_REF(__global, float, dl_b_a, dl_tiled(dl_w_a, dl_n_a, 8, (a - dl_b_a), 4, 4)) += f / DL_REF(__global, float, dl_b_a, dl_tiled(dl_w_a, dl_n_a, 8, (a - dl_b_a), 0, 4)); }
#endif
void kick(__global atom *a, float f) { a->v += f / a->m; }

//DL: record atom 8 4 float:m@0 float:v@4
//DL: AoS: a[global_size(0)] -> ASTA AOS2ASTA_atom
#ifdef DL_ASTA_T
__kernel void step(__global atom *a, float f) {
  const dl_off dl_n_a = (dl_off)((long)get_global_size(0));
  const dl_off dl_w_a = (dl_off)(DL_ASTA_T);
  kick__dl1(&a[get_global_id(0)], f, a, dl_w_a, dl_n_a);
}
#else
__kernel void step(__global atom *a, float f) {
  kick(&a[get_global_id(0)], f);
}
#endif
