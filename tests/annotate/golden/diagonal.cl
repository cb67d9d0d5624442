// Planes diagonalized (`-> DIAG`, `-> DIAG_MAIN`, docs/remappings.md): the rows of a plane
// are the dimension before the fastest, by the kernel's arguments or by macros (folded
// into the completed annotation). A counter below the row length addresses its scalar
// directly (dl_diag); other indices go through dl_diag_flat (a division). An index
// written (z*ny + y)*nx + x names plane, row and column apart (dl_diag_pyc: compares, no
// division by the rows per plane).

#define NY 8
#define NX 6

//DL: AoS: a:float[nz][ny][nx] -> DIAG, const m:int[NY][NX] -> DIAG_MAIN
__kernel void k(__global float *a, __global const int *m, int nx, int ny, int nz) {
  const int r = get_global_id(0);
  if (r >= ny * nz) return;
  for (int x = 0; x < nx; ++x) a[r * nx + x] += (float)m[(r % NY) * NX + x % NX];
  if (r + 1 < ny * nz) a[r * nx + nx] *= 2.0f;
  const int z = r / ny, y = r - z * ny;
  if (y > 0) a[(z * ny + y) * nx] -= a[(z * ny + y - 1) * nx + nx - 1];
}
