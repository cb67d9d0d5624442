// Sums over y, hand-written for the array as the application stores it (a[z][y][x]) and
// with its two slowest dimensions swapped (-DSWAPPED: a[y][z][x]); sums over x (swap_far)
// with z and x exchanged (-DSWAPPED: a[x][y][z]).
#ifdef SWAPPED
#define AT(z, y, x) (((y) * nz + (z)) * nx + (x))
#define FAR(z, y, x) (((x) * ny + (y)) * nz + (z))
#else
#define FAR(z, y, x) (((z) * ny + (y)) * nx + (x))
#define AT(z, y, x) (((z) * ny + (y)) * nx + (x))
#endif
__kernel void swap_sum(__global const float* a, __global float* out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nz * nx) return;
  const int z = i / nx, x = i - z * nx;
  float s = 0.0f;
  for (int y = 0; y < ny; ++y) s += a[AT(z, y, x)];
  out[i] = s;
}

__kernel void swap_far(__global const float* a, __global float* out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nz * ny) return;
  const int y = i / nz, z = i - y * nz;
  float s = 0.0f;
  for (int x = 0; x < nx; ++x) s += a[FAR(z, y, x)];
  out[i] = s;
}
