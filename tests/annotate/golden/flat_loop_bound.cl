// A loop over the scalars of a flat record, `for (x = 0; x < S; ++x) g[i * S + x]`, needs no
// compare with S: x is known to lie in [0, S), so the access is slot x of record i
// (dl_tiled). Every other loop keeps the compare (dl_flat_at): a bound that is not S, a
// loop variable the body changes, an S the kernel reassigns, a start that may be negative.

//DL: AoS: const a:float[n][nx], out:float[n][4]
__kernel void bounded(__global const float *a, __global float *out, int n, int nx, int m,
                      int lo) {
  const int r = get_global_id(0);
  if (r >= n) return;
  float s = 0.0f;
  for (int x = 0; x < nx; ++x) s += a[r * nx + x];          /* dl_tiled */
  for (int x = 0; x < m; ++x) s += a[r * nx + x];           /* bound m: compare */
  for (int x = 0; x < nx; ++x) {
    s += a[r * nx + x];                                     /* x changes: compare */
    x += 1;
  }
  for (int x = lo; x < nx; ++x) s += a[r * nx + x];         /* start lo: compare */
  for (int x = 0; x <= 3; ++x) out[4 * r + x] = s;          /* <=: compare */
  int c;
  for (c = 1; c < 4; c++) out[r * 4 + c] += 1.0f;           /* c = 1, c++: dl_tiled */
  for (int x = 0; x < nx; ++x) {
    const float v = a[r * nx + x];                          /* in a declaration: dl_tiled */
    out[4 * r] += v;
  }
  for (int x = 0; x < m; ++x) {
    const float v = a[r * nx + x];                          /* bound m: compare */
    out[4 * r] += v;
  }
}

//DL: AoS: const a:float[n][nx]
__kernel void reassigned(__global const float *a, __global float *out, int n, int nx) {
  const int r = get_global_id(0);
  if (r >= n) return;
  float s = 0.0f;
  nx = nx - 1; /* the loop's bound is no longer the record length: compare */
  for (int x = 0; x < nx; ++x) s += a[r * (nx + 1) + x];
  out[r] = s;
}
