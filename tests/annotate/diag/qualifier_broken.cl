// EXIT: 1
// EXPECT: qualifier_broken.cl:8:23: error: 'out' is annotated write_only but kernel 'scale' reads it (line 11)
// EXPECT: qualifier_broken.cl:14:26: error: 'in' is annotated const but kernel 'copy' writes it (line 17)
// `const` and `write_only` are promises the runtime acts on: an access that breaks one
// is an error, and the kernel keeps its original code.
struct rec { float a; int b; };

//DL: AoS: write_only out[n]
__kernel void scale(__global struct rec *out, int n) {
  const int i = get_global_id(0);
  out[i].a *= 2.0f;
}

//DL: AoS: out[n], const in[n]
__kernel void copy(__global struct rec *out, __global struct rec *in, int n) {
  const int i = get_global_id(0);
  in[i].b = out[i].b;
}
