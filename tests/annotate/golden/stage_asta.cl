// --stage-local on a flat array DL also converts to ASTA: the copy into local memory reads
// the layout through dl_flat, and each read's fallback is its ASTA rewrite.
// ARGS: --stage-local
//DL: AoS: const p[n][4] -> ASTA; local: p[4 * n]
__kernel void smooth4(__global const float* p, __global float* out, int n) {
  const int i = get_global_id(0);
  if (i > 0 && i < n - 1)
    for (int c = 0; c < 4; ++c)
      out[i * 4 + c] = 0.25f * p[(i - 1) * 4 + c] + 0.5f * p[i * 4 + c] + 0.25f * p[(i + 1) * 4 + c];
}
