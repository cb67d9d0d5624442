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

// Two dimensions that are not neighbours (`-> [..]` with dimensions between the pair,
// SWAP(d1, B)): a[z][y][x] -> a'[x][y][z], one tile of nz records of ny x nx scalars
// (C = 1), 5 planes of 7 rows of 11. Neighbours across a row's end, a wrapped plane and
// factors that are not the record's take dl_flat_swap; out is written in the same layout.
//TEST: distant 385 args: buf buf int:11 int:7 int:5
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz], out:float[nz][ny][nx] -> [nx][ny][nz]
__kernel void distant(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nx * ny * nz) return;
  const int x = i % nx, y = i / nx % ny, z = i / (nx * ny);
  const int n = nx * ny * nz;
  float v = a[i] * 2.0f + a[((z + 1) % nz * ny + y) * nx + x];
  if (i + 1 < n) v += 3.0f * a[(z * ny + y) * nx + x + 1];
  if (i >= 1) v += 5.0f * a[z * ny * nx + y * nx + x - 1];
  if ((z * nx + y) * nx + x < n) v += 7.0f * a[(z * nx + y) * nx + x];
  if (i + nx < n) v += 11.0f * a[(z * ny + y + 1) * nx + x];
  out[(z * ny + y) * nx + x] = v;
}

// The same swap where the rewrite proves the indices inside (dl_swap_in_da: y a counter
// below ny, x = i - (i / nx) * nx), and one whose counter runs past ny (compares).
//TEST: distant_in 55 args: buf buf int:11 int:7 int:5
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz], out:float[nz][ny][nx] -> [nx][ny][nz]
__kernel void distant_in(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nx * nz) return;
  const int z = i / nx, x = i - z * nx;
  const int n = nx * ny * nz;
  for (int y = 0; y < ny; ++y) out[(z * ny + y) * nx + x] = a[z * ny * nx + y * nx + x] + (float)y;
  for (int y = 0; y < nx; ++y)
    if ((z * ny + y) * nx + x < n) out[z * ny * nx + x] += (float)(y + 1) * a[(z * ny + y) * nx + x];
}

// Five dimensions, the second and the fourth exchanged: a[v][w][z][y][c] ->
// a'[v][y][z][w][c], SWAP(nw, nz) over nv * nw records of nz x ny rows of 2 * nx scalars
// (A, B and C above one; odd extents, nothing square). Written in place, and read
// through another buffer of the same swap past a row's end.
//TEST: distant5 840 args: buf buf int:2 int:7 int:5 int:3 int:2
//DL: AoS: a:int[nv][nw][nz][ny][nx * 2] -> [nv][ny][nz][nw][nx * 2]
//DL: AoS: const b:int[nv][nw][nz][ny][nx * 2] -> [nv][ny][nz][nw][nx * 2]
__kernel void distant5(__global int *a, __global const int *b, int nx, int ny, int nz, int nw,
                       int nv) {
  const int i = get_global_id(0);
  const int row = 2 * nx, plane = ny * row, cube = nz * plane, n = nv * nw * cube;
  if (i >= n) return;
  const int v = i / (nw * cube), w = i / cube % nw, z = i / plane % nz, y = i / row % ny;
  const int c = i % row;
  int s = v * 10000 + w * 1000 + z * 100 + y * 10 + c;
  if (i + 1 < n) s += 3 * b[(((v * nw + w) * nz + z) * ny + y) * row + c + 1];
  s += b[v * nw * nz * ny * row + w * nz * ny * row + z * ny * row + y * row + c];
  a[(((v * nw + w) * nz + z) * ny + y) * row + c] += s;
}

// Dimensions between the pair that are two (B = nz * ny, a[w][z][y][x] -> a'[x][z][y][w]):
// the index is matched level by level (b = z * ny + y, B2 = nz * ny) and checked by
// compares, or proven inside (counters below nz and ny, x = i % nx) and left without
// them; a neighbour across a plane's end takes dl_flat_swap.
//TEST: distant_between 210 args: buf buf int:5 int:3 int:2 int:7
//DL: AoS: const a:float[nw][nz][ny][nx] -> [nx][nz][ny][nw], out:float[nw][nz][ny][nx] -> [nx][nz][ny][nw]
__kernel void distant_between(__global const float *a, __global float *out, int nx, int ny,
                              int nz, int nw) {
  const int i = get_global_id(0);
  if (i >= nx * ny * nz * nw) return;
  const int x = i % nx, y = i / nx % ny, z = i / (nx * ny) % nz, w = i / (nx * ny * nz);
  float v = a[((w * nz + z) * ny + y) * nx + x] * 2.0f + a[i];
  v += 3.0f * a[w * nz * ny * nx + z * ny * nx + y * nx + x];
  if (i + nx < nx * ny * nz * nw) v += 5.0f * a[((w * nz + z) * ny + y + 1) * nx + x];
  out[((w * nz + z) * ny + y) * nx + x] = v;
}
//TEST: distant_between_in 35 args: buf buf int:5 int:3 int:2 int:7
//DL: AoS: const a:float[nw][nz][ny][nx] -> [nx][nz][ny][nw], out:float[nw][nz][ny][nx] -> [nx][nz][ny][nw]
__kernel void distant_between_in(__global const float *a, __global float *out, int nx, int ny,
                                 int nz, int nw) {
  const int i = get_global_id(0);
  if (i >= nx * nw) return;
  const int x = i % nx, w = i / nx;
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      out[((w * nz + z) * ny + y) * nx + x] = a[((w * nz + z) * ny + y) * nx + x] + (float)(z - y);
}

