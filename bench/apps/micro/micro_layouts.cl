// Figure 1 micro-benchmark, hand-written for every layout (see layouts.h).
// Work-item i sums the S fields of record i of `a` and writes the sum into every field
// of record i of `b`: as many loads as stores, nearly no arithmetic.
__kernel void reduce_dup(__global const float* restrict a, __global float* restrict b, uint n) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  float s = 0.0f;
  for (uint k = 0; k < S; ++k) s += a[LIDX(i, k, S, n)];
  for (uint k = 0; k < S; ++k) b[LIDX(i, k, S, n)] = s;
}
