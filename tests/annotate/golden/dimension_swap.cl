// Two adjacent dimensions of a flat array exchanged (`-> [..]`, docs/remappings.md): the
// two slowest of three (records of ny rows of nx scalars, DA), the middle pair of four
// (ASTA(nz) of rows of nx * 2), and the fastest two (records of nx scalars, ASTA(ny)).
// Accesses of rows written (e*S + j)*C + x, in any form that sums to it, go through
// dl_rows_at (compares; dl_rows_da for DA); others through dl_flat_rows (record, row and
// scalar by two divisions). Where the row is a counter below S and the scalar a counter
// below C or an id modulo C, with S and C the kernel's own parameters, no compare is
// left (dl_rows_in, dl_rows_in_da).

//DL: AoS: const a:float[nz][ny][nx] -> [ny][nz][nx], b:int[nw][nz][ny][nx * 2] -> [nw][ny][nz][nx * 2]
//DL: AoS: c:float[nz][ny][nx] -> [nz][nx][ny]
__kernel void k(__global const float *a, __global int *b, __global float *c, int nx, int ny,
                int nz, int nw) {
  const int i = get_global_id(0);
  if (i >= nx * ny * nz) return;
  c[i] = a[i] + (float)b[i * 2 + 1];
  const int x = i % nx, y = i / nx % ny, z = i / (nx * ny), row = nx * 2;
  c[i] += a[(z * ny + y) * nx + x] + a[z * ny * nx + y * nx + x + 1];
  b[((nw - 1) * nz + z) * ny * row + y * row + x] = (int)a[((z + 1) % nz * ny + y) * nx + x];
}

// Proven inside their rows: x = i % nx (or i - (i / nx) * nx) and a counter y < ny.
//DL: AoS: const a:float[nz][ny][nx] -> [ny][nz][nx], b:int[nw][nz][ny][nx] -> [nw][ny][nz][nx]
__kernel void inside(__global const float *a, __global int *b, int nx, int ny, int nz, int nw) {
  const int i = get_global_id(0);
  if (i >= nx * nz * nw) return;
  const int q = i / nx, x = i - q * nx, x2 = i % nx, z = q % nz, w = q / nz;
  for (int y = 0; y < ny; ++y) {
    b[((w * nz + z) * ny + y) * nx + x2] += (int)a[(z * ny + y) * nx + x];
    /* Compares for a: its row index is a sum (y + 1). */
    if (y + 1 < ny) b[((w * nz + z) * ny + y) * nx + x] += (int)a[(z * ny + y + 1) * nx + x2];
  }
  /* Compares for a: its row counter runs to nx, not ny. */
  for (int y = 0; y < nx; ++y) b[((w * nz + z) * ny) * nx + x] += (int)a[(z * ny + y) * nx + x];
}