// A constant first of the pair (SWAP(3, ny), tiles of three records, C = 1):
// a[w][3][y][x] -> a'[w][x][y][3], the records nw * 3 of ny x nx scalars.
//TEST: distant_const 462 args: buf buf int:11 int:7 int:2
//DL: AoS: const a:float[nw][3][ny][nx] -> [nw][nx][ny][3], out:float[nw][3][ny][nx] -> [nw][nx][ny][3]
__kernel void distant_const(__global const float *a, __global float *out, int nx, int ny, int nw) {
  const int i = get_global_id(0);
  if (i >= nx * ny * 3 * nw) return;
  const int x = i % nx, y = i / nx % ny, e = i / (nx * ny);
  float v = a[(e * ny + y) * nx + x];
  if (x + 1 < nx) v += 2.0f * a[e * ny * nx + y * nx + x + 1];
  out[(e * ny + y) * nx + x] = v + a[i];
}

// Indices proven inside by a guard on the id (no compare): y = i / nz below ny after
// `if (i >= nz * ny) return;` (bench/apps/swap, swap_far; work-items past nz * ny
// return), and inside an enclosing `if (i < nz * ny)`. Guards of a product that is not
// the dimension's (nz * nx: y up to nx - 1 >= ny, rows of the next planes) keep their
// compares.
//TEST: far 40 args: buf fbuf:40 int:11 int:7 int:5
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz]
__kernel void far(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nz * ny) return;
  const int y = i / nz, z = i - y * nz;
  float s = 0.0f;
  for (int x = 0; x < nx; ++x) s += a[(z * ny + y) * nx + x];
  out[i] = s;
}
//TEST: far_guards 60 args: buf fbuf:60 int:11 int:7 int:5
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz]
__kernel void far_guards(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nz * nx) return;
  const int y = i / nz, z = i - y * nz;
  const int n = nx * ny * nz;
  float s = 0.0f;
  if ((z * ny + y) * nx < n) s = a[(z * ny + y) * nx];
  if (i < nz * ny)
    for (int x = 0; x < nx; ++x) s += (float)(x + 2) * a[(z * ny + y) * nx + x];
  out[i] = s;
}
// The same for two adjacent dimensions (dl_rows_in_da): y = i / nx below ny after
// `if (i >= nx * ny) return;`, below nx only inside `if (i < nx * nx)` (compares).
//TEST: rows_guard 121 args: buf fbuf:121 int:11 int:7 int:5
//DL: AoS: const a:float[nz][ny][nx] -> [ny][nz][nx]
__kernel void rows_guard(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  const int y = i / nx, x = i - y * nx;
  const int n = nx * ny * nz;
  float s = 0.0f;
  if (i < nx * nx)
    for (int z = 0; z < nz; ++z)
      if ((z * ny + y) * nx + x < n) s += a[(z * ny + y) * nx + x];
  out[i] = s;
  if (i >= nx * ny) return;
  for (int z = 0; z < nz; ++z) s += (float)(z + 2) * a[(z * ny + y) * nx + x];
  out[i] = s;
}
// Records past n (the buffer holds 7 records of ny x nx, the annotation n = nz = 5): the
// proven form reads records 5 and 6 at their AoS addresses (b d + j), the others swapped.
//TEST: far_past 35 args: buf:7 fbuf:35 int:11 int:7 int:5
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz]
__kernel void far_past(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nz * ny) return;
  const int y = i / nz, z = i - y * nz;
  float s = 0.0f;
  for (int x = 0; x < nx; ++x) s += (float)(x + 1) * a[((z + 2) * ny + y) * nx + x];
  out[i] = s;
}
