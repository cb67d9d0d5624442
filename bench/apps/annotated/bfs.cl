// Breadth-first search as an application writes it (shaped like Rodinia's bfs): a graph
// in CSR form, node records {start, count} (the node's first edge in edges[] and its
// number of edges) kept in AoS on the host, and per-node arrays mask (the frontier),
// updating (reached in this level), visited and cost (the BFS level). Each level runs
// bfs_kernel1, which expands the frontier, then bfs_kernel2, which makes the nodes
// reached the next frontier and sets *over; the host repeats until *over stays 0. The
// host pads the global size to a multiple of 256.
typedef struct node {
  int start;  // index of the node's first edge in edges[]
  int count;  // number of edges
} node;

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
//DL: record node 8 4 int:start@0 int:count@4
//DL: AoS: const nodes[n] -> ASTA AOS2ASTA_node
#ifdef DL_ASTA_T
__kernel void bfs_kernel1(__global const node* nodes, __global const int* edges,
                          __global char* mask, __global char* updating,
                          __global const char* visited, __global int* cost, int n) {
  const dl_off dl_n_nodes = (dl_off)((long)(n));
  const dl_off dl_w_nodes = (dl_off)(DL_ASTA_T);
  const int i = get_global_id(0);
  if (i >= n) return;
  if (!mask[i]) return;
  mask[i] = 0;
  const int first = DL_REF(__global, int, nodes, dl_tiled(dl_w_nodes, dl_n_nodes, 8, (i), 0, 4)), end = first + DL_REF(__global, int, nodes, dl_tiled(dl_w_nodes, dl_n_nodes, 8, (i), 4, 4));
  for (int e = first; e < end; ++e) {
    const int id = edges[e];
    if (!visited[id]) {
      cost[id] = cost[i] + 1;
      updating[id] = 1;
    }
  }
}
#else
__kernel void bfs_kernel1(__global const node* nodes, __global const int* edges,
                          __global char* mask, __global char* updating,
                          __global const char* visited, __global int* cost, int n) {
  const int i = get_global_id(0);
  if (i >= n) return;
  if (!mask[i]) return;
  mask[i] = 0;
  const int first = nodes[i].start, end = first + nodes[i].count;
  for (int e = first; e < end; ++e) {
    const int id = edges[e];
    if (!visited[id]) {
      cost[id] = cost[i] + 1;
      updating[id] = 1;
    }
  }
}
#endif

__kernel void bfs_kernel2(__global char* mask, __global char* updating, __global char* visited,
                          __global int* over, int n) {
  const int i = get_global_id(0);
  if (i >= n) return;
  if (!updating[i]) return;
  mask[i] = 1;
  visited[i] = 1;
  *over = 1;
  updating[i] = 0;
}
