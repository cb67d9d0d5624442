// Kernels of DL's differential tester (tests/diff): plain OpenCL C with //DL:
// annotations, rewritten at build time by dl-annotate (dl_annotate() in
// tests/diff/CMakeLists.txt). One program holds every kernel so that each process
// compiles it once; cases vary arguments, never this text.
//
// Every form of annotation appears: p[n] with a scalar n, p[global_size(0)], -> DA,
// -> ASTA(8), const, write_only, two annotated buffers, an annotated buffer next to a
// plain one, a buffer dl-annotate keeps in AoS (whole records only), flat arrays
// g[n][S] with S odd, flat records g[n][K] whose length K is an argument, two dimensions
// of a flat array swapped (g[m][t][K][J] -> [m][K][t][J]), a count from a
// field of a struct passed by value (p[d.count]), a bound other than n (if (i < cap)),
// and kernels without annotation. Arithmetic is exact (integer operations, float
// additions of small integers and multiplications by two), so the original and the
// rewritten kernel give the same bits whatever the compiler contracts or vectorises.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
  float f;
  double d;
} rec_fd;

//DL: AoS: p[n]
__kernel void upd_fd(__global rec_fd *p, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  p[i].f += (float)k;
  p[i].d = p[i].d * 2.0 - (double)k;
}

//DL: AoS: p[n] -> DA
__kernel void updda_fd(__global rec_fd *p, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  p[i].f += (float)k;
  p[i].d = p[i].d * 2.0 - (double)k;
}

//DL: AoS: p[n] -> ASTA(8)
__kernel void updt_fd(__global rec_fd *p, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  p[i].f += (float)k;
  p[i].d = p[i].d * 2.0 - (double)k;
}

//DL: AoS: p[global_size(0)]
__kernel void updg_fd(__global rec_fd *p, int k) {
  int i = get_global_id(0);
  p[i].f += (float)k;
  p[i].d = p[i].d * 2.0 - (double)k;
}

// The bound is cap, not n: n may be smaller than the range the kernel touches.
//DL: AoS: p[n]
__kernel void cap_fd(__global rec_fd *p, int n, int cap, int k) {
  int i = get_global_id(0);
  if (i < cap) {
    p[i].f += (float)k;
    p[i].d = p[i].d * 2.0 - (double)k;
  }
}

//DL: AoS: const p[n]
__kernel void sum_fd(__global const rec_fd *p, int n, __global uint *out) {
  int i = get_global_id(0);
  if (i >= n) return;
  ulong d = as_ulong(p[i].d);
  out[i] = as_uint(p[i].f) ^ (uint)d ^ (uint)(d >> 32) * 3u;
}

//DL: AoS: a[n], const b[n]
__kernel void pair_fd(__global rec_fd *a, __global const rec_fd *b, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  a[i].d += (double)b[i].f + (double)k;
}

// b is a plain argument: DL keeps it AoS.
//DL: AoS: a[n]
__kernel void half_fd(__global rec_fd *a, __global const rec_fd *b, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  a[i].f += (float)b[i].d;
}

__kernel void plain_fd(__global rec_fd *p, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  p[i].f += (float)k;
  p[i].d = p[i].d * 2.0 - (double)k;
}

// Whole records copied by the work-item id, unit-stride per work-item, then a field
// updated in a loop (the same record every trip): dl-annotate keeps p in AoS (-> AoS)
// with its accesses as written, DL converts it back if another kernel left it in ASTA
// or DA.
//DL: AoS: p[n]
__kernel void whole_fd(__global rec_fd *p, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  rec_fd v = p[i];
  v.f += (float)k;
  v.d = v.d * 2.0 - (double)k;
  p[i] = v;
  for (int t = 1; t <= 2; ++t) p[i].f += (float)t;  // the same record every trip: AoS kept
}

typedef struct {
  char c;
  int i;
  short s;
} rec_cis;

//DL: AoS: p[n]
__kernel void upd_cis(__global rec_cis *p, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  p[i].c += (char)k;
  p[i].i = (int)((uint)p[i].i * 3u + (uint)k);
  p[i].s ^= (short)k;
}

