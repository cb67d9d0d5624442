// Counts the compiler must compute: fields of a by-value struct argument (completed with
// their byte offset and integer type, read by the runtime from the argument's bytes) and
// sizeof(type) (replaced by its size).
#define PER_BOX 4
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

//DL: AoS: p[d.grid.number_boxes * PER_BOX]
__kernel void by_field(__global struct particle *p, dim_str d, float k) {
  const int i = get_global_id(0);
  if (i >= d.grid.number_boxes * PER_BOX) return;
  p[i].q *= k;
}

//DL: AoS: g[n][sizeof(struct particle) / sizeof(float)]
__kernel void by_sizeof(__global float *g, int n) {
  const int i = get_global_id(0);
  if (i >= n) return;
  g[i * 8 + 4] += 1.0f;
}
