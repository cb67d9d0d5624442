// Preprocessor conditionals in kernel parameter lists, after and before the annotated
// parameters: annotations bind by name to the parameters Clang sees. Parsed without the
// macros here (conditional_params_defined.cl: with them); the parameter lists and the
// #else copies stay as written, so the output builds with or without them.
typedef struct {
  float v;
  int c;
} pt;
#define T pt

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
//DL: record pt 8 4 float:v@0 int:c@4
//DL: AoS: in[n] -> ASTA AOS2ASTA_pt, out[n] -> ASTA AOS2ASTA_pt
#ifdef DL_ASTA_T
__kernel void after(int n, __global T *in, __global T *out
#ifdef OCL_2_0
                    , __global volatile int *flags
#endif
) {
  const dl_off dl_n_in = (dl_off)((long)(n));
  const dl_off dl_w_in = (dl_off)(DL_ASTA_T);
  const dl_off dl_n_out = (dl_off)((long)(n));
  const dl_off dl_w_out = (dl_off)(DL_ASTA_T);
  int i = get_global_id(0);
  if (i < n) DL_REF(__global, float, out, dl_tiled(dl_w_out, dl_n_out, 8, (i), 0, 4)) = DL_REF(__global, float, in, dl_tiled(dl_w_in, dl_n_in, 8, (i), 0, 4)) + (float)DL_REF(__global, int, in, dl_tiled(dl_w_in, dl_n_in, 8, (i), 4, 4));
}
#else
__kernel void after(int n, __global T *in, __global T *out
#ifdef OCL_2_0
                    , __global volatile int *flags
#endif
) {
  int i = get_global_id(0);
  if (i < n) out[i].v = in[i].v + (float)in[i].c;
}
#endif

//DL: AoS: p[n] -> ASTA AOS2ASTA_pt
#ifdef DL_ASTA_T
__kernel void before(
#ifdef EXTRA
    int extra,
#endif
    __global T *p, int n) {
  const dl_off dl_n_p = (dl_off)((long)(n));
  const dl_off dl_w_p = (dl_off)(DL_ASTA_T);
  int i = get_global_id(0);
  if (i < n) DL_REF(__global, int, p, dl_tiled(dl_w_p, dl_n_p, 8, (i), 4, 4)) += 1;
}
#else
__kernel void before(
#ifdef EXTRA
    int extra,
#endif
    __global T *p, int n) {
  int i = get_global_id(0);
  if (i < n) p[i].c += 1;
}
#endif