//DL: AoS: p[n] -> DA
__kernel void updda_cis(__global rec_cis *p, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  p[i].c += (char)k;
  p[i].i = (int)((uint)p[i].i * 3u + (uint)k);
  p[i].s ^= (short)k;
}

//DL: AoS: p[n] -> ASTA(8)
__kernel void updt_cis(__global rec_cis *p, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  p[i].c += (char)k;
  p[i].i = (int)((uint)p[i].i * 3u + (uint)k);
  p[i].s ^= (short)k;
}

//DL: AoS: p[global_size(0)]
__kernel void updg_cis(__global rec_cis *p, int k) {
  int i = get_global_id(0);
  p[i].c += (char)k;
  p[i].i = (int)((uint)p[i].i * 3u + (uint)k);
  p[i].s ^= (short)k;
}

// The bound is cap, not n: n may be smaller than the range the kernel touches.
//DL: AoS: p[n]
__kernel void cap_cis(__global rec_cis *p, int n, int cap, int k) {
  int i = get_global_id(0);
  if (i < cap) {
    p[i].c += (char)k;
    p[i].i = (int)((uint)p[i].i * 3u + (uint)k);
    p[i].s ^= (short)k;
  }
}

//DL: AoS: const p[n]
__kernel void sum_cis(__global const rec_cis *p, int n, __global uint *out) {
  int i = get_global_id(0);
  if (i >= n) return;
  out[i] = (uint)p[i].c * 65599u ^ (uint)p[i].i * 31u ^ (uint)p[i].s;
}

//DL: AoS: a[n], const b[n]
__kernel void pair_cis(__global rec_cis *a, __global const rec_cis *b, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  a[i].i = (int)((uint)a[i].i + (uint)b[i].s + (uint)k);
}

// b is a plain argument: DL keeps it AoS.
//DL: AoS: a[n]
__kernel void half_cis(__global rec_cis *a, __global const rec_cis *b, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  a[i].s += (short)b[i].c;
}

__kernel void plain_cis(__global rec_cis *p, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  p[i].c += (char)k;
  p[i].i = (int)((uint)p[i].i * 3u + (uint)k);
  p[i].s ^= (short)k;
}

// Whole records, as whole_fd.
//DL: AoS: p[n]
__kernel void whole_cis(__global rec_cis *p, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  rec_cis v = p[i];
  v.c += (char)k;
  v.i = (int)((uint)v.i * 3u + (uint)k);
  v.s ^= (short)k;
  p[i] = v;
  for (int t = 1; t <= 2; ++t) p[i].i = (int)((uint)p[i].i + (uint)t);  // as in whole_fd
}

typedef struct {
  float4 v;
  int k;
} rec_f4i;

//DL: AoS: p[n]
__kernel void upd_f4i(__global rec_f4i *p, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  p[i].v = p[i].v * 2.0f + (float)k;
  p[i].k = (int)((uint)p[i].k + (uint)k);
}

//DL: AoS: p[n] -> DA
__kernel void updda_f4i(__global rec_f4i *p, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  p[i].v = p[i].v * 2.0f + (float)k;
  p[i].k = (int)((uint)p[i].k + (uint)k);
}

//DL: AoS: p[n] -> ASTA(8)
__kernel void updt_f4i(__global rec_f4i *p, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  p[i].v = p[i].v * 2.0f + (float)k;
  p[i].k = (int)((uint)p[i].k + (uint)k);
}

//DL: AoS: p[global_size(0)]
__kernel void updg_f4i(__global rec_f4i *p, int k) {
  int i = get_global_id(0);
  p[i].v = p[i].v * 2.0f + (float)k;
  p[i].k = (int)((uint)p[i].k + (uint)k);
}

// The bound is cap, not n: n may be smaller than the range the kernel touches.
//DL: AoS: p[n]
__kernel void cap_f4i(__global rec_f4i *p, int n, int cap, int k) {
  int i = get_global_id(0);
  if (i < cap) {
    p[i].v = p[i].v * 2.0f + (float)k;
    p[i].k = (int)((uint)p[i].k + (uint)k);
  }
}

