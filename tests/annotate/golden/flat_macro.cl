// A flat array with interleaved fields, accessed through macros (LBM style).
#define NQ 3
#define AT(g, e, q) (g[(q) + NQ * (e)])

//DL: AoS: g[nx][3]
__kernel void collide(__global float *g, int nx) {
  int e = get_global_id(0);
  if (e >= nx) return;
  float rho = AT(g, e, 0) + AT(g, e, 1) + g[NQ * e + 2];
  AT(g, e, 0) = rho;
}
