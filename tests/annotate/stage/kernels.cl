// Kernels staged in local memory by dl-annotate --stage-local
// (tests/annotate/stage_test.cpp runs them against the originals; bench/stage times them).

// Matrix multiply with the inner dimension a compile-time constant (MM_K): the rows of A
// and the columns of B one 16x16 work-group reads fit local memory.
#ifndef MM_K
#define MM_K 64
#endif
//DL: local: A[rows * MM_K], B[MM_K * cols]
__kernel void matmul_k(__global const float* A, __global const float* B, __global float* C,
                       int rows, int cols) {
  const int row = get_global_id(1);
  const int col = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < MM_K; ++k) sum += A[row * MM_K + k] * B[k * cols + col];
  if (row < rows && col < cols) C[row * cols + col] = sum;
}

// The same with a wider inner dimension (MM_WIDE): a 16x16 work-group's rows of A and
// columns of B fill 32 KiB of local memory.
#ifndef MM_WIDE
#define MM_WIDE 256
#endif
//DL: local: A[rows * MM_WIDE], B[MM_WIDE * cols]
__kernel void matmul_wide(__global const float* A, __global const float* B, __global float* C,
                          int rows, int cols) {
  const int row = get_global_id(1);
  const int col = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < MM_WIDE; ++k) sum += A[row * MM_WIDE + k] * B[k * cols + col];
  if (row < rows && col < cols) C[row * cols + col] = sum;
}

// 2-D 5-point stencil over the interior of a w x h grid (any global size: guarded).
//DL: local: in[w * h]
__kernel void stencil5(__global const float* in, __global float* out, int w, int h) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x > 0 && y > 0 && x < w - 1 && y < h - 1) {
    const int i = y * w + x;
    out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
  }
}

// 3-D 7-point stencil over the interior of a nx x ny x nz grid.
//DL: local: in[nx * ny * nz]
__kernel void stencil7(__global const float* in, __global float* out, int nx, int ny, int nz) {
  const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1) return;
  const int i = (z * ny + y) * nx + x;
  const int plane = nx * ny;
  out[i] = in[i] - (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - plane] +
                    in[i + plane]) / 6.0f;
}

// 2-D convolution with a 5x5 mask; the image has a 2-pixel border on every side, the
// global size is its interior.
//DL: local: img[w * (get_global_size(1) + 4)], mask[25]
__kernel void conv5x5(__global const float* img, __constant float* mask, __global float* out,
                      int w) {
  const int x = get_global_id(0) + 2;
  const int y = get_global_id(1) + 2;
  float acc = 0.0f;
  for (int dy = -2; dy <= 2; dy++)
    for (int dx = -2; dx <= 2; dx++) acc += img[(y + dy) * w + x + dx] * mask[(dy + 2) * 5 + dx + 2];
  out[y * w + x] = acc;
}

// A flat array of records of 4 floats that DL converts to ASTA and also stages: the copy
// reads its layout, each work-item its record and both neighbours'.
//DL: AoS: const p[n][4] -> ASTA; local: p[4 * n]
__kernel void smooth4(__global const float* p, __global float* out, int n) {
  const int i = get_global_id(0);
  if (i > 0 && i < n - 1)
    for (int c = 0; c < 4; ++c)
      out[i * 4 + c] = 0.25f * p[(i - 1) * 4 + c] + 0.5f * p[i * 4 + c] + 0.25f * p[(i + 1) * 4 + c];
}
