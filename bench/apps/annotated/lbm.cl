// D3Q19 lattice-Boltzmann (lid-driven cavity), as an application writes it: the cell
// data is interleaved per cell (Parboil style), grid[cells][20] with 19 distributions
// and a flag. Build with -I<kernel dir> (lbm_d3q19.h).
#include "lbm_d3q19.h"

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
/* Element x = s*i + c of a flat array: slot c of record i when c < s (a compare),
   else through dl_flat (a division) of x as the kernel computes it (a column
   that wrapped at its own width, x - 1 of a uint x = 0, is not below s). */
static inline ulong dl_flat_at(dl_off w, dl_off n, dl_off s, dl_off z, dl_off i,
                               dl_off c, dl_off x) {
  return c < s ? dl_tiled(w, n, s * z, i, c * z, z) : dl_flat(w, n, s, z, x);
}
#endif
//DL: record flat_float_20 80 4 float*20:v@0
//DL: AoS: const src[nx*ny*nz][20] -> ASTA AOS2ASTA_flat_float_20, write_only dst[nx*ny*nz][20] -> ASTA AOS2ASTA_flat_float_20
#ifdef DL_ASTA_T
__kernel void lbm_step(__global const float* src, __global float* dst, uint nx, uint ny, uint nz) {
  const dl_off dl_n_src = (dl_off)((((long)(nx) * (long)(ny)) * (long)(nz)));
  const dl_off dl_w_src = (dl_off)(DL_ASTA_T);
  const dl_off dl_n_dst = (dl_off)((((long)(nx) * (long)(ny)) * (long)(nz)));
  const dl_off dl_w_dst = (dl_off)(DL_ASTA_T);
  const uint c = get_global_id(0);
  if (c >= nx * ny * nz) return;
  const uint x = c % nx, y = c / nx % ny, z = c / (nx * ny);
  float in[LBM_Q], out[LBM_Q];
  for (int q = 0; q < LBM_Q; ++q) in[q] = DL_REF(__global, float, src, dl_flat_at(dl_w_src, dl_n_src, 20, 4, (c), (q), (c * 20 + q)));
  const float flag = DL_REF(__global, float, src, dl_tiled(dl_w_src, dl_n_src, 80, (c), 76, 4));
  lbm_collide(in, flag, out);
  for (int q = 0; q < LBM_Q; ++q) DL_REF(__global, float, dst, dl_flat(dl_w_dst, dl_n_dst, 20, 4, (lbm_neighbour(x, y, z, q, nx, ny, nz) * 20 + q))) = out[q];
  DL_REF(__global, float, dst, dl_tiled(dl_w_dst, dl_n_dst, 80, (c), 76, 4)) = flag;
}
#else
__kernel void lbm_step(__global const float* src, __global float* dst, uint nx, uint ny, uint nz) {
  const uint c = get_global_id(0);
  if (c >= nx * ny * nz) return;
  const uint x = c % nx, y = c / nx % ny, z = c / (nx * ny);
  float in[LBM_Q], out[LBM_Q];
  for (int q = 0; q < LBM_Q; ++q) in[q] = src[c * 20 + q];
  const float flag = src[c * 20 + 19];
  lbm_collide(in, flag, out);
  for (int q = 0; q < LBM_Q; ++q) dst[lbm_neighbour(x, y, z, q, nx, ny, nz) * 20 + q] = out[q];
  dst[c * 20 + 19] = flag;
}
#endif
