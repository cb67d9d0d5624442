// The layout of each buffer without a written target follows its accesses: AoS kept
// where every access is unit-stride per work-item, the same record in every trip of a
// loop, or a gather through a loaded index, or where there is none; ASTA where an access
// is strided AoS or has an index the analysis cannot name (it may be a stride). A
// written target is kept whatever the accesses.
typedef struct {
  float x, y, z, w;
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
static inline atom dl_load_atom_g(const __global uchar *b, dl_off w, dl_off n, dl_off i) {
  atom v;
  __private uchar *d = (__private uchar *)&v;
  *(__private uint *)(d + 0) = *(const __global uint *)(b + dl_tiled(w, n, 16, i, 0, 4));
  *(__private uint *)(d + 4) = *(const __global uint *)(b + dl_tiled(w, n, 16, i, 4, 4));
  *(__private uint *)(d + 8) = *(const __global uint *)(b + dl_tiled(w, n, 16, i, 8, 4));
  *(__private uint *)(d + 12) = *(const __global uint *)(b + dl_tiled(w, n, 16, i, 12, 4));
  return v;
}
#endif
//DL: record atom 16 4 float:x@0 float:y@4 float:z@8 float:w@12
//DL: AoS: a[n] -> ASTA AOS2ASTA_atom, b[n] -> AoS AOS2ASTA_atom, c[n] -> AoS AOS2ASTA_atom, d[n] -> AoS AOS2ASTA_atom, e[n] -> AoS AOS2ASTA_atom, f[n] -> ASTA AOS2ASTA_atom
#ifdef DL_ASTA_T
__kernel void forces(__global atom *a, __global const atom *b, __global const int *nbr,
                     __global atom *c, __global atom *d, __global atom *e,
                     __global const atom *f, int n) {
  const dl_off dl_n_a = (dl_off)((long)(n));
  const dl_off dl_w_a = (dl_off)(DL_ASTA_T);
  const dl_off dl_n_b = (dl_off)((long)(n));
  const dl_off dl_w_b = (dl_off)1;
  const dl_off dl_n_c = (dl_off)((long)(n));
  const dl_off dl_w_c = (dl_off)1;
  const dl_off dl_n_d = (dl_off)((long)(n));
  const dl_off dl_w_d = (dl_off)1;
  const dl_off dl_n_e = (dl_off)((long)(n));
  const dl_off dl_w_e = (dl_off)1;
  const dl_off dl_n_f = (dl_off)((long)(n));
  const dl_off dl_w_f = (dl_off)(DL_ASTA_T);
  int i = get_global_id(0);
  if (i >= n) return;
  DL_REF(__global, float, a, dl_tiled(dl_w_a, dl_n_a, 16, (i), 0, 4)) += 1.0f;            /* strided AoS: ASTA */
  atom self = b[i];          /* a whole record per work-item: AoS kept */
  atom other = c[nbr[i]];    /* a gather: AoS kept */
  DL_REF(__global, float, a, dl_tiled(dl_w_a, dl_n_a, 16, (i), 12, 4)) = self.y + other.z;
  for (int k = 0; k < 8; ++k) {
    e[i].x += other.x * k;   /* the same record in every trip: AoS kept */
    e[i].y -= other.y * k;
  }
  DL_REF(__global, float, a, dl_tiled(dl_w_a, dl_n_a, 16, (i), 4, 4)) = DL_REF(__global, float, f, dl_tiled(dl_w_f, dl_n_f, 16, ((i * 7) % n), 8, 4)); /* an index the analysis cannot name: ASTA */
}
#else
__kernel void forces(__global atom *a, __global const atom *b, __global const int *nbr,
                     __global atom *c, __global atom *d, __global atom *e,
                     __global const atom *f, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  a[i].x += 1.0f;            /* strided AoS: ASTA */
  atom self = b[i];          /* a whole record per work-item: AoS kept */
  atom other = c[nbr[i]];    /* a gather: AoS kept */
  a[i].w = self.y + other.z;
  for (int k = 0; k < 8; ++k) {
    e[i].x += other.x * k;   /* the same record in every trip: AoS kept */
    e[i].y -= other.y * k;
  }
  a[i].y = f[(i * 7) % n].z; /* an index the analysis cannot name: ASTA */
}
#endif

//DL: AoS: a[n] -> AoS AOS2ASTA_atom, c[n] -> ASTA AOS2ASTA_atom
#ifdef DL_ASTA_T
__kernel void written(__global atom *a, __global const int *nbr, __global atom *c, int n) {
  const dl_off dl_n_a = (dl_off)((long)(n));
  const dl_off dl_w_a = (dl_off)1;
  const dl_off dl_n_c = (dl_off)((long)(n));
  const dl_off dl_w_c = (dl_off)(DL_ASTA_T);
  int i = get_global_id(0);
  if (i < n) a[i].y = DL_REF(__global, float, c, dl_tiled(dl_w_c, dl_n_c, 16, (nbr[i]), 0, 4)); /* targets as written, whatever the accesses */
}
#else
__kernel void written(__global atom *a, __global const int *nbr, __global atom *c, int n) {
  int i = get_global_id(0);
  if (i < n) a[i].y = c[nbr[i]].x; /* targets as written, whatever the accesses */
}
#endif

//DL: AoS: ctrl[m * m] -> AoS AOS2ASTA_atom, out[n] -> ASTA AOS2ASTA_atom
#ifdef DL_ASTA_T
__kernel void broadcast(__global const atom *ctrl, __global atom *out, int m, int n) {
  const dl_off dl_n_ctrl = (dl_off)(((long)(m) * (long)(m)));
  const dl_off dl_w_ctrl = (dl_off)1;
  const dl_off dl_n_out = (dl_off)((long)(n));
  const dl_off dl_w_out = (dl_off)(DL_ASTA_T);
  int i = get_global_id(0);
  if (i >= n) return;
  float s = 0.0f;
  for (int a = 0; a < m; ++a)
    for (int b = 0; b < m; ++b) s += ctrl[a * m + b].x; /* the same for every work-item: AoS kept */
  DL_REF(__global, float, out, dl_tiled(dl_w_out, dl_n_out, 16, (i), 0, 4)) = s;                                         /* strided: ASTA */
}
#else
__kernel void broadcast(__global const atom *ctrl, __global atom *out, int m, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  float s = 0.0f;
  for (int a = 0; a < m; ++a)
    for (int b = 0; b < m; ++b) s += ctrl[a * m + b].x; /* the same for every work-item: AoS kept */
  out[i].x = s;                                         /* strided: ASTA */
}
#endif
