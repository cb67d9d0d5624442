// A batch of particle records, as a streaming application uploads one per step: each
// work-item reads one whole record and writes one number. The host keeps the records in
// AoS; the annotation lets DL read them in ASTA.
typedef struct {
  float4 pos;
  float4 vel;
  float mass;
  int id;
} particle;

//DL: AoS: const p[n]
__kernel void energy(__global const particle* p, __global float* out, int n) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const float4 v = p[i].vel;
  out[i] = 0.5f * p[i].mass * dot(v, v) + dot(p[i].pos, v) + (float)(p[i].id & 1023);
}
