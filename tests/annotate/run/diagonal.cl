// Run-equivalence: flat arrays whose planes are diagonalized (`-> DIAG`, `-> DIAG_MAIN`,
// docs/remappings.md). The rows per plane are the dimension before the fastest; n, the
// rows and the row length come from the kernel's arguments at each launch, or are
// constants.

// A wavefront step over 3 planes of 7 x 11: element k of anti-diagonal d of each plane
// from its upper and left neighbours; neighbours read through the flat index.
//TEST: wave 24 args: buf int:11 int:7 int:3 int:6
//DL: AoS: a:float[nz][ny][nx] -> DIAG
__kernel void wave(__global float *a, int nx, int ny, int nz, int d) {
  const int k = get_global_id(0) % 8, z = get_global_id(0) / 8;
  const int y = max(0, d - (nx - 1)) + k, x = d - y;
  if (z >= nz || y >= ny || x < 0) return;
  const float up = y > 0 ? a[(z * ny + y - 1) * nx + x] : 0.0f;
  const float left = x > 0 ? a[(z * ny + y) * nx + x - 1] : 0.0f;
  a[(z * ny + y) * nx + x] += 0.5f * (up + left);
}

// Plane, row and column named apart ((z*ny + y)*nx + x: dl_diag_pyc, no division), with
// neighbours across row, plane and buffer ends, factors that are not the layout's (nx
// rows per plane or rows of ny where it has ny and nx), and the plane after the last in
// a buffer holding 18 rows where n is 12 (rows 12.. keep their AoS address).
//TEST: planes 64 args: buf:18 buf int:5 int:4 int:3 int:90
//DL: AoS: const a:float[nz][ny][nx] -> DIAG, b:float[nz][ny][nx] -> DIAG_MAIN
__kernel void planes(__global const float *a, __global float *b, int nx, int ny, int nz,
                     int held) {
  const int i = get_global_id(0);
  if (i >= nx * ny * nz) return;
  const int x = i % nx, y = i / nx % ny, z = i / (nx * ny);
  float s = a[(z * ny + y) * nx + x];
  if (i > 0) s += 2.0f * a[(z * ny + y) * nx + x - 1];
  if (i >= nx) s += 3.0f * a[(z * ny + y - 1) * nx + x];
  if (i + 2 < held) s += 5.0f * a[(z * ny + y) * nx + x + 2];
  if ((z * nx + y) * nx + x < held) s += 7.0f * a[(z * nx + y) * nx + x];
  if (x < ny) s += 11.0f * a[(z * ny + y) * ny + x];
  s += 13.0f * a[((z + 1) * ny + y) * nx + x];
  b[(z * ny + y) * nx + x] = s;
}

// Neighbours across row ends: (r*nx + x) - 1 and (r*nx + x) + t reach the rows before
// and after (the column is checked below the row length, else the flat index is used).
//TEST: spill 60 args: buf buf int:6 int:5 int:2 int:7
//DL: AoS: const a:float[nz][ny][nx] -> DIAG, b:float[nz][ny][nx] -> DIAG_MAIN
__kernel void spill(__global const float *a, __global float *b, int nx, int ny, int nz, int t) {
  const int i = get_global_id(0), n = nx * ny * nz;
  const int r = i / nx, x = i - r * nx;
  if (i >= n) return;
  float s = a[r * nx + x];
  if (i > 0) s += a[r * nx + x - 1];
  if (i + t < n) s += 2.0f * a[r * nx + x + t];
  b[r * nx + x] = s;
}

// Rows summed (a loop below the row length: slot x of row r without a division), into a
// second diagonalized array along the main diagonal, taller than wide; buffers holding
// more than n rows keep those AoS.
//TEST: rows 40 args: buf:45 buf int:6 int:20 int:2
//DL: AoS: const a:float[nz][ny][nx] -> DIAG, out:float[nz][ny][nx] -> DIAG_MAIN
__kernel void rows(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int r = get_global_id(0);
  if (r >= ny * nz) return;
  float s = 0.0f;
  for (int x = 0; x < nx; ++x) {
    s += a[r * nx + x];
    out[r * nx + x] = s * (float)(x + 1);
  }
}

// One plane (the rows are all n records), constant shape 9 x 5 of ints, a row read
// through a pointer to it, the secondary and the main diagonal of the same data.
//TEST: plane 9 args: buf buf
//DL: AoS: const a:int[9][5] -> DIAG_MAIN, b:int[9][5] -> DIAG
__kernel void plane(__global const int *a, __global int *b) {
  const int y = get_global_id(0);
  if (y >= 9) return;
  __global const int *row = a + y * 5;
  for (int x = 0; x < 5; ++x) b[y * 5 + x] = row[x] * 3 + a[((y + 1) % 9) * 5 + (4 - x)];
}

// Doubles in planes wider than tall, each work-item one element (a flat index), a
// neighbour in the next plane, into a second array of the same shape.
//TEST: elems 240 args: buf buf int:12 int:5 int:4
//DL: AoS: const a:double[nz][ny][nx] -> DIAG_MAIN, b:double[nz][ny][nx] -> DIAG
__kernel void elems(__global const double *a, __global double *b, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nx * ny * nz) return;
  b[i] = a[i] * 2.0 + a[(i + nx * ny) % (nx * ny * nz)];
}
