// Sums along x of a 3-D array a[nz][ny][nx], as an application writes it: row-major, x
// fastest, one work-item per row (z, y), consecutive work-items on consecutive rows y.
// Each reads nx floats apart from its neighbour; with the two fastest dimensions swapped
// in every plane (a[z][x][y], ASTA with tile width ny) they read adjacent floats.
//DL: AoS: const a:float[nz * ny][nx] -> ASTA(ny)
__kernel void planes_sum(__global const float* a, __global float* out, int nx, int ny,
                         int nz) {
  const int r = get_global_id(0);  // row y of plane z: r = z * ny + y
  if (r >= ny * nz) return;
  float s = 0.0f;
  for (int x = 0; x < nx; ++x) s += a[r * nx + x];
  out[r] = s;
}