//DL: AoS: const p[n]
__kernel void sum_f4i(__global const rec_f4i *p, int n, __global uint *out) {
  int i = get_global_id(0);
  if (i >= n) return;
  float4 v = p[i].v;
  out[i] = as_uint(v.x) ^ as_uint(v.y) * 3u ^ as_uint(v.z) * 5u ^ as_uint(v.w) * 7u ^ (uint)p[i].k;
}

//DL: AoS: a[n], const b[n]
__kernel void pair_f4i(__global rec_f4i *a, __global const rec_f4i *b, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  a[i].k = (int)((uint)a[i].k + as_uint(b[i].v.y) + (uint)k);
}

// b is a plain argument: DL keeps it AoS.
//DL: AoS: a[n]
__kernel void half_f4i(__global rec_f4i *a, __global const rec_f4i *b, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  a[i].k ^= as_int(b[i].v.z);
}

__kernel void plain_f4i(__global rec_f4i *p, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  p[i].v = p[i].v * 2.0f + (float)k;
  p[i].k = (int)((uint)p[i].k + (uint)k);
}

// Whole records, as whole_fd.
//DL: AoS: p[n]
__kernel void whole_f4i(__global rec_f4i *p, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  rec_f4i v = p[i];
  v.v = v.v * 2.0f + (float)k;
  v.k = (int)((uint)v.k + (uint)k);
  p[i] = v;
  for (int t = 1; t <= 2; ++t) p[i].k = (int)((uint)p[i].k ^ (uint)t);  // as in whole_fd
}

//DL: AoS: g[n][3]
__kernel void fupd_3(__global float *g, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  g[3 * i + 0] += (float)(k + 0);
  g[3 * i + 1] += (float)(k + 1);
  g[3 * i + 2] += (float)(k + 2);
}

// Records of one-unit slots in DA: marshaled in three passes where the planner takes them.
//DL: AoS: g[n][3] -> DA
__kernel void fupdda_3(__global float *g, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  g[3 * i + 0] += (float)(k + 0);
  g[3 * i + 1] += (float)(k + 1);
  g[3 * i + 2] += (float)(k + 2);
}

//DL: AoS: g[global_size(0)][3]
__kernel void fupdg_3(__global float *g, int k) {
  int i = get_global_id(0);
  g[3 * i + 0] += (float)(k + 0);
  g[3 * i + 1] += (float)(k + 1);
  g[3 * i + 2] += (float)(k + 2);
}

//DL: AoS: g[n][3]
__kernel void fcap_3(__global float *g, int n, int cap, int k) {
  int i = get_global_id(0);
  if (i < cap) {
    g[3 * i + 0] += (float)(k + 0);
    g[3 * i + 1] += (float)(k + 1);
    g[3 * i + 2] += (float)(k + 2);
  }
}

// Reads its record and its neighbours' (inside [0, n)): staged in local memory for
// work-groups of 8 (dl-annotate --stage-local --local-size=8), from g's layout.
//DL: AoS: const g[n][3]; local: g[3 * n]
__kernel void fsum_3(__global const float *g, int n, __global uint *out) {
  int i = get_global_id(0);
  if (i >= n) return;
  uint h = as_uint(g[3 * i + 0]) * 1u ^ as_uint(g[3 * i + 1]) * 3u ^ as_uint(g[3 * i + 2]) * 5u;
  if (i > 0) h += as_uint(g[3 * (i - 1) + 0]) ^ as_uint(g[3 * (i - 1) + 2]) * 7u;
  if (i + 1 < n) h += as_uint(g[3 * (i + 1) + 1]) * 11u ^ as_uint(g[3 * (i + 1) + 2]);
  out[i] = h;
}

//DL: AoS: a[n][3], b[n][3]
__kernel void fpair_3(__global float *a, __global float *b, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  a[3 * i] += b[3 * i + 1] + (float)k;
}

__kernel void fplain_3(__global float *g, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  g[3 * i + 0] += (float)(k + 0);
  g[3 * i + 1] += (float)(k + 1);
  g[3 * i + 2] += (float)(k + 2);
}

