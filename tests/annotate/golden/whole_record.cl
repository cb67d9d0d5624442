// Whole-record copies, nested structs included.
struct in {
  short a;
  char b;
};
struct rec {
  struct in i;
  float x;
};

//DL: AoS: r[global_size(0)]
__kernel void shift(__global struct rec *r, __global struct rec *out) {
  size_t g = get_global_id(0);
  struct rec v = r[g];
  v.x += 1.0f;
  out[g] = v;
  r[g].i = v.i;
}
