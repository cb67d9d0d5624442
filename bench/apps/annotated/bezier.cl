// Bezier surface evaluation as an application writes it: a control grid of (m+1) x (m+1)
// points {x, y, z} in double precision, kept in AoS on the host (ctrl[a * (m+1) + b]);
// every work-item evaluates the surface at one point of an nu x nv output grid
// (s = iu / (nu-1), t = iv / (nv-1), record iv * nu + iu of out) from all control points,
// which every work-item reads in the same order.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
  double x, y, z;
} point3;

#define BZ_MAX_DEGREE 31  // the largest m (the basis values are private arrays)

// The m+1 Bernstein polynomials of degree m at s, by the triangle recurrence
// B(j, k) = (1-s) B(j-1, k) + s B(j-1, k-1).
inline void bernstein(double s, int m, double* b) {
  b[0] = 1.0;
  for (int j = 1; j <= m; ++j) {
    double carry = 0.0;
    for (int k = 0; k < j; ++k) {
      const double v = b[k];
      b[k] = carry + (1.0 - s) * v;
      carry = s * v;
    }
    b[j] = carry;
  }
}

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
//DL: record point3 24 8 double:x@0 double:y@8 double:z@16
//DL: AoS: const ctrl[m + 1][m + 1] -> AoS AOS2ASTA_point3, write_only out[nu * nv] -> ASTA AOS2ASTA_point3
#ifdef DL_ASTA_T
__kernel void bezier_kernel(__global const point3* ctrl, int m, __global point3* out, int nu,
                            int nv) {
  const dl_off dl_n_ctrl = (dl_off)(((long)(m) + (long)1) * ((long)(m) + (long)1));
  const dl_off dl_w_ctrl = (dl_off)1;
  const dl_off dl_n_out = (dl_off)(((long)(nu) * (long)(nv)));
  const dl_off dl_w_out = (dl_off)(DL_ASTA_T);
  const int i = get_global_id(0);
  if (i >= nu * nv) return;
  const int iu = i % nu, iv = i / nu;
  double bu[BZ_MAX_DEGREE + 1], bv[BZ_MAX_DEGREE + 1];
  bernstein(nu > 1 ? (double)iu / (nu - 1) : 0.0, m, bu);
  bernstein(nv > 1 ? (double)iv / (nv - 1) : 0.0, m, bv);
  double x = 0.0, y = 0.0, z = 0.0;
  for (int a = 0; a <= m; ++a) {
    double rx = 0.0, ry = 0.0, rz = 0.0;  // row a's curve at t
    for (int b = 0; b <= m; ++b) {
      const int c = a * (m + 1) + b;
      rx += bv[b] * ctrl[c].x;
      ry += bv[b] * ctrl[c].y;
      rz += bv[b] * ctrl[c].z;
    }
    x += bu[a] * rx;
    y += bu[a] * ry;
    z += bu[a] * rz;
  }
  DL_REF(__global, double, out, dl_tiled(dl_w_out, dl_n_out, 24, (i), 0, 8)) = x;
  DL_REF(__global, double, out, dl_tiled(dl_w_out, dl_n_out, 24, (i), 8, 8)) = y;
  DL_REF(__global, double, out, dl_tiled(dl_w_out, dl_n_out, 24, (i), 16, 8)) = z;
}
#else
__kernel void bezier_kernel(__global const point3* ctrl, int m, __global point3* out, int nu,
                            int nv) {
  const int i = get_global_id(0);
  if (i >= nu * nv) return;
  const int iu = i % nu, iv = i / nu;
  double bu[BZ_MAX_DEGREE + 1], bv[BZ_MAX_DEGREE + 1];
  bernstein(nu > 1 ? (double)iu / (nu - 1) : 0.0, m, bu);
  bernstein(nv > 1 ? (double)iv / (nv - 1) : 0.0, m, bv);
  double x = 0.0, y = 0.0, z = 0.0;
  for (int a = 0; a <= m; ++a) {
    double rx = 0.0, ry = 0.0, rz = 0.0;  // row a's curve at t
    for (int b = 0; b <= m; ++b) {
      const int c = a * (m + 1) + b;
      rx += bv[b] * ctrl[c].x;
      ry += bv[b] * ctrl[c].y;
      rz += bv[b] * ctrl[c].z;
    }
    x += bu[a] * rx;
    y += bu[a] * ry;
    z += bu[a] * rz;
  }
  out[i].x = x;
  out[i].y = y;
  out[i].z = z;
}
#endif
