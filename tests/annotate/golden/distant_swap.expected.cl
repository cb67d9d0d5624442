// Two dimensions of a flat array exchanged that are not neighbours (`-> [..]` with
// dimensions between the pair, docs/remappings.md): [A][d1][B][d2][C] read as A * d1
// records of B x D rows (D = d2) of C scalars, each tile's rows stored transposed
// (SWAP(d1, B)). The outer and the fastest of three (one tile: dl_swap_da, C = 1), the
// second and the fourth of five (A, B and C above one: dl_swap_at), and a pair with two
// dimensions between it. Accesses written ((e*B + b)*D + j)*C + x, in any form that
// sums to it, go through compares; others through dl_flat_swap (three divisions). Where
// b, j and x are proven inside their dimensions, no compare is left (dl_swap_in_da,
// dl_swap_in).

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
/* Record e, row b d + j, scalar x of a swap of two dimensions that are not
   neighbours: records of bb x d rows of c scalars of z bytes, tiles of w records
   whose rows are stored transposed (row j bb + b), where b < bb, j < d and x < c
   are known. Records e >= n keep their AoS address. */
static inline ulong dl_swap_in(dl_off w, dl_off n, dl_off bb, dl_off d, dl_off c,
                               dl_off z, dl_off e, dl_off b, dl_off j, dl_off x) {
  /* Row j bb + b inside the first n records, b d + j past them: linear in j
     with factors fixed per record, which a loop over j strength-reduces (a
     select between the two rows kept GPU compilers from doing so). */
  const dl_off jm = e < n ? bb : 1, bm = e < n ? 1 : d, k = j * jm + b * bm;
  return dl_tiled(w, n, bb * d * c * z, e, k * c * z, c * z) + (ulong)x * z;
}
/* Element x of a flat array whose records are bb x d rows of c scalars of z bytes
   (a swap of two dimensions that are not neighbours): record x / (bb d c), row q
   = b d + j and scalar in it (three divisions). */
static inline ulong dl_flat_swap(dl_off w, dl_off n, dl_off bb, dl_off d, dl_off c,
                                 dl_off z, dl_off x) {
  const dl_off l = bb * d * c, i = x / l, r = x - i * l, q = r / c, b = q / d;
  return dl_swap_in(w, n, bb, d, c, z, i, b, q - b * d, r - q * c);
}
/* dl_swap_in for one tile of all n records (DA): (((j bb + b) n + e) c + x) z. */
static inline ulong dl_swap_in_da(dl_off n, dl_off bb, dl_off d, dl_off c, dl_off z,
                                  dl_off e, dl_off b, dl_off j, dl_off x) {
  /* Row j bb + b inside the first n records, b d + j past them: linear in j
     with factors fixed per record, which a loop over j strength-reduces (a
     select between the two rows kept GPU compilers from doing so). */
  const dl_off jm = e < n ? bb : 1, bm = e < n ? 1 : d, k = j * jm + b * bm;
  return dl_da(n, bb * d * c * z, e, k * c * z, c * z) + (ulong)x * z;
}
/* dl_swap_at for one tile of all n records (DA): no division by the tile width. */
static inline ulong dl_swap_da(dl_off n, dl_off bb, dl_off d, dl_off c, dl_off z,
                               dl_off b2, dl_off d2, dl_off c2, dl_off e, dl_off b,
                               dl_off j, dl_off x, dl_off f) {
  if (b2 == bb && d2 == d && c2 == c && b < bb && j < d && x < c)
    return dl_swap_in_da(n, bb, d, c, z, e, b, j, x);
  return dl_flat_swap(n, n, bb, d, c, z, f);
}
/* Element f = ((e*b2 + b)*d2 + j)*c2 + x of a swap of two dimensions that are not
   neighbours: where the kernel's own b2, d2 and c2 are the record's and b, j, x lie
   inside them (compares), record e, row b d + j, scalar x; otherwise through
   dl_flat_swap of f as the kernel computes it. */
