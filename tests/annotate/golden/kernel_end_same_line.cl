// A kernel whose closing brace shares its line with the next declaration: the #endif
// dl-annotate puts after the kernel must end its line, or the declaration would be lost
// in the directive.
struct foo {
  float bar;
  int baz;
};

//DL: AoS: f[global_size(0)]
__kernel void scale(__global struct foo *f) {
  f[get_global_id(0)].bar *= 2.0f;
} __constant float factor = 3.0f;

__kernel void plain(__global float *x) { x[get_global_id(0)] *= factor; }
