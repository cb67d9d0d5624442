// Several annotated buffers per kernel, several kernels per file.
typedef struct {
  int key;
  float val;
} kv;

//DL: AoS: a[n], b[n]
__kernel void swap(__global kv *a, __global kv *b, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  float t = a[i].val;
  a[i].val = b[i].val;
  b[i].val = t;
}

__kernel void untouched(__global kv *a) { a[get_global_id(0)].key = 0; }

//DL: AoS: a[global_size(0)] -> ASTA(16)
__kernel void keys(__global kv *a) { a[get_global_id(0)].key += 1; }
