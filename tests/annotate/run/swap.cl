// Run-equivalence: swaps of two adjacent dimensions of a flat array (`-> [..]`,
// docs/remappings.md). The rows below the swapped pair move whole; n, the rows and the
// tile width come from the kernel's arguments at each launch.

// The two slowest of three: a[z][y][x] -> a'[y][z][x], 5 planes of 7 rows of 11.
//TEST: slowest 385 args: buf buf int:11 int:7 int:5
//DL: AoS: const a:float[nz][ny][nx] -> [ny][nz][nx], out:float[nz][ny][nx] -> [ny][nz][nx]
__kernel void slowest(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nx * ny * nz) return;
  const int x = i % nx, y = i / nx % ny, z = i / (nx * ny);
  const int n = nx * ny * nz;
  /* A neighbour in the next plane (wrapping) and the element itself. */
  float v = a[i] * 2.0f + a[((z + 1) % nz * ny + y) * nx + x];
  /* The next and the previous element, in the next or previous row at a row's ends. */
  if (i + 1 < n) v += 3.0f * a[(z * ny + y) * nx + x + 1];
  if (i >= 1) v += 5.0f * a[z * ny * nx + y * nx + x - 1];
  /* An index whose factors are not the record's (nx where the rows per record are ny). */
  if ((z * nx + y) * nx + x < n) v += 7.0f * a[(z * nx + y) * nx + x];
  out[(z * ny + y) * nx + x] = v;
}

// The middle pair of four: a[w][z][y][x] -> a'[w][y][z][x] (ASTA with tile width nz),
// rows of 3 x 2 scalars below the pair; written in place.
//TEST: middle 1260 args: buf int:3 int:5 int:7 int:6
//DL: AoS: a:int[nw][nz][ny][nx * 2] -> [nw][ny][nz][nx * 2]
__kernel void middle(__global int *a, int nx, int ny, int nz, int nw) {
  const int i = get_global_id(0);
  const int row = 2 * nx, plane = ny * row;
  if (i >= nw * nz * plane) return;
  const int w = i / (nz * plane), z = i / plane % nz, y = i / row % ny, c = i % row;
  a[((w * nz + z) * ny + y) * row + c] += w * 1000 + z * 100 + y * 10 + c;
}

// The fastest two in the same form (a[z][y][x] -> a'[z][x][y], ASTA(ny) of rows of nx) and
// the 2-D transpose (a[y][x] -> a'[x][y], DA).
//TEST: fastest 385 args: buf buf int:11 int:7 int:5
//DL: AoS: const a:float[nz][ny][nx] -> [nz][nx][ny], out:float[ny * nz][nx] -> [nx][ny * nz]
__kernel void fastest(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int r = get_global_id(0);
  if (r >= ny * nz) return;
  for (int x = 0; x < nx; ++x) out[r * nx + x] = a[r * nx + x] + (float)x;
}

// Row-swap accesses the rewrite proves inside their row need no compare (dl_rows_in_da):
// the row a counter below ny, the scalar i % nx or i - (i / nx) * nx. The others keep
// their compares: a row index plus one, a scalar modulo more than nx, and a counter below
// nx that runs past the plane's last row into the next planes (nx > ny here).
//TEST: inrow 385 args: buf buf int:11 int:7 int:5
//DL: AoS: const a:float[nz][ny][nx] -> [ny][nz][nx], out:float[nz][ny][nx] -> [ny][nz][nx]
__kernel void inrow(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nx * nz) return;
  const int z = i / nx, x = i - z * nx, x2 = i % nx, x3 = i % (nx + 4);
  const int n = nx * ny * nz;
  for (int y = 0; y < ny; ++y) {
    float v = a[(z * ny + y) * nx + x] + 2.0f * a[(z * ny + y) * nx + x2];
    if (y + 1 < ny) v += 3.0f * a[(z * ny + y + 1) * nx + x];
    if ((z * ny + y) * nx + x3 < n) v += 5.0f * a[(z * ny + y) * nx + x3];
    out[(z * ny + y) * nx + x2] = v;
  }
  float w = 0.0f;
  for (int y = 0; y < nx; ++y)
    if ((z * ny + y) * nx + x < n) w += (float)(y + 1) * a[(z * ny + y) * nx + x];
  out[z * ny * nx + x] += w;
}
