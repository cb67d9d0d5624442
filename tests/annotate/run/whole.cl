// Run-equivalence: whole-record copies, nested structs.
struct inner {
  short a;
  char b;
};

struct outer {
  struct inner in;
  double d;
  struct inner arr[2];
  int k;
};

//TEST: rotate_copy 1003 args: buf buf
//DL: AoS: src[global_size(0)] -> ASTA, dst[global_size(0)]
__kernel void rotate_copy(__global const struct outer *src, __global struct outer *dst) {
  size_t i = get_global_id(0);
  size_t j = (i + 1) % get_global_size(0);
  struct outer v = src[j];
  v.d += 1.0;
  v.k = (int)i;
  dst[i] = v;
}

//TEST: nested 1003 args: buf
//DL: AoS: s[global_size(0)]
__kernel void nested(__global struct outer *s) {
  size_t i = get_global_id(0);
  s[i].in = s[i].arr[1];
  s[i].arr[0].a = (short)(s[i].in.a + s[i].arr[0].b);
  struct inner t = s[i].arr[0];
  s[i].arr[1] = t;
}
