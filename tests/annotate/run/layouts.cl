// Run-equivalence: target layouts fixed by the annotation, several buffers and kernels.
typedef struct {
  int key;
  float val;
  short w[2];
} item;

//TEST: to_da 1003 args: buf int:1003
//DL: AoS: a[n] -> DA
__kernel void to_da(__global item *a, int n) {
  int i = get_global_id(0);
  if (i < n) a[i].val += (float)a[i].w[1];
}

//TEST: fixed 1003 args: buf
//DL: AoS: a[global_size(0)] -> ASTA(8)
__kernel void fixed(__global item *a) {
  int i = get_global_id(0);
  a[i].key = a[i].key * 3 + a[i].w[0];
}

//TEST: pair 1003 args: buf buf int:1003
//DL: AoS: x[n] -> ASTA
//DL: AoS: y[n] -> DA
__kernel void pair(__global item *x, __global item *y, int n) {
  int i = get_global_id(0);
  item t = x[i];
  x[i] = y[i];
  y[i] = t;
}
