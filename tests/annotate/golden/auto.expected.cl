// ARGS: --auto
// Zero-touch: kernels nobody annotated get inferred annotations (n = the whole buffer),
// and a kernel annotated by hand keeps its own.
typedef struct {
  float4 pos;
  float3 vel;
  int id;
} particle;

#define NQ 5
#define AT(g, e, q) (g[(q) + NQ * (e)])

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
//DL: record particle 48 16 float4:pos@0 float3:vel@16 int:id@32
//DL: AoS: p[*] -> ASTA AOS2ASTA_particle
#ifdef DL_ASTA_T
__kernel void integrate(__global particle *p, float dt, ulong dl_whole_p) {
  const dl_off dl_n_p = (dl_off)((long)(dl_whole_p));
  const dl_off dl_w_p = (dl_off)(DL_ASTA_T);
  const int i = get_global_id(0);
  DL_REF(__global, float4, p, dl_tiled(dl_w_p, dl_n_p, 48, (i), 0, 16)).xyz += DL_REF(__global, float3, p, dl_tiled(dl_w_p, dl_n_p, 48, (i), 16, 16)) * dt;
}
#else
__kernel void integrate(__global particle *p, float dt) {
  const int i = get_global_id(0);
  p[i].pos.xyz += p[i].vel * dt;
}
#endif

// Records of NQ floats in a flat array (through a macro); `w` is a plain scalar array.
//DL: record flat_float_5 20 4 float*5:v@0
//DL: AoS: const g[*][5] -> ASTA AOS2ASTA_flat_float_5
#ifdef DL_ASTA_T
__kernel void collide(__global const float *g, __global float *w, int nx, ulong dl_whole_g) {
  const dl_off dl_n_g = (dl_off)((long)(dl_whole_g));
  const dl_off dl_w_g = (dl_off)(DL_ASTA_T);
  const int e = get_global_id(0);
  if (e >= nx) return;
  w[e] = ((DL_REF(__global, float, g, dl_tiled(dl_w_g, dl_n_g, 20, (((e))), 0, 4)))) + ((DL_REF(__global, float, g, dl_tiled(dl_w_g, dl_n_g, 20, (((e))), 4, 4)))) + DL_REF(__global, float, g, dl_tiled(dl_w_g, dl_n_g, 20, (e), 16, 4));
}
#else
__kernel void collide(__global const float *g, __global float *w, int nx) {
  const int e = get_global_id(0);
  if (e >= nx) return;
  w[e] = AT(g, e, 0) + AT(g, e, 1) + g[NQ * e + 4];
}
#endif

//DL: AoS: p[n] -> ASTA AOS2ASTA_particle
#ifdef DL_ASTA_T
__kernel void annotated(__global particle *p, int n) {
  const dl_off dl_n_p = (dl_off)((long)(n));
  const dl_off dl_w_p = (dl_off)(DL_ASTA_T);
  DL_REF(__global, int, p, dl_tiled(dl_w_p, dl_n_p, 48, (get_global_id(0)), 32, 4)) = 1;
}
#else
__kernel void annotated(__global particle *p, int n) {
  p[get_global_id(0)].id = 1;
}
#endif

// An access dl-annotate cannot prove it rewrites: nothing is inferred for this kernel.
__kernel void opaque(__global particle *p) {
  __global float *f = (__global float *)p;
  f[get_global_id(0)] = 0.0f;
}
