// Swapped dimensions (`-> [..]`, docs/annotation.md) where an index fixed at g / P2 (g a
// work-item id, P2 a parameter) is proven below the dimension Q by a guard on g: every
// execution of the access follows `if (g >= P2 * Q) return;` of the kernel's top-level
// body (`Q * P2 <= g`, or one operand of a `||`), or lies in the then-branch of an
// `if (g < P2 * Q)` (`P2 * Q > g`, or one operand of an `&&`). Then no compare is left
// (dl_swap_in_da, dl_rows_in_da); any other guard keeps the compares (dl_swap_da,
// dl_rows_da).

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
/* dl_swap_in for one tile of all n records (DA): (((j bb + b) n + e) c + x) z. */
static inline ulong dl_swap_in_da(dl_off n, dl_off bb, dl_off d, dl_off c, dl_off z,
                                  dl_off e, dl_off b, dl_off j, dl_off x) {
  /* Row j bb + b inside the first n records, b d + j past them: linear in j
     with factors fixed per record, which a loop over j strength-reduces (a
     select between the two rows kept GPU compilers from doing so). */
  const dl_off jm = e < n ? bb : 1, bm = e < n ? 1 : d, k = j * jm + b * bm;
  return dl_da(n, bb * d * c * z, e, k * c * z, c * z) + (ulong)x * z;
}
#endif
// Proven: a sweep along x of a[x][y][z], y = i / nz below ny (bench/apps/swap, swap_far).
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz] AOS2SWAP_flat_float
#ifdef DL_ASTA_T
__kernel void far(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const dl_off dl_n_a = (dl_off)((long)(nz));
  const dl_off dl_b_a = (dl_off)(((long)(ny)));
  const dl_off dl_d_a = (dl_off)(((long)(nx)));
  const dl_off dl_s_a = dl_b_a * dl_d_a;
  const dl_off dl_c_a = (dl_off)(1);
  const dl_off dl_w_a = dl_n_a;
  const int i = get_global_id(0);
  if (i >= nz * ny) return;
  const int y = i / nz, z = i - y * nz;
  float s = 0.0f;
  for (int x = 0; x < nx; ++x) s += DL_REF(__global, float, a, dl_swap_in_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (z), (y), (x), 0));
  out[i] = s;
}
#else
__kernel void far(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nz * ny) return;
  const int y = i / nz, z = i - y * nz;
  float s = 0.0f;
  for (int x = 0; x < nx; ++x) s += a[(z * ny + y) * nx + x];
  out[i] = s;
}
#endif

#ifdef DL_ASTA_T
/* dl_rows_in for one tile of all n records (DA): ((j n + e) c + x) z. */
static inline ulong dl_rows_in_da(dl_off n, dl_off s, dl_off c, dl_off z, dl_off e,
                                  dl_off j, dl_off x) {
  return dl_da(n, s * c * z, e, j * c * z, c * z) + (ulong)x * z;
}
#endif
// Proven: two adjacent dimensions (a[z][y][x] -> a'[y][z][x]), the row y = i / nx below
// ny, the guard's product reversed and written `E <= g` in a block.
//DL: AoS: const a:float[nz][ny][nx] -> [ny][nz][nx] AOS2ASTA_flat_float
#ifdef DL_ASTA_T
__kernel void adjacent(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const dl_off dl_n_a = (dl_off)((long)(nz));
  const dl_off dl_s_a = (dl_off)((long)(ny));
  const dl_off dl_c_a = (dl_off)(((long)(nx)));
  const dl_off dl_w_a = dl_n_a;
  const int i = get_global_id(0);
  if (ny * nx <= i) {
    return;
  }
  const int y = i / nx, x = i - y * nx;
  float s = 0.0f;
  for (int z = 0; z < nz; ++z) s += DL_REF(__global, float, a, dl_rows_in_da(dl_n_a, dl_s_a, dl_c_a, 4, (z), (y), (x)));
  out[i] = s;
}
#else
__kernel void adjacent(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (ny * nx <= i) {
    return;
  }
  const int y = i / nx, x = i - y * nx;
  float s = 0.0f;
  for (int z = 0; z < nz; ++z) s += a[(z * ny + y) * nx + x];
  out[i] = s;
}
#endif