// Never reads g (write_only) and writes every scalar of the records below n: a buffer created
// without host data and given to it over all its records keeps no undefined byte.
//DL: AoS: write_only g[n][3]
__kernel void femit_3(__global float *g, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  g[3 * i + 0] = (float)(k + i % 7);
  g[3 * i + 1] = (float)(k - 1);
  g[3 * i + 2] = (float)(i % 5);
}

//DL: AoS: g[n][5]
__kernel void fupd_5(__global float *g, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  g[5 * i + 0] += (float)(k + 0);
  g[5 * i + 1] += (float)(k + 1);
  g[5 * i + 2] += (float)(k + 2);
  g[5 * i + 3] += (float)(k + 3);
  g[5 * i + 4] += (float)(k + 4);
}

// Records of one-unit slots in DA: marshaled in three passes where the planner takes them.
//DL: AoS: g[n][5] -> DA
__kernel void fupdda_5(__global float *g, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  g[5 * i + 0] += (float)(k + 0);
  g[5 * i + 1] += (float)(k + 1);
  g[5 * i + 2] += (float)(k + 2);
  g[5 * i + 3] += (float)(k + 3);
  g[5 * i + 4] += (float)(k + 4);
}

//DL: AoS: g[global_size(0)][5]
__kernel void fupdg_5(__global float *g, int k) {
  int i = get_global_id(0);
  g[5 * i + 0] += (float)(k + 0);
  g[5 * i + 1] += (float)(k + 1);
  g[5 * i + 2] += (float)(k + 2);
  g[5 * i + 3] += (float)(k + 3);
  g[5 * i + 4] += (float)(k + 4);
}

//DL: AoS: g[n][5]
__kernel void fcap_5(__global float *g, int n, int cap, int k) {
  int i = get_global_id(0);
  if (i < cap) {
    g[5 * i + 0] += (float)(k + 0);
    g[5 * i + 1] += (float)(k + 1);
    g[5 * i + 2] += (float)(k + 2);
    g[5 * i + 3] += (float)(k + 3);
    g[5 * i + 4] += (float)(k + 4);
  }
}

// As fsum_3: its record and its neighbours', staged.
//DL: AoS: const g[n][5]; local: g[5 * n]
__kernel void fsum_5(__global const float *g, int n, __global uint *out) {
  int i = get_global_id(0);
  if (i >= n) return;
  uint h = as_uint(g[5 * i + 0]) * 1u ^ as_uint(g[5 * i + 1]) * 3u ^ as_uint(g[5 * i + 2]) * 5u ^ as_uint(g[5 * i + 3]) * 7u ^ as_uint(g[5 * i + 4]) * 9u;
  if (i > 0) h += as_uint(g[5 * (i - 1) + 3]) ^ as_uint(g[5 * (i - 1) + 4]) * 7u;
  if (i + 1 < n) h += as_uint(g[5 * (i + 1) + 0]) * 11u ^ as_uint(g[5 * (i + 1) + 1]);
  out[i] = h;
}

//DL: AoS: a[n][5], b[n][5]
__kernel void fpair_5(__global float *a, __global float *b, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  a[5 * i] += b[5 * i + 1] + (float)k;
}

__kernel void fplain_5(__global float *g, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  g[5 * i + 0] += (float)(k + 0);
  g[5 * i + 1] += (float)(k + 1);
  g[5 * i + 2] += (float)(k + 2);
  g[5 * i + 3] += (float)(k + 3);
  g[5 * i + 4] += (float)(k + 4);
}

//DL: AoS: write_only g[n][5]
__kernel void femit_5(__global float *g, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  g[5 * i + 0] = (float)(k + i % 7);
  g[5 * i + 1] = (float)(k - 1);
  g[5 * i + 2] = (float)(i % 5);
  g[5 * i + 3] = (float)(k * 2);
  g[5 * i + 4] = (float)(i % 3 - k);
}

// Flat records whose length K is a kernel argument: one kernel for every K, the runtime
// makes the record of K floats at each launch. The same buffer meets several K in
// successive launches, and the kernels of a constant S above.
//DL: AoS: g[n][K]
__kernel void fupdk(__global float *g, int n, int K, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  for (int j = 0; j < K; ++j) g[i * K + j] += (float)(k + j);
}

