// A target layout fixed by the annotation: discrete arrays.
struct foo {
  float bar;
  int baz;
};

//DL: AoS: f[global_size(0)] -> DA
__kernel void bump(__global struct foo *f) {
  f[get_global_id(0)].baz++;
}
