// Planes diagonalized (`-> DIAG`, `-> DIAG_MAIN`, docs/remappings.md): the rows of a plane
// are the dimension before the fastest, by the kernel's arguments or by macros (folded
// into the completed annotation). A counter below the row length addresses its scalar
// directly (dl_diag); other indices go through dl_diag_flat (a division). An index
// written (z*ny + y)*nx + x names plane, row and column apart (dl_diag_pyc: compares, no
// division by the rows per plane).

#define NY 8
#define NX 6

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
/* A flat array whose planes of w rows of s = r / z scalars are diagonalized
   (DIAG: diagonal d = x + y; DIAG_MAIN: d = s - 1 - x + y; each diagonal in
   increasing y): the byte offset of the scalar at byte o of row i. Rows i >= n
   keep their AoS address; n is a whole number of planes. */
static inline ulong dl_diag_in(dl_off w, dl_off s, dl_off p, dl_off y, dl_off c,
                               dl_off z, int mirror);
static inline ulong dl_diag_at(dl_off w, dl_off n, dl_off r, dl_off i, dl_off o,
                               dl_off z, int mirror) {
  if (i >= n) return (ulong)i * r + o;
  const dl_off p = i / w;
  return dl_diag_in(w, r / z, p, i - p * w, o / z, z, mirror);
}
/* Scalar c of row y of plane p (y < w, c < s). In dl_off: a plane's positions fit
   it (a buffer of 4 GiB or more builds with DL_OFFSET64), and so does every term
   below. */
static inline ulong dl_diag_in(dl_off w, dl_off s, dl_off p, dl_off y, dl_off c,
                               dl_off z, int mirror) {
  const dl_off x = mirror ? s - 1 - c : c;
  const dl_off d = x + y, a = min(s, w), b = max(s, w);
  dl_off start;
  if (d < a) {
    start = d * (d + 1) / 2;
  } else if (d < b) {
    start = a * (a - 1) / 2 + (d - (a - 1)) * a;
  } else {
    const dl_off m = s + w - 1 - d;
    start = s * w - m * (m + 1) / 2;
  }
  return ((ulong)p * w * s + (start + y - (d >= s ? d - (s - 1) : 0))) * z;
}
static inline ulong dl_diag(dl_off w, dl_off n, dl_off r, dl_off i, dl_off o, dl_off z) {
  return dl_diag_at(w, n, r, i, o, z, 0);
}
static inline ulong dl_diag_main(dl_off w, dl_off n, dl_off r, dl_off i, dl_off o,
                                 dl_off z) {
  return dl_diag_at(w, n, r, i, o, z, 1);
}
/* Scalar x of the diagonalized flat array (rows of s scalars of z bytes). */
static inline ulong dl_diag_flat(dl_off w, dl_off n, dl_off s, dl_off z, dl_off x,
                                 int mirror) {
  const dl_off i = x / s;
  return dl_diag_at(w, n, s * z, i, (x - i * s) * z, z, mirror);
}
/* Scalar x = s*i + c: scalar c of row i when c < s (a compare), else as above,
   from x as the kernel computes it. */
static inline ulong dl_diag_rc(dl_off w, dl_off n, dl_off s, dl_off z, dl_off i,
                               dl_off c, dl_off x, int mirror) {
  return c < s ? dl_diag_at(w, n, s * z, i, c * z, z, mirror)
               : dl_diag_flat(w, n, s, z, x, mirror);
}
/* Scalar f = (p*w2 + y)*s2 + c of a diagonalized flat array: where the kernel's own
   w2 and s2 are the layout's rows per plane and scalars per row, and p, y and c lie
   inside the planes, the plane and the row (compares; n / w is uniform), scalar c of
   row y of plane p with no division; otherwise as dl_diag_flat of f as the kernel
   computes it (a row or column that wrapped at its own width is not inside). */
static inline ulong dl_diag_pyc(dl_off w, dl_off n, dl_off s, dl_off z, dl_off w2,
                                dl_off s2, dl_off p, dl_off y, dl_off c, dl_off f,
                                int mirror) {
  if (w2 == w && s2 == s && y < w && c < s && p < n / w)
    return dl_diag_in(w, s, p, y, c, z, mirror);
  return dl_diag_flat(w, n, s, z, f, mirror);
}
#endif
//DL: record flat_int_6 24 4 int*6:v@0
//DL: AoS: a:float[nz][ny][nx] -> DIAG AOS2DIAG_flat_float, const m[(8)][(6)] -> DIAG_MAIN AOS2DIAG_flat_int_6
#ifdef DL_ASTA_T
__kernel void k(__global float *a, __global const int *m, int nx, int ny, int nz) {
  const dl_off dl_n_a = (dl_off)((long)(nz) * (long)(ny));
  const dl_off dl_s_a = (dl_off)((long)(nx));
  const dl_off dl_w_a = (dl_off)((long)(ny));
  const dl_off dl_n_m = (dl_off)((long)8);
  const dl_off dl_w_m = (dl_off)8;
  const int r = get_global_id(0);
  if (r >= ny * nz) return;
  for (int x = 0; x < nx; ++x) DL_REF(__global, float, a, dl_diag(dl_w_a, dl_n_a, dl_s_a * 4, (r), (dl_off)((x)) * 4, 4)) += (float)DL_REF(__global, int, m, dl_diag_rc(dl_w_m, dl_n_m, 6, 4, ((r % NY)), (x % NX), ((r % NY) * NX + x % NX), 1));
  if (r + 1 < ny * nz) DL_REF(__global, float, a, dl_diag_rc(dl_w_a, dl_n_a, dl_s_a, 4, (r), (nx), (r * nx + nx), 0)) *= 2.0f;
  const int z = r / ny, y = r - z * ny;
  if (y > 0) DL_REF(__global, float, a, dl_diag_pyc(dl_w_a, dl_n_a, dl_s_a, 4, (ny), (nx), (z), (y), 0, ((z * ny + y) * nx), 0)) -= DL_REF(__global, float, a, dl_diag_pyc(dl_w_a, dl_n_a, dl_s_a, 4, (ny), (nx), (z), (y) - (1), (nx) - (1), ((z * ny + y - 1) * nx + nx - 1), 0));
}
#else
__kernel void k(__global float *a, __global const int *m, int nx, int ny, int nz) {
  const int r = get_global_id(0);
  if (r >= ny * nz) return;
  for (int x = 0; x < nx; ++x) a[r * nx + x] += (float)m[(r % NY) * NX + x % NX];
  if (r + 1 < ny * nz) a[r * nx + nx] *= 2.0f;
  const int z = r / ny, y = r - z * ny;
  if (y > 0) a[(z * ny + y) * nx] -= a[(z * ny + y - 1) * nx + nx - 1];
}
#endif
