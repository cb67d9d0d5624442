// Sums over y of a 3-D array a[nz][ny][nx], as an application writes it: row-major, x
// fastest, one work-item per (z, x), consecutive work-items on consecutive x, then z.
// Neighbours of different z read ny * nx floats apart; with the two slowest dimensions
// swapped (a[y][z][x], `-> [ny][nz][nx]`) every work-item of a y reads adjacent floats.
//DL: AoS: const a:float[nz][ny][nx] -> [ny][nz][nx]
__kernel void swap_sum(__global const float* a, __global float* out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nz * nx) return;
  const int z = i / nx, x = i - z * nx;
  float s = 0.0f;
  for (int y = 0; y < ny; ++y) s += a[(z * ny + y) * nx + x];
  out[i] = s;
}

// Sums over x of the same array with one work-item per (y, z), consecutive work-items on
// consecutive z (a sweep along x, parallel across y and z): neighbours read ny * nx floats
// apart; with z and x exchanged (a[x][y][z], `-> [nx][ny][nz]`, two dimensions that are
// not neighbours) every work-item of an x reads adjacent floats.
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz]
__kernel void swap_far(__global const float* a, __global float* out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nz * ny) return;
  const int y = i / nz, z = i - y * nz;
  float s = 0.0f;
  for (int x = 0; x < nx; ++x) s += a[(z * ny + y) * nx + x];
  out[i] = s;
}
