// Whole-record copies, nested structs included.
struct in {
  short a;
  char b;
};
struct rec {
  struct in i;
  float x;
};

#ifdef DL_ASTA_T
/* dl-annotate: address helpers of the ASTA/DA layouts (docs/annotation.md). */
#ifndef DL_ANNOTATE_HELPERS
#define DL_ANNOTATE_HELPERS
/* Offsets and indices in 32 bits: 64-bit integer arithmetic costs GPUs several
   instructions per operation. DL's runtime runs a launch whose annotated buffer
   holds 4 GiB or more untransformed; -DDL_OFFSET64 builds 64-bit helpers. */
#ifdef DL_OFFSET64
typedef ulong dl_off;
#else
typedef uint dl_off;
#endif
/* Byte offset of the slot (offset o, size z) of record i of n records of r bytes,
   tiles of w records; the last, partial tile holds n % w records. Records i >= n
   are outside the marshaled range and keep their AoS address. */
static inline dl_off dl_tiled(dl_off w, dl_off n, dl_off r, dl_off i, dl_off o,
                              dl_off z) {
  if (i >= n) return i * r + o;
  const dl_off b = i / w * w;
  return b * r + (n - b < w ? n - b : w) * o + (i - b) * z;
}
/* The same for one tile of all n records (DA). */
static inline dl_off dl_da(dl_off n, dl_off r, dl_off i, dl_off o, dl_off z) {
  return i < n ? n * o + i * z : i * r + o;
}
/* Element x of a flat array of records of s scalars of z bytes. */
static inline dl_off dl_flat(dl_off w, dl_off n, dl_off s, dl_off z, dl_off x) {
  const dl_off i = x / s;
  return dl_tiled(w, n, s * z, i, (x - i * s) * z, z);
}
#define DL_REF(AS, TYPE, BASE, OFF) (*(AS TYPE *)((AS uchar *)(BASE) + (OFF)))
#define DL_UREF(AS, TYPE, BASE, OFF) \
  (((AS dl_unaligned_##TYPE *)((AS uchar *)(BASE) + (OFF)))->v)
#endif
static inline struct rec dl_load_rec_g(const __global uchar *b, dl_off w, dl_off n, dl_off i) {
  struct rec v;
  __private uchar *d = (__private uchar *)&v;
  *(__private ushort *)(d + 0) = *(const __global ushort *)(b + dl_tiled(w, n, 8, i, 0, 2));
  *(__private uchar *)(d + 2) = *(const __global uchar *)(b + dl_tiled(w, n, 8, i, 2, 1));
  *(__private uchar *)(d + 3) = *(const __global uchar *)(b + dl_tiled(w, n, 8, i, 3, 1));
  *(__private uint *)(d + 4) = *(const __global uint *)(b + dl_tiled(w, n, 8, i, 4, 4));
  return v;
}
static inline struct in dl_store_rec_at0_struct_in_g(__global uchar *b, dl_off w, dl_off n, dl_off i, struct in v) {
  const __private uchar *d = (const __private uchar *)&v;
  *(__global ushort *)(b + dl_tiled(w, n, 8, i, 0, 2)) = *(const __private ushort *)(d + 0);
  *(__global uchar *)(b + dl_tiled(w, n, 8, i, 2, 1)) = *(const __private uchar *)(d + 2);
  *(__global uchar *)(b + dl_tiled(w, n, 8, i, 3, 1)) = *(const __private uchar *)(d + 3);
  return v;
}
#endif
//DL: record rec 8 4 short:i_a@0 char:i_b@2 float:x@4
//DL: AoS: r[global_size(0)] -> AoS AOS2ASTA_rec
#ifdef DL_ASTA_T
__kernel void shift(__global struct rec *r, __global struct rec *out) {
  const dl_off dl_n_r = (dl_off)((long)get_global_size(0));
  const dl_off dl_w_r = (dl_off)1;
  size_t g = get_global_id(0);
  struct rec v = r[g];
  v.x += 1.0f;
  out[g] = v;
  r[g].i = v.i;
}
#else
__kernel void shift(__global struct rec *r, __global struct rec *out) {
  size_t g = get_global_id(0);
  struct rec v = r[g];
  v.x += 1.0f;
  out[g] = v;
  r[g].i = v.i;
}
#endif
