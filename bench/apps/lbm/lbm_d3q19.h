// D3Q19 lattice of DL's LBM benchmark (Parboil order: C N S E W T B NE NW SE SW NT NB ST
// SB ET EB WT WB). Cell record: 19 distributions + 1 flag = 20 floats.
#define LBM_Q 19
#define LBM_REC 20
#define LBM_FLUID 0.0f
#define LBM_OBSTACLE 1.0f
#define LBM_ACCEL 2.0f
#define LBM_OMEGA 1.95f
#define LBM_LID_UX 0.005f
#define LBM_LID_UY 0.002f
__constant int LBM_EX[19] = {0, 0, 0, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1};
__constant int LBM_EY[19] = {0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1, 0, 0, 0, 0};
__constant int LBM_EZ[19] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1};
__constant int LBM_OPP[19] = {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15};
__constant float LBM_W[19] = {1.f / 3,  1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18,
                              1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36,
                              1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36};

// Neighbour of cell (x, y, z) in direction q (periodic wrap; the cavity's walls are
// obstacle cells, so nothing streams across the wrap).
inline uint lbm_neighbour(uint x, uint y, uint z, int q, uint nx, uint ny, uint nz) {
  const uint xn = (x + nx + LBM_EX[q]) % nx;
  const uint yn = (y + ny + LBM_EY[q]) % ny;
  const uint zn = (z + nz + LBM_EZ[q]) % nz;
  return xn + nx * (yn + ny * zn);
}

// One stream-collide step of one cell: `in` its 19 distributions, `flag`; writes the
// post-collision value for direction q into out[q] (pushed to neighbour q).
inline void lbm_collide(const float* in, float flag, float* out) {
  if (flag == LBM_OBSTACLE) {  // bounce back
    for (int q = 0; q < LBM_Q; ++q) out[q] = in[LBM_OPP[q]];
    return;
  }
  float rho = 0.0f, ux = 0.0f, uy = 0.0f, uz = 0.0f;
  for (int q = 0; q < LBM_Q; ++q) {
    rho += in[q];
    ux += LBM_EX[q] * in[q];
    uy += LBM_EY[q] * in[q];
    uz += LBM_EZ[q] * in[q];
  }
  ux /= rho;
  uy /= rho;
  uz /= rho;
  if (flag == LBM_ACCEL) {  // the moving lid
    ux = LBM_LID_UX;
    uy = LBM_LID_UY;
    uz = 0.0f;
  }
  const float u2 = 1.5f * (ux * ux + uy * uy + uz * uz);
  for (int q = 0; q < LBM_Q; ++q) {
    const float cu = LBM_EX[q] * ux + LBM_EY[q] * uy + LBM_EZ[q] * uz;
    const float feq = LBM_W[q] * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2);
    out[q] = in[q] + LBM_OMEGA * (feq - in[q]);
  }
}
