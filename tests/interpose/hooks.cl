// Kernels of the interposer tests, in the form dl-annotate produces ("safe everywhere"):
// the AoS path by default, the transformed path when the runtime builds the program
// with -DDL_ASTA_T=<T>. Written by hand so that these tests do not depend on the
// annotator; the layout map is the one of include/dl/layout.hpp.
typedef struct {
  float4 pos;
  float4 vel;
  float mass;
  int id;
} particle;

#ifdef DL_ASTA_T
// Byte offset of slot (o, z) of record i among n records stored with tile width W;
// records from n on keep their AoS address (DL converts only the first n).
inline size_t dl_tiled(size_t W, size_t n, size_t R, size_t i, size_t o, size_t z) {
  if (i >= n) return i * R + o;
  size_t b = (i / W) * W;
  size_t w = min(n - b, W);
  return b * R + w * o + (i - b) * z;
}
#define DL_AT(base, type, W, n, i, o) \
  (*(__global type*)((__global char*)(base) + dl_tiled((W), (n), 48, (i), (o), sizeof(type))))
#define POS(p, W, n, i) DL_AT(p, float4, W, n, i, 0)
#define VEL(p, W, n, i) DL_AT(p, float4, W, n, i, 16)
#define MASS(p, W, n, i) DL_AT(p, float, W, n, i, 32)
#define ID(p, W, n, i) DL_AT(p, int, W, n, i, 36)
#else
#define POS(p, W, n, i) (p)[i].pos
#define VEL(p, W, n, i) (p)[i].vel
#define MASS(p, W, n, i) (p)[i].mass
#define ID(p, W, n, i) (p)[i].id
#endif

//DL: AoS: p[n] AOS2ASTA_particle
//DL: record particle 48 16 float4:pos@0 float4:vel@16 float:mass@32 int:id@36
__kernel void advance(__global particle* p, int n, float dt) {
  size_t i = get_global_id(0);
  if (i >= (size_t)n) return;
  float4 v = VEL(p, DL_ASTA_T, n, i) + (float4)(0.0f, -9.81f, 0.0f, 0.0f) * dt / MASS(p, DL_ASTA_T, n, i);
  VEL(p, DL_ASTA_T, n, i) = v;
  POS(p, DL_ASTA_T, n, i) += v * dt;
  ID(p, DL_ASTA_T, n, i) += 1;
}

// The same record wanted as discrete arrays (DA: tile width = n).
//DL: AoS: p[global_size(0)] -> DA AOS2DA_particle
//DL: record particle 48 16 float4:pos@0 float4:vel@16 float:mass@32 int:id@36
__kernel void scale(__global particle* p, float f) {
  size_t i = get_global_id(0);
  size_t n = get_global_size(0);
  MASS(p, n, n, i) *= f;
  POS(p, n, n, i) *= f;
}

// Not annotated: always reads AoS (the runtime restores AoS before it runs).
__kernel void total_mass(__global const particle* p, int n, __global float* out) {
  if (get_global_id(0) != 0) return;
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += p[i].mass * (float)(p[i].id & 7);
  out[0] = s;
}

// The annotation's n is smaller than the range the kernel touches (guarded by cap):
// records from n on stay AoS.
//DL: AoS: p[n] AOS2ASTA_particle
//DL: record particle 48 16 float4:pos@0 float4:vel@16 float:mass@32 int:id@36
__kernel void advance_cap(__global particle* p, int n, int cap, float dt) {
  size_t i = get_global_id(0);
  if (i >= (size_t)cap) return;
  VEL(p, DL_ASTA_T, n, i) *= 1.5f;
  POS(p, DL_ASTA_T, n, i) += VEL(p, DL_ASTA_T, n, i) * dt;
  ID(p, DL_ASTA_T, n, i) += 3;
}

// Two dimensions whose product may overflow.
//DL: AoS: p[x][y] AOS2ASTA_particle
//DL: record particle 48 16 float4:pos@0 float4:vel@16 float:mass@32 int:id@36
__kernel void advance_xy(__global particle* p, long x, long y, int n, float dt) {
  size_t i = get_global_id(0);
  if (i >= (size_t)n) return;
  size_t m = (size_t)(x * y);
  POS(p, DL_ASTA_T, m, i) += VEL(p, DL_ASTA_T, m, i) * dt;
}

