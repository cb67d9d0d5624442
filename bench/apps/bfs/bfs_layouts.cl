// Breadth-first search (Rodinia bfs shape), hand-written for every layout (see
// layouts.h): node records are 2 ints (start, count: k = 0, 1) addressed through LIDX;
// edges and the per-node arrays stay plain arrays. bfs_kernel2 touches no node record.
__kernel void bfs_kernel1(__global const int* nodes, __global const int* edges,
                          __global char* mask, __global char* updating,
                          __global const char* visited, __global int* cost, int n) {
  const int i = get_global_id(0);
  if (i >= n) return;
  if (!mask[i]) return;
  mask[i] = 0;
  const int first = nodes[LIDX(i, 0, 2, n)], end = first + nodes[LIDX(i, 1, 2, n)];
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
