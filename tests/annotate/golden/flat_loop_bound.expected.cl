// A loop over the scalars of a flat record, `for (x = 0; x < S; ++x) g[i * S + x]`, needs no
// compare with S: x is known to lie in [0, S), so the access is slot x of record i
// (dl_tiled). Every other loop keeps the compare (dl_flat_at): a bound that is not S, a
// loop variable the body changes, an S the kernel reassigns, a start that may be negative.

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
//DL: record flat_float_4 16 4 float*4:v@0
//DL: AoS: const a:float[n][nx] -> ASTA AOS2ASTA_flat_float, out[n][4] -> ASTA AOS2ASTA_flat_float_4
#ifdef DL_ASTA_T
__kernel void bounded(__global const float *a, __global float *out, int n, int nx, int m,
                      int lo) {
  const dl_off dl_n_a = (dl_off)((long)(n));
  const dl_off dl_s_a = (dl_off)((long)(nx));
  const dl_off dl_w_a = (dl_off)(DL_ASTA_T);
  const dl_off dl_n_out = (dl_off)((long)(n));
  const dl_off dl_w_out = (dl_off)(DL_ASTA_T);
  const int r = get_global_id(0);
  if (r >= n) return;
  float s = 0.0f;
  for (int x = 0; x < nx; ++x) s += DL_REF(__global, float, a, dl_tiled(dl_w_a, dl_n_a, dl_s_a * 4, (r), (dl_off)((x)) * 4, 4));          /* dl_tiled */
  for (int x = 0; x < m; ++x) s += DL_REF(__global, float, a, dl_flat_at(dl_w_a, dl_n_a, dl_s_a, 4, (r), (x), (r * nx + x)));           /* bound m: compare */
  for (int x = 0; x < nx; ++x) {
    s += DL_REF(__global, float, a, dl_flat_at(dl_w_a, dl_n_a, dl_s_a, 4, (r), (x), (r * nx + x)));                                     /* x changes: compare */
    x += 1;
  }
  for (int x = lo; x < nx; ++x) s += DL_REF(__global, float, a, dl_flat_at(dl_w_a, dl_n_a, dl_s_a, 4, (r), (x), (r * nx + x)));         /* start lo: compare */
  for (int x = 0; x <= 3; ++x) DL_REF(__global, float, out, dl_flat_at(dl_w_out, dl_n_out, 4, 4, (r), (x), (4 * r + x))) = s;          /* <=: compare */
  int c;
  for (c = 1; c < 4; c++) DL_REF(__global, float, out, dl_tiled(dl_w_out, dl_n_out, 16, (r), (dl_off)((c)) * 4, 4)) += 1.0f;           /* c = 1, c++: dl_tiled */
  for (int x = 0; x < nx; ++x) {
    const float v = DL_REF(__global, float, a, dl_tiled(dl_w_a, dl_n_a, dl_s_a * 4, (r), (dl_off)((x)) * 4, 4));                          /* in a declaration: dl_tiled */
    DL_REF(__global, float, out, dl_tiled(dl_w_out, dl_n_out, 16, (r), 0, 4)) += v;
  }
  for (int x = 0; x < m; ++x) {
    const float v = DL_REF(__global, float, a, dl_flat_at(dl_w_a, dl_n_a, dl_s_a, 4, (r), (x), (r * nx + x)));                          /* bound m: compare */
    DL_REF(__global, float, out, dl_tiled(dl_w_out, dl_n_out, 16, (r), 0, 4)) += v;
  }
}
#else
__kernel void bounded(__global const float *a, __global float *out, int n, int nx, int m,
                      int lo) {
  const int r = get_global_id(0);
  if (r >= n) return;
  float s = 0.0f;
  for (int x = 0; x < nx; ++x) s += a[r * nx + x];          /* dl_tiled */
  for (int x = 0; x < m; ++x) s += a[r * nx + x];           /* bound m: compare */
  for (int x = 0; x < nx; ++x) {
    s += a[r * nx + x];                                     /* x changes: compare */
    x += 1;
  }
  for (int x = lo; x < nx; ++x) s += a[r * nx + x];         /* start lo: compare */
  for (int x = 0; x <= 3; ++x) out[4 * r + x] = s;          /* <=: compare */
  int c;
  for (c = 1; c < 4; c++) out[r * 4 + c] += 1.0f;           /* c = 1, c++: dl_tiled */
  for (int x = 0; x < nx; ++x) {
    const float v = a[r * nx + x];                          /* in a declaration: dl_tiled */
    out[4 * r] += v;
  }
  for (int x = 0; x < m; ++x) {
    const float v = a[r * nx + x];                          /* bound m: compare */
    out[4 * r] += v;
  }
}
#endif

//DL: AoS: const a:float[n][nx] -> ASTA AOS2ASTA_flat_float
#ifdef DL_ASTA_T
__kernel void reassigned(__global const float *a, __global float *out, int n, int nx) {
  const dl_off dl_n_a = (dl_off)((long)(n));
  const dl_off dl_s_a = (dl_off)((long)(nx));
  const dl_off dl_w_a = (dl_off)(DL_ASTA_T);
  const int r = get_global_id(0);
  if (r >= n) return;
  float s = 0.0f;
  nx = nx - 1; /* the loop's bound is no longer the record length: compare */
  for (int x = 0; x < nx; ++x) s += DL_REF(__global, float, a, dl_flat(dl_w_a, dl_n_a, dl_s_a, 4, (r * (nx + 1) + x)));
  out[r] = s;
}
#else
__kernel void reassigned(__global const float *a, __global float *out, int n, int nx) {
  const int r = get_global_id(0);
  if (r >= n) return;
  float s = 0.0f;
  nx = nx - 1; /* the loop's bound is no longer the record length: compare */
  for (int x = 0; x < nx; ++x) s += a[r * (nx + 1) + x];
  out[r] = s;
}
#endif
