// Swapped dimensions (`-> [..]`, docs/annotation.md) where an index fixed at g / P2 (g a
// work-item id, P2 a parameter) is proven below the dimension Q by a guard on g: every
// execution of the access follows `if (g >= P2 * Q) return;` of the kernel's top-level
// body (`Q * P2 <= g`, or one operand of a `||`), or lies in the then-branch of an
// `if (g < P2 * Q)` (`P2 * Q > g`, or one operand of an `&&`). Then no compare is left
// (dl_swap_in_da, dl_rows_in_da); any other guard keeps the compares (dl_swap_da,
// dl_rows_da).

// Proven: a sweep along x of a[x][y][z], y = i / nz below ny (bench/apps/swap, swap_far).
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz]
__kernel void far(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nz * ny) return;
  const int y = i / nz, z = i - y * nz;
  float s = 0.0f;
  for (int x = 0; x < nx; ++x) s += a[(z * ny + y) * nx + x];
  out[i] = s;
}

// Proven: two adjacent dimensions (a[z][y][x] -> a'[y][z][x]), the row y = i / nx below
// ny, the guard's product reversed and written `E <= g` in a block.
//DL: AoS: const a:float[nz][ny][nx] -> [ny][nz][nx]
__kernel void adjacent(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (ny * nx <= i) {
    return;
  }
  const int y = i / nx, x = i - y * nx;
  float s = 0.0f;
  for (int z = 0; z < nz; ++z) s += a[(z * ny + y) * nx + x];
  out[i] = s;
}

// Proven: one operand of a `||` of an early return, and guards that enclose the access
// (`if (g < E)`, `E > g`, one operand of an `&&`).
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz]
__kernel void far_or(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (nx < 1 || ny * nz <= i) return;
  const int y = i / nz, z = i - y * nz;
  out[i] = a[(z * ny + y) * nx];
}
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz]
__kernel void far_if(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  const int y = i / nz, z = i - y * nz;
  if (i < nz * ny) {
    float s = 0.0f;
    for (int x = 0; x < nx; ++x) s += a[(z * ny + y) * nx + x];
    out[i] = s;
  }
  if (nx > 1 && ny * nz > i) out[i] += a[(z * ny + y) * nx];
}
//DL: AoS: const a:float[nz][ny][nx] -> [ny][nz][nx]
__kernel void adjacent_if(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  const int y = i / nx, x = i % nx;
  if (i < nx * ny)
    for (int z = 0; z < nz; ++z) out[i] += a[(z * ny + y) * nx + x];
}

// Compares kept: the guard after the access, a product of other dimensions (nz * nx when
// y must lie below ny), `>` and `<=` (i == nz * ny gives y == ny), an early return inside
// a block, an early return under `&&`, a guard of another id, the else-branch of a guard
// and a `||` of an enclosing one.
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz]
__kernel void after(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  const int y = i / nz, z = i - y * nz;
  if (y < ny) out[i] = a[(z * ny + y) * nx];
  if (i >= nz * ny) return;
  out[i] += a[(z * ny + y) * nx]; /* proven: after the guard */
}
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz]
__kernel void wrong_product(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nz * nx) return;
  const int y = i / nz, z = i - y * nz;
  if (i < nz * nx) out[i] = a[(z * ny + y) * nx];
}
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz]
__kernel void greater(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i > nz * ny) return;
  const int y = i / nz, z = i - y * nz;
  out[i] = a[(z * ny + y) * nx];
  if (i <= nz * ny) out[i] += a[(z * ny + y) * nx];
}
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz]
__kernel void nested(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (nx > 0) {
    if (i >= nz * ny) return;
  }
  const int y = i / nz, z = i - y * nz;
  out[i] = a[(z * ny + y) * nx];
}
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz]
__kernel void and_return(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  if (i >= nz * ny && nx > 0) return;
  const int y = i / nz, z = i - y * nz;
  out[i] = a[(z * ny + y) * nx];
}
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz]
__kernel void other_id(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0), k = get_global_id(1);
  if (k >= nz * ny) return;
  const int y = i / nz, z = i - y * nz;
  out[i] = a[(z * ny + y) * nx];
}
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz]
__kernel void in_else(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  const int y = i / nz, z = i - y * nz;
  if (i < nz * ny)
    out[i] = a[(z * ny + y) * nx]; /* proven */
  else if (i < nz * ny || nx > 0)
    out[i] = a[(z * ny + y) * nx];
}

// Compares kept: a label in the kernel (a goto may pass the guard).
//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz]
__kernel void label(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  const int y = i / nz, z = i - y * nz;
  if (nx > 4) goto read;
  if (i >= nz * ny) return;
read:
  out[i] = a[(z * ny + y) * nx];
}
