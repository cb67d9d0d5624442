// SpMV ELL, hand-written for every layout (see layouts.h): the rows are the records,
// K values (val) and K column indices (col) per row. A work-item walks its row with the
// first entry's index and one add of the layout's stride per entry (1 in AoS, rows in
// DA, the tile's width in ASTA), unrolled by 4: on the H100, evaluating LIDX per entry
// kept ASTA's index arithmetic (a division and the partial tile's min) in the loop and
// made ASTA slower than DA, while with the stride walk ASTA was the faster of the two on
// every Table 1 shape (dl-app-spmv --variants, bench/results/h100/spmv-variants.json).
__kernel void spmv_ell(__global const float* val, __global const int* col,
                       __global const float* x, __global float* y, uint rows, uint K) {
  const uint i = get_global_id(0);
  if (i >= rows) return;
#if defined(L_DA)
  uint e = i;
  const uint stride = rows;
#elif defined(L_ASTA)
  const uint base = i / L_T * L_T;
  uint e = base * K + (i - base);
  const uint stride = min((uint)L_T, rows - base);
#else
  uint e = i * K;
  const uint stride = 1u;
#endif
  float s = 0.0f;
#pragma unroll 4
  for (uint k = 0; k < K; ++k) {
    s += val[e] * x[col[e]];
    e += stride;
  }
  y[i] = s;
}
