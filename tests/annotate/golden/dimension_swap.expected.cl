// Two adjacent dimensions of a flat array exchanged (`-> [..]`, docs/remappings.md): the
// two slowest of three (records of ny rows of nx scalars, DA), the middle pair of four
// (ASTA(nz) of rows of nx * 2), and the fastest two (records of nx scalars, ASTA(ny)).
// Accesses of rows written (e*S + j)*C + x, in any form that sums to it, go through
// dl_rows_at (compares; dl_rows_da for DA); others through dl_flat_rows (record, row and
// scalar by two divisions). Where the row is a counter below S and the scalar a counter
// below C or an id modulo C, with S and C the kernel's own parameters, no compare is
// left (dl_rows_in, dl_rows_in_da).

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
/* Element x of a flat array whose records are s rows of c scalars of z bytes, a
   row one slot (a swap of two dimensions): record x / (s c), row and scalar in it. */
static inline ulong dl_flat_rows(dl_off w, dl_off n, dl_off s, dl_off c, dl_off z,
                                 dl_off x) {
  const dl_off l = s * c, i = x / l, r = x - i * l, q = r / c;
  return dl_tiled(w, n, l * z, i, q * c * z, c * z) + (ulong)(r - q * c) * z;
}
/* dl_rows_in for one tile of all n records (DA): ((j n + e) c + x) z. */
static inline ulong dl_rows_in_da(dl_off n, dl_off s, dl_off c, dl_off z, dl_off e,
                                  dl_off j, dl_off x) {
  return dl_da(n, s * c * z, e, j * c * z, c * z) + (ulong)x * z;
}
/* dl_rows_at for one tile of all n records (DA): no division by the tile width. */
static inline ulong dl_rows_da(dl_off n, dl_off s, dl_off c, dl_off z, dl_off s2,
                               dl_off c2, dl_off e, dl_off j, dl_off x, dl_off f) {
  if (s2 == s && c2 == c && j < s && x < c) return dl_rows_in_da(n, s, c, z, e, j, x);
  return dl_flat_rows(n, n, s, c, z, f);
}
/* Record e, row j, scalar x of a swap of rows, records of s rows of c scalars of z
   bytes, tiles of w records, where j < s and x < c are known. */
static inline ulong dl_rows_in(dl_off w, dl_off n, dl_off s, dl_off c, dl_off z,
                               dl_off e, dl_off j, dl_off x) {
  return dl_tiled(w, n, s * c * z, e, j * c * z, c * z) + (ulong)x * z;
}
/* Element f = (e*s2 + j)*c2 + x of a swap of rows: where the kernel's own s2 and c2
   are the record's and j, x lie inside their row (compares), record e, row j, scalar
   x; otherwise through dl_flat_rows of f as the kernel computes it (a row or scalar
   that wrapped at its own width, y - 1 of a uint y = 0, is not inside). */
static inline ulong dl_rows_at(dl_off w, dl_off n, dl_off s, dl_off c, dl_off z,
                               dl_off s2, dl_off c2, dl_off e, dl_off j, dl_off x,
                               dl_off f) {
  if (s2 == s && c2 == c && j < s && x < c) return dl_rows_in(w, n, s, c, z, e, j, x);
  return dl_flat_rows(w, n, s, c, z, f);
}
#endif
//DL: AoS: const a:float[nz][ny][nx] -> [ny][nz][nx] AOS2ASTA_flat_float, b:int[nw][nz][ny][nx * 2] -> [nw][ny][nz][nx * 2] AOS2ASTA_flat_int, c:float[nz][ny][nx] -> [nz][nx][ny] AOS2ASTA_flat_float
#ifdef DL_ASTA_T
__kernel void k(__global const float *a, __global int *b, __global float *c, int nx, int ny,
                int nz, int nw) {
  const dl_off dl_n_a = (dl_off)((long)(nz));
  const dl_off dl_s_a = (dl_off)((long)(ny));
  const dl_off dl_c_a = (dl_off)(((long)(nx)));
  const dl_off dl_w_a = dl_n_a;
  const dl_off dl_n_b = (dl_off)((long)(nw) * (long)(nz));
  const dl_off dl_s_b = (dl_off)((long)(ny));
  const dl_off dl_c_b = (dl_off)((((long)(nx) * (long)2)));
  const dl_off dl_w_b = (dl_off)((long)(nz));
  const dl_off dl_n_c = (dl_off)((long)(nz) * (long)(ny));
  const dl_off dl_s_c = (dl_off)((long)(nx));
  const dl_off dl_w_c = (dl_off)((long)(ny));
  const int i = get_global_id(0);
  if (i >= nx * ny * nz) return;
  DL_REF(__global, float, c, dl_flat(dl_w_c, dl_n_c, dl_s_c, 4, (i))) = DL_REF(__global, float, a, dl_flat_rows(dl_w_a, dl_n_a, dl_s_a, dl_c_a, 4, (i))) + (float)DL_REF(__global, int, b, dl_flat_rows(dl_w_b, dl_n_b, dl_s_b, dl_c_b, 4, (i * 2 + 1)));
  const int x = i % nx, y = i / nx % ny, z = i / (nx * ny), row = nx * 2;
  DL_REF(__global, float, c, dl_flat(dl_w_c, dl_n_c, dl_s_c, 4, (i))) += DL_REF(__global, float, a, dl_rows_da(dl_n_a, dl_s_a, dl_c_a, 4, (ny), (nx), (z), (y), (x), ((z * ny + y) * nx + x))) + DL_REF(__global, float, a, dl_rows_da(dl_n_a, dl_s_a, dl_c_a, 4, (ny), (nx), (z), (y), (x) + (1), (z * ny * nx + y * nx + x + 1)));
  DL_REF(__global, int, b, dl_rows_at(dl_w_b, dl_n_b, dl_s_b, dl_c_b, 4, (ny), (row), ((nw - 1) * nz) + (z), (y), (x), (((nw - 1) * nz + z) * ny * row + y * row + x))) = (int)DL_REF(__global, float, a, dl_rows_da(dl_n_a, dl_s_a, dl_c_a, 4, (ny), (nx), ((z + 1) % nz), (y), (x), (((z + 1) % nz * ny + y) * nx + x)));
}
#else
__kernel void k(__global const float *a, __global int *b, __global float *c, int nx, int ny,
                int nz, int nw) {
  const int i = get_global_id(0);
  if (i >= nx * ny * nz) return;
  c[i] = a[i] + (float)b[i * 2 + 1];
  const int x = i % nx, y = i / nx % ny, z = i / (nx * ny), row = nx * 2;
  c[i] += a[(z * ny + y) * nx + x] + a[z * ny * nx + y * nx + x + 1];
  b[((nw - 1) * nz + z) * ny * row + y * row + x] = (int)a[((z + 1) % nz * ny + y) * nx + x];
}
#endif

