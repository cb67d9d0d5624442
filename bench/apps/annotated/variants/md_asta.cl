// Molecular dynamics as an application writes it (shaped like Rodinia's lavaMD): space is
// a grid of boxes of PAR particles each; one work-group per box sums, for every particle
// of its box, the potential and force of the particles of the box and its neighbours.
// Positions rv and results fv are {v, x, y, z} records in AoS on the host; the charges qv
// are a plain array; nei[box * 27 + k] lists the box itself and its up to 26 neighbours
// (-1: none).
typedef struct {
  float v, x, y, z;
} four_vector;

#define PAR 100  // particles per box
#define NT 128   // work-items per group

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
static inline four_vector dl_load_four_vector_g(const __global uchar *b, dl_off w, dl_off n, dl_off i) {
  four_vector v;
  __private uchar *d = (__private uchar *)&v;
  *(__private uint *)(d + 0) = *(const __global uint *)(b + dl_tiled(w, n, 16, i, 0, 4));
  *(__private uint *)(d + 4) = *(const __global uint *)(b + dl_tiled(w, n, 16, i, 4, 4));
  *(__private uint *)(d + 8) = *(const __global uint *)(b + dl_tiled(w, n, 16, i, 8, 4));
  *(__private uint *)(d + 12) = *(const __global uint *)(b + dl_tiled(w, n, 16, i, 12, 4));
  return v;
}
#endif
//DL: record four_vector 16 4 float:v@0 float:x@4 float:y@8 float:z@12
//DL: AoS: const rv[npar] -> ASTA AOS2ASTA_four_vector, fv[npar] -> ASTA AOS2ASTA_four_vector
#ifdef DL_ASTA_T
__kernel void md_kernel(float alpha, int nboxes, __global const int* nei,
                        __global const four_vector* rv, __global const float* qv,
                        __global four_vector* fv, int npar) {
  const dl_off dl_n_rv = (dl_off)((long)(npar));
  const dl_off dl_w_rv = (dl_off)(DL_ASTA_T);
  const dl_off dl_n_fv = (dl_off)((long)(npar));
  const dl_off dl_w_fv = (dl_off)(DL_ASTA_T);
  __local four_vector rA_shared[PAR], rB_shared[PAR];
  __local float qB_shared[PAR];
  const int bx = get_group_id(0);
  const int tx = get_local_id(0);
  if (bx >= nboxes) return;  // the whole group: barriers stay uniform
  const float a2 = 2.0f * alpha * alpha;
  const int first_i = bx * PAR;
  int wtx = tx;

  // The home box's particles, whole records.
  while (wtx < PAR) {
    rA_shared[wtx] = dl_load_four_vector_g((const __global uchar *)(rv), dl_w_rv, dl_n_rv, (first_i + wtx));
    wtx += NT;
  }
  wtx = tx;
  barrier(CLK_LOCAL_MEM_FENCE);

  for (int k = 0; k < 27; ++k) {
    const int pointer = nei[bx * 27 + k];
    if (pointer < 0) continue;  // no such neighbour (the same for the whole group)
    const int first_j = pointer * PAR;

    // The neighbour box's particles and charges.
    while (wtx < PAR) {
      rB_shared[wtx] = dl_load_four_vector_g((const __global uchar *)(rv), dl_w_rv, dl_n_rv, (first_j + wtx));
      qB_shared[wtx] = qv[first_j + wtx];
      wtx += NT;
    }
    wtx = tx;
    barrier(CLK_LOCAL_MEM_FENCE);

    // Every particle of the home box against every particle of the neighbour box.
    while (wtx < PAR) {
      for (int j = 0; j < PAR; ++j) {
        const float r2 = rA_shared[wtx].v + rB_shared[j].v -
                         (rA_shared[wtx].x * rB_shared[j].x + rA_shared[wtx].y * rB_shared[j].y +
                          rA_shared[wtx].z * rB_shared[j].z);
        const float u2 = a2 * r2;
        const float vij = exp(-u2);
        const float fs = 2.0f * vij;
        const float dx = rA_shared[wtx].x - rB_shared[j].x;
        const float dy = rA_shared[wtx].y - rB_shared[j].y;
        const float dz = rA_shared[wtx].z - rB_shared[j].z;
        const float fxij = fs * dx;
        const float fyij = fs * dy;
        const float fzij = fs * dz;
        DL_REF(__global, float, fv, dl_tiled(dl_w_fv, dl_n_fv, 16, (first_i + wtx), 0, 4)) += qB_shared[j] * vij;
        DL_REF(__global, float, fv, dl_tiled(dl_w_fv, dl_n_fv, 16, (first_i + wtx), 4, 4)) += qB_shared[j] * fxij;
        DL_REF(__global, float, fv, dl_tiled(dl_w_fv, dl_n_fv, 16, (first_i + wtx), 8, 4)) += qB_shared[j] * fyij;
        DL_REF(__global, float, fv, dl_tiled(dl_w_fv, dl_n_fv, 16, (first_i + wtx), 12, 4)) += qB_shared[j] * fzij;
      }
      wtx += NT;
    }
    wtx = tx;
    barrier(CLK_LOCAL_MEM_FENCE);  // before the next neighbour overwrites rB_shared
  }
}
#else
__kernel void md_kernel(float alpha, int nboxes, __global const int* nei,
                        __global const four_vector* rv, __global const float* qv,
                        __global four_vector* fv, int npar) {
  __local four_vector rA_shared[PAR], rB_shared[PAR];
  __local float qB_shared[PAR];
  const int bx = get_group_id(0);
  const int tx = get_local_id(0);
  if (bx >= nboxes) return;  // the whole group: barriers stay uniform
  const float a2 = 2.0f * alpha * alpha;
  const int first_i = bx * PAR;
  int wtx = tx;

  // The home box's particles, whole records.
  while (wtx < PAR) {
    rA_shared[wtx] = rv[first_i + wtx];
    wtx += NT;
  }
  wtx = tx;
  barrier(CLK_LOCAL_MEM_FENCE);

  for (int k = 0; k < 27; ++k) {
    const int pointer = nei[bx * 27 + k];
    if (pointer < 0) continue;  // no such neighbour (the same for the whole group)
    const int first_j = pointer * PAR;

    // The neighbour box's particles and charges.
    while (wtx < PAR) {
      rB_shared[wtx] = rv[first_j + wtx];
      qB_shared[wtx] = qv[first_j + wtx];
      wtx += NT;
    }
    wtx = tx;
    barrier(CLK_LOCAL_MEM_FENCE);

    // Every particle of the home box against every particle of the neighbour box.
    while (wtx < PAR) {
      for (int j = 0; j < PAR; ++j) {
        const float r2 = rA_shared[wtx].v + rB_shared[j].v -
                         (rA_shared[wtx].x * rB_shared[j].x + rA_shared[wtx].y * rB_shared[j].y +
                          rA_shared[wtx].z * rB_shared[j].z);
        const float u2 = a2 * r2;
        const float vij = exp(-u2);
        const float fs = 2.0f * vij;
        const float dx = rA_shared[wtx].x - rB_shared[j].x;
        const float dy = rA_shared[wtx].y - rB_shared[j].y;
        const float dz = rA_shared[wtx].z - rB_shared[j].z;
        const float fxij = fs * dx;
        const float fyij = fs * dy;
        const float fzij = fs * dz;
        fv[first_i + wtx].v += qB_shared[j] * vij;
        fv[first_i + wtx].x += qB_shared[j] * fxij;
        fv[first_i + wtx].y += qB_shared[j] * fyij;
        fv[first_i + wtx].z += qB_shared[j] * fzij;
      }
      wtx += NT;
    }
    wtx = tx;
    barrier(CLK_LOCAL_MEM_FENCE);  // before the next neighbour overwrites rB_shared
  }
}
#endif
