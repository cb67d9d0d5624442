// Molecular dynamics as an application writes it (shaped like Rodinia's lavaMD): space is
// a grid of boxes of PAR particles each; one work-group per box sums, for every particle
// of its box, the potential and force of the particles of the box and its neighbours.
// Positions rv and results fv are {v, x, y, z} records in AoS on the host; the charges qv
// are a plain array; nei[box * 27 + k] lists the box itself and its up to 26 neighbours
// (-1: none).
typedef struct {
  float v, x, y, z;
} four_vector;

#define PAR 100  // particles per box
#define NT 128   // work-items per group

//DL: record four_vector 16 4 float:v@0 float:x@4 float:y@8 float:z@12
//DL: AoS: const rv[npar] -> AoS AOS2ASTA_four_vector, fv[npar] -> AoS AOS2ASTA_four_vector
__kernel void md_kernel(float alpha, int nboxes, __global const int* nei,
                        __global const four_vector* rv, __global const float* qv,
                        __global four_vector* fv, int npar) {
  __local four_vector rA_shared[PAR], rB_shared[PAR];
  __local float qB_shared[PAR];
  const int bx = get_group_id(0);
  const int tx = get_local_id(0);
  if (bx >= nboxes) return;  // the whole group: barriers stay uniform
  const float a2 = 2.0f * alpha * alpha;
  const int first_i = bx * PAR;
  int wtx = tx;

  // The home box's particles, whole records.
  while (wtx < PAR) {
    rA_shared[wtx] = rv[first_i + wtx];
    wtx += NT;
  }
  wtx = tx;
  barrier(CLK_LOCAL_MEM_FENCE);

  for (int k = 0; k < 27; ++k) {
    const int pointer = nei[bx * 27 + k];
    if (pointer < 0) continue;  // no such neighbour (the same for the whole group)
    const int first_j = pointer * PAR;

    // The neighbour box's particles and charges.
    while (wtx < PAR) {
      rB_shared[wtx] = rv[first_j + wtx];
      qB_shared[wtx] = qv[first_j + wtx];
      wtx += NT;
    }
    wtx = tx;
    barrier(CLK_LOCAL_MEM_FENCE);

    // Every particle of the home box against every particle of the neighbour box.
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
        fv[first_i + wtx].v += qB_shared[j] * vij;
        fv[first_i + wtx].x += qB_shared[j] * fxij;
        fv[first_i + wtx].y += qB_shared[j] * fyij;
        fv[first_i + wtx].z += qB_shared[j] * fzij;
      }
      wtx += NT;
    }
    wtx = tx;
    barrier(CLK_LOCAL_MEM_FENCE);  // before the next neighbour overwrites rB_shared
  }
}