// Proven inside their rows: x = i % nx (or i - (i / nx) * nx) and a counter y < ny.
//DL: AoS: const a:float[nz][ny][nx] -> [ny][nz][nx] AOS2ASTA_flat_float, b:int[nw][nz][ny][nx] -> [nw][ny][nz][nx] AOS2ASTA_flat_int
#ifdef DL_ASTA_T
__kernel void inside(__global const float *a, __global int *b, int nx, int ny, int nz, int nw) {
  const dl_off dl_n_a = (dl_off)((long)(nz));
  const dl_off dl_s_a = (dl_off)((long)(ny));
  const dl_off dl_c_a = (dl_off)(((long)(nx)));
  const dl_off dl_w_a = dl_n_a;
  const dl_off dl_n_b = (dl_off)((long)(nw) * (long)(nz));
  const dl_off dl_s_b = (dl_off)((long)(ny));
  const dl_off dl_c_b = (dl_off)(((long)(nx)));
  const dl_off dl_w_b = (dl_off)((long)(nz));
  const int i = get_global_id(0);
  if (i >= nx * nz * nw) return;
  const int q = i / nx, x = i - q * nx, x2 = i % nx, z = q % nz, w = q / nz;
  for (int y = 0; y < ny; ++y) {
    DL_REF(__global, int, b, dl_rows_in(dl_w_b, dl_n_b, dl_s_b, dl_c_b, 4, (w * nz) + (z), (y), (x2))) += (int)DL_REF(__global, float, a, dl_rows_in_da(dl_n_a, dl_s_a, dl_c_a, 4, (z), (y), (x)));
    /* Compares for a: its row index is a sum (y + 1). */
    if (y + 1 < ny) DL_REF(__global, int, b, dl_rows_in(dl_w_b, dl_n_b, dl_s_b, dl_c_b, 4, (w * nz) + (z), (y), (x))) += (int)DL_REF(__global, float, a, dl_rows_da(dl_n_a, dl_s_a, dl_c_a, 4, (ny), (nx), (z), (y) + (1), (x2), ((z * ny + y + 1) * nx + x2)));
  }
  /* Compares for a: its row counter runs to nx, not ny. */
  for (int y = 0; y < nx; ++y) DL_REF(__global, int, b, dl_rows_in(dl_w_b, dl_n_b, dl_s_b, dl_c_b, 4, (w * nz) + (z), 0, (x))) += (int)DL_REF(__global, float, a, dl_rows_da(dl_n_a, dl_s_a, dl_c_a, 4, (ny), (nx), (z), (y), (x), ((z * ny + y) * nx + x)));
}
#else
__kernel void inside(__global const float *a, __global int *b, int nx, int ny, int nz, int nw) {
  const int i = get_global_id(0);
  if (i >= nx * nz * nw) return;
  const int q = i / nx, x = i - q * nx, x2 = i % nx, z = q % nz, w = q / nz;
  for (int y = 0; y < ny; ++y) {
    b[((w * nz + z) * ny + y) * nx + x2] += (int)a[(z * ny + y) * nx + x];
    /* Compares for a: its row index is a sum (y + 1). */
    if (y + 1 < ny) b[((w * nz + z) * ny + y) * nx + x] += (int)a[(z * ny + y + 1) * nx + x2];
  }
  /* Compares for a: its row counter runs to nx, not ny. */
  for (int y = 0; y < nx; ++y) b[((w * nz + z) * ny) * nx + x] += (int)a[(z * ny + y) * nx + x];
}
#endif
