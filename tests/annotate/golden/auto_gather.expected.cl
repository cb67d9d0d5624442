// ARGS: --auto
// Zero-touch gathers: a kernel nobody annotated that reads x[col[e]], both arrays const
// and e stepping with the work-item, gets `gather: x[col]`. Reads whose e does not step
// with the work-item, or of an array the kernel may write, get no gather. An array whose
// index has a stride but also the global id as a term (val[k * rows + i]) is read in
// order already: it is not inferred as records.

// Column-major ELL: consecutive work-items read consecutive entries of col.
//DL: gather: x:float4[col:int]
#ifdef DL_ASTA_T
__kernel void spmv_ell(__global const float *val, __global const int *col,
                       __global const float4 *x, __global float4 *y, uint rows, uint K, __global const float4* dl_gather_x) {
  const uint i = get_global_id(0);
  if (i >= rows) return;
  float4 s = 0.0f;
  for (uint k = 0; k < K; ++k) s += val[k * rows + i] * dl_gather_x[k * rows + i];
  y[i] = s;
}
#else
__kernel void spmv_ell(__global const float *val, __global const int *col,
                       __global const float4 *x, __global float4 *y, uint rows, uint K) {
  const uint i = get_global_id(0);
  if (i >= rows) return;
  float4 s = 0.0f;
  for (uint k = 0; k < K; ++k) s += val[k * rows + i] * x[col[k * rows + i]];
  y[i] = s;
}
#endif

// A permutation read backwards, with the id called directly; a second read of the same
// array through the same index array is taken from the same copy.
//DL: gather: x:uchar[perm:ushort]
#ifdef DL_ASTA_T
__kernel void permute(__constant uchar *x, __global const ushort *perm, __global uint *out,
                      uint m, __global const uchar* dl_gather_x) {
  if (get_global_id(0) >= m) return;
  out[get_global_id(0)] = dl_gather_x[m - 1u - get_global_id(0)] + dl_gather_x[0];
}
#else
__kernel void permute(__constant uchar *x, __global const ushort *perm, __global uint *out,
                      uint m) {
  if (get_global_id(0) >= m) return;
  out[get_global_id(0)] = x[perm[m - 1u - get_global_id(0)]] + perm[0][x];
}
#endif

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
// Row-major ELL: each work-item walks its own row of col (i * K + k): col's entries do not
// step with the work-item, so no gather; val and col are records of K.
//DL: AoS: const val:float[*][K] -> ASTA AOS2ASTA_flat_float, const col:int[*][K] -> ASTA AOS2ASTA_flat_int
#ifdef DL_ASTA_T
__kernel void spmv_rows(__global const float *val, __global const int *col,
                        __global const float *x, __global float *y, uint rows, uint K, ulong dl_whole_val) {
  const dl_off dl_n_val = (dl_off)((long)(dl_whole_val));
  const dl_off dl_s_val = (dl_off)((long)(K));
  const dl_off dl_w_val = (dl_off)(DL_ASTA_T);
  const dl_off dl_n_col = (dl_off)((long)(dl_whole_val));
  const dl_off dl_s_col = (dl_off)((long)(K));
  const dl_off dl_w_col = (dl_off)(DL_ASTA_T);
  const uint i = get_global_id(0);
  if (i >= rows) return;
  float s = 0.0f;
  for (uint k = 0; k < K; ++k) s += DL_REF(__global, float, val, dl_tiled(dl_w_val, dl_n_val, dl_s_val * 4, (i), (dl_off)((k)) * 4, 4)) * x[DL_REF(__global, int, col, dl_tiled(dl_w_col, dl_n_col, dl_s_col * 4, (i), (dl_off)((k)) * 4, 4))];
  y[i] = s;
}
#else
__kernel void spmv_rows(__global const float *val, __global const int *col,
                        __global const float *x, __global float *y, uint rows, uint K) {
  const uint i = get_global_id(0);
  if (i >= rows) return;
  float s = 0.0f;
  for (uint k = 0; k < K; ++k) s += val[i * K + k] * x[col[i * K + k]];
  y[i] = s;
}
#endif

// x is written: a copy could not hold what the kernel writes; no gather.
__kernel void scatter_add(__global float *x, __global const int *col, uint m) {
  const uint i = get_global_id(0);
  if (i < m) x[col[i]] += 1.0f;
}
