// SpMV ELL, hand-written for every layout (see layouts.h): the rows are the records,
// K values (val) and K column indices (col) per row.
__kernel void spmv_ell(__global const float* val, __global const int* col,
                       __global const float* x, __global float* y, uint rows, uint K) {
  const uint i = get_global_id(0);
  if (i >= rows) return;
  float s = 0.0f;
  for (uint k = 0; k < K; ++k) {
    const uint e = LIDX(i, k, K, rows);
    s += val[e] * x[col[e]];
  }
  y[i] = s;
}
