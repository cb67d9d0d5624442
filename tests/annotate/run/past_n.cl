// Run-equivalence: kernels that touch more records than the annotation's n. The buffer
// holds cap records and the kernel is guarded by i < cap; only the first n are in the
// annotated layout (the runtime marshals n records), records n..cap-1 stay AoS and the
// rewritten kernel must address them as AoS. n % T in {0, 1, T-1} for T = 4, 8, 32
// (992, 993, 991); cap = n checks that nothing is written past a buffer of n records.
typedef struct {
  float x;
  int k;
  short s[3];
} rec;

void twice(__global rec *r) { r->x *= 2.0f; }

//TEST: fields 1024 args: buf:1000 int:992 int:1000
//TEST: fields 1024 args: buf:1000 int:993 int:1000
//TEST: fields 1024 args: buf:1000 int:991 int:1000
//TEST: fields 1024 args: buf int:993 int:993
//DL: AoS: p[n]
__kernel void fields(__global rec *p, int n, int cap) {
  int i = get_global_id(0);
  if (i >= cap) return;
  p[i].x = p[i].x + (float)p[i].k;
  p[i].s[1] += p[i].s[2];
  p[i].k ^= i;
  twice(p + i);
}

//TEST: whole 1024 args: buf:1000 buf:1000 int:992 int:1000
//TEST: whole 1024 args: buf:1000 buf:1000 int:993 int:1000
//TEST: whole 1024 args: buf:1000 buf:1000 int:991 int:1000
//TEST: whole 1024 args: buf buf int:991 int:991
//DL: AoS: p[n] -> ASTA, q[n]
__kernel void whole(__global const rec *p, __global rec *q, int n, int cap) {
  int i = get_global_id(0);
  if (i >= cap) return;
  rec v = p[(i + 3) % cap];
  v.k += i;
  q[i] = v;
}

//TEST: da 1024 args: buf:1000 buf:1000 int:992 int:1000
//TEST: da 1024 args: buf:1000 buf:1000 int:993 int:1000
//TEST: da 1024 args: buf:1000 buf:1000 int:991 int:1000
//TEST: da 1024 args: buf buf int:992 int:992
//DL: AoS: p[n] -> DA, q[n] -> DA
__kernel void da(__global const rec *p, __global rec *q, int n, int cap) {
  int i = get_global_id(0);
  if (i >= cap) return;
  rec v = p[(i + 5) % cap];
  q[i].x += v.x;
  q[i].s[0] = (short)i;
}

//TEST: fixed 1024 args: buf:1000 int:992 int:1000
//TEST: fixed 1024 args: buf:1000 int:993 int:1000
//TEST: fixed 1024 args: buf:1000 int:991 int:1000
//TEST: fixed 1024 args: buf int:991 int:991
//DL: AoS: p[n] -> ASTA(8)
__kernel void fixed(__global rec *p, int n, int cap) {
  int i = get_global_id(0);
  if (i < cap) p[i].k = p[i].k * 3 + p[i].s[1];
}

//TEST: flat 1024 args: buf:1000 int:992 int:1000
//TEST: flat 1024 args: buf:1000 int:993 int:1000
//TEST: flat 1024 args: buf:1000 int:991 int:1000
//TEST: flat 1024 args: buf int:993 int:993
//DL: AoS: g[n][5]
__kernel void flat(__global float *g, int n, int cap) {
  int i = get_global_id(0);
  if (i >= cap) return;
  g[5 * i + 4] += g[(5 * i + 7) % (5 * cap)];
  g[5 * i + 1] *= 0.5f;
}

//TEST: flat_da 1024 args: buf:1000 int:992 int:1000
//TEST: flat_da 1024 args: buf:1000 int:993 int:1000
//TEST: flat_da 1024 args: buf:1000 int:991 int:1000
//TEST: flat_da 1024 args: buf int:991 int:991
//DL: AoS: g[n][5] -> DA
__kernel void flat_da(__global float *g, int n, int cap) {
  int i = get_global_id(0);
  if (i >= cap) return;
  g[5 * i + 2] -= g[(5 * i + 11) % (5 * cap)];
}