// The same in ASTA whose tile width t is an argument too: the runtime converts the buffer
// to ASTA(t) for each launch's t (t outside [1, 2^20]: the kernel runs untransformed).
//DL: AoS: g[n][K] -> ASTA(t)
__kernel void fupdtk(__global float *g, int n, int K, int t, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  for (int j = 0; j < K; ++j) g[i * K + j] += (float)(k + j + t % 3);
}

// Two dimensions swapped (docs/remappings.md): g[m][t][K][J] -> g'[m][K][t][J], m·t
// records of K rows of J floats, each row moved whole (ASTA(t) of rows; m = 1 swaps the
// two slowest of three). t, K and J change between launches of one buffer; t or m outside
// their range (0, negative): the kernel runs untransformed.
//DL: AoS: g[m][t][K][J] -> [m][K][t][J]
__kernel void fswapk(__global float *g, int m, int t, int K, int J, int k) {
  int i = get_global_id(0);
  if (i >= m * t) return;
  for (int y = 0; y < K; ++y)
    for (int x = 0; x < J; ++x) g[(i * K + y) * J + x] += (float)(k + y * J + x);
}

// The same with t and J exchanged, two dimensions that are not neighbours: g[m][t][K][J]
// -> g'[m][J][K][t], SWAP(t, K) of m·t records of K·J rows of one float.
//DL: AoS: g[m][t][K][J] -> [m][J][K][t]
__kernel void fswapd(__global float *g, int m, int t, int K, int J, int k) {
  int i = get_global_id(0);
  if (i >= m * t) return;
  for (int y = 0; y < K; ++y)
    for (int x = 0; x < J; ++x) g[(i * K + y) * J + x] += (float)(k + y * J + x);
}

// The same swap read only: the hash of each record's K rows of J floats (host-visible
// memory read through a copy in SWAP(t, K)).
//DL: AoS: const g[m][t][K][J] -> [m][J][K][t]
__kernel void fswapsum(__global const float *g, int m, int t, int K, int J, __global uint *out) {
  int i = get_global_id(0);
  if (i >= m * t) return;
  uint s = 0u;
  for (int y = 0; y < K; ++y)
    for (int x = 0; x < J; ++x) s ^= as_uint(g[(i * K + y) * J + x]) * (uint)(2 * (y * J + x) + 1);
  out[i] = s;
}

// The neighbours' swap read only (host-visible memory read through a copy in ASTA(t)).
//DL: AoS: const g[m][t][K][J] -> [m][K][t][J]
__kernel void fswapksum(__global const float *g, int m, int t, int K, int J, __global uint *out) {
  int i = get_global_id(0);
  if (i >= m * t) return;
  uint s = 0u;
  for (int y = 0; y < K; ++y)
    for (int x = 0; x < J; ++x) s ^= as_uint(g[(i * K + y) * J + x]) * (uint)(2 * (y * J + x) + 1);
  out[i] = s;
}

// Planes diagonalized (docs/remappings.md): g[m][t][K], m planes of t rows of K floats,
// along the secondary or the main diagonal. A work-item updates its row from left to
// right, each scalar from the one before it. m, t and K change between launches of one
// buffer; t or m outside their range (0, negative): the kernel runs untransformed.
//DL: AoS: g[m][t][K] -> DIAG
__kernel void fdiagk(__global float *g, int m, int t, int K, int k) {
  int i = get_global_id(0);
  if (i >= m * t) return;
  for (int x = 0; x < K; ++x)
    g[i * K + x] += (float)(k + x) + (x > 0 ? 0.5f * g[i * K + x - 1] : 0.0f);
}

//DL: AoS: g[m][t][K] -> DIAG_MAIN
__kernel void fdiagmk(__global float *g, int m, int t, int K, int k) {
  int i = get_global_id(0);
  if (i >= m * t) return;
  for (int x = K - 1; x >= 0; --x)
    g[(i * K) + x] =
        g[i * K + x] * 2.0f - (float)(k + i % 5) + (x + 1 < K ? g[i * K + x + 1] : 0.0f);
}

