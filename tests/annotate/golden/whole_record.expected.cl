// Whole-record copies, nested structs included.
struct in {
  short a;
  char b;
};
struct rec {
  struct in i;
  float x;
};

//DL: record rec 8 4 short:i_a@0 char:i_b@2 float:x@4
//DL: AoS: r[global_size(0)] -> AoS AOS2ASTA_rec
__kernel void shift(__global struct rec *r, __global struct rec *out) {
  size_t g = get_global_id(0);
  struct rec v = r[g];
  v.x += 1.0f;
  out[g] = v;
  r[g].i = v.i;
}