static inline ulong dl_swap_at(dl_off w, dl_off n, dl_off bb, dl_off d, dl_off c,
                               dl_off z, dl_off b2, dl_off d2, dl_off c2, dl_off e,
                               dl_off b, dl_off j, dl_off x, dl_off f) {
  if (b2 == bb && d2 == d && c2 == c && b < bb && j < d && x < c)
    return dl_swap_in(w, n, bb, d, c, z, e, b, j, x);
  return dl_flat_swap(w, n, bb, d, c, z, f);
}
#endif
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz] AOS2SWAP_flat_float, b:int[nv][nw][nz][ny][nx * 2] -> [nv][ny][nz][nw][nx * 2] AOS2SWAP_flat_int, c:float[nw][nz][ny][nx] -> [nx][nz][ny][nw] AOS2SWAP_flat_float
#ifdef DL_ASTA_T
__kernel void k(__global const float *a, __global int *b, __global float *c, int nx, int ny,
                int nz, int nw, int nv) {
  const dl_off dl_n_a = (dl_off)((long)(nz));
  const dl_off dl_b_a = (dl_off)(((long)(ny)));
  const dl_off dl_d_a = (dl_off)(((long)(nx)));
  const dl_off dl_s_a = dl_b_a * dl_d_a;
  const dl_off dl_c_a = (dl_off)(1);
  const dl_off dl_w_a = dl_n_a;
  const dl_off dl_n_b = (dl_off)((long)(nv) * (long)(nw));
  const dl_off dl_b_b = (dl_off)(((long)(nz)));
  const dl_off dl_d_b = (dl_off)(((long)(ny)));
  const dl_off dl_s_b = dl_b_b * dl_d_b;
  const dl_off dl_c_b = (dl_off)((((long)(nx) * (long)2)));
  const dl_off dl_w_b = (dl_off)((long)(nw));
  const dl_off dl_n_c = (dl_off)((long)(nw));
  const dl_off dl_b_c = (dl_off)(((long)(nz)) * ((long)(ny)));
  const dl_off dl_d_c = (dl_off)(((long)(nx)));
  const dl_off dl_s_c = dl_b_c * dl_d_c;
  const dl_off dl_c_c = (dl_off)(1);
  const dl_off dl_w_c = dl_n_c;
  const int i = get_global_id(0);
  if (i >= nx * ny * nz) return;
  const int x = i % nx, y = i / nx % ny, z = i / (nx * ny), row = nx * 2;
  DL_REF(__global, float, c, dl_flat_swap(dl_w_c, dl_n_c, dl_b_c, dl_d_c, dl_c_c, 4, (i))) = DL_REF(__global, float, a, dl_flat_swap(dl_w_a, dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (i))) + (float)DL_REF(__global, int, b, dl_flat_swap(dl_w_b, dl_n_b, dl_b_b, dl_d_b, dl_c_b, 4, (i * 2 + 1)));
  DL_REF(__global, float, c, dl_swap_da(dl_n_c, dl_b_c, dl_d_c, dl_c_c, 4, (nz) * (ny), (nx), 1, (nw) - (1), (y), (x), 0, (((nw - 1) * nz * ny + y) * nx + x))) += DL_REF(__global, float, a, dl_swap_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (ny), (nx), 1, (z), (y), (x), 0, ((z * ny + y) * nx + x))) + DL_REF(__global, float, a, dl_swap_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (ny), (nx), 1, (z), (y), (x) + (1), 0, (z * ny * nx + y * nx + x + 1)));
  DL_REF(__global, int, b, dl_swap_at(dl_w_b, dl_n_b, dl_b_b, dl_d_b, dl_c_b, 4, (nz), (ny), (row), ((nv - 1) * nw) + (1), (z), (y), (x), ((((nv - 1) * nw + 1) * nz + z) * ny * row + y * row + x))) = (int)DL_REF(__global, float, a, dl_swap_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (ny), (nx), 1, ((z + 1) % nz), (y), (x), 0, (((z + 1) % nz * ny + y) * nx + x)));
}
#else
__kernel void k(__global const float *a, __global int *b, __global float *c, int nx, int ny,
                int nz, int nw, int nv) {
  const int i = get_global_id(0);
  if (i >= nx * ny * nz) return;
  const int x = i % nx, y = i / nx % ny, z = i / (nx * ny), row = nx * 2;
  c[i] = a[i] + (float)b[i * 2 + 1];
  c[((nw - 1) * nz * ny + y) * nx + x] += a[(z * ny + y) * nx + x] + a[z * ny * nx + y * nx + x + 1];
  b[(((nv - 1) * nw + 1) * nz + z) * ny * row + y * row + x] = (int)a[((z + 1) % nz * ny + y) * nx + x];
}
#endif

