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
static inline atom dl_load_atom_g(const __global uchar *b, ulong w, ulong n, ulong i) {
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
  const ulong dl_n_a = (ulong)((long)(n));
  const ulong dl_w_a = (ulong)(DL_ASTA_T);
  const ulong dl_n_b = (ulong)((long)(n));
  const ulong dl_w_b = (ulong)1;
  const ulong dl_n_c = (ulong)((long)(n));
  const ulong dl_w_c = (ulong)1;
  const ulong dl_n_d = (ulong)((long)(n));
  const ulong dl_w_d = (ulong)1;
  const ulong dl_n_e = (ulong)((long)(n));
  const ulong dl_w_e = (ulong)1;
  const ulong dl_n_f = (ulong)((long)(n));
  const ulong dl_w_f = (ulong)(DL_ASTA_T);
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
  const ulong dl_n_a = (ulong)((long)(n));
  const ulong dl_w_a = (ulong)1;
  const ulong dl_n_c = (ulong)((long)(n));
  const ulong dl_w_c = (ulong)(DL_ASTA_T);
  int i = get_global_id(0);
  if (i < n) a[i].y = DL_REF(__global, float, c, dl_tiled(dl_w_c, dl_n_c, 16, (nbr[i]), 0, 4)); /* targets as written, whatever the accesses */
}
#else
__kernel void written(__global atom *a, __global const int *nbr, __global atom *c, int n) {
  int i = get_global_id(0);
  if (i < n) a[i].y = c[nbr[i]].x; /* targets as written, whatever the accesses */
}
#endif
