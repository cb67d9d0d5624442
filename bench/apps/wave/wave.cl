// Needleman-Wunsch alignment scores of nz pairs of sequences at once, as an application
// writes it (Dymaxion's wavefront case): one score matrix h[z][y][x] per pair (ny and nx
// one more than the sequences' lengths, row 0 and column 0 the gap penalties), one launch
// per anti-diagonal d = x + y, one work-item per cell of it in every plane. Neighbours on
// a diagonal are nx - 1 ints apart in row-major order; with the planes diagonalized
// (DIAG: each anti-diagonal stored in a run) they are adjacent, and so are the cells read
// from the two diagonals before.
//DL: AoS: h:int[nz][ny][nx] -> DIAG
__kernel void nw_diagonal(__global int* h, __global const char* a, __global const char* b,
                          int nx, int ny, int nz, int d, int len, int gap) {
  const int k = get_global_id(0);
  const int z = k / len, j = k - z * len;
  const int y = max(1, d - (nx - 1)) + j, x = d - y;
  if (z >= nz || y >= ny || x < 1) return;
  const int match = a[z * (ny - 1) + y - 1] == b[z * (nx - 1) + x - 1] ? 2 : -1;
  const int diag = h[(z * ny + y - 1) * nx + x - 1];
  const int up = h[(z * ny + y - 1) * nx + x];
  const int left = h[(z * ny + y) * nx + x - 1];
  h[(z * ny + y) * nx + x] = max(diag + match, max(up, left) - gap);
}
