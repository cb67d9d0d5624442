// Molecular dynamics (lavaMD shape), hand-written for every layout (see layouts.h): rv and
// fv are records of 4 floats (v, x, y, z: k = 0..3) addressed through LIDX; the loops
// and the accumulations into fv are those of md.cl.
typedef struct {
  float v, x, y, z;
} four_vector;

#define PAR 100  // particles per box
#define NT 128   // work-items per group

inline four_vector md_load(__global const float* r, int i, int n) {
  four_vector p;
  p.v = r[LIDX(i, 0, 4, n)];
  p.x = r[LIDX(i, 1, 4, n)];
  p.y = r[LIDX(i, 2, 4, n)];
  p.z = r[LIDX(i, 3, 4, n)];
  return p;
}

__kernel void md_kernel(float alpha, int nboxes, __global const int* nei, __global const float* rv,
                        __global const float* qv, __global float* fv, int npar) {
  __local four_vector rA_shared[PAR], rB_shared[PAR];
  __local float qB_shared[PAR];
  const int bx = get_group_id(0);
  const int tx = get_local_id(0);
  if (bx >= nboxes) return;  // the whole group: barriers stay uniform
  const float a2 = 2.0f * alpha * alpha;
  const int first_i = bx * PAR;
  int wtx = tx;

  while (wtx < PAR) {
    rA_shared[wtx] = md_load(rv, first_i + wtx, npar);
    wtx += NT;
  }
  wtx = tx;
  barrier(CLK_LOCAL_MEM_FENCE);

  for (int k = 0; k < 27; ++k) {
    const int pointer = nei[bx * 27 + k];
    if (pointer < 0) continue;
    const int first_j = pointer * PAR;

    while (wtx < PAR) {
      rB_shared[wtx] = md_load(rv, first_j + wtx, npar);
      qB_shared[wtx] = qv[first_j + wtx];
      wtx += NT;
    }
    wtx = tx;
    barrier(CLK_LOCAL_MEM_FENCE);

    while (wtx < PAR) {
      for (int j = 0; j < PAR; ++j) {
        const float r2 = rA_shared[wtx].v + rB_shared[j].v -
                         (rA_shared[wtx].x * rB_shared[j].x + rA_shared[wtx].y * rB_shared[j].y +
                          rA_shared[wtx].z * rB_shared[j].z);
        const float u2 = a2 * r2;
        const float vij = exp(-u2);
        const float fs = 2.0f * vij;
        const float dx = rA_shared[wtx].x - rB_shared[j].x;
        const float dy = rA_shared[wtx].y - rB_shared[j].y;
        const float dz = rA_shared[wtx].z - rB_shared[j].z;
        const float fxij = fs * dx;
        const float fyij = fs * dy;
        const float fzij = fs * dz;
        fv[LIDX(first_i + wtx, 0, 4, npar)] += qB_shared[j] * vij;
        fv[LIDX(first_i + wtx, 1, 4, npar)] += qB_shared[j] * fxij;
        fv[LIDX(first_i + wtx, 2, 4, npar)] += qB_shared[j] * fyij;
        fv[LIDX(first_i + wtx, 3, 4, npar)] += qB_shared[j] * fzij;
      }
      wtx += NT;
    }
    wtx = tx;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
