// The paper's example (Listing 5.1): a field of a struct record, read and written.
struct foo {
  float bar;
  int baz;
};

// Doubles every bar.
//DL: AoS: f[global_size(0)]
__kernel void AoS(__global struct foo *f) {
  f[get_global_id(0)].bar *= 2.0f; /* comments stay */
}
