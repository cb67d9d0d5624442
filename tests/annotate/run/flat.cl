// Run-equivalence: flat arrays with a small fastest dimension (LBM style).
#define Q 5
#define IDX(e, c) ((c) + Q * (e))
#define CELL(g, e, c) (g[IDX(e, c)])

//TEST: relax 1003 args: buf buf
//DL: AoS: src[global_size(0)][5], dst[global_size(0)][5]
__kernel void relax(__global const float *src, __global float *dst) {
  int e = get_global_id(0);
  float rho = 0.0f;
  for (int c = 0; c < Q; ++c) rho += src[Q * e + c];
  CELL(dst, e, 0) = rho;
  CELL(dst, e, 1) = CELL(src, e, 1) * 0.5f;
  dst[e * Q + 2] = src[IDX(e, 2)] + 1.0f;
  dst[3 + Q * e] = src[IDX((e + 1) % (int)get_global_size(0), 3)];
  dst[IDX(e, 4)] = rho - src[e * Q + 4];
}

// A neighbour's scalar across record ends: (Q*e + c) - 1 and + 1 leave record e at
// c = 0 and c = Q - 1 (a compare, then the flat index).
//TEST: across 1003 args: buf buf
//DL: AoS: const src[global_size(0)][5], dst[global_size(0)][5]
__kernel void across(__global const float *src, __global float *dst) {
  const int e = get_global_id(0), n = get_global_size(0);
  for (int c = 0; c < Q; ++c) {
    float s = src[Q * e + c];
    if (e > 0 || c > 0) s += src[Q * e + c - 1];
    if (e + 1 < n || c + 1 < Q) s += 2.0f * src[(Q * e + c) + 1];
    dst[Q * e + c] = s;
  }
}

//TEST: shifted 1003 args: buf
//DL: AoS: g[global_size(0)][5] -> ASTA
__kernel void shifted(__global int *g) {
  int e = get_global_id(0);
  if (e == 0) return;
  g += Q;  /* the kernel moves its own base pointer */
  __global int *h = g - Q;
  g[Q * (e - 1) + 1] += h[Q * e];
}

//TEST: span 1003 args: buf buf
//DL: AoS: src[global_size(0)][5], dst[global_size(0)][5]
__kernel void span(__global const float *src, __global float *dst) {
  int e = get_global_id(0);
  int last = (int)get_global_size(0) - 1;
  float s = 0.0f;
  /* Scalar c of the record and past it (c >= Q reaches record e + 1): a compare names
     the slot where c < Q, the division does the rest. */
  for (int c = 0; c < 2 * Q; ++c)
    if (e < last || c < Q) s += src[Q * e + c] * (float)(c + 1);
  /* A negative scalar index reaches record e - 1. */
  int back = -2;
  if (e > 0) s += src[Q * e + back];
  for (int c = 0; c < Q; ++c) dst[Q * e + c] = s + (float)c;
}

// The base pointer moved by whole records (LBM's `src += MARGIN`): the slot paths, with
// (g - base) / S records before the index.
//TEST: moved 1003 args: buf int:1003
//DL: AoS: g[n][5]
__kernel void moved(__global float *g, int n) {
  g += 3 * 5;
  const int c = get_global_id(0);
  if (c >= n - 3) return;
  float s = 0.0f;
  for (int q = 0; q < 5; ++q) s += g[c * 5 + q];
  g[c * 5 + 1] = s;
  g[5 * c + 4] *= 2.0f;
}

// Two flat arrays that name their scalar type, one whose S is an argument and one whose
// S is a constant: the constant one gets a record of its own (flat_float_2), never the
// name `float` that stands for "S at each launch".
//TEST: named 1003 args: buf buf int:6
//DL: AoS: const a:float[global_size(0)][S], out:float[global_size(0)][2]
__kernel void named(__global const float *a, __global float *out, int S) {
  const int r = get_global_id(0);
  float s = 0.0f;
  for (int x = 0; x < S; ++x) s += a[r * S + x];
  out[2 * r] = s;
  out[2 * r + 1] = a[r * S + 1];
}

// A 3-D array a[nz][ny][nx] whose rows are walked by consecutive work-items: ASTA with the
// tile width ny swaps its two fastest dimensions in every plane (a[z][x][y]); the output's
// tile width is an expression too (ny + 3: a partial last tile of 1003 % 20 = 3 rows).
//TEST: planes 1003 args: buf buf int:6 int:17 int:59
//DL: AoS: const a:float[nz * ny][nx] -> ASTA(ny), out:float[nz * ny][2] -> ASTA(ny + 3)
__kernel void planes(__global const float *a, __global float *out, int nx, int ny, int nz) {
  const int r = get_global_id(0); /* the row of plane z = r / ny, y = r % ny */
  if (r >= ny * nz) return;
  float s = 0.0f, m = 0.0f;
  for (int x = 0; x < nx; ++x) {
    s += a[r * nx + x]; /* no multiply-add: contraction may differ between builds */
    m = fmax(m, a[(r / ny * ny + r % ny) * nx + x]);
  }
  out[2 * r] = s;
  out[2 * r + 1] = m;
}
