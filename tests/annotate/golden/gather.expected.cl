// gather: reads x[col[e]] take element e of the gathered copy dl_gather_x (a parameter
// appended to the DL build); other reads of x and col stay as written.
struct edge {
  float w;
  int to;
};

//DL: gather: x:float[col:int]
#ifdef DL_ASTA_T
__kernel void spmv_ell(__global const float* val, __global const int* col,
                       __global const float* x, __global float* y, int rows, int k, __global const float* dl_gather_x) {
  const int r = get_global_id(0);
  if (r >= rows) return;
  float sum = 0.0f;
  for (int j = 0; j < k; ++j) sum += val[j * rows + r] * dl_gather_x[j * rows + r];
  y[r] = sum + x[r];  // not through col: as written
}
#else
__kernel void spmv_ell(__global const float* val, __global const int* col,
                       __global const float* x, __global float* y, int rows, int k) {
  const int r = get_global_id(0);
  if (r >= rows) return;
  float sum = 0.0f;
  for (int j = 0; j < k; ++j) sum += val[j * rows + r] * x[col[j * rows + r]];
  y[r] = sum + x[r];  // not through col: as written
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
// With an AoS: clause; the index reads a converted buffer; operands in either order;
// an address taken stays as written; vectors and unsigned short indices.
//DL: record edge 8 4 float:w@0 int:to@4
//DL: AoS: const e[*] -> ASTA AOS2ASTA_edge
//DL: gather: v:float4[idx:ushort]
#ifdef DL_ASTA_T
__kernel void weighted(__global const struct edge* e, __global const ushort* idx,
                       __constant float4* v, __global float* out, ulong dl_whole_e, __global const float4* dl_gather_v) {
  const dl_off dl_n_e = (dl_off)((long)(dl_whole_e));
  const dl_off dl_w_e = (dl_off)(DL_ASTA_T);
  const int i = get_global_id(0);
  __constant float4* p = &v[idx[i]];
  out[i] = DL_REF(__global, float, e, dl_tiled(dl_w_e, dl_n_e, 8, (i), 0, 4)) * dl_gather_v[DL_REF(__global, int, e, dl_tiled(dl_w_e, dl_n_e, 8, (i), 4, 4))].x + dl_gather_v[i].y + p->z + dl_gather_v[i].w;
}
#else
__kernel void weighted(__global const struct edge* e, __global const ushort* idx,
                       __constant float4* v, __global float* out) {
  const int i = get_global_id(0);
  __constant float4* p = &v[idx[i]];
  out[i] = e[i].w * v[idx[e[i].to]].x + (i[idx])[v].y + p->z + idx[i][v].w;
}
#endif
