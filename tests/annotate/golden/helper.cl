// &f[e] passed to a helper: the helper is specialised for the tiled layout.
typedef struct {
  float m;
  float v;
} atom;

void kick(__global atom *a, float f) { a->v += f / a->m; }

//DL: AoS: a[global_size(0)]
__kernel void step(__global atom *a, float f) {
  kick(&a[get_global_id(0)], f);
}