// Diagonalized planes read only: the hash of each row.
//DL: AoS: const g[m][t][K] -> DIAG
__kernel void fdiagsum(__global const float *g, int m, int t, int K, __global uint *out) {
  int i = get_global_id(0);
  if (i >= m * t) return;
  uint s = 0u;
  for (int x = 0; x < K; ++x) s ^= as_uint(g[i * K + x]) * (uint)(2 * x + 1);
  out[i] = s;
}

// The same with unsigned arguments, read only.
//DL: AoS: const g[n][K]
__kernel void fsumk(__global const float *g, uint n, uint K, __global uint *out) {
  uint i = get_global_id(0);
  if (i >= n) return;
  uint s = 0u;
  for (uint j = 0; j < K; ++j) s ^= as_uint(g[i * K + j]) * (2u * j + 1u);
  out[i] = s;
}

// Record counts from a field of a struct passed by value (completed as d.count@4:uint,
// read from the argument's bytes at launch). The bound is cap: the count may be smaller
// than the range the kernel touches, or larger than the buffer (DL must fall back).
typedef struct {
  int k;
  uint count;
} dims_t;

//DL: AoS: p[d.count]
__kernel void dcap_fd(__global rec_fd *p, dims_t d, int cap) {
  int i = get_global_id(0);
  if (i < cap) {
    p[i].f += (float)d.k;
    p[i].d = p[i].d * 2.0 - (double)d.k;
  }
}

//DL: AoS: p[d.count]
__kernel void dcap_cis(__global rec_cis *p, dims_t d, int cap) {
  int i = get_global_id(0);
  if (i < cap) {
    p[i].c += (char)d.k;
    p[i].i = (int)((uint)p[i].i * 3u + (uint)d.k);
    p[i].s ^= (short)d.k;
  }
}

//DL: AoS: p[d.count]
__kernel void dcap_f4i(__global rec_f4i *p, dims_t d, int cap) {
  int i = get_global_id(0);
  if (i < cap) {
    p[i].v = p[i].v * 2.0f + (float)d.k;
    p[i].k = (int)((uint)p[i].k + (uint)d.k);
  }
}

//DL: AoS: g[d.count][3]
__kernel void fdcap_3(__global float *g, dims_t d, int cap) {
  int i = get_global_id(0);
  if (i < cap) {
    g[3 * i + 0] += (float)(d.k + 0);
    g[3 * i + 1] += (float)(d.k + 1);
    g[3 * i + 2] += (float)(d.k + 2);
  }
}

//DL: AoS: g[d.count][5]
__kernel void fdcap_5(__global float *g, dims_t d, int cap) {
  int i = get_global_id(0);
  if (i < cap) {
    g[5 * i + 0] += (float)(d.k + 0);
    g[5 * i + 1] += (float)(d.k + 1);
    g[5 * i + 2] += (float)(d.k + 2);
    g[5 * i + 3] += (float)(d.k + 3);
    g[5 * i + 4] += (float)(d.k + 4);
  }
}

// A gather: DL's build reads x[idx[i]] from a copy of x gathered through idx, gathered
// again whenever a command may have written either. Bytes: any buffer of 256 bytes or
// more serves as x, any buffer as idx (also x itself).
//DL: gather: x[idx]
__kernel void gath(__global const uchar *x, __global const uchar *idx, __global uint *out, uint m,
                   int k) {
  uint i = get_global_id(0);
  if (i >= m) return;
  out[i] = out[i] * 7u + (uint)x[idx[i]] * 3u + (uint)x[idx[m - 1u - i]] + (uint)k;
}

// A user-defined map: DL's build reads x[scramble(e, s)] at e below x's bytes from a copy
// of x that its map kernel makes, again whenever a command may have written x or s
// changes; past x's bytes it reads x itself. scramble permutes the bytes [0, 256), which
// x (256 bytes or more) holds.
uint scramble(uint i, uint s) { return (i * (2u * s + 1u) + s) & 255u; }

//DL: map: x[scramble]
__kernel void umap(__global const uchar *x, __global uint *out, uint m, uint s, int k) {
  uint i = get_global_id(0);
  if (i >= m) return;
  out[i] = out[i] * 5u + (uint)x[scramble(i, s)] * 3u + (uint)x[scramble(m - 1u - i, s)] + (uint)k;
}
