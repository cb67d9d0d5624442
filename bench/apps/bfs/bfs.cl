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

//DL: AoS: const nodes[n]
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
