// Particle integration over an array of structures, annotated for DL.
typedef struct {
  float4 pos;
  float4 vel;
  float mass;
  int id;
} particle;

//DL: AoS: p[n]
__kernel void integrate(__global particle* p, int n, float dt) {
  int i = get_global_id(0);
  if (i >= n) return;
  float4 a = (float4)(-p[i].pos.x, -9.81f, -p[i].pos.z, 0.0f) / p[i].mass;
  p[i].vel += a * dt;
  p[i].pos += p[i].vel * dt;
  p[i].id += 1;
}
