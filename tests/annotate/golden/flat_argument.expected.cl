// Flat records whose length S is a kernel argument (ELL SpMV with K as an argument): one
// program for every K. The record is the scalar type (`val:float`); the runtime makes
// the record of K floats at each launch, and g[i * K + k] names record i, scalar k.
__kernel void ell(__global const float *val, __global const int *col, __global const float *x,
                  __global float *y, uint rows, uint K);

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
//DL: AoS: const val:float[rows][K] -> ASTA AOS2ASTA_flat_float, const col:int[rows][K] -> ASTA AOS2ASTA_flat_int
#ifdef DL_ASTA_T
__kernel void ell(__global const float *val, __global const int *col, __global const float *x,
                  __global float *y, uint rows, uint K) {
  const dl_off dl_n_val = (dl_off)((long)(rows));
  const dl_off dl_s_val = (dl_off)((long)(K));
  const dl_off dl_w_val = (dl_off)(DL_ASTA_T);
  const dl_off dl_n_col = (dl_off)((long)(rows));
  const dl_off dl_s_col = (dl_off)((long)(K));
  const dl_off dl_w_col = (dl_off)(DL_ASTA_T);
  const uint i = get_global_id(0);
  if (i >= rows) return;
  float s = 0.0f;
  for (uint k = 0; k < K; ++k) s += DL_REF(__global, float, val, dl_tiled(dl_w_val, dl_n_val, dl_s_val * 4, (i), (dl_off)((k)) * 4, 4)) * x[DL_REF(__global, int, col, dl_tiled(dl_w_col, dl_n_col, dl_s_col * 4, (i), (dl_off)((k)) * 4, 4))];
  y[i] = s + DL_REF(__global, float, val, dl_tiled(dl_w_val, dl_n_val, dl_s_val * 4, (i), 0, 4));
}
#else
__kernel void ell(__global const float *val, __global const int *col, __global const float *x,
                  __global float *y, uint rows, uint K) {
  const uint i = get_global_id(0);
  if (i >= rows) return;
  float s = 0.0f;
  for (uint k = 0; k < K; ++k) s += val[i * K + k] * x[col[i * K + k]];
  y[i] = s + val[K * i];
}
#endif

#ifdef DL_ASTA_T
/* Element x = s*i + c of a flat array: slot c of record i when c < s (a compare),
   else through dl_flat (a division) of x as the kernel computes it (a column
   that wrapped at its own width, x - 1 of a uint x = 0, is not below s). */
static inline ulong dl_flat_at(dl_off w, dl_off n, dl_off s, dl_off z, dl_off i,
                               dl_off c, dl_off x) {
  return c < s ? dl_tiled(w, n, s * z, i, c * z, z) : dl_flat(w, n, s, z, x);
}
#endif
// The whole buffer: n = its size over K floats at each launch.
//DL: AoS: g:float[*][K] -> ASTA AOS2ASTA_flat_float
#ifdef DL_ASTA_T
__kernel void whole(__global float *g, int K, ulong dl_whole_g) {
  const dl_off dl_n_g = (dl_off)((long)(dl_whole_g));
  const dl_off dl_s_g = (dl_off)((long)(K));
  const dl_off dl_w_g = (dl_off)(DL_ASTA_T);
  const int i = get_global_id(0);
  DL_REF(__global, float, g, dl_flat_at(dl_w_g, dl_n_g, dl_s_g, 4, (i), (1), (i * K + 1))) = DL_REF(__global, float, g, dl_flat(dl_w_g, dl_n_g, dl_s_g, 4, ((i + 1) * K - 1)));
}
#else
__kernel void whole(__global float *g, int K) {
  const int i = get_global_id(0);
  g[i * K + 1] = g[(i + 1) * K - 1];
}
#endif
