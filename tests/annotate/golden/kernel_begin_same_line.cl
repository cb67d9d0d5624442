// A kernel that begins on the line of the code before it: the #ifdef dl-annotate puts
// before the kernel must begin its line, or the directive would not be one (found by
// the fuzzer).
struct foo {
  float bar;
  int baz;
};

//DL: AoS: f[global_size(0)]
__constant float factor = 3.0f; __kernel void scale(__global struct foo *f) {
  f[get_global_id(0)].bar *= factor;
}