// Parameters under preprocessor conditionals, before and after the annotated one.
//DL: AoS: p[n] AOS2ASTA_particle
//DL: record particle 48 16 float4:pos@0 float4:vel@16 float:mass@32 int:id@36
__kernel void advance_cond(
#ifdef EXTRA
    int extra,
#endif
    __global particle* p, __global const particle* src, int n, float dt
#ifdef FLAGS
    , __global int* flags
#endif
) {
  size_t i = get_global_id(0);
  if (i >= (size_t)n) return;
  POS(p, DL_ASTA_T, n, i) += src[i].vel * dt;
  ID(p, DL_ASTA_T, n, i) += 5;
#ifdef EXTRA
  ID(p, DL_ASTA_T, n, i) += extra;
#endif
#ifdef FLAGS
  if (i == 0) flags[0] = 1;
#endif
}

// Read-only kernels: one and two annotated buffers, results in a plain buffer.
//DL: AoS: const p[n] AOS2ASTA_particle
//DL: record particle 48 16 float4:pos@0 float4:vel@16 float:mass@32 int:id@36
__kernel void weigh(__global const particle* p, int n, __global float* out) {
  size_t i = get_global_id(0);
  if (i >= (size_t)n) return;
  out[i] = MASS(p, DL_ASTA_T, n, i) * (float)(ID(p, DL_ASTA_T, n, i) & 15) +
           POS(p, DL_ASTA_T, n, i).y;
}

// The same as discrete arrays.
//DL: AoS: const p[n] -> DA AOS2DA_particle
//DL: record particle 48 16 float4:pos@0 float4:vel@16 float:mass@32 int:id@36
__kernel void weigh_da(__global const particle* p, int n, __global float* out) {
  size_t i = get_global_id(0);
  if (i >= (size_t)n) return;
  out[i] = MASS(p, n, n, i) * (float)(ID(p, n, n, i) & 15) + VEL(p, n, n, i).z;
}

// Two arrays as discrete arrays.
//DL: AoS: const a[n] -> DA AOS2DA_particle, const b[n] -> DA AOS2DA_particle
//DL: record particle 48 16 float4:pos@0 float4:vel@16 float:mass@32 int:id@36
__kernel void weigh2_da(__global const particle* a, __global const particle* b, int n,
                        __global float* out) {
  size_t i = get_global_id(0);
  if (i >= (size_t)n) return;
  out[i] = MASS(a, n, n, i) - MASS(b, n, n, i) * 0.5f;
}

//DL: AoS: const a[n] AOS2ASTA_particle, const b[n] AOS2ASTA_particle
//DL: record particle 48 16 float4:pos@0 float4:vel@16 float:mass@32 int:id@36
__kernel void weigh2(__global const particle* a, __global const particle* b, int n,
                     __global float* out) {
  size_t i = get_global_id(0);
  if (i >= (size_t)n) return;
  out[i] = MASS(a, DL_ASTA_T, n, i) - MASS(b, DL_ASTA_T, n, i) * 0.5f;
}

// A flat array whose record length K is an argument (one program for every K; the
// runtime makes the record of K floats at each launch): the sum of each record.
//DL: AoS: const g:float[n][K] AOS2ASTA_flat_float
__kernel void row_sums(__global const float* g, int n, int K, __global float* out) {
  size_t i = get_global_id(0);
  if (i >= (size_t)n) return;
  float s = 0.0f;
  for (int j = 0; j < K; ++j)
#ifdef DL_ASTA_T
    s += *(__global const float*)((__global const char*)g +
                                  dl_tiled(DL_ASTA_T, n, 4 * K, i, 4 * j, 4));
#else
    s += g[i * K + j];
#endif
  out[i] = s;
}