// Proven: one operand of a `||` of an early return, and guards that enclose the access
// (`if (g < E)`, `E > g`, one operand of an `&&`).
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz] AOS2SWAP_flat_float
#ifdef DL_ASTA_T
__kernel void far_or(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const dl_off dl_n_a = (dl_off)((long)(nz));
  const dl_off dl_b_a = (dl_off)(((long)(ny)));
  const dl_off dl_d_a = (dl_off)(((long)(nx)));
  const dl_off dl_s_a = dl_b_a * dl_d_a;
  const dl_off dl_c_a = (dl_off)(1);
  const dl_off dl_w_a = dl_n_a;
  const int i = get_global_id(0);
  if (nx < 1 || ny * nz <= i) return;
  const int y = i / nz, z = i - y * nz;
  out[i] = DL_REF(__global, float, a, dl_swap_in_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (z), (y), 0, 0));
}
#else
__kernel void far_or(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (nx < 1 || ny * nz <= i) return;
  const int y = i / nz, z = i - y * nz;
  out[i] = a[(z * ny + y) * nx];
}
#endif
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz] AOS2SWAP_flat_float
#ifdef DL_ASTA_T
__kernel void far_if(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const dl_off dl_n_a = (dl_off)((long)(nz));
  const dl_off dl_b_a = (dl_off)(((long)(ny)));
  const dl_off dl_d_a = (dl_off)(((long)(nx)));
  const dl_off dl_s_a = dl_b_a * dl_d_a;
  const dl_off dl_c_a = (dl_off)(1);
  const dl_off dl_w_a = dl_n_a;
  const int i = get_global_id(0);
  const int y = i / nz, z = i - y * nz;
  if (i < nz * ny) {
    float s = 0.0f;
    for (int x = 0; x < nx; ++x) s += DL_REF(__global, float, a, dl_swap_in_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (z), (y), (x), 0));
    out[i] = s;
  }
  if (nx > 1 && ny * nz > i) out[i] += DL_REF(__global, float, a, dl_swap_in_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (z), (y), 0, 0));
}
#else
__kernel void far_if(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  const int y = i / nz, z = i - y * nz;
  if (i < nz * ny) {
    float s = 0.0f;
    for (int x = 0; x < nx; ++x) s += a[(z * ny + y) * nx + x];
    out[i] = s;
  }
  if (nx > 1 && ny * nz > i) out[i] += a[(z * ny + y) * nx];
}
#endif
//DL: AoS: const a:float[nz][ny][nx] -> [ny][nz][nx] AOS2ASTA_flat_float
#ifdef DL_ASTA_T
__kernel void adjacent_if(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const dl_off dl_n_a = (dl_off)((long)(nz));
  const dl_off dl_s_a = (dl_off)((long)(ny));
  const dl_off dl_c_a = (dl_off)(((long)(nx)));
  const dl_off dl_w_a = dl_n_a;
  const int i = get_global_id(0);
  const int y = i / nx, x = i % nx;
  if (i < nx * ny)
    for (int z = 0; z < nz; ++z) out[i] += DL_REF(__global, float, a, dl_rows_in_da(dl_n_a, dl_s_a, dl_c_a, 4, (z), (y), (x)));
}
#else
__kernel void adjacent_if(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  const int y = i / nx, x = i % nx;
  if (i < nx * ny)
    for (int z = 0; z < nz; ++z) out[i] += a[(z * ny + y) * nx + x];
}
#endif

