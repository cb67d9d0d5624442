// EXIT: 1
// EXPECT: macro_dimension_undefined.cl:7:12: error: dimension of 'g' names 'NZ', which is not a parameter of kernel 'k'
// A dimension naming neither a parameter nor a macro (NZ is defined only with -DNZ).
#define NX 10
#define STRIDE 20

//DL: AoS: g[NX*NZ][STRIDE]
__kernel void k(__global float *g) {
  g[get_global_id(0) * STRIDE] = 1.0f;
}
