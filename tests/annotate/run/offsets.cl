// Run-equivalence under both offset widths (DL_OFFSET64: the runtime's 64-bit build,
// docs/annotation.md): neighbours across row ends through unsigned indices, which wrap
// at 2^32 in the original kernel where 64-bit offsets do not.
//BUILD:
//BUILD: -DDL_OFFSET64

// Rows of nx floats, unsigned column arithmetic: x - 1 wraps at x = 0 (the row before's
// last element), x + 1 reaches the next row's first.
//TEST: urow 1003 args: buf buf uint:7
//DL: AoS: const a:float[global_size(0)][nx], b:float[global_size(0)][nx]
__kernel void urow(__global const float *a, __global float *b, uint nx) {
  const uint r = get_global_id(0), n = get_global_size(0);
  for (uint x = 0; x < nx; ++x) {
    float s = a[r * nx + x];
    if (r > 0 || x > 0) s += a[r * nx + x - 1] + 3.0f * a[r * nx + (x - 1)];
    if (r + 1 < n || x + 1 < nx) s += 2.0f * a[r * nx + x + 1];
    b[r * nx + x] = s;
  }
}

// The same with signed indices, diagonalized planes of 3 rows.
//TEST: srow 24 args: buf buf int:5 int:3 int:8
//DL: AoS: const a:float[nz][ny][nx] -> DIAG, b:float[nz][ny][nx] -> DIAG_MAIN
__kernel void srow(__global const float *a, __global float *b, int nx, int ny, int nz) {
  const int r = get_global_id(0);
  if (r >= ny * nz) return;
  for (int x = 0; x < nx; ++x) {
    float s = a[r * nx + x];
    if (r > 0 || x > 0) s += a[r * nx + x - 1];
    if (r + 1 < ny * nz || x + 1 < nx) s += 2.0f * a[r * nx + x + 1];
    b[r * nx + x] = s;
  }
}

// A swap of rows (records of ny rows of nx floats) addressed (z*ny + y)*nx + x in unsigned
// arithmetic: y - 1 at y = 0 is the previous plane's last row, x - 1 at x = 0 the previous
// row's last scalar.
//TEST: urows 105 args: buf buf uint:7 uint:3 uint:5
//DL: AoS: const a:float[nz][ny][nx] -> [ny][nz][nx], b:float[nz][ny][nx] -> [ny][nz][nx]
__kernel void urows(__global const float *a, __global float *b, uint nx, uint ny, uint nz) {
  const uint i = get_global_id(0);
  if (i >= nx * ny * nz) return;
  const uint x = i % nx, y = i / nx % ny, z = i / (nx * ny);
  float s = a[(z * ny + y) * nx + x];
  if (z > 0 || y > 0) s += 2.0f * a[(z * ny + y - 1) * nx + x];
  if (i > 0) s += 3.0f * a[(z * ny + y) * nx + x - 1];
  b[(z * ny + y) * nx + x] = s;
}

// Diagonalized planes addressed (z*ny + y)*nx + x in unsigned arithmetic (plane, row and
// column compared, dl_diag_pyc): y - 1 at y = 0 and x - 1 at x = 0 wrap.
//TEST: uplanes 60 args: buf buf uint:5 uint:4 uint:3
//DL: AoS: const a:float[nz][ny][nx] -> DIAG_MAIN, b:float[nz][ny][nx] -> DIAG
__kernel void uplanes(__global const float *a, __global float *b, uint nx, uint ny, uint nz) {
  const uint i = get_global_id(0);
  if (i >= nx * ny * nz) return;
  const uint x = i % nx, y = i / nx % ny, z = i / (nx * ny);
  float s = a[(z * ny + y) * nx + x];
  if (i >= nx) s += 2.0f * a[(z * ny + y - 1) * nx + x];
  if (i > 0) s += 3.0f * a[(z * ny + y) * nx + x - 1];
  b[(z * ny + y) * nx + x] = s;
}