#ifdef DL_ASTA_T
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
/* dl_swap_at for one tile of all n records (DA): no division by the tile width. */
static inline ulong dl_swap_da(dl_off n, dl_off bb, dl_off d, dl_off c, dl_off z,
                               dl_off b2, dl_off d2, dl_off c2, dl_off e, dl_off b,
                               dl_off j, dl_off x, dl_off f) {
  if (b2 == bb && d2 == d && c2 == c && b < bb && j < d && x < c)
    return dl_swap_in_da(n, bb, d, c, z, e, b, j, x);
  return dl_flat_swap(n, n, bb, d, c, z, f);
}
#endif
// Compares kept: the guard after the access, a product of other dimensions (nz * nx when
// y must lie below ny), `>` and `<=` (i == nz * ny gives y == ny), an early return inside
// a block, an early return under `&&`, a guard of another id, the else-branch of a guard
// and a `||` of an enclosing one.
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz] AOS2SWAP_flat_float
#ifdef DL_ASTA_T
__kernel void after(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const dl_off dl_n_a = (dl_off)((long)(nz));
  const dl_off dl_b_a = (dl_off)(((long)(ny)));
  const dl_off dl_d_a = (dl_off)(((long)(nx)));
  const dl_off dl_s_a = dl_b_a * dl_d_a;
  const dl_off dl_c_a = (dl_off)(1);
  const dl_off dl_w_a = dl_n_a;
  const int i = get_global_id(0);
  const int y = i / nz, z = i - y * nz;
  if (y < ny) out[i] = DL_REF(__global, float, a, dl_swap_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (ny), (nx), 1, (z), (y), 0, 0, ((z * ny + y) * nx)));
  if (i >= nz * ny) return;
  out[i] += DL_REF(__global, float, a, dl_swap_in_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (z), (y), 0, 0)); /* proven: after the guard */
}
#else
__kernel void after(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  const int y = i / nz, z = i - y * nz;
  if (y < ny) out[i] = a[(z * ny + y) * nx];
  if (i >= nz * ny) return;
  out[i] += a[(z * ny + y) * nx]; /* proven: after the guard */
}
#endif
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz] AOS2SWAP_flat_float
#ifdef DL_ASTA_T
__kernel void wrong_product(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const dl_off dl_n_a = (dl_off)((long)(nz));
  const dl_off dl_b_a = (dl_off)(((long)(ny)));
  const dl_off dl_d_a = (dl_off)(((long)(nx)));
  const dl_off dl_s_a = dl_b_a * dl_d_a;
  const dl_off dl_c_a = (dl_off)(1);
  const dl_off dl_w_a = dl_n_a;
  const int i = get_global_id(0);
  if (i >= nz * nx) return;
  const int y = i / nz, z = i - y * nz;
  if (i < nz * nx) out[i] = DL_REF(__global, float, a, dl_swap_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (ny), (nx), 1, (z), (y), 0, 0, ((z * ny + y) * nx)));
}
#else
__kernel void wrong_product(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nz * nx) return;
  const int y = i / nz, z = i - y * nz;
  if (i < nz * nx) out[i] = a[(z * ny + y) * nx];
}
#endif
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz] AOS2SWAP_flat_float
#ifdef DL_ASTA_T
__kernel void greater(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const dl_off dl_n_a = (dl_off)((long)(nz));
  const dl_off dl_b_a = (dl_off)(((long)(ny)));
  const dl_off dl_d_a = (dl_off)(((long)(nx)));
  const dl_off dl_s_a = dl_b_a * dl_d_a;
  const dl_off dl_c_a = (dl_off)(1);
  const dl_off dl_w_a = dl_n_a;
  const int i = get_global_id(0);
  if (i > nz * ny) return;
  const int y = i / nz, z = i - y * nz;
  out[i] = DL_REF(__global, float, a, dl_swap_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (ny), (nx), 1, (z), (y), 0, 0, ((z * ny + y) * nx)));
  if (i <= nz * ny) out[i] += DL_REF(__global, float, a, dl_swap_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (ny), (nx), 1, (z), (y), 0, 0, ((z * ny + y) * nx)));
}
#else
__kernel void greater(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i > nz * ny) return;
  const int y = i / nz, z = i - y * nz;
  out[i] = a[(z * ny + y) * nx];
  if (i <= nz * ny) out[i] += a[(z * ny + y) * nx];
}
#endif
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz] AOS2SWAP_flat_float
#ifdef DL_ASTA_T
__kernel void nested(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const dl_off dl_n_a = (dl_off)((long)(nz));
  const dl_off dl_b_a = (dl_off)(((long)(ny)));
  const dl_off dl_d_a = (dl_off)(((long)(nx)));
  const dl_off dl_s_a = dl_b_a * dl_d_a;
  const dl_off dl_c_a = (dl_off)(1);
  const dl_off dl_w_a = dl_n_a;
  const int i = get_global_id(0);
  if (nx > 0) {
    if (i >= nz * ny) return;
  }
  const int y = i / nz, z = i - y * nz;
  out[i] = DL_REF(__global, float, a, dl_swap_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (ny), (nx), 1, (z), (y), 0, 0, ((z * ny + y) * nx)));
}
#else
__kernel void nested(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (nx > 0) {
    if (i >= nz * ny) return;
  }
  const int y = i / nz, z = i - y * nz;
  out[i] = a[(z * ny + y) * nx];
}
#endif
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz] AOS2SWAP_flat_float
#ifdef DL_ASTA_T
__kernel void and_return(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const dl_off dl_n_a = (dl_off)((long)(nz));
  const dl_off dl_b_a = (dl_off)(((long)(ny)));
  const dl_off dl_d_a = (dl_off)(((long)(nx)));
  const dl_off dl_s_a = dl_b_a * dl_d_a;
  const dl_off dl_c_a = (dl_off)(1);
  const dl_off dl_w_a = dl_n_a;
  const int i = get_global_id(0);
  if (i >= nz * ny && nx > 0) return;
  const int y = i / nz, z = i - y * nz;
  out[i] = DL_REF(__global, float, a, dl_swap_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (ny), (nx), 1, (z), (y), 0, 0, ((z * ny + y) * nx)));
}
#else
__kernel void and_return(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nz * ny && nx > 0) return;
  const int y = i / nz, z = i - y * nz;
  out[i] = a[(z * ny + y) * nx];
}
#endif
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz] AOS2SWAP_flat_float
#ifdef DL_ASTA_T
__kernel void other_id(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const dl_off dl_n_a = (dl_off)((long)(nz));
  const dl_off dl_b_a = (dl_off)(((long)(ny)));
  const dl_off dl_d_a = (dl_off)(((long)(nx)));
  const dl_off dl_s_a = dl_b_a * dl_d_a;
  const dl_off dl_c_a = (dl_off)(1);
  const dl_off dl_w_a = dl_n_a;
  const int i = get_global_id(0), k = get_global_id(1);
  if (k >= nz * ny) return;
  const int y = i / nz, z = i - y * nz;
  out[i] = DL_REF(__global, float, a, dl_swap_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (ny), (nx), 1, (z), (y), 0, 0, ((z * ny + y) * nx)));
}
#else
__kernel void other_id(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0), k = get_global_id(1);
  if (k >= nz * ny) return;
  const int y = i / nz, z = i - y * nz;
  out[i] = a[(z * ny + y) * nx];
}
#endif
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz] AOS2SWAP_flat_float
#ifdef DL_ASTA_T
__kernel void in_else(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const dl_off dl_n_a = (dl_off)((long)(nz));
  const dl_off dl_b_a = (dl_off)(((long)(ny)));
  const dl_off dl_d_a = (dl_off)(((long)(nx)));
  const dl_off dl_s_a = dl_b_a * dl_d_a;
  const dl_off dl_c_a = (dl_off)(1);
  const dl_off dl_w_a = dl_n_a;
  const int i = get_global_id(0);
  const int y = i / nz, z = i - y * nz;
  if (i < nz * ny)
    out[i] = DL_REF(__global, float, a, dl_swap_in_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (z), (y), 0, 0)); /* proven */
  else if (i < nz * ny || nx > 0)
    out[i] = DL_REF(__global, float, a, dl_swap_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (ny), (nx), 1, (z), (y), 0, 0, ((z * ny + y) * nx)));
}
#else
__kernel void in_else(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  const int y = i / nz, z = i - y * nz;
  if (i < nz * ny)
    out[i] = a[(z * ny + y) * nx]; /* proven */
  else if (i < nz * ny || nx > 0)
    out[i] = a[(z * ny + y) * nx];
}
#endif

// Compares kept: a label in the kernel (a goto may pass the guard).
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz] AOS2SWAP_flat_float
#ifdef DL_ASTA_T
__kernel void label(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const dl_off dl_n_a = (dl_off)((long)(nz));
  const dl_off dl_b_a = (dl_off)(((long)(ny)));
  const dl_off dl_d_a = (dl_off)(((long)(nx)));
  const dl_off dl_s_a = dl_b_a * dl_d_a;
  const dl_off dl_c_a = (dl_off)(1);
  const dl_off dl_w_a = dl_n_a;
  const int i = get_global_id(0);
  const int y = i / nz, z = i - y * nz;
  if (nx > 4) goto read;
  if (i >= nz * ny) return;
read:
  out[i] = DL_REF(__global, float, a, dl_swap_da(dl_n_a, dl_b_a, dl_d_a, dl_c_a, 4, (ny), (nx), 1, (z), (y), 0, 0, ((z * ny + y) * nx)));
}
#else
__kernel void label(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  const int y = i / nz, z = i - y * nz;
  if (nx > 4) goto read;
  if (i >= nz * ny) return;
read:
  out[i] = a[(z * ny + y) * nx];
}
#endif