// One annotated buffer and one plain buffer argument of the same record type.
//DL: AoS: p[n] AOS2ASTA_particle
//DL: record particle 48 16 float4:pos@0 float4:vel@16 float:mass@32 int:id@36
__kernel void pull(__global particle* p, __global const particle* src, int n) {
  size_t i = get_global_id(0);
  if (i >= (size_t)n) return;
  VEL(p, DL_ASTA_T, n, i) += src[i].vel * 0.25f;
  MASS(p, DL_ASTA_T, n, i) += src[i].mass;
}

// A record without padding (every byte is a field), written whole by a kernel that
// never reads it: `write_only`. It writes records [0, m) of the annotation's n.
typedef struct {
  float4 a;
  float4 b;
} pair4;

#ifdef DL_ASTA_T
#define PAIR_AT(base, W, n, i, o) \
  (*(__global float4*)((__global char*)(base) + dl_tiled((W), (n), 32, (i), (o), 16)))
#define PA(p, W, n, i) PAIR_AT(p, W, n, i, 0)
#define PB(p, W, n, i) PAIR_AT(p, W, n, i, 16)
#else
#define PA(p, W, n, i) (p)[i].a
#define PB(p, W, n, i) (p)[i].b
#endif

//DL: AoS: write_only p[n] AOS2ASTA_pair4
//DL: record pair4 32 16 float4:a@0 float4:b@16
__kernel void emit(__global pair4* p, int n, int m, float t) {
  size_t i = get_global_id(0);
  if (i >= (size_t)m) return;
  PA(p, DL_ASTA_T, n, i) = (float4)(t, (float)i, 1.0f, 2.0f);
  PB(p, DL_ASTA_T, n, i) = (float4)((float)(i & 15), t * 2.0f, -1.0f, 0.5f);
}

// Staged in local memory for work-groups of 64 (the launches of these tests), as
// `dl-annotate --stage-local --local-size=64` writes it: out[i] is written before in[i] is
// read twice, so in and out bound to one buffer must run the original (in reads the new
// value, a staged copy the old one).
//DL: local: in[n]
#ifdef DL_ASTA_T
__kernel void twice(__global const float* in, __global float* out, int n) {
  __local float dl_local_in[64];
  const int dl_staged = get_local_size(0) == 64 && get_local_size(1) == 1 && get_local_size(2) == 1;
  if (dl_staged) {
    const uint dl_lid = get_local_id(0) + 64 * (get_local_id(1) + 1 * get_local_id(2));
    {
      const long dl_origin = (long)get_global_offset(0) + 64 * (long)get_group_id(0);
      const long dl_end = (long)((long)(n));
      for (uint dl_t = dl_lid; dl_t < 64u; dl_t += 64u) {
        const long dl_g = dl_origin + ((int)(dl_t));
        if (dl_g >= 0 && dl_g < dl_end) dl_local_in[dl_t] = in[dl_g];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const int i = get_global_id(0);
  if (i >= n) return;
  out[i] = 2.0f * out[i];
  out[i] += (dl_staged ? dl_local_in[0 + (int)get_local_id(0)] : in[i]) * (dl_staged ? dl_local_in[0 + (int)get_local_id(0)] : in[i]);
}
#else
__kernel void twice(__global const float* in, __global float* out, int n) {
  const int i = get_global_id(0);
  if (i >= n) return;
  out[i] = 2.0f * out[i];
  out[i] += in[i] * in[i];
}
#endif

// The offset width's probe: launch k writes out[k], which says what ran it: 0 the
// application's kernel, 32 DL's build with 32-bit offsets, 64 its build with DL_OFFSET64.
//DL: AoS: p[n] AOS2ASTA_particle
//DL: record particle 48 16 float4:pos@0 float4:vel@16 float:mass@32 int:id@36
__kernel void width_probe(__global particle* p, int n, __global int* out, int k) {
  const size_t i = get_global_id(0);
  if (i >= (size_t)n) return;
  ID(p, DL_ASTA_T, n, i) += 1;
  if (i != 0) return;
#if defined(DL_ASTA_T) && defined(DL_OFFSET64)
  out[k] = 64;
#elif defined(DL_ASTA_T)
  out[k] = 32;
#else
  out[k] = 0;
#endif
}
