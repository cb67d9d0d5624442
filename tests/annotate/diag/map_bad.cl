// EXIT: 1
// EXPECT: map_bad.cl:8:12: error: 'x' of the map x[f] must point to const: the gathered copy holds what it held when the launch began, so the kernel may not write it
// EXPECT: map_bad.cl:13:12: error: 'y' points to 'struct pair': a gather copies scalars or vectors
// A mapped array the kernel could write; one of structs.
struct pair { int a, b; };
int f(int i) { return i + 1; }

//DL: map: x[f]
__kernel void k(__global float* x) {
  x[f(get_global_id(0))] += 1.0f;
}

//DL: map: y[f]
__kernel void k2(__global const struct pair* y, __global int* o) {
  o[0] = y[f(0)].a;
}
