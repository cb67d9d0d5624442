// D3Q19 lattice-Boltzmann (lid-driven cavity), as an application writes it: the cell
// data is interleaved per cell (Parboil style), grid[cells][20] with 19 distributions
// and a flag. Build with -I<kernel dir> (lbm_d3q19.h).
#include "lbm_d3q19.h"

//DL: AoS: const src[nx*ny*nz][20], write_only dst[nx*ny*nz][20]
__kernel void lbm_step(__global const float* src, __global float* dst, uint nx, uint ny, uint nz) {
  const uint c = get_global_id(0);
  if (c >= nx * ny * nz) return;
  const uint x = c % nx, y = c / nx % ny, z = c / (nx * ny);
  float in[LBM_Q], out[LBM_Q];
  for (int q = 0; q < LBM_Q; ++q) in[q] = src[c * 20 + q];
  const float flag = src[c * 20 + 19];
  lbm_collide(in, flag, out);
  for (int q = 0; q < LBM_Q; ++q) dst[lbm_neighbour(x, y, z, q, nx, ny, nz) * 20 + q] = out[q];
  dst[c * 20 + 19] = flag;
}
