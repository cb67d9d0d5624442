// Run-equivalence: counts from a field of a by-value struct argument and from sizeof.
typedef struct {
  int nx;
  long volume;
  struct {
    short tag;
    uint number_boxes;
  } grid;
} dim_str;

struct particle {
  float4 pos;
  float q;
};

// number_boxes = 250 (bytes 20..23): n = 1000 of the 1003 records.
//TEST: by_field 1003 args: buf:1003 bytes:0300000000000000000000000000000000000000fa000000 float:1.5
//DL: AoS: p[d.grid.number_boxes * 4]
__kernel void by_field(__global struct particle *p, dim_str d, float k) {
  const int i = get_global_id(0);
  p[i].q *= k * d.nx;
  p[i].pos.y += p[i].q;
}

//TEST: by_sizeof 1003 args: buf int:1003
//DL: AoS: g[n][sizeof(struct particle) / sizeof(float)]
__kernel void by_sizeof(__global float *g, int n) {
  const int i = get_global_id(0);
  if (i >= n) return;
  g[i * 8 + 4] += g[i * 8 + 1];
  g[i * 8 + 7] = 2.0f;
}

// Records of K floats, K a kernel argument: one program for every K.
//TEST: ell_scale 1003 args: buf buf int:1003 int:5
//TEST: ell_scale 1003 args: buf:1100 buf int:1003 int:3
//DL: AoS: val[rows][K], const w[rows][K]
__kernel void ell_scale(__global float *val, __global const float *w, int rows, int K) {
  const int i = get_global_id(0);
  if (i >= rows) return;
  float s = 0.0f;
  for (int k = 0; k < K; ++k) s += w[i * K + k];
  for (int k = 0; k < K; ++k) val[i * K + k] = val[i * K + k] * 0.5f + s;
  val[i * K] += 1.0f;
  val[K * i + 1] -= 2.0f;
}
