// ARGS: -DNZ=3
// Dimensions that name macros, from the source and from -D: dl-annotate writes their
// values into the completed annotation (the runtime reads numbers and parameters).
#define NX 10
#define NY (NX * 2)
#define STRIDE 20
#ifndef NZ
#define NZ 1
#endif

//DL: AoS: g[NX*NY*NZ][STRIDE]
__kernel void k(__global float *g) {
  int i = get_global_id(0);
  g[i * STRIDE + 3] = 1.0f;
}
