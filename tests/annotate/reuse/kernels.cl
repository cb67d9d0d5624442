// The reuse analysis's test kernels (tests/annotate/reuse_test.cpp holds the hand counts).

// Naive matrix multiply: C = A * B, n x n, one work-item per element of C.
__kernel void matmul(__global const float* A, __global const float* B, __global float* C,
                     int n) {
  const int row = get_global_id(1);
  const int col = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += A[row * n + k] * B[k * n + col];
  C[row * n + col] = sum;
}

// 2-D 5-point stencil over the interior of a w x h grid.
__kernel void stencil5(__global const float* in, __global float* out, int w, int h) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x > 0 && y > 0 && x < w - 1 && y < h - 1) {
    const int i = y * w + x;
    out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
  }
}

// 3-D 7-point stencil over the interior of a nx x ny x nz grid.
__kernel void stencil7(__global const float* in, __global float* out, int nx, int ny, int nz) {
  const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1) return;
  const int i = (z * ny + y) * nx + x;
  const int plane = nx * ny;
  out[i] = in[i] - (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - plane] +
                    in[i + plane]) / 6.0f;
}

// 2-D convolution with a 5x5 mask; the image has a 2-pixel border.
__kernel void conv5x5(__global const float* img, __constant float* mask, __global float* out,
                      int w) {
  const int x = get_global_id(0) + 2;
  const int y = get_global_id(1) + 2;
  float acc = 0.0f;
  for (int dy = -2; dy <= 2; dy++)
    for (int dx = -2; dx <= 2; dx++) acc += img[(y + dy) * w + x + dx] * mask[(dy + 2) * 5 + dx + 2];
  out[y * w + x] = acc;
}

// No reuse: each element read once.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c) {
  const size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

// Records: each work-item reads two fields of its own record and one of its neighbour's.
typedef struct {
  float x, y, z, w;
} P;
__kernel void records(__global const P* p, __global float* out) {
  const int i = get_global_id(0);
  out[i] = p[i].x + p[i].y + p[i + 1].x;
}

// What the analysis cannot count, and says why.
__kernel void gather(__global const int* col, __global const float* v, __global float* y) {
  const int i = get_global_id(0);
  y[i] = v[col[i]];
}
float twice(__global const float* p, int i) { return 2.0f * p[i]; }
__kernel void helper(__global const float* in, __global float* out) {
  const int i = get_global_id(0);
  out[i] = twice(in, i);
}
__kernel void walk(__global const float* in, __global float* out, int n) {
  int i = get_global_id(0);
  float s = 0.0f;
  while (i < n) {
    s += in[i];
    i += get_global_size(0);
  }
  out[get_global_id(0)] = s;
}
