// Figure 1 micro-benchmark as an application writes it: records of S floats in AoS.
// Build with -DS=<fields>.
typedef struct {
  float f[S];
} rec_t;

//DL: AoS: const a[n], write_only b[n]
__kernel void reduce_dup(__global const rec_t* a, __global rec_t* b, uint n) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  float s = 0.0f;
  for (uint k = 0; k < S; ++k) s += a[i].f[k];
  for (uint k = 0; k < S; ++k) b[i].f[k] = s;
}
