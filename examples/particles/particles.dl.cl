// particles.cl as dl-annotate rewrites it (kept for builds without the annotator): the
// AoS path by default, ASTA(DL_ASTA_T) when the DL runtime builds it with -DDL_ASTA_T.
typedef struct {
  float4 pos;
  float4 vel;
  float mass;
  int id;
} particle;

#ifdef DL_ASTA_T
inline size_t dl_tiled(size_t n, size_t R, size_t i, size_t o, size_t z) {
  if (i >= n) return i * R + o;  // records from n on stay AoS
  size_t b = (i / DL_ASTA_T) * DL_ASTA_T;
  return b * R + min(n - b, (size_t)DL_ASTA_T) * o + (i - b) * z;
}
#define F(p, n, i, type, o) (*(__global type*)((__global char*)(p) + dl_tiled((n), 48, (i), (o), sizeof(type))))
#else
#define F(p, n, i, type, o) (*(__global type*)((__global char*)(p) + (size_t)(i) * 48 + (o)))
#endif

//DL: AoS: p[n] AOS2ASTA_particle
//DL: record particle 48 16 float4:pos@0 float4:vel@16 float:mass@32 int:id@36
__kernel void integrate(__global particle* p, int n, float dt) {
  int i = get_global_id(0);
  if (i >= n) return;
  float4 pos = F(p, n, i, float4, 0);
  float4 a = (float4)(-pos.x, -9.81f, -pos.z, 0.0f) / F(p, n, i, float, 32);
  float4 vel = F(p, n, i, float4, 16) + a * dt;
  F(p, n, i, float4, 16) = vel;
  F(p, n, i, float4, 0) = pos + vel * dt;
  F(p, n, i, int, 36) += 1;
}
