// ARGS: --auto
// `write_only`: the kernel never reads the buffer, so the runtime need not convert bytes
// nobody defined before its first launch. Written by hand, or inferred for a buffer
// whose every access is a plain store (the inferred `in` is const).
struct rec {
  float a;
  int b;
};

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
//DL: record rec 8 4 float:a@0 int:b@4
//DL: AoS: write_only out[n] -> ASTA AOS2ASTA_rec
#ifdef DL_ASTA_T
__kernel void produce(__global struct rec *out, int n, float k) {
  const dl_off dl_n_out = (dl_off)((long)(n));
  const dl_off dl_w_out = (dl_off)(DL_ASTA_T);
  const int i = get_global_id(0);
  if (i >= n) return;
  DL_REF(__global, float, out, dl_tiled(dl_w_out, dl_n_out, 8, (i), 0, 4)) = i * k;
  DL_REF(__global, int, out, dl_tiled(dl_w_out, dl_n_out, 8, (i), 4, 4)) = i;
}
#else
__kernel void produce(__global struct rec *out, int n, float k) {
  const int i = get_global_id(0);
  if (i >= n) return;
  out[i].a = i * k;
  out[i].b = i;
}
#endif

//DL: AoS: write_only dst[*] -> ASTA AOS2ASTA_rec, const src[*] -> ASTA AOS2ASTA_rec
#ifdef DL_ASTA_T
__kernel void derive(__global struct rec *dst, __global const struct rec *src, ulong dl_whole_dst) {
  const dl_off dl_n_dst = (dl_off)((long)(dl_whole_dst));
  const dl_off dl_w_dst = (dl_off)(DL_ASTA_T);
  const dl_off dl_n_src = (dl_off)((long)(dl_whole_dst));
  const dl_off dl_w_src = (dl_off)(DL_ASTA_T);
  const int i = get_global_id(0);
  DL_REF(__global, float, dst, dl_tiled(dl_w_dst, dl_n_dst, 8, (i), 0, 4)) = DL_REF(__global, float, src, dl_tiled(dl_w_src, dl_n_src, 8, (i), 0, 4)) + 1.0f;
  DL_REF(__global, int, dst, dl_tiled(dl_w_dst, dl_n_dst, 8, (i), 4, 4)) = DL_REF(__global, int, src, dl_tiled(dl_w_src, dl_n_src, 8, (i), 4, 4)) * 2;
}
#else
__kernel void derive(__global struct rec *dst, __global const struct rec *src) {
  const int i = get_global_id(0);
  dst[i].a = src[i].a + 1.0f;
  dst[i].b = src[i].b * 2;
}
#endif

// Read and written: neither qualifier.
//DL: AoS: p[*] -> ASTA AOS2ASTA_rec
#ifdef DL_ASTA_T
__kernel void bump(__global struct rec *p, ulong dl_whole_p) {
  const dl_off dl_n_p = (dl_off)((long)(dl_whole_p));
  const dl_off dl_w_p = (dl_off)(DL_ASTA_T);
  DL_REF(__global, int, p, dl_tiled(dl_w_p, dl_n_p, 8, (get_global_id(0)), 4, 4)) += 1;
}
#else
__kernel void bump(__global struct rec *p) {
  p[get_global_id(0)].b += 1;
}
#endif
