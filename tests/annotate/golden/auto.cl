// ARGS: --auto
// Zero-touch: kernels nobody annotated get inferred annotations (n = the whole buffer),
// and a kernel annotated by hand keeps its own.
typedef struct {
  float4 pos;
  float3 vel;
  int id;
} particle;

#define NQ 5
#define AT(g, e, q) (g[(q) + NQ * (e)])

__kernel void integrate(__global particle *p, float dt) {
  const int i = get_global_id(0);
  p[i].pos.xyz += p[i].vel * dt;
}

// Records of NQ floats in a flat array (through a macro); `w` is a plain scalar array.
__kernel void collide(__global const float *g, __global float *w, int nx) {
  const int e = get_global_id(0);
  if (e >= nx) return;
  w[e] = AT(g, e, 0) + AT(g, e, 1) + g[NQ * e + 4];
}

//DL: AoS: p[n]
__kernel void annotated(__global particle *p, int n) {
  p[get_global_id(0)].id = 1;
}

// An access dl-annotate cannot prove it rewrites: nothing is inferred for this kernel.
__kernel void opaque(__global particle *p) {
  __global float *f = (__global float *)p;
  f[get_global_id(0)] = 0.0f;
}
