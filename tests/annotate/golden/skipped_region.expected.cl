// Conditional regions the preprocessor skipped (dl-annotate ran without A, B, HELPER_X):
// in the transformed copies, code there that uses an annotated buffer (or a pointer
// variable into global memory) becomes #error, so a build that enables it fails and the
// runtime runs the program untransformed; the directives, the other code of the regions
// and the #else copy stay as written.
typedef struct {
  float v;
  int c;
} pt;

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
void bump__dl1(__global pt *r, int k, const __global pt * dl_b_r, dl_off dl_w_r, dl_off dl_n_r) {
#ifdef HELPER_X
#error "dl-annotate did not see this code (it ran with other -D options) and it uses 'r': rerun dl-annotate with this build's options"
#else
  DL_REF(__global, float, dl_b_r, dl_tiled(dl_w_r, dl_n_r, 8, (r - dl_b_r), 0, 4)) += 1.0f;
#endif
}
#endif
void bump(__global pt *r, int k) {
#ifdef HELPER_X
  r->c += k;
#else
  r->v += 1.0f;
#endif
}

//DL: record pt 8 4 float:v@0 int:c@4
//DL: AoS: p[n] -> ASTA AOS2ASTA_pt
#ifdef DL_ASTA_T
__kernel void k(__global pt *p, int n
#ifdef WITH_FLAGS
                , __global int *flags
#endif
) {
  const dl_off dl_n_p = (dl_off)((long)(n));
  const dl_off dl_w_p = (dl_off)(DL_ASTA_T);
  int i = get_global_id(0);
  __global pt *q = p + i;
#if defined(A)
#error "dl-annotate did not see this code (it ran with other -D options) and it uses 'p': rerun dl-annotate with this build's options"
#elif defined(B)
#error "dl-annotate did not see this code (it ran with other -D options) and it uses 'q': rerun dl-annotate with this build's options"
#else
  DL_REF(__global, float, p, dl_tiled(dl_w_p, dl_n_p, 8, (i), 0, 4)) = 3.0f;
#endif
#ifdef WITH_FLAGS
  flags[i] = 1; /* no annotated buffer here: kept */
#endif
  bump__dl1(p + i, 2, p, dl_w_p, dl_n_p);
}
#else
__kernel void k(__global pt *p, int n
#ifdef WITH_FLAGS
                , __global int *flags
#endif
) {
  int i = get_global_id(0);
  __global pt *q = p + i;
#if defined(A)
  p[i].c = 1;
#elif defined(B)
  q->c = 2;
#else
  p[i].v = 3.0f;
#endif
#ifdef WITH_FLAGS
  flags[i] = 1; /* no annotated buffer here: kept */
#endif
  bump(p + i, 2);
}
#endif
