// Run-equivalence: buffer pointers passed to helper functions.
typedef struct {
  float x, y;
  int hits;
} cell;

float norm2(__global const cell *c) { return c->x * c->x + c->y * c->y; }

void bump(__global cell *c, float by) {
  c->x += by;
  c[0].hits += (int)norm2(c);
}

void twice(__global cell *c) {
  bump(c, 1.0f);
  bump(c, 2.0f);
}

//TEST: run_helpers 1003 args: buf fbuf:1003
//DL: AoS: c[global_size(0)] -> ASTA
__kernel void run_helpers(__global cell *c, __global float *out) {
  size_t i = get_global_id(0);
  twice(&c[i]);
  out[i] = norm2(c + i);
}
