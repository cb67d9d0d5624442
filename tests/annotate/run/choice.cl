// Run-equivalence: layouts dl-annotate chooses from the accesses (no written target).
typedef struct {
  int key;
  float val;
  short w[2];
} item;

// y: strided AoS (ASTA); x: a gather through a loaded index (AoS kept, its accesses as
// written).
//TEST: gather 1003 args: buf buf int:1003
//DL: AoS: const x[n], y[n]
__kernel void gather(__global const item *x, __global item *y, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  const int j = (int)(abs(y[i].key) % (uint)n);
  const item g = x[j];
  for (int t = 0; t < 3; ++t) y[i].val += g.val * (float)t;
  y[i].w[0] = (short)(g.w[1] + x[j].key);
}

// The same record in every trip of the loop: AoS kept.
//TEST: accumulate 1003 args: buf int:1003
//DL: AoS: a[n]
__kernel void accumulate(__global item *a, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  for (int t = 1; t <= 4; ++t) {
    a[i].val += (float)t * 0.5f;
    a[i].key += t;
    a[i].w[1] ^= (short)t;
  }
}
