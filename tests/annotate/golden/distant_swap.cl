// Two dimensions of a flat array exchanged that are not neighbours (`-> [..]` with
// dimensions between the pair, docs/remappings.md): [A][d1][B][d2][C] read as A * d1
// records of B x D rows (D = d2) of C scalars, each tile's rows stored transposed
// (SWAP(d1, B)). The outer and the fastest of three (one tile: dl_swap_da, C = 1), the
// second and the fourth of five (A, B and C above one: dl_swap_at), and a pair with two
// dimensions between it. Accesses written ((e*B + b)*D + j)*C + x, in any form that
// sums to it, go through compares; others through dl_flat_swap (three divisions). Where
// b, j and x are proven inside their dimensions, no compare is left (dl_swap_in_da,
// dl_swap_in).

//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz], b:int[nv][nw][nz][ny][nx * 2] -> [nv][ny][nz][nw][nx * 2]
//DL: AoS: c:float[nw][nz][ny][nx] -> [nx][nz][ny][nw]
__kernel void k(__global const float *a, __global int *b, __global float *c, int nx, int ny,
                int nz, int nw, int nv) {
  const int i = get_global_id(0);
  if (i >= nx * ny * nz) return;
  const int x = i % nx, y = i / nx % ny, z = i / (nx * ny), row = nx * 2;
  c[i] = a[i] + (float)b[i * 2 + 1];
  c[((nw - 1) * nz * ny + y) * nx + x] += a[(z * ny + y) * nx + x] + a[z * ny * nx + y * nx + x + 1];
  b[(((nv - 1) * nw + 1) * nz + z) * ny * row + y * row + x] = (int)a[((z + 1) % nz * ny + y) * nx + x];
}

// Proven inside: counters below the dimensions between the pair (y < ny of a, v < nz of
// b) and below the second of the pair (y of b), x = i - (i / nx) * nx or i % nx.
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz], b:int[nv][nw][nz][ny][nx] -> [nv][ny][nz][nw][nx]
__kernel void inside(__global const float *a, __global int *b, int nx, int ny, int nz, int nw,
                     int nv) {
  const int i = get_global_id(0);
  if (i >= nx * nz * nw) return;
  const int q = i / nx, x = i - q * nx, x2 = i % nx, z = q % nz, w = q / nz;
  for (int y = 0; y < ny; ++y) {
    for (int v = 0; v < nz; ++v) b[((w * nz + v) * ny + y) * nx + x2] += (int)a[(z * ny + y) * nx + x];
    /* Compares for a: its middle index is a sum (y + 1). */
    if (y + 1 < ny) b[((w * nz + z) * ny + y) * nx + x] += (int)a[(z * ny + y + 1) * nx + x2];
  }
}
