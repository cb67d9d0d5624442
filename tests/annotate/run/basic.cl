// Run-equivalence: field accesses of struct records.
struct foo {
  float bar;
  int baz;
};

typedef struct {
  char tag;
  short s;
  float v[3];
  double d;
  uint u;
} mixed;

//TEST: scale 1003 args: buf
//DL: AoS: f[global_size(0)]
__kernel void scale(__global struct foo *f) {
  f[get_global_id(0)].bar *= 2.0f;
  f[get_global_id(0)].baz += 3;
}

//TEST: produce 1003 args: buf int:1003 float:0.5
//DL: AoS: write_only f[n]
__kernel void produce(__global struct foo *f, int n, float k) {
  const int i = get_global_id(0);
  if (i >= n) return;
  f[i].bar = i * k;
  f[i].baz = 7 - i;
}

//TEST: fields 1003 args: buf int:1003 float:0.25
//DL: AoS: m[n]
__kernel void fields(__global mixed *m, int n, float k) {
  int i = get_global_id(0);
  if (i >= n) return;
  float s = 0.0f;
  for (int c = 0; c < 3; ++c) s += m[i].v[c] * k;
  (m + i)->d = (double)s + m[i].d;
  m[i].tag = (char)(m[i].tag + 1);
  m[i].s = (short)(m[i].s * 2 + 1);
  m[i].u ^= (uint)i;
  m[i].v[2] = m[i].v[0] - m[i].v[1];
}

//TEST: alias 1003 args: buf
//DL: AoS: f[global_size(0)]
__kernel void alias(__global struct foo *f) {
  __global struct foo *p = f + get_global_id(0);
  __global struct foo *q = &f[(get_global_id(0) + 7) % get_global_size(0)];
  p->bar = p->bar + (float)q->baz;
  (*p).bar -= (float)q[0].baz * 0.5f;
}

//TEST: gather 1003 args: buf ibuf:1003 fbuf:1003
//DL: AoS: f[global_size(0)]
__kernel void gather(__global const struct foo *f, __global const int *idx, __global float *out) {
  int i = get_global_id(0);
  out[i] = f[idx[i]].bar + (float)f[i].baz;
}
