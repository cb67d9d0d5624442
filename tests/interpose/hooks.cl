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
// Byte offset of slot (o, z) of record i among n records stored with tile width W.
inline size_t dl_tiled(size_t W, size_t n, size_t R, size_t i, size_t o, size_t z) {
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
