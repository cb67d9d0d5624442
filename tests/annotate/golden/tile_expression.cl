// A tile width given by the kernel's arguments (`-> ASTA(E)`): the rewrite reads it from
// them; a macro in it is expanded into the completed annotation (the runtime reads numbers
// and parameters only), and a constant one becomes ASTA(T).
#define HALF_NY (ny / 2)
#define TILE (64 / 2)

//DL: AoS: a:float[n][4] -> ASTA(HALF_NY), b:float[n][4] -> ASTA(TILE)
__kernel void k(__global float *a, __global float *b, int n, int ny) {
  const int i = get_global_id(0);
  if (i < n) a[i * 4] = b[i * 4 + 1];
}
