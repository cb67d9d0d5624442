// D3Q19 LBM step, hand-written for every layout (see layouts.h): a cell is a record of
// 20 floats. Build with -I<kernel dir> (lbm_d3q19.h).
#include "lbm_d3q19.h"

__kernel void lbm_step(__global const float* src, __global float* dst, uint nx, uint ny, uint nz) {
  const uint n = nx * ny * nz;
  const uint c = get_global_id(0);
  if (c >= n) return;
  const uint x = c % nx, y = c / nx % ny, z = c / (nx * ny);
  float in[LBM_Q], out[LBM_Q];
  for (int q = 0; q < LBM_Q; ++q) in[q] = src[LIDX(c, q, 20, n)];
  const float flag = src[LIDX(c, 19, 20, n)];
  lbm_collide(in, flag, out);
  for (int q = 0; q < LBM_Q; ++q) dst[LIDX(lbm_neighbour(x, y, z, q, nx, ny, nz), q, 20, n)] = out[q];
  dst[LIDX(c, 19, 20, n)] = flag;
}
