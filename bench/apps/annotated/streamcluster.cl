// The gain of opening a new center at point x, over an array of point records, as a
// streaming k-median clusterer writes it (shaped like Rodinia's streamcluster pgain).
// Records stay in AoS on the host; the coordinates are a separate transposed array.
typedef struct {
  float weight;  // how many input points this point stands for
  long assign;   // index of the center the point is assigned to
  float cost;    // cost of that assignment
} point_t;

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
//DL: record point_t 24 8 float:weight@0 long:assign@8 float:cost@16
//DL: AoS: const p[num] -> ASTA AOS2ASTA_point_t
#ifdef DL_ASTA_T
__kernel void pgain(__global const point_t *p, __global const float *coord,
                    __global float *work_mem, __global const int *center_table,
                    __global char *switch_membership, __local float *coord_s, int num, int dim,
                    int x, int K) {
  const dl_off dl_n_p = (dl_off)((long)(num));
  const dl_off dl_w_p = (dl_off)(DL_ASTA_T);
  const int tid = get_global_id(0);
  // The first work-item of each group stages the coordinates of the candidate x.
  if (get_local_id(0) == 0) {
    for (int i = 0; i < dim; i++) coord_s[i] = coord[i * num + x];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid < num) {
    float x_cost = 0;
    for (int i = 0; i < dim; i++) {
      const float t = coord[i * num + tid] - coord_s[i];
      x_cost += t * t;
    }
    x_cost *= DL_REF(__global, float, p, dl_tiled(dl_w_p, dl_n_p, 24, (tid), 0, 4));
    const float current_cost = DL_REF(__global, float, p, dl_tiled(dl_w_p, dl_n_p, 24, (tid), 16, 4));
    const int base = tid * (K + 1);
    if (x_cost < current_cost) {
      // Point tid would move to x: it saves current_cost - x_cost.
      switch_membership[tid] = 1;
      work_mem[base + K] += current_cost - x_cost;
    } else {
      // It stays: closing its center would cost the difference.
      work_mem[base + center_table[(int)DL_REF(__global, long, p, dl_tiled(dl_w_p, dl_n_p, 24, (tid), 8, 8))]] += current_cost - x_cost;
    }
  }
}
#else
__kernel void pgain(__global const point_t *p, __global const float *coord,
                    __global float *work_mem, __global const int *center_table,
                    __global char *switch_membership, __local float *coord_s, int num, int dim,
                    int x, int K) {
  const int tid = get_global_id(0);
  // The first work-item of each group stages the coordinates of the candidate x.
  if (get_local_id(0) == 0) {
    for (int i = 0; i < dim; i++) coord_s[i] = coord[i * num + x];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid < num) {
    float x_cost = 0;
    for (int i = 0; i < dim; i++) {
      const float t = coord[i * num + tid] - coord_s[i];
      x_cost += t * t;
    }
    x_cost *= p[tid].weight;
    const float current_cost = p[tid].cost;
    const int base = tid * (K + 1);
    if (x_cost < current_cost) {
      // Point tid would move to x: it saves current_cost - x_cost.
      switch_membership[tid] = 1;
      work_mem[base + K] += current_cost - x_cost;
    } else {
      // It stays: closing its center would cost the difference.
      work_mem[base + center_table[(int)p[tid].assign]] += current_cost - x_cost;
    }
  }
}
#endif
