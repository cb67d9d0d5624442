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
#endif
// The batch of particle records of upload.cl read as rows of 12 floats (pos, vel, mass,
// the id's bits and the padding), in planes of H rows: the annotation lets DL store each
// plane diagonalized (-> DIAG), so a whole write of the batch lands in chunks of whole
// planes, each diagonalized as it lands. Rows past the last whole plane stay AoS. The
// same arithmetic as upload.cl, so the host's check is the same.
//DL: record flat_float_12 48 4 float*12:v@0
//DL: AoS: const p[nplanes][H][12] -> DIAG AOS2DIAG_flat_float_12
#ifdef DL_ASTA_T
__kernel void energy(__global const float* p, __global float* out, int n, int nplanes, int H) {
  const dl_off dl_n_p = (dl_off)((long)(nplanes) * (long)(H));
  const dl_off dl_w_p = (dl_off)((long)(H));
  const int i = get_global_id(0);
  if (i >= n) return;
  const float4 pos = (float4)(DL_REF(__global, float, p, dl_diag(dl_w_p, dl_n_p, 48, (i), 0, 4)), DL_REF(__global, float, p, dl_diag(dl_w_p, dl_n_p, 48, (i), 4, 4)), DL_REF(__global, float, p, dl_diag(dl_w_p, dl_n_p, 48, (i), 8, 4)), DL_REF(__global, float, p, dl_diag(dl_w_p, dl_n_p, 48, (i), 12, 4)));
  const float4 v = (float4)(DL_REF(__global, float, p, dl_diag(dl_w_p, dl_n_p, 48, (i), 16, 4)), DL_REF(__global, float, p, dl_diag(dl_w_p, dl_n_p, 48, (i), 20, 4)), DL_REF(__global, float, p, dl_diag(dl_w_p, dl_n_p, 48, (i), 24, 4)), DL_REF(__global, float, p, dl_diag(dl_w_p, dl_n_p, 48, (i), 28, 4)));
  const float mass = DL_REF(__global, float, p, dl_diag(dl_w_p, dl_n_p, 48, (i), 32, 4));
  const int id = as_int(DL_REF(__global, float, p, dl_diag(dl_w_p, dl_n_p, 48, (i), 36, 4)));
  out[i] = 0.5f * mass * dot(v, v) + dot(pos, v) + (float)(id & 1023);
}
#else
__kernel void energy(__global const float* p, __global float* out, int n, int nplanes, int H) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const float4 pos = (float4)(p[i * 12 + 0], p[i * 12 + 1], p[i * 12 + 2], p[i * 12 + 3]);
  const float4 v = (float4)(p[i * 12 + 4], p[i * 12 + 5], p[i * 12 + 6], p[i * 12 + 7]);
  const float mass = p[i * 12 + 8];
  const int id = as_int(p[i * 12 + 9]);
  out[i] = 0.5f * mass * dot(v, v) + dot(pos, v) + (float)(id & 1023);
}
#endif
