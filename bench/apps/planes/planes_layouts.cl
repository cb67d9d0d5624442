// Sums along x, hand-written for every layout (see layouts.h): the rows of all planes are
// the records (nx floats each); ASTA with T = ny is the array with x and y swapped in
// every plane.
__kernel void planes_sum(__global const float* a, __global float* out, int nx, int ny,
                         int nz) {
  const int r = get_global_id(0);
  const int rows = ny * nz;
  if (r >= rows) return;
  float s = 0.0f;
  for (int x = 0; x < nx; ++x) s += a[LIDX(r, x, nx, rows)];
  out[r] = s;
}