// Proven inside: counters below the dimensions between the pair (y < ny of a, v < nz of
// b) and below the second of the pair (y of b), x = i - (i / nx) * nx or i % nx.
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz] AOS2SWAP_flat_float, b:int[nv][nw][nz][ny][nx] -> [nv][ny][nz][nw][nx] AOS2SWAP_flat_int
#ifdef DL_ASTA_T
__kernel void inside(__global const float *a, __global int *b, int nx, int ny, int nz, int nw,
                     int nv) {
  const dl_off dl_n_a = (dl_off)((long)(nz));
  const dl_off dl_b_a = (dl_off)(((long)(ny)));
  const dl_off dl_d_a = (dl_off)(((long)(nx)));
  const dl_off dl_s_a = dl_b_a * dl_d_a;
  const dl_off dl_c_a = (dl_off)(1);
  const dl_off dl_w_a = dl_n_a;
  const dl_off dl_n_b = (dl_off)((long)(nv) * (long)(nw));
  const dl_off dl_b_b = (dl_off)(((long)(nz)));
  const dl_off dl_d_b = (dl_off)(((long)(ny)));
  const dl_off dl_s_b = dl_b_b * dl_d_b;
  const dl_off dl_c_b = (dl_off)(((long)(nx)));
  const dl_off dl_w_b = (dl_off)((long)(nw));
  const int i = get_global_id(0);
  if (i >= nx * nz * nw) return;
  const int q = i / nx, x = i - q * nx, x2 = i % nx, z = q % nz, w = q / nz;
  for (int y = 0; y < ny; ++y) {
    for (int v = 0; v < nz; ++v) DL_REF(__global, int, b, dl_swap_in(dl_w_b, dl_n_b, dl_b_b, dl_d_b, dl_c_b, 4, (w), (v), (y), (x2))) += (int)DL_REF(__global, float, a, dl_swap_in_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (z), (y), (x), 0));
    /* Compares for a: its middle index is a sum (y + 1). */
    if (y + 1 < ny) DL_REF(__global, int, b, dl_swap_at(dl_w_b, dl_n_b, dl_b_b, dl_d_b, dl_c_b, 4, (nz), (ny), (nx), (w), (z), (y), (x), (((w * nz + z) * ny + y) * nx + x))) += (int)DL_REF(__global, float, a, dl_swap_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (ny), (nx), 1, (z), (y) + (1), (x2), 0, ((z * ny + y + 1) * nx + x2)));
  }
}
#else
__kernel void inside(__global const float *a, __global int *b, int nx, int ny, int nz, int nw,
                     int nv) {
  const int i = get_global_id(0);
  if (i >= nx * nz * nw) return;
  const int q = i / nx, x = i - q * nx, x2 = i % nx, z = q % nz, w = q / nz;
  for (int y = 0; y < ny; ++y) {
    for (int v = 0; v < nz; ++v) b[((w * nz + v) * ny + y) * nx + x2] += (int)a[(z * ny + y) * nx + x];
    /* Compares for a: its middle index is a sum (y + 1). */
    if (y + 1 < ny) b[((w * nz + z) * ny + y) * nx + x] += (int)a[(z * ny + y + 1) * nx + x2];
  }
}
#endif
