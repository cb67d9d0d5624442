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
// --stage-local on a flat array DL also converts to ASTA: the copy into local memory reads
// the layout through dl_flat, and each read's fallback is its ASTA rewrite.
// ARGS: --stage-local
//DL: record flat_float_4 16 4 float*4:v@0
//DL: AoS: const p[n][4] -> ASTA AOS2ASTA_flat_float_4
//DL: local: p[4 * n]
#ifdef DL_ASTA_T
__kernel void smooth4(__global const float* p, __global float* out, int n) {
  const dl_off dl_n_p = (dl_off)((long)(n));
  const dl_off dl_w_p = (dl_off)(DL_ASTA_T);
  __local float dl_local_p[1032];
  const int dl_staged = get_local_size(0) == 256 && get_local_size(1) == 1 && get_local_size(2) == 1;
  if (dl_staged) {
    const uint dl_lid = get_local_id(0) + 256 * (get_local_id(1) + 1 * get_local_id(2));
    {
      const long dl_origin = 4 * (long)get_global_offset(0) + 1024 * (long)get_group_id(0) + -4;
      const long dl_end = (long)(((long)4 * (long)(n)));
      for (uint dl_t = dl_lid; dl_t < 1032u; dl_t += 256u) {
        const long dl_g = dl_origin + ((int)(dl_t));
        if (dl_g >= 0 && dl_g < dl_end) dl_local_p[dl_t] = DL_REF(__global, float, p, dl_flat(dl_w_p, dl_n_p, 4, 4, (dl_off)dl_g));
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const int i = get_global_id(0);
  if (i > 0 && i < n - 1)
    for (int c = 0; c < 4; ++c)
      out[i * 4 + c] = 0.25f * (dl_staged ? dl_local_p[0 + 4 * (int)get_local_id(0) + (int)(c)] : DL_REF(__global, float, p, dl_tiled(dl_w_p, dl_n_p, 16, ((i - 1)), (dl_off)((c)) * 4, 4))) + 0.5f * (dl_staged ? dl_local_p[4 + 4 * (int)get_local_id(0) + (int)(c)] : DL_REF(__global, float, p, dl_tiled(dl_w_p, dl_n_p, 16, (i), (dl_off)((c)) * 4, 4))) + 0.25f * (dl_staged ? dl_local_p[8 + 4 * (int)get_local_id(0) + (int)(c)] : DL_REF(__global, float, p, dl_tiled(dl_w_p, dl_n_p, 16, ((i + 1)), (dl_off)((c)) * 4, 4)));
}
#else
__kernel void smooth4(__global const float* p, __global float* out, int n) {
  const int i = get_global_id(0);
  if (i > 0 && i < n - 1)
    for (int c = 0; c < 4; ++c)
      out[i * 4 + c] = 0.25f * p[(i - 1) * 4 + c] + 0.5f * p[i * 4 + c] + 0.25f * p[(i + 1) * 4 + c];
}
#endif
