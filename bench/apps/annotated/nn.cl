// Nearest-neighbour search as an application writes it (shaped like Rodinia's nn): the
// host keeps the records' coordinates {lat, lng} in AoS; every work-item computes the
// Euclidean distance of one record to the query point (lat, lng) into d[i]; the host
// picks the k nearest from d. The host pads the global size to a multiple of 64.
typedef struct {
  float lat, lng;
} latlong;

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
//DL: record latlong 8 4 float:lat@0 float:lng@4
//DL: AoS: const locations[n] -> ASTA AOS2ASTA_latlong
#ifdef DL_ASTA_T
__kernel void nn_kernel(__global const latlong* locations, __global float* d, int n, float lat,
                        float lng) {
  const dl_off dl_n_locations = (dl_off)((long)(n));
  const dl_off dl_w_locations = (dl_off)(DL_ASTA_T);
  const int i = get_global_id(0);
  if (i >= n) return;
  const float dlat = lat - DL_REF(__global, float, locations, dl_tiled(dl_w_locations, dl_n_locations, 8, (i), 0, 4));
  const float dlng = lng - DL_REF(__global, float, locations, dl_tiled(dl_w_locations, dl_n_locations, 8, (i), 4, 4));
  d[i] = sqrt(dlat * dlat + dlng * dlng);
}
#else
__kernel void nn_kernel(__global const latlong* locations, __global float* d, int n, float lat,
                        float lng) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const float dlat = lat - locations[i].lat;
  const float dlng = lng - locations[i].lng;
  d[i] = sqrt(dlat * dlat + dlng * dlng);
}
#endif
