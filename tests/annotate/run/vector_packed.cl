// Run-equivalence: vector members, packed and aligned records, __constant records.
typedef struct {
  float4 pos;
  float4 vel;
  float mass;
} body;

typedef struct __attribute__((packed)) {
  char c;
  int i;
  short s;
} packed_rec;

typedef struct __attribute__((aligned(16))) {
  int a;
  float b;
} aligned_rec;

//TEST: integrate 1003 args: buf float:0.5
//DL: AoS: b[global_size(0)]
__kernel void integrate(__global body *b, float dt) {
  size_t i = get_global_id(0);
  b[i].pos += b[i].vel * dt;
  b[i].vel.y -= b[i].mass;
  b[i].pos.w = b[i].vel.x;
}

//TEST: packed 1003 args: buf
//DL: AoS: p[global_size(0)]
__kernel void packed(__global packed_rec *p) {
  size_t i = get_global_id(0);
  packed_rec t = p[i];
  t.i += t.c;
  p[i] = t;
  p[i].s = (short)(p[i].s - 1);
}

//TEST: aligned 1003 args: buf buf
//DL: AoS: a[global_size(0)], const k[global_size(0)]
__kernel void aligned(__global aligned_rec *a, __constant aligned_rec *k) {
  size_t i = get_global_id(0);
  a[i].a += k[i].a;
  a[i].b *= k[i].b;
}
